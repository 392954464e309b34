// The host-program interpreter: binds inputs to argument slots, allocates
// transients, records the dispatches into one command buffer, runs it and
// copies each result out of its slot.
#include "module/function_program.h"
#include "tessel/runtime/module.h"

#include <chrono>

namespace tessel::rt {

namespace detail {
std::string formatSignature(const std::vector<TensorType> &arguments,
                            const std::vector<TensorType> &results) {
  auto list = [](const std::vector<TensorType> &types) {
    std::string s = "(";
    for (size_t i = 0; i < types.size(); ++i)
      s += (i ? ", " : "") + types[i].toString();
    return s + ")";
  };
  return list(arguments) + " -> " + list(results);
}
} // namespace detail

Function::Function(std::shared_ptr<const detail::FunctionProgram> program)
    : program_(std::move(program)) {}

const std::string &Function::name() const { return program_->name; }
const std::vector<TensorType> &Function::arguments() const { return program_->arguments; }
const std::vector<TensorType> &Function::results() const { return program_->results; }
size_t Function::dispatchCount() const { return program_->dispatches.size(); }
std::string Function::signature() const {
  return detail::formatSignature(program_->arguments, program_->results);
}

namespace {
using Clock = std::chrono::steady_clock;
double msSince(Clock::time_point start) {
  return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}
} // namespace

StatusOr<std::vector<HostTensor>> Function::call(const std::vector<HostTensor> &inputs,
                                                 CallTimings *timings) const {
  const detail::FunctionProgram &p = *program_;
  const std::string ctx = "function '" + p.name + "'";
  if (inputs.size() != p.arguments.size())
    return invalidArgument(ctx + " expects " + std::to_string(p.arguments.size()) +
                           (p.arguments.size() == 1 ? " argument" : " arguments") + ", got " +
                           std::to_string(inputs.size()));
  for (size_t i = 0; i < inputs.size(); ++i) {
    const HostTensor &in = inputs[i];
    if (in.type != p.arguments[i])
      return invalidArgument(ctx + ": argument " + std::to_string(i) + " has type " +
                             in.type.toString() + " but expected " +
                             p.arguments[i].toString());
    if (in.bytes.size() != in.type.byteSize())
      return invalidArgument(ctx + ": argument " + std::to_string(i) + " of type " +
                             in.type.toString() + " holds " + std::to_string(in.bytes.size()) +
                             " bytes instead of " + std::to_string(in.type.byteSize()));
  }

  hal::Device &device = *p.device;
  auto start = Clock::now();
  std::vector<std::shared_ptr<hal::Buffer>> buffers(p.slots.size());
  for (size_t i = 0; i < p.slots.size(); ++i) {
    const detail::ProgramSlot &slot = p.slots[i];
    if (slot.kind == detail::ProgramSlot::Kind::Constant) {
      buffers[i] = slot.constant;
      continue;
    }
    auto buffer = device.allocate(slot.byteSize);
    if (!buffer.ok())
      return buffer.status().withContext(ctx + ": slot " + std::to_string(i));
    buffers[i] = std::move(buffer).value();
    // Arguments are copied in, so kernels that update a slot in place never
    // modify the caller's tensors.
    if (slot.kind == detail::ProgramSlot::Kind::Argument) {
      const HostTensor &in = inputs[slot.argument];
      TESSEL_RETURN_IF_ERROR(buffers[i]->write(0, in.bytes.data(), in.bytes.size()));
    }
  }
  double uploadMs = msSince(start);

  start = Clock::now();
  if (!p.dispatches.empty()) {
    std::unique_ptr<hal::CommandBuffer> commands = device.createCommandBuffer();
    std::vector<hal::Buffer *> bindings;
    for (size_t d = 0; d < p.dispatches.size(); ++d) {
      const detail::ProgramDispatch &dispatch = p.dispatches[d];
      bindings.clear();
      for (uint32_t slot : dispatch.bindings)
        bindings.push_back(buffers[slot].get());
      Status s = commands->dispatch(*p.executable, dispatch.ordinal,
                                    p.executable->exports()[dispatch.ordinal].workgroupCount,
                                    bindings);
      if (!s.ok())
        return s.withContext(ctx + ": dispatch " + std::to_string(d));
    }
    TESSEL_RETURN_IF_ERROR(device.submitAndWait(*commands));
  }
  double dispatchMs = msSince(start);

  start = Clock::now();
  std::vector<HostTensor> outputs;
  for (size_t i = 0; i < p.results.size(); ++i) {
    HostTensor out = HostTensor::zeros(p.results[i]);
    TESSEL_RETURN_IF_ERROR(buffers[p.resultSlots[i]]->read(0, out.bytes.data(), out.bytes.size()));
    outputs.push_back(std::move(out));
  }
  if (timings)
    *timings = CallTimings{uploadMs, dispatchMs, msSince(start)};
  return outputs;
}

} // namespace tessel::rt
