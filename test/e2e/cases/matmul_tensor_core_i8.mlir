// i8 x i8 -> i32 contractions that take the tensor-core (mma.sync
// m16n8k32) strategy on cuda: k-contiguous operands (x @ W^T), signed and
// unsigned products (arith.extui in a generic), rows that are 16-byte aligned (K a
// multiple of 16: cp.async) and not (register copies), an i32 accumulator
// initialised from an argument, and a batch matmul.
#mk = affine_map<(m, n, k) -> (m, k)>
#nk = affine_map<(m, n, k) -> (n, k)>
#mn = affine_map<(m, n, k) -> (m, n)>
func.func @s8_nt(%a: tensor<133x208xi8>, %b: tensor<72x208xi8>, %c: tensor<133x72xi32>) -> tensor<133x72xi32> {
  %r = linalg.matmul indexing_maps = [#mk, #nk, #mn] ins(%a, %b : tensor<133x208xi8>, tensor<72x208xi8>) outs(%c : tensor<133x72xi32>) -> tensor<133x72xi32>
  return %r : tensor<133x72xi32>
}
func.func @u8_unaligned(%a: tensor<65x77xi8>, %b: tensor<31x77xi8>) -> tensor<65x31xi32> {
  %zero = arith.constant 0 : i32
  %e = tensor.empty() : tensor<65x31xi32>
  %z = linalg.fill ins(%zero : i32) outs(%e : tensor<65x31xi32>) -> tensor<65x31xi32>
  %r = linalg.generic {indexing_maps = [#mk, #nk, #mn], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %b : tensor<65x77xi8>, tensor<31x77xi8>) outs(%z : tensor<65x31xi32>) {
  ^bb0(%x: i8, %y: i8, %acc: i32):
    %xi = arith.extui %x : i8 to i32
    %yi = arith.extui %y : i8 to i32
    %p = arith.muli %xi, %yi : i32
    %s = arith.addi %acc, %p : i32
    linalg.yield %s : i32
  } -> tensor<65x31xi32>
  return %r : tensor<65x31xi32>
}
func.func @s8_batch(%a: tensor<3x40x96xi8>, %b: tensor<3x24x96xi8>) -> tensor<3x40x24xi32> {
  %zero = arith.constant 0 : i32
  %e = tensor.empty() : tensor<3x40x24xi32>
  %z = linalg.fill ins(%zero : i32) outs(%e : tensor<3x40x24xi32>) -> tensor<3x40x24xi32>
  %r = linalg.batch_matmul indexing_maps = [affine_map<(b, m, n, k) -> (b, m, k)>, affine_map<(b, m, n, k) -> (b, n, k)>, affine_map<(b, m, n, k) -> (b, m, n)>]
      ins(%a, %b : tensor<3x40x96xi8>, tensor<3x24x96xi8>) outs(%z : tensor<3x40x24xi32>) -> tensor<3x40x24xi32>
  return %r : tensor<3x40x24xi32>
}
