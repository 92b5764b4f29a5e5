#include "runtime/vm/bytecode/decoder.h"

#include <cinttypes>
#include <cstdio>
#include <limits>

#include "runtime/base/printable.h"

namespace ember::vm::bytecode {
namespace {

constexpr size_t AlignTo2(size_t offset) { return (offset + 1) & ~size_t{1}; }

// Where the cases of a br_table case starting at `offset` end, and what the
// case holds. Only called on ranges the decoder has already bounds-checked.
size_t ReadBranchCase(const uint8_t* function, size_t offset, BranchCase* out) {
  uint32_t target = LoadLE<uint32_t>(function + offset);
  size_t remap_offset = AlignTo2(offset + 4);
  uint16_t count = LoadLE<uint16_t>(function + remap_offset);
  if (out) {
    out->target = target;
    out->remap = RemapList(function + remap_offset + 2, count);
  }
  return remap_offset + 2 + size_t{4} * count;
}

// Walks one instruction's fields with a bounds check before every read.
class FieldReader {
 public:
  FieldReader(std::span<const uint8_t> function, uint32_t instruction_pc,
              size_t position, const OpcodeInfo* info)
      : data_(function.data()),
        size_(function.size()),
        instruction_pc_(instruction_pc),
        position_(position),
        info_(info) {}

  size_t position() const { return position_; }

  Status Decode(const FieldInfo& field, DecodedField* out) {
    out->info = &field;
    switch (GetFieldTraits(field.kind).encoding) {
      case FieldEncoding::kNone:
        return InternalError("opcode table has a field without encoding");
      case FieldEncoding::kRegister:
        EMBER_RETURN_IF_ERROR(Require(2, field));
        out->offset = static_cast<uint32_t>(position_);
        out->reg = LoadLE<uint16_t>(data_ + position_);
        position_ += 2;
        return Status();
      case FieldEncoding::kU32:
        EMBER_RETURN_IF_ERROR(Require(4, field));
        out->offset = static_cast<uint32_t>(position_);
        out->bits = LoadLE<uint32_t>(data_ + position_);
        position_ += 4;
        return Status();
      case FieldEncoding::kU64:
        EMBER_RETURN_IF_ERROR(Require(8, field));
        out->offset = static_cast<uint32_t>(position_);
        out->bits = LoadLE<uint64_t>(data_ + position_);
        position_ += 8;
        return Status();
      case FieldEncoding::kString: {
        EMBER_RETURN_IF_ERROR(Require(2, field));
        out->offset = static_cast<uint32_t>(position_);
        uint16_t length = LoadLE<uint16_t>(data_ + position_);
        position_ += 2;
        EMBER_RETURN_IF_ERROR(Require(length, field));
        out->string = std::string_view(
            reinterpret_cast<const char*>(data_ + position_), length);
        position_ += length;
        return Status();
      }
      case FieldEncoding::kRegisterList: {
        EMBER_RETURN_IF_ERROR(AlignAndRequireCount(field));
        out->offset = static_cast<uint32_t>(position_);
        uint16_t count = LoadLE<uint16_t>(data_ + position_);
        position_ += 2;
        EMBER_RETURN_IF_ERROR(Require(size_t{2} * count, field));
        out->list = RegisterList(data_ + position_, count);
        position_ += size_t{2} * count;
        return Status();
      }
      case FieldEncoding::kRemapList: {
        EMBER_RETURN_IF_ERROR(AlignAndRequireCount(field));
        out->offset = static_cast<uint32_t>(position_);
        uint16_t count = LoadLE<uint16_t>(data_ + position_);
        position_ += 2;
        EMBER_RETURN_IF_ERROR(Require(size_t{4} * count, field));
        out->remap = RemapList(data_ + position_, count);
        position_ += size_t{4} * count;
        return Status();
      }
      case FieldEncoding::kBranchTable: {
        // The case count is an unpadded u16; each case is a u32 target and
        // a padded remap list.
        EMBER_RETURN_IF_ERROR(Require(2, field));
        out->offset = static_cast<uint32_t>(position_);
        uint16_t count = LoadLE<uint16_t>(data_ + position_);
        position_ += 2;
        size_t first_case = position_;
        for (uint32_t i = 0; i < count; ++i) {
          EMBER_RETURN_IF_ERROR(Require(4, field));
          position_ += 4;
          EMBER_RETURN_IF_ERROR(AlignAndRequireCount(field));
          uint16_t pairs = LoadLE<uint16_t>(data_ + position_);
          position_ += 2;
          EMBER_RETURN_IF_ERROR(Require(size_t{4} * pairs, field));
          position_ += size_t{4} * pairs;
        }
        out->cases =
            BranchCaseList(data_, static_cast<uint32_t>(first_case), count);
        return Status();
      }
    }
    return InternalError("unknown field encoding");
  }

 private:
  // Checks that `count` more bytes exist at the current position.
  Status Require(size_t count, const FieldInfo& field) const {
    if (count <= size_ - position_) return Status();
    return MakeStatus(StatusCode::kDataLoss,
                      "bytecode truncated: %s at offset 0x%08X needs %zu "
                      "byte(s) for field '%s' at offset 0x%08zX, but the "
                      "function ends at 0x%08zX",
                      info_->mnemonic, instruction_pc_, count, field.name,
                      position_, size_);
  }

  // Skips the padding to an even offset and checks the u16 count after it.
  Status AlignAndRequireCount(const FieldInfo& field) {
    size_t aligned = AlignTo2(position_);
    if (aligned > size_) {
      return MakeStatus(StatusCode::kDataLoss,
                        "bytecode truncated: %s at offset 0x%08X ends inside "
                        "the padding before field '%s' (function ends at "
                        "0x%08zX)",
                        info_->mnemonic, instruction_pc_, field.name, size_);
    }
    position_ = aligned;
    return Require(2, field);
  }

  const uint8_t* data_;
  size_t size_;
  uint32_t instruction_pc_;
  size_t position_;
  const OpcodeInfo* info_;
};

}  // namespace

BranchCase BranchCaseList::Iterator::operator*() const {
  BranchCase result;
  ReadBranchCase(function_, offset_, &result);
  return result;
}

BranchCaseList::Iterator& BranchCaseList::Iterator::operator++() {
  offset_ = static_cast<uint32_t>(ReadBranchCase(function_, offset_, nullptr));
  --remaining_;
  return *this;
}

BranchCase BranchCaseList::operator[](size_t i) const {
  size_t offset = offset_;
  for (size_t k = 0; k < i; ++k) {
    offset = ReadBranchCase(function_, offset, nullptr);
  }
  BranchCase result;
  ReadBranchCase(function_, offset, &result);
  return result;
}

Status DecodeInstruction(std::span<const uint8_t> function, uint32_t pc,
                         DecodedInstruction* out) {
  const size_t size = function.size();
  if (size > std::numeric_limits<uint32_t>::max()) {
    return InvalidArgumentError(
        "bytecode function is larger than 4 GiB; offsets are 32-bit");
  }
  if (pc >= size) {
    return MakeStatus(StatusCode::kInvalidArgument,
                      "no instruction at offset 0x%08X: the function is %zu "
                      "byte(s) long",
                      pc, size);
  }
  const uint8_t opcode = function[pc];
  const OpcodeInfo* info = LookupOpcode(OpcodeSet::kCore, opcode);
  if (!info) {
    return MakeStatus(StatusCode::kInvalidArgument,
                      "unknown opcode 0x%02X at offset 0x%08X", opcode, pc);
  }
  size_t position = size_t{pc} + 1;
  if (info->has_flag(kPrefix)) {
    const OpcodeSet set = PrefixTarget(opcode);
    if (position >= size) {
      return MakeStatus(StatusCode::kDataLoss,
                        "bytecode truncated: %s prefix at offset 0x%08X is "
                        "the last byte of the function",
                        OpcodeSetName(set), pc);
    }
    const uint8_t extension_opcode = function[position];
    info = LookupOpcode(set, extension_opcode);
    if (!info) {
      return MakeStatus(StatusCode::kInvalidArgument,
                        "unknown %s opcode 0x%02X at offset 0x%08X",
                        OpcodeSetName(set), extension_opcode, pc);
    }
    ++position;
  }

  out->info = info;
  out->pc = pc;
  out->field_count = info->field_count;
  FieldReader reader(function, pc, position, info);
  for (uint8_t i = 0; i < info->field_count; ++i) {
    out->fields[i] = DecodedField();
    EMBER_RETURN_IF_ERROR(reader.Decode(info->fields[i], &out->fields[i]));
  }
  out->next_pc = static_cast<uint32_t>(reader.position());
  return Status();
}

//===----------------------------------------------------------------------===//
// Disassembly
//===----------------------------------------------------------------------===//

namespace {

void AppendRegister(std::string* text, uint16_t raw, OperandType type) {
  const bool is_ref = (raw & kRefRegisterBit) != 0;
  if (type == OperandType::kAny)
    type = is_ref ? OperandType::kRef : OperandType::kI32;
  if (type == OperandType::kRef) {
    if (!is_ref) {
      *text += StringPrintf("%%?0x%04X", raw);
      return;
    }
    *text += StringPrintf("%%r%u", raw & kRefOrdinalMask);
    if (raw & kRefMoveBit) *text += '!';
    return;
  }
  if (is_ref) {
    *text += StringPrintf("%%?0x%04X", raw);
    return;
  }
  if (IsWideOperandType(type)) {
    *text += StringPrintf("%%i%u:%u", raw, raw + 1u);
  } else {
    *text += StringPrintf("%%i%u", raw);
  }
}

void AppendRegisterList(std::string* text, const RegisterList& list,
                        OperandType type) {
  for (uint16_t i = 0; i < list.size(); ++i) {
    if (i) *text += ", ";
    AppendRegister(text, list[i], type);
  }
}

void AppendRemap(std::string* text, const RemapList& remap) {
  *text += '(';
  for (uint16_t i = 0; i < remap.size(); ++i) {
    if (i) *text += ", ";
    AppendRegister(text, remap.source(i), OperandType::kAny);
    *text += "->";
    AppendRegister(text, remap.destination(i), OperandType::kAny);
  }
  *text += ')';
}

void AppendQuoted(std::string* text, std::string_view value) {
  *text += '"';
  AppendEscaped(*text, value, Escape::kAscii);
  *text += '"';
}

bool IsResultKind(FieldKind kind) {
  switch (kind) {
    case FieldKind::kResI32:
    case FieldKind::kResI64:
    case FieldKind::kResF32:
    case FieldKind::kResF64:
    case FieldKind::kResRefMove:
    case FieldKind::kListResults: return true;
    default: return false;
  }
}

}  // namespace

std::string DisassembleInstruction(const DecodedInstruction& instruction) {
  std::string results;
  std::string operands;
  auto begin_operand = [&operands]() {
    if (!operands.empty()) operands += ", ";
  };
  for (const DecodedField& field : instruction.field_span()) {
    const FieldKind kind = field.kind();
    const FieldTraits traits = GetFieldTraits(kind);
    if (IsResultKind(kind)) {
      if (!results.empty() &&
          !(kind == FieldKind::kListResults && field.list.empty())) {
        results += ", ";
      }
      if (kind == FieldKind::kListResults) {
        AppendRegisterList(&results, field.list, OperandType::kAny);
      } else {
        AppendRegister(&results, field.reg, traits.type);
      }
      continue;
    }
    switch (kind) {
      case FieldKind::kBranchRemap:
        // Printed right after the target it belongs to.
        AppendRemap(&operands, field.remap);
        continue;
      case FieldKind::kBranchTarget:
        begin_operand();
        operands += StringPrintf("^0x%X", field.u32());
        continue;
      default: break;
    }
    begin_operand();
    switch (kind) {
      case FieldKind::kImmI32:
        operands += StringPrintf("%d", field.i32());
        break;
      case FieldKind::kImmI64:
        operands += StringPrintf("%" PRId64, field.i64());
        break;
      case FieldKind::kImmF32:
        operands += StringPrintf("%.9g", static_cast<double>(field.f32()));
        break;
      case FieldKind::kImmF64:
        operands += StringPrintf("%.17g", field.f64());
        break;
      case FieldKind::kFuncOrdinal:
        if (field.u32() & kImportOrdinalBit) {
          operands +=
              StringPrintf("@import[%u]", field.u32() & ~kImportOrdinalBit);
        } else {
          operands += StringPrintf("@func[%u]", field.u32());
        }
        break;
      case FieldKind::kGlobalByteOffset:
        operands += StringPrintf(".rwdata[%u]", field.u32());
        break;
      case FieldKind::kGlobalRefOrdinal:
        operands += StringPrintf(".refs[%u]", field.u32());
        break;
      case FieldKind::kRodataOrdinal:
        operands += StringPrintf(".rodata[%u]", field.u32());
        break;
      case FieldKind::kTypeOrdinal:
        operands += StringPrintf("!type[%u]", field.u32());
        break;
      case FieldKind::kString: AppendQuoted(&operands, field.string); break;
      case FieldKind::kBranchTableCases: {
        operands += '{';
        uint32_t index = 0;
        for (BranchCase c : field.cases) {
          if (index) operands += ", ";
          operands += StringPrintf("%u: ^0x%X", index, c.target);
          AppendRemap(&operands, c.remap);
          ++index;
        }
        operands += '}';
        break;
      }
      case FieldKind::kListAny:
        operands += '(';
        AppendRegisterList(&operands, field.list, OperandType::kAny);
        operands += ')';
        break;
      case FieldKind::kSegmentSizes:
        operands += "segments[";
        for (uint16_t i = 0; i < field.list.size(); ++i) {
          if (i) operands += ", ";
          operands += StringPrintf("%d", field.segment_size(i));
        }
        operands += ']';
        break;
      default:
        if (traits.encoding == FieldEncoding::kRegisterList) {
          operands += '[';
          AppendRegisterList(&operands, field.list, traits.type);
          operands += ']';
        } else if (traits.encoding == FieldEncoding::kRegister) {
          AppendRegister(&operands, field.reg, traits.type);
        } else {
          operands += "?";
        }
        break;
    }
  }
  std::string text;
  if (!results.empty()) {
    text += results;
    text += " = ";
  }
  text += instruction.info->mnemonic;
  if (!operands.empty()) {
    text += ' ';
    text += operands;
  }
  return text;
}

Result<std::string> DisassembleFunction(std::span<const uint8_t> function) {
  std::string text;
  DecodedInstruction instruction;
  uint32_t pc = 0;
  while (pc < function.size()) {
    EMBER_RETURN_IF_ERROR(DecodeInstruction(function, pc, &instruction));
    text += StringPrintf("[%08X] ", pc);
    text += DisassembleInstruction(instruction);
    text += '\n';
    pc = instruction.next_pc;
  }
  return text;
}

}  // namespace ember::vm::bytecode
