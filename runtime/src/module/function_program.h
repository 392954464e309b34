// The verified, device-ready form of a function's host program, shared by
// the loader (module.cpp) and the interpreter (function.cpp).
#pragma once

#include "hal/device.h"
#include "tessel/runtime/types.h"

#include <memory>
#include <string>
#include <vector>

namespace tessel::rt::detail {

/// A buffer slot (schema `Slot`); `constant` holds the uploaded data of a
/// constant slot and is shared by all calls.
struct ProgramSlot {
  enum class Kind { Argument, Transient, Constant } kind = Kind::Transient;
  uint32_t argument = 0;
  uint64_t byteSize = 0;
  std::shared_ptr<hal::Buffer> constant;
};

struct ProgramDispatch {
  uint32_t ordinal = 0;
  std::vector<uint32_t> bindings;
};

/// Every index in here has been checked against the module by the loader.
struct FunctionProgram {
  std::string name;
  std::vector<TensorType> arguments;
  std::vector<TensorType> results;
  std::vector<ProgramSlot> slots;
  std::vector<ProgramDispatch> dispatches;
  std::vector<uint32_t> resultSlots;
  std::shared_ptr<hal::Device> device;
  std::shared_ptr<hal::Executable> executable; // null iff there are no dispatches
};

/// "(2x3xf32, f32) -> (2x3xf32)".
std::string formatSignature(const std::vector<TensorType> &arguments,
                            const std::vector<TensorType> &results);

} // namespace tessel::rt::detail
