// Element and tensor types of values crossing the host boundary.
//
// ElementType mirrors `tessel.fb.ElementType` in schema/module.fbs value for
// value, so a schema enum converts with a static_cast after a range check.
#pragma once

#include "tessel/runtime/status.h"

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace tessel::rt {

/// Element types; values equal the schema's. i1 is one byte per element
/// holding 0 or 1 (numpy's bool).
enum class ElementType : uint8_t { f64 = 0, f32, f16, bf16, i64, i32, i16, i8, i1 };

/// The largest ElementType value; anything above is not an element type.
constexpr uint8_t kMaxElementType = static_cast<uint8_t>(ElementType::i1);

/// Bytes per element (1 for i1).
size_t elementByteSize(ElementType type);
/// "f32", "bf16", "i1", ...
const char *elementTypeName(ElementType type);
/// Parses a name produced by elementTypeName.
StatusOr<ElementType> parseElementType(std::string_view name);
bool isFloat(ElementType type);

/// A dimension of a function signature whose extent each call gives (schema
/// version 7; printed "?"). Only Function::arguments() and results() hold
/// it: tensors and the types of values are static.
constexpr int64_t kDynamicDim = -1;

/// A tensor type; an empty shape is rank 0. Static unless it is a
/// function's signature type, whose dimensions may be kDynamicDim.
struct TensorType {
  ElementType elementType = ElementType::f32;
  std::vector<int64_t> shape;

  bool operator==(const TensorType &other) const {
    return elementType == other.elementType && shape == other.shape;
  }
  bool operator!=(const TensorType &other) const { return !(*this == other); }

  /// Number of elements (1 for rank 0). Only meaningful for a validated type.
  int64_t numElements() const;
  /// Size in bytes. Only meaningful for a validated type.
  size_t byteSize() const;
  /// "4x5xf32", or "f32" for rank 0; a dynamic dimension prints "?"
  /// ("?x4xf32").
  std::string toString() const;
  /// Whether a dimension is kDynamicDim.
  bool isDynamic() const;
  /// Checks that every dimension is non-negative and that the byte size fits
  /// comfortably in memory-sized integers (below 2^62). With `allowDynamic`
  /// (a signature type) a dimension may be kDynamicDim, and the static
  /// dimensions alone must fit.
  Status validate(bool allowDynamic = false) const;
};

/// Parses "4x5xf32" / "f32" / "0x3xi1".
StatusOr<TensorType> parseTensorType(std::string_view text);

/// IEEE half <-> float, round to nearest even.
float halfToFloat(uint16_t bits);
uint16_t floatToHalf(float value);
/// bfloat16 <-> float, round to nearest even (NaN stays NaN).
float bf16ToFloat(uint16_t bits);
uint16_t floatToBf16(float value);

} // namespace tessel::rt
