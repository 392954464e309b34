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

namespace {
Status validateInputs(const detail::FunctionProgram &p, const std::vector<HostTensor> &inputs) {
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

  return Status();
}
} // namespace

StatusOr<std::vector<HostTensor>> Function::call(const std::vector<HostTensor> &inputs,
                                                 CallTimings *timings) const {
  const detail::FunctionProgram &p = *program_;
  const std::string ctx = "function '" + p.name + "'";
  TESSEL_RETURN_IF_ERROR(validateInputs(p, inputs));

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

// --- Prepared calls ----------------------------------------------------------

namespace detail {
struct PreparedCallState {
  std::shared_ptr<const FunctionProgram> program;
  std::vector<std::shared_ptr<hal::Buffer>> buffers; // one per slot
  std::unique_ptr<hal::CommandBuffer> all;            // every dispatch, in order
  std::vector<std::unique_ptr<hal::CommandBuffer>> each; // one per dispatch
};
} // namespace detail

StatusOr<std::unique_ptr<PreparedCall>>
Function::prepare(const std::vector<HostTensor> &inputs) const {
  const detail::FunctionProgram &p = *program_;
  const std::string ctx = "function '" + p.name + "'";
  TESSEL_RETURN_IF_ERROR(validateInputs(p, inputs));
  auto state = std::make_unique<detail::PreparedCallState>();
  state->program = program_;
  hal::Device &device = *p.device;
  state->buffers.resize(p.slots.size());
  for (size_t i = 0; i < p.slots.size(); ++i) {
    const detail::ProgramSlot &slot = p.slots[i];
    if (slot.kind == detail::ProgramSlot::Kind::Constant) {
      state->buffers[i] = slot.constant;
      continue;
    }
    auto buffer = device.allocate(slot.byteSize);
    if (!buffer.ok())
      return buffer.status().withContext(ctx + ": slot " + std::to_string(i));
    state->buffers[i] = std::move(buffer).value();
    if (slot.kind == detail::ProgramSlot::Kind::Argument) {
      const HostTensor &in = inputs[slot.argument];
      TESSEL_RETURN_IF_ERROR(state->buffers[i]->write(0, in.bytes.data(), in.bytes.size()));
    }
  }
  state->all = device.createCommandBuffer();
  std::vector<hal::Buffer *> bindings;
  for (size_t d = 0; d < p.dispatches.size(); ++d) {
    const detail::ProgramDispatch &dispatch = p.dispatches[d];
    bindings.clear();
    for (uint32_t slot : dispatch.bindings)
      bindings.push_back(state->buffers[slot].get());
    const auto &count = p.executable->exports()[dispatch.ordinal].workgroupCount;
    Status s = state->all->dispatch(*p.executable, dispatch.ordinal, count, bindings);
    if (!s.ok())
      return s.withContext(ctx + ": dispatch " + std::to_string(d));
    state->each.push_back(device.createCommandBuffer());
    TESSEL_RETURN_IF_ERROR(
        state->each.back()->dispatch(*p.executable, dispatch.ordinal, count, bindings));
  }
  return std::make_unique<PreparedCall>(std::move(state));
}

PreparedCall::PreparedCall(std::unique_ptr<detail::PreparedCallState> state)
    : state_(std::move(state)) {}
PreparedCall::~PreparedCall() = default;

size_t PreparedCall::dispatchCount() const { return state_->each.size(); }

Status PreparedCall::fillResults(uint8_t value) {
  const detail::FunctionProgram &p = *state_->program;
  std::unique_ptr<hal::CommandBuffer> commands = p.device->createCommandBuffer();
  for (uint32_t slot : p.resultSlots) {
    if (p.slots[slot].kind != detail::ProgramSlot::Kind::Transient)
      continue; // never overwrite constants or the inputs
    hal::Buffer &b = *state_->buffers[slot];
    TESSEL_RETURN_IF_ERROR(commands->fill(b, 0, b.size(), value));
  }
  return p.device->submitAndWait(*commands);
}

Status PreparedCall::run() {
  if (state_->each.empty())
    return Status();
  return state_->program->device->submitAndWait(*state_->all);
}

StatusOr<std::vector<HostTensor>> PreparedCall::results() const {
  const detail::FunctionProgram &p = *state_->program;
  std::vector<HostTensor> outputs;
  for (size_t i = 0; i < p.results.size(); ++i) {
    HostTensor out = HostTensor::zeros(p.results[i]);
    TESSEL_RETURN_IF_ERROR(
        state_->buffers[p.resultSlots[i]]->read(0, out.bytes.data(), out.bytes.size()));
    outputs.push_back(std::move(out));
  }
  return outputs;
}

StatusOr<std::vector<double>> PreparedCall::timeRuns(const std::vector<PreparedCall *> &calls,
                                                     int runs, int dispatch) {
  if (calls.empty())
    return invalidArgument("timeRuns: no prepared calls");
  const detail::FunctionProgram &p = *calls[0]->state_->program;
  std::vector<hal::CommandBuffer *> commands;
  for (PreparedCall *c : calls) {
    if (c->state_->program.get() != &p)
      return invalidArgument("timeRuns: prepared calls of different functions");
    if (dispatch < 0) {
      commands.push_back(c->state_->all.get());
    } else {
      if (static_cast<size_t>(dispatch) >= c->state_->each.size())
        return invalidArgument("timeRuns: function '" + p.name + "' has " +
                               std::to_string(c->state_->each.size()) + " dispatches, asked for " +
                               std::to_string(dispatch));
      commands.push_back(c->state_->each[dispatch].get());
    }
  }
  return p.device->submitTimed(commands, runs);
}

StatusOr<std::vector<double>> timeDeviceCopy(Device &device, size_t bytes, int runs) {
  hal::Device &d = device.hal();
  TESSEL_ASSIGN_OR_RETURN(auto src, d.allocate(bytes));
  TESSEL_ASSIGN_OR_RETURN(auto dst, d.allocate(bytes));
  std::unique_ptr<hal::CommandBuffer> init = d.createCommandBuffer();
  TESSEL_RETURN_IF_ERROR(init->fill(*src, 0, bytes, 0x3c));
  TESSEL_RETURN_IF_ERROR(d.submitAndWait(*init));
  std::unique_ptr<hal::CommandBuffer> copy = d.createCommandBuffer();
  TESSEL_RETURN_IF_ERROR(copy->copy(*src, 0, *dst, 0, bytes));
  return d.submitTimed({copy.get()}, runs);
}

} // namespace tessel::rt
