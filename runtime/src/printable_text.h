// Text from outside the runtime (a module file, dlerror(), the environment)
// made safe to show in an error message.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace tessel::rt {

/// `text` with every byte outside printable ASCII replaced by '?', cut to
/// `maxBytes` (then ending in "...").
inline std::string printableText(std::string_view text, size_t maxBytes = 512) {
  std::string out;
  for (unsigned char c : text) {
    if (out.size() == maxBytes)
      return out + "...";
    out += (c >= 0x20 && c < 0x7f) ? static_cast<char>(c) : '?';
  }
  return out;
}

} // namespace tessel::rt
