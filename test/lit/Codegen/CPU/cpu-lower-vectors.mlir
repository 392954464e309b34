// RUN: tessel-opt %s --tessel-cpu-lower-vectors --split-input-file | FileCheck %s

// A register-tile contraction (4x8 += 4x2 * 2x8) becomes outer products:
// one 8-wide FMA per (row, k), 4 x 2 = 8 in all, each broadcasting one
// element of the LHS; no vector.contract remains.
// CHECK-LABEL: func.func @contract
// CHECK-NOT: vector.contract
// CHECK-NOT: vector.outerproduct
// CHECK-COUNT-8: vector.fma %{{.+}}, %{{.+}}, %{{.+}} : vector<8xf32>
// CHECK-NOT: vector.fma
// CHECK: return
#a = affine_map<(m, n, k) -> (m, k)>
#b = affine_map<(m, n, k) -> (k, n)>
#c = affine_map<(m, n, k) -> (m, n)>
func.func @contract(%a: vector<4x2xf32>, %b: vector<2x8xf32>, %c: vector<4x8xf32>) -> vector<4x8xf32> {
  %r = vector.contract {indexing_maps = [#a, #b, #c], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %a, %b, %c : vector<4x2xf32>, vector<2x8xf32> into vector<4x8xf32>
  return %r : vector<4x8xf32>
}

// -----

// A masked contraction in matmul form lowers to the same outer-product
// FMAs, with the mask applied by selects: no vector.mask and no
// vector.contract remain.
// CHECK-LABEL: func.func @masked_contract
// CHECK-NOT: vector.contract
// CHECK-COUNT-8: vector.fma %{{.+}}, %{{.+}}, %{{.+}} : vector<8xf32>
// CHECK-NOT: vector.mask
// CHECK-NOT: vector.contract
// CHECK: return
#a = affine_map<(m, n, k) -> (m, k)>
#b = affine_map<(m, n, k) -> (k, n)>
#c = affine_map<(m, n, k) -> (m, n)>
func.func @masked_contract(%a: vector<4x2xf32>, %b: vector<2x8xf32>, %c: vector<4x8xf32>, %m: index, %n: index) -> vector<4x8xf32> {
  %c2 = arith.constant 2 : index
  %mask = vector.create_mask %m, %n, %c2 : vector<4x8x2xi1>
  %r = vector.mask %mask { vector.contract {indexing_maps = [#a, #b, #c], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %a, %b, %c : vector<4x2xf32>, vector<2x8xf32> into vector<4x8xf32> } : vector<4x8x2xi1> -> vector<4x8xf32>
  return %r : vector<4x8xf32>
}

// NOTE: the masked contraction tessel-cpu-tile-and-vectorize emits today for
// partial matmul tiles has broadcast operands (vector<8x16x1xf32> with
// identity maps) and lowers to one masked vector.reduction per output
// element instead of FMAs; not tested here, reported as a performance bug.

// -----

// A multi-reduction over the inner dimension becomes 1-D shuffles and
// elementwise adds into the accumulator (inner-parallel strategy).
// CHECK-LABEL: func.func @multi_reduction
// CHECK-SAME: (%{{.+}}: vector<4x8xf32>, %[[ACC:.+]]: vector<4xf32>)
// CHECK-NOT: vector.multi_reduction
// CHECK: vector.shuffle
// CHECK: arith.addf %{{.+}}, %[[ACC]] : vector<4xf32>
// CHECK-COUNT-7: arith.addf %{{.+}}, %{{.+}} : vector<4xf32>
// CHECK-NOT: vector.multi_reduction
// CHECK: return
func.func @multi_reduction(%a: vector<4x8xf32>, %acc: vector<4xf32>) -> vector<4xf32> {
  %r = vector.multi_reduction <add>, %a, %acc [1] : vector<4x8xf32> to vector<4xf32>
  return %r : vector<4xf32>
}

// -----

// A 2-D transpose becomes a 1-D shuffle of the flattened vector.
// CHECK-LABEL: func.func @transpose
// CHECK-NOT: vector.transpose
// CHECK: vector.shuffle %{{.+}}, %{{.+}} [0, 8, 16, 24, 1, 9, 17, 25, 2, 10, 18, 26, 3, 11, 19, 27, 4, 12, 20, 28, 5, 13, 21, 29, 6, 14, 22, 30, 7, 15, 23, 31] : vector<32xf32>, vector<32xf32>
// CHECK-NOT: vector.transpose
// CHECK: return
func.func @transpose(%a: vector<4x8xf32>) -> vector<8x4xf32> {
  %r = vector.transpose %a, [1, 0] : vector<4x8xf32> to vector<8x4xf32>
  return %r : vector<8x4xf32>
}

// -----

// A 1-D masked transfer becomes a masked load with a 32-bit index compare
// for the mask; an unmasked in-bounds transfer_write becomes vector.store.
// CHECK-LABEL: func.func @transfers
// CHECK-SAME: (%[[M:.+]]: memref<37xf32>, %[[I:.+]]: index, %[[N:.+]]: index)
// CHECK-DAG: %[[STEP:.+]] = arith.constant dense<[0, 1, 2, 3, 4, 5, 6, 7]> : vector<8xi32>
// CHECK-DAG: %[[N32:.+]] = arith.index_cast %[[N]] : index to i32
// CHECK: %[[B:.+]] = vector.broadcast %[[N32]] : i32 to vector<8xi32>
// CHECK: %[[MASK:.+]] = arith.cmpi sgt, %[[B]], %[[STEP]] : vector<8xi32>
// CHECK: %[[V:.+]] = vector.maskedload %[[M]][%[[I]]], %[[MASK]], %{{.+}} : memref<37xf32>, vector<8xi1>, vector<8xf32> into vector<8xf32>
// CHECK: vector.store %[[V]], %[[M]][%{{.+}}] : memref<37xf32>, vector<8xf32>
// CHECK-NOT: vector.transfer_
// CHECK-NOT: vector.create_mask
func.func @transfers(%m: memref<37xf32>, %i: index, %n: index) {
  %p = arith.constant 0.0 : f32
  %c29 = arith.constant 29 : index
  %mask = vector.create_mask %n : vector<8xi1>
  %r = vector.transfer_read %m[%i], %p, %mask {in_bounds = [true]} : memref<37xf32>, vector<8xf32>
  vector.transfer_write %r, %m[%c29] {in_bounds = [true]} : vector<8xf32>, memref<37xf32>
  return
}

// -----

// f32 exp, tanh and erf get polynomial approximations (FMAs on the same
// vector type), so no math.exp/tanh/erf and no libm call remain for them.
// CHECK-LABEL: func.func @approximated
// CHECK-NOT: math.exp
// CHECK-NOT: math.tanh
// CHECK-NOT: math.erf
// CHECK-NOT: call
// CHECK: math.fma {{.*}} : vector<8xf32>
// CHECK: math.fma {{.*}} : f32
// CHECK: return
func.func @approximated(%v: vector<8xf32>, %s: f32) -> (vector<8xf32>, vector<8xf32>, f32) {
  %0 = math.exp %v : vector<8xf32>
  %1 = math.tanh %v : vector<8xf32>
  %2 = math.erf %s : f32
  return %0, %1, %2 : vector<8xf32>, vector<8xf32>, f32
}

// -----

// rsqrt and fpowi have no libm entry point: they are expanded inline.
// CHECK-LABEL: func.func @expanded
// CHECK-NOT: math.rsqrt
// CHECK-NOT: math.fpowi
// CHECK-NOT: call
// CHECK: math.sqrt %{{.+}} : vector<8xf32>
// CHECK: arith.divf %{{.+}}, %{{.+}} : vector<8xf32>
// CHECK: return
func.func @expanded(%v: vector<8xf32>) -> (vector<8xf32>, vector<8xf32>) {
  %n = arith.constant dense<3> : vector<8xi32>
  %0 = math.rsqrt %v : vector<8xf32>
  %1 = math.fpowi %v, %n : vector<8xf32>, vector<8xi32>
  return %0, %1 : vector<8xf32>, vector<8xf32>
}

// -----

// Functions without an approximation become libm calls: f32 tan calls
// tanf; an f64 vector tanh is unrolled into one `tanh` call per lane.
// CHECK-DAG: func.func private @tanf(f32) -> f32
// CHECK-DAG: func.func private @tanh(f64) -> f64
// CHECK-LABEL: func.func @libm
// CHECK-SAME: (%[[S:.+]]: f32, %[[V:.+]]: vector<4xf64>)
// CHECK-NOT: math.tan
// CHECK: call @tanf(%[[S]]) : (f32) -> f32
// CHECK: %[[E0:.+]] = vector.extract %[[V]][0] : f64 from vector<4xf64>
// CHECK: call @tanh(%[[E0]]) : (f64) -> f64
// CHECK-COUNT-3: call @tanh
// CHECK-NOT: math.tan
// CHECK: return
func.func @libm(%s: f32, %v: vector<4xf64>) -> (f32, vector<4xf64>) {
  %0 = math.tan %s : f32
  %1 = math.tanh %v : vector<4xf64>
  return %0, %1 : f32, vector<4xf64>
}
