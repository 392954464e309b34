// RUN: tessel-opt %s --tessel-decompose-attention=keep-for-targets=cuda | FileCheck %s --check-prefix=CUDA
// RUN: tessel-opt %s --tessel-decompose-attention=keep-for-targets=cpu | FileCheck %s --check-prefix=CPU
// RUN: tessel-opt %s --tessel-decompose-attention=keep-for-targets=cuda,cpu | FileCheck %s --check-prefix=BOTH
// RUN: tessel-opt %s --tessel-decompose-attention | FileCheck %s --check-prefix=ALL

// keep-for-targets: an op stays whole when a kernel of every listed target
// takes it. cuda's flash attention takes f16/bf16 with head sizes
// multiples of 16 up to 128; the cpu loop nest takes any float type with N
// a multiple of 16. Without the option every op is decomposed.
// CUDA-LABEL: func.func @kept
// CUDA: tessel.attention
// CUDA-LABEL: func.func @f32_operands
// CUDA-NOT: tessel.attention
// CUDA: linalg.softmax
// CUDA-LABEL: func.func @head_24
// CUDA-NOT: tessel.attention
// CUDA: linalg.softmax
// CPU-LABEL: func.func @kept
// CPU: tessel.attention
// CPU-LABEL: func.func @f32_operands
// CPU: tessel.attention
// CPU-LABEL: func.func @head_24
// CPU-NOT: tessel.attention
// CPU: linalg.softmax
// BOTH-LABEL: func.func @kept
// BOTH: tessel.attention
// BOTH-LABEL: func.func @f32_operands
// BOTH-NOT: tessel.attention
// BOTH-LABEL: func.func @head_24
// BOTH-NOT: tessel.attention
// ALL-NOT: tessel.attention
#q = affine_map<(b, m, n, k1, k2) -> (b, m, k1)>
#k = affine_map<(b, m, n, k1, k2) -> (b, k2, k1)>
#v = affine_map<(b, m, n, k1, k2) -> (b, k2, n)>
#s = affine_map<(b, m, n, k1, k2) -> ()>
#o = affine_map<(b, m, n, k1, k2) -> (b, m, n)>
func.func @kept(%q: tensor<3x77x64xf16>, %k: tensor<3x50x64xf16>, %v: tensor<3x50x64xf16>) -> tensor<3x77x64xf16> {
  %c = arith.constant 0.125 : f32
  %e = tensor.empty() : tensor<3x77x64xf16>
  %r = tessel.attention {indexing_maps = [#q, #k, #v, #s, #o]}
      ins(%q, %k, %v, %c : tensor<3x77x64xf16>, tensor<3x50x64xf16>, tensor<3x50x64xf16>, f32)
      outs(%e : tensor<3x77x64xf16>) {
    ^bb0(%x: f32):
      tessel.yield %x : f32
  } -> tensor<3x77x64xf16>
  return %r : tensor<3x77x64xf16>
}
func.func @f32_operands(%q: tensor<3x77x64xf32>, %k: tensor<3x50x64xf32>, %v: tensor<3x50x64xf32>) -> tensor<3x77x64xf32> {
  %c = arith.constant 0.125 : f32
  %e = tensor.empty() : tensor<3x77x64xf32>
  %r = tessel.attention {indexing_maps = [#q, #k, #v, #s, #o]}
      ins(%q, %k, %v, %c : tensor<3x77x64xf32>, tensor<3x50x64xf32>, tensor<3x50x64xf32>, f32)
      outs(%e : tensor<3x77x64xf32>) {
    ^bb0(%x: f32):
      tessel.yield %x : f32
  } -> tensor<3x77x64xf32>
  return %r : tensor<3x77x64xf32>
}
func.func @head_24(%q: tensor<3x77x24xf16>, %k: tensor<3x50x24xf16>, %v: tensor<3x50x24xf16>) -> tensor<3x77x24xf16> {
  %c = arith.constant 0.125 : f32
  %e = tensor.empty() : tensor<3x77x24xf16>
  %r = tessel.attention {indexing_maps = [#q, #k, #v, #s, #o]}
      ins(%q, %k, %v, %c : tensor<3x77x24xf16>, tensor<3x50x24xf16>, tensor<3x50x24xf16>, f32)
      outs(%e : tensor<3x77x24xf16>) {
    ^bb0(%x: f32):
      tessel.yield %x : f32
  } -> tensor<3x77x24xf16>
  return %r : tensor<3x77x24xf16>
}
