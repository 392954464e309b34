// Key-value sort of 2^26 u32 keys (i32 compared unsigned) with u32 values
// (CUB DeviceRadixSort::SortPairs's case).
func.func @sort(%k: tensor<67108864xi32>, %v: tensor<67108864xi32>) -> (tensor<67108864xi32>, tensor<67108864xi32>) {
  %r:2 = tessel.sort dimension(0) outs(%k, %v : tensor<67108864xi32>, tensor<67108864xi32>) {
    ^bb0(%a: i32, %b: i32, %x: i32, %y: i32):
      %c = arith.cmpi ult, %a, %b : i32
      tessel.yield %c : i1
  } -> tensor<67108864xi32>, tensor<67108864xi32>
  return %r#0, %r#1 : tensor<67108864xi32>, tensor<67108864xi32>
}
