//===- CodeGenBuiltins.cpp - NVVM builtins and libdevice calls ------------===//
//
// clang's CUDA headers define threadIdx, atomicAdd, expf, ... as inline
// device functions over NVVM builtins (__nvvm_read_ptx_sreg_tid_x,
// __nvvm_atom_add_gen_f, __syncthreads) and libdevice declarations
// (__nv_expf). Those are what this file translates, into target-neutral
// ops (gpu ids, tessel.barrier, LLVM atomics, math and arith), so that the
// GPU and the CPU lowering both understand them.
//
//===----------------------------------------------------------------------===//

#include "CodeGen.h"

#include "tessel/Dialect/Tessel/TesselDialect.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"

#include "llvm/ADT/StringSet.h"
#include "llvm/ADT/StringSwitch.h"

using namespace mlir;
using namespace mlir::tessel;
using namespace mlir::tessel::cuda;

namespace {
enum class MathKind {
  None, Exp, Exp2, Log, Log2, Log10, Sqrt, Rsqrt, Sin, Cos, Tan, Tanh, Sinh,
  Cosh, Asin, Acos, Atan, Atan2, Abs, Floor, Ceil, Round, Trunc, Pow, Min,
  Max, Erf, Expm1, Log1p, Cbrt, Fma, Fmod, Copysign, Rint, Div, Powi, Exp10
};

/// libdevice name (without `__nv_`, with the `f` of the float version
/// removed) to the operation.
MathKind mathKind(StringRef base) {
  return llvm::StringSwitch<MathKind>(base)
      .Cases({"exp", "fast_exp"}, MathKind::Exp)
      .Cases({"exp2", "fast_exp2"}, MathKind::Exp2)
      .Cases({"exp10", "fast_exp10"}, MathKind::Exp10)
      .Cases({"log", "fast_log"}, MathKind::Log)
      .Cases({"log2", "fast_log2"}, MathKind::Log2)
      .Cases({"log10", "fast_log10"}, MathKind::Log10)
      .Case("sqrt", MathKind::Sqrt)
      .Case("rsqrt", MathKind::Rsqrt)
      .Cases({"sin", "fast_sin"}, MathKind::Sin)
      .Cases({"cos", "fast_cos"}, MathKind::Cos)
      .Cases({"tan", "fast_tan"}, MathKind::Tan)
      .Case("tanh", MathKind::Tanh)
      .Case("sinh", MathKind::Sinh)
      .Case("cosh", MathKind::Cosh)
      .Case("asin", MathKind::Asin)
      .Case("acos", MathKind::Acos)
      .Case("atan", MathKind::Atan)
      .Case("atan2", MathKind::Atan2)
      .Case("fabs", MathKind::Abs)
      .Case("floor", MathKind::Floor)
      .Case("ceil", MathKind::Ceil)
      .Case("round", MathKind::Round)
      .Case("trunc", MathKind::Trunc)
      .Cases({"pow", "fast_pow"}, MathKind::Pow)
      .Case("fmin", MathKind::Min)
      .Case("fmax", MathKind::Max)
      .Case("erf", MathKind::Erf)
      .Case("expm1", MathKind::Expm1)
      .Case("log1p", MathKind::Log1p)
      .Case("cbrt", MathKind::Cbrt)
      .Case("fma", MathKind::Fma)
      .Case("fmod", MathKind::Fmod)
      .Case("copysign", MathKind::Copysign)
      .Cases({"rint", "nearbyint"}, MathKind::Rint)
      .Cases({"fdivide", "fast_fdivide", "frcp_rn"}, MathKind::Div)
      .Case("powi", MathKind::Powi)
      .Default(MathKind::None);
}
} // namespace

void FunctionEmitter::diagnoseDivergentBarrier(clang::SourceLocation sl) {
  if (threadConditions_.empty())
    return;
  const clang::Stmt *cond = threadConditions_.back();
  InFlightDiagnostic d = emitWarning(loc(sl))
      << "__syncthreads() under a condition that depends on threadIdx: "
         "undefined in CUDA unless every thread of the block goes the same "
         "way; on the cpu target, threads that do not reach it are not "
         "waited for";
  d.attachNote(loc(cond->getBeginLoc())) << "the condition";
}

Value FunctionEmitter::emitBuiltinCall(const clang::CallExpr *e,
                                       const clang::FunctionDecl *callee,
                                       bool &handled) {
  // Functions with a body (the header wrappers included) are translated
  // like any other device function.
  handled = !callee->hasBody();
  if (!handled)
    return nullptr;
  clang::SourceLocation sl = e->getExprLoc();
  Location l = loc(sl);
  StringRef name = callee->getName();
  if (!callee->getIdentifier())
    name = "";
  clang::QualType resultType = e->getType();
  auto args = [&](SmallVectorImpl<Value> &out) -> bool {
    for (const clang::Expr *a : e->arguments()) {
      Value v = emitRValue(a);
      if (!v)
        return false;
      out.push_back(v);
    }
    return true;
  };
  auto fromIndex = [&](Value index) -> Value {
    Type t = m.valueType(resultType, sl);
    return t ? arith::IndexCastUIOp::create(builder, l, t, index) : nullptr;
  };

  // Thread and block ids.
  if (name.consume_front("__nvvm_read_ptx_sreg_")) {
    auto dim = [&](StringRef s) {
      return s.ends_with("_x")   ? gpu::Dimension::x
             : s.ends_with("_y") ? gpu::Dimension::y
                                 : gpu::Dimension::z;
    };
    if (name.starts_with("tid_"))
      return fromIndex(gpu::ThreadIdOp::create(builder, l, dim(name)));
    if (name.starts_with("ntid_"))
      return fromIndex(gpu::BlockDimOp::create(builder, l, dim(name)));
    if (name.starts_with("ctaid_"))
      return fromIndex(gpu::BlockIdOp::create(builder, l, dim(name)));
    if (name.starts_with("nctaid_"))
      return fromIndex(gpu::GridDimOp::create(builder, l, dim(name)));
    if (name == "warpsize")
      return constInt(m.valueType(resultType, sl), 32);
    if (name == "laneid")
      return fromIndex(gpu::LaneIdOp::create(builder, l, nullptr));
    return fail(sl, "special register '__nvvm_read_ptx_sreg_" + name +
                        "' is not supported");
  }
  if (name == "__syncthreads" || name == "__nvvm_bar_sync" ||
      name == "__nvvm_barrier_sync") {
    // Every form is the block-wide barrier 0 here.
    for (const clang::Expr *a : e->arguments()) {
      clang::Expr::EvalResult r;
      if (!a->EvaluateAsInt(r, m.ast()) || r.Val.getInt() != 0)
        return fail(sl, "named barriers other than 0 are not supported");
    }
    BarrierOp::create(builder, l);
    return nullptr;
  }
  if (name == "__nvvm_membar_gl" || name == "__nvvm_membar_cta" ||
      name == "__nvvm_membar_sys" || name == "__nvvm_fence_sc_cta") {
    LLVM::FenceOp::create(builder, l, LLVM::AtomicOrdering::seq_cst,
                          StringRef());
    return nullptr;
  }
  if (name == "__builtin_expect" || name == "__builtin_expect_with_probability") {
    SmallVector<Value> v;
    if (!args(v))
      return nullptr;
    return v[0];
  }
  if (name == "__builtin_assume" || name == "__builtin_unreachable") {
    return nullptr;
  }

  // Atomics: __nvvm_atom[_cta|_sys]_<op>_gen_<type>(ptr, value[, value]).
  if (name.consume_front("__nvvm_atom_")) {
    name.consume_front("cta_");
    name.consume_front("sys_");
    StringRef op = name.take_until([](char c) { return c == '_'; });
    StringRef type = name.rsplit('_').second;
    bool isFloat = type == "f" || type == "d";
    bool isUnsigned = type.starts_with("u");
    SmallVector<Value> v;
    if (!args(v))
      return nullptr;
    if (op == "cas") {
      auto cas = LLVM::AtomicCmpXchgOp::create(
          builder, l, v[0], v[1], v[2], LLVM::AtomicOrdering::monotonic,
          LLVM::AtomicOrdering::monotonic);
      return LLVM::ExtractValueOp::create(builder, l, cas, 0);
    }
    std::optional<LLVM::AtomicBinOp> bin =
        llvm::StringSwitch<std::optional<LLVM::AtomicBinOp>>(op)
            .Case("add", isFloat ? LLVM::AtomicBinOp::fadd : LLVM::AtomicBinOp::add)
            .Case("xchg", LLVM::AtomicBinOp::xchg)
            .Case("max", isUnsigned ? LLVM::AtomicBinOp::umax : LLVM::AtomicBinOp::max)
            .Case("min", isUnsigned ? LLVM::AtomicBinOp::umin : LLVM::AtomicBinOp::min)
            .Case("and", LLVM::AtomicBinOp::_and)
            .Case("or", LLVM::AtomicBinOp::_or)
            .Case("xor", LLVM::AtomicBinOp::_xor)
            .Case("inc", LLVM::AtomicBinOp::uinc_wrap)
            .Case("dec", LLVM::AtomicBinOp::udec_wrap)
            .Default(std::nullopt);
    if (!bin || v.size() != 2)
      return fail(sl, "atomic '" + callee->getName() + "' is not supported");
    return LLVM::AtomicRMWOp::create(builder, l, *bin, v[0], v[1],
                                     LLVM::AtomicOrdering::monotonic);
  }

  // __ldg and friends: a plain load.
  if (name.starts_with("__nvvm_ldg_") || name.starts_with("__nvvm_ldu_")) {
    SmallVector<Value> v;
    if (!args(v))
      return nullptr;
    return load(v[0], resultType, sl);
  }

  // clang's math headers call some __builtin_ functions (__builtin_rintf,
  // __builtin_fabsf, ...): the same table as libdevice's names.
  std::string libdeviceName;
  if (name.starts_with("__builtin_")) {
    StringRef base = name.drop_front(strlen("__builtin_"));
    if (mathKind(base) != MathKind::None ||
        (base.ends_with("f") && mathKind(base.drop_back()) != MathKind::None)) {
      libdeviceName = ("__nv_" + base).str();
      name = libdeviceName;
    }
  }
  // libdevice.
  if (name.consume_front("__nv_")) {
    SmallVector<Value> v;
    if (!args(v))
      return nullptr;
    // sincos(x, &s, &c): results through pointers.
    if (name == "sincosf" || name == "sincos" || name == "fast_sincosf") {
      LLVM::StoreOp::create(builder, l, math::SinOp::create(builder, l, v[0]), v[1]);
      LLVM::StoreOp::create(builder, l, math::CosOp::create(builder, l, v[0]), v[2]);
      return Value();
    }
    Type rt = m.valueType(resultType, sl);
    if (!rt)
      return nullptr;
    auto asResult = [&](Value cond) {
      return convertScalar(cond, m.ast().BoolTy, resultType, sl);
    };
    auto intResult = [&](Value i) -> Value {
      unsigned from = i.getType().getIntOrFloatBitWidth();
      unsigned to = rt.getIntOrFloatBitWidth();
      if (from == to)
        return i;
      return from > to ? Value(arith::TruncIOp::create(builder, l, rt, i))
                       : Value(arith::ExtUIOp::create(builder, l, rt, i));
    };
    // Classification.
    if (name == "finitef" || name == "isfinited") {
      Value a = math::AbsFOp::create(builder, l, v[0]);
      Value inf = arith::ConstantOp::create(
          builder, l,
          builder.getFloatAttr(a.getType(), std::numeric_limits<double>::infinity()));
      return asResult(arith::CmpFOp::create(builder, l, arith::CmpFPredicate::OLT, a, inf));
    }
    if (name == "signbitf" || name == "signbitd") {
      Type it = builder.getIntegerType(v[0].getType().getIntOrFloatBitWidth());
      Value bits = arith::BitcastOp::create(builder, l, it, v[0]);
      return asResult(arith::CmpIOp::create(builder, l, arith::CmpIPredicate::slt,
                                            bits, constInt(it, 0)));
    }
    // Bit operations.
    if (name == "popc" || name == "popcll")
      return intResult(math::CtPopOp::create(builder, l, v[0]));
    if (name == "clz" || name == "clzll")
      return intResult(math::CountLeadingZerosOp::create(builder, l, v[0]));
    if (name == "ffs" || name == "ffsll") {
      Type it = v[0].getType();
      Value tz = math::CountTrailingZerosOp::create(builder, l, v[0]);
      Value one = arith::AddIOp::create(builder, l, tz, constInt(it, 1));
      Value zero = arith::CmpIOp::create(builder, l, arith::CmpIPredicate::eq,
                                         v[0], constInt(it, 0));
      return intResult(arith::SelectOp::create(builder, l, zero, constInt(it, 0), one));
    }
    if (name == "brev" || name == "brevll")
      return LLVM::BitReverseOp::create(builder, l, v[0].getType(), v[0]);
    // Conversions with a rounding mode: float2int_rn, double2ull_rz,
    // int2float_rn, ...
    if (name.size() > 3 && name[name.size() - 3] == '_' && name.contains('2')) {
      auto [conversion, mode] = name.rsplit('_');
      auto [from, to] = conversion.split('2');
      static const llvm::StringSet<> floats = {"float", "double"};
      static const llvm::StringSet<> ints = {"int", "uint", "ll", "ull"};
      if (floats.contains(from) && ints.contains(to) &&
          (mode == "rn" || mode == "rz" || mode == "rd" || mode == "ru")) {
        Value x = v[0];
        if (mode == "rn")
          x = math::RoundEvenOp::create(builder, l, x);
        else if (mode == "rd")
          x = math::FloorOp::create(builder, l, x);
        else if (mode == "ru")
          x = math::CeilOp::create(builder, l, x);
        return to.starts_with("u") ? Value(arith::FPToUIOp::create(builder, l, rt, x))
                                   : Value(arith::FPToSIOp::create(builder, l, rt, x));
      }
      if (ints.contains(from) && floats.contains(to) && mode == "rn")
        return from.starts_with("u") ? Value(arith::UIToFPOp::create(builder, l, rt, v[0]))
                                     : Value(arith::SIToFPOp::create(builder, l, rt, v[0]));
    }
    // Integer helpers.
    if (name == "min" || name == "umin" || name == "llmin" || name == "ullmin")
      return name.starts_with("u")
                 ? Value(arith::MinUIOp::create(builder, l, v[0], v[1]))
                 : Value(arith::MinSIOp::create(builder, l, v[0], v[1]));
    if (name == "max" || name == "umax" || name == "llmax" || name == "ullmax")
      return name.starts_with("u")
                 ? Value(arith::MaxUIOp::create(builder, l, v[0], v[1]))
                 : Value(arith::MaxSIOp::create(builder, l, v[0], v[1]));
    if (name == "abs" || name == "llabs")
      return math::AbsIOp::create(builder, l, v[0]);
    if (name == "isnanf" || name == "isnand")
      return convertScalar(arith::CmpFOp::create(builder, l,
                                                 arith::CmpFPredicate::UNO,
                                                 v[0], v[0]),
                           m.ast().BoolTy, resultType, sl);
    if (name == "isinff" || name == "isinfd") {
      Value a = math::AbsFOp::create(builder, l, v[0]);
      Value inf = arith::ConstantOp::create(
          builder, l,
          builder.getFloatAttr(a.getType(), std::numeric_limits<double>::infinity()));
      return convertScalar(arith::CmpFOp::create(
                               builder, l, arith::CmpFPredicate::OEQ, a, inf),
                           m.ast().BoolTy, resultType, sl);
    }
    // Bit casts: int_as_float, float_as_uint, longlong_as_double, ...
    if (name.contains("_as_")) {
      auto [from, to] = name.split("_as_");
      static const llvm::StringSet<> kinds = {
          "int", "uint", "float", "longlong", "ulonglong", "double"};
      if (kinds.contains(from) && kinds.contains(to) &&
          v[0].getType().getIntOrFloatBitWidth() == rt.getIntOrFloatBitWidth())
        return arith::BitcastOp::create(builder, l, rt, v[0]);
    }
    if (name == "saturatef") {
      Value zero = arith::ConstantOp::create(builder, l, builder.getFloatAttr(rt, 0));
      Value one = arith::ConstantOp::create(builder, l, builder.getFloatAttr(rt, 1));
      Value lo = arith::MaximumFOp::create(builder, l, v[0], zero);
      return arith::MinimumFOp::create(builder, l, lo, one);
    }
    if (!isa<FloatType>(rt))
      return fail(sl, "libdevice function '__nv_" + name +
                          "' is not supported");
    auto fc = [&](double x) -> Value {
      return arith::ConstantOp::create(builder, l, builder.getFloatAttr(rt, x));
    };
    StringRef stem = rt.isF32() && name.ends_with("f") ? name.drop_back() : name;
    if (stem == "hypot") {
      // m * sqrt(1 + (n / m)^2), m = max(|x|, |y|): no overflow on the way.
      Value a = math::AbsFOp::create(builder, l, v[0]);
      Value b = math::AbsFOp::create(builder, l, v[1]);
      Value mx = arith::MaximumFOp::create(builder, l, a, b);
      Value mn = arith::MinimumFOp::create(builder, l, a, b);
      Value q = arith::DivFOp::create(builder, l, mn, mx);
      Value r = arith::MulFOp::create(
          builder, l, mx,
          math::SqrtOp::create(builder, l,
                               math::FmaOp::create(builder, l, q, q, fc(1.0))));
      Value zero = arith::CmpFOp::create(builder, l, arith::CmpFPredicate::OEQ,
                                         mx, fc(0.0));
      return arith::SelectOp::create(builder, l, zero, fc(0.0), r);
    }
    if (stem == "erfc")
      return math::ErfcOp::create(builder, l, v[0]);
    if (stem == "fdim") {
      Value le = arith::CmpFOp::create(builder, l, arith::CmpFPredicate::OLE,
                                       v[0], v[1]);
      return arith::SelectOp::create(builder, l, le, fc(0.0),
                                     arith::SubFOp::create(builder, l, v[0], v[1]));
    }
    if (stem == "ldexp") {
      // x * 2^h * 2^(n-h), h = n/2: no overflow of the power of two alone.
      Value n = v[1];
      Value h = arith::DivSIOp::create(builder, l, n, constInt(n.getType(), 2));
      Value rest = arith::SubIOp::create(builder, l, n, h);
      Value p1 = math::Exp2Op::create(builder, l, arith::SIToFPOp::create(builder, l, rt, h));
      Value p2 = math::Exp2Op::create(builder, l, arith::SIToFPOp::create(builder, l, rt, rest));
      return arith::MulFOp::create(builder, l,
                                   arith::MulFOp::create(builder, l, v[0], p1), p2);
    }
    if (stem == "frexp") {
      // x = m * 2^e with 0.5 <= |m| < 1, from the bits (subnormals scaled
      // by 2^64 first); 0, infinities and NaN: m = x, e = 0.
      unsigned w = rt.getIntOrFloatBitWidth();
      Type it = builder.getIntegerType(w);
      Type i32 = builder.getI32Type();
      int64_t mantissaBits = w == 32 ? 23 : 52, expMask = w == 32 ? 0xff : 0x7ff,
              bias = w == 32 ? 126 : 1022;
      double smallestNormal = w == 32 ? 1.17549435e-38 : 2.2250738585072014e-308;
      Value a = math::AbsFOp::create(builder, l, v[0]);
      Value sub = arith::AndIOp::create(
          builder, l,
          arith::CmpFOp::create(builder, l, arith::CmpFPredicate::OLT, a, fc(smallestNormal)),
          arith::CmpFOp::create(builder, l, arith::CmpFPredicate::ONE, a, fc(0.0)));
      Value xs = arith::SelectOp::create(
          builder, l, sub, arith::MulFOp::create(builder, l, v[0], fc(18446744073709551616.0)),
          v[0]);
      Value adjust = arith::SelectOp::create(builder, l, sub, constInt(i32, -64), constInt(i32, 0));
      Value bits = arith::BitcastOp::create(builder, l, it, xs);
      Value field = arith::AndIOp::create(
          builder, l, arith::ShRUIOp::create(builder, l, bits, constInt(it, mantissaBits)),
          constInt(it, expMask));
      Value cleared = arith::AndIOp::create(builder, l, bits,
                                            constInt(it, ~(expMask << mantissaBits)));
      Value mant = arith::BitcastOp::create(
          builder, l, rt,
          arith::OrIOp::create(builder, l, cleared, constInt(it, bias << mantissaBits)));
      Value e32 = w == 32 ? field : Value(arith::TruncIOp::create(builder, l, i32, field));
      Value e = arith::AddIOp::create(
          builder, l, arith::SubIOp::create(builder, l, e32, constInt(i32, bias)), adjust);
      Value special = arith::OrIOp::create(
          builder, l,
          arith::CmpFOp::create(builder, l, arith::CmpFPredicate::OEQ, a, fc(0.0)),
          arith::CmpFOp::create(builder, l, arith::CmpFPredicate::UGE, a,
                                fc(std::numeric_limits<double>::infinity())));
      LLVM::StoreOp::create(builder, l,
                            arith::SelectOp::create(builder, l, special, constInt(i32, 0), e),
                            v[1]);
      return arith::SelectOp::create(builder, l, special, v[0], mant);
    }
    if (stem == "modf") {
      // The integral part through the pointer, the fraction (with x's sign;
      // 0 for infinities) as the result.
      Value ip = math::TruncOp::create(builder, l, v[0]);
      LLVM::StoreOp::create(builder, l, ip, v[1]);
      Value inf = arith::CmpFOp::create(
          builder, l, arith::CmpFPredicate::OEQ,
          math::AbsFOp::create(builder, l, v[0]),
          fc(std::numeric_limits<double>::infinity()));
      Value frac = arith::SelectOp::create(
          builder, l, inf, fc(0.0), arith::SubFOp::create(builder, l, v[0], ip));
      return math::CopySignOp::create(builder, l, frac, v[0]);
    }
    // The float version ends in `f` (expf); fast_ and f-less names share
    // the double table. fdividef / powif keep their own names.
    StringRef base = name;
    if (rt.isF32() && base.ends_with("f") && mathKind(base) == MathKind::None)
      base = base.drop_back();
    MathKind kind = mathKind(base);
    if (kind == MathKind::None && base.ends_with("f"))
      kind = mathKind(base.drop_back());
    auto c = [&](double x) {
      return arith::ConstantOp::create(builder, l, builder.getFloatAttr(rt, x));
    };
    switch (kind) {
    case MathKind::Exp: return math::ExpOp::create(builder, l, v[0]);
    case MathKind::Exp2: return math::Exp2Op::create(builder, l, v[0]);
    case MathKind::Exp10:
      return math::ExpOp::create(
          builder, l, arith::MulFOp::create(builder, l, v[0], c(2.302585092994046)));
    case MathKind::Log: return math::LogOp::create(builder, l, v[0]);
    case MathKind::Log2: return math::Log2Op::create(builder, l, v[0]);
    case MathKind::Log10: return math::Log10Op::create(builder, l, v[0]);
    case MathKind::Sqrt: return math::SqrtOp::create(builder, l, v[0]);
    case MathKind::Rsqrt: return math::RsqrtOp::create(builder, l, v[0]);
    case MathKind::Sin: return math::SinOp::create(builder, l, v[0]);
    case MathKind::Cos: return math::CosOp::create(builder, l, v[0]);
    case MathKind::Tan: return math::TanOp::create(builder, l, v[0]);
    case MathKind::Tanh: return math::TanhOp::create(builder, l, v[0]);
    case MathKind::Sinh: return math::SinhOp::create(builder, l, v[0]);
    case MathKind::Cosh: return math::CoshOp::create(builder, l, v[0]);
    case MathKind::Asin: return math::AsinOp::create(builder, l, v[0]);
    case MathKind::Acos: return math::AcosOp::create(builder, l, v[0]);
    case MathKind::Atan: return math::AtanOp::create(builder, l, v[0]);
    case MathKind::Atan2: return math::Atan2Op::create(builder, l, v[0], v[1]);
    case MathKind::Abs: return math::AbsFOp::create(builder, l, v[0]);
    case MathKind::Floor: return math::FloorOp::create(builder, l, v[0]);
    case MathKind::Ceil: return math::CeilOp::create(builder, l, v[0]);
    case MathKind::Round: return math::RoundOp::create(builder, l, v[0]);
    case MathKind::Trunc: return math::TruncOp::create(builder, l, v[0]);
    case MathKind::Rint: return math::RoundEvenOp::create(builder, l, v[0]);
    case MathKind::Pow: return math::PowFOp::create(builder, l, v[0], v[1]);
    case MathKind::Powi: return math::FPowIOp::create(builder, l, v[0], v[1]);
    case MathKind::Min: return arith::MinNumFOp::create(builder, l, v[0], v[1]);
    case MathKind::Max: return arith::MaxNumFOp::create(builder, l, v[0], v[1]);
    case MathKind::Erf: return math::ErfOp::create(builder, l, v[0]);
    case MathKind::Expm1: return math::ExpM1Op::create(builder, l, v[0]);
    case MathKind::Log1p: return math::Log1pOp::create(builder, l, v[0]);
    case MathKind::Cbrt: return math::CbrtOp::create(builder, l, v[0]);
    case MathKind::Fma: return math::FmaOp::create(builder, l, v[0], v[1], v[2]);
    case MathKind::Fmod: return arith::RemFOp::create(builder, l, v[0], v[1]);
    case MathKind::Copysign:
      return math::CopySignOp::create(builder, l, v[0], v[1]);
    case MathKind::Div:
      if (v.size() == 1)
        return arith::DivFOp::create(builder, l, c(1.0), v[0]);
      return arith::DivFOp::create(builder, l, v[0], v[1]);
    case MathKind::None:
      break;
    }
    return fail(sl, "libdevice function '__nv_" + name +
                        "' is not supported yet");
  }

  // memcpy / memset (clang's headers bit-cast through __builtin_memcpy).
  if (name == "__builtin_memcpy" || name == "memcpy" ||
      name == "__builtin_memset" || name == "memset") {
    SmallVector<Value> v;
    if (!args(v))
      return nullptr;
    Value length = v[2];
    if (length.getType() != builder.getI64Type())
      length = arith::ExtUIOp::create(builder, l, builder.getI64Type(), length);
    if (name.ends_with("memcpy")) {
      LLVM::MemcpyOp::create(builder, l, v[0], v[1], length, false);
    } else {
      Value byte = arith::TruncIOp::create(builder, l, builder.getI8Type(), v[1]);
      LLVM::MemsetOp::create(builder, l, v[0], byte, length, false);
    }
    return v[0];
  }

  // Warp shuffles: __nvvm_shfl_sync_<kind>_<i32|f32>(mask, value, b, c),
  // which clang's __shfl_*_sync (64-bit types as two halves) call. NVVM's
  // op keeps PTX's meaning exactly (c packs the segment mask and the clamp);
  // the GPU runs it as is, tessel-lower-warp-shuffles expands it for the CPU.
  if (name.consume_front("__nvvm_shfl_sync_")) {
    std::optional<NVVM::ShflKind> kind =
        llvm::StringSwitch<std::optional<NVVM::ShflKind>>(
            name.take_until([](char c) { return c == '_'; }))
            .Case("idx", NVVM::ShflKind::idx)
            .Case("up", NVVM::ShflKind::up)
            .Case("down", NVVM::ShflKind::down)
            .Case("bfly", NVVM::ShflKind::bfly)
            .Default(std::nullopt);
    SmallVector<Value> v;
    if (!kind || !name.ends_with("_i32") && !name.ends_with("_f32"))
      return fail(sl, "warp shuffle '" + callee->getName() +
                          "' is not supported");
    if (!args(v))
      return nullptr;
    return NVVM::ShflOp::create(builder, l, v[1].getType(), v[0], v[1], v[2],
                                v[3], *kind, UnitAttr());
  }

  if (name == "printf" || name == "vprintf")
    return fail(sl, "printf in device code is not supported yet");
  if (name.starts_with("__nvvm_shfl") || name.starts_with("__nvvm_vote") ||
      name.starts_with("__nvvm_match") || name.starts_with("__nvvm_activemask"))
    return fail(sl, "warp-level intrinsic '" + callee->getName() +
                        "' (votes, match, activemask, shuffles without "
                        "_sync) is not supported yet");
  if (callee->getBuiltinID() != 0 || name.starts_with("__nvvm_"))
    return fail(sl, "builtin '" + callee->getName() + "' is not supported");
  handled = false;
  return nullptr;
}
