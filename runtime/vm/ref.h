// VM references: the typed handles held in ref registers, globals and lists.
//
// A program manipulates objects it cannot see into -- vm.buffer, vm.list,
// hal.buffer_view, hal.fence, ... -- and the VM must check at run time that a
// handle is of the type an instruction or import expects. So a VmRef is two
// words: an owning pointer to a RefCounted object and the RefType that says
// what the object is. The VM never downcasts without comparing the type first.
//
// A RefType is a descriptor with static storage duration, defined once by the
// layer that owns the C++ type (vm.buffer and vm.list here; the HAL types by
// the hal module, which bridges the HAL to the VM). Its address is its
// identity. Because descriptors are global, a VmRef made under one Instance
// means the same thing under any other. A descriptor is constant-initialized
// (its constructor is constexpr), so a function-local static one needs no
// guard and the type check of a ref is one compare against an address the
// linker knows.
//
// The TypeRegistry answers the loader's question "which RefType does the
// module's type name `!hal.buffer` mean?". An Instance owns one; vm.buffer and
// vm.list are registered when it is made, other layers register theirs during
// start-up, and then it is frozen. A module naming an unregistered type fails
// to load.
//
// Which RefType a C++ type travels as is a trait, RefTypeTraits<T>, not a
// member of T: the HAL's buffer must not know the VM exists, so the module
// that bridges the two says "hal::Buffer is !hal.buffer" by specialising the
// trait. A type that does know the VM (vm.buffer, vm.list) may instead name
// its descriptor as `static const RefType& Type()`, which the unspecialised
// trait forwards to. Like any trait, a specialisation must be visible before
// the first use of the type with VmRef or a native module, so a bridge
// declares it in the header that users of its refs include.
//
// A TypeDef is what a module's type table entry resolves to: a value type, a
// specific ref type, any ref, or "any" (`!vm.opaque`: anything at all). It is
// the element type of a list and the type operand of typed ref instructions.
//
// Thread safety: VmRef is a value type whose copies count atomically.
// A TypeRegistry is single-threaded until Freeze(); afterwards it is read-only
// and may be shared freely.
#pragma once

#include <concepts>
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "runtime/base/ref_counted.h"
#include "runtime/base/status.h"
#include "runtime/vm/value.h"

namespace ember::vm {

class RefType {
 public:
  // `name` is the module-visible name without the `!`, e.g. "hal.buffer";
  // it is not copied, so it must outlive the descriptor (a string literal).
  // Define each RefType once, as a function-local static.
  constexpr explicit RefType(std::string_view name) : name_(name) {}
  RefType(const RefType&) = delete;
  RefType& operator=(const RefType&) = delete;

  constexpr std::string_view name() const { return name_; }

 private:
  std::string_view name_;
};

// The descriptor C++ type T travels as in a VmRef. Specialise it for a type
// that cannot name its own (see the top of the file):
//
//   template <>
//   struct ember::vm::RefTypeTraits<hal::Buffer> {
//     static const RefType& type();
//   };
template <typename T>
struct RefTypeTraits {
  static const RefType& type() requires requires {
    { T::Type() } -> std::same_as<const RefType&>;
  }
  { return T::Type(); }
};

// Whether T has a RefType, by either route.
template <typename T>
concept HasRefType = requires {
  { RefTypeTraits<T>::type() } -> std::same_as<const RefType&>;
};

class TypeDef {
 public:
  enum class Kind : uint8_t {
    kAny,     // `!vm.opaque`: a value or a ref of any type (variant lists)
    kValue,   // a primitive ValueType
    kRef,     // a ref of one specific RefType
    kAnyRef,  // a ref of any type (host-made lists; never from bytecode)
  };

  constexpr TypeDef() = default;  // kAny
  static constexpr TypeDef Any() { return TypeDef(); }
  static constexpr TypeDef OfValue(ValueType type) {
    return TypeDef(Kind::kValue, type, nullptr);
  }
  static constexpr TypeDef OfRef(const RefType& type) {
    return TypeDef(Kind::kRef, ValueType::kNone, &type);
  }
  static constexpr TypeDef AnyRef() {
    return TypeDef(Kind::kAnyRef, ValueType::kNone, nullptr);
  }

  constexpr Kind kind() const { return kind_; }
  constexpr bool is_any() const { return kind_ == Kind::kAny; }
  constexpr bool is_value() const { return kind_ == Kind::kValue; }
  constexpr bool is_ref() const { return kind_ == Kind::kRef; }
  constexpr bool is_any_ref() const { return kind_ == Kind::kAnyRef; }
  // kNone unless is_value().
  constexpr ValueType value_type() const { return value_type_; }
  // Null unless is_ref().
  constexpr const RefType* ref_type() const { return ref_type_; }

  // "i32", "hal.buffer", "?" (any ref), "any".
  std::string ToString() const;

  friend constexpr bool operator==(const TypeDef&, const TypeDef&) = default;

 private:
  constexpr TypeDef(Kind kind, ValueType value_type, const RefType* ref_type)
      : kind_(kind), value_type_(value_type), ref_type_(ref_type) {}

  Kind kind_ = Kind::kAny;
  ValueType value_type_ = ValueType::kNone;
  const RefType* ref_type_ = nullptr;
};

class VmRef {
 public:
  VmRef() = default;  // null
  // A null `object` makes a null ref whatever `type` says: a null ref has no
  // type, as in IREE.
  VmRef(Ref<RefCounted> object, const RefType& type)
      : object_(std::move(object)), type_(object_ ? &type : nullptr) {}

  VmRef(const VmRef&) = default;
  VmRef& operator=(const VmRef&) = default;
  // A moved-from ref is null, type included.
  VmRef(VmRef&& other) noexcept
      : object_(std::move(other.object_)),
        type_(std::exchange(other.type_, nullptr)) {}
  VmRef& operator=(VmRef&& other) noexcept {
    object_ = std::move(other.object_);
    type_ = std::exchange(other.type_, nullptr);
    return *this;
  }

  // A ref of `object` typed by RefTypeTraits<T>.
  template <HasRefType T>
  static VmRef Of(Ref<T> object) {
    return VmRef(Ref<RefCounted>(std::move(object)), RefTypeTraits<T>::type());
  }

  bool is_null() const { return type_ == nullptr; }
  explicit operator bool() const { return !is_null(); }
  // Null for a null ref.
  const RefType* type() const { return type_; }
  RefCounted* get() const { return object_.get(); }
  bool Is(const RefType& type) const { return type_ == &type; }

  // The object as a T when the ref has `type`; null otherwise (a null ref, or
  // another type). `type` must be T's descriptor.
  template <typename T>
  T* As(const RefType& type) const {
    return Is(type) ? static_cast<T*>(object_.get()) : nullptr;
  }
  template <HasRefType T>
  T* As() const {
    return As<T>(RefTypeTraits<T>::type());
  }
  // As() plus a reference of the caller's own.
  template <HasRefType T>
  Ref<T> RetainAs() const {
    return Ref<T>::Retain(As<T>());
  }

  // Moves the object out as a Ref<T> when the ref has T's type (this ref
  // becomes null); null otherwise, leaving this ref as it was.
  template <HasRefType T>
  Ref<T> TakeAs() {
    if (!Is(RefTypeTraits<T>::type())) return Ref<T>();
    type_ = nullptr;
    return Ref<T>::Adopt(static_cast<T*>(object_.release()));
  }

  void reset() {
    object_.reset();
    type_ = nullptr;
  }
  // Moves the ref out, leaving this one null (a register MOVE).
  VmRef Take() { return std::exchange(*this, VmRef()); }

  // Same object (and so the same type).
  friend bool operator==(const VmRef& a, const VmRef& b) {
    return a.object_.get() == b.object_.get();
  }

 private:
  Ref<RefCounted> object_;
  const RefType* type_ = nullptr;
};

// Whether a ref of `ref`'s type may be stored where `type` is expected:
// null always may; otherwise `type` must be any, any-ref, or that ref type.
bool TypeAcceptsRef(const TypeDef& type, const VmRef& ref);

class TypeRegistry {
 public:
  // Registers the builtin vm.buffer and vm.list.
  TypeRegistry();
  TypeRegistry(const TypeRegistry&) = delete;
  TypeRegistry& operator=(const TypeRegistry&) = delete;

  // Adds `type`, which must outlive the registry (a static). Registering the
  // same descriptor again is a no-op; another descriptor with a taken name is
  // ALREADY_EXISTS; after Freeze() it is FAILED_PRECONDITION.
  Status Register(const RefType& type);

  // Ends registration; the registry is read-only from here on.
  void Freeze() { frozen_ = true; }
  bool frozen() const { return frozen_; }

  // The type registered under `name` ("hal.buffer", no `!`), or null.
  const RefType* Lookup(std::string_view name) const;

  // Resolves a module type-table name with IREE's rules (bytecode
  // module.c, iree_vm_bytecode_module_resolve_type): "i8".."f64" are values,
  // "!vm.opaque" is Any, any "!vm.list..." is vm.list, other "!name"s are
  // looked up. An unknown name is NOT_FOUND; an empty one INVALID_ARGUMENT.
  Result<TypeDef> ResolveModuleTypeName(std::string_view full_name) const;

  const std::vector<const RefType*>& types() const { return types_; }

 private:
  std::vector<const RefType*> types_;
  bool frozen_ = false;
};

}  // namespace ember::vm
