// Parameter files: the named tensors (a model's weights) that a module's
// external parameters are read from when it is loaded (schema/module.fbs
// `Parameter` without data; tessel-run --parameters=FILE).
//
// The format is safetensors, as Hugging Face, torch and tessel-compile
// --parameters-file write it: an 8-byte little-endian header length N, N
// bytes of JSON mapping each tensor name to {"dtype", "shape",
// "data_offsets": [begin, end]} (offsets into the data that follows the
// header; an optional "__metadata__" entry of strings), then the data,
// little-endian, row-major. Element types: F64, F32, F16, BF16, I64, I32,
// I16, I8 and BOOL (one byte each), Tessel's types. Opening maps the file
// and checks the whole header: every entry's type and shape, and that its
// bytes lie in the file; a truncated or malformed file is an error naming
// the file and the tensor, never a crash.
#pragma once

#include "tessel/runtime/status.h"
#include "tessel/runtime/types.h"

#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace tessel::rt {

class ParameterFile {
public:
  /// One tensor of the file; `data` points into the mapped file
  /// (type.byteSize() bytes, no particular alignment).
  struct Tensor {
    std::string name;
    TensorType type;
    const uint8_t *data = nullptr;
  };

  /// Maps and checks `path`.
  static StatusOr<std::shared_ptr<const ParameterFile>> open(const std::string &path);
  /// Checks `bytes` (kept alive by the caller for the object's lifetime);
  /// `name` stands for the file in errors.
  static StatusOr<std::shared_ptr<const ParameterFile>> fromBytes(const uint8_t *bytes,
                                                                  size_t size,
                                                                  const std::string &name);
  ~ParameterFile();
  ParameterFile(const ParameterFile &) = delete;
  ParameterFile &operator=(const ParameterFile &) = delete;

  /// The file name (or the name given to fromBytes).
  const std::string &name() const { return name_; }
  /// In the order of their data in the file.
  const std::vector<Tensor> &tensors() const { return tensors_; }
  /// The tensor called `name`, or null.
  const Tensor *find(std::string_view name) const;

private:
  ParameterFile() = default;
  std::string name_;
  std::vector<Tensor> tensors_;
  void *mapping_ = nullptr; ///< munmap'ed by the destructor (open only)
  size_t mappedBytes_ = 0;
};

} // namespace tessel::rt
