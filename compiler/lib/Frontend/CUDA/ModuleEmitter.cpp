//===- ModuleEmitter.cpp - types, functions and globals of a .cu file ------===//

#include "CodeGen.h"

#include "tessel/Dialect/Tessel/TesselDialect.h"

#include "clang/AST/Attr.h"
#include "clang/AST/RecordLayout.h"
#include "clang/Basic/SourceManager.h"

using namespace mlir;
using namespace mlir::tessel;
using namespace mlir::tessel::cuda;

ModuleEmitter::ModuleEmitter(MLIRContext &context, clang::ASTContext &ast,
                             ModuleOp module)
    : context_(context), ast_(ast), module_(module),
      mangler_(ast.createMangleContext()) {}

Location ModuleEmitter::loc(clang::SourceLocation sl) {
  const clang::SourceManager &sm = ast_.getSourceManager();
  clang::PresumedLoc p = sm.getPresumedLoc(sm.getExpansionLoc(sl));
  if (p.isInvalid())
    return UnknownLoc::get(&context_);
  return FileLineColLoc::get(&context_, p.getFilename(), p.getLine(),
                             p.getColumn());
}

LogicalResult ModuleEmitter::error(clang::SourceLocation sl,
                                   const llvm::Twine &message) {
  hadError_ = true;
  return emitError(loc(sl)) << message.str();
}

uint64_t ModuleEmitter::alignment(clang::QualType t) {
  return ast_.getTypeAlignInChars(t).getQuantity();
}

Type ModuleEmitter::valueType(clang::QualType t, clang::SourceLocation sl) {
  clang::QualType c = t.getCanonicalType();
  if (c->isBooleanType())
    return IntegerType::get(&context_, 1);
  return memoryType(t, sl);
}

Type ModuleEmitter::memoryType(clang::QualType t, clang::SourceLocation sl) {
  clang::QualType c = t.getCanonicalType();
  const clang::Type *ty = c.getTypePtr();
  if (ty->isVoidType())
    return LLVM::LLVMVoidType::get(&context_);
  if (ty->isBooleanType())
    return IntegerType::get(&context_, 8);
  if (ty->isIntegerType()) // char, short, int, long, enums
    return IntegerType::get(&context_, ast_.getTypeSize(c));
  if (auto *b = dyn_cast<clang::BuiltinType>(ty)) {
    switch (b->getKind()) {
    case clang::BuiltinType::Float:
      return Float32Type::get(&context_);
    case clang::BuiltinType::Double:
      return Float64Type::get(&context_);
    default:
      break;
    }
  }
  if (ty->isPointerType() || ty->isReferenceType())
    return LLVM::LLVMPointerType::get(&context_);
  if (auto *a = dyn_cast<clang::ConstantArrayType>(ty)) {
    Type element = memoryType(a->getElementType(), sl);
    return element ? LLVM::LLVMArrayType::get(element, a->getZExtSize())
                   : Type();
  }
  if (auto *a = dyn_cast<clang::IncompleteArrayType>(ty)) {
    Type element = memoryType(a->getElementType(), sl);
    return element ? LLVM::LLVMArrayType::get(element, 0) : Type();
  }
  if (const clang::RecordDecl *rd = ty->getAsRecordDecl()) {
    auto it = records_.find(rd);
    if (it != records_.end())
      return it->second;
    if (rd->isUnion()) {
      (void)error(sl, "union type '" + c.getAsString() + "' is not supported");
      return Type();
    }
    if (auto *cxx = dyn_cast<clang::CXXRecordDecl>(rd))
      if (cxx->getNumBases() || cxx->isPolymorphic()) {
        (void)error(sl, "class '" + c.getAsString() +
                            "' has base classes or virtual functions, which "
                            "are not supported");
        return Type();
      }
    // Laid out exactly as clang lays it out: a packed struct with explicit
    // padding before fields and at the end.
    const clang::ASTRecordLayout &layout = ast_.getASTRecordLayout(rd);
    SmallVector<Type> fields;
    uint64_t offset = 0;
    auto pad = [&](uint64_t to) {
      if (to > offset)
        fields.push_back(LLVM::LLVMArrayType::get(
            IntegerType::get(&context_, 8), to - offset));
      offset = to;
    };
    for (const clang::FieldDecl *f : rd->fields()) {
      if (f->isBitField()) {
        (void)error(f->getLocation(), "bit-field '" + f->getName() +
                                          "' is not supported");
        return Type();
      }
      uint64_t at = layout.getFieldOffset(f->getFieldIndex()) / 8;
      pad(at);
      Type ft = memoryType(f->getType(), f->getLocation());
      if (!ft)
        return Type();
      fieldIndices_[f] = fields.size();
      fields.push_back(ft);
      offset = at + ast_.getTypeSizeInChars(f->getType()).getQuantity();
    }
    pad(layout.getSize().getQuantity());
    Type st = LLVM::LLVMStructType::getLiteral(&context_, fields,
                                               /*isPacked=*/true);
    records_[rd] = st;
    return st;
  }
  (void)error(sl, "type '" + t.getAsString() + "' is not supported");
  return Type();
}

unsigned ModuleEmitter::fieldIndex(const clang::FieldDecl *field) {
  return fieldIndices_.lookup(field);
}

std::string ModuleEmitter::mangledName(const clang::FunctionDecl *fn) {
  if (!mangler_->shouldMangleDeclName(fn))
    return fn->getNameAsString();
  std::string name;
  llvm::raw_string_ostream os(name);
  mangler_->mangleName(clang::GlobalDecl(fn), os);
  return name;
}

FailureOr<func::FuncOp>
ModuleEmitter::function(const clang::FunctionDecl *decl) {
  decl = decl->getDefinition() ? decl->getDefinition() : decl;
  // A function still being emitted is on the call stack: a call of it
  // recurses (its func.func exists already, so look here first).
  if (inProgress_.contains(decl)) {
    (void)error(decl->getLocation(),
                "recursive call of '" + decl->getNameAsString() +
                    "': device code must not recurse (not supported)");
    return failure();
  }
  if (auto fn = functions_.lookup(decl))
    return fn;
  if (!decl->hasBody()) {
    (void)error(decl->getLocation(),
                "'" + decl->getNameAsString() +
                    "' has no definition visible to the device compiler");
    return failure();
  }
  if (auto *method = dyn_cast<clang::CXXMethodDecl>(decl))
    if (!method->isStatic()) {
      (void)error(decl->getLocation(),
                  "member function '" + decl->getQualifiedNameAsString() +
                      "' is not supported (only static member functions)");
      return failure();
    }
  if (decl->isVariadic()) {
    (void)error(decl->getLocation(), "variadic function '" +
                                         decl->getNameAsString() +
                                         "' is not supported");
    return failure();
  }
  bool isKernel = decl->hasAttr<clang::CUDAGlobalAttr>();
  SmallVector<Type> inputs;
  for (const clang::ParmVarDecl *p : decl->parameters()) {
    Type t = valueType(p->getType(), p->getLocation());
    if (!t)
      return failure();
    inputs.push_back(t);
  }
  SmallVector<Type> results;
  if (!decl->getReturnType()->isVoidType()) {
    Type t = valueType(decl->getReturnType(), decl->getLocation());
    if (!t)
      return failure();
    results.push_back(t);
  }
  OpBuilder b(&context_);
  b.setInsertionPointToEnd(module_.getBody());
  auto fn = func::FuncOp::create(b, loc(decl->getLocation()),
                                 mangledName(decl),
                                 b.getFunctionType(inputs, results));
  if (isKernel) {
    fn->setAttr(kCUDAKernelAttr, b.getUnitAttr());
    // The launch copies this many bytes per argument (the module's
    // Export.parameter_sizes).
    SmallVector<int64_t> sizes;
    for (const clang::ParmVarDecl *p : decl->parameters())
      sizes.push_back(ast_.getTypeSizeInChars(p->getType()).getQuantity());
    fn->setAttr(kCUDAParameterSizesAttr, b.getDenseI64ArrayAttr(sizes));
  } else {
    fn.setPrivate();
  }
  fn->setAttr("tessel.source_name",
              b.getStringAttr(decl->getQualifiedNameAsString()));
  functions_[decl] = fn;
  inProgress_.insert(decl);
  FunctionEmitter emitter(*this, decl, fn);
  LogicalResult ok = emitter.emitBody();
  inProgress_.erase(decl);
  if (failed(ok))
    return failure();
  return fn;
}

FailureOr<LLVM::GlobalOp>
ModuleEmitter::sharedGlobal(const clang::VarDecl *var,
                            const clang::FunctionDecl *owner) {
  if (auto g = shared_.lookup(var))
    return g;
  bool dynamic = var->getType()->isIncompleteArrayType();
  if (!dynamic && var->hasInit() &&
      !isa<clang::CXXConstructExpr>(var->getInit())) {
    (void)error(var->getLocation(),
                "__shared__ variable '" + var->getName() +
                    "' has an initializer, which CUDA does not allow");
    return failure();
  }
  Type t = memoryType(var->getType(), var->getLocation());
  if (!t)
    return failure();
  OpBuilder b(&context_);
  b.setInsertionPointToStart(module_.getBody());
  // PTX names may not contain '.': '_' joins the parts. Every `extern
  // __shared__` array is the launch's one dynamic buffer (they alias, as in
  // CUDA), typed as bytes; accesses carry their own element types.
  std::string name = dynamic ? std::string("__tessel_dynamic_shared")
                             : mangledName(owner) + "_" + var->getNameAsString();
  if (dynamic)
    t = LLVM::LLVMArrayType::get(IntegerType::get(&context_, 8), 0);
  // Each static variable gets its own global; every `extern __shared__`
  // declaration names the one dynamic buffer.
  if (dynamic)
    if (auto existing = module_.lookupSymbol<LLVM::GlobalOp>(name)) {
      shared_[var] = existing;
      return existing;
    }
  while (module_.lookupSymbol(name))
    name += "_";
  auto g = LLVM::GlobalOp::create(
      b, loc(var->getLocation()), t, /*isConstant=*/false,
      dynamic ? LLVM::Linkage::External : LLVM::Linkage::Internal, name,
      /*value=*/Attribute(),
      dynamic ? std::max<uint64_t>(16, alignment(var->getType()))
              : alignment(var->getType()),
      kCUDASharedAddressSpace);
  if (dynamic)
    g->setAttr(kCUDADynamicSharedAttr, b.getUnitAttr());
  shared_[var] = g;
  return g;
}

LLVM::GlobalOp ModuleEmitter::stringGlobal(StringRef bytes) {
  auto it = strings_.find(bytes);
  if (it != strings_.end())
    return it->second;
  OpBuilder b(&context_);
  b.setInsertionPointToStart(module_.getBody());
  std::string name = "__tessel_str_" + std::to_string(strings_.size());
  auto type = LLVM::LLVMArrayType::get(b.getI8Type(), bytes.size());
  auto g = LLVM::GlobalOp::create(b, b.getUnknownLoc(), type, true,
                                  LLVM::Linkage::Private, name,
                                  b.getStringAttr(bytes), 1);
  strings_[bytes] = g;
  return g;
}
