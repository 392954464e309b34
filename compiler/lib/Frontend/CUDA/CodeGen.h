//===- CodeGen.h - clang AST to MLIR, shared by the emitter files ----------===//
//
// ModuleEmitter owns what is per translation unit (types, functions,
// `__shared__` globals, locations); FunctionEmitter emits one function body
// (CodeGenStmt.cpp, CodeGenExpr.cpp, CodeGenBuiltins.cpp). Every failure is
// reported at the construct's location and makes the import fail: nothing
// unsupported is translated approximately.
//
//===----------------------------------------------------------------------===//

#ifndef TESSEL_FRONTEND_CUDA_CODEGEN_H
#define TESSEL_FRONTEND_CUDA_CODEGEN_H

#include "clang/AST/ASTContext.h"
#include "clang/AST/Expr.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/Mangle.h"
#include "clang/AST/Stmt.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"

#include "llvm/ADT/DenseMap.h"

#include <memory>

namespace mlir::tessel::cuda {

class ModuleEmitter {
public:
  ModuleEmitter(MLIRContext &context, clang::ASTContext &ast, ModuleOp module);

  MLIRContext &context() { return context_; }
  clang::ASTContext &ast() { return ast_; }
  ModuleOp module() { return module_; }
  Location loc(clang::SourceLocation sl);
  /// Reports an error at `sl` and returns failure.
  LogicalResult error(clang::SourceLocation sl, const llvm::Twine &message);
  bool hadError() const { return hadError_; }

  /// The type of a value of C type `t` in registers (bool: i1), or null
  /// after an error at `sl`.
  Type valueType(clang::QualType t, clang::SourceLocation sl);
  /// The type of `t` in memory (bool: i8; arrays and records as LLVM
  /// aggregates laid out as clang lays them out).
  Type memoryType(clang::QualType t, clang::SourceLocation sl);
  /// LLVM struct field index of `field` (padding fields shift it).
  unsigned fieldIndex(const clang::FieldDecl *field);
  uint64_t alignment(clang::QualType t);

  std::string mangledName(const clang::FunctionDecl *fn);
  /// Emits (once) the definition of `fn` and returns its func.func.
  FailureOr<func::FuncOp> function(const clang::FunctionDecl *fn);
  /// The global of a `__shared__` variable (static or extern).
  FailureOr<LLVM::GlobalOp> sharedGlobal(const clang::VarDecl *var,
                                         const clang::FunctionDecl *owner);
  /// A private constant global holding `bytes` (string literals).
  LLVM::GlobalOp stringGlobal(StringRef bytes);

private:
  MLIRContext &context_;
  clang::ASTContext &ast_;
  ModuleOp module_;
  std::unique_ptr<clang::MangleContext> mangler_;
  llvm::DenseMap<const clang::FunctionDecl *, func::FuncOp> functions_;
  llvm::DenseMap<const clang::VarDecl *, LLVM::GlobalOp> shared_;
  llvm::DenseMap<const clang::RecordDecl *, Type> records_;
  llvm::DenseMap<const clang::FieldDecl *, unsigned> fieldIndices_;
  llvm::StringMap<LLVM::GlobalOp> strings_;
  /// Functions being emitted (recursion is an error).
  llvm::SmallPtrSet<const clang::FunctionDecl *, 8> inProgress_;
  bool hadError_ = false;
};

/// Emits the body of one function.
class FunctionEmitter {
public:
  FunctionEmitter(ModuleEmitter &m, const clang::FunctionDecl *decl,
                  func::FuncOp fn);
  LogicalResult emitBody();

  // --- Statements (CodeGenStmt.cpp) -------------------------------------
  LogicalResult emitStmt(const clang::Stmt *s);
  /// Warns about a barrier at `sl` under a condition on the thread id.
  void diagnoseDivergentBarrier(clang::SourceLocation sl);
  LogicalResult emitStmtList(ArrayRef<const clang::Stmt *> stmts);
  LogicalResult emitVarDecl(const clang::VarDecl *var);
  LogicalResult emitLoop(const clang::Stmt *init, const clang::Expr *cond,
                         const clang::Stmt *condVar, const clang::Expr *inc,
                         const clang::Stmt *body, bool isDoWhile,
                         clang::SourceLocation sl);
  LogicalResult emitSwitch(const clang::SwitchStmt *s);

  // --- Expressions (CodeGenExpr.cpp) ------------------------------------
  /// The value of `e` (a load for lvalues of scalar or record type), or
  /// null after an error. Expressions of type void give a null Value with
  /// success: check `failed()`.
  Value emitRValue(const clang::Expr *e);
  /// The address of lvalue `e`.
  Value emitLValue(const clang::Expr *e);
  /// `e` converted to i1 (C's "!= 0").
  Value emitCondition(const clang::Expr *e);
  Value emitCast(const clang::CastExpr *e);
  Value emitUnary(const clang::UnaryOperator *e);
  Value emitBinary(const clang::BinaryOperator *e);
  Value emitAssign(const clang::BinaryOperator *e);
  /// `e`'s operator on `lhs` and `rhs` (for a compound assignment, the
  /// operator it applies); its floating-point products and sums may
  /// contract into fused multiply-adds where clang's FP options at `e`
  /// allow it (CUDA's default, -ffp-contract=fast, as nvcc's --fmad=true;
  /// tessel-cc --fmad=false turns it off).
  Value emitArithmetic(const clang::BinaryOperator *e,
                       clang::BinaryOperatorKind op, Value lhs, Value rhs,
                       clang::QualType lhsType, clang::QualType rhsType,
                       clang::QualType resultType, clang::SourceLocation sl);
  Value emitIncDec(const clang::UnaryOperator *e);
  Value emitCall(const clang::CallExpr *e);
  /// The value of struct expression `e` (of type `t`): an LLVM struct.
  Value emitRecordValue(const clang::Expr *e, clang::QualType t);
  /// Copies the record object `src` (of type `t`) to `dst` byte for byte
  /// (a trivial copy constructor or assignment); false after an error.
  bool copyRecord(Value dst, const clang::Expr *src, clang::QualType t);
  /// The value of a const global scalar with a constant initializer that
  /// `e` names; null (and no error) for anything else.
  Value emitConstantGlobalValue(const clang::Expr *e);
  /// `c ? a : b`; with `asLValue`, the address of the selected operand.
  Value emitConditional(const clang::AbstractConditionalOperator *e,
                        bool asLValue = false);
  Value emitLogical(const clang::BinaryOperator *e);
  /// Converts scalar `v` of C type `from` to C type `to`.
  Value convertScalar(Value v, clang::QualType from, clang::QualType to,
                      clang::SourceLocation sl);
  Value toBool(Value v, clang::QualType t, clang::SourceLocation sl);
  Value load(Value ptr, clang::QualType t, clang::SourceLocation sl);
  LogicalResult store(Value v, Value ptr, clang::QualType t,
                      clang::SourceLocation sl);
  /// `ptr` advanced by `index` elements of C type `element`.
  Value elementAddress(Value ptr, Value index, clang::QualType element,
                       clang::QualType indexType, clang::SourceLocation sl);
  Value emitInitializer(Value ptr, const clang::Expr *init, clang::QualType t);

  // --- Builtins (CodeGenBuiltins.cpp) -----------------------------------
  /// Calls of clang builtins and libdevice (`__nv_*`) declarations; sets
  /// `handled` when `callee` is one.
  Value emitBuiltinCall(const clang::CallExpr *e,
                        const clang::FunctionDecl *callee, bool &handled);

  // --- Helpers ------------------------------------------------------------
  Value constInt(Type t, int64_t v);
  Value constI1(bool v) { return constInt(builder.getI1Type(), v); }
  /// A fresh stack slot of `type` in the entry block.
  Value allocaSlot(Type type, uint64_t alignment);
  /// Reads a flag slot (i1 stored as i8).
  Value loadFlag(Value slot);
  void storeFlag(Value slot, bool value);
  Value fail(clang::SourceLocation sl, const llvm::Twine &message) {
    (void)m.error(sl, message);
    failed_ = true;
    return nullptr;
  }
  bool hasFailed() const { return failed_ || m.hadError(); }
  Location loc(clang::SourceLocation sl) { return m.loc(sl); }

  ModuleEmitter &m;
  const clang::FunctionDecl *decl;
  func::FuncOp fn;
  OpBuilder builder;

private:
  struct LoopFlags {
    Value broke;     ///< i8 slot: a `break` ran
    Value continued; ///< i8 slot: a `continue` ran (loops only)
  };
  /// Whether executing `s` may leave the statement list early (break,
  /// continue or return that are not caught inside `s`).
  bool mayExit(const clang::Stmt *s);
  /// The i1 "keep going" condition after an early exit may have happened.
  Value stillRunning();

  Block *entry_ = nullptr;
  Value one_;                       ///< i64 1, the count of every slot
  Operation *allocaPoint_ = nullptr; ///< slots are created after this op
  llvm::DenseMap<const clang::VarDecl *, Value> locals_;
  Value returned_;   ///< i8 slot, when the function has an early return
  Value returnSlot_; ///< the return value
  SmallVector<LoopFlags> loops_;
  bool failed_ = false;
  /// Conditions on the thread id around the statement being emitted: a
  /// barrier under one is divergent (undefined in CUDA) unless every thread
  /// of the block takes the same way, and gets a warning.
  std::vector<const clang::Stmt *> threadConditions_;
};

} // namespace mlir::tessel::cuda

#endif
