// RUN: tessel-opt %s --tessel-form-dispatches | FileCheck %s

// An insert into loaded state that nothing reads afterwards updates it in
// place: the dispatch's result is tied to the state operand and its kernel
// inserts into an empty tensor (it writes only the slice).
// CHECK-LABEL: func.func private @update_dispatch_0(
// CHECK-SAME: %[[ROW:[a-z0-9]+]]: tensor<2x1x3xf32>, %[[OLD:[a-z0-9]+]]: tensor<2x6x3xf32>
// CHECK: %[[E:.+]] = tensor.empty() : tensor<2x6x3xf32>
// CHECK: tensor.insert_slice %[[ROW]] into %[[E]]
// CHECK-LABEL: func.func @update(
// CHECK: %[[S:.+]] = ml_program.global_load @cache
// CHECK: %[[U:.+]] = tessel.dispatch @update_dispatch_0(%{{.+}}, %[[S]]) {tessel.tied_operands = array<i64: 1>}
// CHECK: ml_program.global_store @cache = %[[U]]
ml_program.global private mutable @cache : tensor<2x6x3xf32>
func.func @update(%row: tensor<2x1x3xf32>) -> tensor<2x6x3xf32> {
  %c = ml_program.global_load @cache : tensor<2x6x3xf32>
  %c2 = tensor.insert_slice %row into %c[0, 4, 0] [2, 1, 3] [1, 1, 1] : tensor<2x1x3xf32> into tensor<2x6x3xf32>
  ml_program.global_store @cache = %c2 : tensor<2x6x3xf32>
  return %c2 : tensor<2x6x3xf32>
}

// A slice of the old state read after the store: the loaded value is
// copied right after the load, and the insert is an ordinary dispatch.
// CHECK-LABEL: func.func @stale(
// CHECK: %[[S:.+]] = ml_program.global_load @cache
// CHECK: %[[C:.+]] = tessel.dispatch @stale_dispatch_{{[0-9]+}}(%[[S]])
// CHECK-NOT: tied_operands
// CHECK: ml_program.global_store @cache
// CHECK: return
func.func @stale(%row: tensor<2x1x3xf32>) -> tensor<2x1x3xf32> {
  %c = ml_program.global_load @cache : tensor<2x6x3xf32>
  %old = tensor.extract_slice %c[0, 4, 0] [2, 1, 3] [1, 1, 1] : tensor<2x6x3xf32> to tensor<2x1x3xf32>
  %c2 = tensor.insert_slice %row into %c[0, 4, 0] [2, 1, 3] [1, 1, 1] : tensor<2x1x3xf32> into tensor<2x6x3xf32>
  ml_program.global_store @cache = %c2 : tensor<2x6x3xf32>
  %e = tensor.empty() : tensor<2x1x3xf32>
  %r = linalg.add ins(%old, %old : tensor<2x1x3xf32>, tensor<2x1x3xf32>) outs(%e : tensor<2x1x3xf32>) -> tensor<2x1x3xf32>
  return %r : tensor<2x1x3xf32>
}
