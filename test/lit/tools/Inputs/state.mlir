// Module state (a mutable ml_program global, like a KV cache: 2 heads x 6
// positions x 3 values, starting as 0.5 everywhere). @append writes `kv`
// at position `pos` of every head, in place, and returns 2 x the updated
// cache; @steps appends rows 0..n-1 (row i filled with i + 1) in a host
// loop, through the same global each trip; @peek reads the cache.
ml_program.global private mutable @cache(dense<0.5> : tensor<2x6x3xf32>) : tensor<2x6x3xf32>
#map = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
func.func @append(%kv: tensor<2x1x3xf32>, %pos: tensor<i64>) -> tensor<2x6x3xf32> {
  %c = ml_program.global_load @cache : tensor<2x6x3xf32>
  %p64 = tensor.extract %pos[] : tensor<i64>
  %p = arith.index_cast %p64 : i64 to index
  %c2 = tensor.insert_slice %kv into %c[0, %p, 0] [2, 1, 3] [1, 1, 1] : tensor<2x1x3xf32> into tensor<2x6x3xf32>
  ml_program.global_store @cache = %c2 : tensor<2x6x3xf32>
  %e = tensor.empty() : tensor<2x6x3xf32>
  %r = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%c2 : tensor<2x6x3xf32>) outs(%e : tensor<2x6x3xf32>) {
  ^bb0(%a: f32, %o: f32):
    %s = arith.addf %a, %a : f32
    linalg.yield %s : f32
  } -> tensor<2x6x3xf32>
  return %r : tensor<2x6x3xf32>
}
func.func @steps(%n: tensor<i64>) -> tensor<2x6x3xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %one = arith.constant 1.0 : f32
  %n64 = tensor.extract %n[] : tensor<i64>
  %count = arith.index_cast %n64 : i64 to index
  scf.for %i = %c0 to %count step %c1 {
    %c = ml_program.global_load @cache : tensor<2x6x3xf32>
    %i64 = arith.index_cast %i : index to i64
    %e = tensor.empty() : tensor<2x1x3xf32>
    %row = linalg.generic {indexing_maps = [#map], iterator_types = ["parallel", "parallel", "parallel"]} outs(%e : tensor<2x1x3xf32>) {
    ^bb0(%o: f32):
      %f = arith.sitofp %i64 : i64 to f32
      %v = arith.addf %f, %one : f32
      linalg.yield %v : f32
    } -> tensor<2x1x3xf32>
    %c2 = tensor.insert_slice %row into %c[0, %i, 0] [2, 1, 3] [1, 1, 1] : tensor<2x1x3xf32> into tensor<2x6x3xf32>
    ml_program.global_store @cache = %c2 : tensor<2x6x3xf32>
  }
  %r = ml_program.global_load @cache : tensor<2x6x3xf32>
  return %r : tensor<2x6x3xf32>
}
// The old cache is read after the insert: the insert makes a new buffer,
// and the store copies it into the state.
func.func @swap(%kv: tensor<2x1x3xf32>) -> tensor<2x6x3xf32> {
  %c = ml_program.global_load @cache : tensor<2x6x3xf32>
  %c2 = tensor.insert_slice %kv into %c[0, 0, 0] [2, 1, 3] [1, 1, 1] : tensor<2x1x3xf32> into tensor<2x6x3xf32>
  ml_program.global_store @cache = %c2 : tensor<2x6x3xf32>
  %e = tensor.empty() : tensor<2x6x3xf32>
  %r = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%c : tensor<2x6x3xf32>) outs(%e : tensor<2x6x3xf32>) {
  ^bb0(%a: f32, %o: f32):
    %s = arith.addf %a, %a : f32
    linalg.yield %s : f32
  } -> tensor<2x6x3xf32>
  return %r : tensor<2x6x3xf32>
}
