// Exclusive sum of 2^28 i32 from 0 (CUB DeviceScan::ExclusiveSum's case).
func.func @scan(%x: tensor<268435456xi32>) -> tensor<268435456xi32> {
  %o = tensor.empty() : tensor<268435456xi32>
  %c0 = arith.constant 0 : i32
  %a0 = tensor.empty() : tensor<i32>
  %a = linalg.fill ins(%c0 : i32) outs(%a0 : tensor<i32>) -> tensor<i32>
  %r:2 = tessel.scan dimension(0) inclusive(false)
      ins(%x : tensor<268435456xi32>) outs(%o, %a : tensor<268435456xi32>, tensor<i32>) {
    ^bb0(%l: i32, %v: i32):
      %s = arith.addi %l, %v : i32
      tessel.yield %s : i32
  } -> tensor<268435456xi32>, tensor<i32>
  return %r#0 : tensor<268435456xi32>
}
