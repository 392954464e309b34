// tessel.sort: a stable key-value sort (i32 keys with many duplicates,
// f32 values carried along), descending f32 rows, and a sort by two keys.
func.func @sort_kv(%k: tensor<5001xi32>, %v: tensor<5001xf32>) -> (tensor<5001xi32>, tensor<5001xf32>) {
  %r:2 = tessel.sort dimension(0) outs(%k, %v : tensor<5001xi32>, tensor<5001xf32>) {
    ^bb0(%a: i32, %b: i32, %x: f32, %y: f32):
      %c = arith.cmpi slt, %a, %b : i32
      tessel.yield %c : i1
  } -> tensor<5001xi32>, tensor<5001xf32>
  return %r#0, %r#1 : tensor<5001xi32>, tensor<5001xf32>
}

func.func @sort_rows_desc(%x: tensor<17x129xf32>) -> tensor<17x129xf32> {
  %r = tessel.sort dimension(1) outs(%x : tensor<17x129xf32>) {
    ^bb0(%a: f32, %b: f32):
      %c = arith.cmpf ogt, %a, %b : f32
      tessel.yield %c : i1
  } -> tensor<17x129xf32>
  return %r : tensor<17x129xf32>
}

// Lexicographic (first key ascending, then second key descending) along
// the columns of a 2-D tensor.
func.func @sort_two_keys(%a: tensor<301x3xi32>, %b: tensor<301x3xi32>) -> (tensor<301x3xi32>, tensor<301x3xi32>) {
  %r:2 = tessel.sort dimension(0) outs(%a, %b : tensor<301x3xi32>, tensor<301x3xi32>) {
    ^bb0(%a0: i32, %a1: i32, %b0: i32, %b1: i32):
      %lt = arith.cmpi slt, %a0, %a1 : i32
      %eq = arith.cmpi eq, %a0, %a1 : i32
      %gt2 = arith.cmpi sgt, %b0, %b1 : i32
      %tie = arith.andi %eq, %gt2 : i1
      %c = arith.ori %lt, %tie : i1
      tessel.yield %c : i1
  } -> tensor<301x3xi32>, tensor<301x3xi32>
  return %r#0, %r#1 : tensor<301x3xi32>, tensor<301x3xi32>
}

// 2^20 key-value pairs (keys with many duplicates; values are positions,
// so stability is checked exactly): a radix sort on both targets.
func.func @sort_kv_2e20(%k: tensor<1048576xi32>, %v: tensor<1048576xi32>) -> (tensor<1048576xi32>, tensor<1048576xi32>) {
  %r:2 = tessel.sort dimension(0) outs(%k, %v : tensor<1048576xi32>, tensor<1048576xi32>) {
    ^bb0(%a: i32, %b: i32, %x: i32, %y: i32):
      %c = arith.cmpi slt, %a, %b : i32
      tessel.yield %c : i1
  } -> tensor<1048576xi32>, tensor<1048576xi32>
  return %r#0, %r#1 : tensor<1048576xi32>, tensor<1048576xi32>
}
