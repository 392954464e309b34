// Loading cuda binaries: selection by format and arch, a structural check of
// cubin ELF headers (so a truncated image is an error before the driver
// parses it), PTX passed as a NUL-terminated copy with the JIT error log
// captured, then one CUfunction per export with its launch limits checked.
#include "hal/cuda/cuda_executable.h"

#include "printable_text.h"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <optional>

namespace tessel::rt::hal::cuda {

namespace {

constexpr size_t kJitLogBytes = 16 * 1024;
constexpr uint32_t kDefaultDynamicSharedLimit = 48 * 1024;

// "sm_90" / "sm_90a" / "compute_80" -> 90 / 90 / 80; nullopt otherwise.
// `suffix` receives what follows the digits ("a", "f" or "").
std::optional<int> archNumber(const std::string &arch, std::string *suffix = nullptr) {
  size_t start;
  if (arch.rfind("sm_", 0) == 0)
    start = 3;
  else if (arch.rfind("compute_", 0) == 0)
    start = 8;
  else
    return std::nullopt;
  size_t end = start;
  while (end < arch.size() && end - start < 4 && arch[end] >= '0' && arch[end] <= '9')
    ++end;
  if (end == start)
    return std::nullopt;
  if (suffix)
    *suffix = arch.substr(end);
  return std::stoi(arch.substr(start, end - start));
}

// The fields of an ELF64 header the check needs (little-endian, as cubins are).
template <typename T> T readLE(const uint8_t *p) {
  T v;
  std::memcpy(&v, p, sizeof(T));
  return v;
}

Status checkCubin(const uint8_t *data, size_t size) {
  constexpr size_t kEhdrSize = 64;
  if (size < kEhdrSize)
    return dataLoss("cubin is truncated (" + std::to_string(size) + " bytes)");
  if (std::memcmp(data, "\x7f" "ELF", 4) != 0)
    return dataLoss("cubin is not an ELF file");
  if (data[4] != 2 /*ELFCLASS64*/ || data[5] != 1 /*ELFDATA2LSB*/)
    return failedPrecondition("cubin is not 64-bit little-endian");
  constexpr uint16_t kEmCuda = 190;
  if (readLE<uint16_t>(data + 18) != kEmCuda)
    return failedPrecondition("ELF file is not a CUDA cubin (e_machine " +
                              std::to_string(readLE<uint16_t>(data + 18)) + ")");
  uint64_t phoff = readLE<uint64_t>(data + 32), shoff = readLE<uint64_t>(data + 40);
  uint16_t phentsize = readLE<uint16_t>(data + 54), phnum = readLE<uint16_t>(data + 56);
  uint16_t shentsize = readLE<uint16_t>(data + 58), shnum = readLE<uint16_t>(data + 60);
  auto inside = [&](uint64_t off, uint64_t count, uint64_t entry) {
    return off <= size && count * entry <= size - off;
  };
  if (!inside(phoff, phnum, phentsize) || !inside(shoff, shnum, shentsize))
    return dataLoss("cubin is truncated (headers lie outside the image)");
  // Every section's contents must lie inside the image as well (64-byte
  // Elf64_Shdr: sh_type at 4, sh_offset at 24, sh_size at 32).
  if (shentsize >= 40)
    for (uint16_t i = 0; i < shnum; ++i) {
      const uint8_t *sh = data + shoff + uint64_t(i) * shentsize;
      constexpr uint32_t kShtNobits = 8;
      if (readLE<uint32_t>(sh + 4) == kShtNobits)
        continue;
      if (!inside(readLE<uint64_t>(sh + 24), readLE<uint64_t>(sh + 32), 1))
        return dataLoss("cubin is truncated (section " + std::to_string(i) +
                        " lies outside the image)");
    }
  return Status();
}

std::string join(const std::vector<std::string> &items) {
  std::string s;
  for (const std::string &i : items)
    s += (s.empty() ? "" : ", ") + i;
  return s.empty() ? "none" : s;
}

std::string trimLog(const char *log) {
  std::string s(log, strnlen(log, kJitLogBytes));
  while (!s.empty() && (s.back() == '\n' || s.back() == ' ' || s.back() == '\0'))
    s.pop_back();
  return s;
}

// Loads an image; for PTX `errorLog` receives the JIT compiler's messages.
CUresult loadImage(const CudaApi &api, const std::vector<uint64_t> &image, CUmodule *module,
                   std::string *errorLog) {
  std::vector<char> errors(kJitLogBytes, '\0'), info(kJitLogBytes, '\0');
  CUjit_option options[] = {CU_JIT_ERROR_LOG_BUFFER, CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES,
                            CU_JIT_INFO_LOG_BUFFER, CU_JIT_INFO_LOG_BUFFER_SIZE_BYTES};
  // Size options are passed by value in the pointer slot (the driver's ABI).
  void *values[] = {errors.data(), reinterpret_cast<void *>(uintptr_t(kJitLogBytes - 1)),
                    info.data(), reinterpret_cast<void *>(uintptr_t(kJitLogBytes - 1))};
  CUresult r = api.cuModuleLoadDataEx(module, image.data(), 4, options, values);
  *errorLog = trimLog(errors.data());
  return r;
}

// A copy of the binary in 8-byte aligned storage (the flatbuffer gives no
// alignment guarantee; the ELF parser reads 64-bit fields), NUL-terminated
// for PTX, which the driver reads as a C string.
std::vector<uint64_t> alignedCopy(const BinaryInfo &b) {
  std::vector<uint64_t> words(b.size / 8 + 1, 0);
  if (b.size)
    std::memcpy(words.data(), b.data, b.size);
  return words;
}

} // namespace

StatusOr<BinaryChoice> chooseBinaries(const ExecutableSpec &spec, int ccMajor, int ccMinor,
                                      const std::string &archOverride) {
  const int deviceArch = ccMajor * 10 + ccMinor;
  const std::string device = "sm_" + std::to_string(ccMajor) + std::to_string(ccMinor);
  std::optional<int> overrideArch;
  if (!archOverride.empty()) {
    std::string suffix;
    overrideArch = archOverride.rfind("sm_", 0) == 0 ? archNumber(archOverride, &suffix)
                                                     : std::nullopt;
    if (!overrideArch || !(suffix.empty() || suffix == "a"))
      return invalidArgument("TESSEL_CUDA_ARCH='" + printableText(archOverride, 64) +
                             "' is not a CUDA arch like sm_80 or sm_90a");
    if (*overrideArch > deviceArch)
      return failedPrecondition("TESSEL_CUDA_ARCH=" + archOverride + " is newer than this " +
                                device + " device: its code cannot run here");
  }

  // TMA needs Hopper or newer: a kernel taking maps cannot run below 9.0.
  if (ccMajor < 9)
    for (const ExportInfo &e : spec.exports)
      if (!e.tensorMaps.empty())
        return failedPrecondition("export '" + e.name + "' takes TMA tensor maps, which need "
                                  "compute capability 9.0 or newer, and this device is " +
                                  device);

  BinaryChoice choice;
  int ptxArch = -1;
  bool allArchSpecific = !spec.binaries.empty(), anyOverride = false;
  std::vector<std::string> seen, archs;
  for (const BinaryInfo &b : spec.binaries) {
    seen.push_back(b.format + " " + b.arch);
    if (std::find(archs.begin(), archs.end(), b.arch) == archs.end())
      archs.push_back(b.arch);
    std::string suffix;
    std::optional<int> arch = archNumber(b.arch, &suffix);
    allArchSpecific &= arch && suffix == "a";
    if (!arch || !(suffix.empty() || suffix == "a"))
      continue;
    if (overrideArch && b.arch != archOverride)
      continue;
    anyOverride = true;
    // Arch-specific code (sm_90a) runs only on that exact arch; a binary
    // for a newer arch never runs.
    if (*arch > deviceArch || (suffix == "a" && *arch != deviceArch))
      continue;
    if (b.format == "cubin" && *arch == deviceArch && !choice.cubin)
      choice.cubin = &b;
    // The newest usable PTX; at equal arch the arch-specific one.
    if (b.format == "ptx" && (*arch > ptxArch || (*arch == ptxArch && suffix == "a"))) {
      choice.ptx = &b;
      ptxArch = *arch;
    }
  }
  if (choice.cubin || choice.ptx)
    return choice;
  std::string binaries = " (binaries: " + join(seen) + ")";
  if (overrideArch && !anyOverride)
    return notFound("no binary for TESSEL_CUDA_ARCH=" + archOverride + binaries);
  if (allArchSpecific)
    return failedPrecondition("built only for " + join(archs) +
                              ": arch-specific code runs only on that exact compute "
                              "capability, and this device is " + device + binaries);
  if (overrideArch)
    return notFound("no " + archOverride + " binary runs on this " + device + " device (a "
                    "cubin must match the device's arch exactly)" + binaries);
  return notFound("no cubin for " + device + " and no ptx for " + device + " or older" +
                  binaries);
}

StatusOr<std::string> describeChoice(const ExecutableSpec &spec, int ccMajor, int ccMinor,
                                     const std::string &archOverride) {
  TESSEL_ASSIGN_OR_RETURN(BinaryChoice choice,
                          chooseBinaries(spec, ccMajor, ccMinor, archOverride));
  if (choice.cubin)
    return "cubin " + choice.cubin->arch;
  return "ptx " + choice.ptx->arch + " (JIT for sm_" + std::to_string(ccMajor) +
         std::to_string(ccMinor) + ")";
}

std::string cudaArchOverride() {
  const char *env = std::getenv("TESSEL_CUDA_ARCH");
  return env ? env : "";
}

StatusOr<std::shared_ptr<CudaExecutable>> CudaExecutable::load(std::shared_ptr<CudaContext> ctx,
                                                               const ExecutableSpec &spec) {
  auto fail = [&](const Status &s) { return s.withContext("executable '" + spec.name + "'"); };
  const CudaApi &api = ctx->api();
  auto chosen = chooseBinaries(spec, ctx->ccMajor(), ctx->ccMinor(), cudaArchOverride());
  if (!chosen.ok())
    return fail(chosen.status());
  const BinaryInfo *cubin = chosen->cubin, *ptx = chosen->ptx;

  std::shared_ptr<CudaExecutable> exe(new CudaExecutable(ctx));
  // Declared after `exe`, so released before a failed `exe` is destroyed
  // (its destructor takes the lock to unload the module).
  std::lock_guard<std::mutex> lock(ctx->mutex());
  TESSEL_RETURN_IF_ERROR(ctx->enter());
  std::string cubinError;
  if (cubin) {
    Status s = checkCubin(cubin->data, cubin->size);
    std::string log;
    if (s.ok()) {
      CUresult r = loadImage(api, alignedCopy(*cubin), &exe->module_, &log);
      s = cudaStatus(api, r, "loading the cubin for " + cubin->arch);
      if (!s.ok() && !log.empty())
        s = Status(s.code(), s.message() + "\n" + log);
    }
    if (s.ok())
      exe->loadedBinary_ = "cubin " + cubin->arch;
    else if (!ptx)
      return fail(s);
    else
      cubinError = s.message();
  }
  if (!exe->module_) {
    if (ptx->size == 0)
      return fail(dataLoss("ptx for " + ptx->arch + " is empty"));
    std::string log;
    CUresult r = loadImage(api, alignedCopy(*ptx), &exe->module_, &log);
    Status s = cudaStatus(api, r, "JIT-compiling the ptx for " + ptx->arch + " on " + ctx->arch());
    if (!s.ok()) {
      std::string message = s.message();
      if (!log.empty())
        message += "\nJIT log:\n" + log;
      if (!cubinError.empty())
        message += "\n(the cubin was not usable either: " + cubinError + ")";
      return fail(Status(s.code(), message));
    }
    exe->loadedBinary_ = "ptx " + ptx->arch + " (JIT for " + ctx->arch() + ")";
  }

  const int optinShared = ctx->attribute(CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN);
  exe->exports_ = spec.exports;
  for (ExportInfo &e : exe->exports_) {
    std::string ectx = "export '" + e.name + "'";
    CUfunction f = nullptr;
    CUresult r = api.cuModuleGetFunction(&f, exe->module_, e.name.c_str());
    if (r != CUDA_SUCCESS)
      return fail(cudaStatus(api, r, "looking up kernel '" + e.name + "' in the " +
                                         exe->loadedBinary_)
                      .withContext(ectx));
    uint64_t threads = uint64_t(e.workgroupSize[0]) * e.workgroupSize[1] * e.workgroupSize[2];
    int maxThreads = 0;
    r = api.cuFuncGetAttribute(&maxThreads, CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK, f);
    if (r != CUDA_SUCCESS)
      return fail(cudaStatus(api, r, "reading the block size limit").withContext(ectx));
    if (e.abi == KernelAbi::kCudaC) {
      // Each launch gives its own block and dynamic shared memory: checked
      // by CudaCommandBuffer::launch against these.
      int staticShared = 0;
      r = api.cuFuncGetAttribute(&staticShared, CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES, f);
      if (r != CUDA_SUCCESS)
        return fail(cudaStatus(api, r, "reading the static shared memory size").withContext(ectx));
      exe->functions_.push_back(f);
      exe->limits_.push_back({maxThreads, staticShared, 0});
      continue;
    }
    if (threads == 0 || threads > uint64_t(maxThreads))
      return fail(invalidArgument(ectx + ": workgroup_size " + std::to_string(e.workgroupSize[0]) +
                                  "x" + std::to_string(e.workgroupSize[1]) + "x" +
                                  std::to_string(e.workgroupSize[2]) + " (" +
                                  std::to_string(threads) + " threads) but the kernel allows 1 to " +
                                  std::to_string(maxThreads) + " threads per block"));
    if (e.sharedMemoryBytes > kDefaultDynamicSharedLimit) {
      int staticShared = 0;
      api.cuFuncGetAttribute(&staticShared, CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES, f);
      if (optinShared > 0 && uint64_t(e.sharedMemoryBytes) + staticShared > uint64_t(optinShared))
        return fail(invalidArgument(ectx + ": needs " + std::to_string(e.sharedMemoryBytes) +
                                    " bytes of dynamic shared memory (+" +
                                    std::to_string(staticShared) + " static) but " +
                                    ctx->deviceName() + " allows " + std::to_string(optinShared) +
                                    " per block"));
      // Above 48 KiB a kernel must opt in before it is launched.
      r = api.cuFuncSetAttribute(f, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
                                 static_cast<int>(e.sharedMemoryBytes));
      if (r != CUDA_SUCCESS)
        return fail(cudaStatus(api, r, "allowing " + std::to_string(e.sharedMemoryBytes) +
                                           " bytes of dynamic shared memory")
                        .withContext(ectx));
    }
    if (e.residentBlocksPerSm) {
      // A persistent grid (its blocks wait for each other) is launched no
      // larger than this device holds at once: its asked-for blocks per SM,
      // fewer where registers or shared memory allow fewer.
      int resident = 0;
      r = api.cuOccupancyMaxActiveBlocksPerMultiprocessor(&resident, f, static_cast<int>(threads),
                                                          e.sharedMemoryBytes);
      if (r != CUDA_SUCCESS)
        return fail(cudaStatus(api, r, "reading the blocks per SM of a persistent grid")
                        .withContext(ectx));
      if (resident <= 0)
        return fail(invalidArgument(ectx + ": a persistent grid of " + std::to_string(threads) +
                                    "-thread blocks with " +
                                    std::to_string(e.sharedMemoryBytes) +
                                    " bytes of dynamic shared memory, but " + ctx->deviceName() +
                                    " holds no such block on an SM"));
      e.residentBlocksPerSm =
          std::min<uint32_t>(e.residentBlocksPerSm, static_cast<uint32_t>(resident));
    }
    exe->functions_.push_back(f);
    exe->limits_.push_back({maxThreads, 0, 0});
  }
  return exe;
}

Status CudaExecutable::allowDynamicShared(uint32_t ordinal, uint32_t bytes) {
  FunctionLimits &limits = limits_[ordinal];
  const ExportInfo &e = exports_[ordinal];
  uint64_t total = uint64_t(bytes) + uint64_t(limits.staticSharedBytes);
  if (total <= kDefaultDynamicSharedLimit || bytes <= limits.dynamicSharedAllowed)
    return Status();
  const int optin = ctx_->attribute(CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN);
  if (optin > 0 && total > uint64_t(optin))
    return invalidArgument("launch of '" + e.name + "': " + std::to_string(bytes) +
                           " bytes of dynamic shared memory (+" +
                           std::to_string(limits.staticSharedBytes) + " static) but " +
                           ctx_->deviceName() + " allows " + std::to_string(optin) +
                           " per block");
  // Above 48 KiB (dynamic + static) a kernel must opt in before it is
  // launched; the attribute is the most dynamic memory a launch may use.
  TESSEL_RETURN_IF_ERROR(ctx_->check(
      ctx_->api().cuFuncSetAttribute(functions_[ordinal],
                                     CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
                                     static_cast<int>(bytes)),
      "allowing " + std::to_string(bytes) + " bytes of dynamic shared memory for '" + e.name +
          "'"));
  limits.dynamicSharedAllowed = bytes;
  return Status();
}

CudaExecutable::~CudaExecutable() {
  if (!module_)
    return;
  std::lock_guard<std::mutex> lock(ctx_->mutex());
  if (ctx_->enter().ok())
    ctx_->api().cuModuleUnload(module_);
}

} // namespace tessel::rt::hal::cuda
