#include "runtime/vm/ref.h"

#include "runtime/vm/buffer.h"
#include "runtime/vm/list.h"

namespace ember::vm {

std::string TypeDef::ToString() const {
  switch (kind_) {
    case Kind::kValue: return std::string(ValueTypeName(value_type_));
    case Kind::kRef: return std::string(ref_type_->name());
    case Kind::kAnyRef: return "?";
    case Kind::kAny: break;
  }
  return "any";
}

bool TypeAcceptsRef(const TypeDef& type, const VmRef& ref) {
  if (ref.is_null()) return true;
  switch (type.kind()) {
    case TypeDef::Kind::kAny:
    case TypeDef::Kind::kAnyRef: return true;
    case TypeDef::Kind::kRef: return ref.type() == type.ref_type();
    case TypeDef::Kind::kValue: return false;
  }
  return false;
}

TypeRegistry::TypeRegistry() {
  types_.push_back(&Buffer::Type());
  types_.push_back(&List::Type());
}

Status TypeRegistry::Register(const RefType& type) {
  if (frozen_) {
    return MakeStatus(StatusCode::kFailedPrecondition,
                      "type registry is frozen; cannot register '%.*s'",
                      static_cast<int>(type.name().size()), type.name().data());
  }
  if (const RefType* existing = Lookup(type.name())) {
    if (existing == &type) return Status::Ok();
    return MakeStatus(StatusCode::kAlreadyExists,
                      "another type is already registered as '%.*s'",
                      static_cast<int>(type.name().size()), type.name().data());
  }
  types_.push_back(&type);
  return Status::Ok();
}

const RefType* TypeRegistry::Lookup(std::string_view name) const {
  for (const RefType* type : types_) {
    if (type->name() == name) return type;
  }
  return nullptr;
}

Result<TypeDef> TypeRegistry::ResolveModuleTypeName(
    std::string_view full_name) const {
  if (full_name.empty()) {
    return InvalidArgumentError("type definition has no name");
  }
  if (auto value_type = ParseValueTypeName(full_name)) {
    return TypeDef::OfValue(*value_type);
  }
  if (full_name == "!vm.opaque") return TypeDef::Any();
  if (full_name.front() == '!') {
    std::string_view name = full_name.substr(1);
    // Element types of lists are not checked at run time (lists may be
    // widened), so every `!vm.list<...>` is plain vm.list.
    if (name.starts_with("vm.list")) name = "vm.list";
    if (const RefType* type = Lookup(name)) return TypeDef::OfRef(*type);
  }
  return MakeStatus(StatusCode::kNotFound,
                    "no type registered with name '%.*s'",
                    static_cast<int>(full_name.size()), full_name.data());
}

}  // namespace ember::vm
