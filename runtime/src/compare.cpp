// Tensor comparison with a combined absolute/relative tolerance.
#include "tessel/runtime/compare.h"

#include <cmath>
#include <cstring>

namespace tessel::rt {

CompareResult compareTensors(const HostTensor &got, const HostTensor &expected,
                             double tolerance) {
  CompareResult r;
  if (got.type != expected.type) {
    r.message = "expected type " + expected.type.toString() + " but got " + got.type.toString();
    return r;
  }
  const bool floats = isFloat(got.type.elementType);
  const size_t esize = elementByteSize(got.type.elementType);
  int64_t firstBad = -1;
  for (int64_t i = 0, n = got.numElements(); i < n; ++i) {
    bool ok;
    if (floats) {
      double g = got.elementAsDouble(i), e = expected.elementAsDouble(i);
      if (std::isnan(e) || std::isnan(g) || std::isinf(e) || std::isinf(g)) {
        ok = (std::isnan(e) && std::isnan(g)) || g == e;
      } else {
        double err = std::fabs(g - e);
        r.maxAbsError = std::max(r.maxAbsError, err);
        if (e != 0)
          r.maxRelError = std::max(r.maxRelError, err / std::fabs(e));
        ok = err <= tolerance * (1 + std::fabs(e));
      }
    } else {
      // Compare raw bytes so that i64 beyond 2^53 is exact.
      ok = std::memcmp(got.bytes.data() + i * esize, expected.bytes.data() + i * esize,
                       esize) == 0;
      if (got.type.elementType == ElementType::i1)
        ok = (got.bytes[i] != 0) == (expected.bytes[i] != 0);
      if (!ok)
        r.maxAbsError =
            std::max(r.maxAbsError, std::fabs(got.elementAsDouble(i) - expected.elementAsDouble(i)));
    }
    if (!ok && firstBad < 0)
      firstBad = i;
  }
  if (firstBad < 0) {
    r.pass = true;
    return r;
  }
  // Report the mismatch as a multi-dimensional index; easier to locate.
  std::string index;
  int64_t rem = firstBad;
  for (size_t d = got.type.shape.size(); d-- > 0;) {
    int64_t extent = got.type.shape[d];
    index = std::to_string(rem % extent) + (index.empty() ? "" : ",") + index;
    rem /= extent;
  }
  HostTensor g1{TensorType{got.type.elementType, {}}, {}}, e1 = g1;
  g1.bytes.assign(got.bytes.begin() + firstBad * esize, got.bytes.begin() + (firstBad + 1) * esize);
  e1.bytes.assign(expected.bytes.begin() + firstBad * esize,
                  expected.bytes.begin() + (firstBad + 1) * esize);
  auto value = [](const HostTensor &t) {
    std::string s = formatTensor(t);
    return s.substr(s.find('=') + 1);
  };
  r.message = "first mismatch at [" + index + "]: got " + value(g1) + ", expected " + value(e1);
  return r;
}

} // namespace tessel::rt
