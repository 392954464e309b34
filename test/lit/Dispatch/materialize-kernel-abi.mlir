// RUN: tessel-opt %s --tessel-materialize-kernel-abi --split-input-file --verify-diagnostics | FileCheck %s
// RUN: tessel-opt %s --tessel-materialize-kernel-abi=abi=pointers --split-input-file --verify-diagnostics | FileCheck %s --check-prefix=PTR
// RUN: not tessel-opt %s --tessel-materialize-kernel-abi=abi=cuda --split-input-file 2>&1 | FileCheck %s --check-prefix=BAD-ABI

// BAD-ABI: error: unknown kernel ABI 'cuda' (expected binding-table or pointers)

// Prefix CHECK is the default binding-table ABI (CPU), prefix PTR is
// abi=pointers (GPU): one 64-byte-aligned memref argument per binding,
// operands then results.

// Operands are read through bindings 0..n-1 (restrict, read-only tensors),
// results written to the following bindings, each binding through
// memref.assume_alignment 64 (both runtimes align buffers to 64 bytes); an
// operand used as a DPS init is copied into a fresh tensor first. The host
// program is untouched. The kernel records its three bindings (the dispatch
// scratch, if any, is the next entry).
// CHECK-LABEL: func.func private @add_dispatch_0
// CHECK-SAME: (%[[TABLE:.+]]: !llvm.ptr, %{{.+}}: index, %{{.+}}: index, %{{.+}}: index)
// CHECK-NOT: ->
// CHECK-SAME: attributes {tessel.binding_count = 3 : i64, tessel.dispatch_function, tessel.kernel, tessel.push_constant_count = 0 : i64}
// CHECK: %[[B0:.+]] = tessel.binding %[[TABLE]][0] : !llvm.ptr -> memref<37x53xf32>
// CHECK-NEXT: %[[M0:.+]] = memref.assume_alignment %[[B0]], 64 : memref<37x53xf32>
// CHECK-NEXT: %[[T0:.+]] = bufferization.to_tensor %[[M0]] restrict : memref<37x53xf32> to tensor<37x53xf32>
// CHECK: %[[E:.+]] = tensor.empty() : tensor<37x53xf32>
// CHECK: %[[COPY:.+]] = linalg.copy ins(%[[T0]] : tensor<37x53xf32>) outs(%[[E]] : tensor<37x53xf32>)
// CHECK: %[[B1:.+]] = tessel.binding %[[TABLE]][1] : !llvm.ptr -> memref<37x53xf32>
// CHECK-NEXT: %[[M1:.+]] = memref.assume_alignment %[[B1]], 64
// CHECK-NEXT: %[[T1:.+]] = bufferization.to_tensor %[[M1]] restrict : memref<37x53xf32> to tensor<37x53xf32>
// CHECK: %[[B2:.+]] = tessel.binding %[[TABLE]][2] : !llvm.ptr -> memref<37x53xf32>
// CHECK-NEXT: %[[M2:.+]] = memref.assume_alignment %[[B2]], 64
// CHECK: %[[R:.+]] = linalg.generic {{.*}} ins(%[[T0]], %[[T1]] : tensor<37x53xf32>, tensor<37x53xf32>) outs(%[[COPY]] : tensor<37x53xf32>)
// CHECK: bufferization.materialize_in_destination %[[R]] in restrict writable %[[M2]] : (tensor<37x53xf32>, memref<37x53xf32>) -> ()
// CHECK-NEXT: return{{$}}
// CHECK-LABEL: func.func @add
// CHECK: tessel.dispatch @add_dispatch_0(%{{.+}}, %{{.+}}) : (tensor<37x53xf32>, tensor<37x53xf32>) -> tensor<37x53xf32>
// With abi=pointers the same bindings are the memref arguments (two
// operands, then the result), each read through memref.assume_alignment 64.
// PTR-LABEL: func.func private @add_dispatch_0
// PTR-SAME: (%[[A0:.+]]: memref<37x53xf32>, %[[A1:.+]]: memref<37x53xf32>, %[[A2:.+]]: memref<37x53xf32>)
// PTR-NOT: ->
// PTR-SAME: attributes {tessel.binding_count = 3 : i64, tessel.dispatch_function, tessel.kernel, tessel.push_constant_count = 0 : i64}
// PTR-NOT: tessel.binding
// PTR: %[[AL0:.+]] = memref.assume_alignment %[[A0]], 64 : memref<37x53xf32>
// PTR: %[[T0:.+]] = bufferization.to_tensor %[[AL0]] restrict : memref<37x53xf32> to tensor<37x53xf32>
// PTR: %[[COPY:.+]] = linalg.copy ins(%[[T0]] : tensor<37x53xf32>)
// PTR: %[[AL1:.+]] = memref.assume_alignment %[[A1]], 64 : memref<37x53xf32>
// PTR: %[[T1:.+]] = bufferization.to_tensor %[[AL1]] restrict
// PTR: %[[AL2:.+]] = memref.assume_alignment %[[A2]], 64 : memref<37x53xf32>
// PTR: %[[R:.+]] = linalg.generic {{.*}} ins(%[[T0]], %[[T1]] : tensor<37x53xf32>, tensor<37x53xf32>) outs(%[[COPY]] : tensor<37x53xf32>)
// PTR: bufferization.materialize_in_destination %[[R]] in restrict writable %[[AL2]] : (tensor<37x53xf32>, memref<37x53xf32>) -> ()
// PTR-NEXT: return{{$}}
// PTR-LABEL: func.func @add
// PTR-SAME: (%{{.+}}: tensor<37x53xf32>, %{{.+}}: tensor<37x53xf32>) -> tensor<37x53xf32>
// PTR: tessel.dispatch @add_dispatch_0
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func private @add_dispatch_0(%a: tensor<37x53xf32>, %b: tensor<37x53xf32>) -> tensor<37x53xf32> attributes {tessel.dispatch_function} {
  %0 = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%a, %b : tensor<37x53xf32>, tensor<37x53xf32>) outs(%a : tensor<37x53xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %s = arith.addf %x, %y : f32
    linalg.yield %s : f32
  } -> tensor<37x53xf32>
  return %0 : tensor<37x53xf32>
}
func.func @add(%a: tensor<37x53xf32>, %b: tensor<37x53xf32>) -> tensor<37x53xf32> {
  %0 = tessel.dispatch @add_dispatch_0(%a, %b) : (tensor<37x53xf32>, tensor<37x53xf32>) -> tensor<37x53xf32>
  return %0 : tensor<37x53xf32>
}

// -----

// Operands only read (not inits) get no copy.
// CHECK-LABEL: func.func private @no_copy_dispatch_0
// CHECK-NOT: linalg.copy
// CHECK: linalg.generic
// CHECK-NOT: linalg.copy
// CHECK: bufferization.materialize_in_destination
#id = affine_map<(d0) -> (d0)>
func.func private @no_copy_dispatch_0(%a: tensor<37xf32>) -> tensor<37xf32> attributes {tessel.dispatch_function} {
  %e = tensor.empty() : tensor<37xf32>
  %0 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%a : tensor<37xf32>) outs(%e : tensor<37xf32>) {
  ^bb0(%x: f32, %o: f32):
    %s = math.exp %x : f32
    linalg.yield %s : f32
  } -> tensor<37xf32>
  return %0 : tensor<37xf32>
}

// -----

// i1 tensors live in memory as i8: the operand is truncated after loading,
// the result extended before storing; results use bindings after operands
// (with abi=pointers: memref<37xi8> arguments, in the same order).
// CHECK-LABEL: func.func private @bool_dispatch_0
// CHECK-SAME: (%[[TABLE:.+]]: !llvm.ptr, %{{.+}}: index, %{{.+}}: index, %{{.+}}: index)
// CHECK: tessel.binding %[[TABLE]][0] : !llvm.ptr -> memref<37xf32>
// CHECK: %[[B1:.+]] = tessel.binding %[[TABLE]][1] : !llvm.ptr -> memref<37xi8>
// CHECK-NEXT: %[[M1:.+]] = memref.assume_alignment %[[B1]], 64 : memref<37xi8>
// CHECK-NEXT: %[[T1:.+]] = bufferization.to_tensor %[[M1]] restrict : memref<37xi8> to tensor<37xi8>
// CHECK: %[[B:.+]] = linalg.generic {{.*}} ins(%[[T1]] : tensor<37xi8>) outs(%{{.+}} : tensor<37xi1>)
// CHECK-NEXT: ^bb0(%[[IN:.+]]: i8, %{{.+}}: i1):
// CHECK-NEXT: %[[TR:.+]] = arith.trunci %[[IN]] : i8 to i1
// CHECK-NEXT: linalg.yield %[[TR]] : i1
// CHECK: %[[B2:.+]] = tessel.binding %[[TABLE]][2] : !llvm.ptr -> memref<37xi8>
// CHECK-NEXT: %[[M2:.+]] = memref.assume_alignment %[[B2]], 64 : memref<37xi8>
// CHECK: %[[B3:.+]] = tessel.binding %[[TABLE]][3] : !llvm.ptr -> memref<37xf32>
// CHECK-NEXT: %[[M3:.+]] = memref.assume_alignment %[[B3]], 64 : memref<37xf32>
// CHECK: %[[R:.+]]:2 = linalg.generic {{.*}} ins(%{{.+}}, %[[B]] : tensor<37xf32>, tensor<37xi1>)
// CHECK: %[[W:.+]] = linalg.generic {{.*}} ins(%[[R]]#0 : tensor<37xi1>) outs(%{{.+}} : tensor<37xi8>)
// CHECK-NEXT: ^bb0(%[[IN2:.+]]: i1, %{{.+}}: i8):
// CHECK-NEXT: %[[EXT:.+]] = arith.extui %[[IN2]] : i1 to i8
// CHECK-NEXT: linalg.yield %[[EXT]] : i8
// CHECK: bufferization.materialize_in_destination %[[W]] in restrict writable %[[M2]] : (tensor<37xi8>, memref<37xi8>)
// CHECK: bufferization.materialize_in_destination %[[R]]#1 in restrict writable %[[M3]] : (tensor<37xf32>, memref<37xf32>)
// CHECK-NOT: tessel.binding
// CHECK: return
// PTR-LABEL: func.func private @bool_dispatch_0
// PTR-SAME: (%[[A0:.+]]: memref<37xf32>, %[[A1:.+]]: memref<37xi8>, %[[A2:.+]]: memref<37xi8>, %[[A3:.+]]: memref<37xf32>)
// PTR: %[[AL1:.+]] = memref.assume_alignment %[[A1]], 64 : memref<37xi8>
// PTR: %[[T1:.+]] = bufferization.to_tensor %[[AL1]] restrict : memref<37xi8> to tensor<37xi8>
// PTR: linalg.generic {{.*}} ins(%[[T1]] : tensor<37xi8>) outs(%{{.+}} : tensor<37xi1>)
// PTR: arith.trunci %{{.+}} : i8 to i1
// PTR: %[[AL2:.+]] = memref.assume_alignment %[[A2]], 64 : memref<37xi8>
// PTR: %[[AL3:.+]] = memref.assume_alignment %[[A3]], 64 : memref<37xf32>
// PTR: %[[R:.+]]:2 = linalg.generic
// PTR: %[[W:.+]] = linalg.generic {{.*}} ins(%[[R]]#0 : tensor<37xi1>) outs(%{{.+}} : tensor<37xi8>)
// PTR: arith.extui %{{.+}} : i1 to i8
// PTR: bufferization.materialize_in_destination %[[W]] in restrict writable %[[AL2]] : (tensor<37xi8>, memref<37xi8>)
// PTR: bufferization.materialize_in_destination %[[R]]#1 in restrict writable %[[AL3]] : (tensor<37xf32>, memref<37xf32>)
// PTR-NEXT: return
#id = affine_map<(d0) -> (d0)>
func.func private @bool_dispatch_0(%a: tensor<37xf32>, %m: tensor<37xi1>) -> (tensor<37xi1>, tensor<37xf32>) attributes {tessel.dispatch_function} {
  %e = tensor.empty() : tensor<37xi1>
  %e2 = tensor.empty() : tensor<37xf32>
  %0:2 = linalg.generic {indexing_maps = [#id, #id, #id, #id], iterator_types = ["parallel"]}
      ins(%a, %m : tensor<37xf32>, tensor<37xi1>) outs(%e, %e2 : tensor<37xi1>, tensor<37xf32>) {
  ^bb0(%x: f32, %y: i1, %o: i1, %p: f32):
    %z = arith.constant 0.0 : f32
    %c = arith.cmpf olt, %x, %z : f32
    %d = arith.andi %c, %y : i1
    %s = arith.select %d, %x, %z : f32
    linalg.yield %d, %s : i1, f32
  } -> (tensor<37xi1>, tensor<37xf32>)
  return %0#0, %0#1 : tensor<37xi1>, tensor<37xf32>
}

// -----

// A dispatch with no operands (a returned fill) writes binding 0; rank-0
// tensors become rank-0 memrefs (with abi=pointers, the only argument).
// CHECK-LABEL: func.func private @fill_dispatch_0
// CHECK-SAME: (%[[TABLE:.+]]: !llvm.ptr, %{{.+}}: index, %{{.+}}: index, %{{.+}}: index)
// CHECK: %[[B:.+]] = tessel.binding %[[TABLE]][0] : !llvm.ptr -> memref<f32>
// CHECK-NEXT: %[[M:.+]] = memref.assume_alignment %[[B]], 64 : memref<f32>
// CHECK: %[[F:.+]] = linalg.fill
// CHECK: bufferization.materialize_in_destination %[[F]] in restrict writable %[[M]] : (tensor<f32>, memref<f32>)
// PTR-LABEL: func.func private @fill_dispatch_0
// PTR-SAME: (%[[A0:.+]]: memref<f32>) attributes
// PTR: %[[AL:.+]] = memref.assume_alignment %[[A0]], 64 : memref<f32>
// PTR: %[[F:.+]] = linalg.fill
// PTR: bufferization.materialize_in_destination %[[F]] in restrict writable %[[AL]] : (tensor<f32>, memref<f32>)
func.func private @fill_dispatch_0() -> tensor<f32> attributes {tessel.dispatch_function} {
  %cst = arith.constant 2.0 : f32
  %e = tensor.empty() : tensor<f32>
  %f = linalg.fill ins(%cst : f32) outs(%e : tensor<f32>) -> tensor<f32>
  return %f : tensor<f32>
}

// -----

// An insert_slice into an operand (a read-only binding) copies the operand
// into a fresh tensor and inserts into the copy.
// CHECK-LABEL: func.func private @insert_dispatch_0
// CHECK: %[[SRC:.+]] = bufferization.to_tensor %{{.+}} restrict : memref<4xf32> to tensor<4xf32>
// CHECK: %[[DST:.+]] = bufferization.to_tensor %{{.+}} restrict : memref<8xf32> to tensor<8xf32>
// CHECK: %[[E:.+]] = tensor.empty() : tensor<8xf32>
// CHECK: %[[C:.+]] = linalg.copy ins(%[[DST]] : tensor<8xf32>) outs(%[[E]] : tensor<8xf32>)
// CHECK: %[[I:.+]] = tensor.insert_slice %[[SRC]] into %[[C]][4] [4] [1]
// CHECK: bufferization.materialize_in_destination %[[I]]
func.func private @insert_dispatch_0(%b: tensor<4xf32>, %d: tensor<8xf32>) -> tensor<8xf32> attributes {tessel.dispatch_function} {
  %0 = tensor.insert_slice %b into %d[4] [4] [1] : tensor<4xf32> into tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

// Non-dispatch functions and functions already in kernel form are left
// alone, whatever the ABI.
// CHECK-LABEL: func.func private @already_kernel
// CHECK-SAME: (%{{.+}}: !llvm.ptr, %{{.+}}: index, %{{.+}}: index, %{{.+}}: index)
// CHECK-NEXT: return
// CHECK-LABEL: func.func @host
// CHECK-SAME: (%{{.+}}: tensor<4xf32>) -> tensor<4xf32>
// CHECK-NOT: tessel.binding
// PTR-LABEL: func.func private @already_kernel
// PTR-SAME: (%{{.+}}: !llvm.ptr, %{{.+}}: index, %{{.+}}: index, %{{.+}}: index)
// PTR-NEXT: return
// PTR-LABEL: func.func @host
// PTR-SAME: (%{{.+}}: tensor<4xf32>) -> tensor<4xf32>
// PTR-NOT: memref
func.func private @already_kernel(%t: !llvm.ptr, %x: index, %y: index, %z: index) attributes {tessel.dispatch_function, tessel.kernel} {
  return
}
func.func @host(%a: tensor<4xf32>) -> tensor<4xf32> {
  return %a : tensor<4xf32>
}

// -----

// A dynamic operand or result is bound as its base (a rank-0 memref) and
// viewed with its extents, the push constants: the operands' dynamic
// dimensions, then the results'. A tensor.dim of a binding is its push
// constant. Static strides stay static in the view's type (a folded cast
// leaves vector accesses on a unit-stride innermost dimension).
// CHECK-LABEL: func.func private @dynamic_dispatch_0
// CHECK-SAME: tessel.push_constant_count = 2 : i64
// CHECK: %[[B0:.+]] = tessel.binding %{{.+}}[0] : !llvm.ptr -> memref<f32>
// CHECK: %[[A0:.+]] = memref.assume_alignment %[[B0]], 64 : memref<f32>
// CHECK: %[[N:.+]] = tessel.push_constant 0 : index
// CHECK: %[[V0:.+]] = memref.reinterpret_cast %[[A0]] to offset: [0], sizes: [%[[N]], 5], strides: [5, 1]
// CHECK: memref.cast %[[V0]] : memref<?x5xf32, strided<[5, 1]>> to memref<?x5xf32>
// CHECK: tessel.binding %{{.+}}[1] : !llvm.ptr -> memref<f32>
// CHECK: tessel.push_constant 1 : index
// CHECK: tensor.empty(%[[N]]) : tensor<?x5xf32>
// PTR-LABEL: func.func private @dynamic_dispatch_0
// PTR-SAME: (%{{.+}}: memref<f32>, %{{.+}}: memref<f32>)
// PTR: tessel.push_constant 0 : index
func.func private @dynamic_dispatch_0(%a: tensor<?x5xf32>) -> tensor<?x5xf32> attributes {tessel.dispatch_function} {
  %c0 = arith.constant 0 : index
  %n = tensor.dim %a, %c0 : tensor<?x5xf32>
  %e = tensor.empty(%n) : tensor<?x5xf32>
  %r = linalg.copy ins(%a : tensor<?x5xf32>) outs(%e : tensor<?x5xf32>) -> tensor<?x5xf32>
  return %r : tensor<?x5xf32>
}
