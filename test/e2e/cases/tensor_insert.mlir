// tensor.insert: set one element at a constant position, one at a position
// read from a tensor (data-dependent), and one out of range (no change).
func.func @insert(%x: tensor<13x17xf32>, %at: tensor<2xi32>, %v: tensor<f32>) -> tensor<13x17xf32> {
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c0 = arith.constant 0 : index
  %c99 = arith.constant 99 : index
  %s = arith.constant 42.5 : f32
  %a = tensor.insert %s into %x[%c1, %c4] : tensor<13x17xf32>
  %i32 = tensor.extract %at[%c0] : tensor<2xi32>
  %j32 = tensor.extract %at[%c1] : tensor<2xi32>
  %i = arith.index_cast %i32 : i32 to index
  %j = arith.index_cast %j32 : i32 to index
  %val = tensor.extract %v[] : tensor<f32>
  %b = tensor.insert %val into %a[%i, %j] : tensor<13x17xf32>
  %c = tensor.insert %s into %b[%c99, %c0] : tensor<13x17xf32>
  return %c : tensor<13x17xf32>
}
