// Loading the CUDA driver API at run time: dlopen("libcuda.so.1", or the
// file TESSEL_CUDA_LIBRARY names), the driver version check, dlsym of each
// row of TESSEL_CUDA_SYMBOLS, cuInit. Done once per process; the result
// (table or reason) is cached, since neither changes while the process runs.
#include "hal/cuda/cuda_api.h"

#include "printable_text.h"

#include <cstdlib>
#include <dlfcn.h>
#include <mutex>
#include <optional>

namespace tessel::rt::hal::cuda {

namespace {

constexpr const char *kDefaultLibrary = "libcuda.so.1";

Status noDriver(const std::string &why) {
  return unavailable("cuda: no CUDA driver/device available (" + why + ")");
}

StatusOr<const CudaApi *> loadOnce() {
  std::string library = cudaLibraryName();
  // Never dlclosed: the driver keeps threads and state for the process.
  void *lib = ::dlopen(library.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!lib) {
    const char *err = ::dlerror();
    return noDriver(library + " not found" + (err ? ": " + printableText(err) : std::string()));
  }
  static CudaApi api;
  // The version first: an old driver gets "too old" rather than the first
  // entry point it happens to lack.
  api.cuDriverGetVersion =
      reinterpret_cast<decltype(api.cuDriverGetVersion)>(::dlsym(lib, "cuDriverGetVersion"));
  if (!api.cuDriverGetVersion)
    return noDriver(library + " lacks cuDriverGetVersion: not a CUDA driver library");
  if (api.cuDriverGetVersion(&api.driverVersion) != CUDA_SUCCESS)
    return noDriver(library + ": cuDriverGetVersion failed");
  if (api.driverVersion < kMinimumDriverVersion)
    return noDriver("the CUDA driver is too old: it supports CUDA " +
                    formatDriverVersion(api.driverVersion) + " but this runtime needs CUDA " +
                    formatDriverVersion(kMinimumDriverVersion) +
                    " or newer; update the NVIDIA driver");
#define TESSEL_CUDA_RESOLVE(name, params)                                                         \
  api.name = reinterpret_cast<decltype(api.name)>(::dlsym(lib, #name));                           \
  if (!api.name)                                                                                  \
    return noDriver(library + " (CUDA " + formatDriverVersion(api.driverVersion) +                \
                    ") lacks " #name ": the driver is too old or not a complete CUDA driver");
  TESSEL_CUDA_SYMBOLS(TESSEL_CUDA_RESOLVE)
#undef TESSEL_CUDA_RESOLVE

  CUresult r = api.cuInit(0);
  if (r != CUDA_SUCCESS)
    return noDriver("cuInit failed: " + cudaErrorText(api, r));
  int count = 0;
  r = api.cuDeviceGetCount(&count);
  if (r != CUDA_SUCCESS)
    return noDriver("cuDeviceGetCount failed: " + cudaErrorText(api, r));
  if (count == 0)
    return noDriver("the driver reports no CUDA device");
  return static_cast<const CudaApi *>(&api);
}

} // namespace

std::string cudaLibraryName() {
  const char *env = std::getenv("TESSEL_CUDA_LIBRARY");
  return env && *env ? env : kDefaultLibrary;
}

std::string formatDriverVersion(int version) {
  return std::to_string(version / 1000) + "." + std::to_string(version % 1000 / 10) + " (" +
         std::to_string(version) + ")";
}

StatusOr<const CudaApi *> loadCudaApi() {
  static std::once_flag once;
  static std::optional<StatusOr<const CudaApi *>> result;
  std::call_once(once, [] { result.emplace(loadOnce()); });
  return *result;
}

std::string cudaErrorText(const CudaApi &api, CUresult result) {
  const char *name = nullptr, *text = nullptr;
  if (api.cuGetErrorName(result, &name) != CUDA_SUCCESS || !name)
    return "CUDA error " + std::to_string(result);
  std::string s = name;
  if (api.cuGetErrorString(result, &text) == CUDA_SUCCESS && text)
    s += std::string(" (") + text + ")";
  return s;
}

Status cudaStatus(const CudaApi &api, CUresult result, const std::string &what) {
  if (result == CUDA_SUCCESS)
    return Status();
  std::string message = "cuda: " + what + " failed: " + cudaErrorText(api, result);
  switch (result) {
  case CUDA_ERROR_OUT_OF_MEMORY:
    return resourceExhausted(message);
  case CUDA_ERROR_INVALID_VALUE:
    return invalidArgument(message);
  default:
    return internalError(message);
  }
}

bool isStickyError(CUresult result) {
  switch (result) {
  case 700: // CUDA_ERROR_ILLEGAL_ADDRESS
  case 702: // CUDA_ERROR_LAUNCH_TIMEOUT
  case 710: // CUDA_ERROR_ASSERT
  case 714: // CUDA_ERROR_HARDWARE_STACK_ERROR
  case 715: // CUDA_ERROR_ILLEGAL_INSTRUCTION
  case 716: // CUDA_ERROR_MISALIGNED_ADDRESS
  case 717: // CUDA_ERROR_INVALID_ADDRESS_SPACE
  case 718: // CUDA_ERROR_INVALID_PC
  case 719: // CUDA_ERROR_LAUNCH_FAILED
  case 999: // CUDA_ERROR_UNKNOWN
    return true;
  default:
    return false;
  }
}

} // namespace tessel::rt::hal::cuda
