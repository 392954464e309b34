// Kernels in the `pointers` ABI, as tessel-materialize-kernel-abi leaves
// them, for gpu-select-strategy.test.

// f16 matmul, 2048x1024x64: 128 tiles of 128x128.
func.func private @mm_dispatch_0(%arg0: memref<2048x64xf16>, %arg1: memref<64x1024xf16>, %arg2: memref<2048x1024xf32>) attributes {tessel.dispatch_function, tessel.kernel} {
  %cst = arith.constant 0.000000e+00 : f32
  %a = memref.assume_alignment %arg0, 64 : memref<2048x64xf16>
  %0 = bufferization.to_tensor %a restrict : memref<2048x64xf16> to tensor<2048x64xf16>
  %b = memref.assume_alignment %arg1, 64 : memref<64x1024xf16>
  %1 = bufferization.to_tensor %b restrict : memref<64x1024xf16> to tensor<64x1024xf16>
  %c = memref.assume_alignment %arg2, 64 : memref<2048x1024xf32>
  %2 = tensor.empty() : tensor<2048x1024xf32>
  %3 = linalg.fill ins(%cst : f32) outs(%2 : tensor<2048x1024xf32>) -> tensor<2048x1024xf32>
  %4 = linalg.matmul ins(%0, %1 : tensor<2048x64xf16>, tensor<64x1024xf16>) outs(%3 : tensor<2048x1024xf32>) -> tensor<2048x1024xf32>
  bufferization.materialize_in_destination %4 in restrict writable %c : (tensor<2048x1024xf32>, memref<2048x1024xf32>) -> ()
  return
}

// f32 matmul, 1024x1024x64.
func.func private @mm32_dispatch_0(%arg0: memref<1024x64xf32>, %arg1: memref<64x1024xf32>, %arg2: memref<1024x1024xf32>) attributes {tessel.dispatch_function, tessel.kernel} {
  %cst = arith.constant 0.000000e+00 : f32
  %a = memref.assume_alignment %arg0, 64 : memref<1024x64xf32>
  %0 = bufferization.to_tensor %a restrict : memref<1024x64xf32> to tensor<1024x64xf32>
  %b = memref.assume_alignment %arg1, 64 : memref<64x1024xf32>
  %1 = bufferization.to_tensor %b restrict : memref<64x1024xf32> to tensor<64x1024xf32>
  %c = memref.assume_alignment %arg2, 64 : memref<1024x1024xf32>
  %2 = tensor.empty() : tensor<1024x1024xf32>
  %3 = linalg.fill ins(%cst : f32) outs(%2 : tensor<1024x1024xf32>) -> tensor<1024x1024xf32>
  %4 = linalg.matmul ins(%0, %1 : tensor<1024x64xf32>, tensor<64x1024xf32>) outs(%3 : tensor<1024x1024xf32>) -> tensor<1024x1024xf32>
  bufferization.materialize_in_destination %4 in restrict writable %c : (tensor<1024x1024xf32>, memref<1024x1024xf32>) -> ()
  return
}

// Elementwise exp, 64x256.
func.func private @ew_dispatch_0(%arg0: memref<64x256xf32>, %arg1: memref<64x256xf32>) attributes {tessel.dispatch_function, tessel.kernel} {
  %a = memref.assume_alignment %arg0, 64 : memref<64x256xf32>
  %0 = bufferization.to_tensor %a restrict : memref<64x256xf32> to tensor<64x256xf32>
  %b = memref.assume_alignment %arg1, 64 : memref<64x256xf32>
  %1 = tensor.empty() : tensor<64x256xf32>
  %2 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%0 : tensor<64x256xf32>) outs(%1 : tensor<64x256xf32>) {
  ^bb0(%in: f32, %out: f32):
    %3 = math.exp %in : f32
    linalg.yield %3 : f32
  } -> tensor<64x256xf32>
  bufferization.materialize_in_destination %2 in restrict writable %b : (tensor<64x256xf32>, memref<64x256xf32>) -> ()
  return
}
