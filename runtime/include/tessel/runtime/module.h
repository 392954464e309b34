// Modules (.tmod files written by tessel-compile) and their functions.
//
// Loading verifies the whole file (FlatBuffers verifier plus every index,
// size and count the host program uses), prepares the executable for the
// device and uploads constants; a corrupt file is an error naming the file
// and the problem, never a crash. Calling validates the inputs against the
// function signature, runs the host program and returns results as fresh
// tensors (never aliasing the inputs or each other).
//
// Example:
//   auto device = tessel::rt::createDevice("cpu");
//   if (!device.ok()) return fail(device.status());
//   auto module = tessel::rt::Module::loadFile(*device, "m.tmod");
//   if (!module.ok()) return fail(module.status());
//   auto outs = (*module)->call("main", {tensorA, tensorB});
//   if (!outs.ok()) return fail(outs.status());
//   std::cout << tessel::rt::formatTensor((*outs)[0]) << "\n";
#pragma once

#include "tessel/runtime/device.h"
#include "tessel/runtime/status.h"
#include "tessel/runtime/tensor.h"

#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace tessel::rt {

/// The schema version this runtime reads (schema/module.fbs).
constexpr uint32_t kSchemaVersion = 1;

/// Where the time of one call went, in milliseconds.
struct CallTimings {
  double uploadMs = 0;   ///< allocating slots and copying inputs in
  double dispatchMs = 0; ///< recording and running the dispatches
  double readbackMs = 0; ///< copying results out
};

namespace detail {
struct FunctionProgram;
}

/// One public function of a module.
class Function {
public:
  /// Built by Module::load; not for direct use.
  explicit Function(std::shared_ptr<const detail::FunctionProgram> program);

  const std::string &name() const;
  const std::vector<TensorType> &arguments() const;
  const std::vector<TensorType> &results() const;
  size_t dispatchCount() const;
  /// "(2x3xf32, 2x3xf32) -> (2x3xf32)".
  std::string signature() const;

  /// Runs the function. Inputs must match arguments() in count, element type
  /// and shape; errors name the offending argument (0-based). Safe to call
  /// from several threads at once.
  StatusOr<std::vector<HostTensor>> call(const std::vector<HostTensor> &inputs,
                                         CallTimings *timings = nullptr) const;

private:
  std::shared_ptr<const detail::FunctionProgram> program_;
};

/// A loaded module, bound to the device it was loaded on.
class Module {
public:
  /// Reads, verifies and prepares `path` for `device`.
  static StatusOr<std::shared_ptr<Module>> loadFile(std::shared_ptr<Device> device,
                                                    const std::string &path);
  /// Same from bytes; `name` stands for the file in error messages.
  static StatusOr<std::shared_ptr<Module>> loadBytes(std::shared_ptr<Device> device,
                                                     const std::vector<uint8_t> &bytes,
                                                     const std::string &name = "<memory>");

  /// The targets of the executables in module file `path` ("cpu", "cuda"),
  /// after verifying the file; lets a caller choose a device before loading.
  static StatusOr<std::vector<std::string>> executableTargets(const std::string &path);

  /// The file name (or the name given to loadBytes).
  const std::string &name() const { return name_; }
  const std::vector<Function> &functions() const { return functions_; }
  /// The function called `name`; the error lists the available ones.
  StatusOr<const Function *> lookupFunction(std::string_view name) const;
  /// lookupFunction(name) then Function::call.
  StatusOr<std::vector<HostTensor>> call(std::string_view function,
                                         const std::vector<HostTensor> &inputs) const;

  /// A human-readable summary: producer, functions with signatures and
  /// dispatch counts, executables with their exports and binaries.
  std::string describe() const;

private:
  Module() = default;
  std::string name_;
  std::shared_ptr<Device> device_;
  std::vector<Function> functions_;
  std::string description_;
};

} // namespace tessel::rt
