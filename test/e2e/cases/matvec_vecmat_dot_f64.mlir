// linalg.matvec, linalg.vecmat and linalg.dot in f64. The dot product
// returns a rank-0 tensor<f64>. Three results from one function.
func.func @mv(%m: tensor<67x129xf64>, %x: tensor<129xf64>, %y: tensor<67xf64>,
              %u: tensor<1023xf64>, %v: tensor<1023xf64>)
    -> (tensor<67xf64>, tensor<129xf64>, tensor<f64>) {
  %zero = arith.constant 0.0 : f64
  %e0 = tensor.empty() : tensor<67xf64>
  %z0 = linalg.fill ins(%zero : f64) outs(%e0 : tensor<67xf64>) -> tensor<67xf64>
  %mv = linalg.matvec ins(%m, %x : tensor<67x129xf64>, tensor<129xf64>)
                      outs(%z0 : tensor<67xf64>) -> tensor<67xf64>
  %e1 = tensor.empty() : tensor<129xf64>
  %z1 = linalg.fill ins(%zero : f64) outs(%e1 : tensor<129xf64>) -> tensor<129xf64>
  %vm = linalg.vecmat ins(%y, %m : tensor<67xf64>, tensor<67x129xf64>)
                      outs(%z1 : tensor<129xf64>) -> tensor<129xf64>
  %e2 = tensor.empty() : tensor<f64>
  %z2 = linalg.fill ins(%zero : f64) outs(%e2 : tensor<f64>) -> tensor<f64>
  %d = linalg.dot ins(%u, %v : tensor<1023xf64>, tensor<1023xf64>)
                  outs(%z2 : tensor<f64>) -> tensor<f64>
  return %mv, %vm, %d : tensor<67xf64>, tensor<129xf64>, tensor<f64>
}
