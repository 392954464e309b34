// Edge shapes of the CPU packed-panel strategy (tessel-cpu-packed-matmul):
// the smallest problems that take it (M = 2 MR, N = NR, K = 128), K blocks
// of 256 +- 1, partial MR row groups and NR panels, B stored N x K (a linear
// layer), a batch, accumulation into an argument, f64, and convolutions as
// implicit GEMMs (odd images, stride 2, dilation 2, a 7x7 RGB stem).
func.func @pk_min(%a: tensor<17x128xf32>, %b: tensor<128x33xf32>) -> tensor<17x33xf32> {
  %zero = arith.constant 0.0 : f32
  %init = tensor.empty() : tensor<17x33xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%init : tensor<17x33xf32>) -> tensor<17x33xf32>
  %r = linalg.matmul ins(%a, %b : tensor<17x128xf32>, tensor<128x33xf32>) outs(%acc : tensor<17x33xf32>) -> tensor<17x33xf32>
  return %r : tensor<17x33xf32>
}
func.func @pk_kc_edges(%a: tensor<97x257xf32>, %b: tensor<257x95xf32>) -> tensor<97x95xf32> {
  %zero = arith.constant 0.0 : f32
  %init = tensor.empty() : tensor<97x95xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%init : tensor<97x95xf32>) -> tensor<97x95xf32>
  %r = linalg.matmul ins(%a, %b : tensor<97x257xf32>, tensor<257x95xf32>) outs(%acc : tensor<97x95xf32>) -> tensor<97x95xf32>
  return %r : tensor<97x95xf32>
}
func.func @pk_odd(%a: tensor<255x513xf32>, %b: tensor<513x257xf32>) -> tensor<255x257xf32> {
  %zero = arith.constant 0.0 : f32
  %init = tensor.empty() : tensor<255x257xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%init : tensor<255x257xf32>) -> tensor<255x257xf32>
  %r = linalg.matmul ins(%a, %b : tensor<255x513xf32>, tensor<513x257xf32>) outs(%acc : tensor<255x257xf32>) -> tensor<255x257xf32>
  return %r : tensor<255x257xf32>
}
func.func @pk_f64(%a: tensor<60x140xf64>, %b: tensor<140x50xf64>) -> tensor<60x50xf64> {
  %zero = arith.constant 0.0 : f64
  %init = tensor.empty() : tensor<60x50xf64>
  %acc = linalg.fill ins(%zero : f64) outs(%init : tensor<60x50xf64>) -> tensor<60x50xf64>
  %r = linalg.matmul ins(%a, %b : tensor<60x140xf64>, tensor<140x50xf64>) outs(%acc : tensor<60x50xf64>) -> tensor<60x50xf64>
  return %r : tensor<60x50xf64>
}
func.func @pk_linear(%a: tensor<129x300xf32>, %w: tensor<67x300xf32>) -> tensor<129x67xf32> {
  %zero = arith.constant 0.0 : f32
  %init = tensor.empty() : tensor<129x67xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%init : tensor<129x67xf32>) -> tensor<129x67xf32>
  %r = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
      ins(%a, %w : tensor<129x300xf32>, tensor<67x300xf32>) outs(%acc : tensor<129x67xf32>) -> tensor<129x67xf32>
  return %r : tensor<129x67xf32>
}
func.func @pk_batch(%a: tensor<3x45x200xf32>, %b: tensor<3x200x70xf32>) -> tensor<3x45x70xf32> {
  %zero = arith.constant 0.0 : f32
  %init = tensor.empty() : tensor<3x45x70xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%init : tensor<3x45x70xf32>) -> tensor<3x45x70xf32>
  %r = linalg.batch_matmul ins(%a, %b : tensor<3x45x200xf32>, tensor<3x200x70xf32>) outs(%acc : tensor<3x45x70xf32>) -> tensor<3x45x70xf32>
  return %r : tensor<3x45x70xf32>
}
func.func @pk_acc(%a: tensor<70x130xf32>, %b: tensor<130x50xf32>, %c: tensor<70x50xf32>) -> tensor<70x50xf32> {
  %r = linalg.matmul ins(%a, %b : tensor<70x130xf32>, tensor<130x50xf32>) outs(%c : tensor<70x50xf32>) -> tensor<70x50xf32>
  return %r : tensor<70x50xf32>
}
func.func @pk_conv_odd(%x: tensor<2x13x11x16xf32>, %f: tensor<3x3x16x33xf32>) -> tensor<2x11x9x33xf32> {
  %zero = arith.constant 0.0 : f32
  %init = tensor.empty() : tensor<2x11x9x33xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%init : tensor<2x11x9x33xf32>) -> tensor<2x11x9x33xf32>
  %r = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%x, %f : tensor<2x13x11x16xf32>, tensor<3x3x16x33xf32>) outs(%acc : tensor<2x11x9x33xf32>) -> tensor<2x11x9x33xf32>
  return %r : tensor<2x11x9x33xf32>
}
func.func @pk_conv_stride2(%x: tensor<3x17x19x24xf32>, %f: tensor<3x3x24x40xf32>) -> tensor<3x8x9x40xf32> {
  %zero = arith.constant 0.0 : f32
  %init = tensor.empty() : tensor<3x8x9x40xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%init : tensor<3x8x9x40xf32>) -> tensor<3x8x9x40xf32>
  %r = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
      ins(%x, %f : tensor<3x17x19x24xf32>, tensor<3x3x24x40xf32>) outs(%acc : tensor<3x8x9x40xf32>) -> tensor<3x8x9x40xf32>
  return %r : tensor<3x8x9x40xf32>
}
func.func @pk_conv_dilated(%x: tensor<2x15x15x24xf32>, %f: tensor<3x2x24x40xf32>) -> tensor<2x11x13x40xf32> {
  %zero = arith.constant 0.0 : f32
  %init = tensor.empty() : tensor<2x11x13x40xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%init : tensor<2x11x13x40xf32>) -> tensor<2x11x13x40xf32>
  %r = linalg.conv_2d_nhwc_hwcf {dilations = dense<2> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%x, %f : tensor<2x15x15x24xf32>, tensor<3x2x24x40xf32>) outs(%acc : tensor<2x11x13x40xf32>) -> tensor<2x11x13x40xf32>
  return %r : tensor<2x11x13x40xf32>
}
func.func @pk_conv_stem(%x: tensor<1x23x23x3xf32>, %f: tensor<7x7x3x17xf32>) -> tensor<1x9x9x17xf32> {
  %zero = arith.constant 0.0 : f32
  %init = tensor.empty() : tensor<1x9x9x17xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%init : tensor<1x9x9x17xf32>) -> tensor<1x9x9x17xf32>
  %r = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
      ins(%x, %f : tensor<1x23x23x3xf32>, tensor<7x7x3x17xf32>) outs(%acc : tensor<1x9x9x17xf32>) -> tensor<1x9x9x17xf32>
  return %r : tensor<1x9x9x17xf32>
}
