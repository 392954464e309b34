// tessel-bench: times one function of a module the way benchmarks should:
// buffers allocated and inputs uploaded once, dispatches recorded once and
// replayed (one CUDA graph per buffer set on cuda), warm-up first, then many
// runs timed by the device (CUDA events around each run; wall clock on cpu).
// Reports the median and spread, GB/s, TFLOP/s and the percentage of the
// copy bandwidth measured in the same process, plus per-dispatch times for
// multi-dispatch functions. Also reports what happens once (device creation,
// module load, first prepare and run; --startup does only that) and, with
// --host-overhead, the host's wall-clock cost per call and per dispatch in
// each command-buffer mode. Exit codes: 0 ok, 1 failure, 2 usage error.
#include "tessel/runtime/device.h"
#include "tessel/runtime/module.h"
#include "tessel/runtime/npy.h"
#include "tessel/runtime/staged_files.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iomanip>
#include <memory>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

using namespace tessel::rt;

namespace {

constexpr int kExitFailure = 1;
constexpr int kExitUsage = 2;

const char kUsage[] =
    R"(usage: tessel-bench MODULE.tmod [--function=NAME] [--device=cuda|cpu]
                    [--parameters=W.safetensors]...
                    [--input=@in.npy | --input=LITERAL]... [--runs=N] [--warmup=W]
                    [--rotate=K] [--bytes=B] [--flops=F] [--copy-bytes=B]
                    [--no-per-dispatch] [--output=@out.npy]... [--json=out.json]
                    [--samples=times.txt]
                    [--startup | --host-overhead]

Times NAME (optional if the module has one function) on the given inputs.
  --device=NAME     cuda, cpu or best (default: cuda when usable)
  --parameters=F    the module's external parameters (as tessel-run)
  --runs=N          timed runs (default 100); --warmup=W untimed (default 5)
  --warmup-ms=T     warm up for at least T ms of device time too (default 25,
                    as triton's do_bench; 0: runs only). Kernels of ~0.1 ms
                    ran ~16% slower for the first 1-3 ms of a timing burst
                    on H100 (bench/RESULTS.md), which 5 runs did not cover
  --rotate=K        K buffer sets with copies of the inputs, run i uses set
                    i % K, so that inputs are not cache-resident; 0 (default)
                    picks K so that K x (input + output bytes) >= 256 MiB
                    (4x the L2 of an H100/H200), at most 32
  --bytes=B         bytes moved per run for GB/s (default: inputs + outputs)
  --flops=F         floating-point operations per run, for TFLOP/s
  --copy-bytes=B    size of the copy ceiling measurement (default 1 GiB on
                    cuda, 256 MiB on cpu); counted as 2B (read + write); on
                    cuda a device-to-device copy on a stream (not in a graph)
  --output=@F.npy   results of a run on result buffers filled with 0xFF
                    (NaN for floats) before it, one per result
  --json=F          everything printed, as JSON
  --samples=F       each timed run's time in microseconds, one per line, in
                    run order (to see how times vary from run to run)
  --startup         only what happens once, host wall clock: device creation,
                    Module::loadFile (read, verify, load the executable, on
                    cuda cuModuleLoadData + kernel lookup; upload constants),
                    the same file loaded again, the first prepare and the
                    first two runs; zero-filled inputs if none are given
  --host-overhead   instead of the device-timed runs: host wall clock per
                    call in each command-buffer mode (cuda: stream and graph;
                    cpu: its one mode), --runs calls after --warmup, of a
                    prepared call (replay incl. the wait), the same calls
                    timed by the device, a fresh prepared call (prepare, first
                    run: on a graph device capture + instantiate), and
                    Function::call (buffers, upload, record, run, read back)
Times: device events on cuda (runs enqueued back to back), host clock
around each run on cpu; medians and spread in microseconds. Every mode
first reports the startup times.
)";

struct Options {
  std::string module, device, json, samples;
  std::optional<std::string> function;
  std::vector<std::string> inputs, outputs, parameters;
  int runs = 100, warmup = 5, rotate = 0;
  double warmupMs = 25;
  double bytes = -1, flops = -1, copyBytes = -1;
  bool perDispatch = true, help = false, startup = false, hostOverhead = false;
};

struct Stats {
  double median = 0, min = 0, p10 = 0, p90 = 0, max = 0; // microseconds
};

Stats stats(std::vector<double> ms) {
  Stats s;
  if (ms.empty())
    return s;
  std::sort(ms.begin(), ms.end());
  auto at = [&](double q) { return 1000.0 * ms[static_cast<size_t>(q * (ms.size() - 1) + 0.5)]; };
  size_t n = ms.size();
  s.median = 1000.0 * (n % 2 ? ms[n / 2] : 0.5 * (ms[n / 2 - 1] + ms[n / 2]));
  s.min = 1000.0 * ms.front();
  s.max = 1000.0 * ms.back();
  s.p10 = at(0.1);
  s.p90 = at(0.9);
  return s;
}

bool parseNumber(const std::string &v, double &out) {
  char *end = nullptr;
  out = std::strtod(v.c_str(), &end);
  return !v.empty() && *end == 0;
}

std::optional<std::string> parseArgs(int argc, char **argv, Options &o) {
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    if (arg == "--help" || arg == "-h") {
      o.help = true;
      continue;
    }
    if (arg == "--no-per-dispatch" || arg == "--startup" || arg == "--host-overhead") {
      if (arg == "--no-per-dispatch")
        o.perDispatch = false;
      else if (arg == "--startup")
        o.startup = true;
      else
        o.hostOverhead = true;
      continue;
    }
    if (arg.rfind("--", 0) != 0) {
      if (!o.module.empty())
        return "more than one module given ('" + o.module + "', '" + arg + "')";
      o.module = arg;
      continue;
    }
    size_t eq = arg.find('=');
    if (eq == std::string::npos)
      return "flag '" + arg + "' needs a value (--flag=value)";
    std::string flag = arg.substr(0, eq), value = arg.substr(eq + 1);
    double num = 0;
    auto number = [&](double min) -> std::optional<std::string> {
      if (!parseNumber(value, num) || num < min)
        return flag + " expects a number >= " + std::to_string(static_cast<long long>(min)) +
               ", got '" + value + "'";
      return std::nullopt;
    };
    std::optional<std::string> err;
    if (flag == "--function")
      o.function = value;
    else if (flag == "--device")
      o.device = value;
    else if (flag == "--input")
      o.inputs.push_back(value);
    else if (flag == "--parameters")
      o.parameters.push_back(value);
    else if (flag == "--output")
      o.outputs.push_back(value);
    else if (flag == "--json")
      o.json = value;
    else if (flag == "--samples")
      o.samples = value;
    else if (flag == "--runs") {
      if (!(err = number(1)))
        o.runs = static_cast<int>(num);
    } else if (flag == "--warmup") {
      if (!(err = number(0)))
        o.warmup = static_cast<int>(num);
    } else if (flag == "--warmup-ms") {
      if (!(err = number(0)))
        o.warmupMs = num;
    } else if (flag == "--rotate") {
      if (!(err = number(0)))
        o.rotate = static_cast<int>(num);
    } else if (flag == "--bytes") {
      if (!(err = number(0)))
        o.bytes = num;
    } else if (flag == "--flops") {
      if (!(err = number(0)))
        o.flops = num;
    } else if (flag == "--copy-bytes") {
      if (!(err = number(1)))
        o.copyBytes = num;
    } else
      return "unknown flag '" + flag + "' (see --help)";
    if (err)
      return err;
  }
  if (!o.help && o.module.empty())
    return std::string("no module given");
  if (o.startup && o.hostOverhead)
    return std::string("--startup and --host-overhead exclude each other");
  return std::nullopt;
}

int fail(const Status &s) {
  std::fprintf(stderr, "tessel-bench: %s\n", s.toString().c_str());
  return kExitFailure;
}

std::string jsonStats(const Stats &s) {
  std::ostringstream j;
  j << "\"median_us\": " << s.median << ", \"min_us\": " << s.min << ", \"p10_us\": " << s.p10
    << ", \"p90_us\": " << s.p90 << ", \"max_us\": " << s.max;
  return j.str();
}

std::string jsonString(const std::string &v) {
  std::string out = "\"";
  for (char c : v) {
    if (c == '"' || c == '\\')
      out += '\\';
    if (static_cast<unsigned char>(c) < 0x20)
      continue;
    out += c;
  }
  return out + "\"";
}

using Clock = std::chrono::steady_clock;
double msSince(Clock::time_point start) {
  return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}

// What happens once, host wall clock in milliseconds.
struct Startup {
  double device = 0;     // createDevice (cuda: driver API, context)
  double load = 0;       // Module::loadFile
  double reload = 0;     // the same file again, same device
  double prepare = 0;    // the first Function::prepare (buffers, upload, recording)
  double firstRun = 0;   // the first PreparedCall::run, incl. the wait
  double secondRun = 0;  // the next run
};

std::string jsonStartup(const Startup &t) {
  std::ostringstream j;
  j << std::setprecision(12) << "\"startup\": {\"device_create_ms\": " << t.device
    << ", \"load_ms\": " << t.load << ", \"reload_ms\": " << t.reload
    << ", \"first_prepare_ms\": " << t.prepare << ", \"first_run_ms\": " << t.firstRun
    << ", \"second_run_ms\": " << t.secondRun << "}";
  return j.str();
}

// Host cost of calls in one command-buffer mode, wall clock per call.
struct HostOverhead {
  std::string mode, device;
  Stats replay;        // PreparedCall::run of one prepared call, incl. the wait
  Stats deviceTimed;   // the same runs timed by the device (timeRuns)
  Stats freshPrepare;  // Function::prepare of a new call
  Stats freshFirstRun; // its first run (graph: capture + instantiate + launch)
  Stats call;          // Function::call, everything
  Stats callDispatch;  // its recording + running part (CallTimings::dispatchMs)
};

// The parameters files of --parameters, opened.
StatusOr<LoadOptions> loadOptions(const Options &o) {
  LoadOptions load;
  for (const std::string &path : o.parameters) {
    TESSEL_ASSIGN_OR_RETURN(auto file, ParameterFile::open(path));
    load.parameters.push_back(std::move(file));
  }
  return load;
}

StatusOr<HostOverhead> measureHostOverhead(const std::string &deviceName, const std::string &mode,
                                           const Options &o, const std::string &functionName,
                                           const std::vector<HostTensor> &inputs) {
  HostOverhead h;
  h.mode = mode;
  DeviceOptions options;
  if (deviceName == "cuda")
    options.cudaCommandBuffer = mode;
  TESSEL_ASSIGN_OR_RETURN(std::shared_ptr<Device> device, createDevice(deviceName, options));
  h.device = device->description();
  TESSEL_ASSIGN_OR_RETURN(LoadOptions load, loadOptions(o));
  TESSEL_ASSIGN_OR_RETURN(auto module, Module::loadFile(device, o.module, load));
  TESSEL_ASSIGN_OR_RETURN(const Function *function, module->lookupFunction(functionName));

  TESSEL_ASSIGN_OR_RETURN(auto prepared, function->prepare(inputs));
  std::vector<double> wall;
  const int warmup = std::max(o.warmup, 1); // the first run of a graph builds it
  for (int i = 0; i < warmup + o.runs; ++i) {
    auto start = Clock::now();
    TESSEL_RETURN_IF_ERROR(prepared->run());
    if (i >= warmup)
      wall.push_back(msSince(start));
  }
  h.replay = stats(wall);
  TESSEL_ASSIGN_OR_RETURN(auto timed, PreparedCall::timeRuns({prepared.get()}, o.runs));
  h.deviceTimed = stats(timed);

  // Fresh calls allocate and (in graph mode) build a graph each: fewer.
  const int fresh = std::max(3, std::min(o.runs, 20));
  std::vector<double> prepareMs, firstRunMs, callMs, callDispatchMs;
  for (int i = 0; i < fresh; ++i) {
    auto start = Clock::now();
    TESSEL_ASSIGN_OR_RETURN(auto call, function->prepare(inputs));
    prepareMs.push_back(msSince(start));
    start = Clock::now();
    TESSEL_RETURN_IF_ERROR(call->run());
    firstRunMs.push_back(msSince(start));
  }
  for (int i = 0; i < fresh; ++i) {
    CallTimings timings;
    auto start = Clock::now();
    TESSEL_ASSIGN_OR_RETURN(auto outputs, function->call(inputs, &timings));
    callMs.push_back(msSince(start));
    callDispatchMs.push_back(timings.dispatchMs);
  }
  h.freshPrepare = stats(prepareMs);
  h.freshFirstRun = stats(firstRunMs);
  h.call = stats(callMs);
  h.callDispatch = stats(callDispatchMs);
  return h;
}

/// Writes `text` to `path` (the JSON or the --samples list).
int writeTextFile(const std::string &path, const std::string &text) {
  std::ofstream f(path);
  f << text;
  if (!f)
    return fail(internalError("cannot write " + path));
  return 0;
}

} // namespace

int main(int argc, char **argv) {
  Options o;
  if (auto err = parseArgs(argc, argv, o)) {
    std::fprintf(stderr, "tessel-bench: %s\n%s", err->c_str(), kUsage);
    return kExitUsage;
  }
  if (o.help) {
    std::fputs(kUsage, stdout);
    return 0;
  }
  removeStagedFilesOnSignals(); // an interrupted --output leaves no temporary

  // Device: as tessel-run, cuda only if usable and the module has it.
  std::string deviceName = o.device;
  if (deviceName.empty() || deviceName == "best") {
    auto targets = Module::executableTargets(o.module);
    if (!targets.ok())
      return fail(targets.status());
    bool hasCuda = std::find(targets->begin(), targets->end(), "cuda") != targets->end();
    deviceName = hasCuda && createDevice("cuda").ok() ? "cuda" : "cpu";
  }
  Startup startup;
  auto start = Clock::now();
  auto device = createDevice(deviceName);
  if (!device.ok())
    return fail(device.status());
  startup.device = msSince(start);
  start = Clock::now();
  auto load = loadOptions(o);
  if (!load.ok())
    return fail(load.status());
  auto module = Module::loadFile(*device, o.module, *load);
  if (!module.ok())
    return fail(module.status());
  startup.load = msSince(start);
  start = Clock::now();
  if (auto again = Module::loadFile(*device, o.module, *load); !again.ok())
    return fail(again.status().withContext("loading the module again"));
  startup.reload = msSince(start);
  const Function *function = nullptr;
  if (o.function) {
    auto f = (*module)->lookupFunction(*o.function);
    if (!f.ok())
      return fail(f.status());
    function = *f;
  } else if ((*module)->functions().size() == 1) {
    function = &(*module)->functions()[0];
  } else {
    std::fprintf(stderr, "tessel-bench: the module has several functions; use --function\n");
    return kExitUsage;
  }

  std::vector<HostTensor> inputs;
  for (size_t i = 0; i < o.inputs.size(); ++i) {
    std::optional<ElementType> hint;
    if (i < function->arguments().size())
      hint = function->arguments()[i].elementType;
    const std::string &arg = o.inputs[i];
    auto t = arg.rfind("@", 0) == 0 ? readNpy(arg.substr(1), hint) : parseTensorLiteral(arg);
    if (!t.ok())
      return fail(t.status().withContext("input " + std::to_string(i)));
    inputs.push_back(std::move(t).value());
  }
  if (o.startup && o.inputs.empty())
    for (const TensorType &t : function->arguments()) {
      // Zeros need a shape: a "?" has none.
      if (t.isDynamic())
        return fail(invalidArgument("function '" + function->name() + "' " +
                                    function->signature() +
                                    " has dynamic shapes: give its inputs with --input"));
      inputs.push_back(HostTensor::zeros(t));
    }

  // The call's bytes: the inputs' and the results' of the signature (a
  // dynamic result counts its static part only).
  double ioBytes = 0;
  for (const HostTensor &t : inputs)
    ioBytes += static_cast<double>(t.bytes.size());
  for (const TensorType &t : function->results())
    if (!t.isDynamic())
      ioBytes += static_cast<double>(t.byteSize());
  double bytes = o.bytes >= 0 ? o.bytes : ioBytes;
  int rotate = o.startup || o.hostOverhead ? 1 : o.rotate;
  if (rotate == 0) {
    const double target = 256.0 * 1024 * 1024;
    rotate = ioBytes <= 0 ? 1 : static_cast<int>(std::min(32.0, std::ceil(target / ioBytes)));
    rotate = std::max(rotate, 1);
  }

  // Buffer sets; the first one's results are checked / written.
  std::vector<std::unique_ptr<PreparedCall>> calls;
  std::vector<PreparedCall *> callPtrs;
  for (int k = 0; k < rotate; ++k) {
    start = Clock::now();
    auto call = function->prepare(inputs);
    if (!call.ok())
      return fail(call.status().withContext("preparing buffer set " + std::to_string(k)));
    if (k == 0)
      startup.prepare = msSince(start);
    callPtrs.push_back(call->get());
    calls.push_back(std::move(call).value());
  }
  if (Status s = calls[0]->fillResults(0xFF); !s.ok())
    return fail(s);
  start = Clock::now();
  if (Status s = calls[0]->run(); !s.ok())
    return fail(s);
  startup.firstRun = msSince(start);
  if (!o.outputs.empty()) {
    auto results = calls[0]->results();
    if (!results.ok())
      return fail(results.status());
    if (o.outputs.size() != results->size()) {
      std::fprintf(stderr, "tessel-bench: %zu --output given for %zu results\n", o.outputs.size(),
                   results->size());
      return kExitUsage;
    }
    for (size_t i = 0; i < o.outputs.size(); ++i) {
      std::string path = o.outputs[i].rfind("@", 0) == 0 ? o.outputs[i].substr(1) : o.outputs[i];
      if (Status s = writeNpy(path, (*results)[i]); !s.ok())
        return fail(s);
    }
  }
  start = Clock::now();
  if (Status s = calls[0]->run(); !s.ok())
    return fail(s.withContext("second run"));
  startup.secondRun = msSince(start);

  size_t dispatches = calls[0]->dispatchCount();
  std::ostringstream head; // JSON fields every mode writes
  head << "{\"device\": " << jsonString((*device)->description())
       << ", \"function\": " << jsonString(function->name()) << ", \"dispatches\": " << dispatches
       << ", " << jsonStartup(startup);
  std::printf("device: %s\n", (*device)->description().c_str());
  std::printf("startup: device %.1f ms, module load %.2f ms (again %.2f ms), first prepare "
              "%.2f ms, first run %.2f ms, second run %.2f ms\n",
              startup.device, startup.load, startup.reload, startup.prepare, startup.firstRun,
              startup.secondRun);
  if (o.startup) {
    std::printf("function: %s %s, %zu dispatch%s\n", function->name().c_str(),
                function->signature().c_str(), dispatches, dispatches == 1 ? "" : "es");
    return o.json.empty() ? 0 : writeTextFile(o.json, head.str() + "}\n");
  }

  if (o.hostOverhead) {
    std::vector<std::string> modes = {deviceName};
    if (deviceName == "cuda")
      modes = {"stream", "graph"};
    std::printf("host overhead: %s %s, %zu dispatch%s, wall clock per call, %d runs after %d "
                "warm-up\n",
                function->name().c_str(), function->signature().c_str(), dispatches,
                dispatches == 1 ? "" : "es", o.runs, std::max(o.warmup, 1));
    std::ostringstream j;
    j << std::setprecision(12) << head.str() << ", \"runs\": " << o.runs
      << ", \"host_overhead\": [";
    for (size_t m = 0; m < modes.size(); ++m) {
      auto h = measureHostOverhead(deviceName, modes[m], o, function->name(), inputs);
      if (!h.ok())
        return fail(h.status().withContext("host overhead, " + modes[m] + " mode"));
      double perDispatch = h->replay.median / std::max<size_t>(dispatches, 1);
      std::printf("  %-6s replay %.1f us (p10 %.1f, p90 %.1f) = %.2f us per dispatch; device-timed "
                  "%.1f us\n         fresh call: prepare %.1f us, first run %.1f us; "
                  "Function::call %.1f us (recording + running %.1f us)\n",
                  modes[m].c_str(), h->replay.median, h->replay.p10, h->replay.p90, perDispatch,
                  h->deviceTimed.median, h->freshPrepare.median, h->freshFirstRun.median,
                  h->call.median, h->callDispatch.median);
      j << (m ? ", " : "") << "{\"mode\": " << jsonString(h->mode)
        << ", \"device\": " << jsonString(h->device) << ", \"per_dispatch_us\": " << perDispatch
        << ", \"replay\": {" << jsonStats(h->replay) << "}, \"device_timed\": {"
        << jsonStats(h->deviceTimed) << "}, \"fresh_prepare\": {" << jsonStats(h->freshPrepare)
        << "}, \"fresh_first_run\": {" << jsonStats(h->freshFirstRun) << "}, \"call\": {"
        << jsonStats(h->call) << "}, \"call_dispatch\": {" << jsonStats(h->callDispatch) << "}}";
    }
    return o.json.empty() ? 0 : writeTextFile(o.json, j.str() + "]}\n");
  }

  // Copy ceiling, same process and device.
  double copyBytes = o.copyBytes > 0 ? o.copyBytes
                                     : (deviceName == "cuda" ? 1024.0 : 256.0) * 1024 * 1024;
  // On cuda the copy runs on a stream-mode device: a memcpy node in a CUDA
  // graph ran at 2430 GB/s where the same copy on a stream (as
  // cudaMemcpyAsync does it) ran at 3005 GB/s (H100, 2026-11-22).
  std::shared_ptr<Device> copyDevice = *device;
  if (deviceName == "cuda") {
    DeviceOptions streamMode;
    streamMode.cudaCommandBuffer = "stream";
    auto d = createDevice("cuda", streamMode);
    if (!d.ok())
      return fail(d.status().withContext("copy ceiling device"));
    copyDevice = *d;
  }
  auto copyWarm = timeDeviceCopy(*copyDevice, static_cast<size_t>(copyBytes), 3);
  if (!copyWarm.ok())
    return fail(copyWarm.status().withContext("copy ceiling"));
  auto copyMs = timeDeviceCopy(*copyDevice, static_cast<size_t>(copyBytes), 20);
  if (!copyMs.ok())
    return fail(copyMs.status().withContext("copy ceiling"));
  Stats copy = stats(*copyMs);
  double copyGBs = 2 * copyBytes / (copy.median * 1e3);
  // For the record: the same copy through the benchmarked device's own
  // command buffers (a graph memcpy node in graph mode).
  double ownCopyGBs = copyGBs;
  if (copyDevice != *device) {
    auto ownMs = timeDeviceCopy(**device, static_cast<size_t>(copyBytes), 10);
    if (!ownMs.ok())
      return fail(ownMs.status().withContext("copy through the device's command buffers"));
    ownCopyGBs = 2 * copyBytes / (stats(*ownMs).median * 1e3);
  }

  // Warm-up: --warmup runs (at least one per buffer set), then more until
  // --warmup-ms of device time has passed (at most 100000 runs).
  if (o.warmup > 0 || o.warmupMs > 0) {
    int next = std::max({o.warmup, rotate, 1}), done = 0;
    double warmedMs = 0;
    while (true) {
      auto w = PreparedCall::timeRuns(callPtrs, next);
      if (!w.ok())
        return fail(w.status().withContext("warm-up"));
      for (double m : *w)
        warmedMs += m;
      done += next;
      if (warmedMs >= o.warmupMs || done >= 100000)
        break;
      double perRun = std::max(warmedMs / done, 1e-3);
      next = static_cast<int>(std::min(
          100000.0 - done, std::ceil((o.warmupMs - warmedMs) / perRun)));
      next = std::max(next, 1);
    }
  }
  auto ms = PreparedCall::timeRuns(callPtrs, o.runs);
  if (!ms.ok())
    return fail(ms.status());
  Stats total = stats(*ms);
  if (!o.samples.empty()) {
    std::string text;
    for (double m : *ms)
      text += std::to_string(1000.0 * m) + "\n";
    if (int rc = writeTextFile(o.samples, text))
      return rc;
  }

  std::vector<Stats> perDispatch;
  if (o.perDispatch && dispatches > 1) {
    for (size_t d = 0; d < dispatches; ++d) {
      int dr = std::max(3, o.runs / 2);
      auto w = PreparedCall::timeRuns(callPtrs, std::min(o.warmup, 2), static_cast<int>(d));
      auto dm = w.ok() ? PreparedCall::timeRuns(callPtrs, dr, static_cast<int>(d)) : w;
      if (!dm.ok())
        return fail(dm.status().withContext("dispatch " + std::to_string(d)));
      perDispatch.push_back(stats(*dm));
    }
  }

  double gbs = bytes / (total.median * 1e3);
  double tflops = o.flops > 0 ? o.flops / (total.median * 1e6) : -1;
  std::printf("function: %s %s, %zu dispatch%s, %d buffer set%s, %d runs after %d warm-up\n",
              function->name().c_str(), function->signature().c_str(), dispatches,
              dispatches == 1 ? "" : "es", rotate, rotate == 1 ? "" : "s", o.runs, o.warmup);
  std::printf("time: median %.2f us (min %.2f, p10 %.2f, p90 %.2f, max %.2f)\n", total.median,
              total.min, total.p10, total.p90, total.max);
  std::printf("bandwidth: %.1f GB/s for %.0f bytes = %.1f%% of copy %.1f GB/s "
              "(%.0f MiB copy, median %.2f us)\n",
              gbs, bytes, 100.0 * gbs / copyGBs, copyGBs, copyBytes / 1048576.0, copy.median);
  if (copyDevice != *device)
    std::printf("copy through this device's command buffers: %.1f GB/s\n", ownCopyGBs);
  if (tflops >= 0)
    std::printf("compute: %.3f TFLOP/s for %.0f flops\n", tflops, o.flops);
  for (size_t d = 0; d < perDispatch.size(); ++d)
    std::printf("  dispatch %zu: median %.2f us (p10 %.2f, p90 %.2f)\n", d, perDispatch[d].median,
                perDispatch[d].p10, perDispatch[d].p90);

  if (!o.json.empty()) {
    std::ostringstream j;
    j << std::setprecision(12);
    j << head.str() << ", \"runs\": " << o.runs << ", \"warmup\": " << o.warmup << ", \"rotate\": " << rotate
      << ", " << jsonStats(total) << ", \"bytes\": " << bytes << ", \"gbps\": " << gbs
      << ", \"flops\": " << (o.flops > 0 ? o.flops : 0) << ", \"tflops\": " << tflops
      << ", \"copy_bytes\": " << copyBytes << ", \"copy_gbps\": " << copyGBs
      << ", \"copy_median_us\": " << copy.median << ", \"copy_own_gbps\": " << ownCopyGBs << ", \"pct_copy\": " << 100.0 * gbs / copyGBs
      << ", \"per_dispatch\": [";
    for (size_t d = 0; d < perDispatch.size(); ++d)
      j << (d ? ", " : "") << "{" << jsonStats(perDispatch[d]) << "}";
    j << "]}\n";
    return writeTextFile(o.json, j.str());
  }
  return 0;
}
