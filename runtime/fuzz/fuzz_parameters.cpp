// Fuzzes parameters files (ParameterFile::fromBytes, what tessel-run
// --parameters=FILE reads, mapped): a file that opens must list tensors
// whose bytes lie inside it, exactly their type's size, each found by its
// name; errors must be printable ASCII.
#include "fuzz_util.h"
#include "tessel/runtime/parameters.h"

using namespace tessel::rt;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  auto file = ParameterFile::fromBytes(data, size, "fuzz.safetensors");
  if (!file.ok()) {
    fuzz::checkPrintable(file.status().toString(), "parameters file error");
    return 0;
  }
  for (const ParameterFile::Tensor &t : (*file)->tensors()) {
    fuzz::check(t.type.validate().ok(), "a tensor with an invalid type");
    fuzz::check(t.data >= data && t.data + t.type.byteSize() <= data + size,
                "a tensor's bytes outside the file");
    const ParameterFile::Tensor *found = (*file)->find(t.name);
    fuzz::check(found && found->type == t.type, "a tensor not found by its name");
  }
  return 0;
}
