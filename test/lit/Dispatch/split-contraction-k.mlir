// RUN: tessel-opt %s --tessel-split-contraction-k --split-input-file | FileCheck %s

// 100x90 is one 128x128 tile: K = 3000 is split in 8 chunks of 375. A is
// viewed as [M, S, K/S], B as [S, K/S, N]; the partials are [S, M, N] and
// their sum takes in the bias + relu consumer.
// CHECK-DAG: #[[MA:.+]] = affine_map<(d0, d1, d2, d3) -> (d1, d0, d3)>
// CHECK-DAG: #[[MB:.+]] = affine_map<(d0, d1, d2, d3) -> (d0, d3, d2)>
// CHECK-DAG: #[[MC:.+]] = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>
// CHECK-LABEL: func.func @nn_bias_relu
// CHECK-DAG: %[[A:.+]] = tensor.expand_shape %arg0 {{\[}}[0], [1, 2]] output_shape [100, 8, 375]
// CHECK-DAG: %[[B:.+]] = tensor.expand_shape %arg1 {{\[}}[0, 1], [2]] output_shape [8, 375, 90]
// CHECK: %[[FILL:.+]] = linalg.fill {{.*}} -> tensor<8x100x90xf32>
// CHECK: %[[P:.+]] = linalg.generic {indexing_maps = [#[[MA]], #[[MB]], #[[MC]]], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%[[A]], %[[B]] : tensor<100x8x375xf32>, tensor<8x375x90xf32>) outs(%[[FILL]] : tensor<8x100x90xf32>)
// CHECK: arith.mulf
// CHECK: arith.addf
// CHECK-COUNT-8: tensor.extract_slice %[[P]]{{.*}} : tensor<8x100x90xf32> to tensor<100x90xf32>
// CHECK: linalg.generic {{.*}} ins({{.*}} : tensor<100x90xf32>, tensor<100x90xf32>, tensor<100x90xf32>, tensor<100x90xf32>, tensor<100x90xf32>, tensor<100x90xf32>, tensor<100x90xf32>, tensor<100x90xf32>, tensor<90xf32>)
// CHECK-COUNT-8: arith.addf
// CHECK: arith.maximumf
// CHECK-NOT: tessel.split_k_sum
func.func @nn_bias_relu(%a: tensor<100x3000xf32>, %b: tensor<3000x90xf32>, %bias: tensor<90xf32>) -> tensor<100x90xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<100x90xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<100x90xf32>) -> tensor<100x90xf32>
  %mm = linalg.matmul ins(%a, %b : tensor<100x3000xf32>, tensor<3000x90xf32>) outs(%z : tensor<100x90xf32>) -> tensor<100x90xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(m, n) -> (m, n)>, affine_map<(m, n) -> (n)>, affine_map<(m, n) -> (m, n)>], iterator_types = ["parallel", "parallel"]}
      ins(%mm, %bias : tensor<100x90xf32>, tensor<90xf32>) outs(%e : tensor<100x90xf32>) {
  ^bb0(%v: f32, %bv: f32, %o: f32):
    %s = arith.addf %v, %bv : f32
    %m = arith.maximumf %s, %zero : f32
    linalg.yield %m : f32
  } -> tensor<100x90xf32>
  return %r : tensor<100x90xf32>
}

// -----

// B^T, an i8 -> i32 contraction with a non-zero init: the sum adds the
// init (the out operand) to the 4 partials (K = 1024 allows 4 chunks of 256).
// CHECK-LABEL: func.func @nt_init
// CHECK-DAG: tensor.expand_shape %arg1 {{\[}}[0], [1, 2]] output_shape [47, 4, 256]
// CHECK: %[[P:.+]] = linalg.generic {{.*}} outs(%{{.+}} : tensor<4x33x47xi32>)
// CHECK: linalg.generic {{.*}} outs(%arg2 : tensor<33x47xi32>)
// CHECK-NEXT: ^bb0(%[[I0:.+]]: i32, %[[I1:.+]]: i32, %[[I2:.+]]: i32, %[[I3:.+]]: i32, %[[OUT:.+]]: i32):
// CHECK-NEXT: %[[S0:.+]] = arith.addi %[[OUT]], %[[I0]]
func.func @nt_init(%a: tensor<33x1024xi8>, %b: tensor<47x1024xi8>, %c: tensor<33x47xi32>) -> tensor<33x47xi32> {
  %r = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
      ins(%a, %b : tensor<33x1024xi8>, tensor<47x1024xi8>) outs(%c : tensor<33x47xi32>) -> tensor<33x47xi32>
  return %r : tensor<33x47xi32>
}

// -----

// Not split: enough tiles (16 x 16 = 256 >= 128), a short K, a K without
// a divisor leaving chunks >= 256 (1031 is prime), a batch matmul, a bf16
// result.
// CHECK-LABEL: func.func @not_split
// CHECK-NOT: tensor.expand_shape
// CHECK-COUNT-3: linalg.matmul
// CHECK: linalg.batch_matmul
// CHECK: linalg.matmul
// CHECK-NOT: tensor.expand_shape
func.func @not_split(%big_a: tensor<2048x1024xf32>, %big_b: tensor<1024x2048xf32>, %big_c: tensor<2048x2048xf32>,
                     %sa: tensor<64x512xf32>, %sb: tensor<512x64xf32>, %sc: tensor<64x64xf32>,
                     %pa: tensor<64x1031xf32>, %pb: tensor<1031x64xf32>,
                     %ba: tensor<2x64x4096xf32>, %bb: tensor<2x4096x64xf32>, %bc: tensor<2x64x64xf32>,
                     %ha: tensor<64x4096xbf16>, %hb: tensor<4096x64xbf16>, %hc: tensor<64x64xbf16>)
    -> (tensor<2048x2048xf32>, tensor<64x64xf32>, tensor<64x64xf32>, tensor<2x64x64xf32>, tensor<64x64xbf16>) {
  %0 = linalg.matmul ins(%big_a, %big_b : tensor<2048x1024xf32>, tensor<1024x2048xf32>) outs(%big_c : tensor<2048x2048xf32>) -> tensor<2048x2048xf32>
  %1 = linalg.matmul ins(%sa, %sb : tensor<64x512xf32>, tensor<512x64xf32>) outs(%sc : tensor<64x64xf32>) -> tensor<64x64xf32>
  %2 = linalg.matmul ins(%pa, %pb : tensor<64x1031xf32>, tensor<1031x64xf32>) outs(%sc : tensor<64x64xf32>) -> tensor<64x64xf32>
  %3 = linalg.batch_matmul ins(%ba, %bb : tensor<2x64x4096xf32>, tensor<2x4096x64xf32>) outs(%bc : tensor<2x64x64xf32>) -> tensor<2x64x64xf32>
  %4 = linalg.matmul ins(%ha, %hb : tensor<64x4096xbf16>, tensor<4096x64xbf16>) outs(%hc : tensor<64x64xbf16>) -> tensor<64x64xbf16>
  return %0, %1, %2, %3, %4 : tensor<2048x2048xf32>, tensor<64x64xf32>, tensor<64x64xf32>, tensor<2x64x64xf32>, tensor<64x64xbf16>
}
