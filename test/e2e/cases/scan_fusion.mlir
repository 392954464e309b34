// Scans with elementwise neighbours, which a cuda-only module runs as one
// kernel per scan (tessel-form-dispatches{fuse-primitives}: producer,
// consumers and a scatter evaluated per element in registers); cpu and
// cuda,cpu modules run them as separate dispatches. Odd sizes: single
// rows shorter than 2^16 (a block per row) and longer (decoupled
// look-back), several rows, partial last tiles.
#id = affine_map<(i) -> (i)>
#id2 = affine_map<(i, j) -> (i, j)>

// Stable partition (CUB's DevicePartition::If): the selected elements in
// order at the front, the others in reverse order at the back; every
// position is written, so the destination may be empty. Returns the
// number selected.
func.func @partition(%x: tensor<100003xf32>) -> (tensor<100003xf32>, tensor<i32>) {
  %e = tensor.empty() : tensor<100003xi32>
  %zero = arith.constant 0.0 : f32
  %flags = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%x : tensor<100003xf32>) outs(%e : tensor<100003xi32>) {
  ^bb0(%v: f32, %o: i32):
    %p = arith.cmpf ogt, %v, %zero : f32
    %f = arith.extui %p : i1 to i32
    linalg.yield %f : i32
  } -> tensor<100003xi32>
  %c0 = arith.constant 0 : i32
  %a0 = tensor.empty() : tensor<i32>
  %a = linalg.fill ins(%c0 : i32) outs(%a0 : tensor<i32>) -> tensor<i32>
  %pos:2 = tessel.scan dimension(0) inclusive(false)
      ins(%flags : tensor<100003xi32>) outs(%e, %a : tensor<100003xi32>, tensor<i32>) {
    ^bb0(%l: i32, %v: i32):
      %s = arith.addi %l, %v : i32
      tessel.yield %s : i32
  } -> tensor<100003xi32>, tensor<i32>
  %last = arith.constant 100002 : i32
  %dest = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel"]}
      ins(%flags, %pos#0 : tensor<100003xi32>, tensor<100003xi32>) outs(%e : tensor<100003xi32>) {
  ^bb0(%f: i32, %p: i32, %o: i32):
    %i = linalg.index 0 : index
    %ii = arith.index_cast %i : index to i32
    %rejected = arith.subi %ii, %p : i32
    %back = arith.subi %last, %rejected : i32
    %sel = arith.cmpi ne, %f, %c0 : i32
    %d = arith.select %sel, %p, %back : i32
    linalg.yield %d : i32
  } -> tensor<100003xi32>
  %o0 = tensor.empty() : tensor<100003xf32>
  %out = tessel.scatter dimension_map = [0] unique_indices(true)
      ins(%x, %dest : tensor<100003xf32>, tensor<100003xi32>)
      outs(%o0 : tensor<100003xf32>) {
    ^bb0(%u: f32, %cur: f32):
      tessel.yield %u : f32
  } -> tensor<100003xf32>
  return %out, %pos#1 : tensor<100003xf32>, tensor<i32>
}

// The same on a short row, with i64 positions and a selection by index
// parity and sign: every second element is kept when it is negative.
func.func @partition_short(%x: tensor<3001xf32>) -> tensor<3001xf32> {
  %e = tensor.empty() : tensor<3001xi64>
  %ei = tensor.empty() : tensor<3001xi32>
  %zero = arith.constant 0.0 : f32
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %fi = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%x : tensor<3001xf32>) outs(%ei : tensor<3001xi32>) {
  ^bb0(%v: f32, %o: i32):
    %i = linalg.index 0 : index
    %odd = arith.remui %i, %c2 : index
    %even = arith.cmpi eq, %odd, %c0 : index
    %neg = arith.cmpf olt, %v, %zero : f32
    %p = arith.andi %even, %neg : i1
    %f = arith.extui %p : i1 to i32
    linalg.yield %f : i32
  } -> tensor<3001xi32>
  %z32 = arith.constant 0 : i32
  %a0 = tensor.empty() : tensor<i32>
  %a = linalg.fill ins(%z32 : i32) outs(%a0 : tensor<i32>) -> tensor<i32>
  %pos:2 = tessel.scan dimension(0) inclusive(false)
      ins(%fi : tensor<3001xi32>) outs(%ei, %a : tensor<3001xi32>, tensor<i32>) {
    ^bb0(%l: i32, %v: i32):
      %s = arith.addi %l, %v : i32
      tessel.yield %s : i32
  } -> tensor<3001xi32>, tensor<i32>
  %last = arith.constant 3000 : i64
  %dest = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel"]}
      ins(%fi, %pos#0 : tensor<3001xi32>, tensor<3001xi32>) outs(%e : tensor<3001xi64>) {
  ^bb0(%f: i32, %p: i32, %o: i64):
    %i = linalg.index 0 : index
    %ii = arith.index_cast %i : index to i64
    %pp = arith.extsi %p : i32 to i64
    %rejected = arith.subi %ii, %pp : i64
    %back = arith.subi %last, %rejected : i64
    %sel = arith.cmpi ne, %f, %z32 : i32
    %d = arith.select %sel, %pp, %back : i64
    linalg.yield %d : i64
  } -> tensor<3001xi64>
  %o0 = tensor.empty() : tensor<3001xf32>
  %out = tessel.scatter dimension_map = [0] unique_indices(true)
      ins(%x, %dest : tensor<3001xf32>, tensor<3001xi64>)
      outs(%o0 : tensor<3001xf32>) {
    ^bb0(%u: f32, %cur: f32):
      tessel.yield %u : f32
  } -> tensor<3001xf32>
  return %out : tensor<3001xf32>
}

// cumsum(x * x) (look-back), returned, and scaled by a second input; the
// total. Inputs are small integers: every summation order is exact.
func.func @cumsum_squares(%x: tensor<77777xf32>, %y: tensor<77777xf32>)
    -> (tensor<77777xf32>, tensor<77777xf32>, tensor<f32>) {
  %e = tensor.empty() : tensor<77777xf32>
  %sq = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%x : tensor<77777xf32>) outs(%e : tensor<77777xf32>) {
  ^bb0(%v: f32, %o: f32):
    %m = arith.mulf %v, %v : f32
    linalg.yield %m : f32
  } -> tensor<77777xf32>
  %a = tensor.empty() : tensor<f32>
  %s:2 = tessel.scan dimension(0) inclusive(true)
      ins(%sq : tensor<77777xf32>) outs(%e, %a : tensor<77777xf32>, tensor<f32>) {
    ^bb0(%l: f32, %v: f32):
      %r = arith.addf %l, %v : f32
      tessel.yield %r : f32
  } -> tensor<77777xf32>, tensor<f32>
  %scaled = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel"]}
      ins(%s#0, %y : tensor<77777xf32>, tensor<77777xf32>) outs(%e : tensor<77777xf32>) {
  ^bb0(%c: f32, %w: f32, %o: f32):
    %m = arith.mulf %c, %w : f32
    linalg.yield %m : f32
  } -> tensor<77777xf32>
  return %s#0, %scaled, %s#1 : tensor<77777xf32>, tensor<77777xf32>, tensor<f32>
}

// Rows (a block per row): a masked producer, an inclusive scan and a
// consumer using the column index; only the consumer's result is stored.
func.func @rows(%x: tensor<13x5001xi32>) -> tensor<13x5001xi32> {
  %e = tensor.empty() : tensor<13x5001xi32>
  %c7 = arith.constant 7 : i32
  %c3 = arith.constant 3 : i32
  %low = linalg.generic {indexing_maps = [#id2, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<13x5001xi32>) outs(%e : tensor<13x5001xi32>) {
  ^bb0(%v: i32, %o: i32):
    %m = arith.andi %v, %c7 : i32
    linalg.yield %m : i32
  } -> tensor<13x5001xi32>
  %a = tensor.empty() : tensor<13xi32>
  %s:2 = tessel.scan dimension(1) inclusive(true)
      ins(%low : tensor<13x5001xi32>) outs(%e, %a : tensor<13x5001xi32>, tensor<13xi32>) {
    ^bb0(%l: i32, %v: i32):
      %r = arith.addi %l, %v : i32
      tessel.yield %r : i32
  } -> tensor<13x5001xi32>, tensor<13xi32>
  %out = linalg.generic {indexing_maps = [#id2, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%s#0 : tensor<13x5001xi32>) outs(%e : tensor<13x5001xi32>) {
  ^bb0(%c: i32, %o: i32):
    %j = linalg.index 1 : index
    %jj = arith.index_cast %j : index to i32
    %t = arith.muli %c, %c3 : i32
    %r = arith.subi %t, %jj : i32
    linalg.yield %r : i32
  } -> tensor<13x5001xi32>
  return %out : tensor<13x5001xi32>
}
