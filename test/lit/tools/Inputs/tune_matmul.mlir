// A small f16 matmul for tessel-tune.test, an f32 one the cpu packs (K >=
// 128), and an i1 function it cannot draw inputs for.
func.func @matmul(%a: tensor<512x128xf16>, %b: tensor<128x256xf16>) -> tensor<512x256xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<512x256xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<512x256xf32>) -> tensor<512x256xf32>
  %r = linalg.matmul ins(%a, %b : tensor<512x128xf16>, tensor<128x256xf16>) outs(%z : tensor<512x256xf32>) -> tensor<512x256xf32>
  return %r : tensor<512x256xf32>
}
func.func @matmul_f32(%a: tensor<300x256xf32>, %b: tensor<256x200xf32>) -> tensor<300x200xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<300x200xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<300x200xf32>) -> tensor<300x200xf32>
  %r = linalg.matmul ins(%a, %b : tensor<300x256xf32>, tensor<256x200xf32>) outs(%z : tensor<300x200xf32>) -> tensor<300x200xf32>
  return %r : tensor<300x200xf32>
}
func.func @not_i1(%a: tensor<64xi1>) -> tensor<64xi1> {
  %e = tensor.empty() : tensor<64xi1>
  %r = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%a : tensor<64xi1>) outs(%e : tensor<64xi1>) {
  ^bb0(%x: i1, %o: i1):
    %t = arith.constant true
    %n = arith.xori %x, %t : i1
    linalg.yield %n : i1
  } -> tensor<64xi1>
  return %r : tensor<64xi1>
}
