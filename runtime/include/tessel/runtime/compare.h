// Comparing computed tensors with reference tensors (tessel-run's
// --expected_output, tests, benchmarks).
#pragma once

#include "tessel/runtime/tensor.h"

#include <string>

namespace tessel::rt {

/// Outcome of comparing one tensor with its reference.
struct CompareResult {
  bool pass = false;
  double maxAbsError = 0;  ///< over all elements, ignoring matching NaN/inf
  double maxRelError = 0;  ///< |got-exp|/|exp| over elements with exp != 0
  std::string message;     ///< on failure: why, with the first bad index
};

/// Compares `got` with `expected`. Types must match exactly. A float element
/// passes if |got-exp| <= tolerance*(1+|exp|); NaN matches NaN, infinities
/// must match exactly. Integer and i1 elements must be equal.
CompareResult compareTensors(const HostTensor &got, const HostTensor &expected,
                             double tolerance);

/// The default float tolerance of tessel-run's --expected_output.
constexpr double kDefaultTolerance = 1e-5;

} // namespace tessel::rt
