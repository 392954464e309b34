// RUN: tessel-opt %s --tessel-gpu-pipeline-loops --split-input-file | FileCheck %s

// A thread's contraction loop: the operand reads of step 0 move before the
// loop (prologue), each iteration reads step k + 1 before contracting step
// k (carried in iter_args), and the last contraction follows the loop.
// CHECK-LABEL: func.func private @contraction_loop
// CHECK: %[[A0:.+]] = vector.transfer_read %{{.+}} : tensor<64x64xf32>, vector<4x4xf32>
// CHECK: %[[B0:.+]] = vector.transfer_read %{{.+}} : tensor<64x64xf32>, vector<4x4xf32>
// CHECK: %[[R:.+]]:3 = scf.for %[[K:.+]] = %{{.+}} to %{{.+}} step %{{.+}} iter_args(%[[ACC:.+]] = %{{.+}}, %[[A:.+]] = %[[A0]], %[[B:.+]] = %[[B0]])
// CHECK: %[[AN:.+]] = vector.transfer_read
// CHECK: %[[BN:.+]] = vector.transfer_read
// CHECK: %[[C:.+]] = vector.contract {{.+}} %[[A]], %[[B]], %[[ACC]]
// CHECK: scf.yield %[[C]], %[[AN]], %[[BN]]
// CHECK: vector.contract {{.+}} %[[R]]#1, %[[R]]#2, %[[R]]#0
#a = affine_map<(m, n, k) -> (m, k)>
#b = affine_map<(m, n, k) -> (k, n)>
#c = affine_map<(m, n, k) -> (m, n)>
func.func private @contraction_loop(%ta: tensor<64x64xf32>, %tb: tensor<64x64xf32>, %row: index, %col: index) -> vector<4x4xf32> attributes {tessel.kernel} {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %c64 = arith.constant 64 : index
  %pad = ub.poison : f32
  %zero = arith.constant dense<0.0> : vector<4x4xf32>
  %r = scf.for %k = %c0 to %c64 step %c4 iter_args(%acc = %zero) -> (vector<4x4xf32>) {
    %a = vector.transfer_read %ta[%row, %k], %pad {in_bounds = [true, true]} : tensor<64x64xf32>, vector<4x4xf32>
    %b = vector.transfer_read %tb[%k, %col], %pad {in_bounds = [true, true]} : tensor<64x64xf32>, vector<4x4xf32>
    %d = vector.contract {indexing_maps = [#a, #b, #c], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %a, %b, %acc : vector<4x4xf32>, vector<4x4xf32> into vector<4x4xf32>
    scf.yield %d : vector<4x4xf32>
  }
  return %r : vector<4x4xf32>
}

// -----

// Loops without a contraction, or that run once, are left alone, and so
// are functions that are not kernels.
// CHECK-LABEL: func.func private @not_pipelined
// CHECK: scf.for
// CHECK-NEXT: vector.transfer_read
// CHECK-NEXT: arith.addf
// CHECK: scf.for
// CHECK-NEXT: vector.transfer_read
// CHECK-NEXT: vector.transfer_read
// CHECK-NEXT: vector.contract
// CHECK-LABEL: func.func private @not_a_kernel
// CHECK: scf.for
// CHECK-NEXT: vector.transfer_read
// CHECK-NEXT: vector.transfer_read
// CHECK-NEXT: vector.contract
#a = affine_map<(m, n, k) -> (m, k)>
#b = affine_map<(m, n, k) -> (k, n)>
#c = affine_map<(m, n, k) -> (m, n)>
func.func private @not_pipelined(%ta: tensor<64x64xf32>, %tb: tensor<64x64xf32>, %row: index) -> (vector<4xf32>, vector<4x4xf32>) attributes {tessel.kernel} {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %c64 = arith.constant 64 : index
  %pad = ub.poison : f32
  %zero = arith.constant dense<0.0> : vector<4xf32>
  %zero2 = arith.constant dense<0.0> : vector<4x4xf32>
  %s = scf.for %k = %c0 to %c64 step %c4 iter_args(%acc = %zero) -> (vector<4xf32>) {
    %a = vector.transfer_read %ta[%row, %k], %pad {in_bounds = [true]} : tensor<64x64xf32>, vector<4xf32>
    %d = arith.addf %a, %acc : vector<4xf32>
    scf.yield %d : vector<4xf32>
  }
  %once = scf.for %k = %c0 to %c4 step %c4 iter_args(%acc = %zero2) -> (vector<4x4xf32>) {
    %a = vector.transfer_read %ta[%row, %k], %pad {in_bounds = [true, true]} : tensor<64x64xf32>, vector<4x4xf32>
    %b = vector.transfer_read %tb[%k, %row], %pad {in_bounds = [true, true]} : tensor<64x64xf32>, vector<4x4xf32>
    %d = vector.contract {indexing_maps = [#a, #b, #c], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %a, %b, %acc : vector<4x4xf32>, vector<4x4xf32> into vector<4x4xf32>
    scf.yield %d : vector<4x4xf32>
  }
  return %s, %once : vector<4xf32>, vector<4x4xf32>
}
func.func private @not_a_kernel(%ta: tensor<64x64xf32>, %tb: tensor<64x64xf32>, %row: index) -> vector<4x4xf32> {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %c64 = arith.constant 64 : index
  %pad = ub.poison : f32
  %zero2 = arith.constant dense<0.0> : vector<4x4xf32>
  %r = scf.for %k = %c0 to %c64 step %c4 iter_args(%acc = %zero2) -> (vector<4x4xf32>) {
    %a = vector.transfer_read %ta[%row, %k], %pad {in_bounds = [true, true]} : tensor<64x64xf32>, vector<4x4xf32>
    %b = vector.transfer_read %tb[%k, %row], %pad {in_bounds = [true, true]} : tensor<64x64xf32>, vector<4x4xf32>
    %d = vector.contract {indexing_maps = [#a, #b, #c], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %a, %b, %acc : vector<4x4xf32>, vector<4x4xf32> into vector<4x4xf32>
    scf.yield %d : vector<4x4xf32>
  }
  return %r : vector<4x4xf32>
}
