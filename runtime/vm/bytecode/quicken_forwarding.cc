#include <array>
#include <optional>
#include <utility>

#include "runtime/vm/bytecode/decoder.h"
#include "runtime/vm/bytecode/instruction_layout.h"
#include "runtime/vm/bytecode/quicken_forwarding_internal.h"
#include "runtime/vm/bytecode/quickened_code.h"

namespace ember::vm::bytecode::quicken {
namespace {

// Each internal form keeps the fields of the instruction it was made from,
// so its operand and result offsets are that instruction's layout.
constexpr uint8_t Byte(CoreOpcode op) { return static_cast<uint8_t>(op); }
constexpr uint8_t Byte(QuickOpcode op) { return static_cast<uint8_t>(op); }
constexpr uint8_t Byte(ExtF32Opcode op) { return DirectExtF32Opcode(op); }

// Forwarding matches the direct bytes; 0 would be a core opcode.
static_assert(Byte(ExtF32Opcode::AddF32) != 0 &&
              Byte(ExtF32Opcode::SubF32) != 0 &&
              Byte(ExtF32Opcode::MulF32) != 0 &&
              Byte(ExtF32Opcode::DivF32) != 0 &&
              Byte(ExtF32Opcode::CastSI32F32) != 0 &&
              Byte(ExtF32Opcode::CastUI32F32) != 0);

// Per opcode byte of the copy: the offset of the result field when the
// handler leaves its result in `acc`, else -1. The result is the last field
// of every such layout.
constexpr std::array<int16_t, 256> MakeResultSlots() {
  std::array<int16_t, 256> slot{};
  slot.fill(-1);
  auto producer = [&](uint8_t byte, const InstructionLayout& layout) {
    slot[byte] = layout.offsets[layout.field_count - 1];
  };
  using namespace layouts;
  using Q = QuickOpcode;
  using C = CoreOpcode;
  using F = ExtF32Opcode;
  // i32 binary ops: register, immediate, and forwarded forms.
  producer(Byte(C::AddI32), kCoreAddI32);
  producer(Byte(C::SubI32), kCoreSubI32);
  producer(Byte(C::MulI32), kCoreMulI32);
  producer(Byte(C::AndI32), kCoreAndI32);
  producer(Byte(C::OrI32), kCoreOrI32);
  producer(Byte(C::XorI32), kCoreXorI32);
  producer(Byte(C::ShlI32), kCoreShlI32);
  producer(Byte(C::ShrI32S), kCoreShrI32S);
  producer(Byte(C::ShrI32U), kCoreShrI32U);
  producer(Byte(Q::kAddI32Imm), kCoreAddI32);
  producer(Byte(Q::kSubI32Imm), kCoreSubI32);
  producer(Byte(Q::kMulI32Imm), kCoreMulI32);
  producer(Byte(Q::kAndI32Imm), kCoreAndI32);
  producer(Byte(Q::kOrI32Imm), kCoreOrI32);
  producer(Byte(Q::kXorI32Imm), kCoreXorI32);
  producer(Byte(Q::kShlI32Imm), kCoreShlI32);
  producer(Byte(Q::kShrI32SImm), kCoreShrI32S);
  producer(Byte(Q::kShrI32UImm), kCoreShrI32U);
  producer(Byte(Q::kAddI32AccL), kCoreAddI32);
  producer(Byte(Q::kSubI32AccL), kCoreSubI32);
  producer(Byte(Q::kMulI32AccL), kCoreMulI32);
  producer(Byte(Q::kAndI32AccL), kCoreAndI32);
  producer(Byte(Q::kOrI32AccL), kCoreOrI32);
  producer(Byte(Q::kXorI32AccL), kCoreXorI32);
  producer(Byte(Q::kShlI32AccL), kCoreShlI32);
  producer(Byte(Q::kShrI32SAccL), kCoreShrI32S);
  producer(Byte(Q::kShrI32UAccL), kCoreShrI32U);
  producer(Byte(Q::kAddI32ImmAcc), kCoreAddI32);
  producer(Byte(Q::kSubI32ImmAcc), kCoreSubI32);
  producer(Byte(Q::kMulI32ImmAcc), kCoreMulI32);
  producer(Byte(Q::kAndI32ImmAcc), kCoreAndI32);
  producer(Byte(Q::kOrI32ImmAcc), kCoreOrI32);
  producer(Byte(Q::kXorI32ImmAcc), kCoreXorI32);
  producer(Byte(Q::kShlI32ImmAcc), kCoreShlI32);
  producer(Byte(Q::kShrI32SImmAcc), kCoreShrI32S);
  producer(Byte(Q::kShrI32UImmAcc), kCoreShrI32U);
  // vm.fma.i32.
  producer(Byte(C::FMAI32), kCoreFMAI32);
  producer(Byte(Q::kFMAI32ImmB), kCoreFMAI32);
  producer(Byte(Q::kFMAI32ImmC), kCoreFMAI32);
  producer(Byte(Q::kFMAI32AccA), kCoreFMAI32);
  producer(Byte(Q::kFMAI32AccC), kCoreFMAI32);
  // f32 binary ops (direct opcodes only).
  producer(Byte(F::AddF32), kExtF32AddF32);
  producer(Byte(F::SubF32), kExtF32SubF32);
  producer(Byte(F::MulF32), kExtF32MulF32);
  producer(Byte(F::DivF32), kExtF32DivF32);
  producer(Byte(Q::kAddF32Imm), kExtF32AddF32);
  producer(Byte(Q::kSubF32Imm), kExtF32SubF32);
  producer(Byte(Q::kMulF32Imm), kExtF32MulF32);
  producer(Byte(Q::kAddF32AccL), kExtF32AddF32);
  producer(Byte(Q::kSubF32AccL), kExtF32SubF32);
  producer(Byte(Q::kSubF32AccR), kExtF32SubF32);
  producer(Byte(Q::kMulF32AccL), kExtF32MulF32);
  producer(Byte(Q::kAddF32AccR), kExtF32AddF32);
  producer(Byte(Q::kMulF32AccR), kExtF32MulF32);
  producer(Byte(Q::kDivF32AccL), kExtF32DivF32);
  producer(Byte(Q::kAddF32ImmAcc), kExtF32AddF32);
  producer(Byte(Q::kSubF32ImmAcc), kExtF32SubF32);
  producer(Byte(Q::kMulF32ImmAcc), kExtF32MulF32);
  // vm.fma.f32, FMA3 forms only.
  producer(Byte(Q::kFMAF32Hw), kExtF32FMAF32);
  producer(Byte(Q::kFMAF32HwImmB), kExtF32FMAF32);
  producer(Byte(Q::kFMAF32HwAccA), kExtF32FMAF32);
  producer(Byte(Q::kFMAF32HwAccB), kExtF32FMAF32);
  producer(Byte(Q::kFMAF32HwAccC), kExtF32FMAF32);
  // i32 -> f32 casts.
  producer(Byte(F::CastSI32F32), kExtF32CastSI32F32);
  producer(Byte(F::CastUI32F32), kExtF32CastUI32F32);
  producer(Byte(Q::kCastSI32F32Acc), kExtF32CastSI32F32);
  producer(Byte(Q::kCastUI32F32Acc), kExtF32CastUI32F32);
  return slot;
}
constexpr std::array<int16_t, 256> kResultSlot = MakeResultSlots();

// Consumers with one or two operands at offsets `a` and `b`. `left`: the
// form that takes operand a from acc; `right`: the one that takes operand b
// (none: swap the operands if commutative, else no form).
struct Binary {
  uint8_t byte;
  int a;
  int b;  // -1: a unary op
  QuickOpcode left;
  bool commutative;
  std::optional<QuickOpcode> right;
  bool immediate;  // b is an immediate (or absent), never a register
};
constexpr Binary TwoRegisters(uint8_t byte, const InstructionLayout& layout,
                              QuickOpcode left, bool commutative,
                              std::optional<QuickOpcode> right = {}) {
  return {byte, layout.offsets[0], layout.offsets[1], left, commutative, right,
          false};
}
constexpr Binary RegisterAndImmediate(uint8_t byte,
                                      const InstructionLayout& layout,
                                      QuickOpcode left) {
  return {byte, layout.offsets[0], layout.offsets[1], left, false, {}, true};
}
constexpr Binary OneRegister(uint8_t byte, const InstructionLayout& layout,
                             QuickOpcode form) {
  return {byte, layout.offsets[0], -1, form, false, {}, true};
}

constexpr Binary kBinary[] = {
#define EMBER_VM_I32_FORMS(name, commutative)                \
  TwoRegisters(Byte(CoreOpcode::name), layouts::kCore##name, \
               QuickOpcode::k##name##AccL, commutative),     \
      RegisterAndImmediate(Byte(QuickOpcode::k##name##Imm),  \
                           layouts::kCore##name,             \
                           QuickOpcode::k##name##ImmAcc),
    EMBER_VM_I32_FORMS(AddI32, true)    //
    EMBER_VM_I32_FORMS(SubI32, false)   //
    EMBER_VM_I32_FORMS(MulI32, true)    //
    EMBER_VM_I32_FORMS(AndI32, true)    //
    EMBER_VM_I32_FORMS(OrI32, true)     //
    EMBER_VM_I32_FORMS(XorI32, true)    //
    EMBER_VM_I32_FORMS(ShlI32, false)   //
    EMBER_VM_I32_FORMS(ShrI32S, false)  //
    EMBER_VM_I32_FORMS(ShrI32U, false)  //
#undef EMBER_VM_I32_FORMS
    // f32 operands are never swapped (see the NaN note in the header).
    TwoRegisters(Byte(ExtF32Opcode::AddF32), layouts::kExtF32AddF32,
                 QuickOpcode::kAddF32AccL, false, QuickOpcode::kAddF32AccR),
    TwoRegisters(Byte(ExtF32Opcode::SubF32), layouts::kExtF32SubF32,
                 QuickOpcode::kSubF32AccL, false, QuickOpcode::kSubF32AccR),
    TwoRegisters(Byte(ExtF32Opcode::MulF32), layouts::kExtF32MulF32,
                 QuickOpcode::kMulF32AccL, false, QuickOpcode::kMulF32AccR),
    TwoRegisters(Byte(ExtF32Opcode::DivF32), layouts::kExtF32DivF32,
                 QuickOpcode::kDivF32AccL, false),
    RegisterAndImmediate(Byte(QuickOpcode::kAddF32Imm), layouts::kExtF32AddF32,
                         QuickOpcode::kAddF32ImmAcc),
    RegisterAndImmediate(Byte(QuickOpcode::kSubF32Imm), layouts::kExtF32SubF32,
                         QuickOpcode::kSubF32ImmAcc),
    RegisterAndImmediate(Byte(QuickOpcode::kMulF32Imm), layouts::kExtF32MulF32,
                         QuickOpcode::kMulF32ImmAcc),
    OneRegister(Byte(ExtF32Opcode::CastSI32F32), layouts::kExtF32CastSI32F32,
                QuickOpcode::kCastSI32F32Acc),
    OneRegister(Byte(ExtF32Opcode::CastUI32F32), layouts::kExtF32CastUI32F32,
                QuickOpcode::kCastUI32F32Acc),
};

// Multiply-adds a * b + c: acc as a factor (moved to a unless the op has
// a form for b) or as c. f32 factors are not swapped (the NaN note).
struct Ternary {
  uint8_t byte;
  int a;
  int b;
  int c;
  QuickOpcode factor;
  std::optional<QuickOpcode> second_factor;
  QuickOpcode addend;
};
constexpr Ternary MultiplyAdd(uint8_t byte, const InstructionLayout& layout,
                              QuickOpcode factor,
                              std::optional<QuickOpcode> second_factor,
                              QuickOpcode addend) {
  return {byte,
          layout.offsets[0],
          layout.offsets[1],
          layout.offsets[2],
          factor,
          second_factor,
          addend};
}
constexpr Ternary kTernary[] = {
    MultiplyAdd(Byte(CoreOpcode::FMAI32), layouts::kCoreFMAI32,
                QuickOpcode::kFMAI32AccA, {}, QuickOpcode::kFMAI32AccC),
    MultiplyAdd(Byte(QuickOpcode::kFMAF32Hw), layouts::kExtF32FMAF32,
                QuickOpcode::kFMAF32HwAccA, QuickOpcode::kFMAF32HwAccB,
                QuickOpcode::kFMAF32HwAccC),
};

uint16_t Get16(const uint8_t* p) {
  return static_cast<uint16_t>(p[0] | (p[1] << 8));
}

void Swap16(uint8_t* a, uint8_t* b) {
  std::swap(a[0], b[0]);
  std::swap(a[1], b[1]);
}

// Rewrites the instruction at `at` into its ...Acc form if one of its
// operands is register `acc`. Returns whether it did.
bool Forward(uint8_t* at, uint16_t acc) {
  for (const Binary& form : kBinary) {
    if (at[0] != form.byte) continue;
    if (Get16(at + form.a) == acc) {
      at[0] = static_cast<uint8_t>(form.left);
      return true;
    }
    if (form.immediate || Get16(at + form.b) != acc) return false;
    if (form.right) {
      at[0] = static_cast<uint8_t>(*form.right);
      return true;
    }
    if (!form.commutative) return false;
    Swap16(at + form.a, at + form.b);
    at[0] = static_cast<uint8_t>(form.left);
    return true;
  }
  for (const Ternary& form : kTernary) {
    if (at[0] != form.byte) continue;
    uint8_t* a = at + form.a;
    uint8_t* b = at + form.b;
    uint8_t* c = at + form.c;
    if (Get16(a) == acc) {
      at[0] = static_cast<uint8_t>(form.factor);
    } else if (Get16(b) == acc && form.second_factor) {
      at[0] = static_cast<uint8_t>(*form.second_factor);
    } else if (Get16(b) == acc) {
      Swap16(a, b);
      at[0] = static_cast<uint8_t>(form.factor);
    } else if (Get16(c) == acc) {
      at[0] = static_cast<uint8_t>(form.addend);
    } else {
      return false;
    }
    return true;
  }
  return false;
}

}  // namespace

void ForwardResults(std::span<const uint8_t> function,
                    std::vector<uint8_t>& code) {
  DecodedInstruction instruction;
  std::optional<uint16_t> acc;  // the register whose value is in acc
  for (uint32_t pc = 0; pc < function.size(); pc = instruction.next_pc) {
    // The copy was built from these bytes, which decoded before.
    if (!DecodeInstruction(function, pc, &instruction).ok()) return;
    uint8_t* at = code.data() + pc;
    if (acc) Forward(at, *acc);
    int slot = kResultSlot[at[0]];
    if (slot >= 0 &&
        static_cast<uint32_t>(slot) + 2 <= instruction.next_pc - pc) {
      acc = Get16(at + slot);
    } else {
      acc.reset();
    }
  }
}

}  // namespace ember::vm::bytecode::quicken
