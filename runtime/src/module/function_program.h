// The verified, device-ready form of a function's host program, shared by
// the loader (module.cpp) and the interpreter (function.cpp).
#pragma once

#include "hal/device.h"
#include "module_generated.h"
#include "tessel/runtime/types.h"

#include <array>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace tessel::rt::detail {

struct CallCache;
/// An empty cache of recorded calls (defined with the interpreter).
std::shared_ptr<CallCache> makeCallCache();

/// One instruction of a host program (schema `Instruction`; operand
/// meanings per opcode in schema/module.fbs).
struct Instruction {
  fb::Opcode opcode = fb::Opcode_Return;
  std::vector<int64_t> operands;
};

/// schema `WorkgroupCountProgram` (version 7): integer instructions only
/// (isIntegerOp), registers 0 .. push constants - 1 starting as the
/// dispatch's push constants, the rest as 0. Checked by the loader.
struct WorkgroupCountProgram {
  uint32_t intRegisters = 0;
  std::vector<Instruction> instructions;
  std::array<uint32_t, 3> results{}; ///< the registers of x, y and z
};

/// A host program. Both schema forms load into it: a `HostProgram`
/// (version 6 or 7) as written, and the slot form (versions 3 to 7) as one
/// argument/constant/alloc per slot, its dispatches and a return. Every
/// register, index, ordinal and branch target has been checked by the
/// loader.
struct FunctionProgram {
  std::string name;
  std::vector<TensorType> arguments;
  std::vector<TensorType> results;
  uint32_t intRegisters = 0;
  uint32_t bufferRegisters = 0;
  std::vector<Instruction> instructions;
  /// Assert messages (HostProgram.messages).
  std::vector<std::string> messages;
  /// How many dimensions of `results` are kDynamicDim: the integer operands
  /// of the Return after its buffers.
  size_t resultDims = 0;
  /// Uploaded at load, shared by all calls.
  std::vector<std::shared_ptr<hal::Buffer>> constants;
  /// The module's parameters (Module.parameters, in order), uploaded at
  /// load and shared by all its functions and calls; a mutable one is the
  /// module's state.
  std::vector<std::shared_ptr<hal::Buffer>> parameters;
  /// Whether the program reads or writes a mutable parameter; its calls
  /// then hold `stateLock`, shared by the module's functions.
  bool usesState = false;
  std::shared_ptr<std::mutex> stateLock;
  /// Dispatch instructions in the program (each runs zero or more times).
  size_t dispatchCount = 0;
  /// Whether the program reads device values (a Read): its calls depend on
  /// data, so they cannot be recorded once and replayed.
  bool readsDevice = false;
  /// Function::call's recorded calls kept for reuse (programs without a
  /// Read); shared by all calls, thread-safe.
  std::shared_ptr<CallCache> calls = makeCallCache();
  /// What --print-module says of the program's size: "3 slots, 2
  /// dispatches" or "14 instructions, 2 dispatches, control flow".
  std::string summary;
  /// One line per instruction (formatInstruction) for programs written as
  /// programs; empty for the slot form.
  std::string listing;
  std::shared_ptr<hal::Device> device;
  std::shared_ptr<hal::Executable> executable; // null iff there are no dispatches
};

/// What each operand of `op` is: 'i' integer register, 'b' buffer
/// register, '#' immediate, '@' instruction index; a '*' repeats the kind
/// before it (zero or more times). At most two such runs end the list: a
/// Dispatch's bindings then push constants ("#b*i*"), a Return's result
/// buffers then result dimensions ("b*i*"). Empty for an unknown opcode.
std::string_view operandKinds(fb::Opcode op);

/// The kind of each of `count` operands of `op` (at least its fixed ones),
/// its runs expanded; of two runs the first takes `split` operands (or all
/// that remain, if fewer).
std::string operandKindsOf(fb::Opcode op, size_t count, size_t split);

/// "Dispatch #3, b0, b4, i2" (for a program the loader checked; `split` as
/// for operandKindsOf).
std::string formatInstruction(const Instruction &instruction, size_t split);

/// Whether `op` is one of the integer opcodes (Int, Move, Add .. Select,
/// SignExtend, ZeroExtend): those runIntegerOp runs and a workgroup count
/// program may use.
bool isIntegerOp(fb::Opcode op);

/// Runs integer instruction `in` (isIntegerOp, operands checked by the
/// loader) on `ints`; the one error is a division by zero.
Status runIntegerOp(const Instruction &in, std::vector<int64_t> &ints);

/// The workgroup count `program` computes from `pushConstants` (as many as
/// the export takes), before any range check.
StatusOr<std::array<int64_t, 3>> runWorkgroupCountProgram(const WorkgroupCountProgram &program,
                                                          const std::vector<int64_t> &pushConstants);

/// "(2x3xf32, f32) -> (2x3xf32)".
std::string formatSignature(const std::vector<TensorType> &arguments,
                            const std::vector<TensorType> &results);

} // namespace tessel::rt::detail
