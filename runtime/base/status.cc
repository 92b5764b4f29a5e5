#include "runtime/base/status.h"

#include <cstdio>
#include <cstdlib>

namespace ember {

const char* StatusCodeName(StatusCode code) {
  switch (code) {
    case StatusCode::kOk: return "OK";
    case StatusCode::kCancelled: return "CANCELLED";
    case StatusCode::kUnknown: return "UNKNOWN";
    case StatusCode::kInvalidArgument: return "INVALID_ARGUMENT";
    case StatusCode::kDeadlineExceeded: return "DEADLINE_EXCEEDED";
    case StatusCode::kNotFound: return "NOT_FOUND";
    case StatusCode::kAlreadyExists: return "ALREADY_EXISTS";
    case StatusCode::kPermissionDenied: return "PERMISSION_DENIED";
    case StatusCode::kResourceExhausted: return "RESOURCE_EXHAUSTED";
    case StatusCode::kFailedPrecondition: return "FAILED_PRECONDITION";
    case StatusCode::kAborted: return "ABORTED";
    case StatusCode::kOutOfRange: return "OUT_OF_RANGE";
    case StatusCode::kUnimplemented: return "UNIMPLEMENTED";
    case StatusCode::kInternal: return "INTERNAL";
    case StatusCode::kUnavailable: return "UNAVAILABLE";
    case StatusCode::kDataLoss: return "DATA_LOSS";
    case StatusCode::kUnauthenticated: return "UNAUTHENTICATED";
    case StatusCode::kDeferred: return "DEFERRED";
    case StatusCode::kIncompatible: return "INCOMPATIBLE";
  }
  return "UNKNOWN_CODE";
}

void Status::Free(Payload* payload) { delete payload; }

Status::Status(StatusCode code, std::string message) {
  if (code == StatusCode::kOk) return;
  payload_ = new Payload{code, std::move(message), {}};
}

Status::Status(const Status& other) {
  if (other.payload_) payload_ = new Payload(*other.payload_);
}

Status& Status::operator=(const Status& other) {
  if (this != &other) {
    Payload* copy = other.payload_ ? new Payload(*other.payload_) : nullptr;
    if (payload_ != nullptr) Free(payload_);
    payload_ = copy;
  }
  return *this;
}

std::string_view Status::message() const {
  return payload_ ? std::string_view(payload_->message) : std::string_view();
}

std::string Status::ToString() const {
  if (!payload_) return "OK";
  std::string text = StatusCodeName(payload_->code);
  text += ": ";
  text += payload_->message;
  text += payload_->annotations;
  return text;
}

Status& Status::Annotate(std::string note) & {
  if (payload_ && !note.empty()) {
    // Notes read "while <doing something>"; accept them with or without the
    // leading word so call sites cannot double it.
    payload_->annotations +=
        std::string_view(note).starts_with("while ") ? "; " : "; while ";
    payload_->annotations += note;
  }
  return *this;
}

Status&& Status::Annotate(std::string note) && {
  Annotate(std::move(note));
  return std::move(*this);
}

std::string StringPrintfV(const char* format, va_list args) {
  va_list copy;
  va_copy(copy, args);
  int size = std::vsnprintf(nullptr, 0, format, copy);
  va_end(copy);
  if (size <= 0) return std::string();
  std::string text(static_cast<size_t>(size), '\0');
  std::vsnprintf(text.data(), text.size() + 1, format, args);
  return text;
}

std::string StringPrintf(const char* format, ...) {
  va_list args;
  va_start(args, format);
  std::string text = StringPrintfV(format, args);
  va_end(args);
  return text;
}

Status MakeStatus(StatusCode code, const char* format, ...) {
  va_list args;
  va_start(args, format);
  std::string text = StringPrintfV(format, args);
  va_end(args);
  return Status(code, std::move(text));
}

[[noreturn]] void DieOnBadResultAccess(const Status& status) {
  std::fprintf(stderr, "ember: value() called on an error Result: %s\n",
               status.ToString().c_str());
  std::abort();
}

namespace status_internal {
Status AnnotateF(Status status, const char* format, ...) {
  va_list args;
  va_start(args, format);
  std::string text = StringPrintfV(format, args);
  va_end(args);
  status.Annotate(std::move(text));
  return status;
}
}  // namespace status_internal

}  // namespace ember
