// RUN: tessel-cc %s --emit=mlir | tessel-opt | FileCheck %s
//
// Math: clang's CUDA headers define expf, sqrt, min, ... as inline device
// functions over libdevice (__nv_expf, ...); each wrapper becomes a private
// func.func (internal linkage: _ZL...) whose __nv_* call is a math or arith
// op, so that both targets understand it.

// CHECK-LABEL: func.func @_Z5fmathPf(%arg0: !llvm.ptr)
// CHECK: call @_ZL4expff(
// CHECK: call @_ZL5exp2ff(
// CHECK: call @_ZL4logff(
// CHECK: call @_ZL5log2ff(
// CHECK: call @_ZL6log10ff(
// CHECK: call @_ZL5sqrtff(
// CHECK: call @_ZL6rsqrtff(
// CHECK: call @_ZL4sinff(
// CHECK: call @_ZL4cosff(
// CHECK: call @_ZL4tanff(
// CHECK: call @_ZL5tanhff(
// CHECK: call @_ZL5fabsff(
// CHECK: call @_ZL6floorff(
// CHECK: call @_ZL5ceilff(
// CHECK: call @_ZL6roundff(
// CHECK: call @_ZL6truncff(
// CHECK: call @_ZL4powfff(
// CHECK: call @_ZL5fminfff(
// CHECK: call @_ZL5fmaxfff(
// CHECK: call @_ZL4fmaffff(
// CHECK: call @_ZL6atan2fff(
// CHECK: call @_ZL4erfff(
// CHECK: call @_ZL5fmodfff(
// CHECK: call @_ZL9copysignfff(
// CHECK: call @_ZL6__expff(
// CHECK: call @_ZL10__fdividefff(
// CHECK: call @_ZL6__logff(
// CHECK: call @_ZL11__saturateff(
// CHECK: call @_ZL6exp10ff(
// CHECK-LABEL: func.func private @_ZL4expff(
// CHECK-SAME: tessel.source_name = "expf"
// CHECK: math.exp %{{.*}} : f32
// CHECK-NEXT: llvm.store
// CHECK-LABEL: func.func private @_ZL5exp2ff(
// CHECK-SAME: tessel.source_name = "exp2f"
// CHECK: math.exp2 %{{.*}} : f32
// CHECK-NEXT: llvm.store
// CHECK-LABEL: func.func private @_ZL4logff(
// CHECK-SAME: tessel.source_name = "logf"
// CHECK: math.log %{{.*}} : f32
// CHECK-NEXT: llvm.store
// CHECK-LABEL: func.func private @_ZL5log2ff(
// CHECK-SAME: tessel.source_name = "log2f"
// CHECK: math.log2 %{{.*}} : f32
// CHECK-NEXT: llvm.store
// CHECK-LABEL: func.func private @_ZL6log10ff(
// CHECK-SAME: tessel.source_name = "log10f"
// CHECK: math.log10 %{{.*}} : f32
// CHECK-NEXT: llvm.store
// CHECK-LABEL: func.func private @_ZL5sqrtff(
// CHECK-SAME: tessel.source_name = "sqrtf"
// CHECK: math.sqrt %{{.*}} : f32
// CHECK-NEXT: llvm.store
// CHECK-LABEL: func.func private @_ZL6rsqrtff(
// CHECK-SAME: tessel.source_name = "rsqrtf"
// CHECK: math.rsqrt %{{.*}} : f32
// CHECK-NEXT: llvm.store
// CHECK-LABEL: func.func private @_ZL4sinff(
// CHECK-SAME: tessel.source_name = "sinf"
// CHECK: math.sin %{{.*}} : f32
// CHECK-NEXT: llvm.store
// CHECK-LABEL: func.func private @_ZL4cosff(
// CHECK-SAME: tessel.source_name = "cosf"
// CHECK: math.cos %{{.*}} : f32
// CHECK-NEXT: llvm.store
// CHECK-LABEL: func.func private @_ZL4tanff(
// CHECK-SAME: tessel.source_name = "tanf"
// CHECK: math.tan %{{.*}} : f32
// CHECK-NEXT: llvm.store
// CHECK-LABEL: func.func private @_ZL5tanhff(
// CHECK-SAME: tessel.source_name = "tanhf"
// CHECK: math.tanh %{{.*}} : f32
// CHECK-NEXT: llvm.store
// CHECK-LABEL: func.func private @_ZL5fabsff(
// CHECK-SAME: tessel.source_name = "fabsf"
// CHECK: math.absf %{{.*}} : f32
// CHECK-NEXT: llvm.store
// CHECK-LABEL: func.func private @_ZL6floorff(
// CHECK-SAME: tessel.source_name = "floorf"
// CHECK: math.floor %{{.*}} : f32
// CHECK-NEXT: llvm.store
// CHECK-LABEL: func.func private @_ZL5ceilff(
// CHECK-SAME: tessel.source_name = "ceilf"
// CHECK: math.ceil %{{.*}} : f32
// CHECK-NEXT: llvm.store
// CHECK-LABEL: func.func private @_ZL6roundff(
// CHECK-SAME: tessel.source_name = "roundf"
// CHECK: math.round %{{.*}} : f32
// CHECK-NEXT: llvm.store
// CHECK-LABEL: func.func private @_ZL6truncff(
// CHECK-SAME: tessel.source_name = "truncf"
// CHECK: math.trunc %{{.*}} : f32
// CHECK-NEXT: llvm.store
// CHECK-LABEL: func.func private @_ZL4powfff(
// CHECK-SAME: tessel.source_name = "powf"
// CHECK: math.powf %{{.*}}, %{{.*}} : f32
// CHECK-NEXT: llvm.store
// CHECK-LABEL: func.func private @_ZL5fminfff(
// CHECK-SAME: tessel.source_name = "fminf"
// CHECK: arith.minnumf %{{.*}}, %{{.*}} : f32
// CHECK-NEXT: llvm.store
// CHECK-LABEL: func.func private @_ZL5fmaxfff(
// CHECK-SAME: tessel.source_name = "fmaxf"
// CHECK: arith.maxnumf %{{.*}}, %{{.*}} : f32
// CHECK-NEXT: llvm.store
// CHECK-LABEL: func.func private @_ZL4fmaffff(
// CHECK-SAME: tessel.source_name = "fmaf"
// CHECK: math.fma %{{.*}}, %{{.*}}, %{{.*}} : f32
// CHECK-NEXT: llvm.store
// CHECK-LABEL: func.func private @_ZL6atan2fff(
// CHECK-SAME: tessel.source_name = "atan2f"
// CHECK: math.atan2 %{{.*}}, %{{.*}} : f32
// CHECK-NEXT: llvm.store
// CHECK-LABEL: func.func private @_ZL4erfff(
// CHECK-SAME: tessel.source_name = "erff"
// CHECK: math.erf %{{.*}} : f32
// CHECK-NEXT: llvm.store
// CHECK-LABEL: func.func private @_ZL5fmodfff(
// CHECK-SAME: tessel.source_name = "fmodf"
// CHECK: arith.remf %{{.*}}, %{{.*}} : f32
// CHECK-NEXT: llvm.store
// CHECK-LABEL: func.func private @_ZL9copysignfff(
// CHECK-SAME: tessel.source_name = "copysignf"
// CHECK: math.copysign %{{.*}}, %{{.*}} : f32
// CHECK-NEXT: llvm.store
// CHECK-LABEL: func.func private @_ZL6__expff(
// CHECK-SAME: tessel.source_name = "__expf"
// CHECK: math.exp %{{.*}} : f32
// CHECK-NEXT: llvm.store
// CHECK-LABEL: func.func private @_ZL10__fdividefff(
// CHECK-SAME: tessel.source_name = "__fdividef"
// CHECK: arith.divf %{{.*}}, %{{.*}} : f32
// CHECK-NEXT: llvm.store
// CHECK-LABEL: func.func private @_ZL6__logff(
// CHECK-SAME: tessel.source_name = "__logf"
// CHECK: math.log %{{.*}} : f32
// CHECK-NEXT: llvm.store
// __saturatef clamps to [0, 1].
// CHECK-LABEL: func.func private @_ZL11__saturateff(
// CHECK: %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
// CHECK-NEXT: %[[ONE:.*]] = arith.constant 1.000000e+00 : f32
// CHECK-NEXT: %[[LO:.*]] = arith.maximumf %{{.*}}, %[[ZERO]] : f32
// CHECK-NEXT: arith.minimumf %[[LO]], %[[ONE]] : f32
// exp10f(x) is exp(x * ln 10).
// CHECK-LABEL: func.func private @_ZL6exp10ff(
// CHECK: %[[LN10:.*]] = arith.constant 2.30258{{[0-9]*}} : f32
// CHECK-NEXT: %[[X:.*]] = arith.mulf %{{.*}}, %[[LN10]] : f32
// CHECK-NEXT: math.exp %[[X]] : f32
__global__ void fmath(float *f) {
  f[0] = expf(f[0]);
  f[1] = exp2f(f[1]);
  f[2] = logf(f[2]);
  f[3] = log2f(f[3]);
  f[4] = log10f(f[4]);
  f[5] = sqrtf(f[5]);
  f[6] = rsqrtf(f[6]);
  f[7] = sinf(f[7]);
  f[8] = cosf(f[8]);
  f[9] = tanf(f[9]);
  f[10] = tanhf(f[10]);
  f[11] = fabsf(f[11]);
  f[12] = floorf(f[12]);
  f[13] = ceilf(f[13]);
  f[14] = roundf(f[14]);
  f[15] = truncf(f[15]);
  f[16] = powf(f[16], 2.5f);
  f[17] = fminf(f[17], 1.0f);
  f[18] = fmaxf(f[18], 0.0f);
  f[19] = fmaf(f[19], 2.0f, 1.0f);
  f[20] = atan2f(f[20], 1.0f);
  f[21] = erff(f[21]);
  f[22] = fmodf(f[22], 3.0f);
  f[23] = copysignf(f[23], -1.0f);
  f[24] = __expf(f[24]);
  f[25] = __fdividef(f[25], 3.0f);
  f[26] = __logf(f[26]);
  f[27] = __saturatef(f[27]);
  f[28] = exp10f(f[28]);
}

// Double precision: the f-less names, on f64.
// CHECK-LABEL: func.func @_Z5dmathPd(%arg0: !llvm.ptr)
// CHECK: call @_ZL3expd(%{{.*}}) : (f64) -> f64
// CHECK: call @_ZL3logd(%{{.*}}) : (f64) -> f64
// CHECK: call @_ZL4sqrtd(%{{.*}}) : (f64) -> f64
// CHECK: call @_ZL3powdd(%{{.*}}) : (f64, f64) -> f64
// CHECK: call @_ZL4fabsd(%{{.*}}) : (f64) -> f64
// CHECK: call @_ZL4fmindd(%{{.*}}) : (f64, f64) -> f64
// CHECK: call @_ZL3sind(%{{.*}}) : (f64) -> f64
// CHECK: call @_ZL4tanhd(%{{.*}}) : (f64) -> f64
// CHECK-LABEL: func.func private @_ZL3expd(
// CHECK-SAME: tessel.source_name = "exp"
// CHECK: math.exp %{{.*}} : f64
// CHECK-LABEL: func.func private @_ZL3logd(
// CHECK-SAME: tessel.source_name = "log"
// CHECK: math.log %{{.*}} : f64
// CHECK-LABEL: func.func private @_ZL4sqrtd(
// CHECK-SAME: tessel.source_name = "sqrt"
// CHECK: math.sqrt %{{.*}} : f64
// CHECK-LABEL: func.func private @_ZL3powdd(
// CHECK-SAME: tessel.source_name = "pow"
// CHECK: math.powf %{{.*}}, %{{.*}} : f64
// CHECK-LABEL: func.func private @_ZL4fabsd(
// CHECK-SAME: tessel.source_name = "fabs"
// CHECK: math.absf %{{.*}} : f64
// CHECK-LABEL: func.func private @_ZL4fmindd(
// CHECK-SAME: tessel.source_name = "fmin"
// CHECK: arith.minnumf %{{.*}}, %{{.*}} : f64
// CHECK-LABEL: func.func private @_ZL3sind(
// CHECK-SAME: tessel.source_name = "sin"
// CHECK: math.sin %{{.*}} : f64
// CHECK-LABEL: func.func private @_ZL4tanhd(
// CHECK-SAME: tessel.source_name = "tanh"
// CHECK: math.tanh %{{.*}} : f64
__global__ void dmath(double *d) {
  d[0] = exp(d[0]);
  d[1] = log(d[1]);
  d[2] = sqrt(d[2]);
  d[3] = pow(d[3], d[4]);
  d[4] = fabs(d[4]);
  d[5] = fmin(d[5], d[6]);
  d[6] = sin(d[6]);
  d[7] = tanh(d[7]);
}

// Integer helpers: signed and unsigned min/max, abs.
// CHECK-LABEL: func.func @_Z5imathPiPjPx(
// CHECK: call @_ZL3minii(%{{.*}}, %{{.*}}) : (i32, i32) -> i32
// CHECK: call @_ZL3maxii(%{{.*}}, %{{.*}}) : (i32, i32) -> i32
// CHECK: call @_ZL3absi(%{{.*}}) : (i32) -> i32
// CHECK: call @_ZL4uminjj(%{{.*}}, %{{.*}}) : (i32, i32) -> i32
// CHECK: call @_ZL3maxjj(%{{.*}}, %{{.*}}) : (i32, i32) -> i32
// CHECK: call @_ZL5llmaxxx(%{{.*}}, %{{.*}}) : (i64, i64) -> i64
// CHECK: call @_ZL5llabsx(%{{.*}}) : (i64) -> i64
// CHECK-LABEL: func.func private @_ZL3minii(
// CHECK: arith.minsi %{{.*}}, %{{.*}} : i32
// CHECK-LABEL: func.func private @_ZL3maxii(
// CHECK: arith.maxsi %{{.*}}, %{{.*}} : i32
// CHECK-LABEL: func.func private @_ZL3absi(
// CHECK: math.absi %{{.*}} : i32
// CHECK-LABEL: func.func private @_ZL4uminjj(
// CHECK: arith.minui %{{.*}}, %{{.*}} : i32
// max(unsigned, unsigned) is the header's overload calling umax.
// CHECK-LABEL: func.func private @_ZL3maxjj(
// CHECK: call @_ZL4umaxjj(
// CHECK-LABEL: func.func private @_ZL4umaxjj(
// CHECK: arith.maxui %{{.*}}, %{{.*}} : i32
// CHECK-LABEL: func.func private @_ZL5llmaxxx(
// CHECK: arith.maxsi %{{.*}}, %{{.*}} : i64
// CHECK-LABEL: func.func private @_ZL5llabsx(
// CHECK: math.absi %{{.*}} : i64
__global__ void imath(int *i, unsigned *u, long long *ll) {
  i[0] = min(i[0], i[1]);
  i[1] = max(i[1], i[2]);
  i[2] = abs(i[2]);
  u[0] = umin(u[0], u[1]);
  u[1] = max(u[1], u[2]);
  ll[0] = llmax(ll[0], ll[1]);
  ll[1] = llabs(ll[1]);
}

// C++ overloads on float forward to the float functions.
// CHECK-LABEL: func.func @_Z9overloadsPf(
// CHECK: call @_ZL4sqrtf(%{{.*}}) : (f32) -> f32
// CHECK: call @_ZL3expf(%{{.*}}) : (f32) -> f32
// CHECK-LABEL: func.func private @_ZL4sqrtf(%arg0: f32) -> f32
// CHECK: call @_ZL5sqrtff(
// CHECK-LABEL: func.func private @_ZL3expf(%arg0: f32) -> f32
// CHECK: call @_ZL4expff(
__global__ void overloads(float *f) {
  f[0] = sqrt(f[0]);
  f[1] = exp(f[1]);
}

// No libdevice call is left.
// CHECK-NOT: __nv_
