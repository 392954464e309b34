// .npy codec. The header is a Python dict literal; we parse the small subset
// numpy writes (strings, True/False, tuples of ints) with a hand-written
// parser so that any malformed header becomes an error rather than a crash.
#include "tessel/runtime/npy.h"

#include "file_util.h"

#include <cstring>
#include <map>

namespace tessel::rt {

namespace {

constexpr char kMagic[] = "\x93NUMPY";
constexpr size_t kMagicSize = 6;

// A string from the file, for an error message: quoted when it is short
// printable ASCII, else described (errors never carry raw bytes).
std::string quoted(const std::string &s) {
  bool printable = s.size() <= 64;
  for (unsigned char c : s)
    printable = printable && c >= 0x20 && c < 0x7f;
  if (printable)
    return "'" + s + "'";
  return "of " + std::to_string(s.size()) + " bytes that are not short printable ASCII";
}

struct HeaderValue {
  enum Kind { String, Bool, Tuple } kind = String;
  std::string str;
  bool boolean = false;
  std::vector<int64_t> tuple;
};

class HeaderParser {
public:
  explicit HeaderParser(std::string_view text) : text_(text) {}

  Status parse(std::map<std::string, HeaderValue> &out) {
    skipSpace();
    if (!consume('{'))
      return error("expected '{'");
    while (true) {
      skipSpace();
      if (consume('}'))
        break;
      std::string key;
      TESSEL_RETURN_IF_ERROR(parseString(key));
      skipSpace();
      if (!consume(':'))
        return error("expected ':' after key " + quoted(key));
      skipSpace();
      HeaderValue value;
      TESSEL_RETURN_IF_ERROR(parseValue(value));
      out[key] = std::move(value);
      skipSpace();
      if (consume(','))
        continue;
      if (consume('}'))
        break;
      return error("expected ',' or '}'");
    }
    return Status();
  }

private:
  Status error(const std::string &what) const {
    return dataLoss("malformed header: " + what + " at offset " + std::to_string(pos_));
  }
  void skipSpace() {
    while (pos_ < text_.size() && std::strchr(" \t\r\n", text_[pos_]))
      ++pos_;
  }
  bool consume(char c) {
    if (pos_ < text_.size() && text_[pos_] == c) {
      ++pos_;
      return true;
    }
    return false;
  }
  bool consumeWord(std::string_view w) {
    if (text_.substr(pos_, w.size()) != w)
      return false;
    pos_ += w.size();
    return true;
  }
  Status parseString(std::string &out) {
    if (pos_ >= text_.size() || (text_[pos_] != '\'' && text_[pos_] != '"'))
      return error("expected a quoted string");
    char quote = text_[pos_++];
    size_t end = text_.find(quote, pos_);
    if (end == std::string_view::npos)
      return error("unterminated string");
    out = std::string(text_.substr(pos_, end - pos_));
    pos_ = end + 1;
    return Status();
  }
  Status parseValue(HeaderValue &v) {
    if (consumeWord("True")) {
      v.kind = HeaderValue::Bool;
      v.boolean = true;
      return Status();
    }
    if (consumeWord("False")) {
      v.kind = HeaderValue::Bool;
      return Status();
    }
    if (consume('(')) {
      v.kind = HeaderValue::Tuple;
      while (true) {
        skipSpace();
        if (consume(')'))
          return Status();
        size_t start = pos_;
        while (pos_ < text_.size() && text_[pos_] >= '0' && text_[pos_] <= '9')
          ++pos_;
        if (pos_ == start)
          return error("expected a dimension");
        if (pos_ - start > 18)
          return error("dimension too large");
        v.tuple.push_back(std::stoll(std::string(text_.substr(start, pos_ - start))));
        consume('L'); // Python 2 longs
        skipSpace();
        if (consume(','))
          continue;
        if (consume(')'))
          return Status();
        return error("expected ',' or ')' in shape");
      }
    }
    v.kind = HeaderValue::String;
    return parseString(v.str);
  }

  std::string_view text_;
  size_t pos_ = 0;
};

// Maps a descr to an element type, using `expected` for the raw-bits
// conventions (see npy.h).
StatusOr<ElementType> descrToType(const std::string &descr, std::optional<ElementType> expected) {
  if (descr == "bfloat16")
    return ElementType::bf16;
  if (descr.size() >= 2 && descr[0] == '>' && descr.substr(1) != "i1" && descr.substr(1) != "u1" &&
      descr.substr(1) != "b1")
    return unimplemented("big-endian dtype " + quoted(descr) + " is not supported");
  // '=' is native order; the runtime only runs on little-endian hosts.
  std::string code = descr;
  if (!code.empty() && (code[0] == '<' || code[0] == '|' || code[0] == '=' || code[0] == '>'))
    code = code.substr(1);
  if (code == "f8") return ElementType::f64;
  if (code == "f4") return ElementType::f32;
  if (code == "f2") return ElementType::f16;
  if (code == "i8") return ElementType::i64;
  if (code == "i4") return ElementType::i32;
  if (code == "i2") return ElementType::i16;
  if (code == "i1") return ElementType::i8;
  if (code == "b1") return ElementType::i1;
  if ((code == "u2" || code == "V2") && expected == ElementType::bf16)
    return ElementType::bf16;
  if (code == "u1" && expected == ElementType::i1)
    return ElementType::i1;
  std::string hint;
  if (code == "u2" || code == "V2")
    hint = " (accepted as raw bfloat16 bits only where a bf16 tensor is expected)";
  else if (code == "u1")
    hint = " (accepted as bool only where an i1 tensor is expected)";
  return unimplemented("unsupported dtype " + quoted(descr) + hint);
}

const char *typeToDescr(ElementType type) {
  switch (type) {
  case ElementType::f64: return "<f8";
  case ElementType::f32: return "<f4";
  case ElementType::f16: return "<f2";
  case ElementType::bf16: return "<u2";
  case ElementType::i64: return "<i8";
  case ElementType::i32: return "<i4";
  case ElementType::i16: return "<i2";
  case ElementType::i8: return "|i1";
  case ElementType::i1: return "|b1";
  }
  return "";
}

uint32_t readLe(const uint8_t *p, int n) {
  uint32_t v = 0;
  for (int i = n - 1; i >= 0; --i)
    v = (v << 8) | p[i];
  return v;
}

StatusOr<HostTensor> parseNpyImpl(const std::vector<uint8_t> &bytes,
                                  std::optional<ElementType> expected) {
  if (bytes.size() < 10 || std::memcmp(bytes.data(), kMagic, kMagicSize) != 0)
    return dataLoss(bytes.size() < kMagicSize ? "truncated file (no .npy header)"
                                              : "not a .npy file (bad magic)");
  uint8_t major = bytes[6];
  if (major < 1 || major > 3)
    return unimplemented("unsupported .npy format version " + std::to_string(major) + "." +
                         std::to_string(bytes[7]));
  size_t lenBytes = major == 1 ? 2 : 4;
  size_t headerStart = 8 + lenBytes;
  if (bytes.size() < headerStart)
    return dataLoss("truncated header");
  size_t headerLen = readLe(bytes.data() + 8, static_cast<int>(lenBytes));
  if (headerLen > bytes.size() - headerStart)
    return dataLoss("truncated header (header says " + std::to_string(headerLen) +
                    " bytes, file has " + std::to_string(bytes.size() - headerStart) + ")");
  std::string_view header(reinterpret_cast<const char *>(bytes.data()) + headerStart, headerLen);
  std::map<std::string, HeaderValue> dict;
  TESSEL_RETURN_IF_ERROR(HeaderParser(header).parse(dict));

  auto descr = dict.find("descr");
  auto fortran = dict.find("fortran_order");
  auto shape = dict.find("shape");
  if (descr == dict.end() || descr->second.kind != HeaderValue::String)
    return dataLoss("malformed header: missing or bad 'descr'");
  if (fortran == dict.end() || fortran->second.kind != HeaderValue::Bool)
    return dataLoss("malformed header: missing or bad 'fortran_order'");
  if (shape == dict.end() || shape->second.kind != HeaderValue::Tuple)
    return dataLoss("malformed header: missing or bad 'shape'");
  if (fortran->second.boolean)
    return unimplemented("fortran_order arrays are not supported (save a C-ordered array, "
                         "e.g. np.ascontiguousarray)");
  TESSEL_ASSIGN_OR_RETURN(ElementType elem, descrToType(descr->second.str, expected));
  TensorType type{elem, shape->second.tuple};
  TESSEL_RETURN_IF_ERROR(type.validate());

  size_t dataStart = headerStart + headerLen;
  size_t available = bytes.size() - dataStart;
  if (available != type.byteSize())
    return dataLoss((available < type.byteSize() ? "truncated data: " : "trailing data: ") +
                    type.toString() + " needs " + std::to_string(type.byteSize()) +
                    " bytes, file has " + std::to_string(available));
  HostTensor t{type, std::vector<uint8_t>(bytes.begin() + dataStart, bytes.end())};
  if (elem == ElementType::i1)
    for (uint8_t &b : t.bytes)
      b = b != 0;
  return t;
}

std::string shapeTuple(const std::vector<int64_t> &shape) {
  std::string s = "(";
  for (size_t i = 0; i < shape.size(); ++i)
    s += (i ? ", " : "") + std::to_string(shape[i]);
  return s + (shape.size() == 1 ? ",)" : ")");
}

} // namespace

StatusOr<HostTensor> parseNpy(const std::vector<uint8_t> &bytes, const std::string &name,
                              std::optional<ElementType> expected) {
  auto t = parseNpyImpl(bytes, expected);
  if (!t.ok())
    return t.status().withContext("npy file '" + name + "'");
  return t;
}

StatusOr<HostTensor> readNpy(const std::string &path, std::optional<ElementType> expected) {
  TESSEL_ASSIGN_OR_RETURN(auto bytes, readFileBytes(path, "npy file"));
  return parseNpy(bytes, path, expected);
}

std::vector<uint8_t> encodeNpy(const HostTensor &tensor) {
  std::string dict = std::string("{'descr': '") + typeToDescr(tensor.type.elementType) +
                     "', 'fortran_order': False, 'shape': " + shapeTuple(tensor.type.shape) +
                     ", }";
  // numpy pads magic + length + header + '\n' to a multiple of 64.
  size_t lenBytes = dict.size() + 1 + 10 > 65535 ? 4 : 2;
  size_t prefix = 8 + lenBytes;
  size_t total = (prefix + dict.size() + 1 + 63) / 64 * 64;
  std::string header = dict + std::string(total - prefix - dict.size() - 1, ' ') + "\n";
  std::vector<uint8_t> out(kMagic, kMagic + kMagicSize);
  out.push_back(lenBytes == 2 ? 1 : 2);
  out.push_back(0);
  for (size_t i = 0; i < lenBytes; ++i)
    out.push_back(static_cast<uint8_t>(header.size() >> (8 * i)));
  out.insert(out.end(), header.begin(), header.end());
  out.insert(out.end(), tensor.bytes.begin(), tensor.bytes.end());
  return out;
}

Status writeNpy(const std::string &path, const HostTensor &tensor) {
  return writeFileBytes(path, encodeNpy(tensor), "npy file");
}

} // namespace tessel::rt
