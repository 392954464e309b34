// Sort of 2^26 u32 keys (CUB DeviceRadixSort::SortKeys's case).
func.func @sort(%k: tensor<67108864xi32>) -> tensor<67108864xi32> {
  %r = tessel.sort dimension(0) outs(%k : tensor<67108864xi32>) {
    ^bb0(%a: i32, %b: i32):
      %c = arith.cmpi ult, %a, %b : i32
      tessel.yield %c : i1
  } -> tensor<67108864xi32>
  return %r : tensor<67108864xi32>
}
