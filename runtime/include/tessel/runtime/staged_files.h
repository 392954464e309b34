// Output files written all or nothing.
//
// stage() writes each file's bytes to a new temporary file in the target's
// directory; commit() renames them into place. Destroying a StagedFiles
// that was not committed removes its temporaries. So a run that fails before
// commit() leaves no new file, no partial one, and every existing file as
// it was. (commit() renames one file at a time: if renaming the second of
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
  /// in errors ("npy file").
  Status stage(const std::string &path, const std::vector<uint8_t> &bytes,
               const std::string &what);
  /// Renames every staged file into place.
  Status commit();

private:
  struct Entry {
    std::string path, temp, what;
  };
  std::vector<Entry> entries_;
};

} // namespace tessel::rt
