// The module trailer: magic, trailer version, crc32 and length of the
// FlatBuffer before it (all little-endian; see schema/module.fbs).
#include "module/integrity.h"

#include <zlib.h>

#include <cstdio>
#include <cstring>

namespace tessel::rt::detail {

namespace {

constexpr char kMagic[8] = {'T', 'M', 'O', 'D', 'T', 'A', 'I', 'L'};

uint64_t readLE(const uint8_t *p, int n) {
  uint64_t v = 0;
  for (int i = n - 1; i >= 0; --i)
    v = (v << 8) | p[i];
  return v;
}

void appendLE(std::vector<uint8_t> &out, uint64_t v, int n) {
  for (int i = 0; i < n; ++i)
    out.push_back(static_cast<uint8_t>(v >> (8 * i)));
}

} // namespace

uint32_t crc32Of(const uint8_t *data, size_t size) {
  // zlib takes uInt lengths; feed large buffers in pieces.
  uLong crc = ::crc32(0L, Z_NULL, 0);
  while (size > 0) {
    uInt n = static_cast<uInt>(size < (size_t(1) << 30) ? size : (size_t(1) << 30));
    crc = ::crc32(crc, data, n);
    data += n;
    size -= n;
  }
  return static_cast<uint32_t>(crc);
}

std::string hexCrc(uint32_t crc) {
  char buf[16];
  std::snprintf(buf, sizeof(buf), "0x%08x", crc);
  return buf;
}

std::vector<uint8_t> makeTrailer(const uint8_t *payload, size_t size) {
  std::vector<uint8_t> t(kMagic, kMagic + sizeof(kMagic));
  appendLE(t, kTrailerVersion, 4);
  appendLE(t, crc32Of(payload, size), 4);
  appendLE(t, size, 8);
  return t;
}

bool hasTrailer(const std::vector<uint8_t> &bytes) {
  return bytes.size() >= kTrailerSize &&
         std::memcmp(bytes.data() + bytes.size() - kTrailerSize, kMagic, sizeof(kMagic)) == 0;
}

StatusOr<size_t> checkTrailer(const std::vector<uint8_t> &bytes, const std::string &file) {
  const uint8_t *t = bytes.data() + bytes.size() - kTrailerSize;
  uint64_t version = readLE(t + 8, 4);
  uint64_t expected = readLE(t + 12, 4);
  uint64_t length = readLE(t + 16, 8);
  size_t actual = bytes.size() - kTrailerSize;
  if (version != kTrailerVersion)
    return dataLoss("truncated or corrupt " + file + ": its trailer has version " +
                    std::to_string(version) + " (this runtime reads " +
                    std::to_string(kTrailerVersion) + "): the file is damaged");
  if (length != actual)
    return dataLoss("truncated or corrupt " + file + ": its trailer records " +
                    std::to_string(length) + " bytes of module data but the file has " +
                    std::to_string(actual) + " (bytes were lost or inserted)");
  uint32_t got = crc32Of(bytes.data(), actual);
  if (got != expected)
    return dataLoss(file + ": module checksum mismatch: the file is damaged (expected crc32 " +
                    hexCrc(static_cast<uint32_t>(expected)) + ", got " + hexCrc(got) + ")");
  return actual;
}

} // namespace tessel::rt::detail
