// Graph command buffer: on first submit the recorded commands are captured
// from the device's stream into a CUDA graph, instantiated once; every
// submit then launches that executable graph (one driver call, however many
// commands). Recording more commands after a submit rebuilds the graph.
#pragma once

#include "hal/cuda/cuda_command_buffer.h"

namespace tessel::rt::hal::cuda {

class CudaGraphCommandBuffer final : public CudaCommandBuffer {
public:
  using CudaCommandBuffer::CudaCommandBuffer;
  ~CudaGraphCommandBuffer() override;
  Status submit() override;
  Status enqueueRun() override;
  const char *mode() const override { return "graph"; }

private:
  /// Captures and instantiates the graph. Call with the context lock held.
  Status build();
  void destroyExec();
  CUgraphExec exec_ = nullptr;
  size_t builtCommands_ = 0; // commandCount() when exec_ was built
};

} // namespace tessel::rt::hal::cuda
