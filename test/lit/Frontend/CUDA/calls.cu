// RUN: tessel-cc %s --emit=mlir | tessel-opt | FileCheck %s
//
// Calls: every __device__ function a kernel reaches becomes a private
// func.func named by its mangled name (emitted after its first caller) and
// called with func.call; references are passed as !llvm.ptr. Templates are
// emitted for each instantiation clang makes: explicit ones, and the ones a
// host-side launch implies.

__device__ int twice(int x) { return 2 * x; }
__device__ void bump(int &r) { r += 1; }
__host__ __device__ float clampf(float v, float lo, float hi) {
  return v < lo ? lo : (v > hi ? hi : v);
}
struct Math {
  static __device__ int inc(int v) { return v + 1; }
};
namespace ns {
__device__ int later(int v); // defined after its use
}

// CHECK-LABEL: func.func @_Z4userPiPf(%arg0: !llvm.ptr, %arg1: !llvm.ptr)
// CHECK-SAME: tessel.cuda_kernel
// CHECK: %[[V:.*]] = llvm.alloca %{{.*}} x i32
// CHECK: %[[T:.*]] = call @_Z5twicei(%{{.*}}) : (i32) -> i32
// CHECK-NEXT: llvm.store %[[T]], %[[V]]
// bump(v) passes v's slot.
// CHECK-NEXT: call @_Z4bumpRi(%[[V]]) : (!llvm.ptr) -> ()
// CHECK: call @_ZN4Math3incEi(%{{.*}}) : (i32) -> i32
// CHECK: %[[LO:.*]] = arith.constant 0.000000e+00 : f32
// CHECK-NEXT: %[[HI:.*]] = arith.constant 1.000000e+00 : f32
// CHECK-NEXT: call @_Z6clampffff(%{{.*}}, %[[LO]], %[[HI]]) : (f32, f32, f32) -> f32
// CHECK: call @_ZN2ns5laterEi(%{{.*}}) : (i32) -> i32
__global__ void user(int *p, float *f) {
  int v = twice(p[0]);
  bump(v);
  p[1] = Math::inc(v);
  f[0] = clampf(f[0], 0.0f, 1.0f);
  p[2] = ns::later(p[3]);
}

// CHECK-LABEL: func.func private @_Z5twicei(%arg0: i32) -> i32
// CHECK-SAME: tessel.source_name = "twice"
// CHECK: arith.muli
// CHECK: return %{{.*}} : i32
// The reference parameter's slot holds the pointer; r += 1 goes through it.
// CHECK-LABEL: func.func private @_Z4bumpRi(%arg0: !llvm.ptr)
// CHECK: %[[RSLOT:.*]] = llvm.alloca %{{.*}} x !llvm.ptr
// CHECK: %[[R:.*]] = llvm.load %[[RSLOT]] : !llvm.ptr -> !llvm.ptr
// CHECK-NEXT: %[[OLD:.*]] = llvm.load %[[R]] {alignment = 4 : i64} : !llvm.ptr -> i32
// CHECK-NEXT: %[[NEW:.*]] = arith.addi %[[OLD]], %{{.*}} : i32
// CHECK-NEXT: llvm.store %[[NEW]], %[[R]]
// CHECK-LABEL: func.func private @_ZN4Math3incEi(%arg0: i32) -> i32
// CHECK-SAME: tessel.source_name = "Math::inc"
// CHECK-LABEL: func.func private @_Z6clampffff(%arg0: f32, %arg1: f32, %arg2: f32) -> f32
// The conditional of two lvalues selects an address.
// CHECK: scf.if %{{.*}} -> (!llvm.ptr)
// CHECK: return %{{.*}} : f32
// CHECK-LABEL: func.func private @_ZN2ns5laterEi(%arg0: i32) -> i32
// CHECK-SAME: tessel.source_name = "ns::later"
// CHECK: arith.subi
__device__ int ns::later(int v) { return v - 1; }

// Templates: a function template instantiated per type, a kernel template
// with a non-type parameter, explicit instantiations in declaration order.
template <typename T> __device__ T square(T v) { return v * v; }
template <typename T, int N> __global__ void scale(T *p) {
  p[threadIdx.x] = square(p[threadIdx.x]) * N;
}
template __global__ void scale<float, 3>(float *);
template __global__ void scale<double, 4>(double *);

// CHECK-LABEL: func.func @_Z5scaleIfLi3EEvPT_(%arg0: !llvm.ptr)
// CHECK-SAME: tessel.cuda_kernel
// CHECK-SAME: tessel.source_name = "scale"
// CHECK: %[[SQ:.*]] = call @_Z6squareIfET_S0_(%{{.*}}) : (f32) -> f32
// CHECK-NEXT: %[[THREE:.*]] = arith.constant 3 : i32
// CHECK-NEXT: %[[N:.*]] = arith.sitofp %[[THREE]] : i32 to f32
// CHECK-NEXT: arith.mulf %[[SQ]], %[[N]] fastmath<contract> : f32
// CHECK-LABEL: func.func private @_Z6squareIfET_S0_(%arg0: f32) -> f32
// CHECK: arith.mulf %{{.*}}, %{{.*}} : f32
// CHECK-LABEL: func.func @_Z5scaleIdLi4EEvPT_(%arg0: !llvm.ptr)
// CHECK: call @_Z6squareIdET_S0_(%{{.*}}) : (f64) -> f64
// CHECK: arith.constant 4 : i32
// CHECK-LABEL: func.func private @_Z6squareIdET_S0_(%arg0: f64) -> f64
// CHECK: arith.mulf %{{.*}}, %{{.*}} : f64

// An instantiation that only a host-side launch asks for.
// CHECK-LABEL: func.func @_Z5scaleIiLi2EEvPT_(%arg0: !llvm.ptr)
// CHECK-SAME: tessel.cuda_kernel
// CHECK: %[[ISQ:.*]] = call @_Z6squareIiET_S0_(%{{.*}}) : (i32) -> i32
// CHECK-NEXT: %[[TWO:.*]] = arith.constant 2 : i32
// CHECK-NEXT: arith.muli %[[ISQ]], %[[TWO]] overflow<nsw> : i32
// CHECK-LABEL: func.func private @_Z6squareIiET_S0_(%arg0: i32) -> i32
// CHECK: arith.muli %{{.*}}, %{{.*}} overflow<nsw> : i32
void launch(int *p) { scale<int, 2><<<1, 32>>>(p); }

// A class template's static member and a default template argument.
template <typename T, int Unroll = 2> struct Acc {
  static __device__ T add(T a, T b) { return a + b * Unroll; }
};
// CHECK-LABEL: func.func @_Z5accumPl(%arg0: !llvm.ptr)
// CHECK: call @_ZN3AccIlLi2EE3addEll(%{{.*}}, %{{.*}}) : (i64, i64) -> i64
// CHECK-LABEL: func.func private @_ZN3AccIlLi2EE3addEll(%arg0: i64, %arg1: i64) -> i64
// CHECK-SAME: tessel.source_name = "Acc<long>::add"
// CHECK: arith.muli %{{.*}}, %{{.*}} : i64
// CHECK-NEXT: arith.addi %{{.*}}, %{{.*}} : i64
__global__ void accum(long *p) { p[0] = Acc<long>::add(p[1], p[2]); }

// Host functions are not emitted.
// CHECK-NOT: @_Z6launchPi
