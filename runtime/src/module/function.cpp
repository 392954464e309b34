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
#include <optional>

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
    const TensorType &expected = p.arguments[i];
    std::string argument = ctx + ": argument " + std::to_string(i);
    // A tensor's type is static: a "?" in it would match anything below.
    if (Status s = in.type.validate(); !s.ok())
      return s.withContext(argument);
    std::string mismatch = argument + " has type " + in.type.toString() + " but expected " +
                           expected.toString();
    if (in.type.elementType != expected.elementType ||
        in.type.shape.size() != expected.shape.size())
      return invalidArgument(mismatch);
    for (size_t d = 0; d < expected.shape.size(); ++d)
      if (expected.shape[d] != kDynamicDim && in.type.shape[d] != expected.shape[d])
        return invalidArgument(mismatch + " (dimension " + std::to_string(d) + " is " +
                               std::to_string(in.type.shape[d]) + ", expected " +
                               std::to_string(expected.shape[d]) + ")");
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
  case fb::Opcode_Parameter: return "b#";
  case fb::Opcode_GlobalStore: return "#b";
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
  case fb::Opcode_Dispatch: return "#b*i*";
  case fb::Opcode_Branch: return "@";
  case fb::Opcode_CondBranch: return "i@@";
  case fb::Opcode_Return: return "b*i*";
  case fb::Opcode_Dim: return "i##";
  case fb::Opcode_Assert: return "i#i*";
  }
  return "";
}

std::string operandKindsOf(fb::Opcode op, size_t count, size_t split) {
  std::string_view kinds = operandKinds(op);
  size_t star = kinds.find('*');
  if (star == std::string_view::npos)
    return std::string(kinds);
  std::string out(kinds.substr(0, star - 1));
  size_t rest = count - out.size();
  char first = kinds[star - 1];
  bool two = star + 1 < kinds.size();
  size_t firstRun = two ? std::min(split, rest) : rest;
  out.append(firstRun, first);
  out.append(rest - firstRun, two ? kinds[star + 1] : first);
  return out;
}

std::string formatInstruction(const Instruction &in, size_t split) {
  std::string kinds = operandKindsOf(in.opcode, in.operands.size(), split);
  std::string s = fb::EnumNameOpcode(in.opcode);
  for (size_t k = 0; k < in.operands.size(); ++k)
    s += (k ? ", " : " ") + std::string(1, kinds[k]) + std::to_string(in.operands[k]);
  return s;
}

bool isIntegerOp(fb::Opcode op) {
  switch (op) {
  case fb::Opcode_Int: case fb::Opcode_Move: case fb::Opcode_Add: case fb::Opcode_Sub:
  case fb::Opcode_Mul: case fb::Opcode_DivS: case fb::Opcode_RemS: case fb::Opcode_MinS:
  case fb::Opcode_MaxS: case fb::Opcode_And: case fb::Opcode_Or: case fb::Opcode_Xor:
  case fb::Opcode_CmpEq: case fb::Opcode_CmpNe: case fb::Opcode_CmpLt: case fb::Opcode_CmpLe:
  case fb::Opcode_CmpGt: case fb::Opcode_CmpGe: case fb::Opcode_Select:
  case fb::Opcode_SignExtend: case fb::Opcode_ZeroExtend:
    return true;
  default:
    return false;
  }
}

Status runIntegerOp(const Instruction &in, std::vector<int64_t> &ints) {
  const std::vector<int64_t> &o = in.operands;
  auto i = [&](size_t k) { return ints[o[k]]; };
  auto wrap = [](uint64_t v) { return static_cast<int64_t>(v); };
  int64_t &out = ints[o[0]];
  switch (in.opcode) {
  case fb::Opcode_Int: out = o[1]; break;
  case fb::Opcode_Move: out = i(1); break;
  case fb::Opcode_Add: out = wrap(uint64_t(i(1)) + uint64_t(i(2))); break;
  case fb::Opcode_Sub: out = wrap(uint64_t(i(1)) - uint64_t(i(2))); break;
  case fb::Opcode_Mul: out = wrap(uint64_t(i(1)) * uint64_t(i(2))); break;
  case fb::Opcode_DivS:
  case fb::Opcode_RemS: {
    int64_t a = i(1), b = i(2);
    if (b == 0)
      return invalidArgument("division by zero");
    bool overflow = a == INT64_MIN && b == -1;
    if (in.opcode == fb::Opcode_DivS)
      out = overflow ? INT64_MIN : a / b;
    else
      out = overflow ? 0 : a % b;
    break;
  }
  case fb::Opcode_MinS: out = std::min(i(1), i(2)); break;
  case fb::Opcode_MaxS: out = std::max(i(1), i(2)); break;
  case fb::Opcode_And: out = i(1) & i(2); break;
  case fb::Opcode_Or: out = i(1) | i(2); break;
  case fb::Opcode_Xor: out = i(1) ^ i(2); break;
  case fb::Opcode_CmpEq: out = i(1) == i(2); break;
  case fb::Opcode_CmpNe: out = i(1) != i(2); break;
  case fb::Opcode_CmpLt: out = i(1) < i(2); break;
  case fb::Opcode_CmpLe: out = i(1) <= i(2); break;
  case fb::Opcode_CmpGt: out = i(1) > i(2); break;
  case fb::Opcode_CmpGe: out = i(1) >= i(2); break;
  case fb::Opcode_Select: out = i(1) ? i(2) : i(3); break;
  case fb::Opcode_SignExtend: {
    int shift = 64 - static_cast<int>(o[2]);
    out = wrap(uint64_t(i(1)) << shift) >> shift;
    break;
  }
  case fb::Opcode_ZeroExtend: out = wrap(uint64_t(i(1)) & ((uint64_t(1) << o[2]) - 1)); break;
  default:
    return internalError(std::string(fb::EnumNameOpcode(in.opcode)) + " is not an integer op");
  }
  return Status();
}

StatusOr<std::array<int64_t, 3>>
runWorkgroupCountProgram(const WorkgroupCountProgram &program,
                         const std::vector<int64_t> &pushConstants) {
  std::vector<int64_t> ints(program.intRegisters, 0);
  std::copy(pushConstants.begin(), pushConstants.end(), ints.begin());
  for (size_t pc = 0; pc < program.instructions.size(); ++pc) {
    Status s = runIntegerOp(program.instructions[pc], ints);
    if (!s.ok())
      return s.withContext("workgroup count program instruction " + std::to_string(pc) + " (" +
                           fb::EnumNameOpcode(program.instructions[pc].opcode) + ")");
  }
  return std::array<int64_t, 3>{ints[program.results[0]], ints[program.results[1]],
                                ints[program.results[2]]};
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
  /// The results' types, every dimension static (set by the Return).
  std::vector<TensorType> resultTypes;
  bool returned = false;
  double uploadMs = 0;

private:
  Status step(size_t pc, size_t &next);
  Status flush();
  StatusOr<hal::Buffer *> buffer(int64_t reg, size_t pc);
  /// The workgroup count of a dispatch of `x` with `pushConstants` (its
  /// program's, if it has one); none for an empty one (a count of 0), which
  /// skips the dispatch. `where` names the dispatch in errors.
  StatusOr<std::optional<std::array<uint32_t, 3>>>
  workgroupCount(const hal::ExportInfo &x, const std::vector<int64_t> &pushConstants,
                 const std::string &where) const;
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
  std::vector<TensorType> resultTypes;                   // the call's, static
  /// The shape of each argument the call was recorded with: a recording
  /// of a function with dynamic shapes holds for those alone.
  std::vector<std::vector<int64_t>> shapes;
  std::unique_ptr<hal::CommandBuffer> all;               // every dispatch, in order
  size_t dispatches = 0;
  /// Also record each dispatch alone (PreparedCall::timeRuns); the calls
  /// Function::call keeps do not.
  bool recordEach = true;
  std::vector<std::unique_ptr<hal::CommandBuffer>> each; // one per dispatch
};

/// Recorded calls of a function without Reads, idle between calls. A call
/// takes one recorded with its argument shapes (or records a new one),
/// writes its inputs into the argument buffers, replays it (a cuda graph in
/// graph mode: captured once) and puts it back. Without a Read every value
/// of the program follows from the argument shapes, so a recording serves
/// every call of the same shapes (all calls, for a static signature).
struct CallCache {
  /// Idle recordings kept per function, at most: concurrent calls and
  /// calls of other shapes record their own; beyond this the least
  /// recently used is dropped.
  static constexpr size_t kMaxIdle = 4;
  std::mutex mutex;
  /// Least recently used first.
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
  case fb::Opcode_Parameter:
    buffers[o[0]] = p.parameters[o[1]];
    return Status();
  case fb::Opcode_GlobalStore: {
    hal::Buffer &state = *p.parameters[o[0]];
    TESSEL_ASSIGN_OR_RETURN(hal::Buffer * b, buffer(o[1], pc));
    if (b == &state)
      return Status(); // a kernel updated it in place
    if (b->size() != state.size())
      return fail(pc, "a value of " + std::to_string(b->size()) + " bytes for parameter " +
                          std::to_string(o[0]) + " of " + std::to_string(state.size()) + " bytes");
    if (prepared)
      return prepared->all->copy(*b, 0, state, 0, b->size());
    if (!pending)
      pending = device.createOneShotCommandBuffer();
    TESSEL_RETURN_IF_ERROR(pending->copy(*b, 0, state, 0, b->size()));
    retained.push_back(buffers[o[1]]);
    return Status();
  }
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
  case fb::Opcode_Int: case fb::Opcode_Move: case fb::Opcode_Add: case fb::Opcode_Sub:
  case fb::Opcode_Mul: case fb::Opcode_DivS: case fb::Opcode_RemS: case fb::Opcode_MinS:
  case fb::Opcode_MaxS: case fb::Opcode_And: case fb::Opcode_Or: case fb::Opcode_Xor:
  case fb::Opcode_CmpEq: case fb::Opcode_CmpNe: case fb::Opcode_CmpLt: case fb::Opcode_CmpLe:
  case fb::Opcode_CmpGt: case fb::Opcode_CmpGe: case fb::Opcode_Select:
  case fb::Opcode_SignExtend: case fb::Opcode_ZeroExtend: {
    Status s = detail::runIntegerOp(in, ints);
    return s.ok() ? s : fail(pc, s.message());
  }
  case fb::Opcode_MoveBuffer: buffers[o[0]] = buffers[o[1]]; return Status();
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
    uint32_t ordinal = static_cast<uint32_t>(o[0]);
    const hal::ExportInfo &x = p.executable->exports()[ordinal];
    // The loader checked the operands: the bindings, then the push constants.
    std::vector<hal::Buffer *> bindings;
    std::vector<int64_t> pushConstants;
    for (size_t k = 1; k < o.size(); ++k) {
      if (k > x.bindingCount) {
        pushConstants.push_back(i(k));
        continue;
      }
      TESSEL_ASSIGN_OR_RETURN(hal::Buffer * b, buffer(o[k], pc));
      bindings.push_back(b);
    }
    // Dispatches are numbered in the order this call ran them.
    std::string where = ctx + ": dispatch " + std::to_string(dispatched++);
    using Count = std::optional<std::array<uint32_t, 3>>;
    TESSEL_ASSIGN_OR_RETURN(Count counted, workgroupCount(x, pushConstants, where));
    if (!counted)
      return Status(); // an empty tensor: nothing to run
    const std::array<uint32_t, 3> &count = *counted;
    if (prepared) {
      Status s = prepared->all->dispatch(*p.executable, ordinal, count, bindings, pushConstants);
      if (!s.ok())
        return s.withContext(where);
      ++prepared->dispatches;
      if (!prepared->recordEach)
        return Status();
      prepared->each.push_back(device.createCommandBuffer());
      return prepared->each.back()->dispatch(*p.executable, ordinal, count, bindings,
                                             pushConstants);
    }
    if (!pending)
      pending = device.createOneShotCommandBuffer();
    Status s = pending->dispatch(*p.executable, ordinal, count, bindings, pushConstants);
    if (!s.ok())
      return s.withContext(where);
    for (size_t k = 1; k <= x.bindingCount; ++k)
      retained.push_back(buffers[o[k]]);
    return Status();
  }
  case fb::Opcode_Branch: next = static_cast<size_t>(o[0]); return Status();
  case fb::Opcode_CondBranch:
    next = static_cast<size_t>(i(0) ? o[1] : o[2]);
    return Status();
  case fb::Opcode_Return: {
    // The buffers, then one extent per dynamic dimension of the results.
    std::vector<TensorType> types = p.results;
    size_t dim = p.results.size();
    for (TensorType &t : types)
      for (int64_t &d : t.shape) {
        if (d != kDynamicDim)
          continue;
        d = i(dim++);
        if (d < 0)
          return fail(pc, "result dimension " + std::to_string(d) + " (operand " +
                              std::to_string(dim - 1) + ")");
      }
    std::vector<std::shared_ptr<hal::Buffer>> out;
    for (size_t k = 0; k < types.size(); ++k) {
      Status valid = types[k].validate();
      if (!valid.ok())
        return fail(pc, "result " + std::to_string(k) + ": " + valid.message());
      TESSEL_ASSIGN_OR_RETURN(hal::Buffer * b, buffer(o[k], pc));
      if (b->size() != types[k].byteSize())
        return fail(pc, "result " + std::to_string(k) + " of type " + types[k].toString() +
                            " (" + std::to_string(types[k].byteSize()) +
                            " bytes) is a buffer of " + std::to_string(b->size()) + " bytes");
      out.push_back(buffers[o[k]]);
    }
    TESSEL_RETURN_IF_ERROR(flush());
    results = std::move(out);
    resultTypes = std::move(types);
    returned = true;
    return Status();
  }
  case fb::Opcode_Dim:
    // The loader checked both indices against the signature, and the inputs
    // match it.
    ints[o[0]] = inputs[o[1]].type.shape[o[2]];
    return Status();
  case fb::Opcode_Assert: {
    if (i(0))
      return Status();
    // Each "{}" takes the next value; extra values are ignored, missing
    // ones leave the "{}".
    const std::string &message = p.messages[o[1]];
    std::string text;
    size_t value = 2;
    for (size_t k = 0; k < message.size(); ++k) {
      if (message.compare(k, 2, "{}") == 0 && value < o.size()) {
        text += std::to_string(i(value++));
        ++k;
        continue;
      }
      text += message[k];
    }
    return invalidArgument(ctx + ": " + text);
  }
  }
  return fail(pc, "unknown opcode");
}

StatusOr<std::optional<std::array<uint32_t, 3>>>
Interpreter::workgroupCount(const hal::ExportInfo &x, const std::vector<int64_t> &pushConstants,
                            const std::string &where) const {
  if (!x.workgroupCountProgram)
    return std::optional<std::array<uint32_t, 3>>(x.workgroupCount);
  auto counted = detail::runWorkgroupCountProgram(*x.workgroupCountProgram, pushConstants);
  if (!counted.ok())
    return counted.status().withContext(where);
  const std::array<int64_t, 3> &c = *counted;
  std::string text = std::to_string(c[0]) + "x" + std::to_string(c[1]) + "x" +
                     std::to_string(c[2]);
  if (c[0] < 0 || c[1] < 0 || c[2] < 0)
    return invalidArgument(where + " ('" + x.name + "'): negative workgroup count " + text);
  if (c[0] > hal::kMaxLaunchGridX || c[1] > hal::kMaxLaunchGridYZ ||
      c[2] > hal::kMaxLaunchGridYZ)
    return invalidArgument(where + " ('" + x.name + "'): workgroup count " + text +
                           " exceeds " + std::to_string(hal::kMaxLaunchGridX) + "x" +
                           std::to_string(hal::kMaxLaunchGridYZ) + "x" +
                           std::to_string(hal::kMaxLaunchGridYZ));
  if (c[0] == 0 || c[1] == 0 || c[2] == 0)
    return std::optional<std::array<uint32_t, 3>>();
  return std::optional<std::array<uint32_t, 3>>(
      std::array<uint32_t, 3>{uint32_t(c[0]), uint32_t(c[1]), uint32_t(c[2])});
}

/// Copies results of `types` (the call's, every dimension static) out of
/// `buffers`.
StatusOr<std::vector<HostTensor>> readResults(const std::vector<TensorType> &types,
                                              const std::vector<std::shared_ptr<hal::Buffer>> &buffers) {
  std::vector<HostTensor> outputs;
  for (size_t i = 0; i < types.size(); ++i) {
    HostTensor out = HostTensor::zeros(types[i]);
    TESSEL_RETURN_IF_ERROR(buffers[i]->read(0, out.bytes.data(), out.bytes.size()));
    outputs.push_back(std::move(out));
  }
  return outputs;
}

} // namespace

namespace {
bool sameShapes(const std::vector<std::vector<int64_t>> &shapes,
                const std::vector<HostTensor> &inputs) {
  for (size_t k = 0; k < inputs.size(); ++k)
    if (shapes[k] != inputs[k].type.shape)
      return false;
  return true;
}

/// Records a call of `p` with `inputs` into `state` (its dispatches, buffers
/// and result types, and the shapes it holds for); returns the upload time.
StatusOr<double> record(const detail::FunctionProgram &p, const std::vector<HostTensor> &inputs,
                        detail::PreparedCallState &state) {
  Interpreter interpreter(p, inputs, &state);
  TESSEL_RETURN_IF_ERROR(interpreter.run());
  state.results = std::move(interpreter.results);
  state.resultTypes = std::move(interpreter.resultTypes);
  for (const HostTensor &in : inputs)
    state.shapes.push_back(in.type.shape);
  return interpreter.uploadMs;
}

/// Function::call of a program without Reads: through a recording of the
/// function's CallCache.
StatusOr<std::vector<HostTensor>> callRecorded(const detail::FunctionProgram &p,
                                               const std::vector<HostTensor> &inputs,
                                               CallTimings *timings) {
  detail::CallCache &cache = *p.calls;
  std::unique_ptr<detail::PreparedCallState> state;
  {
    std::lock_guard<std::mutex> lock(cache.mutex);
    // The most recently used recording of these shapes.
    for (size_t k = cache.idle.size(); k-- > 0;)
      if (sameShapes(cache.idle[k]->shapes, inputs)) {
        state = std::move(cache.idle[k]);
        cache.idle.erase(cache.idle.begin() + static_cast<std::ptrdiff_t>(k));
        break;
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
    TESSEL_ASSIGN_OR_RETURN(uploadMs, record(p, inputs, *state));
  }
  if (state->dispatches)
    TESSEL_RETURN_IF_ERROR(p.device->submitAndWait(*state->all));
  double runMs = msSince(start);
  start = Clock::now();
  TESSEL_ASSIGN_OR_RETURN(std::vector<HostTensor> outputs,
                          readResults(state->resultTypes, state->results));
  if (timings)
    *timings = CallTimings{uploadMs, runMs - uploadMs, msSince(start)};
  std::lock_guard<std::mutex> lock(cache.mutex);
  cache.idle.push_back(std::move(state));
  if (cache.idle.size() > detail::CallCache::kMaxIdle)
    cache.idle.erase(cache.idle.begin());
  return outputs;
}
} // namespace

StatusOr<std::vector<HostTensor>> Function::call(const std::vector<HostTensor> &inputs,
                                                 CallTimings *timings) const {
  const detail::FunctionProgram &p = *program_;
  TESSEL_RETURN_IF_ERROR(validateInputs(p, inputs));
  std::unique_lock<std::mutex> state;
  if (p.stateLock)
    state = std::unique_lock<std::mutex>(*p.stateLock);
  if (!p.readsDevice)
    return callRecorded(p, inputs, timings);
  auto start = Clock::now();
  Interpreter interpreter(p, inputs, nullptr);
  TESSEL_RETURN_IF_ERROR(interpreter.run());
  double runMs = msSince(start);
  start = Clock::now();
  TESSEL_ASSIGN_OR_RETURN(std::vector<HostTensor> outputs,
                          readResults(interpreter.resultTypes, interpreter.results));
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
  TESSEL_RETURN_IF_ERROR(record(p, inputs, *state).status());
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
  return readResults(state_->resultTypes, state_->results);
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
