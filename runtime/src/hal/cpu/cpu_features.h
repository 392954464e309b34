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

/// The environment variable that masks host features: a comma-separated
/// list of features this runtime queries (e.g. "avx512f,avx512bw"), which
/// checkHostFeatures then treats as absent, so that one machine can test the
/// code compiled for lesser CPUs. Unset or empty: no mask.
inline constexpr const char *kDisableFeaturesEnv = "TESSEL_CPU_DISABLE_FEATURES";

/// The features `text` (kDisableFeaturesEnv's syntax) names; an empty
/// entry or a feature this runtime does not query is an error naming it.
StatusOr<std::vector<std::string>> parseDisabledFeatures(const std::string &text);
/// parseDisabledFeatures of kDisableFeaturesEnv (none if unset).
StatusOr<std::vector<std::string>> disabledFeatures();

/// The features this runtime queries that the host has, less those
/// kDisableFeaturesEnv masks; an error if that variable is malformed.
StatusOr<std::vector<std::string>> hostFeatures();

/// Checks that the host supports every feature in `features` (LLVM-style
/// names, an optional leading '+' is ignored). Features this runtime cannot
/// query are assumed present; known missing ones (or masked by
/// kDisableFeaturesEnv) are a kFailedPrecondition error listing them. A
/// malformed kDisableFeaturesEnv is a kInvalidArgument error.
Status checkHostFeatures(const std::vector<std::string> &features);

} // namespace tessel::rt::hal::cpu
