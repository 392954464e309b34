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
#include "tessel/runtime/parameters.h"
#include "tessel/runtime/status.h"
#include "tessel/runtime/tensor.h"

#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace tessel::rt {

/// The newest schema version this runtime reads (schema/module.fbs); the one
/// tessel-compile writes.
constexpr uint32_t kSchemaVersion = 9;
/// The oldest schema version this runtime reads: version 8 is version 9
/// without parameters; version 7 is version 8
/// without dynamic extents in tensor maps; version 3 is version 7
/// without CUDA C kernels (Export.abi, Export.parameter_sizes), dispatch
/// scratch (Export.scratch_bytes), host programs (Function.program) or
/// dynamic shapes (-1 dimensions, Dim, Assert, push constants, workgroup
/// count programs), version 4 without scratch, programs or dynamic shapes,
/// version 5 without programs or dynamic shapes, version 6 without dynamic
/// shapes.
constexpr uint32_t kMinSchemaVersion = 3;

/// Where the time of one call went, in milliseconds.
struct CallTimings {
  double uploadMs = 0;   ///< allocating slots and copying inputs in
  double dispatchMs = 0; ///< recording and running the dispatches
  double readbackMs = 0; ///< copying results out
};

namespace detail {
struct FunctionProgram;
struct PreparedCallState;
} // namespace detail

class PreparedCall;

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
  /// and shape (a dynamic dimension, "?", matches any extent); errors name
  /// the offending argument (0-based). Results have the call's shapes (the
  /// dynamic dimensions of results() filled in). Safe to call from several
  /// threads at once; calls of functions that read or write the module's
  /// state (mutable parameters, such as a KV cache) run one at a time, in
  /// the order they take the module's state lock.
  StatusOr<std::vector<HostTensor>> call(const std::vector<HostTensor> &inputs,
                                         CallTimings *timings = nullptr) const;

  /// For benchmarks: allocates the call's buffers, uploads `inputs` and
  /// records the dispatches once (validation as in call()); the result is
  /// replayed any number of times on the same buffers.
  StatusOr<std::unique_ptr<PreparedCall>> prepare(const std::vector<HostTensor> &inputs) const;

private:
  std::shared_ptr<const detail::FunctionProgram> program_;
};

/// A call whose buffers and command buffers exist once and are replayed
/// (Function::prepare). Each run executes the same dispatches on the same
/// buffers; a kernel that updates an argument slot in place sees its own
/// earlier output on the next run (fine for timing, not for results: read
/// results() after the first run). Not thread-safe.
class PreparedCall {
public:
  explicit PreparedCall(std::unique_ptr<detail::PreparedCallState> state);
  ~PreparedCall();

  size_t dispatchCount() const;
  /// Sets every byte of every result slot to `value` (0xFF makes f32, f16
  /// and bf16 results NaN), so that elements a run fails to write show.
  Status fillResults(uint8_t value);
  /// Runs the dispatches once and waits.
  Status run();
  /// Copies the results out of their slots.
  StatusOr<std::vector<HostTensor>> results() const;

  /// Runs `runs` times back to back, run i on `calls[i % calls.size()]`
  /// (several prepared calls on copies of the inputs keep the inputs cold in
  /// the cache), and returns each run's time in milliseconds: device time
  /// from events on cuda, host wall-clock time per run on cpu. With
  /// `dispatch` >= 0 only that dispatch of each call runs. All calls must be
  /// of one function on one device.
  static StatusOr<std::vector<double>> timeRuns(const std::vector<PreparedCall *> &calls, int runs,
                                                int dispatch = -1);

private:
  std::unique_ptr<detail::PreparedCallState> state_;
};

/// For benchmarks: copies `bytes` between two buffers of `device`, `runs`
/// times back to back, and returns each copy's time in milliseconds (timed as
/// PreparedCall::timeRuns). A copy reads and writes `bytes`.
StatusOr<std::vector<double>> timeDeviceCopy(Device &device, size_t bytes, int runs);

/// How a module is loaded.
struct LoadOptions {
  /// Where the module's external parameters (schema `Parameter` without
  /// data) are found, by name: the first file holding a name supplies it.
  /// Each must have the parameter's element type and shape. Tensors no
  /// parameter names are ignored (one file may serve several modules).
  std::vector<std::shared_ptr<const ParameterFile>> parameters;
};

/// A loaded module, bound to the device it was loaded on.
class Module {
public:
  /// Reads, verifies and prepares `path` for `device`: its parameters are
  /// uploaded to the device once, here, and shared by every call.
  static StatusOr<std::shared_ptr<Module>> loadFile(std::shared_ptr<Device> device,
                                                    const std::string &path,
                                                    const LoadOptions &options = {});
  /// Same from bytes; `name` stands for the file in error messages.
  static StatusOr<std::shared_ptr<Module>> loadBytes(std::shared_ptr<Device> device,
                                                     const std::vector<uint8_t> &bytes,
                                                     const std::string &name = "<memory>",
                                                     const LoadOptions &options = {});

  /// The targets of the executables in module file `path` ("cpu", "cuda"),
  /// after verifying the file; lets a caller choose a device before loading.
  static StatusOr<std::vector<std::string>> executableTargets(const std::string &path);

  /// describe() of module file `path` without loading it on a device
  /// (any module, whatever its targets, on any machine). With `device`, it
  /// adds which executable of the device's target loading would use, e.g.
  /// "cuda device: cuda (NVIDIA H100 80GB HBM3, sm_90, graph command
  /// buffers)" then "  would load: executable 0 (cubin sm_90a)", after a
  /// "  skipped executable N (cuda): WHY" line per executable that does not
  /// fit; nothing is loaded. With `hostCpu` and cpu executables, it adds
  /// (before that) which cpu executable this host would load: the host's
  /// CPU features (less those TESSEL_CPU_DISABLE_FEATURES masks), e.g.
  /// "cpu host: x86_64, features [sse3, ..., avx2]", then a "  skipped
  /// executable N (cpu): WHY" line per cpu executable that does not fit and
  /// "  would load: executable 1 (elf-shared-object x86_64 for x86-64-v3,
  /// features [...])"; a malformed TESSEL_CPU_DISABLE_FEATURES is an error.
  static StatusOr<std::string> describeFile(const std::string &path,
                                            const Device *device = nullptr,
                                            bool hostCpu = false);
  /// Same from bytes; `name` stands for the file in the text and errors.
  static StatusOr<std::string> describeBytes(const std::vector<uint8_t> &bytes,
                                             const std::string &name = "<memory>",
                                             const Device *device = nullptr,
                                             bool hostCpu = false);

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
