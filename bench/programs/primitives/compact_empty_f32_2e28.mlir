// Stream compaction of 2^28 f32 (CUB DeviceSelect::If) into an empty
// destination: what follows the compacted prefix is undefined, as after
// CUB's select. Predicate -> exclusive scan of the flags (positions) ->
// scatter of the selected elements to their positions (the rest get an
// index out of range and are skipped), one kernel in a cuda-only module
// (fuse-primitives). Returns the compacted prefix and the number selected.
#id = affine_map<(i) -> (i)>
func.func @compact(%x: tensor<268435456xf32>) -> (tensor<268435456xf32>, tensor<i32>) {
  %e = tensor.empty() : tensor<268435456xi32>
  %zero = arith.constant 0.0 : f32
  %flags = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%x : tensor<268435456xf32>) outs(%e : tensor<268435456xi32>) {
  ^bb0(%v: f32, %o: i32):
    %p = arith.cmpf ogt, %v, %zero : f32
    %f = arith.extui %p : i1 to i32
    linalg.yield %f : i32
  } -> tensor<268435456xi32>
  %c0 = arith.constant 0 : i32
  %a0 = tensor.empty() : tensor<i32>
  %a = linalg.fill ins(%c0 : i32) outs(%a0 : tensor<i32>) -> tensor<i32>
  %pos:2 = tessel.scan dimension(0) inclusive(false)
      ins(%flags : tensor<268435456xi32>) outs(%e, %a : tensor<268435456xi32>, tensor<i32>) {
    ^bb0(%l: i32, %v: i32):
      %s = arith.addi %l, %v : i32
      tessel.yield %s : i32
  } -> tensor<268435456xi32>, tensor<i32>
  %skip = arith.constant 268435456 : i32
  %dest = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel"]}
      ins(%flags, %pos#0 : tensor<268435456xi32>, tensor<268435456xi32>) outs(%e : tensor<268435456xi32>) {
  ^bb0(%f: i32, %p: i32, %o: i32):
    %sel = arith.cmpi ne, %f, %c0 : i32
    %d = arith.select %sel, %p, %skip : i32
    linalg.yield %d : i32
  } -> tensor<268435456xi32>
  %out0 = tensor.empty() : tensor<268435456xf32>
  %out = tessel.scatter dimension_map = [0] unique_indices(true)
      ins(%x, %dest : tensor<268435456xf32>, tensor<268435456xi32>)
      outs(%out0 : tensor<268435456xf32>) {
    ^bb0(%u: f32, %cur: f32):
      tessel.yield %u : f32
  } -> tensor<268435456xf32>
  return %out, %pos#1 : tensor<268435456xf32>, tensor<i32>
}
