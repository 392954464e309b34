// Integer reductions: i8 values summed into an i32 accumulator (extsi in
// the body) over the outer dim, i16 max/min with linalg.reduce, an i64 full
// sum to tensor<i64>, and an i32 sum over the inner dim of a 257x1001
// tensor (~257K elements).
#id = affine_map<(i, j) -> (i, j)>
#col = affine_map<(i, j) -> (j)>
func.func @ired(%a: tensor<301x45xi8>, %h: tensor<33x65xi16>, %l: tensor<1023xi64>, %big: tensor<257x1001xi32>)
    -> (tensor<45xi32>, tensor<33xi16>, tensor<65xi16>, tensor<i64>, tensor<257xi32>) {
  %z32 = arith.constant 0 : i32
  %e45 = tensor.empty() : tensor<45xi32>
  %f45 = linalg.fill ins(%z32 : i32) outs(%e45 : tensor<45xi32>) -> tensor<45xi32>
  %colsum = linalg.generic {indexing_maps = [#id, #col], iterator_types = ["reduction", "parallel"]}
      ins(%a : tensor<301x45xi8>) outs(%f45 : tensor<45xi32>) {
  ^bb0(%v: i8, %acc: i32):
    %w = arith.extsi %v : i8 to i32
    %s = arith.addi %w, %acc : i32
    linalg.yield %s : i32
  } -> tensor<45xi32>
  %minv = arith.constant -32768 : i16
  %maxv = arith.constant 32767 : i16
  %e33 = tensor.empty() : tensor<33xi16>
  %f33 = linalg.fill ins(%minv : i16) outs(%e33 : tensor<33xi16>) -> tensor<33xi16>
  %rmax = linalg.reduce ins(%h : tensor<33x65xi16>) outs(%f33 : tensor<33xi16>) dimensions = [1]
    (%in: i16, %acc: i16) {
      %m = arith.maxsi %in, %acc : i16
      linalg.yield %m : i16
    }
  %e65 = tensor.empty() : tensor<65xi16>
  %f65 = linalg.fill ins(%maxv : i16) outs(%e65 : tensor<65xi16>) -> tensor<65xi16>
  %cmin = linalg.reduce ins(%h : tensor<33x65xi16>) outs(%f65 : tensor<65xi16>) dimensions = [0]
    (%in: i16, %acc: i16) {
      %m = arith.minsi %in, %acc : i16
      linalg.yield %m : i16
    }
  %z64 = arith.constant 0 : i64
  %e0 = tensor.empty() : tensor<i64>
  %f0 = linalg.fill ins(%z64 : i64) outs(%e0 : tensor<i64>) -> tensor<i64>
  %tot = linalg.reduce ins(%l : tensor<1023xi64>) outs(%f0 : tensor<i64>) dimensions = [0]
    (%in: i64, %acc: i64) {
      %s = arith.addi %in, %acc : i64
      linalg.yield %s : i64
    }
  %e257 = tensor.empty() : tensor<257xi32>
  %f257 = linalg.fill ins(%z32 : i32) outs(%e257 : tensor<257xi32>) -> tensor<257xi32>
  %rows = linalg.reduce ins(%big : tensor<257x1001xi32>) outs(%f257 : tensor<257xi32>) dimensions = [1]
    (%in: i32, %acc: i32) {
      %s = arith.addi %in, %acc : i32
      linalg.yield %s : i32
    }
  return %colsum, %rmax, %cmin, %tot, %rows : tensor<45xi32>, tensor<33xi16>, tensor<65xi16>, tensor<i64>, tensor<257xi32>
}
