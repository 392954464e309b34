// Whole-file I/O used by the module loader and the npy codec, and staged
// (temporary file + rename) output files.
#include "file_util.h"

#include "tessel/runtime/staged_files.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

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
  StagedFiles files;
  TESSEL_RETURN_IF_ERROR(files.stage(path, bytes, what));
  return files.commit();
}

namespace {

bool writeAll(int fd, const uint8_t *data, size_t size) {
  while (size > 0) {
    ssize_t n = ::write(fd, data, size);
    if (n < 0 && errno == EINTR)
      continue;
    if (n <= 0)
      return false;
    data += n;
    size -= static_cast<size_t>(n);
  }
  return true;
}

} // namespace

StagedFiles::~StagedFiles() {
  for (const Entry &e : entries_)
    ::unlink(e.temp.c_str());
}

Status StagedFiles::stage(const std::string &path, const std::vector<uint8_t> &bytes,
                          const std::string &what) {
  // ".NAME.tmp-PID-N" in the same directory, so that rename() stays on one
  // file system and replaces `path` atomically.
  size_t slash = path.rfind('/');
  std::string dir = slash == std::string::npos ? "" : path.substr(0, slash + 1);
  std::string base = slash == std::string::npos ? path : path.substr(slash + 1);
  if (base.empty())
    return invalidArgument("cannot create " + what + " '" + path + "': not a file name");
  struct stat existing;
  bool exists = ::stat(path.c_str(), &existing) == 0;
  if (exists && S_ISDIR(existing.st_mode))
    return invalidArgument("cannot create " + what + " '" + path + "': it is a directory");
  std::string temp;
  int fd = -1;
  for (int n = 0; fd < 0; ++n) {
    temp = dir + "." + base + ".tmp-" + std::to_string(::getpid()) + "-" +
           std::to_string(entries_.size()) + "-" + std::to_string(n);
    fd = ::open(temp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
    if (fd < 0 && (errno != EEXIST || n == 100))
      return notFound("cannot create " + what + " '" + path + "': " + std::strerror(errno));
  }
  bool ok = (!exists || ::fchmod(fd, existing.st_mode & 07777) == 0) &&
            writeAll(fd, bytes.data(), bytes.size()) && ::fsync(fd) == 0;
  int err = errno;
  ok = (::close(fd) == 0) && ok;
  if (!ok) {
    ::unlink(temp.c_str());
    return internalError("cannot write " + what + " '" + path + "': " + std::strerror(err));
  }
  entries_.push_back(Entry{path, temp, what});
  return Status();
}

Status StagedFiles::commit() {
  Status status;
  for (const Entry &e : entries_) {
    if (!status.ok() || ::rename(e.temp.c_str(), e.path.c_str()) != 0) {
      if (status.ok())
        status = internalError("cannot write " + e.what + " '" + e.path + "': " +
                               std::strerror(errno));
      ::unlink(e.temp.c_str());
    }
  }
  entries_.clear();
  return status;
}

} // namespace tessel::rt
