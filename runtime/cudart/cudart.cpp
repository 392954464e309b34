// Tessel's CUDA runtime library (libtessel_cudart.a): the subset of the CUDA
// runtime API that a CUDA C program compiled by tessel-cc calls, over the
// Tessel runtime's HAL. The host code is compiled by clang with
// --cuda-host-only and embeds a Tessel module (the BLOB, see
// tessel/runtime/cuda_c_abi.h) in place of NVIDIA's fat binary; its
// registration calls map each kernel's host stub to a CUDA C export of that
// module, and cudaLaunchKernel launches it on the device chosen at first use
// (cuda if usable and every module has a cuda executable, else cpu;
// TESSEL_DEVICE=cpu|cuda forces one).
//
// Launches, device-to-device copies and fills are queued on the device's
// one stream and return at once (cpu: they run before returning); copies
// to or from the host, cudaFree, and every synchronize call wait for the
// queued work first, as NVIDIA's runtime does with the legacy stream. All
// streams are that one stream; an event records the host clock once the
// work before it has completed. Calls are serialized by one lock.
// TESSEL_CUDART_TIMING=1 (or =PATH) times every launch and prints the
// totals at exit (see launchTiming()). A fault of queued work is reported
// by the next call that waits, as with NVIDIA's runtime
// (CUDA_LAUNCH_BLOCKING=1: by the launch). Errors are never
// fatal: a call returns its cudaError_t, sets
// the calling thread's last error (cudaGetLastError returns and clears it),
// and prints one line naming the call and the reason to stderr (each
// distinct message once). A bad embedded module, or a device that cannot be
// created, makes every later call fail; so does a kernel fault on the GPU
// (CUDA cannot be used in the process after one).
#include "cudart_api.h"

#include "hal/command_buffer.h"
#include "hal/cpu/cpu_device.h"
#include "hal/cuda/cuda_device.h"
#include "hal/device.h"
#include "module/kernel_module.h"
#include "tessel/runtime/cuda_c_abi.h"
#include "tessel/runtime/device.h"

#include <cxxabi.h>
#include <sys/mman.h>
#include <sys/uio.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <unordered_map>
#include <vector>

using namespace tessel::cudart;
namespace rt = tessel::rt;
namespace hal = tessel::rt::hal;

namespace {

constexpr const char *kPrefix = "tessel-cudart: ";
// A larger module length in a BLOB header is taken for a damaged header.
constexpr uint64_t kMaxModuleBytes = uint64_t(1) << 34; // 16 GiB
constexpr size_t kMaxPrintedMessages = 1000;
// Guard space on each side of a cudaMalloc allocation (at most; smaller
// allocations get their own size, rounded up to 256 bytes): see cudaMalloc.
constexpr size_t kAllocationGuard = 64 * 1024;

std::string hex(uint64_t v) {
  char buf[32];
  std::snprintf(buf, sizeof(buf), "0x%" PRIx64, v);
  return buf;
}
std::string hex(const void *p) { return hex(static_cast<uint64_t>(reinterpret_cast<uintptr_t>(p))); }

// "axpb(float*, float const*, int, float, long long)" for a mangled name,
// else the name itself.
std::string readableKernelName(const std::string &mangled) {
  int status = 0;
  char *d = abi::__cxa_demangle(mangled.c_str(), nullptr, nullptr, &status);
  std::string out = mangled;
  if (status == 0 && d && mangled != d)
    out = std::string(d) + " (" + mangled + ")";
  std::free(d);
  return out;
}

// Copies `n` bytes at `src` into `dst` without faulting if they are not all
// readable (a damaged BLOB header may claim any length): process_vm_readv
// on this process reports EFAULT instead. Where the kernel refuses the
// call (seccomp, old kernels), falls back to memcpy.
bool safeCopy(void *dst, const void *src, size_t n) {
  uint8_t *d = static_cast<uint8_t *>(dst);
  const uint8_t *s = static_cast<const uint8_t *>(src);
  while (n > 0) {
    struct iovec local = {d, n}, remote = {const_cast<uint8_t *>(s), n};
    ssize_t got = ::process_vm_readv(::getpid(), &local, 1, &remote, 1, 0);
    if (got < 0 && (errno == ENOSYS || errno == EPERM)) {
      std::memcpy(d, s, n);
      return true;
    }
    if (got <= 0)
      return false;
    d += got;
    s += got;
    n -= static_cast<size_t>(got);
  }
  return true;
}

// Whether every page of [p, p + n) is mapped (mincore fails with ENOMEM
// otherwise), so that a damaged header claiming a huge length is refused
// before memory is allocated for it. True if the kernel cannot tell.
bool mapped(const void *p, size_t n) {
  const uintptr_t page = static_cast<uintptr_t>(::sysconf(_SC_PAGESIZE));
  const uintptr_t begin = reinterpret_cast<uintptr_t>(p) & ~(page - 1);
  if (n > UINTPTR_MAX - reinterpret_cast<uintptr_t>(p) - page)
    return false;
  const uintptr_t end = (reinterpret_cast<uintptr_t>(p) + n + page - 1) & ~(page - 1);
  const uintptr_t chunk = page * 4096;
  std::vector<unsigned char> residency(4096);
  for (uintptr_t a = begin; a < end; a += chunk) {
    size_t length = static_cast<size_t>(std::min(chunk, end - a));
    if (::mincore(reinterpret_cast<void *>(a), length, residency.data()) != 0)
      return errno != ENOMEM;
  }
  return true;
}

// One embedded module (one __cudaRegisterFatBinary call).
struct FatBinary {
  std::string name; // "embedded module 1", for messages
  std::vector<uint8_t> bytes;
  rt::Status error; // the blob or module is bad
  rt::detail::KernelModuleInfo info;
  // Loaded on the device at the first launch of one of its kernels.
  bool loadTried = false;
  rt::Status loadError;
  std::shared_ptr<hal::Executable> executable;
  std::unordered_map<std::string, uint32_t> ordinals; // export name -> ordinal
};

struct Kernel {
  FatBinary *binary;
  std::string name; // the export name (mangled)
};

struct Variable {
  std::string name;
  size_t size;
};

struct EventState {
  unsigned flags = 0;
  bool recorded = false;
  std::chrono::steady_clock::time_point time;
};

struct StreamState {};

// A launch configuration pushed by <<<...>>>.
struct CallConfiguration {
  Dim3 grid, block;
  size_t sharedMem;
  void *stream;
};

thread_local Error lastError = kSuccess;
thread_local std::vector<CallConfiguration> callStack;

// TESSEL_CUDART_TIMING: unset, empty or "0" off; "1" prints the totals to
// stderr at exit; anything else is a file the totals are appended to (one
// line per process). Each launch is timed on the device: on cuda by events
// on the stream around it (from the GPU reaching it to the kernel's end;
// read when the queue is waited for), on cpu by the host clock around the
// run; `wallMs` is the host time spent in the launch calls (cuda: queueing
// only).
struct LaunchTiming {
  bool enabled = false;
  std::string path; // empty: stderr
  std::string device;
  uint64_t launches = 0;
  double kernelMs = 0, wallMs = 0;
};

class Runtime {
public:
  std::mutex mutex;
  std::vector<std::unique_ptr<FatBinary>> binaries;
  std::unordered_map<const void *, Kernel> kernels; // host stub -> kernel
  std::unordered_map<const void *, Variable> variables;
  // The first registration error, and the error that made the process
  // unusable (device creation, a kernel fault): every later call fails.
  rt::Status fatal;
  Error fatalCode = kSuccess;

  bool deviceTried = false;
  std::shared_ptr<rt::Device> device;
  // CUDA_LAUNCH_BLOCKING=1, as with NVIDIA's runtime: every launch waits
  // for its kernel (a fault is reported by the launch that caused it).
  bool launchBlocking = false;

  struct Allocation {
    std::shared_ptr<hal::Buffer> buffer;
    size_t size;
    size_t guard; // bytes of the buffer before the allocation (as many or more after it)
  };
  std::map<uint64_t, Allocation> allocations; // device address -> allocation
  std::map<uintptr_t, size_t> hostAllocations; // cudaMallocHost / cudaHostAlloc
  std::set<EventState *> events;
  std::set<StreamState *> streams;

  std::set<std::string> printed;
  LaunchTiming timing;

  // Records `code` as the thread's last error and prints `message` (once).
  Error fail(Error code, const std::string &message) {
    lastError = code;
    print(message);
    return code;
  }
  void print(const std::string &message) {
    if (printed.size() >= kMaxPrintedMessages || !printed.insert(message).second)
      return;
    std::fprintf(stderr, "%s%s\n", kPrefix, message.c_str());
    if (printed.size() == kMaxPrintedMessages)
      std::fprintf(stderr, "%sfurther errors are not printed\n", kPrefix);
  }
  // The error every call returns once the process is unusable.
  Error fatalError() {
    lastError = fatalCode;
    return fatalCode;
  }
  void setFatal(Error code, const rt::Status &why) {
    if (fatalCode != kSuccess)
      return;
    fatalCode = code;
    fatal = why;
  }

  FatBinary *findBinary(void **handle) {
    for (auto &b : binaries)
      if (reinterpret_cast<void **>(b.get()) == handle)
        return b.get();
    return nullptr;
  }

  Error ensureDevice(const char *call);
  Error ensureLoaded(FatBinary &b, const char *call);
  // Waits for the queued work (nothing to do before the device exists); a
  // failure of that work makes the process unusable, as a kernel fault.
  Error waitQueued(const char *call);
  // After a launch failed or queued work faulted: the process's error.
  Error kernelFailed(const std::string &what, const rt::Status &st);

  // The allocation containing [address, address + length) (length 0: the
  // address alone) and, in *offset, where the address is in its buffer; or
  // nullptr and the error text in `why`.
  Allocation *findAllocation(uint64_t address, size_t length, uint64_t *offset,
                             std::string *why) {
    auto it = allocations.upper_bound(address);
    if (it == allocations.begin()) {
      *why = hex(address) + " is not inside a device allocation";
      return nullptr;
    }
    --it;
    uint64_t off = address - it->first;
    if (off >= std::max<size_t>(it->second.size, 1)) {
      *why = hex(address) + " is not inside a device allocation";
      return nullptr;
    }
    if (length > it->second.size - off) {
      *why = std::to_string(length) + " bytes at " + hex(address) + " (byte " +
             std::to_string(off) + " of the " + std::to_string(it->second.size) +
             "-byte allocation at " + hex(it->first) + ") run past the end of the allocation";
      return nullptr;
    }
    *offset = off + it->second.guard;
    return &it->second;
  }
};

// Never destroyed: calls from static destructors and atexit handlers (the
// host code's __cudaUnregisterFatBinary, a global's cudaFree) must still
// find it.
Runtime &runtime() {
  static Runtime *r = new Runtime();
  return *r;
}

bool verbose() {
  const char *v = std::getenv("TESSEL_CUDART_VERBOSE");
  return v && *v && std::strcmp(v, "0") != 0;
}

// Device choice, like tessel-run's: cuda when a CUDA device is usable and
// every embedded module has a cuda executable, else cpu; TESSEL_DEVICE
// forces one. Once per process.
Error Runtime::ensureDevice(const char *call) {
  if (fatalCode != kSuccess)
    return fatalError();
  if (deviceTried)
    return kSuccess;
  deviceTried = true;
  const char *blocking = std::getenv("CUDA_LAUNCH_BLOCKING");
  launchBlocking = blocking && *blocking && std::strcmp(blocking, "0") != 0;
  auto fatalFail = [&](Error code, const rt::Status &s) {
    setFatal(code, s);
    return fail(code, std::string(call) + ": " + s.message());
  };
  const char *env = std::getenv("TESSEL_DEVICE");
  std::string forced = env ? env : "";
  if (!forced.empty() && forced != "cpu" && forced != "cuda")
    return fatalFail(kErrorInitializationError,
                     rt::invalidArgument("TESSEL_DEVICE='" + forced +
                                         "' is not a device (cpu or cuda)"));
  // Stream command buffers: each launch is its own, run once (a graph's
  // capture and instantiation would cost more than the launch).
  rt::DeviceOptions options;
  if (const char *mode = std::getenv("TESSEL_CUDA_COMMAND_BUFFER"); !mode || !*mode)
    options.cudaCommandBuffer = "stream";
  if (!forced.empty()) {
    auto d = rt::createDevice(forced, options);
    if (!d.ok())
      return fatalFail(d.status().code() == rt::StatusCode::kInvalidArgument
                           ? kErrorInitializationError
                           : kErrorNoDevice,
                       d.status().withContext("TESSEL_DEVICE=" + forced));
    device = *d;
    if (verbose())
      std::fprintf(stderr, "%sdevice %s (TESSEL_DEVICE=%s)\n", kPrefix,
                   device->description().c_str(), forced.c_str());
    return kSuccess;
  }
  std::string why;
  std::vector<std::string> withoutCuda;
  for (const auto &b : binaries) {
    bool cuda = false;
    for (const std::string &t : b->info.targets)
      cuda |= t == "cuda";
    if (!cuda)
      withoutCuda.push_back(b->name);
  }
  if (binaries.empty()) {
    why = "the program embeds no module";
  } else if (!withoutCuda.empty()) {
    std::string list;
    for (const std::string &n : withoutCuda)
      list += (list.empty() ? "" : ", ") + n;
    why = list + (withoutCuda.size() == 1 ? " has" : " have") + " no cuda executable";
  } else {
    auto cuda = rt::createDevice("cuda", options);
    if (cuda.ok()) {
      device = *cuda;
      if (verbose())
        std::fprintf(stderr, "%sdevice %s\n", kPrefix, device->description().c_str());
      return kSuccess;
    }
    // A bad setting (TESSEL_CUDA_COMMAND_BUFFER, ...) is the user's error,
    // not a reason to fall back.
    if (cuda.status().code() == rt::StatusCode::kInvalidArgument)
      return fatalFail(kErrorInitializationError, cuda.status());
    why = cuda.status().message();
  }
  auto cpu = rt::createDevice("cpu");
  if (!cpu.ok())
    return fatalFail(cpu.status().code() == rt::StatusCode::kInvalidArgument
                         ? kErrorInitializationError
                         : kErrorNoDevice,
                     cpu.status());
  device = *cpu;
  if (verbose())
    std::fprintf(stderr, "%sdevice %s \u2014 %s\n", kPrefix, device->description().c_str(),
                 why.c_str());
  return kSuccess;
}

Error Runtime::ensureLoaded(FatBinary &b, const char *call) {
  if (!b.loadTried) {
    b.loadTried = true;
    auto exe = rt::detail::loadKernelExecutable(*device, b.bytes, b.name);
    if (exe.ok()) {
      b.executable = *exe;
      const auto &exports = b.executable->exports();
      for (uint32_t i = 0; i < exports.size(); ++i)
        if (exports[i].abi == hal::KernelAbi::kCudaC)
          b.ordinals.emplace(exports[i].name, i);
      if (verbose())
        std::fprintf(stderr, "%s%s: loaded its %s executable (%zu kernels)\n", kPrefix,
                     b.name.c_str(), device->name().c_str(), b.ordinals.size());
    } else {
      b.loadError = exe.status();
    }
  }
  if (!b.loadError.ok())
    return fail(kErrorNoKernelImageForDevice,
                std::string(call) + ": cannot load the kernels of " + b.name + " on " +
                    device->description() + ": " + b.loadError.message());
  return kSuccess;
}

Error Runtime::kernelFailed(const std::string &what, const rt::Status &st) {
  Error code = st.message().find("ILLEGAL_ADDRESS") != std::string::npos ? kErrorIllegalAddress
                                                                         : kErrorLaunchFailure;
  // CUDA is unusable in this process from now on, as with NVIDIA's runtime.
  setFatal(code, st);
  return fail(code, what + ": " + st.message());
}

Error Runtime::waitQueued(const char *call) {
  if (!device)
    return kSuccess;
  double ms = 0;
  rt::Status st = device->hal().wait(&ms);
  timing.kernelMs += ms;
  if (!st.ok())
    return kernelFailed(std::string(call) + ": queued work failed", st);
  return kSuccess;
}

// Reads and checks the BLOB a fat binary wrapper points at into `out`.
rt::Status readBlob(const void *wrapper, std::vector<uint8_t> &out) {
  if (!wrapper)
    return rt::dataLoss("the fat binary wrapper is a null pointer");
  FatBinaryWrapper w;
  if (!safeCopy(&w, wrapper, sizeof(w)))
    return rt::dataLoss("the fat binary wrapper at " + hex(wrapper) + " is not readable");
  if (w.magic != kFatBinaryWrapperMagic)
    return rt::dataLoss("the fat binary wrapper has magic " + hex(uint32_t(w.magic)) +
                        ", expected " + hex(uint32_t(kFatBinaryWrapperMagic)));
  if (w.version != kFatBinaryWrapperVersion)
    return rt::dataLoss("the fat binary wrapper has version " + std::to_string(w.version) +
                        ", expected " + std::to_string(kFatBinaryWrapperVersion));
  if (!w.data)
    return rt::dataLoss("the fat binary wrapper points at no data");
  uint8_t header[TESSEL_CUDA_BLOB_HEADER_SIZE];
  if (!safeCopy(header, w.data, sizeof(header)))
    return rt::dataLoss("the embedded GPU binary at " + hex(w.data) + " is not readable");
  if (std::memcmp(header, TESSEL_CUDA_BLOB_MAGIC, TESSEL_CUDA_BLOB_MAGIC_SIZE) != 0) {
    uint32_t first;
    std::memcpy(&first, header, 4);
    // NVIDIA's fat binary (nvcc, or clang compiling device code itself).
    if (first == 0xba55ed50u)
      return rt::dataLoss("the embedded GPU binary is an NVIDIA fat binary, not a Tessel "
                          "module: compile the program with tessel-cc");
    std::string shown;
    for (int i = 0; i < TESSEL_CUDA_BLOB_MAGIC_SIZE; ++i)
      shown += header[i] >= 0x20 && header[i] < 0x7f ? char(header[i]) : '?';
    return rt::dataLoss("the embedded GPU binary starts with '" + shown + "', not the magic '" +
                        TESSEL_CUDA_BLOB_MAGIC + "' of a Tessel module");
  }
  uint64_t length = 0;
  for (int i = 0; i < 8; ++i)
    length |= uint64_t(header[8 + i]) << (8 * i);
  if (length == 0)
    return rt::dataLoss("the embedded module is empty (length 0)");
  if (length > kMaxModuleBytes)
    return rt::dataLoss("the embedded module's header claims " + std::to_string(length) +
                        " bytes (damaged header)");
  const uint8_t *module = static_cast<const uint8_t *>(w.data) + sizeof(header);
  if (!mapped(module, length))
    return rt::dataLoss("the embedded module's header claims " + std::to_string(length) +
                        " bytes but they lie outside the program's memory (damaged header)");
  try {
    out.resize(length);
  } catch (const std::bad_alloc &) {
    return rt::resourceExhausted("cannot allocate " + std::to_string(length) +
                                 " bytes for the embedded module");
  }
  if (!safeCopy(out.data(), module, length))
    return rt::dataLoss("the embedded module's header claims " + std::to_string(length) +
                        " bytes but they are not all readable (damaged header)");
  return rt::Status();
}

// Maps a HAL error to the closest cudaError_t.
Error errorFor(const rt::Status &s, Error invalidArgument) {
  switch (s.code()) {
  case rt::StatusCode::kOk:
    return kSuccess;
  case rt::StatusCode::kInvalidArgument:
    return invalidArgument;
  case rt::StatusCode::kResourceExhausted:
    return kErrorMemoryAllocation;
  case rt::StatusCode::kUnavailable:
    return kErrorNoDevice;
  default:
    return kErrorUnknown;
  }
}

bool validStream(Runtime &r, Stream s) {
  auto p = reinterpret_cast<uintptr_t>(s);
  return p == 0 || p == kStreamLegacy || p == kStreamPerThread ||
         r.streams.count(reinterpret_cast<StreamState *>(s));
}

const char *kindName(MemcpyKind kind) {
  switch (kind) {
  case kMemcpyHostToHost: return "cudaMemcpyHostToHost";
  case kMemcpyHostToDevice: return "cudaMemcpyHostToDevice";
  case kMemcpyDeviceToHost: return "cudaMemcpyDeviceToHost";
  case kMemcpyDeviceToDevice: return "cudaMemcpyDeviceToDevice";
  case kMemcpyDefault: return "cudaMemcpyDefault";
  default: return "an unknown cudaMemcpyKind";
  }
}

// cudaMemcpy and friends; `call` names the entry point in errors.
Error memcpyImpl(const char *call, void *dst, const void *src, size_t count, MemcpyKind kind) {
  Runtime &r = runtime();
  std::lock_guard<std::mutex> lock(r.mutex);
  if (Error e = r.ensureDevice(call))
    return e;
  std::string what = std::string(call) + " (" + kindName(kind) + ")";
  if (kind < kMemcpyHostToHost || kind > kMemcpyDefault)
    return r.fail(kErrorInvalidMemcpyDirection,
                  std::string(call) + ": kind " + std::to_string(kind) +
                      " is not a cudaMemcpyKind (0 to 4)");
  if (count == 0)
    return kSuccess;
  if (!dst || !src)
    return r.fail(kErrorInvalidValue, what + ": " + (dst ? "source" : "destination") +
                                          " is a null pointer");
  auto dstAddress = reinterpret_cast<uintptr_t>(dst);
  auto srcAddress = reinterpret_cast<uintptr_t>(src);
  // Which side is device memory: an address inside an allocation of
  // cudaMalloc. The kind must agree (cudaMemcpyDefault infers it).
  auto resolve = [&](uint64_t address, bool kindSaysDevice, const char *role,
                     Runtime::Allocation **alloc, uint64_t *offset) -> Error {
    std::string why;
    std::string ignored;
    bool inside = r.findAllocation(address, 0, offset, &ignored) != nullptr;
    bool device = kind == kMemcpyDefault ? inside : kindSaysDevice;
    if (!device) {
      if (inside)
        return r.fail(kErrorInvalidValue,
                      what + ": the " + role + " " + hex(address) +
                          " is device memory (cudaMalloc) but the kind says host memory");
      *alloc = nullptr;
      return kSuccess;
    }
    *alloc = r.findAllocation(address, count, offset, &why);
    if (!*alloc)
      return r.fail(kErrorInvalidValue, what + ": " + role + " " + why);
    return kSuccess;
  };
  Runtime::Allocation *d = nullptr, *s = nullptr;
  uint64_t dOff = 0, sOff = 0;
  if (Error e = resolve(dstAddress,
                        kind == kMemcpyHostToDevice || kind == kMemcpyDeviceToDevice,
                        "destination", &d, &dOff))
    return e;
  if (Error e = resolve(srcAddress,
                        kind == kMemcpyDeviceToHost || kind == kMemcpyDeviceToDevice, "source",
                        &s, &sOff))
    return e;
  rt::Status st;
  if (d && s) {
    std::shared_ptr<hal::CommandBuffer> cb = r.device->hal().createCommandBuffer();
    st = cb->copy(*s->buffer, sOff, *d->buffer, dOff, count);
    if (st.ok())
      st = r.device->hal().submit(cb);
  } else if (d || s) {
    if (Error e = r.waitQueued(call))
      return e;
    st = d ? d->buffer->write(dOff, src, count) : s->buffer->read(sOff, dst, count);
  } else {
    std::memmove(dst, src, count);
  }
  if (!st.ok())
    return r.fail(errorFor(st, kErrorInvalidValue), what + ": " + st.message());
  return kSuccess;
}

Error memsetImpl(const char *call, void *devPtr, int value, size_t count) {
  Runtime &r = runtime();
  std::lock_guard<std::mutex> lock(r.mutex);
  if (Error e = r.ensureDevice(call))
    return e;
  if (count == 0)
    return kSuccess;
  uint64_t offset = 0;
  std::string why;
  Runtime::Allocation *a =
      r.findAllocation(reinterpret_cast<uintptr_t>(devPtr), count, &offset, &why);
  if (!a)
    return r.fail(kErrorInvalidValue, std::string(call) + ": " + why);
  std::shared_ptr<hal::CommandBuffer> cb = r.device->hal().createCommandBuffer();
  rt::Status st = cb->fill(*a->buffer, offset, count, static_cast<uint8_t>(value));
  if (st.ok())
    st = r.device->hal().submit(cb);
  if (!st.ok())
    return r.fail(errorFor(st, kErrorInvalidValue), std::string(call) + ": " + st.message());
  return kSuccess;
}

void printLaunchTiming() {
  Runtime &r = runtime();
  std::lock_guard<std::mutex> lock(r.mutex);
  if (r.fatalCode == kSuccess)
    (void)r.waitQueued("at exit"); // the kernel times of queued launches
  const LaunchTiming &t = r.timing;
  char line[256];
  std::snprintf(line, sizeof(line),
                "tessel-cudart: timing device=%s launches=%" PRIu64
                " kernel_ms=%.3f wall_ms=%.3f\n",
                t.device.c_str(), t.launches, t.kernelMs, t.wallMs);
  FILE *f = t.path.empty() ? stderr : std::fopen(t.path.c_str(), "a");
  if (!f) {
    std::fprintf(stderr, "%sTESSEL_CUDART_TIMING: cannot open '%s': %s\n%s", kPrefix,
                 t.path.c_str(), std::strerror(errno), line);
    return;
  }
  std::fputs(line, f);
  if (f != stderr)
    std::fclose(f);
}

// The launch timing settings, read at the first launch (the device exists
// then); the totals are printed at exit. Caller holds the lock.
LaunchTiming &launchTiming(Runtime &r) {
  static bool read = false;
  if (!read) {
    read = true;
    const char *v = std::getenv("TESSEL_CUDART_TIMING");
    if (v && *v && std::strcmp(v, "0") != 0) {
      r.timing.enabled = true;
      if (std::strcmp(v, "1") != 0)
        r.timing.path = v;
      r.timing.device = r.device->name();
      std::atexit(printLaunchTiming);
    }
  }
  return r.timing;
}

Error launchImpl(const char *call, const void *func, Dim3 grid, Dim3 block, void **args,
                 size_t sharedMem, Stream stream) {
  Runtime &r = runtime();
  std::lock_guard<std::mutex> lock(r.mutex);
  if (Error e = r.ensureDevice(call))
    return e;
  auto it = r.kernels.find(func);
  if (it == r.kernels.end())
    return r.fail(kErrorInvalidDeviceFunction,
                  std::string(call) + ": no kernel is registered for host function " +
                      hex(func) + " (is it a __global__ function of a translation unit "
                                  "compiled by tessel-cc?)");
  const Kernel &k = it->second;
  FatBinary &b = *k.binary;
  std::string kernel = "kernel '" + readableKernelName(k.name) + "'";
  if (Error e = r.ensureLoaded(b, call))
    return e;
  auto ordinal = b.ordinals.find(k.name);
  if (ordinal == b.ordinals.end()) {
    std::string list;
    for (const std::string &n : b.info.cudaCKernels)
      list += (list.empty() ? "'" : ", '") + n + "'";
    return r.fail(kErrorInvalidDeviceFunction,
                  std::string(call) + ": " + kernel + " is registered by the host code but " +
                      b.name + " has no such kernel (it has " +
                      (list.empty() ? "none" : list) + ")");
  }
  if (!validStream(r, stream))
    return r.fail(kErrorInvalidResourceHandle,
                  std::string(call) + " of " + kernel + ": stream " + hex(stream) +
                      " is not a stream of this process");
  if (sharedMem > UINT32_MAX)
    return r.fail(kErrorInvalidConfiguration,
                  std::string(call) + " of " + kernel + ": " + std::to_string(sharedMem) +
                      " bytes of dynamic shared memory");
  const hal::ExportInfo &info = b.executable->exports()[ordinal->second];
  if (!info.parameterSizes.empty() && !args)
    return r.fail(kErrorInvalidValue, std::string(call) + " of " + kernel + ": args is a null "
                                                                            "pointer but the "
                                                                            "kernel takes " +
                                          std::to_string(info.parameterSizes.size()) +
                                          " parameters");
  std::vector<std::vector<uint8_t>> values;
  for (size_t i = 0; i < info.parameterSizes.size(); ++i) {
    if (!args[i])
      return r.fail(kErrorInvalidValue, std::string(call) + " of " + kernel + ": args[" +
                                            std::to_string(i) + "] is a null pointer");
    const auto *p = static_cast<const uint8_t *>(args[i]);
    values.emplace_back(p, p + info.parameterSizes[i]);
  }
  hal::LaunchConfig config{{grid.x, grid.y, grid.z},
                           {block.x, block.y, block.z},
                           static_cast<uint32_t>(sharedMem)};
  std::shared_ptr<hal::CommandBuffer> cb = r.device->hal().createCommandBuffer();
  rt::Status st = cb->launch(*b.executable, ordinal->second, config, values);
  if (!st.ok())
    return r.fail(errorFor(st, kErrorInvalidConfiguration),
                  std::string(call) + " of " + kernel + ": " + st.message());
  LaunchTiming &timing = launchTiming(r);
  auto start = std::chrono::steady_clock::now();
  st = r.device->hal().submit(cb, timing.enabled);
  if (timing.enabled) {
    timing.launches += 1;
    timing.wallMs +=
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
            .count();
  }
  // Queueing failed, or (cpu) the kernel ran and failed.
  if (!st.ok())
    return r.kernelFailed(std::string(call) + " of " + kernel, st);
  if (r.launchBlocking)
    return r.waitQueued((std::string(call) + " of " + kernel).c_str());
  return kSuccess;
}

// The common prologue of calls that need no device: the fatal error if any.
#define TESSEL_CUDART_PROLOGUE(r)                                                                  \
  Runtime &r = runtime();                                                                         \
  std::lock_guard<std::mutex> lock(r.mutex);                                                      \
  if (r.fatalCode != kSuccess)                                                                    \
  return r.fatalError()

struct ErrorText {
  Error code;
  const char *name, *text;
};
const ErrorText kErrorTexts[] = {
    {kSuccess, "cudaSuccess", "no error"},
    {kErrorInvalidValue, "cudaErrorInvalidValue", "invalid argument"},
    {kErrorMemoryAllocation, "cudaErrorMemoryAllocation", "out of memory"},
    {kErrorInitializationError, "cudaErrorInitializationError", "initialization error"},
    {kErrorInvalidConfiguration, "cudaErrorInvalidConfiguration",
     "invalid configuration argument"},
    {kErrorInvalidSymbol, "cudaErrorInvalidSymbol", "invalid device symbol"},
    {kErrorInvalidDevicePointer, "cudaErrorInvalidDevicePointer", "invalid device pointer"},
    {kErrorInvalidMemcpyDirection, "cudaErrorInvalidMemcpyDirection",
     "invalid copy direction for memcpy"},
    {kErrorMissingConfiguration, "cudaErrorMissingConfiguration",
     "__global__ function call is not configured"},
    {kErrorInvalidDeviceFunction, "cudaErrorInvalidDeviceFunction", "invalid device function"},
    {kErrorNoDevice, "cudaErrorNoDevice", "no CUDA-capable device is detected"},
    {kErrorInvalidDevice, "cudaErrorInvalidDevice", "invalid device ordinal"},
    {kErrorInvalidKernelImage, "cudaErrorInvalidKernelImage", "device kernel image is invalid"},
    {kErrorNoKernelImageForDevice, "cudaErrorNoKernelImageForDevice",
     "no kernel image is available for execution on the device"},
    {kErrorInvalidResourceHandle, "cudaErrorInvalidResourceHandle", "invalid resource handle"},
    {kErrorIllegalAddress, "cudaErrorIllegalAddress",
     "an illegal memory access was encountered"},
    {kErrorLaunchFailure, "cudaErrorLaunchFailure", "unspecified launch failure"},
    {kErrorNotSupported, "cudaErrorNotSupported", "operation not supported"},
    {kErrorUnknown, "cudaErrorUnknown", "unknown error"},
};

const ErrorText *errorText(Error e) {
  for (const ErrorText &t : kErrorTexts)
    if (t.code == e)
      return &t;
  return nullptr;
}

} // namespace

// ---- Registration (emitted by clang into the host object) -------------------

extern "C" void **__cudaRegisterFatBinary(void *fatCubin) {
  Runtime &r = runtime();
  std::lock_guard<std::mutex> lock(r.mutex);
  auto b = std::make_unique<FatBinary>();
  b->name = "embedded module " + std::to_string(r.binaries.size() + 1);
  rt::Status s = readBlob(fatCubin, b->bytes);
  if (s.ok()) {
    auto info = rt::detail::inspectKernelModule(b->bytes, b->name);
    if (info.ok())
      b->info = std::move(info).value();
    else
      s = info.status();
  }
  if (!s.ok()) {
    b->error = s;
    b->bytes.clear();
    r.setFatal(kErrorInvalidKernelImage, s);
    r.print("cannot register the kernels embedded in this program (" + b->name +
            "): " + s.message() + "; every CUDA call will fail");
  }
  void **handle = reinterpret_cast<void **>(b.get());
  r.binaries.push_back(std::move(b));
  return handle;
}

extern "C" void __cudaRegisterFatBinaryEnd(void **fatCubinHandle) { (void)fatCubinHandle; }

extern "C" void __cudaUnregisterFatBinary(void **fatCubinHandle) {
  Runtime &r = runtime();
  std::lock_guard<std::mutex> lock(r.mutex);
  FatBinary *b = r.findBinary(fatCubinHandle);
  if (!b)
    return;
  // Its host code is going away (exit, or dlclose): forget its kernels. The
  // module itself stays: leaked on purpose, as the whole runtime is.
  for (auto it = r.kernels.begin(); it != r.kernels.end();)
    it = it->second.binary == b ? r.kernels.erase(it) : std::next(it);
}

extern "C" void __cudaRegisterFunction(void **fatCubinHandle, const char *hostFun,
                                       char *deviceFun, const char *deviceName, int thread_limit,
                                       void *tid, void *bid, void *bDim, void *gDim,
                                       int *wSize) {
  (void)deviceName, (void)thread_limit, (void)tid, (void)bid, (void)bDim, (void)gDim, (void)wSize;
  Runtime &r = runtime();
  std::lock_guard<std::mutex> lock(r.mutex);
  FatBinary *b = r.findBinary(fatCubinHandle);
  if (!b || !hostFun || !deviceFun) {
    rt::Status s = rt::invalidArgument(
        std::string("__cudaRegisterFunction: ") +
        (!b ? "unknown fat binary handle " + hex(fatCubinHandle) : "null kernel name or stub"));
    r.setFatal(kErrorInvalidKernelImage, s);
    r.print(s.message() + "; every CUDA call will fail");
    return;
  }
  if (!b->error.ok())
    return;
  r.kernels.emplace(hostFun, Kernel{b, std::string(deviceFun, strnlen(deviceFun, 4096))});
}

extern "C" void __cudaRegisterVar(void **fatCubinHandle, char *hostVar, char *deviceAddress,
                                  const char *deviceName, int ext, size_t size, int constant,
                                  int global) {
  (void)fatCubinHandle, (void)deviceAddress, (void)ext, (void)constant, (void)global;
  Runtime &r = runtime();
  std::lock_guard<std::mutex> lock(r.mutex);
  if (hostVar)
    r.variables.emplace(hostVar, Variable{deviceName ? std::string(deviceName, strnlen(deviceName, 4096))
                                                     : "?",
                                          size});
}

extern "C" unsigned __cudaPushCallConfiguration(Dim3 gridDim, Dim3 blockDim, size_t sharedMem,
                                                void *stream) {
  callStack.push_back({gridDim, blockDim, sharedMem, stream});
  return 0;
}

extern "C" Error __cudaPopCallConfiguration(Dim3 *gridDim, Dim3 *blockDim, size_t *sharedMem,
                                            void *stream) {
  // clang's kernel stubs launch whatever this returns: an empty stack gives
  // a zero grid, which the launch refuses.
  CallConfiguration c{{0, 0, 0}, {0, 0, 0}, 0, nullptr};
  bool had = !callStack.empty();
  if (had) {
    c = callStack.back();
    callStack.pop_back();
  }
  if (gridDim)
    *gridDim = c.grid;
  if (blockDim)
    *blockDim = c.block;
  if (sharedMem)
    *sharedMem = c.sharedMem;
  if (stream)
    *static_cast<void **>(stream) = c.stream;
  return had ? kSuccess : kErrorMissingConfiguration;
}

// ---- Launch -------------------------------------------------------------------

extern "C" Error cudaLaunchKernel(const void *func, Dim3 gridDim, Dim3 blockDim, void **args,
                                  size_t sharedMem, Stream stream) {
  return launchImpl("cudaLaunchKernel", func, gridDim, blockDim, args, sharedMem, stream);
}

extern "C" Error cudaLaunchKernel_ptsz(const void *func, Dim3 gridDim, Dim3 blockDim, void **args,
                                       size_t sharedMem, Stream stream) {
  return launchImpl("cudaLaunchKernel", func, gridDim, blockDim, args, sharedMem, stream);
}

extern "C" Error cudaFuncSetCacheConfig(const void *func, FuncCache cacheConfig) {
  (void)func, (void)cacheConfig;
  TESSEL_CUDART_PROLOGUE(r);
  return kSuccess;
}

extern "C" Error cudaDeviceSetCacheConfig(FuncCache cacheConfig) {
  (void)cacheConfig;
  TESSEL_CUDART_PROLOGUE(r);
  return kSuccess;
}

// ---- Memory -------------------------------------------------------------------

extern "C" Error cudaMalloc(void **devPtr, size_t size) {
  Runtime &r = runtime();
  std::lock_guard<std::mutex> lock(r.mutex);
  if (Error e = r.ensureDevice("cudaMalloc"))
    return e;
  if (!devPtr)
    return r.fail(kErrorInvalidValue, "cudaMalloc: devPtr is a null pointer");
  *devPtr = nullptr;
  if (size == 0)
    return kSuccess;
  // Guard space on both sides, zero-filled: on a GPU an allocation sits
  // among others in 2 MiB pages, so CUDA programs that read a little
  // outside their arrays (Rodinia's srad_v2 reads one image row before and
  // after, then overwrites what it read) run with nvcc; here the same reads
  // would fault (cpu: an unmapped page; cuda: cuMemAlloc's exact range).
  // The allocation is 256-byte aligned, as cudaMalloc's (buffers are only
  // kBufferAlignment-aligned: the slack moves it up).
  constexpr size_t kAlign = 256, kSlack = kAlign - std::min(kAlign, hal::kBufferAlignment);
  size_t guard = std::min(kAllocationGuard, (size + kAlign - 1) / kAlign * kAlign);
  if (size > SIZE_MAX - 2 * guard - kSlack)
    return r.fail(kErrorMemoryAllocation,
                  "cudaMalloc of " + std::to_string(size) + " bytes: more than the address space");
  size_t total = size + 2 * guard + kSlack;
  auto b = r.device->hal().allocate(total);
  if (!b.ok())
    return r.fail(errorFor(b.status(), kErrorInvalidValue),
                  "cudaMalloc of " + std::to_string(size) + " bytes: " + b.status().message());
  uint64_t base = (*b)->deviceAddress();
  uint64_t address = (base + guard + kAlign - 1) / kAlign * kAlign;
  size_t front = static_cast<size_t>(address - base);
  std::shared_ptr<hal::CommandBuffer> cb = r.device->hal().createCommandBuffer();
  rt::Status st = cb->fill(**b, 0, front, 0);
  if (st.ok())
    st = cb->fill(**b, front + size, total - front - size, 0);
  if (st.ok())
    st = r.device->hal().submit(cb);
  if (!st.ok())
    return r.fail(errorFor(st, kErrorInvalidValue),
                  "cudaMalloc of " + std::to_string(size) + " bytes: " + st.message());
  r.allocations[address] = Runtime::Allocation{*b, size, front};
  *devPtr = reinterpret_cast<void *>(static_cast<uintptr_t>(address));
  return kSuccess;
}

extern "C" Error cudaFree(void *devPtr) {
  Runtime &r = runtime();
  std::lock_guard<std::mutex> lock(r.mutex);
  if (r.fatalCode != kSuccess)
    return r.fatalError();
  if (!devPtr)
    return kSuccess;
  auto it = r.allocations.find(reinterpret_cast<uintptr_t>(devPtr));
  if (it == r.allocations.end()) {
    std::string why = r.hostAllocations.count(reinterpret_cast<uintptr_t>(devPtr))
                          ? " was allocated by cudaMallocHost/cudaHostAlloc: free it with "
                            "cudaFreeHost"
                          : " is not the start of a cudaMalloc allocation";
    return r.fail(kErrorInvalidValue, "cudaFree: " + hex(devPtr) + why);
  }
  // Queued kernels may still use it.
  if (Error e = r.waitQueued("cudaFree"))
    return e;
  r.allocations.erase(it);
  return kSuccess;
}

extern "C" Error cudaMallocHost(void **ptr, size_t size) {
  TESSEL_CUDART_PROLOGUE(r);
  if (!ptr)
    return r.fail(kErrorInvalidValue, "cudaMallocHost: ptr is a null pointer");
  void *p = nullptr;
  if (::posix_memalign(&p, 64, size ? size : 1) != 0)
    return r.fail(kErrorMemoryAllocation,
                  "cudaMallocHost: cannot allocate " + std::to_string(size) + " bytes of host "
                                                                              "memory");
  r.hostAllocations[reinterpret_cast<uintptr_t>(p)] = size;
  *ptr = p;
  return kSuccess;
}

extern "C" Error cudaHostAlloc(void **pHost, size_t size, unsigned int flags) {
  (void)flags; // portable, mapped, write-combined: plain host memory here
  return cudaMallocHost(pHost, size);
}

extern "C" Error cudaFreeHost(void *ptr) {
  TESSEL_CUDART_PROLOGUE(r);
  if (!ptr)
    return kSuccess;
  auto it = r.hostAllocations.find(reinterpret_cast<uintptr_t>(ptr));
  if (it == r.hostAllocations.end())
    return r.fail(kErrorInvalidValue, "cudaFreeHost: " + hex(ptr) +
                                          " was not allocated by cudaMallocHost/cudaHostAlloc");
  r.hostAllocations.erase(it);
  std::free(ptr);
  return kSuccess;
}

extern "C" Error cudaMallocManaged(void **devPtr, size_t size, unsigned int flags) {
  (void)devPtr, (void)size, (void)flags;
  TESSEL_CUDART_PROLOGUE(r);
  return r.fail(kErrorNotSupported,
                "cudaMallocManaged: managed memory is not supported by Tessel's CUDA runtime "
                "(use cudaMalloc and cudaMemcpy)");
}

extern "C" Error cudaMemcpy(void *dst, const void *src, size_t count, MemcpyKind kind) {
  return memcpyImpl("cudaMemcpy", dst, src, count, kind);
}
extern "C" Error cudaMemcpy_ptds(void *dst, const void *src, size_t count, MemcpyKind kind) {
  return memcpyImpl("cudaMemcpy", dst, src, count, kind);
}

// Asynchronous copies and fills: queued as their synchronous forms are.
static Error memcpyAsyncImpl(void *dst, const void *src, size_t count, MemcpyKind kind, Stream stream) {
  {
    Runtime &r = runtime();
    std::lock_guard<std::mutex> lock(r.mutex);
    if (r.fatalCode == kSuccess && !validStream(r, stream))
      return r.fail(kErrorInvalidResourceHandle,
                    "cudaMemcpyAsync: stream " + hex(stream) + " is not a stream of this process");
  }
  return memcpyImpl("cudaMemcpyAsync", dst, src, count, kind);
}
extern "C" Error cudaMemcpyAsync(void *dst, const void *src, size_t count, MemcpyKind kind,
                                 Stream stream) {
  return memcpyAsyncImpl(dst, src, count, kind, stream);
}
extern "C" Error cudaMemcpyAsync_ptsz(void *dst, const void *src, size_t count, MemcpyKind kind,
                                      Stream stream) {
  return memcpyAsyncImpl(dst, src, count, kind, stream);
}

extern "C" Error cudaMemset(void *devPtr, int value, size_t count) {
  return memsetImpl("cudaMemset", devPtr, value, count);
}
extern "C" Error cudaMemset_ptds(void *devPtr, int value, size_t count) {
  return memsetImpl("cudaMemset", devPtr, value, count);
}

static Error memsetAsyncImpl(void *devPtr, int value, size_t count, Stream stream) {
  {
    Runtime &r = runtime();
    std::lock_guard<std::mutex> lock(r.mutex);
    if (r.fatalCode == kSuccess && !validStream(r, stream))
      return r.fail(kErrorInvalidResourceHandle,
                    "cudaMemsetAsync: stream " + hex(stream) + " is not a stream of this process");
  }
  return memsetImpl("cudaMemsetAsync", devPtr, value, count);
}
extern "C" Error cudaMemsetAsync(void *devPtr, int value, size_t count, Stream stream) {
  return memsetAsyncImpl(devPtr, value, count, stream);
}
extern "C" Error cudaMemsetAsync_ptsz(void *devPtr, int value, size_t count, Stream stream) {
  return memsetAsyncImpl(devPtr, value, count, stream);
}

// __device__ and __constant__ variables live in the device code, which the
// module does not expose yet.
static Error symbolImpl(const char *call, const void *symbol) {
  TESSEL_CUDART_PROLOGUE(r);
  auto it = r.variables.find(symbol);
  if (it == r.variables.end())
    return r.fail(kErrorInvalidSymbol, std::string(call) + ": " + hex(symbol) +
                                           " is not a registered __device__ or __constant__ "
                                           "variable");
  return r.fail(kErrorNotSupported,
                std::string(call) + ": device variable '" + it->second.name + "' (" +
                    std::to_string(it->second.size) +
                    " bytes): __device__ and __constant__ variables are not supported by "
                    "Tessel's CUDA runtime yet");
}
extern "C" Error cudaMemcpyToSymbol(const void *symbol, const void *src, size_t count,
                                    size_t offset, MemcpyKind kind) {
  (void)src, (void)count, (void)offset, (void)kind;
  return symbolImpl("cudaMemcpyToSymbol", symbol);
}
extern "C" Error cudaMemcpyToSymbol_ptds(const void *symbol, const void *src, size_t count,
                                         size_t offset, MemcpyKind kind) {
  (void)src, (void)count, (void)offset, (void)kind;
  return symbolImpl("cudaMemcpyToSymbol", symbol);
}
extern "C" Error cudaMemcpyFromSymbol(void *dst, const void *symbol, size_t count, size_t offset,
                                      MemcpyKind kind) {
  (void)dst, (void)count, (void)offset, (void)kind;
  return symbolImpl("cudaMemcpyFromSymbol", symbol);
}
extern "C" Error cudaMemcpyFromSymbol_ptds(void *dst, const void *symbol, size_t count,
                                           size_t offset, MemcpyKind kind) {
  (void)dst, (void)count, (void)offset, (void)kind;
  return symbolImpl("cudaMemcpyFromSymbol", symbol);
}

// ---- Synchronization, errors, devices ----------------------------------------

extern "C" Error cudaDeviceSynchronize(void) {
  Runtime &r = runtime();
  std::lock_guard<std::mutex> lock(r.mutex);
  if (Error e = r.ensureDevice("cudaDeviceSynchronize"))
    return e;
  return r.waitQueued("cudaDeviceSynchronize");
}

extern "C" Error cudaThreadSynchronize(void) { return cudaDeviceSynchronize(); }

extern "C" Error cudaDeviceReset(void) {
  TESSEL_CUDART_PROLOGUE(r);
  // Frees every allocation, host allocations, events and streams included;
  // the device and the loaded kernels stay.
  if (Error e = r.waitQueued("cudaDeviceReset"))
    return e;
  r.allocations.clear();
  for (const auto &[address, size] : r.hostAllocations)
    std::free(reinterpret_cast<void *>(address));
  r.hostAllocations.clear();
  for (EventState *e : r.events)
    delete e;
  r.events.clear();
  for (StreamState *s : r.streams)
    delete s;
  r.streams.clear();
  lastError = kSuccess;
  return kSuccess;
}

extern "C" Error cudaGetLastError(void) {
  Runtime &r = runtime();
  std::lock_guard<std::mutex> lock(r.mutex);
  if (r.fatalCode != kSuccess)
    return r.fatalCode; // sticky
  Error e = lastError;
  lastError = kSuccess;
  return e;
}

extern "C" Error cudaPeekAtLastError(void) {
  Runtime &r = runtime();
  std::lock_guard<std::mutex> lock(r.mutex);
  return r.fatalCode != kSuccess ? r.fatalCode : lastError;
}

extern "C" const char *cudaGetErrorString(Error error) {
  const ErrorText *t = errorText(error);
  return t ? t->text : "unrecognized error code";
}

extern "C" const char *cudaGetErrorName(Error error) {
  const ErrorText *t = errorText(error);
  return t ? t->name : "unrecognized error code";
}

extern "C" Error cudaSetDevice(int device) {
  TESSEL_CUDART_PROLOGUE(r);
  if (device != 0)
    return r.fail(kErrorInvalidDevice, "cudaSetDevice(" + std::to_string(device) +
                                           "): Tessel's CUDA runtime has one device, 0");
  return kSuccess;
}

extern "C" Error cudaGetDevice(int *device) {
  TESSEL_CUDART_PROLOGUE(r);
  if (!device)
    return r.fail(kErrorInvalidValue, "cudaGetDevice: device is a null pointer");
  *device = 0;
  return kSuccess;
}

extern "C" Error cudaGetDeviceCount(int *count) {
  TESSEL_CUDART_PROLOGUE(r);
  if (!count)
    return r.fail(kErrorInvalidValue, "cudaGetDeviceCount: count is a null pointer");
  *count = 1;
  return kSuccess;
}

// ---- Device properties ---------------------------------------------------------

namespace {

// The last-level cache of the host (what a GPU's L2 is to its
// multiprocessors), from sysconf; 0 where the C library does not tell.
int hostCacheBytes() {
  long bytes = 0;
#ifdef _SC_LEVEL3_CACHE_SIZE
  bytes = ::sysconf(_SC_LEVEL3_CACHE_SIZE);
#endif
#ifdef _SC_LEVEL2_CACHE_SIZE
  if (bytes <= 0)
    bytes = ::sysconf(_SC_LEVEL2_CACHE_SIZE);
#endif
  return bytes > 0 && bytes <= INT32_MAX ? static_cast<int>(bytes) : 0;
}

// What the cpu device answers for a cudaDeviceAttr: a GPU-like device that
// the cpu path honours. Launch limits are the ones every launch is checked
// against (hal/command_buffer.h); the compute capability is the one
// tessel-cc compiles device code for (sm_80), and the other per-device
// numbers are an A100's, which the cpu path does not limit further (a
// block's shared memory is a slot on the stack of the pool thread that runs
// it). One multiprocessor per pool thread (blocks run concurrently on the
// pool, one per thread at a time). Features the library does not implement
// (textures, surfaces, managed and mapped memory, concurrent kernels,
// cooperative and cluster launches, memory pools, ...) answer 0. Numbers
// that are not a CUDA 13 cudaDeviceAttr (or are one of its Reserved*
// entries) answer std::nullopt.
std::optional<int> cpuAttribute(DeviceAttr attr, unsigned threads) {
  switch (attr) {
  case kDevAttrMaxThreadsPerBlock:
  case kDevAttrMaxBlockDimX:
  case kDevAttrMaxBlockDimY:
    return static_cast<int>(hal::kMaxLaunchThreads);
  case kDevAttrMaxBlockDimZ:
    return static_cast<int>(hal::kMaxLaunchBlockZ);
  case kDevAttrMaxGridDimX:
    return static_cast<int>(hal::kMaxLaunchGridX);
  case kDevAttrMaxGridDimY:
  case kDevAttrMaxGridDimZ:
    return static_cast<int>(hal::kMaxLaunchGridYZ);
  case kDevAttrMaxSharedMemoryPerBlock:
    return 48 * 1024;
  case kDevAttrMaxSharedMemoryPerBlockOptin:
    return 163 * 1024; // sm_80's
  case kDevAttrMaxSharedMemoryPerMultiprocessor:
    return 164 * 1024;
  case kDevAttrReservedSharedMemoryPerBlock:
    return 0; // the cpu path reserves none
  case kDevAttrTotalConstantMemory:
    return 65536;
  case kDevAttrWarpSize:
    return 32;
  case kDevAttrMaxPitch:
    return INT32_MAX;
  case kDevAttrMaxRegistersPerBlock:
  case kDevAttrMaxRegistersPerMultiprocessor:
    return 65536;
  case kDevAttrClockRate:
    return 1000000; // kHz, nominal
  case kDevAttrMemoryClockRate:
    return 1600000; // kHz, nominal (DDR4-3200)
  case kDevAttrGlobalMemoryBusWidth:
    return 128; // bits, nominal (two 64-bit channels)
  case kDevAttrL2CacheSize:
    return hostCacheBytes();
  case kDevAttrTextureAlignment:
  case kDevAttrSurfaceAlignment:
    return 512;
  case kDevAttrTexturePitchAlignment:
    return 32;
  case kDevAttrMultiProcessorCount:
    return static_cast<int>(threads);
  case kDevAttrComputeCapabilityMajor:
    return 8;
  case kDevAttrComputeCapabilityMinor:
    return 0;
  case kDevAttrMaxThreadsPerMultiProcessor:
    return 2048;
  case kDevAttrMaxBlocksPerMultiprocessor:
    return 32;
  case kDevAttrSingleToDoublePrecisionPerfRatio:
    return 2; // half as many double lanes per vector
  case kDevAttrIntegrated:        // device memory is host memory
  case kDevAttrUnifiedAddressing: // and device pointers are host pointers
  case kDevAttrGlobalL1CacheSupported:
  case kDevAttrLocalL1CacheSupported:
  case kDevAttrMemSyncDomainCount:
    return 1;
  case kDevAttrNumaId:
  case kDevAttrHostNumaId:
    return -1; // not a NUMA node of its own
  // Not supported: copies and kernels do not overlap, one kernel at a time,
  // no textures or surfaces, no cudaMallocManaged, cudaHostRegister or
  // cudaHostGetDevicePointer, no cooperative or cluster launches, no memory
  // pools, no PCI device.
  case kDevAttrGpuOverlap:
  case kDevAttrKernelExecTimeout:
  case kDevAttrCanMapHostMemory:
  case kDevAttrComputeMode: // cudaComputeModeDefault
  case kDevAttrMaxTexture1DWidth:
  case kDevAttrMaxTexture2DWidth:
  case kDevAttrMaxTexture2DHeight:
  case kDevAttrMaxTexture3DWidth:
  case kDevAttrMaxTexture3DHeight:
  case kDevAttrMaxTexture3DDepth:
  case kDevAttrMaxTexture2DLayeredWidth:
  case kDevAttrMaxTexture2DLayeredHeight:
  case kDevAttrMaxTexture2DLayeredLayers:
  case kDevAttrConcurrentKernels:
  case kDevAttrEccEnabled:
  case kDevAttrPciBusId:
  case kDevAttrPciDeviceId:
  case kDevAttrTccDriver:
  case kDevAttrAsyncEngineCount:
  case kDevAttrMaxTexture1DLayeredWidth:
  case kDevAttrMaxTexture1DLayeredLayers:
  case kDevAttrMaxTexture2DGatherWidth:
  case kDevAttrMaxTexture2DGatherHeight:
  case kDevAttrMaxTexture3DWidthAlt:
  case kDevAttrMaxTexture3DHeightAlt:
  case kDevAttrMaxTexture3DDepthAlt:
  case kDevAttrPciDomainId:
  case kDevAttrMaxTextureCubemapWidth:
  case kDevAttrMaxTextureCubemapLayeredWidth:
  case kDevAttrMaxTextureCubemapLayeredLayers:
  case kDevAttrMaxSurface1DWidth:
  case kDevAttrMaxSurface2DWidth:
  case kDevAttrMaxSurface2DHeight:
  case kDevAttrMaxSurface3DWidth:
  case kDevAttrMaxSurface3DHeight:
  case kDevAttrMaxSurface3DDepth:
  case kDevAttrMaxSurface1DLayeredWidth:
  case kDevAttrMaxSurface1DLayeredLayers:
  case kDevAttrMaxSurface2DLayeredWidth:
  case kDevAttrMaxSurface2DLayeredHeight:
  case kDevAttrMaxSurface2DLayeredLayers:
  case kDevAttrMaxSurfaceCubemapWidth:
  case kDevAttrMaxSurfaceCubemapLayeredWidth:
  case kDevAttrMaxSurfaceCubemapLayeredLayers:
  case kDevAttrMaxTexture1DLinearWidth:
  case kDevAttrMaxTexture2DLinearWidth:
  case kDevAttrMaxTexture2DLinearHeight:
  case kDevAttrMaxTexture2DLinearPitch:
  case kDevAttrMaxTexture2DMipmappedWidth:
  case kDevAttrMaxTexture2DMipmappedHeight:
  case kDevAttrMaxTexture1DMipmappedWidth:
  case kDevAttrStreamPrioritiesSupported:
  case kDevAttrManagedMemory:
  case kDevAttrIsMultiGpuBoard:
  case kDevAttrMultiGpuBoardGroupID:
  case kDevAttrHostNativeAtomicSupported:
  case kDevAttrPageableMemoryAccess:
  case kDevAttrConcurrentManagedAccess:
  case kDevAttrComputePreemptionSupported:
  case kDevAttrCanUseHostPointerForRegisteredMem:
  case kDevAttrCooperativeLaunch:
  case kDevAttrCanFlushRemoteWrites:
  case kDevAttrHostRegisterSupported:
  case kDevAttrPageableMemoryAccessUsesHostPageTables:
  case kDevAttrDirectManagedMemAccessFromHost:
  case kDevAttrMaxPersistingL2CacheSize:
  case kDevAttrMaxAccessPolicyWindowSize:
  case kDevAttrSparseCudaArraySupported:
  case kDevAttrHostRegisterReadOnlySupported:
  case kDevAttrTimelineSemaphoreInteropSupported:
  case kDevAttrMemoryPoolsSupported:
  case kDevAttrGPUDirectRDMASupported:
  case kDevAttrGPUDirectRDMAFlushWritesOptions:
  case kDevAttrGPUDirectRDMAWritesOrdering:
  case kDevAttrMemoryPoolSupportedHandleTypes:
  case kDevAttrClusterLaunch:
  case kDevAttrDeferredMappingCudaArraySupported:
  case kDevAttrIpcEventSupport:
  case kDevAttrNumaConfig:
  case kDevAttrMpsEnabled:
  case kDevAttrD3D12CigSupported:
  case kDevAttrVulkanCigSupported:
  case kDevAttrGpuPciDeviceId:
  case kDevAttrGpuPciSubsystemId:
  case kDevAttrHostNumaMemoryPoolsSupported:
  case kDevAttrHostNumaMultinodeIpcSupported:
  case kDevAttrHostMemoryPoolsSupported:
  case kDevAttrOnlyPartialHostNativeAtomicSupported:
    return 0;
  default:
    return std::nullopt;
  }
}

// The device's answer for `attr`: the HAL device's own (cuda: the
// driver's), else, on the cpu device, cpuAttribute's.
std::optional<int> deviceAttribute(Runtime &r, DeviceAttr attr) {
  hal::Device &d = r.device->hal();
  if (std::optional<int> v = d.cudaAttribute(attr))
    return v;
  if (const auto *cpu = dynamic_cast<const hal::cpu::CpuDevice *>(&d))
    return cpuAttribute(attr, cpu->threads());
  return std::nullopt;
}

// cudaDeviceProp::name: the GPU's name, or "Tessel CPU (16 threads)".
std::string deviceName(Runtime &r) {
  hal::Device &d = r.device->hal();
  if (const auto *cuda = dynamic_cast<const hal::cuda::CudaDevice *>(&d))
    return cuda->context().deviceName();
  if (const auto *cpu = dynamic_cast<const hal::cpu::CpuDevice *>(&d)) {
    unsigned n = cpu->threads();
    return "Tessel CPU (" + std::to_string(n) + (n == 1 ? " thread)" : " threads)");
  }
  return r.device->description();
}

} // namespace

extern "C" Error cudaDeviceGetAttribute(int *value, DeviceAttr attr, int device) {
  Runtime &r = runtime();
  std::lock_guard<std::mutex> lock(r.mutex);
  if (Error e = r.ensureDevice("cudaDeviceGetAttribute"))
    return e;
  if (!value)
    return r.fail(kErrorInvalidValue, "cudaDeviceGetAttribute: value is a null pointer");
  if (device != 0)
    return r.fail(kErrorInvalidDevice, "cudaDeviceGetAttribute(device " + std::to_string(device) +
                                           "): Tessel's CUDA runtime has one device, 0");
  std::optional<int> v = deviceAttribute(r, attr);
  if (!v)
    return r.fail(kErrorInvalidValue, "cudaDeviceGetAttribute: attribute " + std::to_string(attr) +
                                          " is not a device attribute (cudaDeviceAttr) that " +
                                          r.device->description() + " knows");
  *value = *v;
  return kSuccess;
}

extern "C" Error cudaGetDeviceProperties(DeviceProp *prop, int device) {
  Runtime &r = runtime();
  std::lock_guard<std::mutex> lock(r.mutex);
  if (Error e = r.ensureDevice("cudaGetDeviceProperties"))
    return e;
  if (!prop)
    return r.fail(kErrorInvalidValue, "cudaGetDeviceProperties: prop is a null pointer");
  if (device != 0)
    return r.fail(kErrorInvalidDevice, "cudaGetDeviceProperties(device " +
                                           std::to_string(device) +
                                           "): Tessel's CUDA runtime has one device, 0");
  uint64_t freeBytes = 0, totalBytes = 0;
  rt::Status st = r.device->hal().memoryInfo(&freeBytes, &totalBytes);
  if (!st.ok())
    return r.fail(errorFor(st, kErrorInvalidValue), "cudaGetDeviceProperties: " + st.message());
  // Every field without an answer (a driver that does not know an
  // attribute, fields with no cudaDeviceAttr: uuid, luid, ...) stays 0.
  DeviceProp p;
  std::memset(&p, 0, sizeof(p));
  std::snprintf(p.name, sizeof(p.name), "%s", deviceName(r).c_str());
  p.totalGlobalMem = totalBytes;
  auto get = [&](DeviceAttr a) { return deviceAttribute(r, a).value_or(0); };
  auto bytes = [&](DeviceAttr a) { return static_cast<size_t>(std::max(get(a), 0)); };
  p.sharedMemPerBlock = bytes(kDevAttrMaxSharedMemoryPerBlock);
  p.regsPerBlock = get(kDevAttrMaxRegistersPerBlock);
  p.warpSize = get(kDevAttrWarpSize);
  p.memPitch = bytes(kDevAttrMaxPitch);
  p.maxThreadsPerBlock = get(kDevAttrMaxThreadsPerBlock);
  for (int i = 0; i < 3; ++i) {
    p.maxThreadsDim[i] = get(kDevAttrMaxBlockDimX + i);
    p.maxGridSize[i] = get(kDevAttrMaxGridDimX + i);
  }
  p.totalConstMem = bytes(kDevAttrTotalConstantMemory);
  p.major = get(kDevAttrComputeCapabilityMajor);
  p.minor = get(kDevAttrComputeCapabilityMinor);
  p.textureAlignment = bytes(kDevAttrTextureAlignment);
  p.texturePitchAlignment = bytes(kDevAttrTexturePitchAlignment);
  p.multiProcessorCount = get(kDevAttrMultiProcessorCount);
  p.integrated = get(kDevAttrIntegrated);
  p.canMapHostMemory = get(kDevAttrCanMapHostMemory);
  p.maxTexture1D = get(kDevAttrMaxTexture1DWidth);
  p.maxTexture1DMipmap = get(kDevAttrMaxTexture1DMipmappedWidth);
  p.maxTexture2D[0] = get(kDevAttrMaxTexture2DWidth);
  p.maxTexture2D[1] = get(kDevAttrMaxTexture2DHeight);
  p.maxTexture2DMipmap[0] = get(kDevAttrMaxTexture2DMipmappedWidth);
  p.maxTexture2DMipmap[1] = get(kDevAttrMaxTexture2DMipmappedHeight);
  p.maxTexture2DLinear[0] = get(kDevAttrMaxTexture2DLinearWidth);
  p.maxTexture2DLinear[1] = get(kDevAttrMaxTexture2DLinearHeight);
  p.maxTexture2DLinear[2] = get(kDevAttrMaxTexture2DLinearPitch);
  p.maxTexture2DGather[0] = get(kDevAttrMaxTexture2DGatherWidth);
  p.maxTexture2DGather[1] = get(kDevAttrMaxTexture2DGatherHeight);
  p.maxTexture3D[0] = get(kDevAttrMaxTexture3DWidth);
  p.maxTexture3D[1] = get(kDevAttrMaxTexture3DHeight);
  p.maxTexture3D[2] = get(kDevAttrMaxTexture3DDepth);
  p.maxTexture3DAlt[0] = get(kDevAttrMaxTexture3DWidthAlt);
  p.maxTexture3DAlt[1] = get(kDevAttrMaxTexture3DHeightAlt);
  p.maxTexture3DAlt[2] = get(kDevAttrMaxTexture3DDepthAlt);
  p.maxTextureCubemap = get(kDevAttrMaxTextureCubemapWidth);
  p.maxTexture1DLayered[0] = get(kDevAttrMaxTexture1DLayeredWidth);
  p.maxTexture1DLayered[1] = get(kDevAttrMaxTexture1DLayeredLayers);
  p.maxTexture2DLayered[0] = get(kDevAttrMaxTexture2DLayeredWidth);
  p.maxTexture2DLayered[1] = get(kDevAttrMaxTexture2DLayeredHeight);
  p.maxTexture2DLayered[2] = get(kDevAttrMaxTexture2DLayeredLayers);
  p.maxTextureCubemapLayered[0] = get(kDevAttrMaxTextureCubemapLayeredWidth);
  p.maxTextureCubemapLayered[1] = get(kDevAttrMaxTextureCubemapLayeredLayers);
  p.maxSurface1D = get(kDevAttrMaxSurface1DWidth);
  p.maxSurface2D[0] = get(kDevAttrMaxSurface2DWidth);
  p.maxSurface2D[1] = get(kDevAttrMaxSurface2DHeight);
  p.maxSurface3D[0] = get(kDevAttrMaxSurface3DWidth);
  p.maxSurface3D[1] = get(kDevAttrMaxSurface3DHeight);
  p.maxSurface3D[2] = get(kDevAttrMaxSurface3DDepth);
  p.maxSurface1DLayered[0] = get(kDevAttrMaxSurface1DLayeredWidth);
  p.maxSurface1DLayered[1] = get(kDevAttrMaxSurface1DLayeredLayers);
  p.maxSurface2DLayered[0] = get(kDevAttrMaxSurface2DLayeredWidth);
  p.maxSurface2DLayered[1] = get(kDevAttrMaxSurface2DLayeredHeight);
  p.maxSurface2DLayered[2] = get(kDevAttrMaxSurface2DLayeredLayers);
  p.maxSurfaceCubemap = get(kDevAttrMaxSurfaceCubemapWidth);
  p.maxSurfaceCubemapLayered[0] = get(kDevAttrMaxSurfaceCubemapLayeredWidth);
  p.maxSurfaceCubemapLayered[1] = get(kDevAttrMaxSurfaceCubemapLayeredLayers);
  p.surfaceAlignment = bytes(kDevAttrSurfaceAlignment);
  p.concurrentKernels = get(kDevAttrConcurrentKernels);
  p.ECCEnabled = get(kDevAttrEccEnabled);
  p.pciBusID = get(kDevAttrPciBusId);
  p.pciDeviceID = get(kDevAttrPciDeviceId);
  p.pciDomainID = get(kDevAttrPciDomainId);
  p.tccDriver = get(kDevAttrTccDriver);
  p.asyncEngineCount = get(kDevAttrAsyncEngineCount);
  p.unifiedAddressing = get(kDevAttrUnifiedAddressing);
  p.memoryBusWidth = get(kDevAttrGlobalMemoryBusWidth);
  p.l2CacheSize = get(kDevAttrL2CacheSize);
  p.persistingL2CacheMaxSize = get(kDevAttrMaxPersistingL2CacheSize);
  p.maxThreadsPerMultiProcessor = get(kDevAttrMaxThreadsPerMultiProcessor);
  p.streamPrioritiesSupported = get(kDevAttrStreamPrioritiesSupported);
  p.globalL1CacheSupported = get(kDevAttrGlobalL1CacheSupported);
  p.localL1CacheSupported = get(kDevAttrLocalL1CacheSupported);
  p.sharedMemPerMultiprocessor = bytes(kDevAttrMaxSharedMemoryPerMultiprocessor);
  p.regsPerMultiprocessor = get(kDevAttrMaxRegistersPerMultiprocessor);
  p.managedMemory = get(kDevAttrManagedMemory);
  p.isMultiGpuBoard = get(kDevAttrIsMultiGpuBoard);
  p.multiGpuBoardGroupID = get(kDevAttrMultiGpuBoardGroupID);
  p.hostNativeAtomicSupported = get(kDevAttrHostNativeAtomicSupported);
  p.pageableMemoryAccess = get(kDevAttrPageableMemoryAccess);
  p.concurrentManagedAccess = get(kDevAttrConcurrentManagedAccess);
  p.computePreemptionSupported = get(kDevAttrComputePreemptionSupported);
  p.canUseHostPointerForRegisteredMem = get(kDevAttrCanUseHostPointerForRegisteredMem);
  p.cooperativeLaunch = get(kDevAttrCooperativeLaunch);
  p.sharedMemPerBlockOptin = bytes(kDevAttrMaxSharedMemoryPerBlockOptin);
  p.pageableMemoryAccessUsesHostPageTables = get(kDevAttrPageableMemoryAccessUsesHostPageTables);
  p.directManagedMemAccessFromHost = get(kDevAttrDirectManagedMemAccessFromHost);
  p.maxBlocksPerMultiProcessor = get(kDevAttrMaxBlocksPerMultiprocessor);
  p.accessPolicyMaxWindowSize = get(kDevAttrMaxAccessPolicyWindowSize);
  p.reservedSharedMemPerBlock = bytes(kDevAttrReservedSharedMemoryPerBlock);
  p.hostRegisterSupported = get(kDevAttrHostRegisterSupported);
  p.sparseCudaArraySupported = get(kDevAttrSparseCudaArraySupported);
  p.hostRegisterReadOnlySupported = get(kDevAttrHostRegisterReadOnlySupported);
  p.timelineSemaphoreInteropSupported = get(kDevAttrTimelineSemaphoreInteropSupported);
  p.memoryPoolsSupported = get(kDevAttrMemoryPoolsSupported);
  p.gpuDirectRDMASupported = get(kDevAttrGPUDirectRDMASupported);
  p.gpuDirectRDMAFlushWritesOptions =
      static_cast<unsigned>(get(kDevAttrGPUDirectRDMAFlushWritesOptions));
  p.gpuDirectRDMAWritesOrdering = get(kDevAttrGPUDirectRDMAWritesOrdering);
  p.memoryPoolSupportedHandleTypes =
      static_cast<unsigned>(get(kDevAttrMemoryPoolSupportedHandleTypes));
  p.deferredMappingCudaArraySupported = get(kDevAttrDeferredMappingCudaArraySupported);
  p.ipcEventSupported = get(kDevAttrIpcEventSupport);
  p.clusterLaunch = get(kDevAttrClusterLaunch);
  p.deviceNumaConfig = get(kDevAttrNumaConfig);
  p.deviceNumaId = get(kDevAttrNumaId);
  p.mpsEnabled = get(kDevAttrMpsEnabled);
  p.hostNumaId = get(kDevAttrHostNumaId);
  p.gpuPciDeviceID = static_cast<unsigned>(get(kDevAttrGpuPciDeviceId));
  p.gpuPciSubsystemID = static_cast<unsigned>(get(kDevAttrGpuPciSubsystemId));
  p.hostNumaMultinodeIpcSupported = get(kDevAttrHostNumaMultinodeIpcSupported);
  std::memcpy(prop, &p, sizeof(p));
  return kSuccess;
}

extern "C" Error cudaMemGetInfo(size_t *free, size_t *total) {
  Runtime &r = runtime();
  std::lock_guard<std::mutex> lock(r.mutex);
  if (Error e = r.ensureDevice("cudaMemGetInfo"))
    return e;
  if (!free || !total)
    return r.fail(kErrorInvalidValue, std::string("cudaMemGetInfo: ") +
                                          (free ? "total" : "free") + " is a null pointer");
  uint64_t f = 0, t = 0;
  rt::Status st = r.device->hal().memoryInfo(&f, &t);
  if (!st.ok())
    return r.fail(errorFor(st, kErrorInvalidValue), "cudaMemGetInfo: " + st.message());
  *free = static_cast<size_t>(f);
  *total = static_cast<size_t>(t);
  return kSuccess;
}

// ---- Streams (all are the device's one stream, in order)

extern "C" Error cudaStreamCreateWithFlags(Stream *pStream, unsigned int flags) {
  TESSEL_CUDART_PROLOGUE(r);
  if (!pStream)
    return r.fail(kErrorInvalidValue, "cudaStreamCreate: pStream is a null pointer");
  if (flags & ~kStreamNonBlocking)
    return r.fail(kErrorInvalidValue,
                  "cudaStreamCreateWithFlags: unknown flags " + hex(uint64_t(flags)));
  auto *s = new StreamState();
  r.streams.insert(s);
  *pStream = reinterpret_cast<Stream>(s);
  return kSuccess;
}

extern "C" Error cudaStreamCreate(Stream *pStream) { return cudaStreamCreateWithFlags(pStream, 0); }

extern "C" Error cudaStreamDestroy(Stream stream) {
  TESSEL_CUDART_PROLOGUE(r);
  auto *s = reinterpret_cast<StreamState *>(stream);
  if (!r.streams.erase(s))
    return r.fail(kErrorInvalidResourceHandle,
                  "cudaStreamDestroy: " + hex(stream) + " is not a stream of this process");
  delete s;
  return kSuccess;
}

static Error streamSynchronizeImpl(Stream stream) {
  TESSEL_CUDART_PROLOGUE(r);
  if (!validStream(r, stream))
    return r.fail(kErrorInvalidResourceHandle,
                  "cudaStreamSynchronize: " + hex(stream) + " is not a stream of this process");
  return r.waitQueued("cudaStreamSynchronize");
}
extern "C" Error cudaStreamSynchronize(Stream stream) { return streamSynchronizeImpl(stream); }
extern "C" Error cudaStreamSynchronize_ptsz(Stream stream) {
  return streamSynchronizeImpl(stream);
}

// ---- Events (the host clock once the work queued before has completed) ------

extern "C" Error cudaEventCreateWithFlags(Event *event, unsigned int flags) {
  TESSEL_CUDART_PROLOGUE(r);
  if (!event)
    return r.fail(kErrorInvalidValue, "cudaEventCreate: event is a null pointer");
  // cudaEventBlockingSync, DisableTiming, Interprocess.
  if (flags & ~0x7u)
    return r.fail(kErrorInvalidValue,
                  "cudaEventCreateWithFlags: unknown flags " + hex(uint64_t(flags)));
  auto *e = new EventState();
  e->flags = flags;
  r.events.insert(e);
  *event = reinterpret_cast<Event>(e);
  return kSuccess;
}

extern "C" Error cudaEventCreate(Event *event) { return cudaEventCreateWithFlags(event, 0); }

namespace {
EventState *findEvent(Runtime &r, Event event) {
  auto *e = reinterpret_cast<EventState *>(event);
  return r.events.count(e) ? e : nullptr;
}

Error eventRecordImpl(Event event, Stream stream) {
  TESSEL_CUDART_PROLOGUE(r);
  EventState *e = findEvent(r, event);
  if (!e)
    return r.fail(kErrorInvalidResourceHandle,
                  "cudaEventRecord: " + hex(event) + " is not an event of this process");
  if (!validStream(r, stream))
    return r.fail(kErrorInvalidResourceHandle,
                  "cudaEventRecord: stream " + hex(stream) + " is not a stream of this process");
  if (Error err = r.waitQueued("cudaEventRecord"))
    return err;
  e->recorded = true;
  e->time = std::chrono::steady_clock::now();
  return kSuccess;
}
} // namespace

extern "C" Error cudaEventRecord(Event event, Stream stream) {
  return eventRecordImpl(event, stream);
}
extern "C" Error cudaEventRecord_ptsz(Event event, Stream stream) {
  return eventRecordImpl(event, stream);
}

extern "C" Error cudaEventSynchronize(Event event) {
  TESSEL_CUDART_PROLOGUE(r);
  if (!findEvent(r, event))
    return r.fail(kErrorInvalidResourceHandle,
                  "cudaEventSynchronize: " + hex(event) + " is not an event of this process");
  return r.waitQueued("cudaEventSynchronize");
}

extern "C" Error cudaEventElapsedTime(float *ms, Event start, Event end) {
  TESSEL_CUDART_PROLOGUE(r);
  if (!ms)
    return r.fail(kErrorInvalidValue, "cudaEventElapsedTime: ms is a null pointer");
  EventState *s = findEvent(r, start), *e = findEvent(r, end);
  if (!s || !e)
    return r.fail(kErrorInvalidResourceHandle,
                  "cudaEventElapsedTime: " + hex(s ? end : start) +
                      " is not an event of this process");
  if ((s->flags | e->flags) & kEventDisableTiming)
    return r.fail(kErrorInvalidResourceHandle,
                  "cudaEventElapsedTime: an event was created with cudaEventDisableTiming");
  if (!s->recorded || !e->recorded)
    return r.fail(kErrorInvalidResourceHandle,
                  "cudaEventElapsedTime: the " + std::string(s->recorded ? "end" : "start") +
                      " event has not been recorded");
  *ms = std::chrono::duration<float, std::milli>(e->time - s->time).count();
  return kSuccess;
}

extern "C" Error cudaEventDestroy(Event event) {
  TESSEL_CUDART_PROLOGUE(r);
  EventState *e = findEvent(r, event);
  if (!e)
    return r.fail(kErrorInvalidResourceHandle,
                  "cudaEventDestroy: " + hex(event) + " is not an event of this process");
  r.events.erase(e);
  delete e;
  return kSuccess;
}
