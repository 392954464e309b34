// Loading cpu binaries: selection by format/arch/features, an ELF sanity
// check (so that a truncated or foreign image is an error, not a SIGBUS in
// the dynamic loader), then dlopen from a memfd and dlsym per export.
#include "hal/cpu/cpu_executable.h"

#include "file_util.h"
#include "printable_text.h"

#include "hal/cpu/cpu_features.h"

#include <atomic>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <dlfcn.h>
#include <elf.h>
#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>

namespace tessel::rt::hal::cpu {

namespace {

constexpr const char *kFormat = "elf-shared-object";

uint16_t hostElfMachine() {
#if defined(__x86_64__)
  return EM_X86_64;
#elif defined(__aarch64__)
  return EM_AARCH64;
#else
  return EM_NONE;
#endif
}

// Checks the headers the dynamic loader maps from: every loadable segment
// must lie inside the image.
Status checkElf(const uint8_t *data, size_t size) {
  Elf64_Ehdr eh;
  if (size < sizeof(eh))
    return dataLoss("shared object is truncated (" + std::to_string(size) + " bytes)");
  std::memcpy(&eh, data, sizeof(eh));
  if (std::memcmp(eh.e_ident, ELFMAG, SELFMAG) != 0)
    return dataLoss("binary is not an ELF file");
  if (eh.e_ident[EI_CLASS] != ELFCLASS64 || eh.e_ident[EI_DATA] != ELFDATA2LSB)
    return failedPrecondition("shared object is not 64-bit little-endian");
  if (eh.e_type != ET_DYN)
    return failedPrecondition("ELF file is not a shared object");
  if (eh.e_machine != hostElfMachine())
    return failedPrecondition("shared object is for ELF machine " + std::to_string(eh.e_machine) +
                              ", not this host (" + hostArch() + ")");
  if (eh.e_phentsize != sizeof(Elf64_Phdr) || eh.e_phoff > size ||
      uint64_t(eh.e_phnum) * sizeof(Elf64_Phdr) > size - eh.e_phoff)
    return dataLoss("shared object has corrupt program headers");
  for (unsigned i = 0; i < eh.e_phnum; ++i) {
    Elf64_Phdr ph;
    std::memcpy(&ph, data + eh.e_phoff + i * sizeof(Elf64_Phdr), sizeof(ph));
    if (ph.p_type == PT_LOAD && (ph.p_offset > size || ph.p_filesz > size - ph.p_offset))
      return dataLoss("shared object is truncated (segment " + std::to_string(i) +
                      " lies outside the image)");
  }
  return Status();
}

// With TESSEL_CPU_EXECUTABLE_DIR set, the image is written to a file of
// that directory, kept after the run, and loaded from there, so that a
// profiler (perf) names the kernels' functions; else "" .
StatusOr<std::string> keptImagePath(const uint8_t *data, size_t size) {
  const char *dir = std::getenv("TESSEL_CPU_EXECUTABLE_DIR");
  if (!dir || !*dir)
    return std::string();
  static std::atomic<unsigned> counter{0};
  std::string path = std::string(dir) + "/tessel-cpu-" + std::to_string(::getpid()) + "-" +
                     std::to_string(counter++) + ".so";
  int fd = ::open(path.c_str(), O_CREAT | O_WRONLY | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0)
    return internalError("TESSEL_CPU_EXECUTABLE_DIR: cannot create '" + printableText(path) +
                         "': " + std::strerror(errno));
  bool written = writeAll(fd, data, size);
  int err = errno;
  ::close(fd);
  if (!written)
    return internalError("TESSEL_CPU_EXECUTABLE_DIR: cannot write '" + printableText(path) +
                         "': " + std::strerror(err));
  return path;
}

// dlopens the image. Prefers an anonymous memfd; falls back to a temporary
// file that is unlinked right after dlopen. On success `fd` is the memfd to
// keep open (or -1).
StatusOr<void *> dlopenImage(const uint8_t *data, size_t size, int &fd) {
  StatusOr<std::string> kept = keptImagePath(data, size);
  if (!kept.ok())
    return kept.status();
  if (!kept->empty()) {
    fd = -1;
    void *handle = ::dlopen(kept->c_str(), RTLD_NOW | RTLD_LOCAL);
    if (!handle)
      return failedPrecondition("dlopen failed: " + printableText(::dlerror()));
    return handle;
  }
  fd = static_cast<int>(::memfd_create("tessel-cpu-executable", MFD_CLOEXEC));
  std::string path, tempPath;
  if (fd >= 0) {
    path = "/proc/self/fd/" + std::to_string(fd);
  } else {
    const char *dir = std::getenv("TMPDIR");
    tempPath = std::string(dir && *dir ? dir : "/tmp") + "/tessel-cpu-executable-XXXXXX";
    fd = ::mkstemp(tempPath.data());
    if (fd < 0)
      return internalError(std::string("cannot create a file for the shared object: ") +
                           std::strerror(errno));
    path = tempPath;
  }
  if (!writeAll(fd, data, size)) {
    int err = errno;
    ::close(fd);
    fd = -1;
    if (!tempPath.empty())
      ::unlink(tempPath.c_str());
    return internalError(std::string("cannot write the shared object: ") + std::strerror(err));
  }
  void *handle = ::dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
  // dlerror() text can quote strings from the image (symbol names).
  const char *dlError = handle ? nullptr : ::dlerror();
  std::string error = dlError ? printableText(dlError) : "";
  if (!tempPath.empty()) {
    ::unlink(tempPath.c_str());
    ::close(fd);
    fd = -1;
  }
  if (!handle) {
    if (fd >= 0)
      ::close(fd);
    fd = -1;
    return failedPrecondition("dlopen failed: " + error);
  }
  return handle;
}

std::string join(const std::vector<std::string> &items) {
  std::string s;
  for (const std::string &i : items)
    s += (s.empty() ? "" : ", ") + i;
  return s.empty() ? "none" : s;
}

} // namespace

StatusOr<const BinaryInfo *> chooseBinary(const ExecutableSpec &spec) {
  std::vector<std::string> formats, arches;
  Status featureError;
  for (const BinaryInfo &b : spec.binaries) {
    formats.push_back(b.format);
    if (b.format != kFormat)
      continue;
    arches.push_back(b.arch);
    if (!archMatchesHost(b.arch))
      continue;
    Status s = checkHostFeatures(b.features);
    if (s.ok())
      return &b;
    // A malformed TESSEL_CPU_DISABLE_FEATURES: the same for every binary.
    if (s.code() == StatusCode::kInvalidArgument)
      return s;
    if (featureError.ok())
      featureError = s;
  }
  if (!featureError.ok())
    return featureError;
  if (arches.empty())
    return notFound(std::string("no binary of format '") + kFormat +
                    "' (binary formats: " + join(formats) + ")");
  return notFound(std::string("no ") + kFormat + " binary for this host's arch " + hostArch() +
                  " (available archs: " + join(arches) + ")");
}

std::string describeBinary(const BinaryInfo &b) {
  std::string features;
  for (const std::string &f : b.features)
    features += (features.empty() ? "" : ", ") + f;
  return b.format + " " + b.arch + (b.cpu.empty() ? "" : " for " + b.cpu) + ", features [" +
         features + "]";
}

StatusOr<std::shared_ptr<CpuExecutable>> CpuExecutable::load(const ExecutableSpec &spec) {
  auto fail = [&](const Status &s) { return s.withContext("executable '" + spec.name + "'"); };

  auto choice = chooseBinary(spec);
  // A malformed TESSEL_CPU_DISABLE_FEATURES is about no executable in
  // particular: said as is (once, by Module, for all of them).
  if (!choice.ok() && choice.status().code() == StatusCode::kInvalidArgument)
    return choice.status();
  if (!choice.ok())
    return fail(choice.status());
  const BinaryInfo *chosen = *choice;
  Status elf = checkElf(chosen->data, chosen->size);
  if (!elf.ok())
    return fail(elf);

  std::shared_ptr<CpuExecutable> exe(new CpuExecutable());
  auto handle = dlopenImage(chosen->data, chosen->size, exe->fd_);
  if (!handle.ok())
    return fail(handle.status());
  exe->handle_ = *handle;
  exe->exports_ = spec.exports;
  for (const ExportInfo &e : spec.exports) {
    void *sym = ::dlsym(exe->handle_, e.name.c_str());
    if (!sym)
      return fail(notFound("shared object has no symbol '" + e.name + "'"));
    exe->kernels_.push_back(reinterpret_cast<KernelFn>(sym));
  }
  return exe;
}

CpuExecutable::~CpuExecutable() {
  if (handle_)
    ::dlclose(handle_);
  if (fd_ >= 0)
    ::close(fd_);
}

} // namespace tessel::rt::hal::cpu
