// Element type tables, tensor type printing/parsing and 16-bit float codecs.
#include "tessel/runtime/types.h"

#include <cmath>
#include <cstring>
#include <limits>

namespace tessel::rt {

namespace {
struct ElementInfo {
  const char *name;
  size_t size;
};
constexpr ElementInfo kElementInfo[] = {
    {"f64", 8}, {"f32", 4}, {"f16", 2}, {"bf16", 2}, {"i64", 8},
    {"i32", 4}, {"i16", 2}, {"i8", 1},  {"i1", 1},
};
static_assert(sizeof(kElementInfo) / sizeof(kElementInfo[0]) == kMaxElementType + 1);

// Byte sizes are kept below this so that offsets and element counts never
// overflow in int64/size_t arithmetic anywhere downstream.
constexpr uint64_t kMaxByteSize = uint64_t(1) << 62;
} // namespace

size_t elementByteSize(ElementType type) {
  return kElementInfo[static_cast<uint8_t>(type)].size;
}

const char *elementTypeName(ElementType type) {
  return kElementInfo[static_cast<uint8_t>(type)].name;
}

StatusOr<ElementType> parseElementType(std::string_view name) {
  for (uint8_t i = 0; i <= kMaxElementType; ++i)
    if (name == kElementInfo[i].name)
      return static_cast<ElementType>(i);
  return invalidArgument("unknown element type '" + std::string(name) +
                         "' (expected one of f64 f32 f16 bf16 i64 i32 i16 i8 i1)");
}

bool isFloat(ElementType type) {
  return type == ElementType::f64 || type == ElementType::f32 ||
         type == ElementType::f16 || type == ElementType::bf16;
}

int64_t TensorType::numElements() const {
  int64_t n = 1;
  for (int64_t d : shape)
    n *= d;
  return n;
}

size_t TensorType::byteSize() const {
  return static_cast<size_t>(numElements()) * elementByteSize(elementType);
}

std::string TensorType::toString() const {
  std::string s;
  for (int64_t d : shape)
    s += (d == kDynamicDim ? std::string("?") : std::to_string(d)) + "x";
  return s + elementTypeName(elementType);
}

bool TensorType::isDynamic() const {
  for (int64_t d : shape)
    if (d == kDynamicDim)
      return true;
  return false;
}

Status TensorType::validate(bool allowDynamic) const {
  uint64_t bytes = elementByteSize(elementType);
  for (int64_t d : shape) {
    if (d == kDynamicDim && allowDynamic)
      continue;
    if (d == kDynamicDim)
      return invalidArgument("type " + toString() +
                             " has a dynamic dimension (?): only function signatures have "
                             "them, a tensor's shape is static");
    if (d < 0)
      return invalidArgument("type " + toString() + " has a negative dimension");
    if (d != 0 && bytes > kMaxByteSize / static_cast<uint64_t>(d))
      return invalidArgument("type " + toString() + " is too large");
    bytes *= static_cast<uint64_t>(d);
  }
  return Status();
}

StatusOr<TensorType> parseTensorType(std::string_view text) {
  TensorType type;
  std::string_view rest = text;
  while (true) {
    size_t x = rest.find('x');
    if (x == std::string_view::npos)
      break;
    std::string_view dim = rest.substr(0, x);
    if (dim.empty() || dim.size() > 18 ||
        dim.find_first_not_of("0123456789") != std::string_view::npos)
      return invalidArgument("bad dimension '" + std::string(dim) +
                             "' in tensor type '" + std::string(text) + "'");
    type.shape.push_back(std::stoll(std::string(dim)));
    rest = rest.substr(x + 1);
  }
  auto elem = parseElementType(rest);
  if (!elem.ok())
    return elem.status().withContext("tensor type '" + std::string(text) + "'");
  type.elementType = *elem;
  TESSEL_RETURN_IF_ERROR(type.validate());
  return type;
}

float halfToFloat(uint16_t h) {
  uint32_t sign = uint32_t(h & 0x8000) << 16;
  uint32_t exp = (h >> 10) & 0x1f;
  uint32_t mant = h & 0x3ff;
  uint32_t bits;
  if (exp == 0x1f) {
    bits = sign | 0x7f800000u | (mant << 13);
  } else if (exp != 0) {
    bits = sign | ((exp + 112) << 23) | (mant << 13);
  } else if (mant == 0) {
    bits = sign;
  } else {
    // Subnormal half: value is mant * 2^-24, exactly representable in float.
    float f = std::ldexp(static_cast<float>(mant), -24);
    std::memcpy(&bits, &f, 4);
    bits |= sign;
  }
  float f;
  std::memcpy(&f, &bits, 4);
  return f;
}

uint16_t floatToHalf(float value) {
  uint32_t bits;
  std::memcpy(&bits, &value, 4);
  uint16_t sign = static_cast<uint16_t>((bits >> 16) & 0x8000);
  uint32_t absBits = bits & 0x7fffffffu;
  if (absBits >= 0x7f800000u) // inf or NaN; keep NaN quiet and non-zero
    return sign | 0x7c00 | (absBits > 0x7f800000u ? 0x200 : 0);
  if (absBits >= 0x477ff000u) // rounds to >= 65520: overflow to inf
    return sign | 0x7c00;
  if (absBits < 0x38800000u) { // below the smallest normal half
    float a;
    std::memcpy(&a, &absBits, 4);
    // Scale so that one half-subnormal ulp is 1.0 and round to nearest even.
    float scaled = std::nearbyint(a * 16777216.0f);
    return sign | static_cast<uint16_t>(scaled);
  }
  uint32_t exp = (absBits >> 23) - 112;
  uint32_t mant = absBits & 0x7fffff;
  uint32_t h = (exp << 10) | (mant >> 13);
  uint32_t rest = mant & 0x1fff;
  if (rest > 0x1000 || (rest == 0x1000 && (h & 1)))
    ++h; // carry into the exponent is the correct rounding
  return sign | static_cast<uint16_t>(h);
}

float bf16ToFloat(uint16_t bits) {
  uint32_t b = uint32_t(bits) << 16;
  float f;
  std::memcpy(&f, &b, 4);
  return f;
}

uint16_t floatToBf16(float value) {
  uint32_t bits;
  std::memcpy(&bits, &value, 4);
  if ((bits & 0x7fffffffu) > 0x7f800000u)
    return static_cast<uint16_t>((bits >> 16) | 0x40);
  bits += 0x7fff + ((bits >> 16) & 1);
  return static_cast<uint16_t>(bits >> 16);
}

} // namespace tessel::rt
