// Shared by the fuzzers: a check that stops the run with a message (a
// libFuzzer crash), and the printable-text property of error messages.
#pragma once

#include <cstdio>
#include <cstdlib>
#include <string>

namespace tessel::rt::fuzz {

/// Fails the fuzz run (libFuzzer records the input as a crash).
[[noreturn]] inline void fail(const std::string &what) {
  std::fprintf(stderr, "fuzz check failed: %s\n", what.c_str());
  std::abort();
}

inline void check(bool ok, const std::string &what) {
  if (!ok)
    fail(what);
}

/// Error text quotes no raw bytes: printable ASCII only (plus newlines in
/// multi-line descriptions when `newlines`).
inline void checkPrintable(const std::string &text, const std::string &what,
                           bool newlines = false) {
  for (unsigned char c : text)
    if (!((c >= 0x20 && c < 0x7f) || (newlines && c == '\n')))
      fail(what + " is not printable ASCII: " + text);
}

} // namespace tessel::rt::fuzz
