// NativeModule: VM modules written in C++, with calling conventions checked
// by the compiler.
//
// The `hal` module (and `check`, and later modules defined from Python) are
// tables of exports, each a C++ function that bytecode imports by name and
// cconv. IREE writes the argument/result shims of such modules by hand (or
// with macros) and a shim that disagrees with its cconv string is found only
// when a program misbehaves. Here an export is declared as
//
//   Export<"buffer.length", "0r_I", &BufferLength>()
//
// and the cconv string is *derived* from the C++ signature of BufferLength
// at compile time and compared with the declared one in a static_assert: a
// mismatch is a build error. The marshalling between the boxed Variant spans
// of module.h and the typed parameters is generated from the same signature,
// so the three (declared cconv, C++ types, marshalling) cannot drift apart.
//
// Signatures. An export function takes the module's state first, then one
// parameter per cconv argument:
//   int32_t 'i', int64_t 'I', float 'f', double 'F',
//   VmRef 'r' (any ref, possibly null), Ref<T> 'r' for a type with a
//   RefType (ref.h's RefTypeTraits<T>; null passes as null; a ref of
//   another type is an INVALID_ARGUMENT), Borrowed<T> 'r' (the same checks,
//   for an object the export only uses during the call: no reference is
//   counted for it; take it as `const Borrowed<T>&`), and
//   std::span<const std::tuple<Ts...>> for a variadic span 'C<Ts>D'.
// It returns Status (no results), Result<T> (one result of the types
// above, spans excepted) or Result<std::tuple<Ts...>> (several).
//
// Arguments arrive already checked against the cconv by the Context when
// the caller is bytecode, but a host can call an export directly, so the
// generated code checks every Variant's type and every span count again;
// a bad call is an INVALID_ARGUMENT naming the export and the argument.
//
// Ref types. A module that introduces ref types (the hal module's
// !hal.buffer, ...) lists their descriptors when it is made, and start-up
// calls RegisterTypes(instance) before the instance is frozen, so that
// bytecode naming those types resolves when it is loaded. The module need
// not own the C++ types: it names them through RefTypeTraits.
//
// Thread safety: as Module. The state type is per Context, so export
// functions may mutate it freely.
#pragma once

#include <algorithm>
#include <array>
#include <bit>
#include <cstdint>
#include <functional>
#include <memory>
#include <new>
#include <span>
#include <string>
#include <string_view>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

#include "runtime/base/ref_counted.h"
#include "runtime/base/status.h"
#include "runtime/base/trace.h"
#include "runtime/vm/calling_convention.h"
#include "runtime/vm/instance.h"
#include "runtime/vm/list.h"
#include "runtime/vm/module.h"
#include "runtime/vm/ref.h"
#include "runtime/vm/value.h"

namespace ember::vm {

// A string literal usable as a template argument.
template <size_t N>
struct FixedString {
  char text[N]{};
  constexpr FixedString(const char (&literal)[N]) {
    std::copy_n(literal, N, text);
  }
  constexpr std::string_view view() const { return {text, N - 1}; }
};

// A ref argument the export uses only while it runs. Read from a caller's
// register it costs no reference count (two atomic operations per ref per
// call, a fifth of a small export's time): the register keeps the object
// alive until the export returns, and results are written only after that.
// A register the caller moves into the call is still taken, so the object
// is released when the call ends, as with Ref<T>. An export that keeps the
// object beyond the call takes a reference of its own with Retain().
template <typename T>
class Borrowed {
 public:
  Borrowed() = default;

  T* get() const { return pointer_; }
  T* operator->() const { return pointer_; }
  T& operator*() const { return *pointer_; }
  explicit operator bool() const { return pointer_ != nullptr; }
  Ref<T> Retain() const { return Ref<T>::Retain(pointer_); }

  // Reader side: a pointer the caller keeps alive, or a reference handed
  // over.
  void Borrow(T* pointer) {
    owned_.reset();
    pointer_ = pointer;
  }
  void Own(Ref<T> owned) {
    pointer_ = owned.get();
    owned_ = std::move(owned);
  }

 private:
  T* pointer_ = nullptr;
  Ref<T> owned_;
};

namespace native_internal {

// ---- compile-time cconv spelling of C++ types -----------------------------

template <size_t... Ns>
constexpr auto Join(const std::array<char, Ns>&... parts) {
  std::array<char, (Ns + ... + 0)> joined{};
  size_t at = 0;
  ((std::copy(parts.begin(), parts.end(), joined.begin() + at),
    at += parts.size()),
   ...);
  return joined;
}

template <typename T>
struct TypeChars;
template <>
struct TypeChars<int32_t> {
  static constexpr std::array<char, 1> value{CconvChar(CconvType::kI32)};
};
template <>
struct TypeChars<int64_t> {
  static constexpr std::array<char, 1> value{CconvChar(CconvType::kI64)};
};
template <>
struct TypeChars<float> {
  static constexpr std::array<char, 1> value{CconvChar(CconvType::kF32)};
};
template <>
struct TypeChars<double> {
  static constexpr std::array<char, 1> value{CconvChar(CconvType::kF64)};
};
template <>
struct TypeChars<VmRef> {
  static constexpr std::array<char, 1> value{CconvChar(CconvType::kRef)};
};
template <typename T>
struct TypeChars<Ref<T>> {
  static_assert(HasRefType<T>,
                "Ref<T> parameters need RefTypeTraits<T> naming the ref type");
  static constexpr std::array<char, 1> value{CconvChar(CconvType::kRef)};
};
template <typename T>
struct TypeChars<Borrowed<T>> {
  static_assert(HasRefType<T>,
                "Borrowed<T> parameters need RefTypeTraits<T> naming the ref "
                "type");
  static constexpr std::array<char, 1> value{CconvChar(CconvType::kRef)};
};
template <typename... Ts>
struct TypeChars<std::span<const std::tuple<Ts...>>> {
  static constexpr auto value =
      Join(std::array<char, 1>{CconvChar(CconvType::kSpanBegin)},
           TypeChars<Ts>::value...,
           std::array<char, 1>{CconvChar(CconvType::kSpanEnd)});
};

template <typename... Ts>
constexpr auto SideChars() {
  if constexpr (sizeof...(Ts) == 0) {
    return std::array<char, 1>{'v'};
  } else {
    return Join(TypeChars<std::remove_cvref_t<Ts>>::value...);
  }
}

// Results: Status -> none; Result<T> -> T; Result<tuple<Ts...>> -> Ts...
template <typename R>
struct ResultTypes;
template <>
struct ResultTypes<Status> {
  using Tuple = std::tuple<>;
  static constexpr bool kUnpack = false;
};
template <typename T>
struct ResultTypes<Result<T>> {
  using Tuple = std::tuple<T>;
  static constexpr bool kUnpack = false;  // one result, returned as is
};
template <typename... Ts>
struct ResultTypes<Result<std::tuple<Ts...>>> {
  using Tuple = std::tuple<Ts...>;
  static constexpr bool kUnpack = true;  // several results, as a tuple
};

template <typename Tuple>
struct TupleSideChars;
template <typename... Ts>
struct TupleSideChars<std::tuple<Ts...>> {
  static constexpr auto value = SideChars<Ts...>();
};

template <typename F>
struct Signature;
template <typename R, typename State, typename... Args>
struct Signature<R (*)(State&, Args...)> {
  using StateType = State;
  using ReturnType = R;
  using ArgTuple = std::tuple<std::remove_cvref_t<Args>...>;
  using ResultTuple = typename ResultTypes<R>::Tuple;
  static constexpr auto cconv =
      Join(std::array<char, 1>{'0'}, SideChars<Args...>(),
           std::array<char, 1>{'_'}, TupleSideChars<ResultTuple>::value);
};

template <size_t N>
constexpr bool SameText(const std::array<char, N>& chars,
                        std::string_view text) {
  if (text.size() != N) return false;
  for (size_t i = 0; i < N; ++i) {
    if (chars[i] != text[i]) return false;
  }
  return true;
}

// ---- run-time marshalling --------------------------------------------------

// The elements behind a span parameter: inline up to kInline (the common
// case, so a call with a short span allocates nothing; a dispatch's binding
// table is usually under 16 buffers), on the heap above. Elements are
// constructed in place one by one as they are read (a call site usually
// passes one or two; clearing room for all of them up front cost a quarter
// of a small export's marshalling).
template <typename T>
class SpanBuffer {
 public:
  static constexpr size_t kInline = 16;
  // User-provided, so that value-initializing a SpanBuffer (std::tuple
  // does) leaves the storage alone.
  SpanBuffer() {}  // NOLINT(modernize-use-equals-default)
  SpanBuffer(const SpanBuffer&) = delete;
  SpanBuffer& operator=(const SpanBuffer&) = delete;
  ~SpanBuffer() { std::destroy_n(inline_data(), inline_size_); }

  // Up to kInline elements: the inline storage, which the caller fills in
  // order, calling InlineConstructed after constructing each (so that a
  // failure part way destroys exactly those).
  T* InlineStorage() { return inline_data(); }
  void InlineConstructed() { ++inline_size_; }
  // More: room on the heap for `count` elements (called once), then one
  // value-initialized element at a time.
  void ReserveHeap(size_t count) { heap_.reserve(count); }
  T& EmplaceHeap() { return heap_.emplace_back(); }
  std::span<T> elements() {
    if (heap_.capacity() != 0) return std::span<T>(heap_);
    return std::span<T>(inline_data(), inline_size_);
  }

 private:
  T* inline_data() { return std::launder(reinterpret_cast<T*>(storage_)); }

  alignas(T) unsigned char storage_[kInline * sizeof(T)];
  size_t inline_size_ = 0;
  std::vector<T> heap_;
};

// Why an argument could not be read. The readers below return a bool per
// read and record the first failure here; the message is built only when a
// call fails (the hot path carries no Status per argument).
struct ReadFailure {
  enum class Kind : uint8_t {
    kNone,
    kMissing,             // fewer arguments than the cconv takes
    kExtra,               // more arguments than the cconv takes
    kRefGotValue,         // a ref expected, a value given
    kValueGotRef,         // a value expected, a ref given
    kRefType,             // a ref of another type (`type_name` expected)
    kValueType,           // a value of another type (`value_type` expected)
    kSpanWithoutSegment,  // a variadic span without its segment size
    kSpanCount,           // a span count (`count`) that does not fit
  };
  Kind kind = Kind::kNone;
  size_t position = 0;  // the argument index the message names
  std::string_view type_name;
  ValueType value_type = ValueType::kI32;
  int64_t count = 0;
};

// The status of a failed read of `function`'s arguments: INVALID_ARGUMENT
// "call to 'F': argument N: <what>".
[[gnu::cold, gnu::noinline]] inline Status ReadFailureStatus(
    std::string_view function, const ReadFailure& failure) {
  std::string what;
  switch (failure.kind) {
    case ReadFailure::Kind::kMissing:
      what = "fewer arguments than its calling convention takes";
      break;
    case ReadFailure::Kind::kExtra:
      what = "more arguments than its calling convention takes";
      break;
    case ReadFailure::Kind::kRefGotValue:
      what = "expected a ref, got a value";
      break;
    case ReadFailure::Kind::kValueGotRef:
      what = "expected a value, got a ref";
      break;
    case ReadFailure::Kind::kRefType:
      what = "expected a ref of type " + std::string(failure.type_name);
      break;
    case ReadFailure::Kind::kValueType:
      what = "expected " + std::string(ValueTypeName(failure.value_type));
      break;
    case ReadFailure::Kind::kSpanWithoutSegment:
      what = "a variadic span without a segment size";
      break;
    case ReadFailure::Kind::kSpanCount:
      what = "variadic span count " + std::to_string(failure.count) +
             " does not fit the arguments given";
      break;
    case ReadFailure::Kind::kNone: return InternalError("no read failure");
  }
  return InvalidArgumentError("call to '" + std::string(function) +
                              "': argument " +
                              std::to_string(failure.position) + ": " + what);
}

// What both readers share: the position and the recorded failure.
class ReaderBase {
 public:
  explicit ReaderBase(std::string_view function) : function_(function) {}

  // The status of the recorded failure (after a read returned false).
  Status Error() const { return ReadFailureStatus(function_, failure_); }

 protected:
  [[gnu::noinline]] bool Fail(ReadFailure::Kind kind) {
    failure_.kind = kind;
    failure_.position = position_;
    return false;
  }
  [[gnu::noinline]] bool FailRefType(std::string_view name) {
    failure_.type_name = name;
    return Fail(ReadFailure::Kind::kRefType);
  }
  [[gnu::noinline]] bool FailValueType(ValueType type) {
    failure_.value_type = type;
    return Fail(ReadFailure::Kind::kValueType);
  }
  [[gnu::noinline]] bool FailSpanCount(int64_t count) {
    failure_.count = count;
    return Fail(ReadFailure::Kind::kSpanCount);
  }

  std::string_view function_;
  size_t position_ = 0;
  ReadFailure failure_;
};

template <typename T>
struct IsRefHandle : std::false_type {};
template <typename T>
struct IsRefHandle<Ref<T>> : std::true_type {
  using Object = T;
};
template <typename T>
struct IsBorrowedHandle : std::false_type {};
template <typename T>
struct IsBorrowedHandle<Borrowed<T>> : std::true_type {
  using Object = T;
};

// Reads arguments left to right from a flattened Variant span.
class ArgumentReader : public ReaderBase {
 public:
  ArgumentReader(std::span<const Variant> args, std::string_view function)
      : ReaderBase(function), args_(args) {}

  // Span counts are inline arguments here: nothing to track.
  void NextSegment() {}

  bool Done() {
    return position_ == args_.size() || Fail(ReadFailure::Kind::kExtra);
  }

  template <typename T>
  bool Read(T& out) {
    if constexpr (std::is_same_v<T, int32_t>) {
      return ReadValue(ValueType::kI32, [&](const Value& v) { out = v.i32(); });
    } else if constexpr (std::is_same_v<T, int64_t>) {
      return ReadValue(ValueType::kI64, [&](const Value& v) { out = v.i64(); });
    } else if constexpr (std::is_same_v<T, float>) {
      return ReadValue(ValueType::kF32, [&](const Value& v) { out = v.f32(); });
    } else if constexpr (std::is_same_v<T, double>) {
      return ReadValue(ValueType::kF64, [&](const Value& v) { out = v.f64(); });
    } else if constexpr (std::is_same_v<T, VmRef>) {
      const Variant* variant = Next();
      if (variant == nullptr) [[unlikely]]
        return Fail(ReadFailure::Kind::kMissing);
      if (variant->is_value()) [[unlikely]]
        return Fail(ReadFailure::Kind::kRefGotValue);
      out = variant->ref();
      return true;
    } else if constexpr (IsRefHandle<T>::value) {
      typename IsRefHandle<T>::Object* object = nullptr;
      if (!NextTypedRef(object)) return false;
      out = Ref<typename IsRefHandle<T>::Object>::Retain(object);
      return true;
    } else {
      static_assert(IsBorrowedHandle<T>::value, "an unsupported parameter");
      // The Variants outlive the call: borrow.
      typename IsBorrowedHandle<T>::Object* object = nullptr;
      if (!NextTypedRef(object)) return false;
      out.Borrow(object);
      return true;
    }
  }

  // The element count of the span that starts here, each element taking
  // `width` arguments: an inline i32 argument, checked against what is left.
  bool SpanCount(size_t width, size_t& count) {
    int32_t value = 0;
    if (!Read(value)) return false;
    if (value < 0 || static_cast<size_t>(value) >
                         (args_.size() - position_) / width) [[unlikely]] {
      return FailSpanCount(value);
    }
    count = static_cast<size_t>(value);
    return true;
  }

 private:
  const Variant* Next() {
    return position_ < args_.size() ? &args_[position_++] : nullptr;
  }
  // The next argument as a T (null for a null ref), its type checked.
  template <typename T>
  bool NextTypedRef(T*& out) {
    const Variant* variant = Next();
    if (variant == nullptr) [[unlikely]]
      return Fail(ReadFailure::Kind::kMissing);
    if (variant->is_value()) [[unlikely]]
      return Fail(ReadFailure::Kind::kRefGotValue);
    if (variant->is_empty()) {
      out = nullptr;
      return true;
    }
    const RefType& type = RefTypeTraits<T>::type();
    if (!variant->ref().Is(type)) [[unlikely]]
      return FailRefType(type.name());
    out = static_cast<T*>(variant->ref().get());
    return true;
  }
  template <typename Store>
  bool ReadValue(ValueType type, Store&& store) {
    const Variant* variant = Next();
    if (variant == nullptr) [[unlikely]]
      return Fail(ReadFailure::Kind::kMissing);
    if (!variant->is_value() || variant->value().type() != type) [[unlikely]]
      return FailValueType(type);
    store(variant->value());
    return true;
  }

  std::span<const Variant> args_;
};

// Reads arguments left to right from the caller's registers (module.h's
// RegisterCall), with the same checks and messages as ArgumentReader.
class RegisterReader : public ReaderBase {
 public:
  RegisterReader(const RegisterCall& call, std::string_view function)
      : ReaderBase(function), call_(call) {}

  bool Done() {
    return position_ == call_.argument_count || Fail(ReadFailure::Kind::kExtra);
  }

  template <typename T>
  [[gnu::always_inline]] bool Read(T& out) {
    if (position_ >= call_.argument_count) [[unlikely]]
      return Fail(ReadFailure::Kind::kMissing);
    const uint16_t reg = call_.argument(position_++);
    if constexpr (IsBorrowedHandle<T>::value) {
      if (!(reg & RegisterCall::kRefBit)) [[unlikely]]
        return Fail(ReadFailure::Kind::kRefGotValue);
      VmRef& slot = call_.refs[reg & RegisterCall::kRefOrdinalMask];
      using Object = typename IsBorrowedHandle<T>::Object;
      if (slot.is_null()) {
        out.Borrow(nullptr);
      } else if (!slot.Is(RefTypeTraits<Object>::type())) [[unlikely]] {
        return FailRefType(RefTypeTraits<Object>::type().name());
      } else if (reg & RegisterCall::kMoveBit) {
        out.Own(slot.template TakeAs<Object>());
      } else {
        out.Borrow(static_cast<Object*>(slot.get()));
      }
    } else if constexpr (std::is_same_v<T, VmRef> || IsRefHandle<T>::value) {
      if (!(reg & RegisterCall::kRefBit)) [[unlikely]]
        return Fail(ReadFailure::Kind::kRefGotValue);
      VmRef& slot = call_.refs[reg & RegisterCall::kRefOrdinalMask];
      if constexpr (std::is_same_v<T, VmRef>) {
        out = (reg & RegisterCall::kMoveBit) ? slot.Take() : slot;
      } else {
        using Object = typename IsRefHandle<T>::Object;
        if (slot.is_null()) {
          out.reset();
        } else if (!slot.Is(RefTypeTraits<Object>::type())) [[unlikely]] {
          return FailRefType(RefTypeTraits<Object>::type().name());
        } else if (reg & RegisterCall::kMoveBit) {
          out = slot.template TakeAs<Object>();
        } else {
          out = slot.template RetainAs<Object>();
        }
      }
    } else {
      if (reg & RegisterCall::kRefBit) [[unlikely]]
        return Fail(ReadFailure::Kind::kValueGotRef);
      if constexpr (sizeof(T) == 4) {
        out = std::bit_cast<T>(call_.i32[reg]);
      } else {
        out =
            std::bit_cast<T>(static_cast<uint64_t>(call_.i32[reg]) |
                             (static_cast<uint64_t>(call_.i32[reg + 1]) << 32));
      }
    }
    return true;
  }

  // As ArgumentReader::SpanCount; the count is this argument's segment
  // size.
  bool SpanCount(size_t width, size_t& count) {
    if (call_.segment_sizes == nullptr || segment_ >= call_.segment_count)
        [[unlikely]] {
      return Fail(ReadFailure::Kind::kSpanWithoutSegment);
    }
    const int32_t value = static_cast<int16_t>(call_.segment_size(segment_));
    if (value < 0 ||
        static_cast<size_t>(value) > (call_.argument_count - position_) / width)
        [[unlikely]] {
      return FailSpanCount(value);
    }
    count = static_cast<size_t>(value);
    return true;
  }

  // Called once per top-level cconv argument, after it is read.
  void NextSegment() { ++segment_; }

  // Writes result `index` into its register.
  template <typename T>
  Status Write(size_t index, T&& value) {
    using V = std::remove_cvref_t<T>;
    const uint16_t reg = call_.result(index);
    if constexpr (std::is_same_v<V, VmRef> || IsRefHandle<V>::value) {
      if (!(reg & RegisterCall::kRefBit)) [[unlikely]]
        return ResultMismatch("a ref result in a value register");
      VmRef& slot = call_.refs[reg & RegisterCall::kRefOrdinalMask];
      if constexpr (std::is_same_v<V, VmRef>) {
        slot = std::move(value);
      } else if (value) {
        slot = VmRef::Of(std::move(value));
      } else {
        slot.reset();
      }
    } else {
      if (reg & RegisterCall::kRefBit) [[unlikely]]
        return ResultMismatch("a value result in a ref register");
      if constexpr (sizeof(V) == 4) {
        call_.i32[reg] = std::bit_cast<uint32_t>(value);
      } else {
        const uint64_t bits = std::bit_cast<uint64_t>(value);
        call_.i32[reg] = static_cast<uint32_t>(bits);
        call_.i32[reg + 1] = static_cast<uint32_t>(bits >> 32);
      }
    }
    return Status();
  }

 private:
  [[gnu::cold, gnu::noinline]] Status ResultMismatch(const char* what) const {
    return InvalidArgumentError("call to '" + std::string(function_) +
                                "': argument " + std::to_string(position_) +
                                ": " + what);
  }

  const RegisterCall& call_;
  size_t segment_ = 0;
};

template <typename T>
Variant Box(T value) {
  if constexpr (std::is_same_v<T, int32_t>) {
    return Variant(Value::I32(value));
  } else if constexpr (std::is_same_v<T, int64_t>) {
    return Variant(Value::I64(value));
  } else if constexpr (std::is_same_v<T, float>) {
    return Variant(Value::F32(value));
  } else if constexpr (std::is_same_v<T, double>) {
    return Variant(Value::F64(value));
  } else if constexpr (std::is_same_v<T, VmRef>) {
    return Variant(std::move(value));
  } else {
    // Ref<T>
    return value ? Variant(VmRef::Of(std::move(value))) : Variant();
  }
}

template <typename T>
struct SpanStorage {
  using Type = std::monostate;
};
template <typename... Ts>
struct SpanStorage<std::span<const std::tuple<Ts...>>> {
  using Type = SpanBuffer<std::tuple<Ts...>>;
};

// Reads a span argument's tuples with `reader` into `storage`; false (the
// failure recorded in `reader`) when one cannot be read.
template <typename Reader, typename... Ts>
bool ReadSpan(Reader& reader, SpanBuffer<std::tuple<Ts...>>& storage,
              std::span<const std::tuple<Ts...>>& out) {
  size_t count = 0;
  if (!reader.SpanCount(sizeof...(Ts), count)) return false;
  using Tuple = std::tuple<Ts...>;
  auto read = [&](Tuple& tuple) {
    return std::apply(
        [&](auto&... fields) { return (reader.Read(fields) && ...); }, tuple);
  };
  if (count <= SpanBuffer<Tuple>::kInline) {
    // The usual case: straight into the inline storage.
    Tuple* data = storage.InlineStorage();
    for (size_t i = 0; i < count; ++i) {
      Tuple& tuple = *::new (static_cast<void*>(data + i)) Tuple();
      storage.InlineConstructed();
      if (!read(tuple)) [[unlikely]]
        return false;
    }
    out = std::span<const Tuple>(data, count);
    return true;
  }
  storage.ReserveHeap(count);
  for (size_t i = 0; i < count; ++i) {
    if (!read(storage.EmplaceHeap())) [[unlikely]]
      return false;
  }
  out = storage.elements();
  return true;
}

// Reads the arguments of `Fn` with `reader` (ArgumentReader or
// RegisterReader), calls it, and hands each result to `emit(index, value)`.
template <auto Fn, typename Reader, typename Emit>
Status ReadCallEmit(typename Signature<decltype(Fn)>::StateType& state,
                    Reader& reader, Emit&& emit) {
  using Sig = Signature<decltype(Fn)>;
  using Args = typename Sig::ArgTuple;
  using Results = typename Sig::ResultTuple;
  constexpr size_t kResultCount = std::tuple_size_v<Results>;
  Args values{};
  // Storage for the tuples behind any span parameters.
  auto storage = []<size_t... I>(std::index_sequence<I...>) {
    return std::tuple<
        typename SpanStorage<std::tuple_element_t<I, Args>>::Type...>{};
  }
  (std::make_index_sequence<std::tuple_size_v<Args>>());
  const bool read = [&]<size_t... I>(std::index_sequence<I...>) {
    return ([&] {
      using T = std::tuple_element_t<I, Args>;
      bool ok;
      if constexpr (std::is_same_v<typename SpanStorage<T>::Type,
                                   std::monostate>) {
        ok = reader.Read(std::get<I>(values));
      } else {
        ok = ReadSpan(reader, std::get<I>(storage), std::get<I>(values));
      }
      reader.NextSegment();
      return ok;
    }() && ... &&
            reader.Done());
  }
  (std::make_index_sequence<std::tuple_size_v<Args>>());
  if (!read) [[unlikely]]
    return reader.Error();

  auto invoke = [&](auto&&... unpacked) {
    return Fn(state, std::forward<decltype(unpacked)>(unpacked)...);
  };
  if constexpr (std::is_same_v<typename Sig::ReturnType, Status>) {
    return std::apply(invoke, std::move(values));
  } else {
    auto result = std::apply(invoke, std::move(values));
    if (!result.ok()) return std::move(result).status();
    if constexpr (!ResultTypes<typename Sig::ReturnType>::kUnpack) {
      return emit(size_t{0}, std::move(result).value());
    } else {
      Status status;
      auto tuple = std::move(result).value();
      [&]<size_t... I>(std::index_sequence<I...>) {
        ((status.ok() ? (void)(status = emit(I, std::move(std::get<I>(tuple))))
                      : (void)0),
         ...);
      }
      (std::make_index_sequence<kResultCount>());
      return status;
    }
  }
}

template <auto Fn>
constexpr size_t kResultCountOf =
    std::tuple_size_v<typename Signature<decltype(Fn)>::ResultTuple>;

[[gnu::cold, gnu::noinline]] inline Status ResultCountMismatch(
    std::string_view name, size_t expected, size_t given, const char* what) {
  return InvalidArgumentError("call to '" + std::string(name) + "': expected " +
                              std::to_string(expected) + " " + what + ", got " +
                              std::to_string(given));
}

// Unboxes the arguments of `Fn`, calls it, and boxes its results.
template <auto Fn>
Status Invoke(typename Signature<decltype(Fn)>::StateType& state,
              std::string_view name, std::span<const Variant> args,
              std::span<Variant> results) {
  if (results.size() != kResultCountOf<Fn>) {
    return ResultCountMismatch(name, kResultCountOf<Fn>, results.size(),
                               "result slots");
  }
  ArgumentReader reader(args, name);
  return ReadCallEmit<Fn>(state, reader, [&](size_t i, auto&& value) {
    results[i] = Box(std::forward<decltype(value)>(value));
    return Status();
  });
}

// The register-call twin of Invoke: reads the arguments of `Fn` from the
// caller's registers, calls it, and writes its results into them.
template <auto Fn>
Status InvokeRegisters(typename Signature<decltype(Fn)>::StateType& state,
                       std::string_view name, const RegisterCall& call) {
  if (call.result_count != kResultCountOf<Fn>) [[unlikely]] {
    return ResultCountMismatch(name, kResultCountOf<Fn>, call.result_count,
                               "result registers");
  }
  RegisterReader reader(call, name);
  return ReadCallEmit<Fn>(state, reader, [&](size_t i, auto&& value) {
    return reader.Write(i, std::forward<decltype(value)>(value));
  });
}

// InvokeRegisters<Fn> for a caller that holds the state as a ModuleState
// (Module::RegisterCallTarget).
template <auto Fn>
Status InvokeRegistersErased(ModuleState& state, std::string_view name,
                             const RegisterCall& call) {
  using State = typename Signature<decltype(Fn)>::StateType;
  return InvokeRegisters<Fn>(static_cast<State&>(state), name, call);
}

}  // namespace native_internal

// One export of a NativeModule<State>.
template <typename State>
struct NativeExport {
  std::string_view name;
  std::string_view calling_convention;
  Status (*call)(State& state, std::string_view name,
                 std::span<const Variant> args, std::span<Variant> results);
  Status (*call_registers)(State& state, std::string_view name,
                           const RegisterCall& call);
  Status (*call_registers_erased)(ModuleState& state, std::string_view name,
                                  const RegisterCall& call);
};

// Declares an export; fails to compile when `Cconv` is not the calling
// convention of `Fn`'s C++ signature.
template <FixedString Name, FixedString Cconv, auto Fn>
constexpr auto Export() {
  using Sig = native_internal::Signature<decltype(Fn)>;
  static_assert(CheckCallingConventionSyntax(Cconv.view()).ok(),
                "declared cconv is malformed (calling_convention.h)");
  static_assert(native_internal::SameText(Sig::cconv, Cconv.view()),
                "declared cconv does not match the C++ signature");
  using State = typename Sig::StateType;
  return NativeExport<State>{Name.view(), Cconv.view(),
                             &native_internal::Invoke<Fn>,
                             &native_internal::InvokeRegisters<Fn>,
                             &native_internal::InvokeRegistersErased<Fn>};
}

// A module whose exports are C++ functions over a per-context `State`.
// `make_state` builds a State for each Context. `ref_types` are the ref types
// the module introduces (static descriptors; see the top of the file).
// Native modules import nothing.
template <typename State>
class NativeModule : public Module {
  static_assert(std::is_base_of_v<ModuleState, State>,
                "a native module's state derives from ModuleState");

 public:
  using StateFactory =
      std::function<Result<std::unique_ptr<State>>(Context& context)>;

  NativeModule(std::string name, uint32_t version,
               std::vector<NativeExport<State>> exports,
               StateFactory make_state,
               std::vector<const RefType*> ref_types = {})
      : name_(std::move(name)),
        version_(version),
        exports_(std::move(exports)),
        make_state_(std::move(make_state)),
        ref_types_(std::move(ref_types)) {}

  std::span<const RefType* const> ref_types() const { return ref_types_; }

  // Registers ref_types() with `instance`, which must not be frozen yet
  // (FAILED_PRECONDITION otherwise, naming the type). Registering again is a
  // no-op; a type whose name another descriptor holds is ALREADY_EXISTS.
  Status RegisterTypes(Instance& instance) const {
    for (const RefType* type : ref_types_) {
      EMBER_RETURN_IF_ERROR(instance.RegisterType(*type),
                            "registering the types of native module '%s'",
                            name_.c_str());
    }
    return Status();
  }

  std::string_view name() const override { return name_; }
  uint32_t version() const override { return version_; }
  std::span<const ModuleDependency> dependencies() const override { return {}; }
  size_t export_count() const override { return exports_.size(); }
  ExportInfo export_info(size_t i) const override {
    return ExportInfo{exports_[i].name, exports_[i].calling_convention, {}};
  }
  size_t import_count() const override { return 0; }
  ImportInfo import_info(size_t) const override { return {}; }

  Result<std::unique_ptr<ModuleState>> CreateState(Context& context) override {
    EMBER_ASSIGN_OR_RETURN(std::unique_ptr<State> state, make_state_(context));
    return std::unique_ptr<ModuleState>(std::move(state));
  }
  Status ResolveImport(ModuleState&, size_t import_ordinal,
                       const Function&) override {
    return InvalidArgumentError("native module '" + name_ + "' has no import " +
                                std::to_string(import_ordinal));
  }
  Status Call(Context&, ModuleState& state, const Function& function,
              std::span<const Variant> args,
              std::span<Variant> results) override {
    if (function.linkage != FunctionLinkage::kExport ||
        function.ordinal >= exports_.size()) {
      return NotFoundError("native module '" + name_ + "' has no function #" +
                           std::to_string(function.ordinal));
    }
    const NativeExport<State>& entry = exports_[function.ordinal];
    if (trace::Enabled()) [[unlikely]] {
      return CallTraced(entry, [&] {
        return entry.call(static_cast<State&>(state), entry.name, args,
                          results);
      });
    }
    return entry.call(static_cast<State&>(state), entry.name, args, results);
  }
  bool SupportsRegisterCalls() const override { return true; }
  Status CallWithRegisters(Context&, ModuleState& state,
                           const Function& function,
                           const RegisterCall& call) override {
    if (function.linkage != FunctionLinkage::kExport ||
        function.ordinal >= exports_.size()) [[unlikely]] {
      return NotFoundError("native module '" + name_ + "' has no function #" +
                           std::to_string(function.ordinal));
    }
    const NativeExport<State>& entry = exports_[function.ordinal];
    if (trace::Enabled()) [[unlikely]] {
      return CallTraced(entry, [&] {
        return entry.call_registers(static_cast<State&>(state), entry.name,
                                    call);
      });
    }
    return entry.call_registers(static_cast<State&>(state), entry.name, call);
  }

  RegisterCallTarget ResolveRegisterCall(
      const Function& function) const override {
    if (function.linkage != FunctionLinkage::kExport ||
        function.ordinal >= exports_.size()) {
      return {};
    }
    const NativeExport<State>& entry = exports_[function.ordinal];
    return {entry.call_registers_erased, entry.name};
  }

 private:
  // A call recorded as a trace slice "module.function"; out of line so an
  // untraced call pays only the Enabled() check.
  template <typename Callee>
  [[gnu::cold, gnu::noinline]] Status CallTraced(
      const NativeExport<State>& entry, const Callee& callee) const {
    const uint64_t trace_begin = trace::BeginNs();
    Status status = callee();
    trace::CompleteQualified(trace::Category::kNative, name_, entry.name,
                             trace_begin);
    return status;
  }

  std::string name_;
  uint32_t version_;
  std::vector<NativeExport<State>> exports_;
  StateFactory make_state_;
  std::vector<const RefType*> ref_types_;
};

}  // namespace ember::vm
