// HostTensor: a typed, densely packed (C order) tensor in host memory, plus
// the text forms used on command lines: "2x3xf32=1,2,3,4,5,6" literals and
// iree-run-module style printing.
#pragma once

#include "tessel/runtime/status.h"
#include "tessel/runtime/types.h"

#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>
#include <vector>

namespace tessel::rt {

/// A tensor value owned by the host: its type and its bytes, row-major,
/// little-endian; i1 elements are bytes holding 0 or 1.
struct HostTensor {
  TensorType type;
  std::vector<uint8_t> bytes;

  /// A zero-filled tensor of `type` (which must be valid).
  static HostTensor zeros(TensorType type);
  /// A tensor of `type` holding `values` (count must match); T must have the
  /// element's size (use uint16_t bit patterns for f16/bf16, uint8_t for i1).
  template <typename T>
  static StatusOr<HostTensor> fromValues(TensorType type, const std::vector<T> &values);

  int64_t numElements() const { return type.numElements(); }
  template <typename T> T *data() { return reinterpret_cast<T *>(bytes.data()); }
  template <typename T> const T *data() const {
    return reinterpret_cast<const T *>(bytes.data());
  }

  /// Element `i` (flat index) converted to double; exact for every type
  /// except i64 values beyond 2^53.
  double elementAsDouble(int64_t i) const;
};

/// Parses "SHAPExTYPE=v1,v2,..." (e.g. "2x3xf32=1,2,3,4,5,6", rank 0
/// "f32=1.5", "4x4xf32=1" splats a single value). Integers must fit the
/// element type; i1 takes 0/1/true/false; floats take nan/inf/-inf. A
/// literal makes at most kMaxLiteralBytes (a splat of more is an error).
StatusOr<HostTensor> parseTensorLiteral(std::string_view text);
constexpr size_t kMaxLiteralBytes = size_t(1) << 30;

/// "2x3xf32=[[1 2 3][4 5 6]]"; rank 0 prints as "f32=1.5". At most
/// `maxElements` elements are printed, then "...".
std::string formatTensor(const HostTensor &tensor, int64_t maxElements = 64);

} // namespace tessel::rt

namespace tessel::rt {
template <typename T>
StatusOr<HostTensor> HostTensor::fromValues(TensorType type, const std::vector<T> &values) {
  TESSEL_RETURN_IF_ERROR(type.validate());
  if (sizeof(T) != elementByteSize(type.elementType))
    return invalidArgument("value size does not match element type of " + type.toString());
  if (static_cast<int64_t>(values.size()) != type.numElements())
    return invalidArgument("got " + std::to_string(values.size()) + " values for type " +
                           type.toString());
  HostTensor t{std::move(type), {}};
  t.bytes.resize(values.size() * sizeof(T));
  if (!values.empty())
    std::memcpy(t.bytes.data(), values.data(), t.bytes.size());
  return t;
}
} // namespace tessel::rt
