// Registration of the driver configurations under test: cpu always; cuda in
// both command buffer modes, skipped (with the reason) where no CUDA device
// is usable. The kernels are embedded at build time (generated headers), so
// the suite binary runs anywhere, e.g. copied to a GPU machine.
#include "cts_driver.h"

#include "cts_kernels_cpu.h"       // the cpu test kernel library (test/kernels)
#include "cts_kernels_sm80_ptx.h"  // cts/kernels/cts_kernels.sm_80.ptx
#include "cts_kernels_sm90_cubin.h" // cts/kernels/cts_kernels.sm_90.cubin
#include "hal/driver_registry.h"

#include <mutex>

namespace tessel::rt::cts {

namespace {

const char *hostArch() {
#if defined(__x86_64__)
  return "x86_64";
#elif defined(__aarch64__)
  return "aarch64";
#else
  return "unknown";
#endif
}

std::vector<CtsDriver> makeDrivers() {
  std::vector<CtsDriver> drivers;

  CtsDriver cpu;
  cpu.name = "cpu";
  cpu.target = "cpu";
  cpu.create = [] { return hal::createCpuDevice(DeviceOptions{}); };
  cpu.createWith = [](DeviceOptions o) { return hal::createCpuDevice(o); };
  cpu.kernelBinaries = {hal::BinaryInfo{"elf-shared-object", hostArch(), {}, cts_kernels_cpu,
                                        cts_kernels_cpu_size}};
  cpu.unsupported = {
      {"fault_reporting", "cpu kernels run in the runtime's process: a faulting kernel crashes "
                          "it, there is no memory protection to report from"},
      {"exhaust_memory", "exhausting host memory would take the test machine's RAM (and the "
                         "OOM killer) with it; MemoryLimitIsEnforced and "
                         "OutOfMemoryIsAClearError cover the cpu"},
  };
  drivers.push_back(cpu);

  for (const char *mode : {"stream", "graph"}) {
    CtsDriver cuda;
    cuda.name = std::string("cuda_") + mode;
    cuda.target = "cuda";
    cuda.optional = true;
    std::string m = mode;
    cuda.create = [m] { return hal::createCudaDevice(DeviceOptions{m}); };
    cuda.createWith = [m](DeviceOptions o) {
      o.cudaCommandBuffer = m;
      return hal::createCudaDevice(o);
    };
    // PTX first in the list: selection must still prefer the exact cubin.
    cuda.kernelBinaries = {
        hal::BinaryInfo{"ptx", "sm_80", {}, cts_kernels_sm80_ptx, cts_kernels_sm80_ptx_size},
        hal::BinaryInfo{"cubin", "sm_90", {}, cts_kernels_sm90_cubin,
                        cts_kernels_sm90_cubin_size}};
    cuda.unsupported = {
        {"host_mapping", "cuda buffers are device memory; the host reads and writes them "
                         "through read()/write()"},
    };
    drivers.push_back(cuda);
  }
  return drivers;
}

uint32_t bindingsOf(const std::string &kernel) {
  static const std::map<std::string, uint32_t> table = {
      {"add_f32", 4},   {"scale_f32", 4}, {"exp_f32", 3},
      {"wg_ids_i32", 2}, {"step_u32", 2},  {"fault_write", 1}};
  auto it = table.find(kernel);
  return it == table.end() ? 0 : it->second;
}

// Parameter sizes of the CUDA C test kernels (abi CudaC); nullptr for the
// others.
const std::vector<uint32_t> *cudaCParameters(const std::string &kernel) {
  static const std::map<std::string, std::vector<uint32_t>> table = {
      {"axpb_cuda_c", {8, 8, 4, 4, 8}}, // float *out, const float *in, int a, float b, long long n
      {"launch_info_cuda_c", {8, 1}},   // long long *out, char tag
  };
  auto it = table.find(kernel);
  return it == table.end() ? nullptr : &it->second;
}

} // namespace

const std::vector<CtsDriver> &ctsDrivers() {
  static const std::vector<CtsDriver> drivers = makeDrivers();
  return drivers;
}

StatusOr<std::shared_ptr<hal::Device>> sharedDevice(const CtsDriver &driver) {
  static std::mutex mutex;
  static std::map<std::string, StatusOr<std::shared_ptr<hal::Device>>> devices;
  std::lock_guard<std::mutex> lock(mutex);
  auto it = devices.find(driver.name);
  if (it == devices.end())
    it = devices.emplace(driver.name, driver.create()).first;
  return it->second;
}

hal::ExecutableSpec kernelSpec(const CtsDriver &driver, const std::vector<std::string> &kernels) {
  hal::ExecutableSpec spec;
  spec.name = "cts kernels (" + driver.name + ")";
  spec.target = driver.target;
  for (const std::string &k : kernels) {
    hal::ExportInfo e;
    e.name = k;
    if (const std::vector<uint32_t> *sizes = cudaCParameters(k)) {
      e.abi = hal::KernelAbi::kCudaC;
      e.parameterSizes = *sizes;
    } else {
      e.workgroupSize = {kKernelWorkgroupSize, 1, 1};
      e.bindingCount = bindingsOf(k);
    }
    spec.exports.push_back(e);
  }
  spec.binaries = driver.kernelBinaries;
  return spec;
}

std::optional<std::string> unsupportedReason(const CtsDriver &driver, const std::string &feature) {
  auto it = driver.unsupported.find(feature);
  if (it == driver.unsupported.end())
    return std::nullopt;
  return it->second;
}

} // namespace tessel::rt::cts
