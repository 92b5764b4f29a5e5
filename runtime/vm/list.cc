#include "runtime/vm/list.h"

#include <algorithm>
#include <bit>
#include <cstdlib>
#include <cstring>
#include <memory>

namespace ember::vm {

static_assert(std::endian::native == std::endian::little,
              "value slots are read as the low bytes of a 64-bit word");

namespace {

// Capacities grow in steps of this many elements (as IREE's do), so pushing
// one element at a time reallocates rarely.
constexpr size_t kCapacityGranule = 64;

Status IndexOutOfRange(size_t index, size_t size) {
  return MakeStatus(StatusCode::kOutOfRange,
                    "list index %zu out of bounds (size %zu)", index, size);
}

Status ListCannotStoreRefs() {
  return FailedPreconditionError("list of values cannot store refs");
}

}  // namespace

TypeDef Variant::type() const {
  if (is_value()) return TypeDef::OfValue(value_.type());
  if (is_ref()) return TypeDef::OfRef(*ref_.type());
  return TypeDef::Any();
}

List::List(ConstructionKey, TypeDef element_type)
    : element_type_(element_type) {
  switch (element_type.kind()) {
    case TypeDef::Kind::kValue:
      mode_ = StorageMode::kValue;
      exact_value_type_ = element_type.value_type();
      slot_size_ = ValueTypeByteSize(element_type.value_type());
      break;
    case TypeDef::Kind::kRef:
    case TypeDef::Kind::kAnyRef:
      mode_ = StorageMode::kRef;
      slot_size_ = sizeof(VmRef);
      break;
    case TypeDef::Kind::kAny:
      mode_ = StorageMode::kVariant;
      slot_size_ = sizeof(Variant);
      break;
  }
}

namespace {
// Lists released while another list is being destroyed on this thread. A
// chain of nested lists (which a program can build a million deep) would
// otherwise be freed by recursion and overflow the stack; instead the
// outermost destructor frees them one at a time.
thread_local std::vector<VmRef>* pending_list_releases = nullptr;

void DeferIfList(VmRef& ref) {
  if (ref.Is(List::Type())) pending_list_releases->push_back(ref.Take());
}
}  // namespace

List::~List() {
  std::vector<VmRef> pending;
  const bool outermost = pending_list_releases == nullptr;
  if (outermost) pending_list_releases = &pending;
  if (mode_ == StorageMode::kRef) {
    for (size_t i = 0; i < size_; ++i) DeferIfList(ref_slots()[i]);
    std::destroy_n(ref_slots(), capacity_);
  }
  if (mode_ == StorageMode::kVariant) {
    for (size_t i = 0; i < size_; ++i) {
      if (variant_slots()[i].is_ref() &&
          variant_slots()[i].ref().Is(List::Type())) {
        VmRef child = variant_slots()[i].TakeRef();
        DeferIfList(child);
      }
    }
    std::destroy_n(variant_slots(), capacity_);
  }
  std::free(storage_);
  if (outermost) {
    while (!pending.empty()) {
      VmRef child = std::move(pending.back());
      pending.pop_back();
      child.reset();  // may append grandchildren to `pending`
    }
    pending_list_releases = nullptr;
  }
}

Result<Ref<List>> List::Create(TypeDef element_type, size_t initial_capacity) {
  if (element_type.is_value() &&
      ValueTypeByteSize(element_type.value_type()) == 0) {
    return InvalidArgumentError("list element value type must not be none");
  }
  Ref<List> list = MakeRef<List>(ConstructionKey(), element_type);
  EMBER_RETURN_IF_ERROR(list->Reserve(initial_capacity),
                        "creating a list of %s",
                        element_type.ToString().c_str());
  return list;
}

Result<Ref<List>> List::Clone() const {
  EMBER_ASSIGN_OR_RETURN(Ref<List> clone, Create(element_type_, size_));
  switch (mode_) {
    case StorageMode::kValue:
      if (size_ != 0)
        std::memcpy(clone->storage_, storage_, size_ * slot_size_);
      break;
    case StorageMode::kRef:
      std::copy_n(ref_slots(), size_, clone->ref_slots());
      break;
    case StorageMode::kVariant:
      std::copy_n(variant_slots(), size_, clone->variant_slots());
      break;
  }
  clone->size_ = size_;
  return clone;
}

size_t List::CapacityLimit() const {
  return static_cast<size_t>(
      std::min<uint64_t>(kMaxCapacity, kMaxStorageBytes / slot_size_));
}

Status List::Reserve(size_t minimum_capacity) {
  if (minimum_capacity <= capacity_) return Status::Ok();
  const size_t limit = CapacityLimit();
  if (minimum_capacity > limit) {
    return MakeStatus(StatusCode::kResourceExhausted,
                      "list capacity %zu exceeds the limit of %zu elements of "
                      "%zu bytes",
                      minimum_capacity, limit, slot_size_);
  }
  // Round up and at least double, but never past the limit; all of these
  // stay below 2^32, so nothing overflows.
  size_t new_capacity = (minimum_capacity + kCapacityGranule - 1) /
                        kCapacityGranule * kCapacityGranule;
  new_capacity = std::max(new_capacity, capacity_ * 2);
  new_capacity = std::min(new_capacity, limit);

  void* new_storage = std::calloc(new_capacity, slot_size_);
  if (!new_storage) {
    return MakeStatus(StatusCode::kResourceExhausted,
                      "out of memory reserving %zu list elements",
                      new_capacity);
  }
  switch (mode_) {
    case StorageMode::kValue:
      // calloc already zeroed the new slots.
      if (capacity_ != 0)
        std::memcpy(new_storage, storage_, capacity_ * slot_size_);
      break;
    case StorageMode::kRef: {
      VmRef* slots = static_cast<VmRef*>(new_storage);
      std::uninitialized_move_n(ref_slots(), capacity_, slots);
      std::uninitialized_value_construct_n(slots + capacity_,
                                           new_capacity - capacity_);
      std::destroy_n(ref_slots(), capacity_);
      break;
    }
    case StorageMode::kVariant: {
      Variant* slots = static_cast<Variant*>(new_storage);
      std::uninitialized_move_n(variant_slots(), capacity_, slots);
      std::uninitialized_value_construct_n(slots + capacity_,
                                           new_capacity - capacity_);
      std::destroy_n(variant_slots(), capacity_);
      break;
    }
  }
  std::free(storage_);
  storage_ = new_storage;
  capacity_ = new_capacity;
  return Status::Ok();
}

void List::ResetRange(size_t begin, size_t end) {
  if (begin >= end) return;
  switch (mode_) {
    case StorageMode::kValue:
      std::memset(value_slot(begin), 0, (end - begin) * slot_size_);
      break;
    case StorageMode::kRef:
      for (size_t i = begin; i < end; ++i) ref_slots()[i].reset();
      break;
    case StorageMode::kVariant:
      for (size_t i = begin; i < end; ++i) variant_slots()[i] = Variant();
      break;
  }
}

Status List::Resize(size_t new_size) {
  if (new_size > capacity_) EMBER_RETURN_IF_ERROR(Reserve(new_size));
  // Slots past size_ are already zero/null (the storage invariant), so
  // growing only moves the end; shrinking clears what falls off.
  ResetRange(new_size, size_);
  size_ = new_size;
  return Status::Ok();
}

void List::Clear() {
  ResetRange(0, size_);
  size_ = 0;
}

Status List::CheckIndex(size_t index) const {
  return index < size_ ? Status::Ok() : IndexOutOfRange(index, size_);
}

Result<Value> List::GetValue(size_t index) const {
  EMBER_RETURN_IF_ERROR(CheckIndex(index));
  switch (mode_) {
    case StorageMode::kValue: {
      uint64_t bits = 0;
      std::memcpy(&bits, value_slot(index), slot_size_);
      return Value::FromBits(element_type_.value_type(), bits);
    }
    case StorageMode::kVariant: {
      const Variant& element = variant_slots()[index];
      if (!element.is_value()) {
        return MakeStatus(StatusCode::kFailedPrecondition,
                          "list element %zu is not a value", index);
      }
      return element.value();
    }
    case StorageMode::kRef: break;
  }
  return FailedPreconditionError("list of refs does not store values");
}

Result<Value> List::GetValueAs(size_t index, ValueType type) const {
  EMBER_ASSIGN_OR_RETURN(Value value, GetValue(index));
  return value.ConvertTo(type);
}

Status List::SetValue(size_t index, Value value) {
  EMBER_RETURN_IF_ERROR(CheckIndex(index));
  switch (mode_) {
    case StorageMode::kValue: {
      uint64_t bits = value.ConvertTo(element_type_.value_type()).bits();
      std::memcpy(value_slot(index), &bits, slot_size_);
      return Status::Ok();
    }
    case StorageMode::kVariant:
      variant_slots()[index] = Variant(value);
      return Status::Ok();
    case StorageMode::kRef: break;
  }
  return FailedPreconditionError("list of refs cannot store values");
}

Status List::PushValue(Value value) {
  if (mode_ == StorageMode::kRef) {
    return FailedPreconditionError("list of refs cannot store values");
  }
  EMBER_RETURN_IF_ERROR(Resize(size_ + 1));
  return SetValue(size_ - 1, value);
}

Result<VmRef> List::GetRefImpl(size_t index, bool take) {
  EMBER_RETURN_IF_ERROR(CheckIndex(index));
  switch (mode_) {
    case StorageMode::kRef: {
      VmRef& slot = ref_slots()[index];
      return take ? slot.Take() : slot;
    }
    case StorageMode::kVariant: {
      Variant& slot = variant_slots()[index];
      if (slot.is_value()) {
        return MakeStatus(StatusCode::kFailedPrecondition,
                          "list element %zu is a value, not a ref", index);
      }
      return take ? slot.TakeRef() : slot.ref();
    }
    case StorageMode::kValue: break;
  }
  return FailedPreconditionError("list of values does not store refs");
}

Result<VmRef> List::GetRef(size_t index) const {
  // Reading never modifies; the shared implementation only writes on take.
  return const_cast<List*>(this)->GetRefImpl(index, /*take=*/false);
}

Result<VmRef> List::TakeRef(size_t index) {
  return GetRefImpl(index, /*take=*/true);
}

namespace {

// ListGetRef's filter (see GetRefOfType in the header).
VmRef KeepIfOfType(VmRef ref, const TypeDef& type) {
  if (ref.is_null() || type.is_any_ref()) return ref;
  if (type.is_ref() && ref.type() == type.ref_type()) return ref;
  return VmRef();
}

}  // namespace

Result<VmRef> List::GetRefOfType(size_t index, const TypeDef& type) const {
  EMBER_ASSIGN_OR_RETURN(VmRef ref, GetRef(index));
  return KeepIfOfType(std::move(ref), type);
}

Result<VmRef> List::TakeRefOfType(size_t index, const TypeDef& type) {
  EMBER_ASSIGN_OR_RETURN(VmRef ref, TakeRef(index));
  return KeepIfOfType(std::move(ref), type);
}

Status List::CheckStorable(const VmRef& ref) const {
  switch (mode_) {
    case StorageMode::kValue: return ListCannotStoreRefs();
    case StorageMode::kRef:
      if (!TypeAcceptsRef(element_type_, ref)) {
        return MakeStatus(StatusCode::kInvalidArgument,
                          "ref of type %.*s cannot be stored in a list of %s",
                          static_cast<int>(ref.type()->name().size()),
                          ref.type()->name().data(),
                          element_type_.ToString().c_str());
      }
      return Status::Ok();
    case StorageMode::kVariant: return Status::Ok();
  }
  return Status::Ok();
}

Status List::CheckStorable(const Variant& variant) const {
  if (variant.is_value()) {
    return mode_ == StorageMode::kRef
               ? FailedPreconditionError("list of refs cannot store values")
               : Status::Ok();
  }
  return CheckStorable(variant.ref());
}

Status List::SetRefImpl(size_t index, const VmRef* retained, VmRef* moved) {
  EMBER_RETURN_IF_ERROR(CheckIndex(index));
  const VmRef& ref = retained ? *retained : *moved;
  EMBER_RETURN_IF_ERROR(CheckStorable(ref));
  VmRef stored = retained ? *retained : moved->Take();
  if (mode_ == StorageMode::kRef) {
    ref_slots()[index] = std::move(stored);
  } else {
    variant_slots()[index] = Variant(std::move(stored));
  }
  return Status::Ok();
}

Status List::SetRef(size_t index, const VmRef& ref) {
  return SetRefImpl(index, &ref, nullptr);
}

Status List::SetRef(size_t index, VmRef&& ref) {
  return SetRefImpl(index, nullptr, &ref);
}

Status List::PushRef(const VmRef& ref) {
  EMBER_RETURN_IF_ERROR(CheckStorable(ref));
  EMBER_RETURN_IF_ERROR(Resize(size_ + 1));
  return SetRef(size_ - 1, ref);
}

Status List::PushRef(VmRef&& ref) {
  EMBER_RETURN_IF_ERROR(CheckStorable(ref));
  EMBER_RETURN_IF_ERROR(Resize(size_ + 1));
  return SetRef(size_ - 1, std::move(ref));
}

Result<Variant> List::GetVariant(size_t index) const {
  EMBER_RETURN_IF_ERROR(CheckIndex(index));
  switch (mode_) {
    case StorageMode::kValue: {
      EMBER_ASSIGN_OR_RETURN(Value value, GetValue(index));
      return Variant(value);
    }
    case StorageMode::kRef: return Variant(ref_slots()[index]);
    case StorageMode::kVariant: return variant_slots()[index];
  }
  return InternalError("unknown list storage mode");
}

Status List::SetVariant(size_t index, Variant variant) {
  if (variant.is_value()) return SetValue(index, variant.value());
  return SetRef(index, variant.TakeRef());
}

Status List::PushVariant(Variant variant) {
  EMBER_RETURN_IF_ERROR(CheckStorable(variant));
  EMBER_RETURN_IF_ERROR(Resize(size_ + 1));
  return SetVariant(size_ - 1, std::move(variant));
}

}  // namespace ember::vm
