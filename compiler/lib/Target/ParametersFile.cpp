//===- ParametersFile.cpp - write safetensors parameter files --*- C++ -*-===//

#include "tessel/Target/ParametersFile.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/raw_ostream.h"

#include <nlohmann/json.hpp>

using namespace mlir;
using namespace mlir::tessel;

namespace {

/// The safetensors dtype of `t` (one the module format stores).
const char *dtypeOf(Type t) {
  if (t.isF64()) return "F64";
  if (t.isF32()) return "F32";
  if (t.isF16()) return "F16";
  if (t.isBF16()) return "BF16";
  if (t.isSignlessInteger(64)) return "I64";
  if (t.isSignlessInteger(32)) return "I32";
  if (t.isSignlessInteger(16)) return "I16";
  if (t.isSignlessInteger(8)) return "I8";
  if (t.isSignlessInteger(1)) return "BOOL";
  return nullptr;
}

} // namespace

LogicalResult mlir::tessel::writeParametersFile(StringRef path,
                                                ArrayRef<NamedTensor> tensors,
                                                std::string &error) {
  nlohmann::ordered_json header = nlohmann::ordered_json::object();
  header["__metadata__"] = {{"format", "tessel"}};
  uint64_t offset = 0;
  for (const NamedTensor &t : tensors) {
    const char *dtype = dtypeOf(t.type.getElementType());
    if (!dtype) {
      error = "parameter '" + t.name + "' has an element type safetensors "
              "has no name for";
      return failure();
    }
    if (header.contains(t.name)) {
      error = "parameter '" + t.name + "' is named twice";
      return failure();
    }
    header[t.name] = {{"dtype", dtype},
                      {"shape", t.type.getShape()},
                      {"data_offsets", {offset, offset + t.data.size()}}};
    offset += t.data.size();
  }
  std::string text = header.dump();
  // The data starts 8-byte aligned (the format pads the header with
  // spaces).
  text.append((8 - text.size() % 8) % 8, ' ');

  llvm::Expected<llvm::sys::fs::TempFile> temp =
      llvm::sys::fs::TempFile::create(path + ".tmp-%%%%%%");
  if (!temp) {
    error = "cannot create a file next to '" + path.str() +
            "': " + llvm::toString(temp.takeError());
    return failure();
  }
  {
    llvm::raw_fd_ostream os(temp->FD, /*shouldClose=*/false);
    uint64_t length = text.size();
    char bytes[8];
    for (int i = 0; i < 8; ++i)
      bytes[i] = static_cast<char>(length >> (8 * i));
    os.write(bytes, 8);
    os << text;
    for (const NamedTensor &t : tensors)
      os.write(reinterpret_cast<const char *>(t.data.data()), t.data.size());
    os.flush();
    if (os.has_error()) {
      error = "cannot write '" + path.str() + "': " + os.error().message();
      os.clear_error();
      llvm::consumeError(temp->discard());
      return failure();
    }
  }
  if (llvm::Error e = temp->keep(path)) {
    error = "cannot write '" + path.str() + "': " + llvm::toString(std::move(e));
    return failure();
  }
  return success();
}
