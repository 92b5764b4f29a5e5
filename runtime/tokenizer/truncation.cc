// A tokenizer.json's "truncation" and "padding": what `tokenizers` does to
// every encoding of a tokenizer saved with them enabled
// (docs/tokenizer.md "Truncation and padding").
#include <algorithm>

#include "runtime/tokenizer/json_util.h"

namespace ember::tokenizer {

namespace {

// Its "direction": "Left" or "Right" (`field` names it in errors).
Result<bool> IsLeft(const object& o, std::string_view where,
                    std::string_view fallback) {
  EMBER_ASSIGN_OR_RETURN(std::string_view d,
                         GetOptionalString(o, "direction", where, fallback));
  if (d != "Left" && d != "Right") {
    return InvalidArgumentError(
        StringPrintf("%.*s: \"direction\" is neither \"Left\" nor \"Right\"",
                     static_cast<int>(where.size()), where.data()));
  }
  return d == "Left";
}

// A count that must fit an int32 id list (`tokenizers` takes any usize;
// no encoding here gets near 2^31 ids).
constexpr uint64_t kMaxLength = INT32_MAX;

}  // namespace

Status LoadTruncationAndPadding(const object& top, Pipeline* p) {
  element e;
  object o;
  if (!IsNullOrAbsent(top, "truncation")) {
    constexpr std::string_view kWhere = "truncation";
    if (!Field(top, "truncation", &e) ||
        e.get_object().get(o) != simdjson::SUCCESS) {
      return InvalidArgumentError(
          "\"truncation\" is neither null nor an object");
    }
    Truncation& t = p->truncation;
    t.enabled = true;
    // `tokenizers`' serde default for the direction is Right.
    EMBER_ASSIGN_OR_RETURN(t.left, IsLeft(o, kWhere, "Right"));
    EMBER_ASSIGN_OR_RETURN(t.max_length,
                           GetUint(o, "max_length", kWhere, kMaxLength));
    EMBER_ASSIGN_OR_RETURN(t.stride, GetUint(o, "stride", kWhere, kMaxLength));
    EMBER_ASSIGN_OR_RETURN(std::string_view strategy,
                           GetString(o, "strategy", kWhere));
    if (strategy == "LongestFirst") {
      t.strategy = Truncation::Strategy::kLongestFirst;
    } else if (strategy == "OnlyFirst") {
      t.strategy = Truncation::Strategy::kOnlyFirst;
    } else if (strategy == "OnlySecond") {
      t.strategy = Truncation::Strategy::kOnlySecond;
    } else {
      return InvalidArgumentError(
          "truncation: \"strategy\" is not LongestFirst, OnlyFirst or "
          "OnlySecond");
    }
  }
  if (!IsNullOrAbsent(top, "padding")) {
    constexpr std::string_view kWhere = "padding";
    if (!Field(top, "padding", &e) ||
        e.get_object().get(o) != simdjson::SUCCESS) {
      return InvalidArgumentError("\"padding\" is neither null nor an object");
    }
    Padding& pad = p->padding;
    pad.enabled = true;
    EMBER_ASSIGN_OR_RETURN(pad.left, IsLeft(o, kWhere, ""));
    element s;
    std::string_view name;
    object fixed;
    if (!Field(o, "strategy", &s)) {
      return InvalidArgumentError("padding: \"strategy\" is missing");
    }
    if (s.get_string().get(name) == simdjson::SUCCESS &&
        name == "BatchLongest") {
      pad.fixed = false;
    } else if (s.get_object().get(fixed) == simdjson::SUCCESS &&
               fixed.size() == 1) {
      EMBER_ASSIGN_OR_RETURN(pad.length,
                             GetUint(fixed, "Fixed", kWhere, kMaxLength));
      pad.fixed = true;
    } else {
      return InvalidArgumentError(
          "padding: \"strategy\" is neither \"BatchLongest\" nor "
          "{\"Fixed\": n}");
    }
    if (!IsNullOrAbsent(o, "pad_to_multiple_of")) {
      EMBER_ASSIGN_OR_RETURN(
          pad.multiple, GetUint(o, "pad_to_multiple_of", kWhere, kMaxLength));
    }
    EMBER_ASSIGN_OR_RETURN(uint64_t id,
                           GetUint(o, "pad_id", kWhere, UINT32_MAX));
    EMBER_RETURN_IF_ERROR(
        GetUint(o, "pad_type_id", kWhere, UINT32_MAX).status());
    EMBER_RETURN_IF_ERROR(GetString(o, "pad_token", kWhere).status());
    // `tokenizers` pads with the id whatever it names; a decode of it then
    // drops it silently, and Ember's decode would reject it.
    if (id > INT32_MAX || !p->IdToToken(static_cast<int32_t>(id))) {
      return InvalidArgumentError(StringPrintf(
          "padding: pad_id %llu is neither in the vocabulary nor an added "
          "token",
          static_cast<unsigned long long>(id)));
    }
    pad.id = static_cast<int32_t>(id);
  }
  return Status::Ok();
}

size_t Pipeline::AddedBySpecialTokens() const {
  // `tokenizers`' added_tokens(is_pair = false): what each post-processor
  // of the list adds to one sequence, summed (a Template: the ids of the
  // special tokens of its single template that "special_tokens" has).
  size_t n = 0;
  for (const PostProcessor& pp : post_processors) {
    switch (pp.kind) {
      case PostProcessor::Kind::kTemplate:
        for (const TemplateItem& item : pp.single) {
          if (!item.is_sequence) n += item.ids.size();
        }
        break;
      case PostProcessor::Kind::kBert:
      case PostProcessor::Kind::kRoberta: n += 2; break;
      case PostProcessor::Kind::kByteLevel: break;
    }
  }
  return n;
}

Result<size_t> Pipeline::TruncatedLength(size_t length,
                                         bool add_special_tokens) const {
  if (!truncation.enabled) return length;
  // With special tokens to come, they count against max_length. When they
  // alone exceed it, `tokenizers`' unsigned subtraction wraps around (its
  // release builds do not check) and nothing is truncated.
  size_t max = truncation.max_length;
  const size_t added = AddedBySpecialTokens();
  if (add_special_tokens && added > 0) {
    if (added > max) return length;
    max -= added;
  }
  if (max == 0) return size_t{0};
  if (length <= max) return length;
  if (truncation.strategy == Truncation::Strategy::kOnlySecond) {
    return InvalidArgumentError(
        "Truncation error: Second sequence not provided (truncation "
        "strategy OnlySecond on a single sequence)");
  }
  if (truncation.stride >= max) {
    // `tokenizers` asserts this and panics.
    return InvalidArgumentError(StringPrintf(
        "truncation: stride %zu must be less than the length %zu a "
        "sequence is cut to (max_length less the special tokens)",
        truncation.stride, max));
  }
  return max;
}

size_t Pipeline::PaddedLength(size_t longest) const {
  size_t n = padding.fixed ? padding.length : longest;
  if (padding.multiple > 0 && n % padding.multiple > 0) {
    n += padding.multiple - n % padding.multiple;
  }
  return n;
}

}  // namespace ember::tokenizer
