// Fuzzes the inline tensor literal parser (tessel-run --input=2x3xf32=1,2,3):
// parseTensorLiteral on arbitrary text. A parsed tensor must have exactly
// its type's bytes and print.
//
// Inputs whose type names more than 1 MiB are skipped: the literal parser
// may build tensors up to its own limit (1 GiB, tested in tensor_test), and
// filling that many bytes per run would only slow the fuzzer down.
#include "fuzz_util.h"
#include "tessel/runtime/tensor.h"

using namespace tessel::rt;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  std::string_view text(reinterpret_cast<const char *>(data), size);
  size_t eq = text.find('=');
  if (eq != std::string_view::npos) {
    std::string_view typeText = text.substr(0, eq);
    while (!typeText.empty() && (typeText.front() == ' ' || typeText.front() == '\t'))
      typeText.remove_prefix(1);
    while (!typeText.empty() && (typeText.back() == ' ' || typeText.back() == '\t'))
      typeText.remove_suffix(1);
    auto type = parseTensorType(typeText);
    if (type.ok() && type->byteSize() > (size_t(1) << 20))
      return 0;
  }
  auto t = parseTensorLiteral(text);
  if (!t.ok())
    return 0;
  fuzz::check(t->bytes.size() == t->type.byteSize(), "tensor bytes != type byte size");
  fuzz::checkPrintable(formatTensor(*t, 16), "formatted tensor");
  return 0;
}
