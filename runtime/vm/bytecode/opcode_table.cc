// Materialises the opcode X-macro into per-set OpcodeInfo arrays and
// 256-entry lookup indices, all at compile time.
//
// Where IREE 3.11's compiler and runtime disagree, the table follows the
// runtime (verifier.c / dispatch.c), because that is what decides whether a
// module loads and how it runs:
//
//   * CondBreak (0x60). The runtime reads an i32 condition register before
//     the branch target; the compiler's encoding (VMOps.td) writes only the
//     target and remap list. Modules containing vm.cond_break therefore fail
//     IREE's own verifier. The table follows the runtime; the compiler never
//     emits cond_break on its own (it only passes through from user VM IR).
//   * vm.global.load.indirect.f32 carries the ExtF64 trait in VMOps.td, so the
//     compiler emits it as ExtF64 0x02 (GlobalLoadIndirectF64, which reads
//     an even f64 register pair). The table gives ExtF32 0x02 its meaning,
//     which is what the runtime implements. The optimiser usually folds
//     indirect global accesses into direct ones, so this is rarely seen.
//   * vm.global.store.indirect.f32 names the core opcode GlobalStoreIndirectI32
//     but carries the ExtF32 trait, so it is emitted as E0 03 -- which is the
//     correct ExtF32 GlobalStoreIndirectF32 by coincidence of numbering.
//
// Move bits follow the runtime decoder: ref fields read with
// ..._REF_MOVE accept the MOVE bit, fields read with ..._REF reject it.
// DiscardRefs's list is verified by IREE as "any register"; the table calls
// it a ref list (the compiler only ever puts refs there) so that Ember's
// verifier can be the stricter of the two.
#include "runtime/vm/bytecode/opcode_table.h"

#include <array>

namespace ember::vm::bytecode {
namespace {

using enum FieldKind;

// One FieldInfo array per instruction, always terminated by a kEnd entry
// (which also keeps field-less instructions from being zero-length arrays).
#define EMBER_VM_DEFINE_FIELDS(set, byte, id, mnemonic, flags, ...) \
  constexpr FieldInfo k##set##id##Fields[] = {                      \
      __VA_ARGS__ __VA_OPT__(, ){kEnd, nullptr}};
EMBER_VM_ALL_OPCODES(EMBER_VM_DEFINE_FIELDS)
#undef EMBER_VM_DEFINE_FIELDS

constexpr uint8_t CountFields(const FieldInfo* fields) {
  uint8_t count = 0;
  while (fields[count].kind != kEnd) ++count;
  return count;
}

#define EMBER_VM_DEFINE_INFO(set, byte, id, mnemonic, flags, ...) \
  OpcodeInfo{OpcodeSet::k##set,                                   \
             byte,                                                \
             static_cast<uint8_t>(flags),                         \
             CountFields(k##set##id##Fields),                     \
             #id,                                                 \
             mnemonic,                                            \
             k##set##id##Fields},

constexpr OpcodeInfo kCoreInfos[] = {
    EMBER_VM_CORE_OPCODES(EMBER_VM_DEFINE_INFO)};
constexpr OpcodeInfo kExtF32Infos[] = {
    EMBER_VM_EXT_F32_OPCODES(EMBER_VM_DEFINE_INFO)};
constexpr OpcodeInfo kExtF64Infos[] = {
    EMBER_VM_EXT_F64_OPCODES(EMBER_VM_DEFINE_INFO)};
#undef EMBER_VM_DEFINE_INFO

// Compile-time checks of the table's shape. The opcode numbers themselves
// are checked against hand-assembled and compiler-produced bytes in tests.
template <size_t N>
constexpr bool IsStrictlyAscending(const OpcodeInfo (&infos)[N]) {
  for (size_t i = 1; i < N; ++i) {
    if (infos[i].opcode <= infos[i - 1].opcode) return false;
  }
  return true;
}
template <size_t N>
constexpr bool FieldCountsFit(const OpcodeInfo (&infos)[N]) {
  for (const OpcodeInfo& info : infos) {
    if (info.field_count > kMaxInstructionFields) return false;
  }
  return true;
}
static_assert(IsStrictlyAscending(kCoreInfos), "core opcodes out of order");
static_assert(IsStrictlyAscending(kExtF32Infos), "ExtF32 opcodes out of order");
static_assert(IsStrictlyAscending(kExtF64Infos), "ExtF64 opcodes out of order");
static_assert(FieldCountsFit(kCoreInfos) && FieldCountsFit(kExtF32Infos) &&
                  FieldCountsFit(kExtF64Infos),
              "raise kMaxInstructionFields");
static_assert(std::size(kCoreInfos) == kCoreOpcodeCount);
static_assert(kCoreOpcodeCount == 139, "IREE 3.11 defines 139 core opcodes");
// 3.11's 62 / 64 plus vm.fpowi.f32 / vm.fpowi.f64 from 3.12.
static_assert(kExtF32OpcodeCount == 63, "IREE 3.13 defines 63 ExtF32 opcodes");
static_assert(kExtF64OpcodeCount == 65, "IREE 3.13 defines 65 ExtF64 opcodes");

// opcode byte -> index into the set's array, or -1.
using OpcodeIndex = std::array<int16_t, 256>;

template <size_t N>
constexpr OpcodeIndex BuildIndex(const OpcodeInfo (&infos)[N]) {
  OpcodeIndex index{};
  for (auto& slot : index) slot = -1;
  for (size_t i = 0; i < N; ++i)
    index[infos[i].opcode] = static_cast<int16_t>(i);
  return index;
}

constexpr OpcodeIndex kCoreIndex = BuildIndex(kCoreInfos);
constexpr OpcodeIndex kExtF32Index = BuildIndex(kExtF32Infos);
constexpr OpcodeIndex kExtF64Index = BuildIndex(kExtF64Infos);

}  // namespace

const OpcodeInfo* LookupOpcode(OpcodeSet set, uint8_t opcode) {
  switch (set) {
    case OpcodeSet::kCore: {
      int16_t i = kCoreIndex[opcode];
      return i < 0 ? nullptr : &kCoreInfos[i];
    }
    case OpcodeSet::kExtF32: {
      int16_t i = kExtF32Index[opcode];
      return i < 0 ? nullptr : &kExtF32Infos[i];
    }
    case OpcodeSet::kExtF64: {
      int16_t i = kExtF64Index[opcode];
      return i < 0 ? nullptr : &kExtF64Infos[i];
    }
  }
  return nullptr;
}

std::span<const OpcodeInfo> OpcodesInSet(OpcodeSet set) {
  switch (set) {
    case OpcodeSet::kCore: return kCoreInfos;
    case OpcodeSet::kExtF32: return kExtF32Infos;
    case OpcodeSet::kExtF64: return kExtF64Infos;
  }
  return {};
}

const char* OpcodeSetName(OpcodeSet set) {
  switch (set) {
    case OpcodeSet::kCore: return "core";
    case OpcodeSet::kExtF32: return "ext_f32";
    case OpcodeSet::kExtF64: return "ext_f64";
  }
  return "?";
}

const char* FieldKindName(FieldKind kind) {
  switch (kind) {
    case kEnd: return "End";
    case kRegI32: return "RegI32";
    case kRegI64: return "RegI64";
    case kRegF32: return "RegF32";
    case kRegF64: return "RegF64";
    case kResI32: return "ResI32";
    case kResI64: return "ResI64";
    case kResF32: return "ResF32";
    case kResF64: return "ResF64";
    case kRegRef: return "RegRef";
    case kRegRefMove: return "RegRefMove";
    case kResRefMove: return "ResRefMove";
    case kImmI32: return "ImmI32";
    case kImmI64: return "ImmI64";
    case kImmF32: return "ImmF32";
    case kImmF64: return "ImmF64";
    case kFuncOrdinal: return "FuncOrdinal";
    case kGlobalByteOffset: return "GlobalByteOffset";
    case kGlobalRefOrdinal: return "GlobalRefOrdinal";
    case kRodataOrdinal: return "RodataOrdinal";
    case kTypeOrdinal: return "TypeOrdinal";
    case kString: return "String";
    case kBranchTarget: return "BranchTarget";
    case kBranchRemap: return "BranchRemap";
    case kBranchTableCases: return "BranchTableCases";
    case kListI32: return "ListI32";
    case kListI64: return "ListI64";
    case kListF32: return "ListF32";
    case kListF64: return "ListF64";
    case kListRefMove: return "ListRefMove";
    case kListAny: return "ListAny";
    case kListResults: return "ListResults";
    case kSegmentSizes: return "SegmentSizes";
  }
  return "?";
}

}  // namespace ember::vm::bytecode
