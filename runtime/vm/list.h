// List: the VM's `vm.list`, a growable, ref-counted array, and Variant, the
// "value or ref" element of untyped lists.
//
// Programs use lists for everything of variable arity: function arguments
// and results as hosts see them, the HAL's binding tables, lists of lists.
// The element type fixes how a list stores its elements:
//   * a value type (i8..f64): packed primitives. Values are converted on the
//     way in and out with IREE's rules (value.h), so a list<i8> can be read
//     with ListGetI32 and a host may set an i64 into a list<i32>;
//   * a ref type: refs of exactly that type (or null);
//   * any ref: refs of any type (only hosts make these);
//   * any (`!vm.opaque`, a "variant" list): each element carries its own
//     type -- a value, a ref, or empty.
// New slots (from Resize) are zero or null; shrinking, Clear and destruction
// release the refs that fall off.
//
// Semantics follow IREE's list.c; the few deliberate differences are noted
// where they occur. Errors: OUT_OF_RANGE for an index >= size(),
// FAILED_PRECONDITION for a value operation on a ref list (or on a variant
// element holding a ref) and vice versa, INVALID_ARGUMENT for a ref of the
// wrong type, RESOURCE_EXHAUSTED when a requested capacity is beyond the
// limits below -- a hostile count fails cleanly instead of allocating.
//
// Thread safety: the count is atomic; the contents are not synchronised. A
// list is used by one thread at a time, like the context that made it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <limits>

#include "runtime/base/ref_counted.h"
#include "runtime/base/status.h"
#include "runtime/vm/ref.h"
#include "runtime/vm/value.h"

namespace ember::vm {

// A value, a (non-null) ref, or nothing. A null ref and a kNone value both
// make an empty variant, as in IREE, where a variant's type comes from its
// ref's type.
class Variant {
 public:
  Variant() = default;
  Variant(Value value) : value_(value) {}
  Variant(VmRef ref) : ref_(std::move(ref)) {}

  bool is_empty() const { return value_.is_none() && ref_.is_null(); }
  bool is_value() const { return !value_.is_none(); }
  bool is_ref() const { return !ref_.is_null(); }

  // A kNone value unless is_value().
  const Value& value() const { return value_; }
  // A null ref unless is_ref().
  const VmRef& ref() const { return ref_; }
  // Moves the ref out; the variant becomes empty if it held a ref.
  VmRef TakeRef() { return ref_.Take(); }

  // OfValue, OfRef, or Any when empty.
  TypeDef type() const;

 private:
  Value value_;
  VmRef ref_;
};

class List final : public RefCounted {
 public:
  // The `vm.list` descriptor (every `!vm.list<...>` in a module).
  // Inline, so that a type check is a compare, not a call (every ref
  // argument of every native call is checked).
  static const RefType& Type() {
    static constexpr RefType type("vm.list");
    return type;
  }

  // Limits on what one list may hold. Sizes travel through the VM as i32, so
  // no list exceeds INT32_MAX elements; and no list's storage exceeds
  // kMaxStorageBytes.
  static constexpr size_t kMaxCapacity = std::numeric_limits<int32_t>::max();
  static constexpr uint64_t kMaxStorageBytes = uint64_t{1} << 30;

  // An empty list of `element_type` with room for `initial_capacity`.
  // A TypeDef of value type kNone is INVALID_ARGUMENT.
  static Result<Ref<List>> Create(TypeDef element_type,
                                  size_t initial_capacity);

  // A new list of the same type and size; refs are shared (retained), not
  // deep-copied.
  Result<Ref<List>> Clone() const;

  const TypeDef& element_type() const { return element_type_; }
  size_t size() const { return size_; }
  size_t capacity() const { return capacity_; }

  // Grows capacity to at least `minimum_capacity` (never shrinks).
  Status Reserve(size_t minimum_capacity);
  // Grows with zero/null slots or shrinks, releasing dropped refs.
  Status Resize(size_t new_size);
  // Resize(0).
  void Clear();

  // The element as stored: the list's value type, or a variant element's own
  // type.
  Result<Value> GetValue(size_t index) const;
  // The element converted to `type` (how ListGetI32/I64 and the F32/F64
  // variants read).
  Result<Value> GetValueAs(size_t index, ValueType type) const;
  // Stores `value`, converted to the element type in a value list, as is in
  // a variant list (releasing a ref held there).
  Status SetValue(size_t index, Value value);
  // Appends; on failure the list is unchanged (IREE grows it first).
  Status PushValue(Value value);

  // Inline fast paths for the interpreter. Each succeeds only in the common
  // case -- a value list whose element type is exactly `type`, and an index
  // below size() -- and returns false without touching anything otherwise;
  // the caller then takes the general path above (conversions, variant
  // elements, errors). T is the C++ type of `type` (int32_t, float, ...).
  template <typename T>
  bool TryGetExact(size_t index, ValueType type, T& out) const {
    if (exact_value_type_ != type || index >= size_) return false;
    std::memcpy(&out, static_cast<const uint8_t*>(storage_) + index * sizeof(T),
                sizeof(T));
    return true;
  }
  template <typename T>
  bool TrySetExact(size_t index, ValueType type, T value) {
    if (exact_value_type_ != type || index >= size_) return false;
    std::memcpy(static_cast<uint8_t*>(storage_) + index * sizeof(T), &value,
                sizeof(T));
    return true;
  }
  // Resize within the current capacity that only grows (or keeps) the size:
  // slots past size() are already zero/null, so only the size moves.
  bool TryGrowInPlace(size_t new_size) {
    if (new_size < size_ || new_size > capacity_) return false;
    size_ = new_size;
    return true;
  }

  // The ref at `index` with a reference of the caller's own. An empty
  // variant element reads as null.
  Result<VmRef> GetRef(size_t index) const;
  // Moves the ref out, leaving null (or an empty variant) behind.
  Result<VmRef> TakeRef(size_t index);
  // vm.list.get.ref (IREE dispatch.c, ListGetRef): like GetRef, but a
  // non-null ref whose type is not exactly `type` reads as null. As in IREE,
  // a value or Any `type` therefore turns every non-null ref into null; an
  // AnyRef `type` (host-only) accepts every ref.
  Result<VmRef> GetRefOfType(size_t index, const TypeDef& type) const;
  // The MOVE form of the above: the element is moved out of the list even
  // when the result is then dropped for its type, as IREE does.
  Result<VmRef> TakeRefOfType(size_t index, const TypeDef& type);
  // Stores a ref: the const& form retains, the && form moves -- and leaves
  // `ref` untouched if the store fails.
  Status SetRef(size_t index, const VmRef& ref);
  Status SetRef(size_t index, VmRef&& ref);
  // Appends; on failure the list is unchanged.
  Status PushRef(const VmRef& ref);
  Status PushRef(VmRef&& ref);

  // Any element as a variant: values of a value list carry its type; a null
  // ref reads as empty.
  Result<Variant> GetVariant(size_t index) const;
  // Stores a value with SetValue and a ref with SetRef. An empty variant
  // stores null in a ref or variant list (IREE returns UNIMPLEMENTED) and is
  // FAILED_PRECONDITION in a value list.
  Status SetVariant(size_t index, Variant variant);
  // Appends; on failure the list is unchanged.
  Status PushVariant(Variant variant);

  // Construction goes through Create; the key keeps the constructor public
  // for MakeRef yet unusable elsewhere.
  class ConstructionKey {
    friend class List;
    ConstructionKey() = default;
  };
  List(ConstructionKey, TypeDef element_type);

 private:
  enum class StorageMode : uint8_t { kValue, kRef, kVariant };

  // Only the last Ref may destroy a list.
  ~List() override;

  size_t CapacityLimit() const;
  Status CheckIndex(size_t index) const;
  // Status of storing `ref` / `variant` anywhere in this list.
  Status CheckStorable(const VmRef& ref) const;
  Status CheckStorable(const Variant& variant) const;
  // Sets slots [begin, end) to zero/null, releasing refs.
  void ResetRange(size_t begin, size_t end);
  Result<VmRef> GetRefImpl(size_t index, bool take);
  Status SetRefImpl(size_t index, const VmRef* retained, VmRef* moved);

  uint8_t* value_slot(size_t index) const {
    return static_cast<uint8_t*>(storage_) + index * slot_size_;
  }
  VmRef* ref_slots() const { return static_cast<VmRef*>(storage_); }
  Variant* variant_slots() const { return static_cast<Variant*>(storage_); }

  TypeDef element_type_;
  // The value type of a value list; kNone for ref and variant lists.
  ValueType exact_value_type_ = ValueType::kNone;
  StorageMode mode_;
  size_t slot_size_;
  size_t size_ = 0;
  size_t capacity_ = 0;
  // capacity_ slots, all constructed; those at and past size_ are zero/null.
  void* storage_ = nullptr;
};

}  // namespace ember::vm
