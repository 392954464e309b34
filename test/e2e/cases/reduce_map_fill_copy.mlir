// linalg.reduce (over the middle dim with addf; over dims [0, 2] with
// maximumf), linalg.map (binary, body computing a*b+1; note that in MLIR 22
// the map body also receives the init element as a last block argument),
// linalg.fill of a non-zero value, linalg.copy.
func.func @rmfc(%x: tensor<37x53x19xf32>, %a: tensor<29x31xf32>, %b: tensor<29x31xf32>)
    -> (tensor<37x19xf32>, tensor<53xf32>, tensor<29x31xf32>, tensor<17x23xf32>, tensor<29x31xf32>) {
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %e0 = tensor.empty() : tensor<37x19xf32>
  %z0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<37x19xf32>) -> tensor<37x19xf32>
  %sum = linalg.reduce ins(%x : tensor<37x53x19xf32>) outs(%z0 : tensor<37x19xf32>) dimensions = [1]
    (%in: f32, %acc: f32) {
      %s = arith.addf %in, %acc : f32
      linalg.yield %s : f32
    }
  %e1 = tensor.empty() : tensor<53xf32>
  %z1 = linalg.fill ins(%ninf : f32) outs(%e1 : tensor<53xf32>) -> tensor<53xf32>
  %max = linalg.reduce ins(%x : tensor<37x53x19xf32>) outs(%z1 : tensor<53xf32>) dimensions = [0, 2]
    (%in: f32, %acc: f32) {
      %m = arith.maximumf %in, %acc : f32
      linalg.yield %m : f32
    }
  %e2 = tensor.empty() : tensor<29x31xf32>
  %mapped = linalg.map ins(%a, %b : tensor<29x31xf32>, tensor<29x31xf32>) outs(%e2 : tensor<29x31xf32>)
    (%p: f32, %q: f32, %unused_out: f32) {
      %one = arith.constant 1.0 : f32
      %pq = arith.mulf %p, %q : f32
      %r = arith.addf %pq, %one : f32
      linalg.yield %r : f32
    }
  %c = arith.constant 2.5 : f32
  %e3 = tensor.empty() : tensor<17x23xf32>
  %filled = linalg.fill ins(%c : f32) outs(%e3 : tensor<17x23xf32>) -> tensor<17x23xf32>
  %e4 = tensor.empty() : tensor<29x31xf32>
  %copied = linalg.copy ins(%b : tensor<29x31xf32>) outs(%e4 : tensor<29x31xf32>) -> tensor<29x31xf32>
  return %sum, %max, %mapped, %filled, %copied
    : tensor<37x19xf32>, tensor<53xf32>, tensor<29x31xf32>, tensor<17x23xf32>, tensor<29x31xf32>
}
