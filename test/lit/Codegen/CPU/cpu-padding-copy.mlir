// RUN: tessel-opt %s --tessel-cpu-select-strategy --tessel-cpu-tile-and-vectorize --split-input-file | FileCheck %s

// A padding copy (a tensor.pad's fill + insert_slice, no linalg root) runs
// in workgroups along the outer dimensions, one index each until there are
// >= 64 (8 x 58 here): each fills its [1, 1, 58, 64] block (a vector
// write: the fill is small enough to vectorize) and copies the
// source row that lands in it, none on the padded rows 0 and 57 of H
// (offset 1, size 56: count = 1 if 1 <= h < 57, source row h - 1).
// CHECK-LABEL: func.func private @pad
// CHECK: scf.forall (%[[N:.+]], %[[H:.+]]) in (8, 58) shared_outs(%[[OUT:.+]] = %{{.+}}) -> (tensor<8x58x58x64xf32>) {
// CHECK-DAG: %[[LT:.+]] = arith.cmpi slt, %[[H]], %c57
// CHECK-DAG: %[[GE:.+]] = arith.cmpi sge, %[[H]], %c1
// CHECK: %[[IN:.+]] = arith.andi %[[GE]], %[[LT]]
// CHECK: %[[COUNT:.+]] = arith.select %[[IN]]
// CHECK: %[[TILE:.+]] = tensor.extract_slice %[[OUT]][%[[N]], %[[H]], 0, 0] [1, 1, 58, 64] [1, 1, 1, 1]
// CHECK: %[[FILLED:.+]] = vector.transfer_write %{{.+}}, %[[TILE]]{{.*}} : vector<1x1x58x64xf32>, tensor<1x1x58x64xf32>
// CHECK: %[[PART:.+]] = tensor.extract_slice %{{.+}}[%[[N]], %{{.+}}, 0, 0] [1, %[[COUNT]], 56, 64] [1, 1, 1, 1] : tensor<8x56x56x64xf32> to tensor<1x?x56x64xf32>
// CHECK: %[[PLACED:.+]] = tensor.insert_slice %[[PART]] into %[[FILLED]][0, 0, 1, 0] [1, %[[COUNT]], 56, 64]
// CHECK: tensor.parallel_insert_slice %[[PLACED]] into %[[OUT]][%[[N]], %[[H]], 0, 0] [1, 1, 58, 64]
// CHECK: } {tessel.workgroups}
func.func private @pad(%arg0: !llvm.ptr, %arg1: index, %arg2: index, %arg3: index) attributes {tessel.kernel} {
  %0 = tessel.binding %arg0[0] : !llvm.ptr -> memref<8x56x56x64xf32>
  %1 = bufferization.to_tensor %0 restrict : memref<8x56x56x64xf32> to tensor<8x56x56x64xf32>
  %2 = tessel.binding %arg0[1] : !llvm.ptr -> memref<8x58x58x64xf32>
  %cst = arith.constant 0.000000e+00 : f32
  %3 = tensor.empty() : tensor<8x58x58x64xf32>
  %4 = linalg.fill ins(%cst : f32) outs(%3 : tensor<8x58x58x64xf32>) -> tensor<8x58x58x64xf32>
  %inserted_slice = tensor.insert_slice %1 into %4[0, 1, 1, 0] [8, 56, 56, 64] [1, 1, 1, 1] : tensor<8x56x56x64xf32> into tensor<8x58x58x64xf32>
  bufferization.materialize_in_destination %inserted_slice in restrict writable %2 : (tensor<8x58x58x64xf32>, memref<8x58x58x64xf32>) -> ()
  return
}

// -----

// A source computed in the kernel is not split (it would be recomputed in
// every workgroup): one workgroup, as before.
// CHECK-LABEL: func.func private @computed_source
// CHECK-NOT: scf.forall
// CHECK: bufferization.materialize_in_destination
func.func private @computed_source(%arg0: !llvm.ptr, %arg1: index, %arg2: index, %arg3: index) attributes {tessel.kernel} {
  %0 = tessel.binding %arg0[0] : !llvm.ptr -> memref<4x6xf32>
  %1 = bufferization.to_tensor %0 restrict : memref<4x6xf32> to tensor<4x6xf32>
  %2 = tessel.binding %arg0[1] : !llvm.ptr -> memref<6x8xf32>
  %cst = arith.constant 0.000000e+00 : f32
  %e = tensor.empty() : tensor<4x6xf32>
  %neg = linalg.negf ins(%1 : tensor<4x6xf32>) outs(%e : tensor<4x6xf32>) -> tensor<4x6xf32>
  %3 = tensor.empty() : tensor<6x8xf32>
  %4 = linalg.fill ins(%cst : f32) outs(%3 : tensor<6x8xf32>) -> tensor<6x8xf32>
  %inserted_slice = tensor.insert_slice %neg into %4[1, 1] [4, 6] [1, 1] : tensor<4x6xf32> into tensor<6x8xf32>
  bufferization.materialize_in_destination %inserted_slice in restrict writable %2 : (tensor<6x8xf32>, memref<6x8xf32>) -> ()
  return
}
