// The host-program interpreter: runs a function's program (schema
// `Opcode`) on the function's device, recording dispatches into command
// buffers submitted at each Read and at the Return, and copies the results
// out of the returned buffers.
#include "module/function_program.h"
#include "tessel/runtime/module.h"

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <mutex>

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
size_t Function::dispatchCount() const { return program_->dispatchCount; }
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

namespace detail {
std::string_view operandKinds(fb::Opcode op) {
  switch (op) {
  case fb::Opcode_Argument: return "b#";
  case fb::Opcode_Constant: return "b#";
  case fb::Opcode_Alloc: return "bi";
  case fb::Opcode_Int: return "i#";
  case fb::Opcode_Move: return "ii";
  case fb::Opcode_MoveBuffer: return "bb";
  case fb::Opcode_Add: case fb::Opcode_Sub: case fb::Opcode_Mul: case fb::Opcode_DivS:
  case fb::Opcode_RemS: case fb::Opcode_MinS: case fb::Opcode_MaxS: case fb::Opcode_And:
  case fb::Opcode_Or: case fb::Opcode_Xor: case fb::Opcode_CmpEq: case fb::Opcode_CmpNe:
  case fb::Opcode_CmpLt: case fb::Opcode_CmpLe: case fb::Opcode_CmpGt: case fb::Opcode_CmpGe:
    return "iii";
  case fb::Opcode_Select: return "iiii";
  case fb::Opcode_SignExtend: case fb::Opcode_ZeroExtend: return "ii#";
  case fb::Opcode_Read: return "ibi#";
  case fb::Opcode_Store: return "bi#";
  case fb::Opcode_Dispatch: return "#b*";
  case fb::Opcode_Branch: return "@";
  case fb::Opcode_CondBranch: return "i@@";
  case fb::Opcode_Return: return "b*";
  }
  return "";
}

std::string formatInstruction(const Instruction &in) {
  std::string_view kinds = operandKinds(in.opcode);
  std::string s = fb::EnumNameOpcode(in.opcode);
  // The loader checked the operand count against the kinds.
  size_t fixed = kinds.back() == '*' ? kinds.size() - 1 : kinds.size();
  for (size_t k = 0; k < in.operands.size(); ++k) {
    char kind = kinds[std::min(k, fixed - 1)];
    s += (k ? ", " : " ") + std::string(1, kind) + std::to_string(in.operands[k]);
  }
  return s;
}
} // namespace detail

namespace {

/// Runs a host program (schema/module.fbs, `Opcode`). Dispatches are
/// recorded into a pending command buffer, which is submitted and waited
/// for at a Read and at the Return. With `prepared` set, nothing is
/// submitted: every dispatch is recorded into `prepared->all` and into one
/// command buffer of its own, and a Read is an error.
class Interpreter {
public:
  Interpreter(const detail::FunctionProgram &p, const std::vector<HostTensor> &inputs,
              detail::PreparedCallState *prepared)
      : p(p), inputs(inputs), device(*p.device), prepared(prepared),
        ctx("function '" + p.name + "'"), ints(p.intRegisters, 0),
        buffers(p.bufferRegisters) {}

  /// Runs to the Return; `results` then holds the result buffers.
  Status run();

  std::vector<std::shared_ptr<hal::Buffer>> results;
  bool returned = false;
  double uploadMs = 0;

private:
  Status step(size_t pc, size_t &next);
  Status flush();
  StatusOr<hal::Buffer *> buffer(int64_t reg, size_t pc);
  Status fail(size_t pc, const std::string &msg) const {
    return invalidArgument(ctx + ": instruction " + std::to_string(pc) + " (" +
                           fb::EnumNameOpcode(p.instructions[pc].opcode) + "): " + msg);
  }

  const detail::FunctionProgram &p;
  const std::vector<HostTensor> &inputs;
  hal::Device &device;
  detail::PreparedCallState *prepared;
  std::string ctx;
  std::vector<int64_t> ints;
  std::vector<std::shared_ptr<hal::Buffer>> buffers;
  std::unique_ptr<hal::CommandBuffer> pending;
  /// Buffers the pending commands use: kept alive until they ran.
  std::vector<std::shared_ptr<hal::Buffer>> retained;
  size_t dispatched = 0;
};

} // namespace

namespace detail {
struct PreparedCallState {
  std::shared_ptr<const FunctionProgram> program;
  std::vector<std::shared_ptr<hal::Buffer>> buffers;     // every buffer the call uses
  std::vector<std::shared_ptr<hal::Buffer>> allocated;   // those of Alloc instructions
  /// The buffer of each Argument instruction, with its argument number.
  std::vector<std::pair<int64_t, std::shared_ptr<hal::Buffer>>> arguments;
  std::vector<std::shared_ptr<hal::Buffer>> results;
  std::unique_ptr<hal::CommandBuffer> all;               // every dispatch, in order
  size_t dispatches = 0;
  /// Also record each dispatch alone (PreparedCall::timeRuns); the calls
  /// Function::call keeps do not.
  bool recordEach = true;
  std::vector<std::unique_ptr<hal::CommandBuffer>> each; // one per dispatch
};

/// Recorded calls of a function without Reads, idle between calls. A call
/// takes one (or records a new one), writes its inputs into the argument
/// buffers, replays it (a cuda graph in graph mode: captured once) and puts
/// it back. The programs are static, so one recording serves every call;
/// with dynamic shapes the key becomes the argument dimensions.
struct CallCache {
  /// Idle recordings kept per function, at most (concurrent calls record
  /// their own; the extra ones are dropped).
  static constexpr size_t kMaxIdle = 2;
  std::mutex mutex;
  std::vector<std::unique_ptr<PreparedCallState>> idle;
};

std::shared_ptr<CallCache> makeCallCache() { return std::make_shared<CallCache>(); }
} // namespace detail

namespace {

Status Interpreter::run() {
  if (prepared)
    prepared->all = device.createCommandBuffer();
  size_t pc = 0;
  while (!returned) {
    size_t next = pc + 1;
    TESSEL_RETURN_IF_ERROR(step(pc, next));
    if (!returned && next >= p.instructions.size())
      return fail(pc, "execution ran off the end of the program");
    pc = next;
  }
  return Status();
}

Status Interpreter::flush() {
  if (!pending)
    return Status();
  Status s = device.submitAndWait(*pending);
  pending.reset();
  retained.clear();
  return s;
}

StatusOr<hal::Buffer *> Interpreter::buffer(int64_t reg, size_t pc) {
  hal::Buffer *b = buffers[reg].get();
  if (!b)
    return fail(pc, "buffer register " + std::to_string(reg) + " is read before it is set");
  return b;
}

Status Interpreter::step(size_t pc, size_t &next) {
  const detail::Instruction &in = p.instructions[pc];
  const std::vector<int64_t> &o = in.operands;
  auto i = [&](size_t k) { return ints[o[k]]; };
  auto wrap = [](uint64_t v) { return static_cast<int64_t>(v); };
  switch (in.opcode) {
  case fb::Opcode_Argument: {
    auto start = Clock::now();
    const HostTensor &input = inputs[o[1]];
    auto b = device.allocate(input.bytes.size());
    if (!b.ok())
      return b.status().withContext(ctx + ": argument " + std::to_string(o[1]));
    // A fresh copy: kernels that update a buffer in place never modify the
    // caller's tensors.
    TESSEL_RETURN_IF_ERROR((*b)->write(0, input.bytes.data(), input.bytes.size()));
    buffers[o[0]] = std::move(b).value();
    if (prepared) {
      prepared->buffers.push_back(buffers[o[0]]);
      prepared->arguments.emplace_back(o[1], buffers[o[0]]);
    }
    uploadMs += msSince(start);
    return Status();
  }
  case fb::Opcode_Constant:
    buffers[o[0]] = p.constants[o[1]];
    return Status();
  case fb::Opcode_Alloc: {
    int64_t bytes = i(1);
    if (bytes < 0)
      return fail(pc, "allocation of " + std::to_string(bytes) + " bytes");
    auto b = device.allocate(static_cast<size_t>(bytes));
    if (!b.ok())
      return b.status().withContext(ctx + ": instruction " + std::to_string(pc) + " (Alloc)");
    buffers[o[0]] = std::move(b).value();
    if (prepared) {
      prepared->buffers.push_back(buffers[o[0]]);
      prepared->allocated.push_back(buffers[o[0]]);
    }
    return Status();
  }
  case fb::Opcode_Int: ints[o[0]] = o[1]; return Status();
  case fb::Opcode_Move: ints[o[0]] = i(1); return Status();
  case fb::Opcode_MoveBuffer: buffers[o[0]] = buffers[o[1]]; return Status();
  case fb::Opcode_Add: ints[o[0]] = wrap(uint64_t(i(1)) + uint64_t(i(2))); return Status();
  case fb::Opcode_Sub: ints[o[0]] = wrap(uint64_t(i(1)) - uint64_t(i(2))); return Status();
  case fb::Opcode_Mul: ints[o[0]] = wrap(uint64_t(i(1)) * uint64_t(i(2))); return Status();
  case fb::Opcode_DivS:
  case fb::Opcode_RemS: {
    int64_t a = i(1), b = i(2);
    if (b == 0)
      return fail(pc, "division by zero");
    bool overflow = a == INT64_MIN && b == -1;
    if (in.opcode == fb::Opcode_DivS)
      ints[o[0]] = overflow ? INT64_MIN : a / b;
    else
      ints[o[0]] = overflow ? 0 : a % b;
    return Status();
  }
  case fb::Opcode_MinS: ints[o[0]] = std::min(i(1), i(2)); return Status();
  case fb::Opcode_MaxS: ints[o[0]] = std::max(i(1), i(2)); return Status();
  case fb::Opcode_And: ints[o[0]] = i(1) & i(2); return Status();
  case fb::Opcode_Or: ints[o[0]] = i(1) | i(2); return Status();
  case fb::Opcode_Xor: ints[o[0]] = i(1) ^ i(2); return Status();
  case fb::Opcode_CmpEq: ints[o[0]] = i(1) == i(2); return Status();
  case fb::Opcode_CmpNe: ints[o[0]] = i(1) != i(2); return Status();
  case fb::Opcode_CmpLt: ints[o[0]] = i(1) < i(2); return Status();
  case fb::Opcode_CmpLe: ints[o[0]] = i(1) <= i(2); return Status();
  case fb::Opcode_CmpGt: ints[o[0]] = i(1) > i(2); return Status();
  case fb::Opcode_CmpGe: ints[o[0]] = i(1) >= i(2); return Status();
  case fb::Opcode_Select: ints[o[0]] = i(1) ? i(2) : i(3); return Status();
  case fb::Opcode_SignExtend: {
    int shift = 64 - static_cast<int>(o[2]);
    ints[o[0]] = wrap(uint64_t(i(1)) << shift) >> shift;
    return Status();
  }
  case fb::Opcode_ZeroExtend:
    ints[o[0]] = wrap(uint64_t(i(1)) & ((uint64_t(1) << o[2]) - 1));
    return Status();
  case fb::Opcode_Read: {
    if (prepared)
      return fail(pc, "the program reads a device value on the host (a condition or a "
                      "trip count computed on the device), so it cannot be recorded once "
                      "and replayed; call the function instead");
    TESSEL_ASSIGN_OR_RETURN(hal::Buffer * b, buffer(o[1], pc));
    size_t width = elementByteSize(static_cast<ElementType>(o[3]));
    int64_t offset = i(2);
    if (offset < 0 || uint64_t(offset) > b->size() || b->size() - uint64_t(offset) < width)
      return fail(pc, "reads " + std::to_string(width) + " bytes at offset " +
                          std::to_string(offset) + " of a buffer of " +
                          std::to_string(b->size()) + " bytes");
    TESSEL_RETURN_IF_ERROR(flush());
    uint8_t bytes[8] = {};
    TESSEL_RETURN_IF_ERROR(b->read(static_cast<size_t>(offset), bytes, width));
    uint64_t v = 0;
    for (size_t k = 0; k < width; ++k)
      v |= uint64_t(bytes[k]) << (8 * k);
    int shift = 64 - 8 * static_cast<int>(width);
    ints[o[0]] = o[3] == fb::ElementType_i1 ? int64_t(v != 0) : wrap(v << shift) >> shift;
    return Status();
  }
  case fb::Opcode_Store: {
    size_t width = elementByteSize(static_cast<ElementType>(o[2]));
    auto b = device.allocate(width);
    if (!b.ok())
      return b.status().withContext(ctx + ": instruction " + std::to_string(pc) + " (Store)");
    buffers[o[0]] = std::move(b).value();
    uint8_t bytes[8];
    uint64_t v = static_cast<uint64_t>(i(1));
    for (size_t k = 0; k < width; ++k)
      bytes[k] = static_cast<uint8_t>(v >> (8 * k));
    if (prepared) {
      // The value is the prepared call's for good: written once, now.
      prepared->buffers.push_back(buffers[o[0]]);
      return buffers[o[0]]->write(0, bytes, width);
    }
    if (!pending)
      pending = device.createOneShotCommandBuffer();
    TESSEL_RETURN_IF_ERROR(pending->update(bytes, *buffers[o[0]], 0, width));
    retained.push_back(buffers[o[0]]);
    return Status();
  }
  case fb::Opcode_Dispatch: {
    std::vector<hal::Buffer *> bindings;
    for (size_t k = 1; k < o.size(); ++k) {
      TESSEL_ASSIGN_OR_RETURN(hal::Buffer * b, buffer(o[k], pc));
      bindings.push_back(b);
    }
    uint32_t ordinal = static_cast<uint32_t>(o[0]);
    // Dispatches are numbered in the order this call ran them.
    std::string where = ctx + ": dispatch " + std::to_string(dispatched++);
    const std::array<uint32_t, 3> &count = p.executable->exports()[ordinal].workgroupCount;
    if (prepared) {
      Status s = prepared->all->dispatch(*p.executable, ordinal, count, bindings);
      if (!s.ok())
        return s.withContext(where);
      ++prepared->dispatches;
      if (!prepared->recordEach)
        return Status();
      prepared->each.push_back(device.createCommandBuffer());
      return prepared->each.back()->dispatch(*p.executable, ordinal, count, bindings);
    }
    if (!pending)
      pending = device.createOneShotCommandBuffer();
    Status s = pending->dispatch(*p.executable, ordinal, count, bindings);
    if (!s.ok())
      return s.withContext(where);
    for (size_t k = 1; k < o.size(); ++k)
      retained.push_back(buffers[o[k]]);
    return Status();
  }
  case fb::Opcode_Branch: next = static_cast<size_t>(o[0]); return Status();
  case fb::Opcode_CondBranch:
    next = static_cast<size_t>(i(0) ? o[1] : o[2]);
    return Status();
  case fb::Opcode_Return: {
    std::vector<std::shared_ptr<hal::Buffer>> out;
    for (size_t k = 0; k < o.size(); ++k) {
      TESSEL_ASSIGN_OR_RETURN(hal::Buffer * b, buffer(o[k], pc));
      if (b->size() != p.results[k].byteSize())
        return fail(pc, "result " + std::to_string(k) + " of type " + p.results[k].toString() +
                            " (" + std::to_string(p.results[k].byteSize()) +
                            " bytes) is a buffer of " + std::to_string(b->size()) + " bytes");
      out.push_back(buffers[o[k]]);
    }
    TESSEL_RETURN_IF_ERROR(flush());
    results = std::move(out);
    returned = true;
    return Status();
  }
  }
  return fail(pc, "unknown opcode");
}

StatusOr<std::vector<HostTensor>> readResults(const detail::FunctionProgram &p,
                                              const std::vector<std::shared_ptr<hal::Buffer>> &buffers) {
  std::vector<HostTensor> outputs;
  for (size_t i = 0; i < p.results.size(); ++i) {
    HostTensor out = HostTensor::zeros(p.results[i]);
    TESSEL_RETURN_IF_ERROR(buffers[i]->read(0, out.bytes.data(), out.bytes.size()));
    outputs.push_back(std::move(out));
  }
  return outputs;
}

} // namespace

namespace {
/// Function::call of a program without Reads: through a recording of the
/// function's CallCache.
StatusOr<std::vector<HostTensor>> callRecorded(const detail::FunctionProgram &p,
                                               const std::vector<HostTensor> &inputs,
                                               CallTimings *timings) {
  detail::CallCache &cache = *p.calls;
  std::unique_ptr<detail::PreparedCallState> state;
  {
    std::lock_guard<std::mutex> lock(cache.mutex);
    if (!cache.idle.empty()) {
      state = std::move(cache.idle.back());
      cache.idle.pop_back();
    }
  }
  auto start = Clock::now();
  double uploadMs = 0;
  if (state) {
    // Fresh contents, as if copied anew: kernels may have updated them.
    for (const auto &[argument, buffer] : state->arguments) {
      const HostTensor &in = inputs[argument];
      TESSEL_RETURN_IF_ERROR(buffer->write(0, in.bytes.data(), in.bytes.size()));
    }
    uploadMs = msSince(start);
  } else {
    // No state->program: the function keeps this state, so a reference
    // back to the function would be a cycle (never freed).
    state = std::make_unique<detail::PreparedCallState>();
    state->recordEach = false;
    Interpreter interpreter(p, inputs, state.get());
    TESSEL_RETURN_IF_ERROR(interpreter.run());
    state->results = std::move(interpreter.results);
    uploadMs = interpreter.uploadMs;
  }
  if (state->dispatches)
    TESSEL_RETURN_IF_ERROR(p.device->submitAndWait(*state->all));
  double runMs = msSince(start);
  start = Clock::now();
  TESSEL_ASSIGN_OR_RETURN(std::vector<HostTensor> outputs, readResults(p, state->results));
  if (timings)
    *timings = CallTimings{uploadMs, runMs - uploadMs, msSince(start)};
  std::lock_guard<std::mutex> lock(cache.mutex);
  if (cache.idle.size() < detail::CallCache::kMaxIdle)
    cache.idle.push_back(std::move(state));
  return outputs;
}
} // namespace

StatusOr<std::vector<HostTensor>> Function::call(const std::vector<HostTensor> &inputs,
                                                 CallTimings *timings) const {
  const detail::FunctionProgram &p = *program_;
  TESSEL_RETURN_IF_ERROR(validateInputs(p, inputs));
  if (!p.readsDevice)
    return callRecorded(p, inputs, timings);
  auto start = Clock::now();
  Interpreter interpreter(p, inputs, nullptr);
  TESSEL_RETURN_IF_ERROR(interpreter.run());
  double runMs = msSince(start);
  start = Clock::now();
  TESSEL_ASSIGN_OR_RETURN(std::vector<HostTensor> outputs, readResults(p, interpreter.results));
  if (timings)
    *timings = CallTimings{interpreter.uploadMs, runMs - interpreter.uploadMs, msSince(start)};
  return outputs;
}

// --- Prepared calls ----------------------------------------------------------

StatusOr<std::unique_ptr<PreparedCall>>
Function::prepare(const std::vector<HostTensor> &inputs) const {
  const detail::FunctionProgram &p = *program_;
  TESSEL_RETURN_IF_ERROR(validateInputs(p, inputs));
  auto state = std::make_unique<detail::PreparedCallState>();
  state->program = program_;
  Interpreter interpreter(p, inputs, state.get());
  TESSEL_RETURN_IF_ERROR(interpreter.run());
  state->results = std::move(interpreter.results);
  return std::make_unique<PreparedCall>(std::move(state));
}

PreparedCall::PreparedCall(std::unique_ptr<detail::PreparedCallState> state)
    : state_(std::move(state)) {}
PreparedCall::~PreparedCall() = default;

size_t PreparedCall::dispatchCount() const { return state_->each.size(); }

Status PreparedCall::fillResults(uint8_t value) {
  const detail::FunctionProgram &p = *state_->program;
  std::unique_ptr<hal::CommandBuffer> commands = p.device->createCommandBuffer();
  for (const std::shared_ptr<hal::Buffer> &b : state_->results) {
    // Only buffers the call allocated: never the constants or the inputs.
    if (std::find(state_->allocated.begin(), state_->allocated.end(), b) ==
        state_->allocated.end())
      continue;
    TESSEL_RETURN_IF_ERROR(commands->fill(*b, 0, b->size(), value));
  }
  return p.device->submitAndWait(*commands);
}

Status PreparedCall::run() {
  if (state_->dispatches == 0)
    return Status();
  return state_->program->device->submitAndWait(*state_->all);
}

StatusOr<std::vector<HostTensor>> PreparedCall::results() const {
  return readResults(*state_->program, state_->results);
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
