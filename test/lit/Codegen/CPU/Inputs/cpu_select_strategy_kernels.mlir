// Kernels for cpu-select-strategy.test: an f32 matmul the packed strategy
// takes, one too small for it (K = 64), an elementwise op.
func.func private @mm_dispatch_0(%arg0: !llvm.ptr, %arg1: index, %arg2: index, %arg3: index) attributes {tessel.kernel} {
  %cst = arith.constant 0.000000e+00 : f32
  %0 = tessel.binding %arg0[0] : !llvm.ptr -> memref<1000x300xf32>
  %1 = bufferization.to_tensor %0 restrict : memref<1000x300xf32> to tensor<1000x300xf32>
  %2 = tessel.binding %arg0[1] : !llvm.ptr -> memref<300x900xf32>
  %3 = bufferization.to_tensor %2 restrict : memref<300x900xf32> to tensor<300x900xf32>
  %4 = tensor.empty() : tensor<1000x900xf32>
  %5 = linalg.fill ins(%cst : f32) outs(%4 : tensor<1000x900xf32>) -> tensor<1000x900xf32>
  %6 = linalg.matmul ins(%1, %3 : tensor<1000x300xf32>, tensor<300x900xf32>) outs(%5 : tensor<1000x900xf32>) -> tensor<1000x900xf32>
  %7 = tessel.binding %arg0[2] : !llvm.ptr -> memref<1000x900xf32>
  bufferization.materialize_in_destination %6 in restrict writable %7 : (tensor<1000x900xf32>, memref<1000x900xf32>) -> ()
  return
}
func.func private @small_dispatch_0(%arg0: !llvm.ptr, %arg1: index, %arg2: index, %arg3: index) attributes {tessel.kernel} {
  %cst = arith.constant 0.000000e+00 : f32
  %0 = tessel.binding %arg0[0] : !llvm.ptr -> memref<512x64xf32>
  %1 = bufferization.to_tensor %0 restrict : memref<512x64xf32> to tensor<512x64xf32>
  %2 = tessel.binding %arg0[1] : !llvm.ptr -> memref<64x512xf32>
  %3 = bufferization.to_tensor %2 restrict : memref<64x512xf32> to tensor<64x512xf32>
  %4 = tensor.empty() : tensor<512x512xf32>
  %5 = linalg.fill ins(%cst : f32) outs(%4 : tensor<512x512xf32>) -> tensor<512x512xf32>
  %6 = linalg.matmul ins(%1, %3 : tensor<512x64xf32>, tensor<64x512xf32>) outs(%5 : tensor<512x512xf32>) -> tensor<512x512xf32>
  %7 = tessel.binding %arg0[2] : !llvm.ptr -> memref<512x512xf32>
  bufferization.materialize_in_destination %6 in restrict writable %7 : (tensor<512x512xf32>, memref<512x512xf32>) -> ()
  return
}
func.func private @ew_dispatch_0(%arg0: !llvm.ptr, %arg1: index, %arg2: index, %arg3: index) attributes {tessel.kernel} {
  %0 = tessel.binding %arg0[0] : !llvm.ptr -> memref<64x1000xf32>
  %1 = bufferization.to_tensor %0 restrict : memref<64x1000xf32> to tensor<64x1000xf32>
  %2 = tessel.binding %arg0[1] : !llvm.ptr -> memref<64x1000xf32>
  %e = tensor.empty() : tensor<64x1000xf32>
  %neg = linalg.negf ins(%1 : tensor<64x1000xf32>) outs(%e : tensor<64x1000xf32>) -> tensor<64x1000xf32>
  bufferization.materialize_in_destination %neg in restrict writable %2 : (tensor<64x1000xf32>, memref<64x1000xf32>) -> ()
  return
}
