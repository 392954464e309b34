// An elementwise kernel whose rows are a multiple of four floats, and a row
// sum along the contiguous dimension.
func.func @ew(%a: tensor<37x1024xf32>, %b: tensor<37x1024xf32>) -> tensor<37x1024xf32> {
  %0 = arith.addf %a, %b : tensor<37x1024xf32>
  %1 = math.exp %0 : tensor<37x1024xf32>
  return %1 : tensor<37x1024xf32>
}
func.func @rowsum(%a: tensor<257x1001xf32>) -> tensor<257xf32> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<257xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<257xf32>) -> tensor<257xf32>
  %r = linalg.reduce ins(%a : tensor<257x1001xf32>) outs(%f : tensor<257xf32>) dimensions = [1]
    (%x: f32, %acc: f32) { %s = arith.addf %x, %acc : f32
      linalg.yield %s : f32 }
  return %r : tensor<257xf32>
}
