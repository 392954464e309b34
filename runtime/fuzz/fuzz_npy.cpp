// Fuzzes .npy parsing (parseNpy, as tessel-run --input=@f.npy reads a file)
// with each raw-bits convention (no expectation, bf16, i1 expected). A
// parsed tensor must have exactly its type's bytes, print, and survive
// encodeNpy -> parseNpy unchanged. Errors must be printable ASCII.
#include "fuzz_util.h"
#include "tessel/runtime/npy.h"

using namespace tessel::rt;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  std::vector<uint8_t> bytes(data, data + size);
  for (std::optional<ElementType> expected :
       {std::optional<ElementType>(), std::optional(ElementType::bf16),
        std::optional(ElementType::i1)}) {
    auto t = parseNpy(bytes, "fuzz.npy", expected);
    if (!t.ok()) {
      fuzz::checkPrintable(t.status().toString(), "npy error");
      continue;
    }
    fuzz::check(t->bytes.size() == t->type.byteSize(), "tensor bytes != type byte size");
    fuzz::checkPrintable(formatTensor(*t, 16), "formatted tensor");
    auto again = parseNpy(encodeNpy(*t), "round-trip.npy", t->type.elementType);
    fuzz::check(again.ok(), "re-encoded tensor does not parse: " + again.status().toString());
    fuzz::check(again->type == t->type && again->bytes == t->bytes, "round trip changed the tensor");
  }
  return 0;
}
