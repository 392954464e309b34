// Shared helpers of HAL buffers.
#include "hal/buffer.h"

#include <string>

namespace tessel::rt::hal {

Status checkBufferRange(const Buffer &buffer, size_t offset, size_t length, const char *op) {
  if (offset > buffer.size() || length > buffer.size() - offset)
    return invalidArgument(std::string(op) + " of " + std::to_string(length) + " bytes at offset " +
                           std::to_string(offset) + " is outside a buffer of " +
                           std::to_string(buffer.size()) + " bytes");
  return Status();
}

} // namespace tessel::rt::hal
