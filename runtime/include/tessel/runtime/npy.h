// Reading and writing numpy .npy files (format versions 1.0, 2.0 and 3.0).
//
// Supported: little-endian, C order, dtypes <f8 <f4 <f2 <i8 <i4 <i2 |i1 |b1.
// numpy has no bfloat16, so bf16 travels as raw bits:
//  - reading: descr 'bfloat16' (ml_dtypes) is always bf16; '<u2', '<V2' and
//    '|V2' are read as bf16 bit patterns only when the caller expects bf16
//    (e.g. the function argument is bf16). '|u1' is read as i1 when the caller
//    expects i1 (values are normalized to 0/1).
//  - writing: bf16 tensors are written as '<u2' holding the bit patterns;
//    in numpy, `a.view(ml_dtypes.bfloat16)` recovers the values.
#pragma once

#include "tessel/runtime/status.h"
#include "tessel/runtime/tensor.h"

#include <optional>
#include <string>
#include <vector>

namespace tessel::rt {

/// Decodes .npy bytes. `name` is used in error messages (usually the path);
/// `expected` selects the raw-bits conventions described above.
StatusOr<HostTensor> parseNpy(const std::vector<uint8_t> &bytes, const std::string &name,
                              std::optional<ElementType> expected = std::nullopt);
/// Reads a .npy file; errors name the file.
StatusOr<HostTensor> readNpy(const std::string &path,
                             std::optional<ElementType> expected = std::nullopt);

/// Encodes a tensor as .npy (version 1.0 unless the header needs 2.0).
std::vector<uint8_t> encodeNpy(const HostTensor &tensor);
/// Writes a .npy file; errors name the file.
Status writeNpy(const std::string &path, const HostTensor &tensor);

} // namespace tessel::rt
