// Status and StatusOr<T>: how every fallible runtime call reports errors.
//
// Errors are values carrying a code and a human-readable message; the runtime
// never aborts on user input (module files, tensors, command lines).
#pragma once

#include <optional>
#include <string>
#include <utility>

namespace tessel::rt {

/// Broad error category; the message carries the details.
enum class StatusCode {
  kOk = 0,
  kInvalidArgument,    ///< bad input from the caller (shapes, flags, values)
  kNotFound,           ///< missing file, function, symbol
  kFailedPrecondition, ///< e.g. the CPU lacks a feature the kernel needs
  kUnavailable,        ///< device or driver not available
  kResourceExhausted,  ///< allocation failed
  kDataLoss,           ///< truncated or corrupt file
  kUnimplemented,
  kInternal,
};

/// Name of a status code, e.g. "INVALID_ARGUMENT".
const char *statusCodeName(StatusCode code);

/// The result of an operation: OK, or an error code with a message.
class [[nodiscard]] Status {
public:
  /// An OK status.
  Status() = default;
  Status(StatusCode code, std::string message)
      : code_(code), message_(std::move(message)) {}

  bool ok() const { return code_ == StatusCode::kOk; }
  StatusCode code() const { return code_; }
  const std::string &message() const { return message_; }

  /// The same error with `context + ": "` prepended to the message, so that
  /// callers can say where an error happened without losing the code.
  Status withContext(const std::string &context) const;

  /// "OK" or "CODE: message".
  std::string toString() const;

private:
  StatusCode code_ = StatusCode::kOk;
  std::string message_;
};

/// Shorthands for building errors.
Status invalidArgument(std::string message);
Status notFound(std::string message);
Status failedPrecondition(std::string message);
Status unavailable(std::string message);
Status resourceExhausted(std::string message);
Status dataLoss(std::string message);
Status unimplemented(std::string message);
Status internalError(std::string message);

/// Either a value of type T or an error Status.
template <typename T> class [[nodiscard]] StatusOr {
public:
  /// An error; `status` must not be OK.
  StatusOr(Status status) : status_(std::move(status)) {
    if (status_.ok())
      status_ = internalError("StatusOr constructed from an OK status");
  }
  StatusOr(T value) : value_(std::move(value)) {}

  bool ok() const { return status_.ok(); }
  const Status &status() const { return status_; }

  /// The value; only valid when ok().
  T &value() & { return *value_; }
  const T &value() const & { return *value_; }
  T &&value() && { return std::move(*value_); }
  T &operator*() & { return *value_; }
  const T &operator*() const & { return *value_; }
  T *operator->() { return &*value_; }
  const T *operator->() const { return &*value_; }

private:
  Status status_;
  std::optional<T> value_;
};

} // namespace tessel::rt

#define TESSEL_RT_CONCAT_INNER(a, b) a##b
#define TESSEL_RT_CONCAT(a, b) TESSEL_RT_CONCAT_INNER(a, b)

/// Returns the status from the enclosing function if `expr` is an error.
#define TESSEL_RETURN_IF_ERROR(expr)                                           \
  do {                                                                         \
    ::tessel::rt::Status tessel_status_ = (expr);                              \
    if (!tessel_status_.ok())                                                  \
      return tessel_status_;                                                   \
  } while (0)

/// `TESSEL_ASSIGN_OR_RETURN(auto x, f());` declares x from f()'s value or
/// returns f()'s error.
#define TESSEL_ASSIGN_OR_RETURN(lhs, expr)                                     \
  TESSEL_ASSIGN_OR_RETURN_IMPL(TESSEL_RT_CONCAT(tessel_statusor_, __LINE__),   \
                               lhs, expr)
#define TESSEL_ASSIGN_OR_RETURN_IMPL(tmp, lhs, expr)                           \
  auto tmp = (expr);                                                           \
  if (!tmp.ok())                                                               \
    return tmp.status();                                                       \
  lhs = std::move(tmp).value()
