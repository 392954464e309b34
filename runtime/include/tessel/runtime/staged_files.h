// Output files written all or nothing.
//
// stage() writes each file's bytes to a new temporary file in the target's
// directory; commit() renames them into place. Destroying a StagedFiles
// that was not committed removes its temporaries. So a run that fails before
// commit() leaves no new file, no partial one, and every existing file as
// it was. Temporary files are also removed when the process is killed by
// SIGINT, SIGTERM or SIGHUP, once removeStagedFilesOnSignals() installed
// its handler. (commit() renames one file at a time: if renaming the second of
// two fails, the first is already in place; renames within a directory
// practically fail only for missing permissions, which stage() has already
// exercised.)
#pragma once

#include "tessel/runtime/status.h"

#include <cstdint>
#include <string>
#include <vector>

namespace tessel::rt {

class StagedFiles {
public:
  StagedFiles() = default;
  StagedFiles(const StagedFiles &) = delete;
  StagedFiles &operator=(const StagedFiles &) = delete;
  ~StagedFiles();

  /// Writes `bytes` to a temporary file next to `path` (created with the
  /// mode `path` has, else 0666 less the umask). `what` describes the file
  /// in errors ("npy file"). An existing `path` that is not a regular file
  /// (/dev/null, a pipe) keeps the bytes until commit, which writes them
  /// into it: a rename would replace the device or pipe.
  Status stage(const std::string &path, const std::vector<uint8_t> &bytes,
               const std::string &what);
  /// Renames every staged file into place (writes the kept bytes into the
  /// outputs that are not regular files).
  Status commit();

private:
  struct Entry {
    std::string path, temp, what;
    int registration; // in the signal-safe table of temporaries, or -1
    std::vector<uint8_t> inPlace; // bytes for a non-regular `path` (no temp)
  };
  std::vector<Entry> entries_;
};

/// Installs a handler for SIGINT, SIGTERM and SIGHUP (each only where the
/// signal still has its default action: an application's own handler or an
/// inherited SIG_IGN is kept) that unlinks every temporary file a
/// StagedFiles of this process holds, restores the default action and
/// re-raises the signal, so the process still dies of it (exit status
/// 128+N in a shell). The handler uses only async-signal-safe calls
/// (unlink, sigaction, raise) on a fixed table of paths. At most 64
/// temporaries at once are tracked (further ones are still removed by
/// ~StagedFiles, but not on a signal). Idempotent.
void removeStagedFilesOnSignals();

} // namespace tessel::rt
