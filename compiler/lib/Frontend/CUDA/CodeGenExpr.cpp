//===- CodeGenExpr.cpp - C/C++ expressions to arith and LLVM ops ----------===//
//
// Scalars are arith values (bool: i1), records are LLVM struct values,
// pointers are !llvm.ptr. clang's implicit casts make operand types
// explicit, so arithmetic here never converts on its own.
//
//===----------------------------------------------------------------------===//

#include "CodeGen.h"

#include "mlir/Dialect/Math/IR/Math.h"

#include "clang/AST/Attr.h"

using namespace mlir;
using namespace mlir::tessel;
using namespace mlir::tessel::cuda;

static bool isSigned(clang::QualType t) {
  return t->isSignedIntegerOrEnumerationType();
}

Value FunctionEmitter::load(Value ptr, clang::QualType t,
                            clang::SourceLocation sl) {
  Type mt = m.memoryType(t, sl);
  if (!mt)
    return fail(sl, "cannot load this type");
  Location l = loc(sl);
  Value v = LLVM::LoadOp::create(builder, l, mt, ptr, m.alignment(t),
                                 t.isVolatileQualified());
  if (t->isBooleanType())
    v = arith::CmpIOp::create(builder, l, arith::CmpIPredicate::ne, v,
                              constInt(mt, 0));
  return v;
}

LogicalResult FunctionEmitter::store(Value v, Value ptr, clang::QualType t,
                                     clang::SourceLocation sl) {
  Location l = loc(sl);
  if (t->isBooleanType() && v.getType().isInteger(1))
    v = arith::ExtUIOp::create(builder, l, builder.getI8Type(), v);
  LLVM::StoreOp::create(builder, l, v, ptr, m.alignment(t),
                        t.isVolatileQualified());
  return success();
}

Value FunctionEmitter::elementAddress(Value ptr, Value index,
                                      clang::QualType element,
                                      clang::QualType indexType,
                                      clang::SourceLocation sl) {
  Location l = loc(sl);
  Type i64 = builder.getI64Type();
  if (index.getType() != i64) {
    if (index.getType().getIntOrFloatBitWidth() > 64)
      return fail(sl, "index wider than 64 bits");
    index = isSigned(indexType) && !index.getType().isInteger(1)
                ? Value(arith::ExtSIOp::create(builder, l, i64, index))
                : Value(arith::ExtUIOp::create(builder, l, i64, index));
  }
  Type et = element->isVoidType() ? Type(builder.getI8Type())
                                  : m.memoryType(element, sl);
  if (!et)
    return nullptr;
  return LLVM::GEPOp::create(builder, l,
                             LLVM::LLVMPointerType::get(&m.context()), et, ptr,
                             ArrayRef<LLVM::GEPArg>{index});
}

Value FunctionEmitter::toBool(Value v, clang::QualType t,
                              clang::SourceLocation sl) {
  Location l = loc(sl);
  Type vt = v.getType();
  if (vt.isInteger(1))
    return v;
  if (isa<IntegerType>(vt))
    return arith::CmpIOp::create(builder, l, arith::CmpIPredicate::ne, v,
                                 constInt(vt, 0));
  if (isa<FloatType>(vt))
    return arith::CmpFOp::create(
        builder, l, arith::CmpFPredicate::UNE, v,
        arith::ConstantOp::create(builder, l, builder.getFloatAttr(vt, 0.0)));
  if (isa<LLVM::LLVMPointerType>(vt)) {
    Value null = LLVM::ZeroOp::create(builder, l, vt);
    return LLVM::ICmpOp::create(builder, l, LLVM::ICmpPredicate::ne, v, null);
  }
  return fail(sl, "cannot use a value of type '" + t.getAsString() +
                      "' as a condition");
}

Value FunctionEmitter::emitCondition(const clang::Expr *e) {
  Value v = emitRValue(e);
  return v ? toBool(v, e->getType(), e->getExprLoc()) : nullptr;
}

Value FunctionEmitter::convertScalar(Value v, clang::QualType from,
                                     clang::QualType to,
                                     clang::SourceLocation sl) {
  Location l = loc(sl);
  if (to->isVoidType())
    return nullptr;
  if (to->isBooleanType())
    return toBool(v, from, sl);
  Type target = m.valueType(to, sl);
  if (!target)
    return nullptr;
  Type source = v.getType();
  if (source == target)
    return v;
  bool srcPtr = isa<LLVM::LLVMPointerType>(source);
  bool dstPtr = isa<LLVM::LLVMPointerType>(target);
  if (srcPtr && dstPtr)
    return v;
  if (srcPtr && isa<IntegerType>(target))
    return LLVM::PtrToIntOp::create(builder, l, target, v);
  if (dstPtr && isa<IntegerType>(source)) {
    Value wide = source.getIntOrFloatBitWidth() == 64
                     ? v
                     : Value(arith::ExtUIOp::create(builder, l,
                                                    builder.getI64Type(), v));
    return LLVM::IntToPtrOp::create(builder, l, target, wide);
  }
  if (isa<IntegerType>(source) && isa<IntegerType>(target)) {
    unsigned sw = source.getIntOrFloatBitWidth();
    unsigned tw = target.getIntOrFloatBitWidth();
    if (sw > tw)
      return arith::TruncIOp::create(builder, l, target, v);
    if (isSigned(from) && sw != 1)
      return arith::ExtSIOp::create(builder, l, target, v);
    return arith::ExtUIOp::create(builder, l, target, v);
  }
  if (isa<IntegerType>(source) && isa<FloatType>(target)) {
    if (isSigned(from) && !source.isInteger(1))
      return arith::SIToFPOp::create(builder, l, target, v);
    return arith::UIToFPOp::create(builder, l, target, v);
  }
  if (isa<FloatType>(source) && isa<IntegerType>(target)) {
    if (isSigned(to))
      return arith::FPToSIOp::create(builder, l, target, v);
    return arith::FPToUIOp::create(builder, l, target, v);
  }
  if (isa<FloatType>(source) && isa<FloatType>(target)) {
    if (source.getIntOrFloatBitWidth() < target.getIntOrFloatBitWidth())
      return arith::ExtFOp::create(builder, l, target, v);
    return arith::TruncFOp::create(builder, l, target, v);
  }
  return fail(sl, "conversion from '" + from.getAsString() + "' to '" +
                      to.getAsString() + "' is not supported");
}

Value FunctionEmitter::emitCast(const clang::CastExpr *e) {
  const clang::Expr *sub = e->getSubExpr();
  clang::SourceLocation sl = e->getExprLoc();
  switch (e->getCastKind()) {
  case clang::CK_LValueToRValue: {
    // A const global with a constant initializer (`const int n = 512;` at
    // file scope) is usable in device code, as in CUDA: its value.
    if (Value c = emitConstantGlobalValue(sub))
      return c;
    if (hasFailed())
      return nullptr;
    Value addr = emitLValue(sub);
    return addr ? load(addr, sub->getType(), sl) : nullptr;
  }
  case clang::CK_ArrayToPointerDecay:
    return emitLValue(sub);
  case clang::CK_NoOp:
  case clang::CK_BitCast:
  case clang::CK_AddressSpaceConversion:
    if (e->isGLValue())
      return emitLValue(sub);
    return emitRValue(sub);
  case clang::CK_ToVoid:
    emitRValue(sub);
    return nullptr;
  case clang::CK_NullToPointer:
    return LLVM::ZeroOp::create(builder, loc(sl),
                                LLVM::LLVMPointerType::get(&m.context()));
  case clang::CK_IntegralCast:
  case clang::CK_IntegralToBoolean:
  case clang::CK_IntegralToFloating:
  case clang::CK_FloatingToIntegral:
  case clang::CK_FloatingCast:
  case clang::CK_FloatingToBoolean:
  case clang::CK_PointerToBoolean:
  case clang::CK_PointerToIntegral:
  case clang::CK_IntegralToPointer: {
    Value v = emitRValue(sub);
    return v ? convertScalar(v, sub->getType(), e->getType(), sl) : nullptr;
  }
  case clang::CK_BooleanToSignedIntegral: {
    Value v = emitRValue(sub);
    if (!v)
      return nullptr;
    Type t = m.valueType(e->getType(), sl);
    return arith::ExtSIOp::create(builder, loc(sl), t, v);
  }
  case clang::CK_ConstructorConversion:
  case clang::CK_UserDefinedConversion:
    return emitRValue(sub);
  default:
    return fail(sl, llvm::Twine("cast '") + e->getCastKindName() +
                        "' is not supported");
  }
}

Value FunctionEmitter::emitArithmetic(const clang::BinaryOperator *e,
                                      clang::BinaryOperatorKind op, Value lhs,
                                      Value rhs, clang::QualType lhsType,
                                      clang::QualType rhsType,
                                      clang::QualType resultType,
                                      clang::SourceLocation sl) {
  Location l = loc(sl);
  using BO = clang::BinaryOperatorKind;
  // Pointer arithmetic (comparisons of pointers are below).
  if ((lhsType->isPointerType() || rhsType->isPointerType()) &&
      !clang::BinaryOperator::isComparisonOp(op)) {
    if (lhsType->isPointerType() && rhsType->isPointerType()) {
      if (op != clang::BO_Sub)
        return fail(sl, "this pointer operation is not supported");
      Type i64 = builder.getI64Type();
      Value a = LLVM::PtrToIntOp::create(builder, l, i64, lhs);
      Value b = LLVM::PtrToIntOp::create(builder, l, i64, rhs);
      Value diff = arith::SubIOp::create(builder, l, a, b);
      clang::QualType element = lhsType->getPointeeType();
      int64_t size = element->isVoidType()
                         ? 1
                         : m.ast().getTypeSizeInChars(element).getQuantity();
      Value q = arith::DivSIOp::create(builder, l, diff, constInt(i64, size));
      return convertScalar(q, m.ast().LongTy, resultType, sl);
    }
    Value ptr = lhsType->isPointerType() ? lhs : rhs;
    Value index = lhsType->isPointerType() ? rhs : lhs;
    clang::QualType indexType = lhsType->isPointerType() ? rhsType : lhsType;
    clang::QualType ptrType = lhsType->isPointerType() ? lhsType : rhsType;
    if (op == clang::BO_Sub) {
      index = arith::SubIOp::create(builder, l, constInt(index.getType(), 0),
                                    index);
    } else if (op != clang::BO_Add) {
      return fail(sl, "this pointer operation is not supported");
    }
    return elementAddress(ptr, index, ptrType->getPointeeType(), indexType, sl);
  }
  bool isFloat = isa<FloatType>(lhs.getType());
  bool sgn = isSigned(lhsType);
  // Comparisons.
  if (clang::BinaryOperator::isComparisonOp(op)) {
    Value c;
    if (isFloat) {
      arith::CmpFPredicate p;
      switch (op) {
      case BO::BO_LT: p = arith::CmpFPredicate::OLT; break;
      case BO::BO_GT: p = arith::CmpFPredicate::OGT; break;
      case BO::BO_LE: p = arith::CmpFPredicate::OLE; break;
      case BO::BO_GE: p = arith::CmpFPredicate::OGE; break;
      case BO::BO_EQ: p = arith::CmpFPredicate::OEQ; break;
      case BO::BO_NE: p = arith::CmpFPredicate::UNE; break;
      default: return fail(sl, "three-way comparison is not supported");
      }
      c = arith::CmpFOp::create(builder, l, p, lhs, rhs);
    } else if (isa<LLVM::LLVMPointerType>(lhs.getType())) {
      LLVM::ICmpPredicate p;
      switch (op) {
      case BO::BO_LT: p = LLVM::ICmpPredicate::ult; break;
      case BO::BO_GT: p = LLVM::ICmpPredicate::ugt; break;
      case BO::BO_LE: p = LLVM::ICmpPredicate::ule; break;
      case BO::BO_GE: p = LLVM::ICmpPredicate::uge; break;
      case BO::BO_EQ: p = LLVM::ICmpPredicate::eq; break;
      case BO::BO_NE: p = LLVM::ICmpPredicate::ne; break;
      default: return fail(sl, "three-way comparison is not supported");
      }
      c = LLVM::ICmpOp::create(builder, l, p, lhs, rhs);
    } else {
      arith::CmpIPredicate p;
      switch (op) {
      case BO::BO_LT: p = sgn ? arith::CmpIPredicate::slt : arith::CmpIPredicate::ult; break;
      case BO::BO_GT: p = sgn ? arith::CmpIPredicate::sgt : arith::CmpIPredicate::ugt; break;
      case BO::BO_LE: p = sgn ? arith::CmpIPredicate::sle : arith::CmpIPredicate::ule; break;
      case BO::BO_GE: p = sgn ? arith::CmpIPredicate::sge : arith::CmpIPredicate::uge; break;
      case BO::BO_EQ: p = arith::CmpIPredicate::eq; break;
      case BO::BO_NE: p = arith::CmpIPredicate::ne; break;
      default: return fail(sl, "three-way comparison is not supported");
      }
      c = arith::CmpIOp::create(builder, l, p, lhs, rhs);
    }
    return convertScalar(c, m.ast().BoolTy, resultType, sl);
  }
  if (isFloat) {
    auto contract =
        e->getFPFeaturesInEffect(m.ast().getLangOpts()).getFPContractMode() !=
                clang::LangOptions::FPM_Off
            ? arith::FastMathFlags::contract
            : arith::FastMathFlags::none;
    switch (op) {
    case BO::BO_Add: return arith::AddFOp::create(builder, l, lhs, rhs, contract);
    case BO::BO_Sub: return arith::SubFOp::create(builder, l, lhs, rhs, contract);
    case BO::BO_Mul: return arith::MulFOp::create(builder, l, lhs, rhs, contract);
    case BO::BO_Div: return arith::DivFOp::create(builder, l, lhs, rhs);
    default: return fail(sl, "operator is not defined on floating point");
    }
  }
  if (op == BO::BO_Shl || op == BO::BO_Shr) {
    // The shift count has its own promoted type.
    if (rhs.getType() != lhs.getType())
      rhs = convertScalar(rhs, rhsType, lhsType, sl);
    if (op == BO::BO_Shl)
      return arith::ShLIOp::create(builder, l, lhs, rhs);
    return sgn ? Value(arith::ShRSIOp::create(builder, l, lhs, rhs))
               : Value(arith::ShRUIOp::create(builder, l, lhs, rhs));
  }
  // Signed overflow is undefined in C and CUDA C (clang marks it nsw too):
  // it lets LLVM see consecutive accesses through sign-extended indices.
  auto nsw = sgn ? arith::IntegerOverflowFlags::nsw
                 : arith::IntegerOverflowFlags::none;
  switch (op) {
  case BO::BO_Add: return arith::AddIOp::create(builder, l, lhs, rhs, nsw);
  case BO::BO_Sub: return arith::SubIOp::create(builder, l, lhs, rhs, nsw);
  case BO::BO_Mul: return arith::MulIOp::create(builder, l, lhs, rhs, nsw);
  case BO::BO_Div:
    return sgn ? Value(arith::DivSIOp::create(builder, l, lhs, rhs))
               : Value(arith::DivUIOp::create(builder, l, lhs, rhs));
  case BO::BO_Rem:
    return sgn ? Value(arith::RemSIOp::create(builder, l, lhs, rhs))
               : Value(arith::RemUIOp::create(builder, l, lhs, rhs));
  case BO::BO_And: return arith::AndIOp::create(builder, l, lhs, rhs);
  case BO::BO_Or: return arith::OrIOp::create(builder, l, lhs, rhs);
  case BO::BO_Xor: return arith::XOrIOp::create(builder, l, lhs, rhs);
  default:
    return fail(sl, "binary operator '" +
                        clang::BinaryOperator::getOpcodeStr(op) +
                        "' is not supported");
  }
}

Value FunctionEmitter::emitLogical(const clang::BinaryOperator *e) {
  Location l = loc(e->getExprLoc());
  Value lhs = emitCondition(e->getLHS());
  if (!lhs)
    return nullptr;
  bool isAnd = e->getOpcode() == clang::BO_LAnd;
  auto op = scf::IfOp::create(builder, l, builder.getI1Type(), lhs, true);
  {
    OpBuilder::InsertionGuard g(builder);
    builder.setInsertionPointToStart(isAnd ? op.thenBlock() : op.elseBlock());
    Value rhs = emitCondition(e->getRHS());
    if (!rhs)
      return nullptr;
    scf::YieldOp::create(builder, l, rhs);
    builder.setInsertionPointToStart(isAnd ? op.elseBlock() : op.thenBlock());
    scf::YieldOp::create(builder, l, constI1(!isAnd));
  }
  return convertScalar(op.getResult(0), m.ast().BoolTy, e->getType(),
                       e->getExprLoc());
}

Value FunctionEmitter::emitAssign(const clang::BinaryOperator *e) {
  clang::SourceLocation sl = e->getExprLoc();
  clang::QualType lt = e->getLHS()->getType();
  if (auto *ca = dyn_cast<clang::CompoundAssignOperator>(e)) {
    Value rhs = emitRValue(e->getRHS());
    Value addr = emitLValue(e->getLHS());
    if (!rhs || !addr)
      return nullptr;
    Value old = load(addr, lt, sl);
    clang::QualType clt = ca->getComputationLHSType();
    clang::QualType crt = ca->getComputationResultType();
    Value l = convertScalar(old, lt, clt, sl);
    if (!l)
      return nullptr;
    Value r = emitArithmetic(ca, clang::BinaryOperator::getOpForCompoundAssignment(
                                 e->getOpcode()),
                             l, rhs, clt, e->getRHS()->getType(), crt, sl);
    if (!r)
      return nullptr;
    Value result = convertScalar(r, crt, lt, sl);
    if (!result || failed(store(result, addr, lt, sl)))
      return nullptr;
    return result;
  }
  Value v = emitRValue(e->getRHS());
  Value addr = emitLValue(e->getLHS());
  if (!v || !addr || failed(store(v, addr, lt, sl)))
    return nullptr;
  return v;
}

Value FunctionEmitter::emitBinary(const clang::BinaryOperator *e) {
  clang::BinaryOperatorKind op = e->getOpcode();
  if (e->isAssignmentOp())
    return emitAssign(e);
  if (op == clang::BO_LAnd || op == clang::BO_LOr)
    return emitLogical(e);
  if (op == clang::BO_Comma) {
    emitRValue(e->getLHS());
    if (hasFailed())
      return nullptr;
    return emitRValue(e->getRHS());
  }
  if (op == clang::BO_PtrMemD || op == clang::BO_PtrMemI)
    return fail(e->getExprLoc(), "pointers to members are not supported");
  Value lhs = emitRValue(e->getLHS());
  Value rhs = emitRValue(e->getRHS());
  if (!lhs || !rhs)
    return nullptr;
  return emitArithmetic(e, op, lhs, rhs, e->getLHS()->getType(),
                        e->getRHS()->getType(), e->getType(), e->getExprLoc());
}

Value FunctionEmitter::emitIncDec(const clang::UnaryOperator *e) {
  clang::SourceLocation sl = e->getExprLoc();
  clang::QualType t = e->getSubExpr()->getType();
  Value addr = emitLValue(e->getSubExpr());
  if (!addr)
    return nullptr;
  Value old = load(addr, t, sl);
  if (!old)
    return nullptr;
  Location l = loc(sl);
  bool inc = e->isIncrementOp();
  Value updated;
  if (t->isPointerType()) {
    updated = elementAddress(old, constInt(builder.getI64Type(), inc ? 1 : -1),
                             t->getPointeeType(), m.ast().LongTy, sl);
  } else if (isa<FloatType>(old.getType())) {
    Value one = arith::ConstantOp::create(
        builder, l, builder.getFloatAttr(old.getType(), 1.0));
    updated = inc ? Value(arith::AddFOp::create(builder, l, old, one))
                  : Value(arith::SubFOp::create(builder, l, old, one));
  } else if (isa<IntegerType>(old.getType()) && !t->isBooleanType()) {
    Value one = constInt(old.getType(), 1);
    // Computed in int or wider (narrower types are promoted to int and
    // converted back, which wraps): nsw as for the binary operators.
    auto nsw = isSigned(t) && old.getType().getIntOrFloatBitWidth() >= 32
                   ? arith::IntegerOverflowFlags::nsw
                   : arith::IntegerOverflowFlags::none;
    updated = inc ? Value(arith::AddIOp::create(builder, l, old, one, nsw))
                  : Value(arith::SubIOp::create(builder, l, old, one, nsw));
  } else {
    return fail(sl, "++/-- on '" + t.getAsString() + "' is not supported");
  }
  if (!updated || failed(store(updated, addr, t, sl)))
    return nullptr;
  return e->isPrefix() ? updated : old;
}

Value FunctionEmitter::emitUnary(const clang::UnaryOperator *e) {
  clang::SourceLocation sl = e->getExprLoc();
  Location l = loc(sl);
  switch (e->getOpcode()) {
  case clang::UO_AddrOf:
    return emitLValue(e->getSubExpr());
  case clang::UO_Deref: {
    Value addr = emitLValue(e);
    return addr ? load(addr, e->getType(), sl) : nullptr;
  }
  case clang::UO_PreInc:
  case clang::UO_PreDec:
  case clang::UO_PostInc:
  case clang::UO_PostDec:
    return emitIncDec(e);
  case clang::UO_Plus:
  case clang::UO_Extension:
    return emitRValue(e->getSubExpr());
  case clang::UO_Minus: {
    Value v = emitRValue(e->getSubExpr());
    if (!v)
      return nullptr;
    if (isa<FloatType>(v.getType()))
      return arith::NegFOp::create(builder, l, v);
    return arith::SubIOp::create(builder, l, constInt(v.getType(), 0), v);
  }
  case clang::UO_Not: {
    Value v = emitRValue(e->getSubExpr());
    return v ? arith::XOrIOp::create(builder, l, v, constInt(v.getType(), -1))
             : nullptr;
  }
  case clang::UO_LNot: {
    Value c = emitCondition(e->getSubExpr());
    if (!c)
      return nullptr;
    Value n = arith::XOrIOp::create(builder, l, c, constI1(true));
    return convertScalar(n, m.ast().BoolTy, e->getType(), sl);
  }
  default:
    return fail(sl, "unary operator '" +
                        clang::UnaryOperator::getOpcodeStr(e->getOpcode()) +
                        "' is not supported");
  }
}

Value FunctionEmitter::emitConstantGlobalValue(const clang::Expr *e) {
  auto *ref = dyn_cast<clang::DeclRefExpr>(e->IgnoreParens());
  auto *var = ref ? dyn_cast<clang::VarDecl>(ref->getDecl()) : nullptr;
  if (!var || !var->hasGlobalStorage() || var->hasAttr<clang::CUDASharedAttr>() ||
      !var->getType().isConstQualified() ||
      var->getType().isVolatileQualified() || !var->getAnyInitializer())
    return nullptr;
  const clang::APValue *value = var->evaluateValue();
  if (!value)
    return nullptr;
  clang::SourceLocation sl = e->getExprLoc();
  Location l = loc(sl);
  if (value->isInt()) {
    Type t = m.valueType(var->getType(), sl);
    if (!t)
      return nullptr;
    return arith::ConstantOp::create(
        builder, l, builder.getIntegerAttr(t, value->getInt()));
  }
  if (value->isFloat()) {
    auto t = dyn_cast_or_null<FloatType>(m.valueType(var->getType(), sl));
    if (!t)
      return nullptr;
    return arith::ConstantOp::create(builder, l,
                                     builder.getFloatAttr(t, value->getFloat()));
  }
  return nullptr;
}

Value FunctionEmitter::emitConditional(
    const clang::AbstractConditionalOperator *e, bool asLValue) {
  clang::SourceLocation sl = e->getExprLoc();
  if (isa<clang::BinaryConditionalOperator>(e))
    return fail(sl, "the GNU '?:' operator is not supported");
  auto *c = cast<clang::ConditionalOperator>(e);
  if (e->isGLValue() && !asLValue) {
    // `c ? a : b` of two lvalues used as a value: load from the selected one.
    Value address = emitConditional(e, /*asLValue=*/true);
    Type t = address ? m.valueType(e->getType(), sl) : Type();
    if (!t)
      return nullptr;
    return LLVM::LoadOp::create(builder, loc(sl), t, address);
  }
  Value cond = emitCondition(c->getCond());
  if (!cond)
    return nullptr;
  Location l = loc(sl);
  bool isVoid = e->getType()->isVoidType();
  // An lvalue conditional selects an address: each arm yields its operand's.
  Type t = asLValue ? LLVM::LLVMPointerType::get(&m.context())
           : isVoid ? Type()
                    : m.valueType(e->getType(), sl);
  if (!isVoid && !t)
    return nullptr;
  auto op = isVoid ? scf::IfOp::create(builder, l, cond, true)
                   : scf::IfOp::create(builder, l, TypeRange{t}, cond, true);
  OpBuilder::InsertionGuard g(builder);
  for (auto [block, arm] : {std::make_pair(op.thenBlock(), c->getTrueExpr()),
                            std::make_pair(op.elseBlock(), c->getFalseExpr())}) {
    if (isVoid) {
      builder.setInsertionPoint(block->getTerminator());
      emitRValue(arm);
      if (hasFailed())
        return nullptr;
      continue;
    }
    builder.setInsertionPointToStart(block);
    Value v = asLValue ? emitLValue(arm) : emitRValue(arm);
    if (!v)
      return nullptr;
    scf::YieldOp::create(builder, l, v);
  }
  return isVoid ? Value() : op.getResult(0);
}

Value FunctionEmitter::emitInitializer(Value ptr, const clang::Expr *init,
                                       clang::QualType t) {
  clang::SourceLocation sl = init->getExprLoc();
  Location l = loc(sl);
  init = init->IgnoreParens();
  if (auto *cleanups = dyn_cast<clang::ExprWithCleanups>(init))
    init = cleanups->getSubExpr();
  auto zeroFill = [&]() {
    int64_t bytes = m.ast().getTypeSizeInChars(t).getQuantity();
    Value zero = constInt(builder.getI8Type(), 0);
    Value len = constInt(builder.getI64Type(), bytes);
    LLVM::MemsetOp::create(builder, l, ptr, zero, len, false);
  };
  if (isa<clang::ImplicitValueInitExpr>(init)) {
    zeroFill();
    return ptr;
  }
  if (auto *list = dyn_cast<clang::InitListExpr>(init)) {
    if (list->hadArrayRangeDesignator())
      return fail(sl, "array range designators are not supported");
    if (t->isScalarType()) {
      if (list->getNumInits() == 0) {
        zeroFill();
        return ptr;
      }
      Value v = emitRValue(list->getInit(0));
      if (!v || failed(store(v, ptr, t, sl)))
        return nullptr;
      return ptr;
    }
    if (auto *array = m.ast().getAsConstantArrayType(t)) {
      clang::QualType et = array->getElementType();
      if (list->getNumInits() < array->getZExtSize() || list->hasArrayFiller())
        zeroFill();
      for (unsigned i = 0; i < list->getNumInits(); ++i) {
        const clang::Expr *ie = list->getInit(i);
        if (isa<clang::ImplicitValueInitExpr>(ie))
          continue;
        Value at = elementAddress(ptr, constInt(builder.getI64Type(), i), et,
                                  m.ast().LongTy, sl);
        if (!at || !emitInitializer(at, ie, et))
          return nullptr;
      }
      return ptr;
    }
    if (const clang::RecordDecl *rd = t->getAsRecordDecl()) {
      Type st = m.memoryType(t, sl);
      if (!st)
        return nullptr;
      zeroFill();
      unsigned i = 0;
      for (const clang::FieldDecl *f : rd->fields()) {
        if (i >= list->getNumInits())
          break;
        const clang::Expr *ie = list->getInit(i++);
        if (isa<clang::ImplicitValueInitExpr>(ie))
          continue;
        Value at = LLVM::GEPOp::create(
            builder, l, LLVM::LLVMPointerType::get(&m.context()), st, ptr,
            ArrayRef<LLVM::GEPArg>{0, (int32_t)m.fieldIndex(f)});
        if (!emitInitializer(at, ie, f->getType()))
          return nullptr;
      }
      return ptr;
    }
    return fail(sl, "initializer list for '" + t.getAsString() +
                        "' is not supported");
  }
  if (auto *ctor = dyn_cast<clang::CXXConstructExpr>(init)) {
    const clang::CXXConstructorDecl *cd = ctor->getConstructor();
    if (cd->isTrivial() && cd->isDefaultConstructor())
      return ptr; // uninitialized, as in C
    if (cd->isTrivial() && (cd->isCopyConstructor() || cd->isMoveConstructor()) &&
        ctor->getNumArgs() == 1)
      return copyRecord(ptr, ctor->getArg(0), t) ? ptr : nullptr;
    if (cd->isDefaultConstructor() && cd->hasBody() &&
        cast<clang::CompoundStmt>(cd->getBody())->body_empty() &&
        cd->inits().empty())
      return ptr;
    return fail(sl, "constructor call of '" + t.getAsString() +
                        "' is not supported (only trivial constructors)");
  }
  if (t->isArrayType())
    return fail(sl, "array initializer is not supported");
  Value v = emitRValue(init);
  if (!v || failed(store(v, ptr, t, sl)))
    return nullptr;
  return ptr;
}

Value FunctionEmitter::emitRecordValue(const clang::Expr *e,
                                       clang::QualType t) {
  clang::SourceLocation sl = e->getExprLoc();
  Type st = m.memoryType(t, sl);
  if (!st)
    return nullptr;
  // Built in a temporary as an initializer is (a copy constructor, an
  // initializer list, a call returning a struct), then read as one value.
  Value slot = allocaSlot(st, m.alignment(t));
  if (!emitInitializer(slot, e, t))
    return nullptr;
  return load(slot, t, sl);
}

bool FunctionEmitter::copyRecord(Value dst, const clang::Expr *src,
                                 clang::QualType t) {
  clang::SourceLocation sl = src->getExprLoc();
  if (!src->isGLValue()) {
    Value v = emitRValue(src);
    return v && succeeded(store(v, dst, t, sl));
  }
  // The source is an object (an lvalue, or a temporary clang materialized):
  // one load and one store of the whole struct (padding included, as a
  // trivial copy), with the struct's alignment. A memcpy without alignment
  // would copy byte by byte on the GPU.
  Value from = emitLValue(src);
  if (!from)
    return false;
  Value v = load(from, t, sl);
  return v && succeeded(store(v, dst, t, sl));
}

Value FunctionEmitter::emitCall(const clang::CallExpr *e) {
  clang::SourceLocation sl = e->getExprLoc();
  const clang::FunctionDecl *callee = e->getDirectCallee();
  if (!callee)
    return fail(sl, "indirect calls (through function pointers) are not "
                    "supported");
  // __syncthreads() is a header function around the barrier builtin: the
  // call site is where the enclosing conditions are known.
  if (callee->getIdentifier() && callee->getName() == "__syncthreads")
    diagnoseDivergentBarrier(sl);
  bool handled = false;
  Value builtin = emitBuiltinCall(e, callee, handled);
  if (handled)
    return builtin;
  // `a = b` of structs: the implicit trivial copy/move assignment.
  if (auto *method = dyn_cast<clang::CXXMethodDecl>(callee))
    if (isa<clang::CXXOperatorCallExpr>(e) && method->isTrivial() &&
        (method->isCopyAssignmentOperator() ||
         method->isMoveAssignmentOperator()) &&
        e->getNumArgs() == 2) {
      Value dst = emitLValue(e->getArg(0));
      if (!dst || !copyRecord(dst, e->getArg(1),
                              e->getArg(0)->getType().getUnqualifiedType()))
        return nullptr;
      return dst;
    }
  if (isa<clang::CXXMemberCallExpr>(e) || isa<clang::CXXOperatorCallExpr>(e))
    if (auto *method = dyn_cast<clang::CXXMethodDecl>(callee))
      if (!method->isStatic())
        return fail(sl, "call of member function '" +
                            callee->getQualifiedNameAsString() +
                            "' is not supported (only static members)");
  if (!callee->hasAttr<clang::CUDADeviceAttr>() &&
      !callee->hasAttr<clang::CUDAGlobalAttr>() && !callee->isConstexpr())
    return fail(sl, "call of host function '" + callee->getNameAsString() +
                        "' in device code");
  SmallVector<Value> args;
  for (auto [i, p] : llvm::enumerate(callee->parameters())) {
    if (i >= e->getNumArgs())
      return fail(sl, "call with too few arguments");
    const clang::Expr *arg = e->getArg(i);
    Value v = p->getType()->isReferenceType() ? emitLValue(arg)
              : p->getType()->isRecordType()  ? emitRecordValue(arg, p->getType())
                                              : emitRValue(arg);
    if (!v)
      return nullptr;
    args.push_back(v);
  }
  FailureOr<func::FuncOp> fn = m.function(callee);
  if (failed(fn)) {
    failed_ = true;
    return nullptr;
  }
  auto call = func::CallOp::create(builder, loc(sl), *fn, args);
  return call.getNumResults() ? call.getResult(0) : Value();
}

Value FunctionEmitter::emitLValue(const clang::Expr *e) {
  clang::SourceLocation sl = e->getExprLoc();
  if (auto *p = dyn_cast<clang::ParenExpr>(e))
    return emitLValue(p->getSubExpr());
  if (auto *d = dyn_cast<clang::DeclRefExpr>(e)) {
    auto *var = dyn_cast<clang::VarDecl>(d->getDecl());
    if (!var)
      return fail(sl, "'" + d->getDecl()->getNameAsString() +
                          "' cannot be used as a value here");
    Value slot = locals_.lookup(var);
    if (!slot && var->hasAttr<clang::CUDASharedAttr>()) {
      FailureOr<LLVM::GlobalOp> g = m.sharedGlobal(var, decl);
      if (failed(g))
        return nullptr;
      Location l = loc(sl);
      Value addr = LLVM::AddressOfOp::create(builder, l, *g);
      return LLVM::AddrSpaceCastOp::create(
          builder, l, LLVM::LLVMPointerType::get(&m.context()), addr);
    }
    if (!slot) {
      if (var->hasGlobalStorage())
        return fail(sl, "global variable '" + var->getName() +
                            "' is not supported in device code yet "
                            "(__device__/__constant__ globals)");
      return fail(sl, "unknown variable '" + var->getName() + "'");
    }
    if (var->getType()->isReferenceType())
      return LLVM::LoadOp::create(builder, loc(sl),
                                  LLVM::LLVMPointerType::get(&m.context()),
                                  slot);
    return slot;
  }
  if (auto *u = dyn_cast<clang::UnaryOperator>(e)) {
    if (u->getOpcode() == clang::UO_Deref)
      return emitRValue(u->getSubExpr());
    if (u->getOpcode() == clang::UO_PreInc || u->getOpcode() == clang::UO_PreDec) {
      if (!emitIncDec(u))
        return nullptr;
      return emitLValue(u->getSubExpr());
    }
  }
  if (auto *a = dyn_cast<clang::ArraySubscriptExpr>(e)) {
    Value base = emitRValue(a->getBase());
    Value index = emitRValue(a->getIdx());
    if (!base || !index)
      return nullptr;
    return elementAddress(base, index, a->getType(), a->getIdx()->getType(), sl);
  }
  if (auto *me = dyn_cast<clang::MemberExpr>(e)) {
    auto *field = dyn_cast<clang::FieldDecl>(me->getMemberDecl());
    if (!field)
      return fail(sl, "member '" + me->getMemberDecl()->getNameAsString() +
                          "' is not a data field");
    Value base = me->isArrow() ? emitRValue(me->getBase())
                               : emitLValue(me->getBase());
    if (!base)
      return nullptr;
    clang::QualType recordType = me->isArrow()
                                     ? me->getBase()->getType()->getPointeeType()
                                     : me->getBase()->getType();
    Type st = m.memoryType(recordType, sl);
    if (!st)
      return nullptr;
    return LLVM::GEPOp::create(
        builder, loc(sl), LLVM::LLVMPointerType::get(&m.context()), st, base,
        ArrayRef<LLVM::GEPArg>{0, (int32_t)m.fieldIndex(field)});
  }
  if (auto *c = dyn_cast<clang::CastExpr>(e)) {
    if (c->getCastKind() == clang::CK_NoOp ||
        c->getCastKind() == clang::CK_LValueBitCast ||
        c->getCastKind() == clang::CK_UncheckedDerivedToBase)
      return emitLValue(c->getSubExpr());
  }
  if (auto *po = dyn_cast<clang::PseudoObjectExpr>(e))
    return emitLValue(po->getResultExpr());
  if (auto *mt = dyn_cast<clang::MaterializeTemporaryExpr>(e)) {
    if (mt->getSubExpr()->isGLValue())
      return emitLValue(mt->getSubExpr());
    Type t = m.memoryType(mt->getType(), sl);
    if (!t)
      return nullptr;
    Value slot = allocaSlot(t, m.alignment(mt->getType()));
    if (!emitInitializer(slot, mt->getSubExpr(), mt->getType()))
      return nullptr;
    return slot;
  }
  if (auto *b = dyn_cast<clang::BinaryOperator>(e)) {
    if (b->isAssignmentOp()) {
      if (!emitAssign(b))
        return nullptr;
      return emitLValue(b->getLHS());
    }
    if (b->getOpcode() == clang::BO_Comma) {
      emitRValue(b->getLHS());
      return hasFailed() ? nullptr : emitLValue(b->getRHS());
    }
  }
  if (auto *call = dyn_cast<clang::CallExpr>(e))
    return emitCall(call); // returns a reference
  if (auto *s = dyn_cast<clang::StringLiteral>(e)) {
    std::string bytes = s->getBytes().str();
    bytes.push_back('\0');
    LLVM::GlobalOp g = m.stringGlobal(bytes);
    return LLVM::AddressOfOp::create(builder, loc(sl), g);
  }
  if (auto *sub = dyn_cast<clang::SubstNonTypeTemplateParmExpr>(e))
    return emitLValue(sub->getReplacement());
  if (auto *c = dyn_cast<clang::AbstractConditionalOperator>(e))
    return emitConditional(c, /*asLValue=*/true);
  return fail(sl, llvm::Twine("cannot take the address of expression '") +
                      e->getStmtClassName() + "'");
}

Value FunctionEmitter::emitRValue(const clang::Expr *e) {
  if (hasFailed())
    return nullptr;
  clang::SourceLocation sl = e->getExprLoc();
  Location l = loc(sl);
  if (auto *p = dyn_cast<clang::ParenExpr>(e))
    return emitRValue(p->getSubExpr());
  if (auto *i = dyn_cast<clang::IntegerLiteral>(e)) {
    Type t = m.valueType(e->getType(), sl);
    return t ? Value(arith::ConstantOp::create(
                   builder, l, builder.getIntegerAttr(t, i->getValue())))
             : nullptr;
  }
  if (auto *c = dyn_cast<clang::CharacterLiteral>(e)) {
    Type t = m.valueType(e->getType(), sl);
    return t ? constInt(t, c->getValue()) : nullptr;
  }
  if (auto *f = dyn_cast<clang::FloatingLiteral>(e)) {
    Type t = m.valueType(e->getType(), sl);
    if (!t)
      return nullptr;
    return arith::ConstantOp::create(builder, l,
                                     builder.getFloatAttr(t, f->getValue()));
  }
  if (auto *b = dyn_cast<clang::CXXBoolLiteralExpr>(e))
    return constI1(b->getValue());
  if (isa<clang::CXXNullPtrLiteralExpr, clang::GNUNullExpr>(e))
    return LLVM::ZeroOp::create(builder, l,
                                LLVM::LLVMPointerType::get(&m.context()));
  if (auto *c = dyn_cast<clang::ConstantExpr>(e)) {
    if (c->hasAPValueResult() && c->getAPValueResult().isInt()) {
      Type t = m.valueType(e->getType(), sl);
      if (!t)
        return nullptr;
      if (t.isInteger(1))
        return constI1(c->getAPValueResult().getInt().getBoolValue());
      return arith::ConstantOp::create(
          builder, l, builder.getIntegerAttr(t, c->getAPValueResult().getInt()));
    }
    return emitRValue(c->getSubExpr());
  }
  if (auto *c = dyn_cast<clang::CastExpr>(e))
    return emitCast(c);
  if (auto *u = dyn_cast<clang::UnaryOperator>(e))
    return emitUnary(u);
  if (auto *b = dyn_cast<clang::BinaryOperator>(e))
    return emitBinary(b);
  if (auto *c = dyn_cast<clang::AbstractConditionalOperator>(e))
    return emitConditional(c);
  if (auto *c = dyn_cast<clang::CallExpr>(e)) {
    Value v = emitCall(c);
    const clang::FunctionDecl *callee = c->getDirectCallee();
    if (v && callee && callee->getReturnType()->isReferenceType())
      return load(v, c->getType(), sl);
    return v;
  }
  if (auto *d = dyn_cast<clang::DeclRefExpr>(e)) {
    if (auto *ec = dyn_cast<clang::EnumConstantDecl>(d->getDecl())) {
      Type t = m.valueType(e->getType(), sl);
      return t ? Value(arith::ConstantOp::create(
                     builder, l, builder.getIntegerAttr(t, ec->getInitVal())))
               : nullptr;
    }
    if (auto *var = dyn_cast<clang::VarDecl>(d->getDecl())) {
      // constexpr / const globals with constant initializers.
      if (!locals_.count(var) && var->hasGlobalStorage() &&
          var->getType().isConstQualified() && var->getType()->isScalarType())
        if (const clang::APValue *value = var->evaluateValue()) {
          Type t = m.valueType(e->getType(), sl);
          if (!t)
            return nullptr;
          if (value->isInt())
            return arith::ConstantOp::create(
                builder, l, builder.getIntegerAttr(t, value->getInt()));
          if (value->isFloat())
            return arith::ConstantOp::create(
                builder, l, builder.getFloatAttr(t, value->getFloat()));
        }
    }
    Value addr = emitLValue(e);
    return addr ? load(addr, e->getType(), sl) : nullptr;
  }
  if (isa<clang::MemberExpr, clang::ArraySubscriptExpr>(e)) {
    Value addr = emitLValue(e);
    return addr ? load(addr, e->getType(), sl) : nullptr;
  }
  if (auto *po = dyn_cast<clang::PseudoObjectExpr>(e))
    return emitRValue(po->getResultExpr());
  if (auto *ewc = dyn_cast<clang::ExprWithCleanups>(e))
    return emitRValue(ewc->getSubExpr());
  if (auto *mt = dyn_cast<clang::MaterializeTemporaryExpr>(e))
    return emitRValue(mt->getSubExpr());
  if (auto *b = dyn_cast<clang::CXXBindTemporaryExpr>(e))
    return emitRValue(b->getSubExpr());
  if (auto *d = dyn_cast<clang::CXXDefaultArgExpr>(e))
    return emitRValue(d->getExpr());
  if (auto *s = dyn_cast<clang::SubstNonTypeTemplateParmExpr>(e))
    return emitRValue(s->getReplacement());
  if (auto *u = dyn_cast<clang::UnaryExprOrTypeTraitExpr>(e)) {
    clang::Expr::EvalResult r;
    if (!u->EvaluateAsInt(r, m.ast()))
      return fail(sl, "sizeof/alignof of a variable-size type");
    Type t = m.valueType(e->getType(), sl);
    return t ? Value(arith::ConstantOp::create(
                   builder, l, builder.getIntegerAttr(t, r.Val.getInt())))
             : nullptr;
  }
  if (isa<clang::ImplicitValueInitExpr, clang::CXXScalarValueInitExpr>(e)) {
    Type t = m.valueType(e->getType(), sl);
    if (!t)
      return nullptr;
    if (isa<FloatType>(t))
      return arith::ConstantOp::create(builder, l, builder.getFloatAttr(t, 0));
    if (isa<IntegerType>(t))
      return constInt(t, 0);
    if (isa<LLVM::LLVMPointerType>(t))
      return LLVM::ZeroOp::create(builder, l, t);
  }
  if (isa<clang::InitListExpr, clang::CXXConstructExpr>(e)) {
    // A record temporary: build it in a slot, then load it.
    if (auto *ctor = dyn_cast<clang::CXXConstructExpr>(e))
      if (ctor->getNumArgs() == 1 && ctor->getConstructor()->isTrivial() &&
          (ctor->getConstructor()->isCopyConstructor() ||
           ctor->getConstructor()->isMoveConstructor()))
        return emitRValue(ctor->getArg(0));
    Type t = m.memoryType(e->getType(), sl);
    if (!t)
      return nullptr;
    Value slot = allocaSlot(t, m.alignment(e->getType()));
    if (!emitInitializer(slot, e, e->getType()))
      return nullptr;
    return load(slot, e->getType(), sl);
  }
  if (isa<clang::StringLiteral>(e))
    return emitLValue(e);
  return fail(sl, llvm::Twine("expression '") + e->getStmtClassName() +
                      "' is not supported");
}
