// Fuzzes module loading: Module::describeBytes (what tessel-run
// --print-module prints: every verifier, bound and name check), then, for
// modules without dispatches, Module::loadBytes on the cpu device and a
// call of every function with zero-filled inputs.
//
// Re-sealing: the loader checks the file's crc32 first, so a mutated input
// would almost never get further. Each input is therefore treated as a
// FlatBuffer (a trailing trailer is dropped), each Binary.crc32 is set to
// the crc32 of its data when the buffer verifies, and a fresh trailer is
// appended, as the writer does (runtime/src/module/integrity.h). The
// checksum checks themselves are covered by module_test.
//
// Not executed: machine code. A module with a dispatch would dlopen its cpu
// binary (fuzzed bytes: running them means nothing and can crash anywhere),
// so such modules are only described, and calls are limited to functions
// without dispatches (their results come from argument, constant and
// transient slots) and to programs without backward branches. Calls needing
// more than 64 MiB of buffers are skipped, and the device refuses more
// (memory limit): allocating until the host runs out is not a parser bug.
#include "fuzz_util.h"
#include "module/integrity.h"
#include "module_generated.h"
#include "tessel/runtime/device.h"
#include "tessel/runtime/module.h"

#include <cstring>

using namespace tessel::rt;
namespace fb = tessel::fb;

namespace {

constexpr uint64_t kMaxCallBytes = uint64_t(64) << 20;

std::vector<uint8_t> reseal(const uint8_t *data, size_t size) {
  std::vector<uint8_t> bytes(data, data + size);
  if (size >= detail::kTrailerSize &&
      std::memcmp(data + size - detail::kTrailerSize, "TMODTAIL", 8) == 0)
    bytes.resize(size - detail::kTrailerSize);
  flatbuffers::Verifier verifier(bytes.data(), bytes.size());
  if (fb::VerifyModuleBuffer(verifier)) {
    // Read everything first, then write: tables of a verified buffer may
    // overlap, so a crc32 written into one binary can change another's
    // offsets (which then no longer verify; the loader will say so).
    std::vector<std::pair<uint8_t *, uint32_t>> fields;
    const fb::Module *m = fb::GetModule(bytes.data());
    if (m->executables())
      for (const fb::Executable *e : *m->executables())
        if (e && e->binaries())
          for (const fb::Binary *b : *e->binaries()) {
            if (!b)
              continue;
            // Generated tables inherit flatbuffers::Table privately; a
            // C-style cast is the base conversion that ignores access.
            // Only a crc32 field present in the buffer can be rewritten:
            // an absent one reads 0 and fails the check unless the data's
            // crc32 is 0.
            auto *table = (const flatbuffers::Table *)(b);
            const uint8_t *field = table->GetAddressOf(fb::Binary::VT_CRC32);
            if (field)
              fields.emplace_back(
                  const_cast<uint8_t *>(field),
                  b->data() ? detail::crc32Of(b->data()->data(), b->data()->size())
                            : detail::crc32Of(nullptr, 0));
          }
    for (auto [field, crc] : fields)
      for (int i = 0; i < 4; ++i)
        field[i] = static_cast<uint8_t>(crc >> (8 * i));
  }
  std::vector<uint8_t> trailer = detail::makeTrailer(bytes.data(), bytes.size());
  bytes.insert(bytes.end(), trailer.begin(), trailer.end());
  return bytes;
}

// Whether a call of every function stays safe and small: no dispatch in
// the module (loading would dlopen its binary) and at most kMaxCallBytes of
// arguments and slots per function.
bool callable(const fb::Module *m) {
  if (m->functions())
    for (const fb::Function *f : *m->functions()) {
      if (f->dispatches() && f->dispatches()->size() > 0)
        return false;
      // A program: no Dispatch and no backward branch (a loop may
      // legitimately never end); its Allocs are bounded by the device's
      // memory limit.
      if (f->program() && f->program()->instructions()) {
        const auto &code = *f->program()->instructions();
        for (uint32_t i = 0; i < code.size(); ++i) {
          const fb::Instruction *in = code.Get(i);
          if (!in)
            continue;
          if (in->opcode() == fb::Opcode_Dispatch)
            return false;
          bool branch =
              in->opcode() == fb::Opcode_Branch || in->opcode() == fb::Opcode_CondBranch;
          if (branch && in->operands())
            for (uint32_t k = in->opcode() == fb::Opcode_Branch ? 0 : 1;
                 k < in->operands()->size(); ++k)
              if (in->operands()->Get(k) <= int64_t(i))
                return false;
        }
      }
      uint64_t total = 0;
      if (f->slots())
        for (const fb::Slot *s : *f->slots())
          total += std::min<uint64_t>(s->byte_size(), kMaxCallBytes + 1);
      if (total > kMaxCallBytes)
        return false;
    }
  return true;
}

// The type a call passes for signature type `t`: each dynamic dimension
// ("?") as 2.
TensorType callType(TensorType t) {
  for (int64_t &d : t.shape)
    if (d == kDynamicDim)
      d = 2;
  return t;
}

// Whether `actual` (a result, static) is of signature type `t`.
bool matches(const TensorType &t, const TensorType &actual) {
  if (t.elementType != actual.elementType || t.shape.size() != actual.shape.size())
    return false;
  for (size_t d = 0; d < t.shape.size(); ++d)
    if (t.shape[d] != kDynamicDim && t.shape[d] != actual.shape[d])
      return false;
  return true;
}

std::shared_ptr<Device> cpuDevice() {
  static std::shared_ptr<Device> device = [] {
    DeviceOptions options;
    options.memoryLimit = kMaxCallBytes;
    auto d = createDevice("cpu", options);
    fuzz::check(d.ok(), "cpu device: " + d.status().toString());
    return *d;
  }();
  return device;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  std::vector<uint8_t> bytes = reseal(data, size);
  auto description = Module::describeBytes(bytes, "fuzz.tmod");
  if (!description.ok()) {
    fuzz::checkPrintable(description.status().toString(), "describe error");
    return 0;
  }
  fuzz::checkPrintable(*description, "description", /*newlines=*/true);
  // describeBytes succeeded, so the buffer verified.
  if (!callable(fb::GetModule(bytes.data())))
    return 0;
  auto module = Module::loadBytes(cpuDevice(), bytes, "fuzz.tmod");
  if (!module.ok()) {
    fuzz::checkPrintable(module.status().toString(), "load error");
    return 0;
  }
  fuzz::check((*module)->describe() == *description, "describe() differs from describeBytes");
  for (const Function &f : (*module)->functions()) {
    uint64_t argBytes = 0;
    std::vector<TensorType> types;
    for (const TensorType &t : f.arguments()) {
      types.push_back(callType(t));
      // Twice a large static part may be too large: such calls are skipped.
      argBytes += types.back().validate().ok()
                      ? std::min<uint64_t>(types.back().byteSize(), kMaxCallBytes + 1)
                      : kMaxCallBytes + 1;
    }
    if (argBytes > kMaxCallBytes)
      continue;
    std::vector<HostTensor> inputs;
    for (const TensorType &t : types)
      inputs.push_back(HostTensor::zeros(t));
    auto results = f.call(inputs);
    if (!results.ok()) {
      fuzz::checkPrintable(results.status().toString(), "call error");
      continue;
    }
    fuzz::check(results->size() == f.results().size(), "result count of " + f.name());
    for (size_t i = 0; i < results->size(); ++i)
      fuzz::check(matches(f.results()[i], (*results)[i].type) &&
                      (*results)[i].bytes.size() == (*results)[i].type.byteSize(),
                  "result " + std::to_string(i) + " of " + f.name());
  }
  return 0;
}
