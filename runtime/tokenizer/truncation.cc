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
    EMBER_ASSIGN_OR_RETURN(uint64_t type_id,
                           GetUint(o, "pad_type_id", kWhere, UINT32_MAX));
    pad.type_id = static_cast<uint32_t>(type_id);
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

size_t Pipeline::AddedBySpecialTokens(bool is_pair) const {
  // `tokenizers`' added_tokens(is_pair): what each post-processor of the
  // list adds, summed (a Template: the ids of the special tokens of its
  // single or pair template that "special_tokens" has; Bert [CLS] a [SEP]
  // b [SEP]; Roberta <s> a </s> </s> b </s>).
  size_t n = 0;
  for (const PostProcessor& pp : post_processors) {
    switch (pp.kind) {
      case PostProcessor::Kind::kTemplate:
        for (const TemplateItem& item : is_pair ? pp.pair : pp.single) {
          if (!item.is_sequence) n += item.ids.size();
        }
        break;
      case PostProcessor::Kind::kBert: n += is_pair ? 3 : 2; break;
      case PostProcessor::Kind::kRoberta: n += is_pair ? 4 : 2; break;
      case PostProcessor::Kind::kByteLevel: break;
    }
  }
  return n;
}

namespace {

// `tokenizers`' Encoding::truncate's length: nothing when `keep` is not
// shorter; it asserts (panics) that the stride is below a cut length.
Result<size_t> CutTo(size_t keep, size_t length, uint64_t stride) {
  if (keep >= length || keep == 0) return std::min(keep, length);
  if (stride >= keep) {
    return InvalidArgumentError(StringPrintf(
        "truncation: stride %llu must be less than the length %zu a "
        "sequence is cut to (max_length less the special tokens)",
        static_cast<unsigned long long>(stride), keep));
  }
  return keep;
}

}  // namespace

Result<std::pair<size_t, size_t>> Pipeline::TruncatedLengths(
    size_t first, std::optional<size_t> second, bool add_special_tokens) const {
  const size_t b = second.value_or(0);
  if (!truncation.enabled) return std::make_pair(first, b);
  // With special tokens to come, they count against max_length. When they
  // alone exceed it, `tokenizers`' unsigned subtraction wraps around (its
  // release builds do not check) and nothing is truncated.
  size_t max = truncation.max_length;
  const size_t added = AddedBySpecialTokens(second.has_value());
  if (add_special_tokens && added > 0) {
    if (added > max) return std::make_pair(first, b);
    max -= added;
  }
  const uint64_t stride = truncation.stride;
  if (max == 0) return std::make_pair(size_t{0}, size_t{0});
  const size_t total = first + b;
  if (total <= max) return std::make_pair(first, b);
  const size_t to_remove = total - max;
  switch (truncation.strategy) {
    case Truncation::Strategy::kLongestFirst: {
      if (!second) {
        EMBER_ASSIGN_OR_RETURN(size_t n, CutTo(max, first, stride));
        return std::make_pair(n, size_t{0});
      }
      // `tokenizers`: the shorter keeps its length when the longer can
      // take the cut alone, else both get half (the second the odd one).
      size_t n1 = first, n2 = b;
      const bool swap = n1 > n2;
      if (swap) std::swap(n1, n2);
      n2 = n1 > max ? n1 : std::max(n1, max - n1);
      if (n1 + n2 > max) {
        n1 = max / 2;
        n2 = n1 + max % 2;
      }
      if (swap) std::swap(n1, n2);
      EMBER_ASSIGN_OR_RETURN(size_t k1, CutTo(n1, first, stride));
      EMBER_ASSIGN_OR_RETURN(size_t k2, CutTo(n2, b, stride));
      return std::make_pair(k1, k2);
    }
    case Truncation::Strategy::kOnlyFirst:
    case Truncation::Strategy::kOnlySecond: {
      const bool on_first =
          truncation.strategy == Truncation::Strategy::kOnlyFirst;
      if (!on_first && !second) {
        return InvalidArgumentError(
            "Truncation error: Second sequence not provided (truncation "
            "strategy OnlySecond on a single sequence)");
      }
      const size_t target = on_first ? first : b;
      if (target <= to_remove) {
        return InvalidArgumentError(
            "Truncation error: Sequence to truncate too short to respect "
            "the provided max_length");
      }
      EMBER_ASSIGN_OR_RETURN(size_t n,
                             CutTo(target - to_remove, target, stride));
      return on_first ? std::make_pair(n, b) : std::make_pair(first, n);
    }
  }
  return std::make_pair(first, b);
}

size_t Pipeline::PaddedLength(size_t longest) const {
  size_t n = padding.fixed ? padding.length : longest;
  if (padding.multiple > 0 && n % padding.multiple > 0) {
    n += padding.multiple - n % padding.multiple;
  }
  return n;
}

}  // namespace ember::tokenizer
