#include "runtime/vm/list.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <limits>
#include <string>
#include <vector>

#include "runtime/vm/buffer.h"

namespace ember::vm {
namespace {

// A ref-counted object whose destruction the test can see.
class Counted : public RefCounted {
 public:
  static const RefType& Type() {
    static const RefType type("test.counted");
    return type;
  }
  explicit Counted(int* destroyed) : destroyed_(destroyed) {}
  ~Counted() override { ++*destroyed_; }

 private:
  int* destroyed_;
};

const RefType& OtherType() {
  static const RefType type("test.other");
  return type;
}

VmRef MakeCounted(int* destroyed) {
  return VmRef::Of(MakeRef<Counted>(destroyed));
}

Ref<List> MakeList(TypeDef type, size_t capacity = 0) {
  Result<Ref<List>> list = List::Create(type, capacity);
  EXPECT_TRUE(list.ok()) << list.status().ToString();
  return std::move(list).value();
}

uint32_t CountOf(const VmRef& ref) {
  return ref.get()->reference_count_for_testing();
}

// ---- value lists
// -------------------------------------------------------------

TEST(ListTest, TypeIsVmList) {
  EXPECT_EQ(List::Type().name(), "vm.list");
  EXPECT_NE(&List::Type(), static_cast<const RefType*>(&Buffer::Type()));
}

TEST(ListTest, CreateRejectsNoneValueType) {
  EXPECT_EQ(List::Create(TypeDef::OfValue(ValueType::kNone), 0).status().code(),
            StatusCode::kInvalidArgument);
}

TEST(ListTest, ResizeFillsWithZeros) {
  Ref<List> list = MakeList(TypeDef::OfValue(ValueType::kI32));
  EXPECT_EQ(list->size(), 0u);
  ASSERT_TRUE(list->Resize(5).ok());
  EXPECT_EQ(list->size(), 5u);
  EXPECT_GE(list->capacity(), 5u);
  for (size_t i = 0; i < 5; ++i)
    EXPECT_EQ(list->GetValue(i).value(), Value::I32(0));
  ASSERT_TRUE(list->SetValue(4, Value::I32(9)).ok());
  ASSERT_TRUE(list->Resize(2).ok());
  ASSERT_TRUE(list->Resize(5).ok());
  // The slot that was dropped comes back zeroed, not with its old value.
  EXPECT_EQ(list->GetValue(4).value(), Value::I32(0));
}

TEST(ListTest, IndexOutOfRange) {
  Ref<List> list = MakeList(TypeDef::OfValue(ValueType::kI64));
  ASSERT_TRUE(list->Resize(2).ok());
  EXPECT_EQ(list->GetValue(2).status().code(), StatusCode::kOutOfRange);
  EXPECT_EQ(list->SetValue(2, Value::I64(1)).code(), StatusCode::kOutOfRange);
  EXPECT_EQ(
      list->GetValueAs(std::numeric_limits<size_t>::max(), ValueType::kI32)
          .status()
          .code(),
      StatusCode::kOutOfRange);
  EXPECT_EQ(list->GetVariant(7).status().code(), StatusCode::kOutOfRange);
  Ref<List> refs = MakeList(TypeDef::AnyRef());
  EXPECT_EQ(refs->GetRef(0).status().code(), StatusCode::kOutOfRange);
  EXPECT_EQ(refs->SetRef(0, VmRef()).code(), StatusCode::kOutOfRange);
}

TEST(ListTest, ValueListsConvertOnTheWayInAndOut) {
  Ref<List> bytes = MakeList(TypeDef::OfValue(ValueType::kI8));
  ASSERT_TRUE(bytes->PushValue(Value::I32(0x1FF)).ok());  // truncates to -1
  ASSERT_TRUE(bytes->PushValue(Value::I64(-128)).ok());
  EXPECT_EQ(bytes->GetValue(0).value(), Value::I8(-1));
  EXPECT_EQ(bytes->GetValueAs(0, ValueType::kI32).value(), Value::I32(-1));
  EXPECT_EQ(bytes->GetValueAs(1, ValueType::kI64).value(), Value::I64(-128));

  Ref<List> ints = MakeList(TypeDef::OfValue(ValueType::kI32));
  // Hosts pass Python ints as i64.
  ASSERT_TRUE(ints->PushValue(Value::I64(0x1'0000'0007)).ok());
  EXPECT_EQ(ints->GetValue(0).value(), Value::I32(7));
  EXPECT_EQ(ints->GetValueAs(0, ValueType::kI16).value(), Value::I16(7));

  Ref<List> floats = MakeList(TypeDef::OfValue(ValueType::kF32));
  ASSERT_TRUE(floats->PushValue(Value::F64(0.5)).ok());
  EXPECT_EQ(floats->GetValue(0).value(), Value::F32(0.5f));
  EXPECT_EQ(floats->GetValueAs(0, ValueType::kF64).value(), Value::F64(0.5));
  // Across families IREE stores and reads zero.
  ASSERT_TRUE(floats->PushValue(Value::I32(3)).ok());
  EXPECT_EQ(floats->GetValue(1).value(), Value::F32(0.0f));
  EXPECT_EQ(floats->GetValueAs(0, ValueType::kI32).value(), Value::I32(0));

  Ref<List> doubles = MakeList(TypeDef::OfValue(ValueType::kF64));
  ASSERT_TRUE(doubles->PushValue(Value::F64(-3.25)).ok());
  EXPECT_EQ(doubles->GetVariant(0).value().value(), Value::F64(-3.25));
}

TEST(ListTest, EachValueWidthRoundTrips) {
  const Value samples[] = {Value::I8(-7),      Value::I16(-300),
                           Value::I32(-70000), Value::I64(int64_t{-1} << 40),
                           Value::F32(1.25f),  Value::F64(1e100)};
  for (const Value& sample : samples) {
    Ref<List> list = MakeList(TypeDef::OfValue(sample.type()), 3);
    ASSERT_TRUE(list->Resize(3).ok());
    ASSERT_TRUE(list->SetValue(1, sample).ok());
    EXPECT_EQ(list->GetValue(0).value(), Value().ConvertTo(sample.type()));
    EXPECT_EQ(list->GetValue(1).value(), sample);
    EXPECT_EQ(list->GetValue(2).value(), Value().ConvertTo(sample.type()));
  }
}

TEST(ListTest, ValueListRejectsRefs) {
  int destroyed = 0;
  Ref<List> list = MakeList(TypeDef::OfValue(ValueType::kI32));
  ASSERT_TRUE(list->Resize(1).ok());
  VmRef ref = MakeCounted(&destroyed);
  EXPECT_EQ(list->SetRef(0, ref).code(), StatusCode::kFailedPrecondition);
  EXPECT_EQ(list->SetRef(0, std::move(ref)).code(),
            StatusCode::kFailedPrecondition);
  EXPECT_FALSE(ref.is_null());  // NOLINT(bugprone-use-after-move): untouched
  EXPECT_EQ(list->PushRef(ref).code(), StatusCode::kFailedPrecondition);
  EXPECT_EQ(list->size(), 1u);
  EXPECT_EQ(list->GetRef(0).status().code(), StatusCode::kFailedPrecondition);
  EXPECT_EQ(list->SetVariant(0, Variant()).code(),
            StatusCode::kFailedPrecondition);
}

// ---- capacity and limits
// -----------------------------------------------------

TEST(ListTest, ReserveGrowsAndNeverShrinks) {
  Ref<List> list = MakeList(TypeDef::OfValue(ValueType::kI16), 10);
  EXPECT_GE(list->capacity(), 10u);
  size_t capacity = list->capacity();
  ASSERT_TRUE(list->Reserve(1).ok());
  EXPECT_EQ(list->capacity(), capacity);
  ASSERT_TRUE(list->Reserve(1000).ok());
  EXPECT_GE(list->capacity(), 1000u);
  EXPECT_EQ(list->size(), 0u);
  Ref<List> empty = MakeList(TypeDef::Any(), 0);
  EXPECT_EQ(empty->capacity(), 0u);
}

TEST(ListTest, HostileCountsFailCleanly) {
  Ref<List> variants = MakeList(TypeDef::Any());
  EXPECT_EQ(variants->Reserve(std::numeric_limits<uint32_t>::max()).code(),
            StatusCode::kResourceExhausted);
  EXPECT_EQ(variants->Resize(std::numeric_limits<size_t>::max()).code(),
            StatusCode::kResourceExhausted);
  EXPECT_EQ(variants->size(), 0u);
  EXPECT_EQ(variants->capacity(), 0u);
  // The limit is in bytes of storage, so it depends on the element size.
  Ref<List> longs = MakeList(TypeDef::OfValue(ValueType::kI64));
  EXPECT_EQ(longs->Reserve(List::kMaxStorageBytes / 8 + 1).code(),
            StatusCode::kResourceExhausted);
  EXPECT_EQ(List::Create(TypeDef::OfValue(ValueType::kI8),
                         size_t{List::kMaxCapacity} + 1)
                .status()
                .code(),
            StatusCode::kResourceExhausted);
  // A list that failed to grow is still usable.
  ASSERT_TRUE(longs->PushValue(Value::I64(1)).ok());
  EXPECT_EQ(longs->GetValue(0).value(), Value::I64(1));
}

// ---- ref lists
// ---------------------------------------------------------------

TEST(ListTest, TypedRefListChecksTypes) {
  int destroyed = 0;
  Ref<List> list = MakeList(TypeDef::OfRef(Counted::Type()));
  VmRef counted = MakeCounted(&destroyed);
  ASSERT_TRUE(list->PushRef(counted).ok());
  EXPECT_EQ(CountOf(counted), 2u);

  Ref<Buffer> buffer = Buffer::Allocate(4, 0, BufferAccess::kMutable).value();
  VmRef wrong = VmRef::Of(buffer);
  EXPECT_EQ(list->SetRef(0, wrong).code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(list->SetRef(0, std::move(wrong)).code(),
            StatusCode::kInvalidArgument);
  EXPECT_FALSE(wrong.is_null());  // NOLINT(bugprone-use-after-move)
  EXPECT_EQ(list->PushRef(wrong).code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(list->size(), 1u);  // a failed push leaves the list unchanged
  EXPECT_TRUE(list->GetRef(0).value() == counted);

  // Null is storable in any ref list and releases what was there.
  ASSERT_TRUE(list->SetRef(0, VmRef()).ok());
  EXPECT_EQ(CountOf(counted), 1u);
  EXPECT_TRUE(list->GetRef(0).value().is_null());

  EXPECT_EQ(list->GetValue(0).status().code(), StatusCode::kFailedPrecondition);
  EXPECT_EQ(list->SetValue(0, Value::I32(1)).code(),
            StatusCode::kFailedPrecondition);
  EXPECT_EQ(list->PushValue(Value::I32(1)).code(),
            StatusCode::kFailedPrecondition);
  EXPECT_EQ(list->size(), 1u);
}

TEST(ListTest, SetRefRetainsOrMoves) {
  int destroyed = 0;
  Ref<List> list = MakeList(TypeDef::AnyRef());
  ASSERT_TRUE(list->Resize(2).ok());
  VmRef ref = MakeCounted(&destroyed);
  ASSERT_TRUE(list->SetRef(0, ref).ok());
  EXPECT_EQ(CountOf(ref), 2u);
  VmRef moved = ref;
  ASSERT_TRUE(list->SetRef(1, std::move(moved)).ok());
  EXPECT_TRUE(moved.is_null());  // NOLINT(bugprone-use-after-move)
  EXPECT_EQ(CountOf(ref), 3u);

  VmRef got = list->GetRef(0).value();
  EXPECT_EQ(CountOf(ref), 4u);
  VmRef taken = list->TakeRef(1).value();
  EXPECT_EQ(CountOf(ref), 4u);
  EXPECT_TRUE(list->GetRef(1).value().is_null());
  EXPECT_EQ(list->size(), 2u);
}

TEST(ListTest, AnyRefListHoldsEveryRefType) {
  int destroyed = 0;
  Ref<List> list = MakeList(TypeDef::AnyRef());
  ASSERT_TRUE(list->PushRef(MakeCounted(&destroyed)).ok());
  ASSERT_TRUE(
      list->PushRef(
              VmRef::Of(Buffer::Allocate(1, 0, BufferAccess::kNone).value()))
          .ok());
  EXPECT_TRUE(list->GetRef(0).value().Is(Counted::Type()));
  EXPECT_TRUE(list->GetRef(1).value().Is(Buffer::Type()));
  EXPECT_NE(list->GetRef(1).value().As<Buffer>(), nullptr);
  EXPECT_EQ(list->GetRef(1).value().As<Counted>(), nullptr);
}

TEST(ListTest, RefsAreReleasedOnShrinkClearOverwriteAndDestruction) {
  int destroyed = 0;
  Ref<List> list = MakeList(TypeDef::OfRef(Counted::Type()));
  for (int i = 0; i < 6; ++i)
    ASSERT_TRUE(list->PushRef(MakeCounted(&destroyed)).ok());
  EXPECT_EQ(destroyed, 0);
  ASSERT_TRUE(list->Resize(4).ok());
  EXPECT_EQ(destroyed, 2);
  ASSERT_TRUE(list->SetRef(0, MakeCounted(&destroyed)).ok());
  EXPECT_EQ(destroyed, 3);
  list->Clear();
  EXPECT_EQ(destroyed, 7);
  EXPECT_EQ(list->size(), 0u);
  for (int i = 0; i < 3; ++i)
    ASSERT_TRUE(list->PushRef(MakeCounted(&destroyed)).ok());
  list.reset();
  EXPECT_EQ(destroyed, 10);
}

TEST(ListTest, GrowingKeepsRefsAndCounts) {
  int destroyed = 0;
  VmRef shared = MakeCounted(&destroyed);
  Ref<List> list = MakeList(TypeDef::AnyRef(), 1);
  for (int i = 0; i < 1000; ++i) ASSERT_TRUE(list->PushRef(shared).ok());
  EXPECT_EQ(CountOf(shared), 1001u);
  for (size_t i = 0; i < list->size(); ++i) {
    ASSERT_TRUE(list->GetRef(i).value() == shared) << i;
  }
  list.reset();
  EXPECT_EQ(CountOf(shared), 1u);
  EXPECT_EQ(destroyed, 0);
}

// ---- vm.list.get.ref
// ----------------------------------------------------------

TEST(ListTest, GetRefOfTypeYieldsNullOnMismatch) {
  int destroyed = 0;
  Ref<List> list = MakeList(TypeDef::AnyRef());
  VmRef counted = MakeCounted(&destroyed);
  ASSERT_TRUE(list->PushRef(counted).ok());
  ASSERT_TRUE(list->PushRef(VmRef()).ok());

  EXPECT_TRUE(list->GetRefOfType(0, TypeDef::OfRef(Counted::Type())).value() ==
              counted);
  EXPECT_TRUE(
      list->GetRefOfType(0, TypeDef::OfRef(OtherType())).value().is_null());
  EXPECT_TRUE(list->GetRefOfType(0, TypeDef::OfValue(ValueType::kI32))
                  .value()
                  .is_null());
  // As in IREE, `!vm.opaque` as the requested type matches nothing.
  EXPECT_TRUE(list->GetRefOfType(0, TypeDef::Any()).value().is_null());
  EXPECT_TRUE(list->GetRefOfType(0, TypeDef::AnyRef()).value() == counted);
  EXPECT_TRUE(
      list->GetRefOfType(1, TypeDef::OfRef(OtherType())).value().is_null());
  // Reading left the element where it was.
  EXPECT_EQ(CountOf(counted), 2u);
  EXPECT_EQ(list->GetRefOfType(5, TypeDef::AnyRef()).status().code(),
            StatusCode::kOutOfRange);
}

TEST(ListTest, TakeRefOfTypeMovesOutEvenOnMismatch) {
  int destroyed = 0;
  Ref<List> list = MakeList(TypeDef::AnyRef());
  ASSERT_TRUE(list->PushRef(MakeCounted(&destroyed)).ok());
  ASSERT_TRUE(list->PushRef(MakeCounted(&destroyed)).ok());
  VmRef kept = list->TakeRefOfType(0, TypeDef::OfRef(Counted::Type())).value();
  EXPECT_FALSE(kept.is_null());
  EXPECT_TRUE(list->GetRef(0).value().is_null());
  VmRef dropped = list->TakeRefOfType(1, TypeDef::OfRef(OtherType())).value();
  EXPECT_TRUE(dropped.is_null());
  EXPECT_TRUE(list->GetRef(1).value().is_null());
  EXPECT_EQ(destroyed, 1);
}

// ---- variant lists
// ------------------------------------------------------------

TEST(ListTest, VariantListHoldsMixedContent) {
  int destroyed = 0;
  Ref<List> list = MakeList(TypeDef::Any());
  VmRef counted = MakeCounted(&destroyed);
  ASSERT_TRUE(list->PushValue(Value::I8(-2)).ok());
  ASSERT_TRUE(list->PushValue(Value::F64(2.5)).ok());
  ASSERT_TRUE(list->PushRef(counted).ok());
  ASSERT_TRUE(list->PushVariant(Variant()).ok());
  ASSERT_TRUE(list->PushVariant(Variant(Value::I64(40))).ok());
  ASSERT_EQ(list->size(), 5u);

  // Values keep their own types.
  EXPECT_EQ(list->GetValue(0).value(), Value::I8(-2));
  EXPECT_EQ(list->GetValueAs(0, ValueType::kI32).value(), Value::I32(-2));
  EXPECT_EQ(list->GetValue(1).value(), Value::F64(2.5));
  EXPECT_EQ(list->GetValueAs(1, ValueType::kF32).value(), Value::F32(2.5f));
  EXPECT_EQ(list->GetValue(4).value(), Value::I64(40));

  EXPECT_EQ(list->GetVariant(0).value().type(),
            TypeDef::OfValue(ValueType::kI8));
  EXPECT_EQ(list->GetVariant(2).value().type(),
            TypeDef::OfRef(Counted::Type()));
  EXPECT_TRUE(list->GetVariant(3).value().is_empty());
  EXPECT_EQ(list->GetVariant(3).value().type(), TypeDef::Any());

  // Values are not refs and refs are not values; empty reads as a null ref.
  EXPECT_EQ(list->GetRef(0).status().code(), StatusCode::kFailedPrecondition);
  EXPECT_EQ(list->GetValue(2).status().code(), StatusCode::kFailedPrecondition);
  EXPECT_EQ(list->GetValue(3).status().code(), StatusCode::kFailedPrecondition);
  EXPECT_TRUE(list->GetRef(3).value().is_null());
  EXPECT_TRUE(list->GetRef(2).value() == counted);

  // Overwriting a ref with a value releases it.
  EXPECT_EQ(CountOf(counted), 2u);
  ASSERT_TRUE(list->SetValue(2, Value::I32(5)).ok());
  EXPECT_EQ(CountOf(counted), 1u);
  EXPECT_EQ(list->GetValue(2).value(), Value::I32(5));
  // And a value with a ref.
  ASSERT_TRUE(list->SetRef(0, counted).ok());
  EXPECT_TRUE(list->GetRef(0).value() == counted);
  // An empty variant clears the slot.
  ASSERT_TRUE(list->SetVariant(0, Variant()).ok());
  EXPECT_TRUE(list->GetVariant(0).value().is_empty());
  EXPECT_EQ(CountOf(counted), 1u);
  // A kNone value also empties a slot.
  ASSERT_TRUE(list->SetValue(4, Value()).ok());
  EXPECT_TRUE(list->GetVariant(4).value().is_empty());
}

TEST(ListTest, VariantsIntoTypedLists) {
  int destroyed = 0;
  Ref<List> ints = MakeList(TypeDef::OfValue(ValueType::kI32));
  ASSERT_TRUE(ints->PushVariant(Variant(Value::I64(-1))).ok());
  EXPECT_EQ(ints->GetValue(0).value(), Value::I32(-1));
  EXPECT_EQ(ints->PushVariant(Variant(MakeCounted(&destroyed))).code(),
            StatusCode::kFailedPrecondition);
  EXPECT_EQ(ints->size(), 1u);

  Ref<List> refs = MakeList(TypeDef::OfRef(Counted::Type()));
  EXPECT_EQ(refs->PushVariant(Variant(Value::I32(1))).code(),
            StatusCode::kFailedPrecondition);
  ASSERT_TRUE(refs->PushVariant(Variant(MakeCounted(&destroyed))).ok());
  Variant from_ref_list = refs->GetVariant(0).value();
  EXPECT_TRUE(from_ref_list.is_ref());
  ASSERT_TRUE(refs->SetVariant(0, Variant()).ok());  // stores null
  EXPECT_TRUE(refs->GetRef(0).value().is_null());
  EXPECT_EQ(destroyed, 1);  // the one rejected by `ints`
  from_ref_list = Variant();
  EXPECT_EQ(destroyed, 2);
}

TEST(ListTest, VariantTakeRef) {
  int destroyed = 0;
  Variant variant(MakeCounted(&destroyed));
  EXPECT_TRUE(variant.is_ref());
  VmRef taken = variant.TakeRef();
  EXPECT_TRUE(variant.is_empty());
  EXPECT_FALSE(taken.is_null());
  EXPECT_TRUE(Variant(VmRef()).is_empty());
  EXPECT_TRUE(Variant(Value()).is_empty());
}

// ---- lists of lists ---------------------------------------------------------

TEST(ListTest, ListsOfLists) {
  int destroyed = 0;
  Ref<List> outer = MakeList(TypeDef::OfRef(List::Type()));
  for (int i = 0; i < 3; ++i) {
    Ref<List> inner = MakeList(TypeDef::Any());
    ASSERT_TRUE(inner->PushValue(Value::I32(i)).ok());
    ASSERT_TRUE(inner->PushRef(MakeCounted(&destroyed)).ok());
    ASSERT_TRUE(outer->PushRef(VmRef::Of(std::move(inner))).ok());
  }
  EXPECT_EQ(outer->PushRef(MakeCounted(&destroyed)).code(),
            StatusCode::kInvalidArgument);
  EXPECT_EQ(destroyed, 1);

  List* second = outer->GetRef(1).value().As<List>();
  ASSERT_NE(second, nullptr);
  EXPECT_EQ(second->GetValue(0).value(), Value::I32(1));
  EXPECT_TRUE(outer->GetRefOfType(1, TypeDef::OfRef(List::Type())).value());

  Ref<List> kept = outer->GetRef(2).value().RetainAs<List>();
  outer.reset();
  EXPECT_EQ(destroyed, 3);  // lists 0 and 1 went with `outer`
  EXPECT_EQ(kept->size(), 2u);
  kept.reset();
  EXPECT_EQ(destroyed, 4);
}

TEST(ListTest, CloneSharesRefs) {
  int destroyed = 0;
  Ref<List> list = MakeList(TypeDef::Any());
  VmRef counted = MakeCounted(&destroyed);
  ASSERT_TRUE(list->PushRef(counted).ok());
  ASSERT_TRUE(list->PushValue(Value::F32(1.0f)).ok());
  Ref<List> clone = list->Clone().value();
  EXPECT_EQ(clone->size(), 2u);
  EXPECT_EQ(clone->element_type(), TypeDef::Any());
  EXPECT_EQ(CountOf(counted), 3u);
  EXPECT_EQ(clone->GetValue(1).value(), Value::F32(1.0f));
  ASSERT_TRUE(clone->SetValue(1, Value::I32(2)).ok());
  EXPECT_EQ(list->GetValue(1).value(), Value::F32(1.0f));

  Ref<List> values = MakeList(TypeDef::OfValue(ValueType::kI16));
  ASSERT_TRUE(values->PushValue(Value::I16(-4)).ok());
  EXPECT_EQ(values->Clone().value()->GetValue(0).value(), Value::I16(-4));
}

// ---- VmRef, TypeDef and TypeRegistry (ref.h)
// -----------------------------------

TEST(VmRefTest, NullHasNoType) {
  VmRef null;
  EXPECT_TRUE(null.is_null());
  EXPECT_EQ(null.type(), nullptr);
  VmRef typed_null(Ref<RefCounted>(), Counted::Type());
  EXPECT_TRUE(typed_null.is_null());
  EXPECT_EQ(typed_null.type(), nullptr);
  EXPECT_EQ(typed_null.As<Counted>(), nullptr);
}

TEST(VmRefTest, CopyMoveAndTypedAccess) {
  int destroyed = 0;
  VmRef ref = MakeCounted(&destroyed);
  EXPECT_TRUE(ref.Is(Counted::Type()));
  EXPECT_EQ(ref.type(), &Counted::Type());
  EXPECT_NE(ref.As<Counted>(), nullptr);
  EXPECT_EQ(ref.As<Counted>(OtherType()), nullptr);
  VmRef copy = ref;
  EXPECT_EQ(CountOf(ref), 2u);
  EXPECT_TRUE(copy == ref);
  VmRef moved = std::move(copy);
  EXPECT_TRUE(copy.is_null());  // NOLINT(bugprone-use-after-move)
  EXPECT_EQ(copy.type(), nullptr);
  VmRef taken = moved.Take();
  EXPECT_TRUE(moved.is_null());
  EXPECT_EQ(CountOf(ref), 2u);
  taken.reset();
  ref.reset();
  EXPECT_EQ(destroyed, 1);
}

TEST(TypeDefTest, KindsAndNames) {
  EXPECT_TRUE(TypeDef().is_any());
  EXPECT_EQ(TypeDef::OfValue(ValueType::kF32).ToString(), "f32");
  EXPECT_EQ(TypeDef::OfRef(Buffer::Type()).ToString(), "vm.buffer");
  EXPECT_EQ(TypeDef::AnyRef().ToString(), "?");
  EXPECT_EQ(TypeDef::Any().ToString(), "any");
  EXPECT_NE(TypeDef::OfRef(Buffer::Type()), TypeDef::OfRef(List::Type()));
  EXPECT_EQ(TypeDef::OfRef(List::Type()).ref_type(), &List::Type());
}

TEST(TypeRegistryTest, BuiltinsAndHalTypes) {
  TypeRegistry registry;
  EXPECT_EQ(registry.Lookup("vm.buffer"), &Buffer::Type());
  EXPECT_EQ(registry.Lookup("vm.list"), &List::Type());
  EXPECT_EQ(registry.Lookup("hal.buffer"), nullptr);

  // What the hal module will do at start-up.
  static const RefType kHalTypes[] = {
      RefType("hal.allocator"),      RefType("hal.buffer"),
      RefType("hal.buffer_view"),    RefType("hal.channel"),
      RefType("hal.command_buffer"), RefType("hal.device"),
      RefType("hal.event"),          RefType("hal.executable"),
      RefType("hal.fence"),          RefType("hal.file"),
      RefType("hal.semaphore")};
  for (const RefType& type : kHalTypes) {
    ASSERT_TRUE(registry.Register(type).ok());
    EXPECT_TRUE(registry.Register(type).ok());  // idempotent
    EXPECT_EQ(registry.Lookup(type.name()), &type);
  }
  EXPECT_EQ(registry.types().size(), 2u + 11u);

  std::vector<const RefType*> types(registry.types().begin(),
                                    registry.types().end());
  std::sort(types.begin(), types.end());
  EXPECT_EQ(std::adjacent_find(types.begin(), types.end()), types.end());

  static const RefType impostor("hal.buffer");
  EXPECT_EQ(registry.Register(impostor).code(), StatusCode::kAlreadyExists);

  registry.Freeze();
  EXPECT_TRUE(registry.frozen());
  EXPECT_EQ(registry.Register(OtherType()).code(),
            StatusCode::kFailedPrecondition);
  EXPECT_EQ(registry.Lookup("hal.fence"), &kHalTypes[8]);
}

TEST(TypeRegistryTest, ResolvesModuleTypeNames) {
  TypeRegistry registry;
  ASSERT_TRUE(registry.Register(Counted::Type()).ok());
  EXPECT_EQ(registry.ResolveModuleTypeName("i8").value(),
            TypeDef::OfValue(ValueType::kI8));
  EXPECT_EQ(registry.ResolveModuleTypeName("f64").value(),
            TypeDef::OfValue(ValueType::kF64));
  EXPECT_EQ(registry.ResolveModuleTypeName("!vm.opaque").value(),
            TypeDef::Any());
  EXPECT_EQ(registry.ResolveModuleTypeName("!vm.buffer").value(),
            TypeDef::OfRef(Buffer::Type()));
  EXPECT_EQ(registry.ResolveModuleTypeName("!vm.list<i32>").value(),
            TypeDef::OfRef(List::Type()));
  EXPECT_EQ(registry.ResolveModuleTypeName("!vm.list<!vm.list<?>>").value(),
            TypeDef::OfRef(List::Type()));
  EXPECT_EQ(registry.ResolveModuleTypeName("!test.counted").value(),
            TypeDef::OfRef(Counted::Type()));
  EXPECT_EQ(registry.ResolveModuleTypeName("").status().code(),
            StatusCode::kInvalidArgument);
  EXPECT_EQ(registry.ResolveModuleTypeName("!hal.buffer").status().code(),
            StatusCode::kNotFound);
  EXPECT_EQ(registry.ResolveModuleTypeName("vm.buffer").status().code(),
            StatusCode::kNotFound);
  EXPECT_EQ(registry.ResolveModuleTypeName("i1").status().code(),
            StatusCode::kNotFound);
}

TEST(TypeRegistryTest, TypeAcceptsRef) {
  int destroyed = 0;
  VmRef counted = MakeCounted(&destroyed);
  EXPECT_TRUE(TypeAcceptsRef(TypeDef::OfRef(Counted::Type()), counted));
  EXPECT_FALSE(TypeAcceptsRef(TypeDef::OfRef(OtherType()), counted));
  EXPECT_TRUE(TypeAcceptsRef(TypeDef::AnyRef(), counted));
  EXPECT_TRUE(TypeAcceptsRef(TypeDef::Any(), counted));
  EXPECT_FALSE(TypeAcceptsRef(TypeDef::OfValue(ValueType::kI32), counted));
  EXPECT_TRUE(TypeAcceptsRef(TypeDef::OfRef(OtherType()), VmRef()));
}

}  // namespace
}  // namespace ember::vm

namespace ember::vm {
namespace {

// A program can nest lists arbitrarily deep; freeing the chain must not
// recurse once per level (a few hundred thousand levels overflow the stack).
TEST(ListTest, DroppingADeepChainDoesNotRecurse) {
  for (TypeDef element_type : {TypeDef::Any(), TypeDef::OfRef(List::Type())}) {
    auto head = List::Create(element_type, 1);
    ASSERT_TRUE(head.ok());
    Ref<List> current = *head;
    for (int i = 0; i < 300000; ++i) {
      auto next = List::Create(element_type, 1);
      ASSERT_TRUE(next.ok());
      ASSERT_TRUE(current->PushRef(VmRef::Of(*next)).ok());
      current = *next;
    }
    current.reset();
    head->reset();  // frees the whole chain
  }
}

}  // namespace
}  // namespace ember::vm
