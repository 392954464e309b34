// Status helpers: code names, context chaining and error constructors.
#include "tessel/runtime/status.h"

namespace tessel::rt {

const char *statusCodeName(StatusCode code) {
  switch (code) {
  case StatusCode::kOk: return "OK";
  case StatusCode::kInvalidArgument: return "INVALID_ARGUMENT";
  case StatusCode::kNotFound: return "NOT_FOUND";
  case StatusCode::kFailedPrecondition: return "FAILED_PRECONDITION";
  case StatusCode::kUnavailable: return "UNAVAILABLE";
  case StatusCode::kResourceExhausted: return "RESOURCE_EXHAUSTED";
  case StatusCode::kDataLoss: return "DATA_LOSS";
  case StatusCode::kUnimplemented: return "UNIMPLEMENTED";
  case StatusCode::kInternal: return "INTERNAL";
  }
  return "UNKNOWN";
}

Status Status::withContext(const std::string &context) const {
  if (ok())
    return *this;
  return Status(code_, context + ": " + message_);
}

std::string Status::toString() const {
  if (ok())
    return "OK";
  return std::string(statusCodeName(code_)) + ": " + message_;
}

Status invalidArgument(std::string m) { return {StatusCode::kInvalidArgument, std::move(m)}; }
Status notFound(std::string m) { return {StatusCode::kNotFound, std::move(m)}; }
Status failedPrecondition(std::string m) { return {StatusCode::kFailedPrecondition, std::move(m)}; }
Status unavailable(std::string m) { return {StatusCode::kUnavailable, std::move(m)}; }
Status resourceExhausted(std::string m) { return {StatusCode::kResourceExhausted, std::move(m)}; }
Status dataLoss(std::string m) { return {StatusCode::kDataLoss, std::move(m)}; }
Status unimplemented(std::string m) { return {StatusCode::kUnimplemented, std::move(m)}; }
Status internalError(std::string m) { return {StatusCode::kInternal, std::move(m)}; }

} // namespace tessel::rt
