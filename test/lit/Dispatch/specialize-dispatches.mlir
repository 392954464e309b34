// RUN: tessel-opt %s --split-input-file --tessel-specialize-dispatches="buckets=64,1024 key-divisor=64" | FileCheck %s
// RUN: not tessel-opt %s --tessel-specialize-dispatches="buckets=1024,64" 2>&1 | FileCheck %s --check-prefix=BAD

// BAD: buckets must be positive and ascending

// A matmul dispatch whose result rows are a dynamic host value (M) gets a
// variant per bucket, planned for the bucket (tessel.assumed_extents, one entry per
// push constant), and the host branches on M: <= 64, <= 1024, the rest to
// the original function.
// CHECK-LABEL: func.func private @mm_dispatch_0(
// CHECK-NOT: tessel.assumed_extents
// CHECK-LABEL: func.func private @mm_dispatch_0_m1024(
// CHECK-SAME: tessel.assumed_extents = array<i64: 1024, 1024>
// CHECK: linalg.matmul
// CHECK-LABEL: func.func private @mm_dispatch_0_m64(
// CHECK-SAME: tessel.assumed_extents = array<i64: 64, 64>
// CHECK-LABEL: func.func @mm(
// CHECK: %[[M:.+]] = tensor.dim %arg0
// CHECK: %[[C64:.+]] = arith.constant 64 : index
// CHECK: %[[SMALL:.+]] = arith.cmpi sle, %[[M]], %[[C64]]
// CHECK: %[[R:.+]] = scf.if %[[SMALL]] -> (tensor<?x24xf32>) {
// CHECK:   tessel.dispatch @mm_dispatch_0_m64(%arg0, %arg1) [%[[M]], %[[M]]]
// CHECK: } else {
// CHECK:   %[[C1024:.+]] = arith.constant 1024 : index
// CHECK:   %[[MID:.+]] = arith.cmpi sle, %[[M]], %[[C1024]]
// CHECK:   scf.if %[[MID]] -> (tensor<?x24xf32>) {
// CHECK:     tessel.dispatch @mm_dispatch_0_m1024(%arg0, %arg1) [%[[M]], %[[M]]]
// CHECK:   } else {
// CHECK:     tessel.dispatch @mm_dispatch_0(%arg0, %arg1) [%[[M]], %[[M]]]
// CHECK: return %[[R]]
func.func private @mm_dispatch_0(%a: tensor<?x16xf32>, %b: tensor<16x24xf32>) -> tensor<?x24xf32> attributes {tessel.dispatch_function} {
  %c0 = arith.constant 0 : index
  %m = tensor.dim %a, %c0 : tensor<?x16xf32>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty(%m) : tensor<?x24xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<?x24xf32>) -> tensor<?x24xf32>
  %r = linalg.matmul ins(%a, %b : tensor<?x16xf32>, tensor<16x24xf32>) outs(%z : tensor<?x24xf32>) -> tensor<?x24xf32>
  return %r : tensor<?x24xf32>
}
func.func @mm(%a: tensor<?x16xf32>, %b: tensor<16x24xf32>) -> tensor<?x24xf32> {
  %c0 = arith.constant 0 : index
  %m = tensor.dim %a, %c0 : tensor<?x16xf32>
  %r = tessel.dispatch @mm_dispatch_0(%a, %b)[%m, %m] : (tensor<?x16xf32>, tensor<16x24xf32>) -> tensor<?x24xf32>
  return %r : tensor<?x24xf32>
}

// -----

// Left alone: an elementwise dispatch (no contraction). A matmul whose
// operands bring another dynamic extent (K) still branches on its result's
// rows (M); its variants assume the bucket for M only (0: nothing assumed).
// CHECK-LABEL: func.func private @mm2_dispatch_0_m1024(
// CHECK-SAME: tessel.assumed_extents = array<i64: 1024, 0, 0, 1024>
// CHECK-LABEL: func.func private @mm2_dispatch_0_m64(
// CHECK-SAME: tessel.assumed_extents = array<i64: 64, 0, 0, 64>
// CHECK-LABEL: func.func @left_alone(
// CHECK: %[[M:.+]] = tensor.dim %arg1, %c0
// CHECK-NOT: scf.if
// CHECK: tessel.dispatch @neg_dispatch_0(%arg0) [%{{.+}}, %{{.+}}]
// CHECK: arith.cmpi sle, %[[M]], %c64
// CHECK: tessel.dispatch @mm2_dispatch_0_m64(%arg1, %arg2) [%[[M]], %{{.+}}, %{{.+}}, %[[M]]]
func.func private @neg_dispatch_0(%a: tensor<?x16xf32>) -> tensor<?x16xf32> attributes {tessel.dispatch_function} {
  %c0 = arith.constant 0 : index
  %m = tensor.dim %a, %c0 : tensor<?x16xf32>
  %e = tensor.empty(%m) : tensor<?x16xf32>
  %r = linalg.negf ins(%a : tensor<?x16xf32>) outs(%e : tensor<?x16xf32>) -> tensor<?x16xf32>
  return %r : tensor<?x16xf32>
}
func.func private @mm2_dispatch_0(%a: tensor<?x?xf32>, %b: tensor<?x24xf32>) -> tensor<?x24xf32> attributes {tessel.dispatch_function} {
  %c0 = arith.constant 0 : index
  %m = tensor.dim %a, %c0 : tensor<?x?xf32>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty(%m) : tensor<?x24xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<?x24xf32>) -> tensor<?x24xf32>
  %r = linalg.matmul ins(%a, %b : tensor<?x?xf32>, tensor<?x24xf32>) outs(%z : tensor<?x24xf32>) -> tensor<?x24xf32>
  return %r : tensor<?x24xf32>
}
func.func @left_alone(%x: tensor<?x16xf32>, %a: tensor<?x?xf32>, %b: tensor<?x24xf32>) -> (tensor<?x16xf32>, tensor<?x24xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = tensor.dim %x, %c0 : tensor<?x16xf32>
  %m = tensor.dim %a, %c0 : tensor<?x?xf32>
  %k = tensor.dim %a, %c1 : tensor<?x?xf32>
  %r = tessel.dispatch @neg_dispatch_0(%x)[%n, %n] : (tensor<?x16xf32>) -> tensor<?x16xf32>
  %s = tessel.dispatch @mm2_dispatch_0(%a, %b)[%m, %k, %k, %m] : (tensor<?x?xf32>, tensor<?x24xf32>) -> tensor<?x24xf32>
  return %r, %s : tensor<?x16xf32>, tensor<?x24xf32>
}

// -----

// An attention whose key length is dynamic: a variant knowing that K2 (the
// key's dimension 1: dims position 3 after the query's two) is a multiple
// of 64, taken when the host finds it is; the original takes the rest.
// CHECK-LABEL: func.func private @attn_dispatch_0_k64(
// CHECK-SAME: tessel.assumed_divisors = array<i64: 0, 0, 0, 64, 0, 0, 0, 0>
// CHECK-LABEL: func.func @attn(
// CHECK: %[[K2:.+]] = tensor.dim %arg1, %c1
// CHECK: %[[R:.+]] = arith.remsi %[[K2]], %c64 : index
// CHECK: %[[WHOLE:.+]] = arith.cmpi eq, %[[R]], %c0
// CHECK: scf.if %[[WHOLE]]
// CHECK:   tessel.dispatch @attn_dispatch_0_k64(
// CHECK: } else {
// CHECK:   tessel.dispatch @attn_dispatch_0(
#aq = affine_map<(b, m, n, k1, k2) -> (b, m, k1)>
#ak = affine_map<(b, m, n, k1, k2) -> (b, k2, k1)>
#av = affine_map<(b, m, n, k1, k2) -> (b, k2, n)>
#as = affine_map<(b, m, n, k1, k2) -> ()>
#ao = affine_map<(b, m, n, k1, k2) -> (b, m, n)>
func.func private @attn_dispatch_0(%q: tensor<?x?x16xf16>, %k: tensor<?x?x16xf16>, %v: tensor<?x?x16xf16>) -> tensor<?x?x16xf16> attributes {tessel.dispatch_function} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %b = tensor.dim %q, %c0 : tensor<?x?x16xf16>
  %m = tensor.dim %q, %c1 : tensor<?x?x16xf16>
  %scale = arith.constant 0.25 : f16
  %e = tensor.empty(%b, %m) : tensor<?x?x16xf16>
  %r = tessel.attention {indexing_maps = [#aq, #ak, #av, #as, #ao]}
      ins(%q, %k, %v, %scale : tensor<?x?x16xf16>, tensor<?x?x16xf16>, tensor<?x?x16xf16>, f16)
      outs(%e : tensor<?x?x16xf16>) {
    ^bb0(%x: f32):
      tessel.yield %x : f32
  } -> tensor<?x?x16xf16>
  return %r : tensor<?x?x16xf16>
}
func.func @attn(%q: tensor<?x?x16xf16>, %k: tensor<?x?x16xf16>, %v: tensor<?x?x16xf16>) -> tensor<?x?x16xf16> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %b = tensor.dim %q, %c0 : tensor<?x?x16xf16>
  %m = tensor.dim %q, %c1 : tensor<?x?x16xf16>
  %bk = tensor.dim %k, %c0 : tensor<?x?x16xf16>
  %k2 = tensor.dim %k, %c1 : tensor<?x?x16xf16>
  %bv = tensor.dim %v, %c0 : tensor<?x?x16xf16>
  %k3 = tensor.dim %v, %c1 : tensor<?x?x16xf16>
  %r = tessel.dispatch @attn_dispatch_0(%q, %k, %v)[%b, %m, %bk, %k2, %bv, %k3, %b, %m] : (tensor<?x?x16xf16>, tensor<?x?x16xf16>, tensor<?x?x16xf16>) -> tensor<?x?x16xf16>
  return %r : tensor<?x?x16xf16>
}
