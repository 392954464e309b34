// RUN: tessel-cc %s --emit=mlir | tessel-opt | FileCheck %s
// RUN: tessel-cc %s --emit=mlir --fmad=false | tessel-opt | FileCheck %s --check-prefix=NOFMAD
// NOFMAD-NOT: fastmath<contract>
//
// Scalar types, their arithmetic and conversions. Parameters keep their C
// types (bool is i1 as a value, i8 in memory) and live in llvm.alloca slots;
// tessel.cuda_parameter_sizes holds the bytes the launch copies per argument.
// Signedness picks the arith op (divsi/divui, shrsi/shrui, cmpi slt/ult,
// extsi/extui, sitofp/uitofp, fptosi/fptoui).

// CHECK-LABEL: func.func @_Z5typescsixjyfdb(%arg0: i8, %arg1: i16, %arg2: i32, %arg3: i64, %arg4: i32, %arg5: i64, %arg6: f32, %arg7: f64, %arg8: i1)
// CHECK-SAME: attributes {tessel.cuda_kernel, tessel.cuda_parameter_sizes = array<i64: 1, 2, 4, 8, 4, 8, 4, 8, 1>, tessel.source_name = "types"}
// CHECK-DAG: llvm.alloca %{{.*}} x i8 {alignment = 1 : i64}
// CHECK-DAG: llvm.alloca %{{.*}} x i16 {alignment = 2 : i64}
// CHECK-DAG: llvm.alloca %{{.*}} x f64 {alignment = 8 : i64}
// CHECK: llvm.store %arg7, %{{.*}} {alignment = 8 : i64} : f64, !llvm.ptr
// CHECK: %[[B:.*]] = arith.extui %arg8 : i1 to i8
// CHECK-NEXT: llvm.store %[[B]], %{{.*}} {alignment = 1 : i64} : i8, !llvm.ptr
// CHECK-NEXT: return
__global__ void types(char c, short s, int i, long long ll, unsigned u,
                      unsigned long long ull, float f, double d, bool b) {}

// CHECK-LABEL: func.func @_Z5arithijfdPiPd(
// CHECK: arith.divsi %{{.*}}, %{{.*}} : i32
// CHECK: arith.divui %{{.*}}, %{{.*}} : i32
// CHECK: arith.remsi %{{.*}}, %{{.*}} : i32
// CHECK: arith.remui %{{.*}}, %{{.*}} : i32
// CHECK: arith.shrsi %{{.*}}, %{{.*}} : i32
// CHECK: arith.shrui %{{.*}}, %{{.*}} : i32
// ~i is xor with -1.
// CHECK: %[[M1:.*]] = arith.constant -1 : i32
// CHECK-NEXT: arith.xori %{{.*}}, %[[M1]] : i32
// CHECK: arith.andi
// CHECK: arith.xori
// CHECK: arith.shli
// CHECK: arith.ori
// CHECK: %[[LT:.*]] = arith.cmpi slt, %{{.*}}, %{{.*}} : i32
// CHECK-NEXT: arith.extui %[[LT]] : i1 to i32
// CHECK: arith.cmpi ult, %{{.*}}, %{{.*}} : i32
// CHECK: arith.cmpf olt, %{{.*}}, %{{.*}} : f32
// -i is 0 - i; !i compares with 0 and flips the i1.
// CHECK: %[[ZERO:.*]] = arith.constant 0 : i32
// CHECK-NEXT: arith.subi %[[ZERO]], %{{.*}} : i32
// CHECK: %[[NZ:.*]] = arith.cmpi ne, %{{.*}}, %{{.*}} : i32
// CHECK-NEXT: %[[TRUE:.*]] = arith.constant true
// CHECK-NEXT: arith.xori %[[NZ]], %[[TRUE]] : i1
// Signed int arithmetic is nsw (overflow is undefined); unsigned wraps.
// CHECK: arith.muli %{{.*}}, %{{.*}} overflow<nsw> : i32
// CHECK: arith.addi %{{.*}}, %{{.*}} overflow<nsw> : i32
// CHECK: arith.muli %{{.*}}, %{{.*}} : i32
// CHECK: arith.addi %{{.*}}, %{{.*}} : i32
// Floating-point products and sums may contract into fused multiply-adds
// (nvcc's --fmad=true, clang's CUDA -ffp-contract=fast); quotients do not.
// tessel-cc --fmad=false: none does.
// CHECK: arith.negf %{{.*}} : f64
// CHECK: arith.mulf %{{.+}}, %{{[a-z_0-9]+}} fastmath<contract> : f64
// CHECK: arith.divf %{{.+}}, %{{[a-z_0-9]+}} : f32
// CHECK: arith.extf %{{.*}} : f32 to f64
// CHECK: arith.addf %{{.+}}, %{{[a-z_0-9]+}} fastmath<contract> : f64
// CHECK: arith.subf %{{.+}}, %{{[a-z_0-9]+}} fastmath<contract> : f64
__global__ void arith(int i, unsigned u, float f, double d, int *io,
                      double *dout) {
  io[0] = i / 3;
  io[1] = u / 3u;
  io[2] = i % 5;
  io[3] = u % 5u;
  io[4] = i >> 2;
  io[5] = u >> 2;
  io[6] = ~i ^ (i & 7) | (i << 1);
  io[7] = i < 4;
  io[8] = u < 4u;
  io[9] = f < 1.0f;
  io[10] = -i;
  io[11] = !i;
  io[12] = i * 3 + 1;
  io[13] = u * 3u + 1u;
  dout[0] = -d * 2.0 + f / 4.0f - 1.0;
}

// CHECK-LABEL: func.func @_Z4convchxjfdPiPd(
// char is signed, unsigned char is not.
// CHECK: arith.extsi %{{.*}} : i8 to i32
// CHECK: arith.extui %{{.*}} : i8 to i32
// CHECK: arith.trunci %{{.*}} : i64 to i32
// CHECK: arith.fptosi %{{.*}} : f32 to i32
// CHECK: arith.fptoui %{{.*}} : f64 to i32
// CHECK: arith.extf %{{.*}} : f32 to f64
// CHECK: arith.uitofp %{{.*}} : i32 to f64
// CHECK: arith.sitofp %{{.*}} : i64 to f64
// CHECK: arith.truncf %{{.*}} : f64 to f32
// CHECK-NEXT: llvm.load
// CHECK-NEXT: arith.cmpf ogt
__global__ void conv(char c, unsigned char uc, long long ll, unsigned u,
                     float f, double d, int *io, double *dout) {
  io[0] = c + uc;
  io[1] = (int)ll;
  io[2] = (int)f;
  io[3] = (unsigned)d;
  dout[0] = f;
  dout[1] = (double)u;
  dout[2] = (double)ll;
  io[4] = (float)d > f;
}

// Constants: const and constexpr globals with constant initializers, enum
// constants, sizeof and character literals become arith.constant.
const int N = 8;
constexpr float SCALE = 0.5f;
enum Mode { ADD = 3, MUL = 7 };
// CHECK-LABEL: func.func @_Z6constsPiPf(
// CHECK: %[[N:.*]] = arith.constant 8 : i32
// CHECK: llvm.store %[[N]], %{{.*}} {alignment = 4 : i64} : i32, !llvm.ptr
// CHECK: %[[S:.*]] = arith.constant 5.000000e-01 : f32
// CHECK: llvm.store %[[S]], %{{.*}} {alignment = 4 : i64} : f32, !llvm.ptr
// CHECK: %[[MUL:.*]] = arith.constant 7 : i32
// CHECK-NEXT: llvm.store %[[MUL]]
// CHECK: arith.constant 8 : i64
// CHECK-NEXT: arith.constant 24 : i64
// CHECK: arith.constant 97 : i8
__global__ void consts(int *io, float *fo) {
  io[0] = N;
  fo[0] = SCALE;
  Mode m = MUL;
  io[1] = m;
  io[2] = sizeof(double) + sizeof(long long[3]);
  io[3] = 'a';
}

// ++/-- and compound assignment load, compute and store back; the postfix
// form yields the old value.
// CHECK-LABEL: func.func @_Z6incdecPiPf(
// CHECK: llvm.store %{{.*}}, %[[SLOT:.*]] {alignment = 4 : i64} : i32, !llvm.ptr
// CHECK-NEXT: %[[OLD:.*]] = llvm.load %[[SLOT]] {alignment = 4 : i64} : !llvm.ptr -> i32
// CHECK-NEXT: %[[ONE:.*]] = arith.constant 1 : i32
// CHECK-NEXT: %[[NEW:.*]] = arith.addi %[[OLD]], %[[ONE]] overflow<nsw> : i32
// CHECK-NEXT: llvm.store %[[NEW]], %[[SLOT]]
// CHECK: llvm.store %[[OLD]], %{{.*}} {alignment = 4 : i64} : i32, !llvm.ptr
// CHECK: arith.subi %{{.*}}, %{{.*}} overflow<nsw> : i32
// CHECK: %[[F1:.*]] = arith.constant 1.000000e+00 : f32
// CHECK-NEXT: arith.addf %{{.*}}, %[[F1]] : f32
// CHECK: %[[V:.*]] = llvm.load %[[ADDR:.*]] {alignment = 4 : i64} : !llvm.ptr -> i32
// CHECK-NEXT: %[[SUM:.*]] = arith.addi %[[V]], %{{.*}} overflow<nsw> : i32
// CHECK-NEXT: llvm.store %[[SUM]], %[[ADDR]]
// CHECK: arith.shli
// CHECK: arith.mulf
__global__ void incdec(int *io, float *fo) {
  int i = io[0];
  io[1] = i++;
  io[2] = --i;
  float f = fo[0];
  f++;
  fo[1] = f;
  io[3] += 2;
  io[4] <<= 1;
  fo[2] *= 3.0f;
}

// && and || evaluate their right operand in an scf.if (short circuit); a
// conditional of two lvalues selects an address and loads it.
// CHECK-LABEL: func.func @_Z5logicPib(
// CHECK: %[[AND:.*]] = scf.if %{{.*}} -> (i1) {
// CHECK: arith.cmpi sgt
// CHECK: scf.yield %{{.*}} : i1
// CHECK-NEXT: } else {
// CHECK-NEXT: %[[FALSE:.*]] = arith.constant false
// CHECK-NEXT: scf.yield %[[FALSE]] : i1
// CHECK: arith.extui %[[AND]] : i1 to i32
// CHECK: %[[OR:.*]] = scf.if %{{.*}} -> (i1) {
// CHECK-NEXT: %[[TRUE:.*]] = arith.constant true
// CHECK-NEXT: scf.yield %[[TRUE]] : i1
// CHECK-NEXT: } else {
// CHECK: arith.extui %[[OR]] : i1 to i32
// CHECK: %[[SEL:.*]] = scf.if %{{.*}} -> (!llvm.ptr) {
// CHECK: scf.yield %{{.*}} : !llvm.ptr
// CHECK: llvm.load %[[SEL]] {alignment = 4 : i64} : !llvm.ptr -> i32
__global__ void logic(int *io, bool b) {
  io[0] = b && io[1] > 0;
  io[2] = b || io[3];
  io[4] = b ? io[5] : io[6];
}
