// The pre-tokenizers: each cuts a normalized piece into the words the
// model sees (docs/tokenizer.md "Pre-tokenizers").
#include <algorithm>

#include "runtime/tokenizer/json_util.h"

namespace ember::tokenizer {

Status ByteLevelWords(const PreTokenizer& step, std::string_view piece,
                      const std::function<Status(std::string_view)>& on_word) {
  std::string prefixed;
  if (step.add_prefix_space && !piece.empty() && piece[0] != ' ') {
    prefixed.reserve(piece.size() + 1);
    prefixed.push_back(' ');
    prefixed.append(piece);
    piece = prefixed;
  }
  std::string mapped;
  Status status;
  auto word = [&](size_t start, size_t end) {
    if (!status.ok() || start >= end) return;
    mapped.clear();
    for (size_t i = start; i < end; ++i) {
      mapped += ByteLevelChar(static_cast<uint8_t>(piece[i]));
    }
    status = on_word(std::string_view(mapped));
  };
  if (!step.use_regex) {
    word(0, piece.size());
    return status;
  }
  // Isolated: the matches and the text between them are the words.
  size_t last = 0;
  EMBER_RETURN_IF_ERROR(
      step.regex->ForEachMatch(piece, [&](size_t start, size_t end) {
        word(last, start);
        word(start, end);
        last = end;
      }));
  word(last, piece.size());
  return status;
}

Status PreTokenizer::Split(std::string_view piece,
                           std::vector<std::string>* out) const {
  if (kind == Kind::kByteLevel) {
    return ByteLevelWords(*this, piece, [&](std::string_view word) {
      out->emplace_back(word);
      return Status::Ok();
    });
  }
  // The pieces of `piece` as `tokenizers`' NormalizedString::split makes
  // them: every match and every gap, flagged; inverted when asked; then
  // merged or removed by the behaviour; empty results are dropped.
  struct Range {
    size_t start, end;
    bool is_match;
  };
  std::vector<Range> ranges;
  size_t prev = 0;
  auto on_match = [&](size_t start, size_t end) {
    if (prev != start) ranges.push_back({prev, start, false});
    ranges.push_back({start, end, true});
    prev = end;
  };
  if (regex) {
    EMBER_RETURN_IF_ERROR(regex->ForEachMatch(piece, on_match));
  } else if (!literal.empty()) {
    for (size_t hit = piece.find(literal); hit != std::string_view::npos;
         hit = piece.find(literal, hit + literal.size())) {
      on_match(hit, hit + literal.size());
    }
  }
  if (prev != piece.size()) ranges.push_back({prev, piece.size(), false});
  if (invert) {
    for (Range& r : ranges) r.is_match = !r.is_match;
  }
  std::vector<std::pair<size_t, size_t>> keep;
  bool previous_match = false;
  switch (behavior) {
    case Behavior::kIsolated:
      for (const Range& r : ranges) keep.push_back({r.start, r.end});
      break;
    case Behavior::kRemoved:
      for (const Range& r : ranges) {
        if (!r.is_match) keep.push_back({r.start, r.end});
      }
      break;
    case Behavior::kContiguous:
      for (const Range& r : ranges) {
        if (r.is_match == previous_match && !keep.empty()) {
          keep.back().second = r.end;
        } else {
          keep.push_back({r.start, r.end});
        }
        previous_match = r.is_match;
      }
      break;
    case Behavior::kMergedWithPrevious:
      for (const Range& r : ranges) {
        if (r.is_match && !previous_match && !keep.empty()) {
          keep.back().second = r.end;
        } else {
          keep.push_back({r.start, r.end});
        }
        previous_match = r.is_match;
      }
      break;
    case Behavior::kMergedWithNext:
      for (size_t k = ranges.size(); k-- > 0;) {
        const Range& r = ranges[k];
        if (r.is_match && !previous_match && !keep.empty()) {
          keep.back().first = r.start;
        } else {
          keep.push_back({r.start, r.end});
        }
        previous_match = r.is_match;
      }
      std::reverse(keep.begin(), keep.end());
      break;
  }
  for (const auto& [start, end] : keep) {
    if (end > start) out->emplace_back(piece.substr(start, end - start));
  }
  return Status::Ok();
}

Status Pipeline::EncodeNormalizedPiece(std::string_view piece, bool at_start,
                                       std::vector<int32_t>* ids) const {
  (void)at_start;  // no pre-tokenizer implemented here needs it yet
  if (pre_tokenizers.empty()) return model->Tokenize(piece, ids);
  if (pre_tokenizers.size() == 1 &&
      pre_tokenizers[0].kind == PreTokenizer::Kind::kByteLevel) {
    // The common case without a copy of each word.
    return ByteLevelWords(pre_tokenizers[0], piece, [&](std::string_view w) {
      return model->Tokenize(w, ids);
    });
  }
  std::vector<std::string> words, next;
  if (!piece.empty()) words.emplace_back(piece);
  for (const PreTokenizer& step : pre_tokenizers) {
    next.clear();
    for (const std::string& word : words) {
      EMBER_RETURN_IF_ERROR(step.Split(word, &next));
    }
    words.swap(next);
  }
  for (const std::string& word : words) {
    EMBER_RETURN_IF_ERROR(model->Tokenize(word, ids));
  }
  return Status::Ok();
}

namespace {

// The ByteLevel pre-tokenizer's regex (GPT-2's), as `tokenizers` writes it
// for Oniguruma; CompileOniguruma gives \s and \p{..} Oniguruma's members.
constexpr std::string_view kByteLevelPattern =
    "'s|'t|'re|'ve|'m|'ll|'d| ?\\p{L}+| ?\\p{N}+| ?[^\\s\\p{L}\\p{N}]+"
    "|\\s+(?!\\S)|\\s+";

Result<PreTokenizer::Behavior> ParseBehavior(std::string_view name) {
  using B = PreTokenizer::Behavior;
  if (name == "Removed") return B::kRemoved;
  if (name == "Isolated") return B::kIsolated;
  if (name == "MergedWithPrevious") return B::kMergedWithPrevious;
  if (name == "MergedWithNext") return B::kMergedWithNext;
  if (name == "Contiguous") return B::kContiguous;
  return InvalidArgumentError(StringPrintf(
      "pre_tokenizer Split: unknown behavior \"%.*s\"",
      static_cast<int>(std::min<size_t>(name.size(), 64)), name.data()));
}

}  // namespace

Status LoadPreTokenizer(const element& e, size_t depth, Pipeline* p) {
  if (e.is_null()) return Status::Ok();
  object o;
  if (e.get_object().get(o) != simdjson::SUCCESS) {
    return InvalidArgumentError("pre_tokenizer is not an object");
  }
  EMBER_ASSIGN_OR_RETURN(std::string_view type, TypeOf(o, "pre_tokenizer"));
  PreTokenizer step;
  if (type == "Sequence") {
    element list;
    array a;
    if (!Field(o, "pretokenizers", &list) ||
        list.get_array().get(a) != simdjson::SUCCESS) {
      return InvalidArgumentError(
          "pre_tokenizer Sequence: \"pretokenizers\" is not an array");
    }
    if (depth > 8) {
      return InvalidArgumentError("pre_tokenizer Sequences nest too deep");
    }
    for (element child : a) {
      EMBER_RETURN_IF_ERROR(LoadPreTokenizer(child, depth + 1, p));
    }
    return Status::Ok();
  } else if (type == "ByteLevel") {
    step.kind = PreTokenizer::Kind::kByteLevel;
    EMBER_ASSIGN_OR_RETURN(
        step.add_prefix_space,
        GetBool(o, "add_prefix_space", "pre_tokenizer ByteLevel", true));
    EMBER_ASSIGN_OR_RETURN(
        step.use_regex,
        GetBool(o, "use_regex", "pre_tokenizer ByteLevel", true));
    if (step.use_regex) {
      EMBER_ASSIGN_OR_RETURN(step.regex,
                             Regex::CompileOniguruma(kByteLevelPattern));
    }
  } else if (type == "Split") {
    step.kind = PreTokenizer::Kind::kSplit;
    std::string literal;
    EMBER_RETURN_IF_ERROR(
        LoadPattern(o, "pre_tokenizer Split", &literal, &step.regex));
    step.literal = std::move(literal);
    EMBER_ASSIGN_OR_RETURN(std::string_view behavior,
                           GetString(o, "behavior", "pre_tokenizer Split"));
    EMBER_ASSIGN_OR_RETURN(step.behavior, ParseBehavior(behavior));
    EMBER_ASSIGN_OR_RETURN(step.invert,
                           GetBool(o, "invert", "pre_tokenizer Split", false));
  } else {
    return Unimplemented("pre_tokenizer", type);
  }
  if (p->pre_tokenizers.size() >= 64) {
    return InvalidArgumentError("more than 64 pre-tokenizers");
  }
  p->pre_tokenizers.push_back(std::move(step));
  return Status::Ok();
}

}  // namespace ember::tokenizer
