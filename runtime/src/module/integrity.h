// Module file integrity: the trailer that follows the FlatBuffer in a .tmod
// file (layout in schema/module.fbs) and the crc32 checks run before
// anything else in the file is read.
#pragma once

#include "tessel/runtime/status.h"

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace tessel::rt::detail {

/// Bytes of the trailer at the end of every module file.
constexpr size_t kTrailerSize = 24;
/// The trailer layout this runtime reads and writes.
constexpr uint32_t kTrailerVersion = 1;

/// zlib's crc32 of `size` bytes.
uint32_t crc32Of(const uint8_t *data, size_t size);

/// "0x1234abcd".
std::string hexCrc(uint32_t crc);

/// The trailer for `payload` (a finished FlatBuffer): what a writer appends.
std::vector<uint8_t> makeTrailer(const uint8_t *payload, size_t size);

/// Whether `bytes` end in something with the trailer's magic.
bool hasTrailer(const std::vector<uint8_t> &bytes);

/// Checks the trailer of a module file that has one (hasTrailer) and the
/// checksum of everything before it; returns the size of that FlatBuffer.
/// `file` names the file in errors ("module file 'm.tmod'").
StatusOr<size_t> checkTrailer(const std::vector<uint8_t> &bytes, const std::string &file);

} // namespace tessel::rt::detail
