// Row chains over 16-bit rows, computed in f32 (as the ONNX importer writes
// softmax for f16 inputs and as torch computes it): the row is loaded as
// f16/bf16 and extended, the max, exponentials and sum are f32, and the
// result is rounded once. Tessel forms one fused row dispatch (the
// reductions stay f32). Odd row counts; rows of 128 (BERT's scores), 100
// (not a multiple of the 4-wide vectors) and 2048 (several warps per row
// on the GPU).
#id = affine_map<(i, j) -> (i, j)>
func.func @softmax_f16(%x: tensor<37x128xf16>) -> tensor<37x128xf16> {
  %e32 = tensor.empty() : tensor<37x128xf32>
  %x32 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%x : tensor<37x128xf16>) outs(%e32 : tensor<37x128xf32>) {
  ^bb0(%a: f16, %o: f32):
    %r = arith.extf %a : f16 to f32
    linalg.yield %r : f32
  } -> tensor<37x128xf32>
  %s = linalg.softmax dimension(1) ins(%x32 : tensor<37x128xf32>) outs(%e32 : tensor<37x128xf32>) -> tensor<37x128xf32>
  %e16 = tensor.empty() : tensor<37x128xf16>
  %r = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%s : tensor<37x128xf32>) outs(%e16 : tensor<37x128xf16>) {
  ^bb0(%a: f32, %o: f16):
    %t = arith.truncf %a : f32 to f16
    linalg.yield %t : f16
  } -> tensor<37x128xf16>
  return %r : tensor<37x128xf16>
}

func.func @softmax_f16_odd(%x: tensor<23x100xf16>) -> tensor<23x100xf16> {
  %e32 = tensor.empty() : tensor<23x100xf32>
  %x32 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%x : tensor<23x100xf16>) outs(%e32 : tensor<23x100xf32>) {
  ^bb0(%a: f16, %o: f32):
    %r = arith.extf %a : f16 to f32
    linalg.yield %r : f32
  } -> tensor<23x100xf32>
  %s = linalg.softmax dimension(1) ins(%x32 : tensor<23x100xf32>) outs(%e32 : tensor<23x100xf32>) -> tensor<23x100xf32>
  %e16 = tensor.empty() : tensor<23x100xf16>
  %r = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%s : tensor<23x100xf32>) outs(%e16 : tensor<23x100xf16>) {
  ^bb0(%a: f32, %o: f16):
    %t = arith.truncf %a : f32 to f16
    linalg.yield %t : f16
  } -> tensor<23x100xf16>
  return %r : tensor<23x100xf16>
}

func.func @softmax_bf16_long(%x: tensor<9x2048xbf16>) -> tensor<9x2048xbf16> {
  %e32 = tensor.empty() : tensor<9x2048xf32>
  %x32 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%x : tensor<9x2048xbf16>) outs(%e32 : tensor<9x2048xf32>) {
  ^bb0(%a: bf16, %o: f32):
    %r = arith.extf %a : bf16 to f32
    linalg.yield %r : f32
  } -> tensor<9x2048xf32>
  %s = linalg.softmax dimension(1) ins(%x32 : tensor<9x2048xf32>) outs(%e32 : tensor<9x2048xf32>) -> tensor<9x2048xf32>
  %e16 = tensor.empty() : tensor<9x2048xbf16>
  %r = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%s : tensor<9x2048xf32>) outs(%e16 : tensor<9x2048xbf16>) {
  ^bb0(%a: f32, %o: bf16):
    %t = arith.truncf %a : f32 to bf16
    linalg.yield %t : bf16
  } -> tensor<9x2048xbf16>
  return %r : tensor<9x2048xbf16>
}
