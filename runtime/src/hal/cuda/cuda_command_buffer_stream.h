// Stream command buffer: every submit replays the recorded commands on the
// device's CUstream, then synchronizes.
#pragma once

#include "hal/cuda/cuda_command_buffer.h"

namespace tessel::rt::hal::cuda {

class CudaStreamCommandBuffer final : public CudaCommandBuffer {
public:
  using CudaCommandBuffer::CudaCommandBuffer;
  Status submit() override;
  Status enqueueRun() override;
  const char *mode() const override { return "stream"; }
};

} // namespace tessel::rt::hal::cuda
