// Whole-file I/O used by the module loader and the npy codec.
#include "file_util.h"

#include <cerrno>
#include <cstdio>
#include <cstring>

namespace tessel::rt {

StatusOr<std::vector<uint8_t>> readFileBytes(const std::string &path, const std::string &what) {
  FILE *f = std::fopen(path.c_str(), "rb");
  if (!f)
    return notFound("cannot open " + what + " '" + path + "': " + std::strerror(errno));
  std::vector<uint8_t> bytes;
  uint8_t buf[1 << 16];
  size_t n;
  while ((n = std::fread(buf, 1, sizeof(buf), f)) > 0)
    bytes.insert(bytes.end(), buf, buf + n);
  // Directories open fine but fail on read; report that instead of "empty".
  bool failed = std::ferror(f);
  int err = errno;
  std::fclose(f);
  if (failed)
    return notFound("cannot read " + what + " '" + path + "': " + std::strerror(err));
  return bytes;
}

Status writeFileBytes(const std::string &path, const std::vector<uint8_t> &bytes,
                      const std::string &what) {
  FILE *f = std::fopen(path.c_str(), "wb");
  if (!f)
    return notFound("cannot create " + what + " '" + path + "': " + std::strerror(errno));
  bool ok = std::fwrite(bytes.data(), 1, bytes.size(), f) == bytes.size();
  ok = (std::fclose(f) == 0) && ok;
  if (!ok)
    return internalError("cannot write " + what + " '" + path + "': " + std::strerror(errno));
  return Status();
}

} // namespace tessel::rt
