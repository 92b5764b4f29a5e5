// Status and Result<T>: how every fallible operation in Ember reports failure.
//
// A Status is one pointer wide. OK is the null pointer, so returning and
// testing success costs the same as returning an int. An error owns a small
// heap record with a code, a message and a chain of "while ..." annotations
// that callers add as the error travels up (EMBER_RETURN_IF_ERROR with a
// format). The core never throws; the Python layer turns a Status into an
// exception in exactly one place.
//
// The codes are numbered as IREE's (and absl's) status codes, because the VM's
// `vm.fail` instruction carries such a code from the program to the host.
#pragma once

#include <cstdarg>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <variant>

namespace ember {

enum class StatusCode : uint32_t {
  kOk = 0,
  kCancelled = 1,
  kUnknown = 2,
  kInvalidArgument = 3,
  kDeadlineExceeded = 4,
  kNotFound = 5,
  kAlreadyExists = 6,
  kPermissionDenied = 7,
  kResourceExhausted = 8,
  kFailedPrecondition = 9,
  kAborted = 10,
  kOutOfRange = 11,
  kUnimplemented = 12,
  kInternal = 13,
  kUnavailable = 14,
  kDataLoss = 15,
  kUnauthenticated = 16,
  kDeferred = 17,
  kIncompatible = 18,
};

// The upper-case name of a code, e.g. "INVALID_ARGUMENT".
const char* StatusCodeName(StatusCode code);

class [[nodiscard]] Status {
 public:
  Status() = default;
  Status(StatusCode code, std::string message);
  Status(const Status& other);
  Status& operator=(const Status& other);
  Status(Status&& other) noexcept
      : payload_(std::exchange(other.payload_, nullptr)) {}
  Status& operator=(Status&& other) noexcept {
    if (this != &other) {
      if (payload_ != nullptr) [[unlikely]]
        Free(payload_);
      payload_ = std::exchange(other.payload_, nullptr);
    }
    return *this;
  }
  // An OK status is one null pointer, and destroying it is one inlined
  // test: every call on a hot path makes and drops a few of them.
  ~Status() {
    if (payload_ != nullptr) [[unlikely]]
      Free(payload_);
  }

  static Status Ok() { return Status(); }

  bool ok() const { return payload_ == nullptr; }
  StatusCode code() const {
    return payload_ ? payload_->code : StatusCode::kOk;
  }
  // The innermost message, without annotations.
  std::string_view message() const;
  // "CODE: message; while a; while b" -- what a user sees.
  std::string ToString() const;

  // Adds a "while ..." annotation (no-op on OK); the word "while" is added
  // unless the note already starts with it. Returns *this for chaining.
  Status& Annotate(std::string note) &;
  Status&& Annotate(std::string note) &&;

  // Marks an intentionally ignored status.
  void IgnoreError() const {}

 private:
  struct Payload {
    StatusCode code;
    std::string message;
    std::string annotations;  // each entry starts with "; while "
  };
  static void Free(Payload* payload);
  Payload* payload_ = nullptr;  // owned; null when OK
};

// printf-style constructors. Format strings are checked by the compiler.
Status MakeStatus(StatusCode code, const char* format, ...)
    __attribute__((format(printf, 2, 3)));
std::string StringPrintf(const char* format, ...)
    __attribute__((format(printf, 1, 2)));
std::string StringPrintfV(const char* format, va_list args);

#define EMBER_STATUS_HELPER(name, code_value)                  \
  inline Status name(std::string message) {                    \
    return Status(StatusCode::code_value, std::move(message)); \
  }
EMBER_STATUS_HELPER(InvalidArgumentError, kInvalidArgument)
EMBER_STATUS_HELPER(NotFoundError, kNotFound)
EMBER_STATUS_HELPER(OutOfRangeError, kOutOfRange)
EMBER_STATUS_HELPER(UnimplementedError, kUnimplemented)
EMBER_STATUS_HELPER(InternalError, kInternal)
EMBER_STATUS_HELPER(FailedPreconditionError, kFailedPrecondition)
EMBER_STATUS_HELPER(ResourceExhaustedError, kResourceExhausted)
EMBER_STATUS_HELPER(DataLossError, kDataLoss)
EMBER_STATUS_HELPER(IncompatibleError, kIncompatible)
EMBER_STATUS_HELPER(AlreadyExistsError, kAlreadyExists)
EMBER_STATUS_HELPER(UnavailableError, kUnavailable)
#undef EMBER_STATUS_HELPER

// A value or an error status. Accessing value() on an error is a programming
// error and aborts.
template <typename T>
class [[nodiscard]] Result {
 public:
  Result(T value) : storage_(std::in_place_index<1>, std::move(value)) {}
  Result(Status status) : storage_(std::in_place_index<0>, std::move(status)) {
    if (std::get<0>(storage_).ok()) {
      storage_.template emplace<0>(
          InternalError("Result constructed from an OK status"));
    }
  }

  bool ok() const { return storage_.index() == 1; }
  const Status& status() const& {
    static const Status kOkStatus;
    return ok() ? kOkStatus : std::get<0>(storage_);
  }
  Status status() && {
    return ok() ? Status() : std::move(std::get<0>(storage_));
  }

  T& value() & {
    CheckOk();
    return std::get<1>(storage_);
  }
  const T& value() const& {
    CheckOk();
    return std::get<1>(storage_);
  }
  T&& value() && {
    CheckOk();
    return std::move(std::get<1>(storage_));
  }
  T* operator->() { return &value(); }
  const T* operator->() const { return &value(); }
  T& operator*() & { return value(); }
  const T& operator*() const& { return value(); }

 private:
  void CheckOk() const;
  std::variant<Status, T> storage_;
};

[[noreturn]] void DieOnBadResultAccess(const Status& status);

template <typename T>
void Result<T>::CheckOk() const {
  if (!ok()) DieOnBadResultAccess(std::get<0>(storage_));
}

namespace status_internal {
inline Status AsStatus(Status status) { return status; }
template <typename T>
inline Status AsStatus(Result<T> result) {
  return std::move(result).status();
}
inline Status AnnotateF(Status status) { return status; }
Status AnnotateF(Status status, const char* format, ...)
    __attribute__((format(printf, 2, 3)));
}  // namespace status_internal

#define EMBER_CONCAT_INNER(a, b) a##b
#define EMBER_CONCAT(a, b) EMBER_CONCAT_INNER(a, b)

// Returns the status of `expr` if it failed, annotated with the optional
// printf-style "while ..." note.
#define EMBER_RETURN_IF_ERROR(expr, ...)                                      \
  do {                                                                        \
    ::ember::Status ember_status_ = ::ember::status_internal::AsStatus(expr); \
    if (__builtin_expect(!ember_status_.ok(), 0)) {                           \
      return ::ember::status_internal::AnnotateF(                             \
          std::move(ember_status_) __VA_OPT__(, ) __VA_ARGS__);               \
    }                                                                         \
  } while (false)

// `EMBER_ASSIGN_OR_RETURN(auto x, MakeX());`
#define EMBER_ASSIGN_OR_RETURN(lhs, expr, ...)                               \
  EMBER_ASSIGN_OR_RETURN_IMPL(EMBER_CONCAT(ember_result_, __COUNTER__), lhs, \
                              expr __VA_OPT__(, ) __VA_ARGS__)
#define EMBER_ASSIGN_OR_RETURN_IMPL(tmp, lhs, expr, ...)     \
  auto tmp = (expr);                                         \
  if (__builtin_expect(!tmp.ok(), 0)) {                      \
    return ::ember::status_internal::AnnotateF(              \
        std::move(tmp).status() __VA_OPT__(, ) __VA_ARGS__); \
  }                                                          \
  lhs = std::move(tmp).value()

}  // namespace ember
