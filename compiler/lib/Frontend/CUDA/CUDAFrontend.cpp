//===- CUDAFrontend.cpp - parse a .cu file with clang, emit its kernels ----===//

#include "tessel/Frontend/CUDA/CUDAFrontend.h"

#include "CodeGen.h"

#include "tessel/Dialect/Tessel/TesselDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

#include "clang/AST/ASTConsumer.h"
#include "clang/AST/Attr.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/Driver/CreateInvocationFromArgs.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/FrontendAction.h"
#include "clang/Frontend/TextDiagnosticPrinter.h"

using namespace mlir;
using namespace mlir::tessel;

void mlir::tessel::registerCUDAFrontendDialects(DialectRegistry &registry) {
  registry.insert<arith::ArithDialect, func::FuncDialect, gpu::GPUDialect,
                  LLVM::LLVMDialect, NVVM::NVVMDialect, math::MathDialect,
                  scf::SCFDialect,
                  TesselDialect>();
}

namespace {
/// Emits every kernel of the translation unit (and, through calls, the
/// device functions they use).
class KernelCollector : public clang::ASTConsumer {
public:
  KernelCollector(MLIRContext &context, ModuleOp module, bool &ok)
      : context_(context), module_(module), ok_(ok) {}

  void HandleTranslationUnit(clang::ASTContext &ast) override {
    if (ast.getDiagnostics().hasErrorOccurred()) {
      ok_ = false;
      return;
    }
    cuda::ModuleEmitter emitter(context_, ast, module_);
    visit(emitter, ast.getTranslationUnitDecl());
    ok_ = !emitter.hadError();
  }

private:
  void visit(cuda::ModuleEmitter &emitter, const clang::DeclContext *dc) {
    for (const clang::Decl *d : dc->decls()) {
      if (auto *ns = dyn_cast<clang::NamespaceDecl>(d)) {
        visit(emitter, ns);
      } else if (auto *ls = dyn_cast<clang::LinkageSpecDecl>(d)) {
        visit(emitter, ls);
      } else if (auto *ft = dyn_cast<clang::FunctionTemplateDecl>(d)) {
        if (ft->getTemplatedDecl()->hasAttr<clang::CUDAGlobalAttr>())
          for (const clang::FunctionDecl *spec : ft->specializations())
            if (spec->hasBody() && spec->isThisDeclarationADefinition())
              (void)emitter.function(spec);
      } else if (auto *fn = dyn_cast<clang::FunctionDecl>(d)) {
        if (fn->hasAttr<clang::CUDAGlobalAttr>() && fn->hasBody() &&
            fn->isThisDeclarationADefinition() && !fn->isDependentContext())
          (void)emitter.function(fn);
      }
    }
  }

  MLIRContext &context_;
  ModuleOp module_;
  bool &ok_;
};

class ImportAction : public clang::ASTFrontendAction {
public:
  ImportAction(MLIRContext &context, ModuleOp module, bool &ok)
      : context_(context), module_(module), ok_(ok) {}
  std::unique_ptr<clang::ASTConsumer>
  CreateASTConsumer(clang::CompilerInstance &, llvm::StringRef) override {
    return std::make_unique<KernelCollector>(context_, module_, ok_);
  }

private:
  MLIRContext &context_;
  ModuleOp module_;
  bool &ok_;
};
} // namespace

/// Skips blanks (spaces, tabs, newlines) from `i`.
static size_t skipBlanks(llvm::StringRef s, size_t i) {
  while (i < s.size() && (s[i] == ' ' || s[i] == '\t' || s[i] == '\n' ||
                          s[i] == '\r'))
    ++i;
  return i;
}

std::string mlir::tessel::respaceSplitLaunches(llvm::StringRef source,
                                               unsigned &count) {
  std::string out = source.str();
  count = 0;
  for (size_t i = 0; i + 1 < out.size(); ++i) {
    // `<<` (not part of `<<<`), blanks, then `<` not followed by `<`.
    if (out[i] != '<' || out[i + 1] != '<' || (i > 0 && out[i - 1] == '<'))
      continue;
    size_t open = skipBlanks(out, i + 2);
    if (open == i + 2 || open >= out.size() || out[open] != '<' ||
        (open + 1 < out.size() && out[open + 1] == '<'))
      continue;
    // Its `>>` blanks `>`, before the end of the statement, outside any
    // template argument list the launch configuration holds.
    int depth = 0;
    size_t close = std::string::npos;
    for (size_t j = open + 1; j + 1 < out.size() && out[j] != ';'; ++j) {
      if (out[j] == '<') {
        ++depth;
      } else if (depth == 0 && out[j] == '>' && out[j + 1] == '>') {
        size_t third = skipBlanks(out, j + 2);
        if (third > j + 2 && third < out.size() && out[third] == '>')
          close = j;
        break;
      } else if (out[j] == '>') {
        --depth;
      }
    }
    if (close == std::string::npos)
      continue;
    // Same length, so that every column stays where it was.
    size_t third = skipBlanks(out, close + 2);
    std::string blanks = out.substr(close + 2, third - close - 2);
    out.replace(close, third - close + 1, ">>>" + blanks);
    blanks = out.substr(i + 2, open - i - 2);
    out.replace(i, open - i + 1, "<<<" + blanks);
    ++count;
  }
  return out;
}

std::vector<std::string>
mlir::tessel::cudaHeaderArguments(const CUDAFrontendOptions &options) {
  std::vector<std::string> args;
  if (!options.resourceDir.empty()) {
    args.push_back("-resource-dir");
    args.push_back(options.resourceDir);
  }
  if (!options.headerDir.empty()) {
    // Without a toolkit clang assumes a CUDA older than 9.2 (see
    // headers/README.md).
    args.push_back("-Xclang");
    args.push_back("-target-sdk-version=13.0");
    args.push_back("-Xclang");
    args.push_back("-fcuda-allow-variadic-functions");
    args.push_back("-nocudainc");
    args.push_back("-isystem");
    args.push_back(options.headerDir);
    args.push_back("-include");
    args.push_back("__tessel_cuda_runtime.h");
  } else {
    args.push_back("--cuda-path=" + options.cudaPath);
  }
  return args;
}

OwningOpRef<ModuleOp>
mlir::tessel::importCUDAFile(MLIRContext &context, const std::string &path,
                             const CUDAFrontendOptions &options) {
  DialectRegistry registry;
  registerCUDAFrontendDialects(registry);
  context.appendDialectRegistry(registry);
  context.loadAllAvailableDialects();

  std::vector<std::string> args = {"clang++", "-x", "cuda",
                                   "--cuda-device-only", "-fsyntax-only",
                                   "--cuda-gpu-arch=" + options.cudaArch,
                                   "-nocudalib", "-Wno-unknown-cuda-version"};
  for (std::string &a : cudaHeaderArguments(options))
    args.push_back(std::move(a));
  for (const std::string &a : options.extraArgs)
    args.push_back(a);
  args.push_back(path);
  std::vector<const char *> argv;
  for (const std::string &a : args)
    argv.push_back(a.c_str());

  auto diagOptions = std::make_unique<clang::DiagnosticOptions>();
  auto *printer = new clang::TextDiagnosticPrinter(llvm::errs(), *diagOptions);
  llvm::IntrusiveRefCntPtr<clang::DiagnosticsEngine> diags =
      clang::CompilerInstance::createDiagnostics(
          *llvm::vfs::getRealFileSystem(), *diagOptions, printer);
  // The driver's own warnings (a toolkit newer than clang knows) are noise
  // here; the compile's warnings come from the CompilerInstance below.
  diags->setIgnoreAllWarnings(true);
  clang::CreateInvocationOptions ciOptions;
  ciOptions.Diags = diags;
  std::shared_ptr<clang::CompilerInvocation> invocation =
      clang::createInvocation(argv, ciOptions);
  if (!invocation) {
    emitError(UnknownLoc::get(&context))
        << "cannot set up clang to parse '" << path << "'";
    return nullptr;
  }
  clang::CompilerInstance ci(invocation);
  ci.createVirtualFileSystem(llvm::vfs::getRealFileSystem());
  ci.createDiagnostics(new clang::TextDiagnosticPrinter(
                           llvm::errs(), ci.getDiagnosticOpts()),
                       /*ShouldOwnClient=*/true);

  OwningOpRef<ModuleOp> module =
      ModuleOp::create(FileLineColLoc::get(&context, path, 1, 1));
  bool ok = false;
  ImportAction action(context, *module, ok);
  if (!ci.ExecuteAction(action) || !ok ||
      ci.getDiagnostics().hasErrorOccurred())
    return nullptr;
  return module;
}
