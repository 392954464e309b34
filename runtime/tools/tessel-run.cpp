// tessel-run: loads a module, calls one function with inputs from the
// command line and prints, saves or checks its results; optionally
// benchmarks the call. Exit codes: 0 success, 1 failure or mismatch,
// 2 usage error. --output files are written only when the run succeeds, each
// through a temporary file renamed into place: a failed run leaves no file
// and no partial one, and never replaces an existing one.
#include "tessel/runtime/compare.h"
#include "tessel/runtime/device.h"
#include "tessel/runtime/module.h"
#include "tessel/runtime/npy.h"
#include "tessel/runtime/staged_files.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <optional>
#include <unistd.h>
#include <string>
#include <vector>

using namespace tessel::rt;

namespace {

constexpr int kExitFailure = 1;
constexpr int kExitUsage = 2;

const char kUsage[] =
    R"(usage: tessel-run MODULE.tmod [--function=NAME] [--device=cpu|cuda]
                  [--cuda-command-buffer=graph|stream]
                  [--parameters=W.safetensors]...
                  [--input=@in.npy | --input=2x3xf32=1,2,3,4,5,6]...
                  [--output=@out.npy]...
                  [--expected_output=@ref.npy | --expected_output=LITERAL]...
                  [--tolerance=R] [--benchmark=N] [--generate=N]
                  [--print-module] [--help]

Calls NAME (optional if the module has one function) with the inputs in
order and prints each result, or writes them with --output (one per result;
written only if the whole run succeeds, so a failed run or a mismatch with
--expected_output leaves existing files untouched).
  --device=NAME         cpu, cuda, or best (default): cuda if a CUDA device
                        is usable and the module has a cuda executable,
                        else cpu; the choice (and why) goes to stderr
  --cuda-command-buffer=MODE
                        graph (default; a CUDA graph built once per command
                        buffer and replayed) or stream (commands replayed on
                        a CUstream); default from TESSEL_CUDA_COMMAND_BUFFER
  --parameters=FILE     a safetensors file holding the module's external
                        parameters (weights kept outside the module:
                        tessel-compile --parameters-file, tessel-import-onnx
                        --parameters-file); repeatable, the first file
                        holding a name supplies it; each is checked against
                        the module's name, element type and shape
  --input=LITERAL       SHAPExTYPE=v1,v2,... e.g. 2x3xf32=1,2,3,4,5,6,
                        f32=1.5, 4x4xf32=1 (a single value splats);
                        i1 takes 0/1/true/false
  --input=@FILE.npy     a .npy file (bf16: raw bits as <u2, or bfloat16)
  --expected_output=... one per result; a float element passes if
                        |got-exp| <= R*(1+|exp|); ints and i1 must match
  --tolerance=R         default 1e-5
  --benchmark=N         after 2 warm-up calls, time N calls
  --generate=N          greedy generation: NAME takes token ids [B, ?]
                        (i64 or i32; the one --input is the prompt) and
                        returns logits [B, ?, V] first; N times, the
                        highest logit of each row's last position is
                        appended to it (ties: the lowest id) and NAME is
                        called on the longer sequence (no KV cache: each
                        step runs the whole sequence). Prints the new
                        tokens, the time to the first token and the decode
                        rate; --output / --expected_output take the final
                        ids [B, P + N]
  --print-module        describe the module's functions and executables (no
                        device needed: works for any module on any machine);
                        for cpu executables (one per --cpu variant), which
                        one this host would load and why the ones before it
                        do not fit (TESSEL_CPU_DISABLE_FEATURES=avx512f,...
                        masks host features); for cuda executables, which
                        one this machine's cuda device would load
                        (TESSEL_CUDA_ARCH=sm_XY restricts loading to
                        binaries of that arch)
Exit status: 0 ok, 1 failure or mismatch, 2 usage error.
)";

struct Options {
  std::string module;
  std::optional<std::string> function;
  std::string device;
  std::string cudaCommandBuffer;
  std::vector<std::string> inputs, outputs, expected, parameters;
  double tolerance = kDefaultTolerance;
  int benchmark = 0;
  int generate = 0;
  bool printModule = false;
  bool help = false;
};

struct UsageError {
  std::string message;
};

std::optional<UsageError> parseArgs(int argc, char **argv, Options &o) {
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    if (arg == "--help" || arg == "-h") {
      o.help = true;
      continue;
    }
    if (arg == "--print-module") {
      o.printModule = true;
      continue;
    }
    if (arg.rfind("-", 0) != 0) {
      if (!o.module.empty())
        return UsageError{"more than one module given ('" + o.module + "' and '" + arg + "')"};
      o.module = arg;
      continue;
    }
    size_t eq = arg.find('=');
    std::string flag = arg.substr(0, eq);
    bool known = flag == "--function" || flag == "--device" || flag == "--input" ||
                 flag == "--output" || flag == "--expected_output" || flag == "--tolerance" ||
                 flag == "--benchmark" || flag == "--cuda-command-buffer" ||
                 flag == "--generate" ||
                 flag == "--parameters";
    if (!known)
      return UsageError{"unknown flag '" + flag + "'"};
    if (eq == std::string::npos)
      return UsageError{"flag " + flag + " needs a value (" + flag + "=...)"};
    std::string value = arg.substr(eq + 1);
    if (flag == "--function") {
      o.function = value;
    } else if (flag == "--device") {
      if (value != "cpu" && value != "cuda" && value != "best")
        return UsageError{"--device expects cpu, cuda or best, got '" + value + "'"};
      o.device = value;
    } else if (flag == "--cuda-command-buffer") {
      if (value != "graph" && value != "stream")
        return UsageError{"--cuda-command-buffer expects graph or stream, got '" + value + "'"};
      o.cudaCommandBuffer = value;
    } else if (flag == "--input") {
      o.inputs.push_back(value);
    } else if (flag == "--parameters") {
      if (value.empty())
        return UsageError{"--parameters expects a file name"};
      o.parameters.push_back(value);
    } else if (flag == "--output") {
      if (value.size() < 2 || value[0] != '@')
        return UsageError{"--output expects @FILE.npy, got '" + value + "'"};
      o.outputs.push_back(value.substr(1));
    } else if (flag == "--expected_output") {
      o.expected.push_back(value);
    } else if (flag == "--tolerance") {
      char *end = nullptr;
      o.tolerance = std::strtod(value.c_str(), &end);
      if (value.empty() || *end || !std::isfinite(o.tolerance) || o.tolerance < 0)
        return UsageError{"--tolerance expects a non-negative number, got '" + value + "'"};
    } else if (flag == "--benchmark") {
      char *end = nullptr;
      long n = std::strtol(value.c_str(), &end, 10);
      if (value.empty() || *end || n <= 0 || n > 1000000)
        return UsageError{"--benchmark expects a positive run count, got '" + value + "'"};
      o.benchmark = static_cast<int>(n);
    } else if (flag == "--generate") {
      char *end = nullptr;
      long n = std::strtol(value.c_str(), &end, 10);
      if (value.empty() || *end || n <= 0 || n > 1000000)
        return UsageError{"--generate expects a positive token count, got '" + value + "'"};
      o.generate = static_cast<int>(n);
    }
  }
  if (!o.help && o.module.empty())
    return UsageError{"no module file given"};
  if (o.generate && o.benchmark)
    return UsageError{"--generate and --benchmark do not go together"};
  return std::nullopt;
}

// "@file.npy" or a literal; `hint` is the element type the function expects
// there (selects the npy raw-bits conventions for bf16 and i1).
StatusOr<HostTensor> loadTensorArg(const std::string &arg, std::optional<ElementType> hint) {
  if (!arg.empty() && arg[0] == '@')
    return readNpy(arg.substr(1), hint);
  return parseTensorLiteral(arg);
}

int fail(const Status &status) {
  std::fprintf(stderr, "tessel-run: error: %s\n", status.message().c_str());
  return kExitFailure;
}

std::string fmt(double v) {
  char buf[32];
  std::snprintf(buf, sizeof(buf), "%.3g", v);
  return buf;
}

std::string fmtMs(double v) {
  char buf[32];
  std::snprintf(buf, sizeof(buf), "%.4f", v);
  return buf;
}

struct Stats {
  double median, min, max;
};
Stats stats(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  size_t n = v.size();
  double median = n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
  return {median, v.front(), v.back()};
}

// --device=best (the default): cuda when a device is usable and the module
// has a cuda executable, else cpu. The line on stderr says which and why.
StatusOr<std::shared_ptr<Device>> chooseDevice(const Options &o) {
  DeviceOptions options;
  options.cudaCommandBuffer = o.cudaCommandBuffer;
  if (!o.device.empty() && o.device != "best") {
    TESSEL_ASSIGN_OR_RETURN(auto device, createDevice(o.device, options));
    std::fprintf(stderr, "tessel-run: device %s\n", device->description().c_str());
    return device;
  }
  TESSEL_ASSIGN_OR_RETURN(std::vector<std::string> targets, Module::executableTargets(o.module));
  std::string why;
  if (std::find(targets.begin(), targets.end(), "cuda") != targets.end()) {
    auto cuda = createDevice("cuda", options);
    if (cuda.ok()) {
      std::fprintf(stderr, "tessel-run: device %s\n", (*cuda)->description().c_str());
      return cuda;
    }
    // A bad option is the user's error, not a reason to fall back.
    if (cuda.status().code() == StatusCode::kInvalidArgument)
      return cuda.status();
    why = cuda.status().message();
  } else {
    std::string list;
    for (const std::string &t : targets)
      list += (list.empty() ? "" : ", ") + t;
    why = "module has no cuda executable (targets: " + (list.empty() ? "none" : list) + ")";
  }
  TESSEL_ASSIGN_OR_RETURN(auto cpu, createDevice("cpu", options));
  std::fprintf(stderr, "tessel-run: device %s \u2014 %s\n", cpu->description().c_str(),
               why.c_str());
  return cpu;
}

// --print-module: the description, plus which cpu executable this host
// would load, and, for a module with cuda executables, which one this
// machine's cuda device would load (or why there is no cuda device).
int printModule(const Options &o) {
  auto targets = Module::executableTargets(o.module);
  if (!targets.ok())
    return fail(targets.status());
  std::shared_ptr<Device> cuda;
  std::string noCuda;
  if (std::find(targets->begin(), targets->end(), "cuda") != targets->end()) {
    DeviceOptions options;
    options.cudaCommandBuffer = o.cudaCommandBuffer;
    auto device = createDevice("cuda", options);
    if (device.ok())
      cuda = *device;
    else
      noCuda = "cuda device: none (" + device.status().message() + ")\n";
  }
  auto text = Module::describeFile(o.module, cuda.get(), /*hostCpu=*/true);
  if (!text.ok())
    return fail(text.status());
  std::fputs((*text + noCuda).c_str(), stdout);
  return 0;
}

// Appends to each row of `ids` ([B, S], i64 or i32) the index of the
// largest of its last position's logits ([B, S, V], floating point; ties:
// the lowest index).
HostTensor appendGreedy(const HostTensor &ids, const HostTensor &logits) {
  int64_t b = ids.type.shape[0], s = ids.type.shape[1], v = logits.type.shape[2];
  TensorType type = ids.type;
  type.shape[1] = s + 1;
  HostTensor out = HostTensor::zeros(type);
  bool i64 = ids.type.elementType == ElementType::i64;
  for (int64_t r = 0; r < b; ++r) {
    int64_t best = 0;
    double bestValue = -INFINITY;
    for (int64_t k = 0; k < v; ++k) {
      double x = logits.elementAsDouble((r * s + s - 1) * v + k);
      if (x > bestValue || (std::isnan(bestValue) && !std::isnan(x))) {
        bestValue = x;
        best = k;
      }
    }
    for (int64_t c = 0; c <= s; ++c) {
      int64_t token = c < s ? (i64 ? ids.data<int64_t>()[r * s + c]
                                   : ids.data<int32_t>()[r * s + c])
                            : best;
      if (i64)
        out.data<int64_t>()[r * (s + 1) + c] = token;
      else
        out.data<int32_t>()[r * (s + 1) + c] = static_cast<int32_t>(token);
    }
  }
  return out;
}

// --generate: greedy decoding by whole-sequence calls of `function`.
int generate(const Options &o, const Function &function, std::vector<HostTensor> inputs) {
  const std::vector<TensorType> &args = function.arguments(), &results = function.results();
  auto isIds = [](const TensorType &t) {
    return t.shape.size() == 2 && t.shape[1] == kDynamicDim &&
           (t.elementType == ElementType::i64 || t.elementType == ElementType::i32);
  };
  if (args.size() != 1 || !isIds(args[0]) || results.empty() || results[0].shape.size() != 3 ||
      results[0].shape[1] != kDynamicDim || !isFloat(results[0].elementType))
    return fail(invalidArgument(
        "--generate needs a function of token ids [B, ?] (i64 or i32) whose first result is "
        "logits [B, ?, V]; '" + function.name() + "' is " + function.signature()));
  if (inputs.size() != 1)
    return fail(invalidArgument("--generate takes the prompt as the one --input, got " +
                                std::to_string(inputs.size())));
  HostTensor ids = std::move(inputs[0]);
  if (ids.type.elementType != args[0].elementType || ids.type.shape.size() != 2 ||
      ids.type.shape[1] == 0)
    return fail(invalidArgument("--generate: the prompt must be a non-empty [B, P] tensor of " +
                                std::string(elementTypeName(args[0].elementType)) + ", got " +
                                ids.type.toString()));
  int64_t prompt = ids.type.shape[1];
  std::vector<double> ms;
  for (int step = 0; step < o.generate; ++step) {
    auto start = std::chrono::steady_clock::now();
    auto r = function.call({ids});
    if (!r.ok())
      return fail(r.status().withContext("generation step " + std::to_string(step)));
    ids = appendGreedy(ids, (*r)[0]);
    ms.push_back(
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
            .count());
  }
  std::string tokens;
  for (int64_t r = 0; r < ids.type.shape[0]; ++r) {
    tokens += r ? " |" : "";
    for (int64_t c = prompt; c < ids.type.shape[1]; ++c)
      tokens += " " + std::to_string(static_cast<long long>(ids.elementAsDouble(r * ids.type.shape[1] + c)));
  }
  double decode = 0;
  for (size_t i = 1; i < ms.size(); ++i)
    decode += ms[i];
  std::printf("generated:%s\n", tokens.c_str());
  std::printf("time to first token: %s ms (prompt of %lld tokens)", fmtMs(ms[0]).c_str(),
              static_cast<long long>(prompt));
  if (ms.size() > 1)
    std::printf("; decode: %s tokens/s (%zu steps, host wall clock, each the whole sequence)",
                fmt(1000.0 * double(ms.size() - 1) / decode).c_str(), ms.size() - 1);
  std::printf("\n");
  bool mismatch = false;
  if (o.expected.size() > 1 || o.outputs.size() > 1)
    return fail(invalidArgument("--generate has one result, the ids: at most one --output and "
                                "one --expected_output"));
  if (!o.expected.empty()) {
    auto expected = loadTensorArg(o.expected[0], ids.type.elementType);
    if (!expected.ok())
      return fail(expected.status().withContext("expected output"));
    CompareResult c = compareTensors(ids, *expected, 0);
    std::printf("ids: %s\n", c.pass ? "PASS" : ("FAIL: " + c.message).c_str());
    mismatch = !c.pass;
  }
  if (mismatch)
    return kExitFailure;
  StagedFiles files;
  if (!o.outputs.empty()) {
    Status s = files.stage(o.outputs[0], encodeNpy(ids), "npy file");
    if (!s.ok())
      return fail(s);
  }
  Status s = files.commit();
  return s.ok() ? 0 : fail(s);
}

int run(const Options &o) {
  if (o.printModule)
    return printModule(o);
  auto device = chooseDevice(o);
  if (!device.ok())
    return fail(device.status());

  LoadOptions load;
  for (const std::string &path : o.parameters) {
    auto file = ParameterFile::open(path);
    if (!file.ok())
      return fail(file.status());
    load.parameters.push_back(std::move(file).value());
  }
  auto module = Module::loadFile(*device, o.module, load);
  if (!module.ok())
    return fail(module.status());
  const Function *function = nullptr;
  if (o.function) {
    auto f = (*module)->lookupFunction(*o.function);
    if (!f.ok())
      return fail(f.status());
    function = *f;
  } else {
    const auto &fns = (*module)->functions();
    if (fns.size() != 1) {
      std::string names;
      for (const Function &f : fns)
        names += (names.empty() ? "" : ", ") + f.name();
      return fail(invalidArgument("module '" + o.module + "' has " + std::to_string(fns.size()) +
                                  " functions; choose one with --function=NAME (available: " +
                                  (names.empty() ? "none" : names) + ")"));
    }
    function = &fns[0];
  }

  std::vector<HostTensor> inputs;
  for (size_t i = 0; i < o.inputs.size(); ++i) {
    std::optional<ElementType> hint;
    if (i < function->arguments().size())
      hint = function->arguments()[i].elementType;
    auto t = loadTensorArg(o.inputs[i], hint);
    if (!t.ok())
      return fail(t.status().withContext("input " + std::to_string(i)));
    inputs.push_back(std::move(t).value());
  }

  if (o.generate)
    return generate(o, *function, std::move(inputs));
  auto results = function->call(inputs);
  if (!results.ok())
    return fail(results.status());

  size_t numResults = results->size();
  if (!o.outputs.empty()) {
    if (o.outputs.size() != numResults)
      return fail(invalidArgument("function '" + function->name() + "' has " +
                                  std::to_string(numResults) + " results but " +
                                  std::to_string(o.outputs.size()) + " --output flags were given"));
  } else {
    for (size_t i = 0; i < numResults; ++i)
      std::printf("result[%zu]: %s\n", i, formatTensor((*results)[i]).c_str());
  }

  bool mismatch = false;
  if (!o.expected.empty()) {
    if (o.expected.size() != numResults)
      return fail(invalidArgument("function '" + function->name() + "' has " +
                                  std::to_string(numResults) + " results but " +
                                  std::to_string(o.expected.size()) +
                                  " --expected_output flags were given"));
    for (size_t i = 0; i < numResults; ++i) {
      auto expected = loadTensorArg(o.expected[i], (*results)[i].type.elementType);
      if (!expected.ok())
        return fail(expected.status().withContext("expected output " + std::to_string(i)));
      CompareResult c = compareTensors((*results)[i], *expected, o.tolerance);
      std::string errs = "(max abs err " + fmt(c.maxAbsError) + ", max rel err " +
                         fmt(c.maxRelError) + ")";
      if (c.pass)
        std::printf("result[%zu]: PASS %s\n", i, errs.c_str());
      else
        std::printf("result[%zu]: FAIL: %s %s\n", i, c.message.c_str(), errs.c_str());
      mismatch |= !c.pass;
    }
  }

  if (o.benchmark > 0) {
    for (int i = 0; i < 2; ++i) {
      auto warm = function->call(inputs);
      if (!warm.ok())
        return fail(warm.status());
    }
    std::vector<double> total, dispatch;
    for (int i = 0; i < o.benchmark; ++i) {
      CallTimings t;
      auto start = std::chrono::steady_clock::now();
      auto r = function->call(inputs, &t);
      total.push_back(
          std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
              .count());
      if (!r.ok())
        return fail(r.status());
      dispatch.push_back(t.dispatchMs);
    }
    Stats s = stats(total), d = stats(dispatch);
    std::printf("benchmark: %d runs, median %s ms, min %s ms, max %s ms "
                "(dispatch only: median %s ms, min %s ms, max %s ms)\n",
                o.benchmark, fmtMs(s.median).c_str(), fmtMs(s.min).c_str(),
                fmtMs(s.max).c_str(), fmtMs(d.median).c_str(), fmtMs(d.min).c_str(),
                fmtMs(d.max).c_str());
  }
  if (mismatch)
    return kExitFailure;

  // Last, so that nothing is written unless everything above succeeded.
  StagedFiles files;
  for (size_t i = 0; i < o.outputs.size(); ++i) {
    Status s = files.stage(o.outputs[i], encodeNpy((*results)[i]), "npy file");
    if (!s.ok())
      return fail(s);
  }
  // Test hook (tessel_run_test.py): stop here, with the outputs staged, so
  // that a test can signal the process and check that the temporaries go.
  if (const char *hook = std::getenv("TESSEL_RUN_TEST_PAUSE_BEFORE_COMMIT"); hook && *hook) {
    std::fprintf(stderr, "tessel-run: test hook: outputs staged, pausing\n");
    std::fflush(stderr);
    for (int i = 0; i < 600; ++i)
      ::usleep(100000);
  }
  Status s = files.commit();
  if (!s.ok())
    return fail(s);
  return 0;
}

} // namespace

int main(int argc, char **argv) {
  try {
    Options o;
    if (auto err = parseArgs(argc, argv, o)) {
      std::fprintf(stderr, "tessel-run: error: %s\n\n%s", err->message.c_str(), kUsage);
      return kExitUsage;
    }
    if (o.help) {
      std::fputs(kUsage, stdout);
      return 0;
    }
    // SIGINT/SIGTERM/SIGHUP during a run: no output, no temporary file left.
    removeStagedFilesOnSignals();
    return run(o);
  } catch (const std::exception &e) {
    std::fprintf(stderr, "tessel-run: internal error: %s\n", e.what());
  } catch (...) {
    std::fprintf(stderr, "tessel-run: internal error\n");
  }
  return kExitFailure;
}
