// Whole-file I/O used by the module loader and the npy codec, and staged
// (temporary file + rename) output files.
#include "file_util.h"

#include "tessel/runtime/staged_files.h"

#include <atomic>
#include <cerrno>
#include <csignal>
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

// Temporary files that exist (or are about to), in a fixed table that a
// signal handler can walk without locks or allocation. A slot's state goes
// free -> claimed (path being written) -> live (handler may unlink) -> free.
constexpr int kMaxTracked = 64;
constexpr size_t kMaxTrackedPath = 4096;
enum : int { kFree = 0, kClaimed = 1, kLive = 2 };
struct TrackedTemp {
  std::atomic<int> state{kFree};
  char path[kMaxTrackedPath];
};
static_assert(std::atomic<int>::is_always_lock_free, "the signal handler needs lock-free atomics");
TrackedTemp gTracked[kMaxTracked];

int track(const std::string &path) {
  if (path.size() >= kMaxTrackedPath)
    return -1;
  for (int i = 0; i < kMaxTracked; ++i) {
    int expected = kFree;
    if (gTracked[i].state.compare_exchange_strong(expected, kClaimed)) {
      std::memcpy(gTracked[i].path, path.c_str(), path.size() + 1);
      gTracked[i].state.store(kLive, std::memory_order_release);
      return i;
    }
  }
  return -1;
}

void untrack(int slot) {
  if (slot >= 0)
    gTracked[slot].state.store(kFree, std::memory_order_release);
}

extern "C" void removeTrackedAndReraise(int sig) {
  int savedErrno = errno;
  for (TrackedTemp &t : gTracked)
    if (t.state.load(std::memory_order_acquire) == kLive)
      ::unlink(t.path);
  // Die of the signal as if there were no handler: the signal is blocked
  // while this handler runs, so the re-raised one arrives on return.
  struct sigaction dfl = {};
  dfl.sa_handler = SIG_DFL;
  sigemptyset(&dfl.sa_mask);
  ::sigaction(sig, &dfl, nullptr);
  ::raise(sig);
  errno = savedErrno;
}

/// Writes `bytes` into the existing non-regular file `path` (/dev/null, a
/// pipe); errno says why when it fails.
bool writeInPlace(const std::string &path, const std::vector<uint8_t> &bytes) {
  int fd = ::open(path.c_str(), O_WRONLY | O_CLOEXEC);
  if (fd < 0)
    return false;
  bool ok = writeAll(fd, bytes.data(), bytes.size());
  int err = errno;
  ok = (::close(fd) == 0) && ok;
  if (!ok)
    errno = err;
  return ok;
}

} // namespace

void removeStagedFilesOnSignals() {
  for (int sig : {SIGINT, SIGTERM, SIGHUP}) {
    struct sigaction old = {};
    if (::sigaction(sig, nullptr, &old) != 0 || old.sa_handler != SIG_DFL ||
        (old.sa_flags & SA_SIGINFO))
      continue; // someone else's handler, or ignored (nohup): leave it
    struct sigaction sa = {};
    sa.sa_handler = removeTrackedAndReraise;
    sigemptyset(&sa.sa_mask);
    // Block the other two while cleaning up, so a second signal cannot cut
    // the walk short.
    sigaddset(&sa.sa_mask, SIGINT);
    sigaddset(&sa.sa_mask, SIGTERM);
    sigaddset(&sa.sa_mask, SIGHUP);
    ::sigaction(sig, &sa, nullptr);
  }
}

StagedFiles::~StagedFiles() {
  for (const Entry &e : entries_) {
    ::unlink(e.temp.c_str());
    untrack(e.registration);
  }
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
  if (exists && !S_ISREG(existing.st_mode)) {
    entries_.push_back(Entry{path, "", what, -1, bytes});
    return Status();
  }
  std::string temp;
  int fd = -1, registration = -1;
  for (int n = 0; fd < 0; ++n) {
    temp = dir + "." + base + ".tmp-" + std::to_string(::getpid()) + "-" +
           std::to_string(entries_.size()) + "-" + std::to_string(n);
    // Tracked before it exists, so that no signal finds it untracked. (If
    // the name is taken (EEXIST), it holds our pid: a stale temporary of an
    // earlier process, which a signal in this window may remove too.)
    registration = track(temp);
    fd = ::open(temp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
    if (fd < 0) {
      int err = errno;
      untrack(registration);
      if (err != EEXIST || n == 100)
        return notFound("cannot create " + what + " '" + path + "': " + std::strerror(err));
    }
  }
  bool ok = (!exists || ::fchmod(fd, existing.st_mode & 07777) == 0) &&
            writeAll(fd, bytes.data(), bytes.size()) && ::fsync(fd) == 0;
  int err = errno;
  ok = (::close(fd) == 0) && ok;
  if (!ok) {
    ::unlink(temp.c_str());
    untrack(registration);
    return internalError("cannot write " + what + " '" + path + "': " + std::strerror(err));
  }
  entries_.push_back(Entry{path, temp, what, registration, {}});
  return Status();
}

Status StagedFiles::commit() {
  Status status;
  for (const Entry &e : entries_) {
    if (e.temp.empty()) {
      if (status.ok() && !writeInPlace(e.path, e.inPlace))
        status = internalError("cannot write " + e.what + " '" + e.path + "': " +
                               std::strerror(errno));
      continue;
    }
    if (!status.ok() || ::rename(e.temp.c_str(), e.path.c_str()) != 0) {
      if (status.ok())
        status = internalError("cannot write " + e.what + " '" + e.path + "': " +
                               std::strerror(errno));
      ::unlink(e.temp.c_str());
    }
    untrack(e.registration);
  }
  entries_.clear();
  return status;
}

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

} // namespace tessel::rt
