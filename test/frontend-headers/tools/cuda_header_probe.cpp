//===- cuda_header_probe.cpp - inspect a CUDA TU through clang's AST ------===//
//
// A test helper for Tessel's CUDA headers (compiler/lib/Frontend/CUDA/headers).
// It parses one CUDA translation unit with the clang command line given after
// `--` and prints, one fact per line:
//
//   abi <dirs>  the ABI of every declaration that comes from a file under
//               one of <dirs> (':'-separated) (functions with their mangled name and canonical type,
//               enumerators with their value, records with size, alignment
//               and field offsets, typedefs with their canonical type).
//               check_abi.py diffs this listing between Tessel's headers and
//               a CUDA toolkit.
//
//   callees     what the device code of the main file ends up calling once
//               the headers' inline wrappers are looked through: clang
//               builtins (__nvvm_*, __syncthreads, __builtin_*), external
//               device functions (libdevice __nv_*, vprintf, malloc, ...) and
//               inline asm. Run it on a device-side command line
//               (--cuda-device-only).
//
// Build: build_probe in ../common.sh (links libclang-cpp and libLLVM).
//
//===----------------------------------------------------------------------===//

#include "clang/AST/ASTConsumer.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/Attr.h"
#include "clang/AST/Mangle.h"
#include "clang/AST/RecordLayout.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/FrontendAction.h"
#include "clang/Tooling/Tooling.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/Support/raw_ostream.h"

#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

using namespace clang;

namespace {

std::string Mode, Dir;

std::string fileOf(const SourceManager &SM, SourceLocation Loc) {
  Loc = SM.getExpansionLoc(Loc);
  if (auto FE = SM.getFileEntryRefForID(SM.getFileID(Loc)))
    return std::string(FE->getName());
  return "";
}

// --- abi -------------------------------------------------------------------

class AbiVisitor : public RecursiveASTVisitor<AbiVisitor> {
public:
  AbiVisitor(ASTContext &Ctx)
      : Ctx(Ctx), SM(Ctx.getSourceManager()),
        Mangler(Ctx.createMangleContext()) {}

  bool fromDir(const Decl *D) {
    std::string F = fileOf(SM, D->getLocation());
    for (StringRef Rest = Dir; !Rest.empty();) {
      auto [Prefix, Tail] = Rest.split(':');
      if (!Prefix.empty() && StringRef(F).starts_with(Prefix))
        return true;
      Rest = Tail;
    }
    return false;
  }

  bool VisitFunctionDecl(FunctionDecl *FD) {
    if (!fromDir(FD) || !FD->getDeclContext()->getRedeclContext()->isFileContext() ||
        isa<CXXMethodDecl>(FD) || !FD->getIdentifier())
      return true;
    if (FD->getDescribedFunctionTemplate() || FD->isTemplateInstantiation())
      return true; // templates: no ABI of their own
    std::string Name;
    llvm::raw_string_ostream OS(Name);
    if (Mangler->shouldMangleDeclName(FD))
      Mangler->mangleName(GlobalDecl(FD), OS);
    else
      OS << FD->getName();
    unsigned Defaults = 0;
    for (ParmVarDecl *P : FD->parameters())
      Defaults += P->hasDefaultArg();
    std::string Kind = FD->getStorageClass() == SC_Static || FD->isInlined()
                           ? "inline"
                           : "extern";
    std::string Space = FD->hasAttr<CUDADeviceAttr>()
                            ? (FD->hasAttr<CUDAHostAttr>() ? "hd" : "d")
                            : (FD->hasAttr<CUDAGlobalAttr>() ? "g" : "h");
    Out.insert("fn " + FD->getNameAsString() + " " + Kind + " " + Space +
               " sym=" + Name + " type=" +
               FD->getType().getCanonicalType().getAsString() +
               " defaults=" + std::to_string(Defaults));
    return true;
  }

  bool VisitEnumConstantDecl(EnumConstantDecl *E) {
    if (!fromDir(E))
      return true;
    const EnumDecl *ED = cast<EnumDecl>(E->getDeclContext());
    std::string EName = ED->getName().str();
    if (EName.empty())
      if (auto *TD = ED->getTypedefNameForAnonDecl())
        EName = TD->getName().str();
    Out.insert("enum " + EName + "::" + E->getNameAsString() + " = " +
               toString(E->getInitVal(), 10));
    return true;
  }

  bool VisitTypedefNameDecl(TypedefNameDecl *TD) {
    if (!fromDir(TD) || !TD->getDeclContext()->getRedeclContext()->isFileContext())
      return true;
    Out.insert("typedef " + TD->getNameAsString() + " = " +
               TD->getUnderlyingType().getCanonicalType().getAsString());
    return true;
  }

  bool VisitRecordDecl(RecordDecl *RD) {
    if (!fromDir(RD) || !RD->isCompleteDefinition() || RD->isDependentType() ||
        !RD->getIdentifier() || !RD->getDeclContext()->getRedeclContext()->isFileContext())
      return true;
    dumpRecord(RD->getNameAsString(), RD, 0);
    return true;
  }

  void dumpRecord(const std::string &Name, const RecordDecl *RD,
                  uint64_t Base) {
    const ASTRecordLayout &L = Ctx.getASTRecordLayout(RD);
    if (Base == 0)
      Out.insert("record " + Name + " size=" +
                 std::to_string(L.getSize().getQuantity()) +
                 " align=" + std::to_string(L.getAlignment().getQuantity()));
    unsigned I = 0;
    for (const FieldDecl *F : RD->fields()) {
      uint64_t Off = Base + L.getFieldOffset(I++);
      QualType T = F->getType().getCanonicalType();
      if (F->isAnonymousStructOrUnion()) {
        // Members of anonymous unions/structs are members of the record.
        dumpRecord(Name, T->getAsRecordDecl(), Off);
        continue;
      }
      Out.insert("field " + Name + "." + F->getNameAsString() +
                 " offset=" + std::to_string(Off / 8) +
                 " type=" + T.getAsString());
    }
  }

  std::set<std::string> Out;

private:
  ASTContext &Ctx;
  const SourceManager &SM;
  std::unique_ptr<MangleContext> Mangler;
};

// --- callees -----------------------------------------------------------------

class BodyCalls : public RecursiveASTVisitor<BodyCalls> {
public:
  bool shouldVisitImplicitCode() const { return true; }
  bool shouldVisitTemplateInstantiations() const { return true; }

  bool VisitCallExpr(CallExpr *CE) {
    if (auto *FD = CE->getDirectCallee())
      Calls.insert(FD);
    return true;
  }
  bool VisitCXXConstructExpr(CXXConstructExpr *CE) {
    Calls.insert(CE->getConstructor());
    return true;
  }
  bool VisitDeclRefExpr(DeclRefExpr *DRE) {
    // Functions whose address is taken (e.g. passed to a template).
    if (auto *FD = dyn_cast<FunctionDecl>(DRE->getDecl()))
      Calls.insert(FD);
    return true;
  }
  bool VisitGCCAsmStmt(GCCAsmStmt *) {
    HasAsm = true;
    return true;
  }
  bool TraversePseudoObjectExpr(PseudoObjectExpr *E) {
    // threadIdx.x & co.: the semantic form calls the property getter.
    for (Expr *Sub : E->semantics())
      TraverseStmt(Sub);
    return true;
  }

  llvm::SetVector<const FunctionDecl *> Calls;
  bool HasAsm = false;
};

class CalleeVisitor : public RecursiveASTVisitor<CalleeVisitor> {
public:
  CalleeVisitor(ASTContext &Ctx) : Ctx(Ctx), SM(Ctx.getSourceManager()) {}
  bool shouldVisitTemplateInstantiations() const { return true; }

  bool isDeviceSide(const FunctionDecl *FD) {
    return FD->hasAttr<CUDADeviceAttr>() || FD->hasAttr<CUDAGlobalAttr>();
  }

  bool VisitFunctionDecl(FunctionDecl *FD) {
    if (!FD->doesThisDeclarationHaveABody() || !isDeviceSide(FD) ||
        FD->isDependentContext())
      return true;
    if (SM.isInMainFile(SM.getExpansionLoc(FD->getLocation())) ||
        !SM.isInSystemHeader(SM.getExpansionLoc(FD->getLocation())))
      Roots.push_back(FD);
    return true;
  }

  void run() {
    std::set<const FunctionDecl *> Seen;
    std::vector<const FunctionDecl *> Work(Roots.begin(), Roots.end());
    while (!Work.empty()) {
      const FunctionDecl *FD = Work.back();
      Work.pop_back();
      if (!Seen.insert(FD->getCanonicalDecl()).second)
        continue;
      const FunctionDecl *Def = nullptr;
      if (!FD->hasBody(Def)) {
        if (unsigned ID = FD->getBuiltinID())
          Leaves.insert("builtin " + std::string(Ctx.BuiltinInfo.getName(ID)));
        else
          Leaves.insert("extern " + FD->getNameAsString());
        continue;
      }
      if (FD->getBuiltinID()) { // builtins with a library definition
        Leaves.insert("builtin " + FD->getNameAsString());
        continue;
      }
      BodyCalls BC;
      BC.TraverseStmt(const_cast<Stmt *>(Def->getBody()));
      if (auto *Ctor = dyn_cast<CXXConstructorDecl>(Def))
        for (auto *Init : Ctor->inits())
          BC.TraverseStmt(Init->getInit());
      bool User = !SM.isInSystemHeader(SM.getExpansionLoc(Def->getLocation()));
      if (BC.HasAsm)
        Leaves.insert("asm in " + Def->getNameAsString() +
                      (User ? " (user code)" : ""));
      for (const FunctionDecl *C : BC.Calls)
        Work.push_back(C);
    }
  }

  std::vector<const FunctionDecl *> Roots;
  std::set<std::string> Leaves;

private:
  ASTContext &Ctx;
  const SourceManager &SM;
};

class Consumer : public ASTConsumer {
public:
  void HandleTranslationUnit(ASTContext &Ctx) override {
    if (Mode == "abi") {
      AbiVisitor V(Ctx);
      V.TraverseDecl(Ctx.getTranslationUnitDecl());
      for (const std::string &L : V.Out)
        llvm::outs() << L << "\n";
    } else {
      CalleeVisitor V(Ctx);
      V.TraverseDecl(Ctx.getTranslationUnitDecl());
      V.run();
      for (const std::string &L : V.Leaves)
        llvm::outs() << L << "\n";
    }
  }
};

class Action : public ASTFrontendAction {
protected:
  std::unique_ptr<ASTConsumer> CreateASTConsumer(CompilerInstance &,
                                                 StringRef) override {
    return std::make_unique<Consumer>();
  }
};

} // namespace

int main(int argc, const char **argv) {
  // cuda_header_probe abi <dir> -- <clang++ args...> <file.cu>
  // cuda_header_probe callees   -- <clang++ args...> <file.cu>
  int I = 1;
  if (argc < 3) {
    llvm::errs() << "usage: cuda_header_probe abi <dir> | callees -- <args>\n";
    return 2;
  }
  Mode = argv[I++];
  if (Mode == "abi")
    Dir = argv[I++];
  if (std::string(argv[I++]) != "--") {
    llvm::errs() << "expected --\n";
    return 2;
  }
  std::vector<std::string> Args(argv + I, argv + argc);
  // runToolOnCodeWithArgs wants the code; use the compilation database-free
  // tool with the driver command line instead.
  std::vector<std::string> CommandLine = {"clang++"};
  CommandLine.insert(CommandLine.end(), Args.begin(), Args.end());
  CommandLine.push_back("-fsyntax-only");
  auto Files = llvm::makeIntrusiveRefCnt<FileManager>(FileSystemOptions());
  tooling::ToolInvocation TI(CommandLine, std::make_unique<Action>(),
                             Files.get());
  return TI.run() ? 0 : 1;
}
