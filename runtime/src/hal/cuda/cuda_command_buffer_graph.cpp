// Building the CUDA graph by stream capture (the same replay code as the
// stream command buffer, so both modes issue identical work) and launching
// its instantiation.
#include "hal/cuda/cuda_command_buffer_graph.h"

namespace tessel::rt::hal::cuda {

CudaGraphCommandBuffer::~CudaGraphCommandBuffer() {
  std::lock_guard<std::mutex> lock(ctx_->mutex());
  destroyExec();
}

void CudaGraphCommandBuffer::destroyExec() {
  if (exec_ && ctx_->enter().ok())
    ctx_->api().cuGraphExecDestroy(exec_);
  exec_ = nullptr;
}

Status CudaGraphCommandBuffer::build() {
  const CudaApi &api = ctx_->api();
  destroyExec();
  TESSEL_RETURN_IF_ERROR(prepareStaging());
  // Thread-local capture: other threads may keep using CUDA meanwhile.
  TESSEL_RETURN_IF_ERROR(ctx_->check(
      api.cuStreamBeginCapture_v2(ctx_->stream(), CU_STREAM_CAPTURE_MODE_THREAD_LOCAL),
      "cuStreamBeginCapture"));
  Status recorded = enqueue(/*syncEach=*/false);
  CUgraph graph = nullptr;
  // Always end the capture, also after a failed enqueue, or the stream
  // stays in capture mode.
  CUresult ended = api.cuStreamEndCapture(ctx_->stream(), &graph);
  if (!recorded.ok()) {
    if (graph)
      api.cuGraphDestroy(graph);
    return recorded.withContext("capturing the graph");
  }
  TESSEL_RETURN_IF_ERROR(ctx_->check(ended, "cuStreamEndCapture"));
  CUresult r = api.cuGraphInstantiateWithFlags(&exec_, graph, 0);
  // The executable graph is independent of the graph it came from.
  api.cuGraphDestroy(graph);
  if (r != CUDA_SUCCESS) {
    exec_ = nullptr;
    return ctx_->check(r, "cuGraphInstantiateWithFlags (" + std::to_string(commandCount()) +
                              " commands)");
  }
  builtCommands_ = commandCount();
  return Status();
}

Status CudaGraphCommandBuffer::enqueueRun() {
  if (commandCount() == 0)
    return Status();
  if (!exec_ || builtCommands_ != commandCount())
    TESSEL_RETURN_IF_ERROR(build());
  return ctx_->check(ctx_->api().cuGraphLaunch(exec_, ctx_->stream()), "cuGraphLaunch");
}

Status CudaGraphCommandBuffer::submit() {
  if (commandCount() == 0)
    return Status();
  std::lock_guard<std::mutex> lock(ctx_->mutex());
  TESSEL_RETURN_IF_ERROR(ctx_->enter());
  TESSEL_RETURN_IF_ERROR(enqueueRun());
  Status s = ctx_->synchronize("running the command buffer (CUDA graph)");
  if (!s.ok())
    return Status(s.code(), s.message() + " in " + describeDispatches());
  return s;
}

} // namespace tessel::rt::hal::cuda
