// Host CPU identification for choosing and vetting cpu binaries.
#pragma once

#include "tessel/runtime/status.h"

#include <string>
#include <vector>

namespace tessel::rt::hal::cpu {

/// The host architecture as module binaries spell it ("x86_64", "aarch64").
const char *hostArch();
/// Whether a binary's `arch` names the host (accepts aliases such as
/// "x86-64", "amd64", "arm64").
bool archMatchesHost(const std::string &arch);

/// Checks that the host supports every feature in `features` (LLVM-style
/// names, an optional leading '+' is ignored). Features this runtime cannot
/// query are assumed present; known missing ones are an error listing them.
Status checkHostFeatures(const std::vector<std::string> &features);

} // namespace tessel::rt::hal::cpu
