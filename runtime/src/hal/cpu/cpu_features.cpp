// Feature checks via __builtin_cpu_supports (which needs literal names,
// hence the table of lambdas) plus cpuid for the few it does not know.
#include "hal/cpu/cpu_features.h"

#include "printable_text.h"

#include <algorithm>
#include <cstdlib>
#include <cstring>

#if defined(__x86_64__)
#include <cpuid.h>
#endif

namespace tessel::rt::hal::cpu {

const char *hostArch() {
#if defined(__x86_64__)
  return "x86_64";
#elif defined(__aarch64__)
  return "aarch64";
#else
  return "unknown";
#endif
}

bool archMatchesHost(const std::string &arch) {
  std::string host = hostArch();
  if (arch == host)
    return true;
  if (host == "x86_64")
    return arch == "x86-64" || arch == "amd64";
  if (host == "aarch64")
    return arch == "arm64";
  return false;
}

namespace {

struct Feature {
  const char *name;
  bool (*supported)();
};

#if defined(__x86_64__)
#define TESSEL_X86_FEATURE(name) {name, [] { return __builtin_cpu_supports(name) != 0; }}
bool hasF16c() {
  unsigned a, b, c, d;
  return __get_cpuid(1, &a, &b, &c, &d) && (c & bit_F16C);
}
const Feature kFeatures[] = {
    TESSEL_X86_FEATURE("sse3"),     TESSEL_X86_FEATURE("ssse3"),
    TESSEL_X86_FEATURE("sse4.1"),   TESSEL_X86_FEATURE("sse4.2"),
    TESSEL_X86_FEATURE("popcnt"),   TESSEL_X86_FEATURE("avx"),
    TESSEL_X86_FEATURE("avx2"),     TESSEL_X86_FEATURE("fma"),
    TESSEL_X86_FEATURE("bmi"),      TESSEL_X86_FEATURE("bmi2"),
    TESSEL_X86_FEATURE("avx512f"),  TESSEL_X86_FEATURE("avx512vl"),
    TESSEL_X86_FEATURE("avx512bw"), TESSEL_X86_FEATURE("avx512dq"),
    TESSEL_X86_FEATURE("avx512cd"), TESSEL_X86_FEATURE("avx512vnni"),
    TESSEL_X86_FEATURE("avx512bf16"), TESSEL_X86_FEATURE("avx512ifma"),
    TESSEL_X86_FEATURE("avx512vbmi"), TESSEL_X86_FEATURE("sse4a"),
    TESSEL_X86_FEATURE("fma4"),     TESSEL_X86_FEATURE("xop"),
    {"f16c", hasF16c},
};
#undef TESSEL_X86_FEATURE
#else
// No portable query on other architectures yet: every feature is assumed.
const Feature kFeatures[] = {{"", nullptr}};
#endif

} // namespace

StatusOr<std::vector<std::string>> parseDisabledFeatures(const std::string &text) {
  std::vector<std::string> names;
  if (text.empty())
    return names;
  std::string known;
  for (const Feature &f : kFeatures)
    if (f.supported)
      known += (known.empty() ? "" : ", ") + std::string(f.name);
  const std::string what = std::string(kDisableFeaturesEnv) + "='" + printableText(text, 200) + "'";
  size_t begin = 0;
  while (true) {
    size_t end = text.find(',', begin);
    std::string name = text.substr(begin, end == std::string::npos ? end : end - begin);
    if (name.empty())
      return invalidArgument(what + " has an empty entry (expected feature names separated " +
                             "by commas, e.g. avx512f,avx512bw)");
    bool found = false;
    for (const Feature &f : kFeatures)
      found |= f.supported && name == f.name;
    if (!found)
      return invalidArgument(what + ": unknown CPU feature '" + printableText(name, 64) +
                             "' (this runtime queries: " + (known.empty() ? "none" : known) +
                             ")");
    names.push_back(name);
    if (end == std::string::npos)
      return names;
    begin = end + 1;
  }
}

StatusOr<std::vector<std::string>> disabledFeatures() {
  const char *env = std::getenv(kDisableFeaturesEnv);
  return parseDisabledFeatures(env ? env : "");
}

StatusOr<std::vector<std::string>> hostFeatures() {
  TESSEL_ASSIGN_OR_RETURN(std::vector<std::string> disabled, disabledFeatures());
  std::vector<std::string> names;
  for (const Feature &f : kFeatures)
    if (f.supported && f.supported() &&
        std::find(disabled.begin(), disabled.end(), f.name) == disabled.end())
      names.push_back(f.name);
  return names;
}

Status checkHostFeatures(const std::vector<std::string> &features) {
  TESSEL_ASSIGN_OR_RETURN(std::vector<std::string> disabled, disabledFeatures());
  std::string missing, masked;
  for (std::string name : features) {
    if (!name.empty() && name[0] == '+')
      name = name.substr(1);
    for (const Feature &f : kFeatures) {
      if (!f.supported || name != f.name)
        continue;
      if (!f.supported())
        missing += (missing.empty() ? "" : ", ") + name;
      else if (std::find(disabled.begin(), disabled.end(), name) != disabled.end())
        masked += (masked.empty() ? "" : ", ") + name;
    }
  }
  if (missing.empty() && masked.empty())
    return Status();
  std::string all = missing + (missing.empty() || masked.empty() ? "" : ", ") + masked;
  return failedPrecondition("the kernels need CPU features this host lacks: " + all +
                            (masked.empty() ? "" : std::string(" (") + kDisableFeaturesEnv +
                                                       " masks " + masked + ")"));
}

} // namespace tessel::rt::hal::cpu
