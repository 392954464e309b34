// Stream replay. TESSEL_CUDA_SYNC_EACH=1 synchronizes after every command,
// trading speed for errors that name the exact failing dispatch.
#include "hal/cuda/cuda_command_buffer_stream.h"

#include <cstdlib>
#include <cstring>

namespace tessel::rt::hal::cuda {

bool syncEachFromEnv() {
  const char *v = std::getenv("TESSEL_CUDA_SYNC_EACH");
  return v && *v && std::strcmp(v, "0") != 0;
}

Status CudaStreamCommandBuffer::submit() {
  if (commandCount() == 0)
    return Status();
  static const bool syncEach = syncEachFromEnv();
  std::lock_guard<std::mutex> lock(ctx_->mutex());
  TESSEL_RETURN_IF_ERROR(ctx_->enter());
  TESSEL_RETURN_IF_ERROR(prepareStaging());
  Status s = enqueue(syncEach);
  if (!s.ok()) {
    // Let already-enqueued work finish before the caller frees its buffers.
    (void)ctx_->synchronize("draining the stream");
    return s;
  }
  s = ctx_->synchronize("running the command buffer");
  if (!s.ok())
    return Status(s.code(), s.message() + " in " + describeDispatches());
  return s;
}

Status CudaStreamCommandBuffer::enqueueRun() {
  if (commandCount() == 0)
    return Status();
  TESSEL_RETURN_IF_ERROR(prepareStaging());
  return enqueue(/*syncEach=*/false);
}

} // namespace tessel::rt::hal::cuda
