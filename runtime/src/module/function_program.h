// The verified, device-ready form of a function's host program, shared by
// the loader (module.cpp) and the interpreter (function.cpp).
#pragma once

#include "hal/device.h"
#include "module_generated.h"
#include "tessel/runtime/types.h"

#include <memory>
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

/// A host program. Both schema forms load into it: a `HostProgram`
/// (version 6) as written, and the slot form (versions 3 to 6) as one
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
  /// Uploaded at load, shared by all calls.
  std::vector<std::shared_ptr<hal::Buffer>> constants;
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
/// register, '#' immediate, '@' instruction index; a trailing '*' repeats
/// the kind before it (zero or more times). Empty for an unknown opcode.
std::string_view operandKinds(fb::Opcode op);

/// "Dispatch #3, b0, b4" (for a program the loader checked).
std::string formatInstruction(const Instruction &instruction);

/// "(2x3xf32, f32) -> (2x3xf32)".
std::string formatSignature(const std::vector<TensorType> &arguments,
                            const std::vector<TensorType> &results);

} // namespace tessel::rt::detail
