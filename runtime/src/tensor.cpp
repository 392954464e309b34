// HostTensor element access, tensor literals and printing.
#include "tessel/runtime/tensor.h"

#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <limits>

namespace tessel::rt {

HostTensor HostTensor::zeros(TensorType type) {
  size_t size = type.byteSize();
  return HostTensor{std::move(type), std::vector<uint8_t>(size)};
}

namespace {
template <typename T> T load(const uint8_t *p) {
  T v;
  std::memcpy(&v, p, sizeof(T));
  return v;
}
template <typename T> void store(uint8_t *p, T v) { std::memcpy(p, &v, sizeof(T)); }
} // namespace

double HostTensor::elementAsDouble(int64_t i) const {
  const uint8_t *p = bytes.data() + i * elementByteSize(type.elementType);
  switch (type.elementType) {
  case ElementType::f64: return load<double>(p);
  case ElementType::f32: return load<float>(p);
  case ElementType::f16: return halfToFloat(load<uint16_t>(p));
  case ElementType::bf16: return bf16ToFloat(load<uint16_t>(p));
  case ElementType::i64: return static_cast<double>(load<int64_t>(p));
  case ElementType::i32: return load<int32_t>(p);
  case ElementType::i16: return load<int16_t>(p);
  case ElementType::i8: return load<int8_t>(p);
  case ElementType::i1: return *p != 0;
  }
  return 0;
}

namespace {

std::string trim(std::string_view s) {
  size_t b = s.find_first_not_of(" \t");
  if (b == std::string_view::npos)
    return "";
  size_t e = s.find_last_not_of(" \t");
  return std::string(s.substr(b, e - b + 1));
}

// Parses one element value into `out` (elementByteSize(type) bytes).
Status parseElement(ElementType type, const std::string &text, uint8_t *out) {
  auto bad = [&](const char *what) {
    return invalidArgument("bad " + std::string(elementTypeName(type)) + " value '" + text +
                           "'" + what);
  };
  if (text.empty())
    return bad(" (empty)");
  if (type == ElementType::i1) {
    if (text == "1" || text == "true")
      *out = 1;
    else if (text == "0" || text == "false")
      *out = 0;
    else
      return bad(" (expected 0, 1, true or false)");
    return Status();
  }
  if (isFloat(type)) {
    errno = 0;
    char *end = nullptr;
    double v = std::strtod(text.c_str(), &end);
    if (end != text.c_str() + text.size())
      return bad("");
    switch (type) {
    case ElementType::f64: store(out, v); break;
    case ElementType::f32: store(out, static_cast<float>(v)); break;
    case ElementType::f16: store(out, floatToHalf(static_cast<float>(v))); break;
    default: store(out, floatToBf16(static_cast<float>(v))); break;
    }
    return Status();
  }
  int64_t v = 0;
  auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (ec == std::errc::result_out_of_range)
    return bad(" (out of range)");
  if (ec != std::errc() || ptr != text.data() + text.size())
    return bad("");
  int bits = static_cast<int>(elementByteSize(type) * 8);
  if (bits < 64) {
    int64_t lo = -(int64_t(1) << (bits - 1)), hi = (int64_t(1) << (bits - 1)) - 1;
    if (v < lo || v > hi)
      return bad(" (out of range)");
  }
  switch (type) {
  case ElementType::i64: store(out, v); break;
  case ElementType::i32: store(out, static_cast<int32_t>(v)); break;
  case ElementType::i16: store(out, static_cast<int16_t>(v)); break;
  default: store(out, static_cast<int8_t>(v)); break;
  }
  return Status();
}

} // namespace

StatusOr<HostTensor> parseTensorLiteral(std::string_view text) {
  size_t eq = text.find('=');
  if (eq == std::string_view::npos)
    return invalidArgument("tensor literal '" + std::string(text) +
                           "' has no '=' (expected e.g. 2x3xf32=1,2,3,4,5,6)");
  auto type = parseTensorType(trim(text.substr(0, eq)));
  if (!type.ok())
    return type.status();
  std::vector<std::string> values;
  std::string_view rest = text.substr(eq + 1);
  if (!trim(rest).empty()) {
    while (true) {
      size_t comma = rest.find(',');
      values.push_back(trim(rest.substr(0, comma)));
      if (comma == std::string_view::npos)
        break;
      rest = rest.substr(comma + 1);
    }
  }
  // Checked before allocating: a type of 2^40 elements with two values is
  // an error, not a terabyte allocation.
  int64_t n = type->numElements();
  bool splat = values.size() == 1 && n > 1;
  if (!splat && static_cast<int64_t>(values.size()) != n)
    return invalidArgument("tensor literal for " + type->toString() + " has " +
                           std::to_string(values.size()) + " values but needs " +
                           std::to_string(n) + " (or 1 to splat)");
  if (type->byteSize() > kMaxLiteralBytes)
    return invalidArgument("tensor literal for " + type->toString() + " is " +
                           std::to_string(type->byteSize()) + " bytes (a literal makes at most " +
                           std::to_string(kMaxLiteralBytes) + "; use a .npy file)");
  HostTensor t = HostTensor::zeros(*type);
  size_t esize = elementByteSize(t.type.elementType);
  for (size_t i = 0; i < values.size(); ++i) {
    Status s = parseElement(t.type.elementType, values[i], t.bytes.data() + i * esize);
    if (!s.ok())
      return s.withContext("tensor literal for " + type->toString() + ", value " +
                           std::to_string(i));
  }
  if (splat)
    for (int64_t i = 1; i < n; ++i)
      std::memcpy(t.bytes.data() + i * esize, t.bytes.data(), esize);
  return t;
}

namespace {

std::string formatElement(const HostTensor &t, int64_t i) {
  char buf[64];
  const uint8_t *p = t.bytes.data() + i * elementByteSize(t.type.elementType);
  switch (t.type.elementType) {
  case ElementType::f64: {
    auto r = std::to_chars(buf, buf + sizeof(buf), load<double>(p));
    return std::string(buf, r.ptr);
  }
  case ElementType::i64: return std::to_string(load<int64_t>(p));
  case ElementType::i1: return *p ? "1" : "0";
  default:
    if (isFloat(t.type.elementType)) {
      auto r = std::to_chars(buf, buf + sizeof(buf), static_cast<float>(t.elementAsDouble(i)));
      return std::string(buf, r.ptr);
    }
    return std::to_string(static_cast<int64_t>(t.elementAsDouble(i)));
  }
}

// Prints the sub-tensor at `dim` starting at flat index `*next`, stopping
// after `maxElements` elements with a single "...".
void formatDims(const HostTensor &t, size_t dim, int64_t &next, int64_t maxElements,
                bool &elided, std::string &out) {
  out += '[';
  int64_t extent = t.type.shape[dim];
  for (int64_t i = 0; i < extent && !elided; ++i) {
    if (dim + 1 == t.type.shape.size()) {
      if (next >= maxElements) {
        out += i ? " ..." : "...";
        elided = true;
        break;
      }
      if (i)
        out += ' ';
      out += formatElement(t, next++);
    } else {
      formatDims(t, dim + 1, next, maxElements, elided, out);
    }
  }
  if (elided && dim + 1 < t.type.shape.size() && out.back() == ']')
    out += "...";
  out += ']';
}

} // namespace

std::string formatTensor(const HostTensor &tensor, int64_t maxElements) {
  std::string out = tensor.type.toString() + "=";
  if (tensor.type.shape.empty())
    return out + formatElement(tensor, 0);
  // No elements: "[]" whatever the shape (the type shows it). Walking the
  // dimensions would print one "[]" per empty row: 10^8 of them for
  // 100000x1000x0xf32 (found by fuzz_literal).
  if (tensor.numElements() == 0)
    return out + "[]";
  int64_t next = 0;
  bool elided = false;
  formatDims(tensor, 0, next, maxElements, elided, out);
  return out;
}

} // namespace tessel::rt
