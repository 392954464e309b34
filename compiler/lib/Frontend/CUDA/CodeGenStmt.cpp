//===- CodeGenStmt.cpp - statements to structured control flow ------------===//
//
// Locals live in stack slots (llvm.alloca in the entry block; LLVM promotes
// them). Loops are scf.while; break, continue and early return set i8 flag
// slots and every statement after one that may exit runs under an scf.if
// of "no flag is set", so that control flow stays structured (the CPU
// transpilation moves the thread loop through scf.if and scf.while).
//
//===----------------------------------------------------------------------===//

#include "CodeGen.h"

#include "llvm/ADT/ScopeExit.h"

#include "tessel/Dialect/Tessel/TesselDialect.h"

#include "clang/AST/Attr.h"
#include "clang/AST/StmtVisitor.h"

using namespace mlir;
using namespace mlir::tessel;
using namespace mlir::tessel::cuda;

FunctionEmitter::FunctionEmitter(ModuleEmitter &m,
                                 const clang::FunctionDecl *decl,
                                 func::FuncOp fn)
    : m(m), decl(decl), fn(fn), builder(&m.context()) {}

Value FunctionEmitter::constInt(Type t, int64_t v) {
  return arith::ConstantOp::create(builder, builder.getUnknownLoc(),
                                   builder.getIntegerAttr(t, v));
}

Value FunctionEmitter::allocaSlot(Type type, uint64_t alignment) {
  OpBuilder::InsertionGuard guard(builder);
  Location loc = builder.getUnknownLoc();
  if (!one_) {
    builder.setInsertionPointToStart(entry_);
    one_ = LLVM::ConstantOp::create(builder, loc, builder.getI64Type(),
                                    builder.getI64IntegerAttr(1));
    allocaPoint_ = one_.getDefiningOp();
  }
  builder.setInsertionPointAfter(allocaPoint_);
  auto slot = LLVM::AllocaOp::create(
      builder, loc, LLVM::LLVMPointerType::get(&m.context()), type, one_,
      alignment);
  allocaPoint_ = slot;
  return slot;
}

Value FunctionEmitter::loadFlag(Value slot) {
  Location loc = builder.getUnknownLoc();
  Value v = LLVM::LoadOp::create(builder, loc, builder.getI8Type(), slot);
  return arith::CmpIOp::create(builder, loc, arith::CmpIPredicate::ne, v,
                               constInt(builder.getI8Type(), 0));
}

void FunctionEmitter::storeFlag(Value slot, bool value) {
  LLVM::StoreOp::create(builder, builder.getUnknownLoc(),
                        constInt(builder.getI8Type(), value), slot);
}

namespace {
/// Whether a statement may leave the enclosing statement list early.
struct ExitFinder {
  bool exits(const clang::Stmt *s, bool inLoop, bool inSwitch) {
    if (!s)
      return false;
    if (isa<clang::ReturnStmt>(s))
      return true;
    if (isa<clang::BreakStmt>(s))
      return !inLoop && !inSwitch;
    if (isa<clang::ContinueStmt>(s))
      return !inLoop;
    bool loop = inLoop || isa<clang::ForStmt, clang::WhileStmt, clang::DoStmt>(s);
    bool sw = inSwitch || isa<clang::SwitchStmt>(s);
    for (const clang::Stmt *c : s->children())
      if (exits(c, loop, sw))
        return true;
    return false;
  }
};
} // namespace

bool FunctionEmitter::mayExit(const clang::Stmt *s) {
  return ExitFinder().exits(s, false, false);
}

Value FunctionEmitter::stillRunning() {
  Value go = constI1(true);
  Location loc = builder.getUnknownLoc();
  auto andNot = [&](Value flagSlot) {
    Value set = loadFlag(flagSlot);
    Value notSet = arith::XOrIOp::create(builder, loc, set, constI1(true));
    go = arith::AndIOp::create(builder, loc, go, notSet);
  };
  if (returned_)
    andNot(returned_);
  if (!loops_.empty())
    andNot(loops_.back().broke);
  for (auto it = loops_.rbegin(); it != loops_.rend(); ++it)
    if (it->continued) {
      andNot(it->continued);
      break;
    }
  return go;
}

LogicalResult FunctionEmitter::emitBody() {
  entry_ = fn.addEntryBlock();
  builder.setInsertionPointToEnd(entry_);
  for (auto [i, p] : llvm::enumerate(decl->parameters())) {
    Type t = m.memoryType(p->getType(), p->getLocation());
    if (!t)
      return failure();
    Value slot = allocaSlot(t, m.alignment(p->getType()));
    if (failed(store(fn.getArgument(i), slot, p->getType(), p->getLocation())))
      return failure();
    locals_[p] = slot;
  }
  clang::QualType resultType = decl->getReturnType();
  if (!resultType->isVoidType()) {
    Type t = m.memoryType(resultType, decl->getLocation());
    if (!t)
      return failure();
    returnSlot_ = allocaSlot(t, m.alignment(resultType));
  }
  // An early-return flag unless the only return is the last statement.
  const clang::Stmt *body = decl->getBody();
  unsigned returns = 0;
  std::function<void(const clang::Stmt *)> count = [&](const clang::Stmt *s) {
    if (!s)
      return;
    if (isa<clang::ReturnStmt>(s))
      ++returns;
    for (const clang::Stmt *c : s->children())
      count(c);
  };
  count(body);
  auto *compound = dyn_cast<clang::CompoundStmt>(body);
  bool tailOnly = returns == 0 ||
                  (returns == 1 && compound && !compound->body_empty() &&
                   isa<clang::ReturnStmt>(compound->body_back()));
  if (!tailOnly) {
    returned_ = allocaSlot(builder.getI8Type(), 1);
    storeFlag(returned_, false);
  }
  if (failed(emitStmt(body)) || hasFailed())
    return failure();
  Location end = loc(body->getEndLoc());
  if (returnSlot_) {
    Value v = load(returnSlot_, resultType, body->getEndLoc());
    if (!v)
      return failure();
    func::ReturnOp::create(builder, end, v);
  } else {
    func::ReturnOp::create(builder, end);
  }
  return success();
}

LogicalResult
FunctionEmitter::emitStmtList(ArrayRef<const clang::Stmt *> stmts) {
  OpBuilder::InsertionGuard guard(builder);
  for (auto [i, s] : llvm::enumerate(stmts)) {
    if (failed(emitStmt(s)))
      return failure();
    if (i + 1 < stmts.size() && mayExit(s)) {
      auto guardIf = scf::IfOp::create(builder, loc(s->getEndLoc()),
                                       stillRunning(), /*withElse=*/false);
      builder.setInsertionPoint(guardIf.thenBlock()->getTerminator());
    }
  }
  return success();
}

LogicalResult FunctionEmitter::emitVarDecl(const clang::VarDecl *var) {
  clang::SourceLocation sl = var->getLocation();
  if (var->hasAttr<clang::CUDASharedAttr>()) {
    FailureOr<LLVM::GlobalOp> g = m.sharedGlobal(var, decl);
    if (failed(g))
      return failure();
    Location l = loc(sl);
    Value addr = LLVM::AddressOfOp::create(builder, l, *g);
    locals_[var] = LLVM::AddrSpaceCastOp::create(
        builder, l, LLVM::LLVMPointerType::get(&m.context()), addr);
    return success();
  }
  if (var->isStaticLocal())
    return m.error(sl, "static local variable '" + var->getName() +
                           "' is not supported in device code");
  if (var->getType()->isVariableArrayType())
    return m.error(sl, "variable-length array '" + var->getName() +
                           "' is not supported");
  clang::QualType t = var->getType();
  if (t->isReferenceType()) {
    Value slot = allocaSlot(LLVM::LLVMPointerType::get(&m.context()), 8);
    locals_[var] = slot;
    if (!var->getInit())
      return m.error(sl, "reference '" + var->getName() + "' without initializer");
    Value addr = emitLValue(var->getInit());
    if (!addr)
      return failure();
    LLVM::StoreOp::create(builder, loc(sl), addr, slot);
    return success();
  }
  Type mt = m.memoryType(t, sl);
  if (!mt)
    return failure();
  Value slot = allocaSlot(mt, m.alignment(t));
  locals_[var] = slot;
  if (const clang::Expr *init = var->getInit())
    if (!emitInitializer(slot, init, t) && hasFailed())
      return failure();
  return hasFailed() ? failure() : success();
}

/// Whether `s` reads threadIdx (or the lane id): a condition on it may
/// differ between the threads of a block.
static bool mentionsThreadId(const clang::Stmt *s) {
  if (!s)
    return false;
  if (auto *ref = dyn_cast<clang::DeclRefExpr>(s))
    if (ref->getDecl()->getName() == "threadIdx")
      return true;
  if (auto *call = dyn_cast<clang::CallExpr>(s))
    if (const clang::FunctionDecl *fn = call->getDirectCallee())
      if (fn->getIdentifier() &&
          (fn->getName().starts_with("__nvvm_read_ptx_sreg_tid") ||
           fn->getName() == "__nvvm_read_ptx_sreg_laneid"))
        return true;
  // threadIdx.x is a property access whose base is an OpaqueValueExpr,
  // which lists no children.
  if (auto *opaque = dyn_cast<clang::OpaqueValueExpr>(s))
    return mentionsThreadId(opaque->getSourceExpr());
  for (const clang::Stmt *child : s->children())
    if (mentionsThreadId(child))
      return true;
  return false;
}

/// The condition of a branch or loop statement, if `s` is one.
static const clang::Expr *branchCondition(const clang::Stmt *s) {
  if (auto *i = dyn_cast<clang::IfStmt>(s))
    return i->getCond();
  if (auto *f = dyn_cast<clang::ForStmt>(s))
    return f->getCond();
  if (auto *w = dyn_cast<clang::WhileStmt>(s))
    return w->getCond();
  if (auto *d = dyn_cast<clang::DoStmt>(s))
    return d->getCond();
  if (auto *sw = dyn_cast<clang::SwitchStmt>(s))
    return sw->getCond();
  return nullptr;
}

LogicalResult FunctionEmitter::emitStmt(const clang::Stmt *s) {
  if (!s || hasFailed())
    return hasFailed() ? failure() : success();
  clang::SourceLocation sl = s->getBeginLoc();
  // Barriers under a condition on the thread id are diagnosed (see
  // threadConditions_).
  const clang::Stmt *cond = branchCondition(s);
  bool threadDependent = cond && mentionsThreadId(cond);
  // for (int i = threadIdx.x; i < n; ...): the trip count depends on it.
  if (auto *f = dyn_cast<clang::ForStmt>(s); !threadDependent && f &&
                                            mentionsThreadId(f->getInit())) {
    cond = f->getInit();
    threadDependent = true;
  }
  if (threadDependent)
    threadConditions_.push_back(cond);
  llvm::scope_exit pop([&] {
    if (threadDependent)
      threadConditions_.pop_back();
  });
  if (auto *c = dyn_cast<clang::CompoundStmt>(s)) {
    SmallVector<const clang::Stmt *> stmts(c->body().begin(), c->body().end());
    return emitStmtList(stmts);
  }
  if (isa<clang::NullStmt>(s))
    return success();
  if (auto *d = dyn_cast<clang::DeclStmt>(s)) {
    for (const clang::Decl *decl : d->decls())
      if (auto *var = dyn_cast<clang::VarDecl>(decl))
        if (failed(emitVarDecl(var)))
          return failure();
    return success();
  }
  if (auto *a = dyn_cast<clang::AttributedStmt>(s))
    return emitStmt(a->getSubStmt()); // #pragma unroll and the like
  if (auto *e = dyn_cast<clang::Expr>(s)) {
    emitRValue(e);
    return hasFailed() ? failure() : success();
  }
  if (auto *i = dyn_cast<clang::IfStmt>(s)) {
    if (i->isConsteval())
      return m.error(sl, "'if consteval' is not supported");
    if (i->getInit() && failed(emitStmt(i->getInit())))
      return failure();
    if (i->getConditionVariable() &&
        failed(emitVarDecl(i->getConditionVariable())))
      return failure();
    Value cond = emitCondition(i->getCond());
    if (!cond)
      return failure();
    auto op = scf::IfOp::create(builder, loc(sl), cond,
                                /*withElse=*/i->getElse() != nullptr);
    {
      OpBuilder::InsertionGuard g(builder);
      builder.setInsertionPoint(op.thenBlock()->getTerminator());
      if (failed(emitStmt(i->getThen())))
        return failure();
      if (i->getElse()) {
        builder.setInsertionPoint(op.elseBlock()->getTerminator());
        if (failed(emitStmt(i->getElse())))
          return failure();
      }
    }
    return success();
  }
  if (auto *f = dyn_cast<clang::ForStmt>(s))
    return emitLoop(f->getInit(), f->getCond(), f->getConditionVariableDeclStmt(),
                    f->getInc(), f->getBody(), false, sl);
  if (auto *w = dyn_cast<clang::WhileStmt>(s))
    return emitLoop(nullptr, w->getCond(), w->getConditionVariableDeclStmt(),
                    nullptr, w->getBody(), false, sl);
  if (auto *d = dyn_cast<clang::DoStmt>(s))
    return emitLoop(nullptr, d->getCond(), nullptr, nullptr, d->getBody(),
                    true, sl);
  if (auto *sw = dyn_cast<clang::SwitchStmt>(s))
    return emitSwitch(sw);
  if (isa<clang::BreakStmt>(s)) {
    if (loops_.empty())
      return m.error(sl, "'break' outside a loop or switch");
    storeFlag(loops_.back().broke, true);
    return success();
  }
  if (isa<clang::ContinueStmt>(s)) {
    for (auto it = loops_.rbegin(); it != loops_.rend(); ++it)
      if (it->continued) {
        storeFlag(it->continued, true);
        return success();
      }
    return m.error(sl, "'continue' outside a loop");
  }
  if (auto *r = dyn_cast<clang::ReturnStmt>(s)) {
    if (const clang::Expr *value = r->getRetValue()) {
      if (decl->getReturnType()->isVoidType()) {
        emitRValue(value); // `return f();` with f returning void
      } else if (decl->getReturnType()->isRecordType()) {
        // A struct is built (or copied) in the return slot.
        if (!emitInitializer(returnSlot_, value, decl->getReturnType()))
          return failure();
      } else {
        Value v = emitRValue(value);
        if (!v ||
            failed(store(v, returnSlot_, decl->getReturnType(), sl)))
          return failure();
      }
    }
    if (returned_)
      storeFlag(returned_, true);
    return hasFailed() ? failure() : success();
  }
  if (isa<clang::GotoStmt, clang::IndirectGotoStmt, clang::LabelStmt>(s))
    return m.error(sl, "'goto' and labels are not supported");
  if (isa<clang::AsmStmt>(s))
    return m.error(sl, "inline assembly is not supported");
  if (isa<clang::CXXTryStmt>(s))
    return m.error(sl, "exceptions are not supported in device code");
  if (isa<clang::CaseStmt, clang::DefaultStmt>(s))
    return m.error(sl, "case label outside the top level of its switch body "
                       "is not supported");
  return m.error(sl, llvm::Twine("statement '") + s->getStmtClassName() +
                         "' is not supported");
}

LogicalResult FunctionEmitter::emitLoop(const clang::Stmt *init,
                                        const clang::Expr *cond,
                                        const clang::Stmt *condVar,
                                        const clang::Expr *inc,
                                        const clang::Stmt *body,
                                        bool isDoWhile,
                                        clang::SourceLocation sl) {
  if (condVar)
    return m.error(sl, "a declaration in a loop condition is not supported");
  if (init && failed(emitStmt(init)))
    return failure();
  Location l = loc(sl);
  LoopFlags flags{allocaSlot(builder.getI8Type(), 1),
                  allocaSlot(builder.getI8Type(), 1)};
  storeFlag(flags.broke, false);
  Value first;
  if (isDoWhile) {
    first = allocaSlot(builder.getI8Type(), 1);
    storeFlag(first, true);
  }
  auto loop = scf::WhileOp::create(builder, l, TypeRange(), ValueRange());
  OpBuilder::InsertionGuard g(builder);
  // Before: keep going while nothing broke out and the condition holds;
  // the condition is evaluated only then (it may have side effects).
  Block *before = builder.createBlock(&loop.getBefore());
  builder.setInsertionPointToEnd(before);
  // `continue` does not end the loop: only break and return count here.
  Value go = constI1(true);
  if (returned_)
    go = arith::AndIOp::create(
        builder, l, go,
        arith::XOrIOp::create(builder, l, loadFlag(returned_), constI1(true)));
  go = arith::AndIOp::create(
      builder, l, go,
      arith::XOrIOp::create(builder, l, loadFlag(flags.broke), constI1(true)));
  if (cond) {
    auto check = scf::IfOp::create(builder, l, builder.getI1Type(), go,
                                   /*withElse=*/true);
    {
      OpBuilder::InsertionGuard g2(builder);
      builder.setInsertionPointToStart(check.thenBlock());
      Value c;
      if (isDoWhile) {
        auto firstIf = scf::IfOp::create(builder, l, builder.getI1Type(),
                                         loadFlag(first), true);
        builder.setInsertionPointToStart(firstIf.thenBlock());
        scf::YieldOp::create(builder, l, constI1(true));
        builder.setInsertionPointToStart(firstIf.elseBlock());
        Value cv = emitCondition(cond);
        if (!cv)
          return failure();
        scf::YieldOp::create(builder, l, cv);
        builder.setInsertionPointAfter(firstIf);
        c = firstIf.getResult(0);
      } else {
        c = emitCondition(cond);
        if (!c)
          return failure();
      }
      scf::YieldOp::create(builder, l, c);
      builder.setInsertionPointToStart(check.elseBlock());
      scf::YieldOp::create(builder, l, constI1(false));
    }
    go = check.getResult(0);
  }
  scf::ConditionOp::create(builder, l, go, ValueRange());

  Block *after = builder.createBlock(&loop.getAfter());
  builder.setInsertionPointToEnd(after);
  auto yield = scf::YieldOp::create(builder, l);
  builder.setInsertionPoint(yield);
  storeFlag(flags.continued, false);
  if (isDoWhile)
    storeFlag(first, false);
  loops_.push_back(flags);
  LogicalResult ok = emitStmt(body);
  if (succeeded(ok) && inc) {
    // The increment runs after `continue` too, not after break or return.
    Value running = constI1(true);
    if (returned_)
      running = arith::AndIOp::create(
          builder, l, running,
          arith::XOrIOp::create(builder, l, loadFlag(returned_), constI1(true)));
    running = arith::AndIOp::create(
        builder, l, running,
        arith::XOrIOp::create(builder, l, loadFlag(flags.broke), constI1(true)));
    auto incIf = scf::IfOp::create(builder, l, running, false);
    OpBuilder::InsertionGuard g3(builder);
    builder.setInsertionPoint(incIf.thenBlock()->getTerminator());
    emitRValue(inc);
    if (hasFailed())
      ok = failure();
  }
  loops_.pop_back();
  return ok;
}

LogicalResult FunctionEmitter::emitSwitch(const clang::SwitchStmt *s) {
  clang::SourceLocation sl = s->getBeginLoc();
  if (s->getInit() && failed(emitStmt(s->getInit())))
    return failure();
  if (s->getConditionVariable() && failed(emitVarDecl(s->getConditionVariable())))
    return failure();
  auto *body = dyn_cast<clang::CompoundStmt>(s->getBody());
  if (!body)
    return m.error(sl, "a switch whose body is not a compound statement is "
                       "not supported");
  clang::QualType ct = s->getCond()->getType();
  Value v = emitRValue(s->getCond());
  if (!v)
    return failure();
  Location l = loc(sl);
  // Each top-level statement with the case labels in front of it.
  struct Entry {
    SmallVector<const clang::Expr *> cases;
    bool isDefault = false;
    const clang::Stmt *stmt = nullptr;
  };
  SmallVector<Entry> entries;
  SmallVector<const clang::Expr *> allCases;
  for (const clang::Stmt *st : body->body()) {
    Entry e;
    while (true) {
      if (auto *c = dyn_cast<clang::CaseStmt>(st)) {
        if (c->caseStmtIsGNURange())
          return m.error(c->getBeginLoc(), "case ranges are not supported");
        e.cases.push_back(c->getLHS());
        allCases.push_back(c->getLHS());
        st = c->getSubStmt();
      } else if (auto *d = dyn_cast<clang::DefaultStmt>(st)) {
        e.isDefault = true;
        st = d->getSubStmt();
      } else {
        break;
      }
    }
    e.stmt = st;
    entries.push_back(e);
  }
  auto caseValue = [&](const clang::Expr *c) -> Value {
    llvm::APSInt value = c->EvaluateKnownConstInt(m.ast());
    Value cv = constInt(v.getType(), value.getSExtValue());
    return arith::CmpIOp::create(builder, l, arith::CmpIPredicate::eq, v, cv);
  };
  Value noCase = constI1(true);
  for (const clang::Expr *c : allCases)
    noCase = arith::AndIOp::create(
        builder, l, noCase,
        arith::XOrIOp::create(builder, l, caseValue(c), constI1(true)));
  (void)ct;
  Value matched = allocaSlot(builder.getI8Type(), 1);
  storeFlag(matched, false);
  LoopFlags flags{allocaSlot(builder.getI8Type(), 1), Value()};
  storeFlag(flags.broke, false);
  loops_.push_back(flags);
  for (Entry &e : entries) {
    if (!e.cases.empty() || e.isDefault) {
      Value hit = e.isDefault ? noCase : constI1(false);
      for (const clang::Expr *c : e.cases)
        hit = arith::OrIOp::create(builder, l, hit, caseValue(c));
      auto setIf = scf::IfOp::create(builder, l, hit, false);
      OpBuilder::InsertionGuard g(builder);
      builder.setInsertionPoint(setIf.thenBlock()->getTerminator());
      storeFlag(matched, true);
    }
    Value run = arith::AndIOp::create(builder, l, loadFlag(matched),
                                      stillRunning());
    auto runIf = scf::IfOp::create(builder, l, run, false);
    OpBuilder::InsertionGuard g(builder);
    builder.setInsertionPoint(runIf.thenBlock()->getTerminator());
    if (failed(emitStmt(e.stmt))) {
      loops_.pop_back();
      return failure();
    }
  }
  loops_.pop_back();
  return success();
}
