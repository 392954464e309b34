// Placeholder for the CUDA driver: reports that it is not available, so that
// --device=cuda gives a clear error and "best available" falls back to cpu.
// The real driver replaces this file.
#include "hal/driver_registry.h"

namespace tessel::rt::hal {

StatusOr<std::shared_ptr<Device>> createCudaDevice() {
  return unavailable("cuda device: not available in this build (CUDA driver not implemented yet)");
}

} // namespace tessel::rt::hal
