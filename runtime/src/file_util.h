// Whole-file reading and writing with errors that name the file.
#pragma once

#include "tessel/runtime/status.h"

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace tessel::rt {

/// Reads all of `path`; `what` describes the file in errors ("module file").
StatusOr<std::vector<uint8_t>> readFileBytes(const std::string &path, const std::string &what);
/// Replaces `path` with `bytes` all or nothing (a temporary file renamed
/// into place: see StagedFiles).
Status writeFileBytes(const std::string &path, const std::vector<uint8_t> &bytes,
                      const std::string &what);

/// Writes all `size` bytes to `fd` (retrying short writes and EINTR);
/// false on an error (errno says which).
bool writeAll(int fd, const uint8_t *data, size_t size);

} // namespace tessel::rt
