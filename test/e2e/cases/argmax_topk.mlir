// arg_compare (argmax over rows, argmin over columns with an index base),
// an argmax written as a linalg.generic with two results, and topk.
func.func @argmax_rows(%x: tensor<37x1001xf32>) -> (tensor<37xf32>, tensor<37xi32>) {
  %ninf = arith.constant 0xFF800000 : f32
  %c0 = arith.constant 0 : i32
  %v0 = tensor.empty() : tensor<37xf32>
  %i0 = tensor.empty() : tensor<37xi32>
  %v = linalg.fill ins(%ninf : f32) outs(%v0 : tensor<37xf32>) -> tensor<37xf32>
  %i = linalg.fill ins(%c0 : i32) outs(%i0 : tensor<37xi32>) -> tensor<37xi32>
  %r:2 = tessel.arg_compare dimension(1)
      ins(%x : tensor<37x1001xf32>) outs(%v, %i : tensor<37xf32>, tensor<37xi32>) {
    ^bb0(%a: f32, %b: f32):
      %c = arith.cmpf ogt, %a, %b : f32
      tessel.yield %c : i1
  } -> tensor<37xf32>, tensor<37xi32>
  return %r#0, %r#1 : tensor<37xf32>, tensor<37xi32>
}

func.func @argmin_cols(%x: tensor<203x13xi32>) -> tensor<13xi64> {
  %big = arith.constant 2147483647 : i32
  %c0 = arith.constant 0 : i64
  %base = arith.constant 100 : index
  %v0 = tensor.empty() : tensor<13xi32>
  %i0 = tensor.empty() : tensor<13xi64>
  %v = linalg.fill ins(%big : i32) outs(%v0 : tensor<13xi32>) -> tensor<13xi32>
  %i = linalg.fill ins(%c0 : i64) outs(%i0 : tensor<13xi64>) -> tensor<13xi64>
  %r:2 = tessel.arg_compare dimension(0)
      ins(%x : tensor<203x13xi32>) outs(%v, %i : tensor<13xi32>, tensor<13xi64>)
      index_base(%base : index) {
    ^bb0(%a: i32, %b: i32):
      %c = arith.cmpi slt, %a, %b : i32
      tessel.yield %c : i1
  } -> tensor<13xi32>, tensor<13xi64>
  return %r#1 : tensor<13xi64>
}

#id = affine_map<(i, j) -> (i, j)>
#row = affine_map<(i, j) -> (i)>
func.func @argmax_generic(%x: tensor<29x515xf32>) -> tensor<29xi64> {
  %ninf = arith.constant 0xFF800000 : f32
  %c0 = arith.constant 0 : i64
  %v0 = tensor.empty() : tensor<29xf32>
  %i0 = tensor.empty() : tensor<29xi64>
  %v = linalg.fill ins(%ninf : f32) outs(%v0 : tensor<29xf32>) -> tensor<29xf32>
  %i = linalg.fill ins(%c0 : i64) outs(%i0 : tensor<29xi64>) -> tensor<29xi64>
  %r:2 = linalg.generic {indexing_maps = [#id, #row, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<29x515xf32>) outs(%v, %i : tensor<29xf32>, tensor<29xi64>) {
  ^bb0(%a: f32, %best: f32, %bi: i64):
    %j = linalg.index 1 : index
    %ji = arith.index_cast %j : index to i64
    %gt = arith.cmpf ogt, %a, %best : f32
    %nv = arith.select %gt, %a, %best : f32
    %ni = arith.select %gt, %ji, %bi : i64
    linalg.yield %nv, %ni : f32, i64
  } -> (tensor<29xf32>, tensor<29xi64>)
  return %r#1 : tensor<29xi64>
}

func.func @topk_rows(%x: tensor<23x1000xf32>) -> (tensor<23x8xf32>, tensor<23x8xi32>) {
  %v = tensor.empty() : tensor<23x8xf32>
  %i = tensor.empty() : tensor<23x8xi32>
  %r:2 = tessel.topk dimension(1)
      ins(%x : tensor<23x1000xf32>) outs(%v, %i : tensor<23x8xf32>, tensor<23x8xi32>) {
    ^bb0(%a: f32, %b: f32):
      %c = arith.cmpf ogt, %a, %b : f32
      tessel.yield %c : i1
  } -> tensor<23x8xf32>, tensor<23x8xi32>
  return %r#0, %r#1 : tensor<23x8xf32>, tensor<23x8xi32>
}

// Smallest 5 of each column of small integers (many ties: equal values
// keep input order).
func.func @mink_ties(%x: tensor<97x6xi32>) -> (tensor<5x6xi32>, tensor<5x6xi64>) {
  %v = tensor.empty() : tensor<5x6xi32>
  %i = tensor.empty() : tensor<5x6xi64>
  %r:2 = tessel.topk dimension(0)
      ins(%x : tensor<97x6xi32>) outs(%v, %i : tensor<5x6xi32>, tensor<5x6xi64>) {
    ^bb0(%a: i32, %b: i32):
      %c = arith.cmpi slt, %a, %b : i32
      tessel.yield %c : i1
  } -> tensor<5x6xi32>, tensor<5x6xi64>
  return %r#0, %r#1 : tensor<5x6xi32>, tensor<5x6xi64>
}

// More rows than a block's 128 threads (a partial block tile).
func.func @argmax_many_rows(%x: tensor<300x50xf32>) -> tensor<300xi32> {
  %ninf = arith.constant 0xFF800000 : f32
  %c0 = arith.constant 0 : i32
  %v0 = tensor.empty() : tensor<300xf32>
  %i0 = tensor.empty() : tensor<300xi32>
  %v = linalg.fill ins(%ninf : f32) outs(%v0 : tensor<300xf32>) -> tensor<300xf32>
  %i = linalg.fill ins(%c0 : i32) outs(%i0 : tensor<300xi32>) -> tensor<300xi32>
  %r:2 = tessel.arg_compare dimension(1)
      ins(%x : tensor<300x50xf32>) outs(%v, %i : tensor<300xf32>, tensor<300xi32>) {
    ^bb0(%a: f32, %b: f32):
      %c = arith.cmpf ogt, %a, %b : f32
      tessel.yield %c : i1
  } -> tensor<300xf32>, tensor<300xi32>
  return %r#1 : tensor<300xi32>
}

// The 16 smallest of each row, many ties, rows shorter than 32 x 16 (on
// the GPU some lanes hold fewer than k or no elements); i64 positions.
func.func @mink_ties_rows(%x: tensor<5x37xi32>) -> (tensor<5x16xi32>, tensor<5x16xi64>) {
  %v = tensor.empty() : tensor<5x16xi32>
  %i = tensor.empty() : tensor<5x16xi64>
  %r:2 = tessel.topk dimension(1)
      ins(%x : tensor<5x37xi32>) outs(%v, %i : tensor<5x16xi32>, tensor<5x16xi64>) {
    ^bb0(%a: i32, %b: i32):
      %c = arith.cmpi slt, %a, %b : i32
      tessel.yield %c : i1
  } -> tensor<5x16xi32>, tensor<5x16xi64>
  return %r#0, %r#1 : tensor<5x16xi32>, tensor<5x16xi64>
}

// Top-3 of rows with ties across lanes (equal values: the earlier
// position first), 3-D with a batch of 2 x 3 rows.
func.func @topk_ties_3d(%x: tensor<2x3x1030xf32>) -> (tensor<2x3x3xf32>, tensor<2x3x3xi32>) {
  %v = tensor.empty() : tensor<2x3x3xf32>
  %i = tensor.empty() : tensor<2x3x3xi32>
  %r:2 = tessel.topk dimension(2)
      ins(%x : tensor<2x3x1030xf32>) outs(%v, %i : tensor<2x3x3xf32>, tensor<2x3x3xi32>) {
    ^bb0(%a: f32, %b: f32):
      %c = arith.cmpf ogt, %a, %b : f32
      tessel.yield %c : i1
  } -> tensor<2x3x3xf32>, tensor<2x3x3xi32>
  return %r#0, %r#1 : tensor<2x3x3xf32>, tensor<2x3x3xi32>
}
