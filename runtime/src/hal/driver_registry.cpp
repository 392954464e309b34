// Lists the compiled-in drivers, most preferred first.
#include "hal/driver_registry.h"

namespace tessel::rt::hal {

const std::vector<Driver> &drivers() {
  static const std::vector<Driver> table = {
      {"cuda", createCudaDevice},
      {"cpu", createCpuDevice},
  };
  return table;
}

} // namespace tessel::rt::hal
