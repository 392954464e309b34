// A stand-in for a language model's forward pass, for tessel-run
// --generate: logits[b, s, v] = -(v - (3 ids[b, s] + 1) mod 8)^2, so the
// greedy next token after t is (3t + 1) mod 8.
#ids = affine_map<(b, s, v) -> (b, s)>
#logits = affine_map<(b, s, v) -> (b, s, v)>
func.func @next(%ids: tensor<1x?xi64>) -> tensor<1x?x8xf32> {
  %c1 = arith.constant 1 : index
  %n = tensor.dim %ids, %c1 : tensor<1x?xi64>
  %e = tensor.empty(%n) : tensor<1x?x8xf32>
  %r = linalg.generic {indexing_maps = [#ids, #logits], iterator_types = ["parallel", "parallel", "parallel"]} ins(%ids : tensor<1x?xi64>) outs(%e : tensor<1x?x8xf32>) {
  ^bb0(%t: i64, %o: f32):
    %v = linalg.index 2 : index
    %vi = arith.index_cast %v : index to i64
    %three = arith.constant 3 : i64
    %one = arith.constant 1 : i64
    %eight = arith.constant 8 : i64
    %m = arith.muli %t, %three : i64
    %a = arith.addi %m, %one : i64
    %target = arith.remsi %a, %eight : i64
    %d = arith.subi %vi, %target : i64
    %df = arith.sitofp %d : i64 to f32
    %sq = arith.mulf %df, %df : f32
    %neg = arith.negf %sq : f32
    linalg.yield %neg : f32
  } -> tensor<1x?x8xf32>
  return %r : tensor<1x?x8xf32>
}
