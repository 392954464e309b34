// A small CNN block: 3x3 conv (nhwc/hwcf, stride 1, "same" via tensor.pad)
// + per-channel bias + relu + 2x2 max pool (stride 2; odd spatial size, so
// the last row/column is dropped).
#id4 = affine_map<(n, h, w, c) -> (n, h, w, c)>
#ch = affine_map<(n, h, w, c) -> (c)>
func.func @block(%x: tensor<2x21x19x6xf32>, %f: tensor<3x3x6x10xf32>, %bias: tensor<10xf32>) -> tensor<2x10x9x10xf32> {
  %zero = arith.constant 0.0 : f32
  %xp = tensor.pad %x low[0, 1, 1, 0] high[0, 1, 1, 0] {
  ^bb0(%a: index, %b: index, %c: index, %d: index):
    tensor.yield %zero : f32
  } : tensor<2x21x19x6xf32> to tensor<2x23x21x6xf32>
  %e = tensor.empty() : tensor<2x21x19x10xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<2x21x19x10xf32>) -> tensor<2x21x19x10xf32>
  %conv = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
            ins(%xp, %f : tensor<2x23x21x6xf32>, tensor<3x3x6x10xf32>) outs(%z : tensor<2x21x19x10xf32>) -> tensor<2x21x19x10xf32>
  %act = linalg.generic {indexing_maps = [#id4, #ch, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%conv, %bias : tensor<2x21x19x10xf32>, tensor<10xf32>) outs(%e : tensor<2x21x19x10xf32>) {
  ^bb0(%v: f32, %b: f32, %o: f32):
    %s = arith.addf %v, %b : f32
    %r = arith.maximumf %s, %zero : f32
    linalg.yield %r : f32
  } -> tensor<2x21x19x10xf32>
  %ninf = arith.constant 0xFF800000 : f32
  %win = tensor.empty() : tensor<2x2xf32>
  %ep = tensor.empty() : tensor<2x10x9x10xf32>
  %ip = linalg.fill ins(%ninf : f32) outs(%ep : tensor<2x10x9x10xf32>) -> tensor<2x10x9x10xf32>
  %pool = linalg.pooling_nhwc_max {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
            ins(%act, %win : tensor<2x21x19x10xf32>, tensor<2x2xf32>) outs(%ip : tensor<2x10x9x10xf32>) -> tensor<2x10x9x10xf32>
  return %pool : tensor<2x10x9x10xf32>
}
