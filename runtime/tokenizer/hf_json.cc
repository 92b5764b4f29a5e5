// The HuggingFace `tokenizer.json` loader: simdjson's DOM (it validates the
// whole document, UTF-8 included, before we look at it, and bounds the
// nesting), then one function per component. Anything this layer does not
// implement is UNIMPLEMENTED naming the component and the field, so a file
// is either tokenized exactly or refused (docs/tokenizer.md "Coverage").
#include <simdjson.h>

#include <algorithm>
#include <atomic>

#include "runtime/tokenizer/tokenizer_internal.h"

namespace ember::tokenizer {
namespace {

using simdjson::dom::array;
using simdjson::dom::element;
using simdjson::dom::object;

// A field of an object, or a null element when absent.
bool Field(const object& o, std::string_view key, element* out) {
  return o.at_key(key).get(*out) == simdjson::SUCCESS;
}

bool IsNullOrAbsent(const object& o, std::string_view key) {
  element e;
  return !Field(o, key, &e) || e.is_null();
}

Result<std::string_view> GetString(const object& o, std::string_view key,
                                   std::string_view where) {
  element e;
  std::string_view s;
  if (!Field(o, key, &e) || e.get_string().get(s) != simdjson::SUCCESS) {
    return InvalidArgumentError(
        StringPrintf("%.*s: field \"%.*s\" is missing or not a string",
                     static_cast<int>(where.size()), where.data(),
                     static_cast<int>(key.size()), key.data()));
  }
  return s;
}

// An optional string: null or absent gives `fallback`.
Result<std::string_view> GetOptionalString(const object& o,
                                           std::string_view key,
                                           std::string_view where,
                                           std::string_view fallback = {}) {
  if (IsNullOrAbsent(o, key)) return fallback;
  return GetString(o, key, where);
}

Result<bool> GetBool(const object& o, std::string_view key,
                     std::string_view where, bool fallback) {
  element e;
  if (!Field(o, key, &e) || e.is_null()) return fallback;
  bool b = false;
  if (e.get_bool().get(b) != simdjson::SUCCESS) {
    return InvalidArgumentError(StringPrintf(
        "%.*s: field \"%.*s\" is not a boolean", static_cast<int>(where.size()),
        where.data(), static_cast<int>(key.size()), key.data()));
  }
  return b;
}

Result<uint64_t> GetUint(const object& o, std::string_view key,
                         std::string_view where, uint64_t max) {
  element e;
  uint64_t v = 0;
  if (!Field(o, key, &e) || e.get_uint64().get(v) != simdjson::SUCCESS ||
      v > max) {
    return InvalidArgumentError(StringPrintf(
        "%.*s: field \"%.*s\" is missing or not an integer in [0, %llu]",
        static_cast<int>(where.size()), where.data(),
        static_cast<int>(key.size()), key.data(),
        static_cast<unsigned long long>(max)));
  }
  return v;
}

Result<std::string_view> TypeOf(const object& o, std::string_view where) {
  return GetString(o, "type", where);
}

Status Unimplemented(std::string_view component, std::string_view type) {
  return UnimplementedError(
      StringPrintf("tokenizer.json %.*s \"%.*s\" is not implemented",
                   static_cast<int>(component.size()), component.data(),
                   static_cast<int>(type.size()), type.data()));
}

// A one-character string field (Strip's content, ...).
Status CheckOneChar(std::string_view s, std::string_view what) {
  if (s.empty() || Utf8Length(static_cast<uint8_t>(s[0])) != s.size()) {
    return InvalidArgumentError(
        StringPrintf("%.*s must be exactly one character",
                     static_cast<int>(what.size()), what.data()));
  }
  return Status::Ok();
}

// A Replace pattern: {"String": "..."} or {"Regex": "..."}.
Status LoadPattern(const object& o, std::string_view where, std::string* text,
                   std::shared_ptr<const Regex>* regex) {
  element p;
  object po;
  if (!Field(o, "pattern", &p) || p.get_object().get(po) != simdjson::SUCCESS) {
    return InvalidArgumentError(
        StringPrintf("%.*s: \"pattern\" is missing or not an object",
                     static_cast<int>(where.size()), where.data()));
  }
  element s;
  std::string_view sv;
  if (Field(po, "String", &s) && s.get_string().get(sv) == simdjson::SUCCESS) {
    *text = std::string(sv);
    return Status::Ok();
  }
  if (Field(po, "Regex", &s) && s.get_string().get(sv) == simdjson::SUCCESS) {
    EMBER_ASSIGN_OR_RETURN(*regex, Regex::CompileOniguruma(sv),
                           "while compiling %.*s's pattern",
                           static_cast<int>(where.size()), where.data());
    return Status::Ok();
  }
  return InvalidArgumentError(
      StringPrintf("%.*s: \"pattern\" has neither \"String\" nor \"Regex\"",
                   static_cast<int>(where.size()), where.data()));
}

Status LoadNormalizer(const element& e, size_t depth, Pipeline* p) {
  if (e.is_null()) return Status::Ok();
  object o;
  if (e.get_object().get(o) != simdjson::SUCCESS) {
    return InvalidArgumentError("normalizer is not an object");
  }
  EMBER_ASSIGN_OR_RETURN(std::string_view type, TypeOf(o, "normalizer"));
  Normalizer n;
  if (type == "Sequence") {
    element list;
    array a;
    if (!Field(o, "normalizers", &list) ||
        list.get_array().get(a) != simdjson::SUCCESS) {
      return InvalidArgumentError(
          "normalizer Sequence: \"normalizers\" is not an array");
    }
    if (depth > 8)
      return InvalidArgumentError("normalizer Sequences nest too deep");
    for (element child : a)
      EMBER_RETURN_IF_ERROR(LoadNormalizer(child, depth + 1, p));
    return Status::Ok();
  } else if (type == "Prepend") {
    n.kind = Normalizer::Kind::kPrepend;
    EMBER_ASSIGN_OR_RETURN(std::string_view s,
                           GetString(o, "prepend", "normalizer Prepend"));
    n.text = s;
  } else if (type == "Replace") {
    n.kind = Normalizer::Kind::kReplace;
    EMBER_RETURN_IF_ERROR(
        LoadPattern(o, "normalizer Replace", &n.text, &n.regex));
    EMBER_ASSIGN_OR_RETURN(std::string_view c,
                           GetString(o, "content", "normalizer Replace"));
    n.content = c;
  } else if (type == "NFC") {
    n.kind = Normalizer::Kind::kNfc;
  } else if (type == "NFD") {
    n.kind = Normalizer::Kind::kNfd;
  } else if (type == "NFKC") {
    n.kind = Normalizer::Kind::kNfkc;
  } else if (type == "NFKD") {
    n.kind = Normalizer::Kind::kNfkd;
  } else {
    return Unimplemented("normalizer", type);
  }
  p->normalizers.push_back(std::move(n));
  return Status::Ok();
}

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

Status LoadDecoder(const element& e, size_t depth, Pipeline* p) {
  object o;
  if (e.get_object().get(o) != simdjson::SUCCESS) {
    return InvalidArgumentError("decoder is not an object");
  }
  EMBER_ASSIGN_OR_RETURN(std::string_view type, TypeOf(o, "decoder"));
  Decoder d;
  if (type == "Sequence") {
    element list;
    array a;
    if (!Field(o, "decoders", &list) ||
        list.get_array().get(a) != simdjson::SUCCESS) {
      return InvalidArgumentError(
          "decoder Sequence: \"decoders\" is not an array");
    }
    if (depth > 8)
      return InvalidArgumentError("decoder Sequences nest too deep");
    for (element child : a)
      EMBER_RETURN_IF_ERROR(LoadDecoder(child, depth + 1, p));
    return Status::Ok();
  } else if (type == "ByteLevel") {
    d.kind = Decoder::Kind::kByteLevel;
  } else if (type == "Replace") {
    d.kind = Decoder::Kind::kReplace;
    EMBER_RETURN_IF_ERROR(LoadPattern(o, "decoder Replace", &d.text, &d.regex));
    EMBER_ASSIGN_OR_RETURN(std::string_view c,
                           GetString(o, "content", "decoder Replace"));
    d.content = c;
  } else if (type == "ByteFallback") {
    d.kind = Decoder::Kind::kByteFallback;
  } else if (type == "Fuse") {
    d.kind = Decoder::Kind::kFuse;
  } else if (type == "Strip") {
    d.kind = Decoder::Kind::kStrip;
    EMBER_ASSIGN_OR_RETURN(std::string_view c,
                           GetString(o, "content", "decoder Strip"));
    EMBER_RETURN_IF_ERROR(CheckOneChar(c, "decoder Strip's content"));
    d.content = c;
    EMBER_ASSIGN_OR_RETURN(d.start,
                           GetUint(o, "start", "decoder Strip", 1u << 30));
    EMBER_ASSIGN_OR_RETURN(d.stop,
                           GetUint(o, "stop", "decoder Strip", 1u << 30));
  } else {
    return Unimplemented("decoder", type);
  }
  p->decoders.push_back(std::move(d));
  return Status::Ok();
}

Status LoadBpe(const object& o, Pipeline* p) {
  BpeModel& m = p->model;
  static std::atomic<uint64_t> next_serial{1};
  m.serial = next_serial.fetch_add(1);
  constexpr std::string_view kWhere = "model BPE";
  element dropout;
  if (Field(o, "dropout", &dropout) && !dropout.is_null()) {
    double v = 0;
    if (dropout.get_double().get(v) != simdjson::SUCCESS || v != 0.0) {
      return UnimplementedError(
          "tokenizer.json model BPE \"dropout\" is not implemented");
    }
  }
  EMBER_ASSIGN_OR_RETURN(std::string_view unk,
                         GetOptionalString(o, "unk_token", kWhere));
  m.has_unk = !IsNullOrAbsent(o, "unk_token");
  m.unk_token = unk;
  EMBER_ASSIGN_OR_RETURN(
      std::string_view prefix,
      GetOptionalString(o, "continuing_subword_prefix", kWhere));
  m.continuing_subword_prefix = prefix;
  EMBER_ASSIGN_OR_RETURN(std::string_view suffix,
                         GetOptionalString(o, "end_of_word_suffix", kWhere));
  m.end_of_word_suffix = suffix;
  EMBER_ASSIGN_OR_RETURN(m.fuse_unk, GetBool(o, "fuse_unk", kWhere, false));
  EMBER_ASSIGN_OR_RETURN(m.byte_fallback,
                         GetBool(o, "byte_fallback", kWhere, false));
  EMBER_ASSIGN_OR_RETURN(m.ignore_merges,
                         GetBool(o, "ignore_merges", kWhere, false));

  // The vocabulary: token -> id. Ids must be distinct and dense enough that
  // the id -> token table stays proportional to the file.
  element ve;
  object vocab;
  if (!Field(o, "vocab", &ve) ||
      ve.get_object().get(vocab) != simdjson::SUCCESS) {
    return InvalidArgumentError(
        "model BPE: \"vocab\" is missing or not an object");
  }
  size_t count = vocab.size();
  if (count > Tokenizer::kMaxVocab) {
    return ResourceExhaustedError(
        StringPrintf("model BPE: %zu tokens, over the limit of %zu", count,
                     Tokenizer::kMaxVocab));
  }
  const uint64_t max_id = std::min<uint64_t>(
      2 * static_cast<uint64_t>(count) + 65536, INT32_MAX - 1);
  m.vocab.reserve(count);
  for (auto field : vocab) {
    uint64_t id = 0;
    if (field.value.get_uint64().get(id) != simdjson::SUCCESS || id > max_id) {
      return InvalidArgumentError(StringPrintf(
          "model BPE: the id of token \"%.*s\" is not an integer in [0, %llu]",
          static_cast<int>(std::min<size_t>(field.key.size(), 64)),
          field.key.data(), static_cast<unsigned long long>(max_id)));
    }
    if (!m.vocab.emplace(std::string(field.key), static_cast<int32_t>(id))
             .second) {
      return InvalidArgumentError(StringPrintf(
          "model BPE: token \"%.*s\" appears twice in the vocabulary",
          static_cast<int>(std::min<size_t>(field.key.size(), 64)),
          field.key.data()));
    }
    if (id >= m.vocab_r.size()) {
      m.vocab_r.resize(id + 1);
      m.has_id.resize(id + 1, 0);
    }
    if (m.has_id[id]) {
      return InvalidArgumentError(
          StringPrintf("model BPE: id %llu is given to two tokens",
                       static_cast<unsigned long long>(id)));
    }
    m.has_id[id] = 1;
    m.vocab_r[id] = std::string(field.key);
  }
  std::fill(std::begin(m.byte_ids), std::end(m.byte_ids), -1);
  for (int b = 0; b < 256; ++b) {
    auto it = m.vocab.find(StringPrintf("<0x%02X>", b));
    if (it != m.vocab.end()) m.byte_ids[b] = it->second;
  }

  // The merges, by rank: "a b" strings or [a, b] pairs. The merged token
  // is a + b (b without the continuing-subword prefix); all three must be
  // in the vocabulary. A repeated pair keeps its last rank, as a Rust
  // HashMap built from the list does.
  element me;
  array merges;
  if (!Field(o, "merges", &me) ||
      me.get_array().get(merges) != simdjson::SUCCESS) {
    return InvalidArgumentError(
        "model BPE: \"merges\" is missing or not an array");
  }
  if (merges.size() > Tokenizer::kMaxMerges) {
    return ResourceExhaustedError(
        StringPrintf("model BPE: %zu merges, over the limit of %zu",
                     merges.size(), Tokenizer::kMaxMerges));
  }
  m.merges.reserve(merges.size());
  uint32_t rank = 0;
  std::string merged;
  for (element entry : merges) {
    std::string_view a, b, line;
    array pair;
    if (entry.get_string().get(line) == simdjson::SUCCESS) {
      size_t space = line.find(' ');
      if (space == std::string_view::npos ||
          line.find(' ', space + 1) != std::string_view::npos) {
        return InvalidArgumentError(StringPrintf(
            "model BPE: merge %u is not two tokens separated by one space",
            rank + 1));
      }
      a = line.substr(0, space);
      b = line.substr(space + 1);
    } else if (entry.get_array().get(pair) == simdjson::SUCCESS &&
               pair.size() == 2 &&
               pair.at(0).get_string().get(a) == simdjson::SUCCESS &&
               pair.at(1).get_string().get(b) == simdjson::SUCCESS) {
    } else {
      return InvalidArgumentError(StringPrintf(
          "model BPE: merge %u is neither \"a b\" nor [\"a\", \"b\"]",
          rank + 1));
    }
    auto ia = m.vocab.find(a);
    auto ib = m.vocab.find(b);
    std::string_view b_tail = b;
    if (!m.continuing_subword_prefix.empty() &&
        b_tail.substr(0, m.continuing_subword_prefix.size()) ==
            m.continuing_subword_prefix) {
      b_tail.remove_prefix(m.continuing_subword_prefix.size());
    }
    merged.assign(a);
    merged.append(b_tail);
    auto im = m.vocab.find(merged);
    if (ia == m.vocab.end() || ib == m.vocab.end() || im == m.vocab.end()) {
      return InvalidArgumentError(StringPrintf(
          "model BPE: merge %u (\"%.*s\" + \"%.*s\") names a token that is not "
          "in the vocabulary",
          rank + 1, static_cast<int>(std::min<size_t>(a.size(), 64)), a.data(),
          static_cast<int>(std::min<size_t>(b.size(), 64)), b.data()));
    }
    uint64_t key =
        (static_cast<uint64_t>(static_cast<uint32_t>(ia->second)) << 32) |
        static_cast<uint32_t>(ib->second);
    m.merges[key] = {rank, im->second};
    ++rank;
  }
  return Status::Ok();
}

Status LoadAddedTokens(const element& e, Pipeline* p) {
  if (e.is_null()) return Status::Ok();
  array tokens;
  if (e.get_array().get(tokens) != simdjson::SUCCESS) {
    return InvalidArgumentError("\"added_tokens\" is not an array");
  }
  if (tokens.size() > Tokenizer::kMaxAddedTokens) {
    return ResourceExhaustedError(
        StringPrintf("%zu added tokens, over the limit of %zu", tokens.size(),
                     Tokenizer::kMaxAddedTokens));
  }
  size_t index = 0;
  for (element t : tokens) {
    object o;
    if (t.get_object().get(o) != simdjson::SUCCESS) {
      return InvalidArgumentError(
          StringPrintf("added token %zu is not an object", index));
    }
    AddedToken token;
    EMBER_ASSIGN_OR_RETURN(std::string_view content,
                           GetString(o, "content", "added token"));
    if (content.empty() || content.size() > Tokenizer::kMaxTokenBytes) {
      return InvalidArgumentError(
          StringPrintf("added token %zu: content is empty or over %zu bytes",
                       index, Tokenizer::kMaxTokenBytes));
    }
    token.content = content;
    EMBER_ASSIGN_OR_RETURN(uint64_t id,
                           GetUint(o, "id", "added token", INT32_MAX - 1));
    token.id = static_cast<int32_t>(id);
    EMBER_ASSIGN_OR_RETURN(token.special,
                           GetBool(o, "special", "added token", false));
    EMBER_ASSIGN_OR_RETURN(
        token.normalized,
        GetBool(o, "normalized", "added token", !token.special));
    for (std::string_view flag : {"lstrip", "rstrip", "single_word"}) {
      EMBER_ASSIGN_OR_RETURN(bool set, GetBool(o, flag, "added token", false));
      if (set) {
        return UnimplementedError(StringPrintf(
            "tokenizer.json added token \"%.*s\": \"%.*s\": true is not "
            "implemented",
            static_cast<int>(std::min<size_t>(content.size(), 64)),
            content.data(), static_cast<int>(flag.size()), flag.data()));
      }
    }
    p->added.push_back(std::move(token));
    ++index;
  }
  return Status::Ok();
}

// Indexes the added tokens once the model and normalizers are known: ids
// beyond the model's vocabulary need a bound too, and normalized tokens are
// matched by their normalized content.
Status IndexAddedTokens(Pipeline* p) {
  const uint64_t max_id = p->model.vocab_r.size() + Tokenizer::kMaxAddedTokens;
  std::string normalized;
  for (size_t i = 0; i < p->added.size(); ++i) {
    const AddedToken& t = p->added[i];
    if (static_cast<uint64_t>(t.id) > max_id) {
      return InvalidArgumentError(StringPrintf(
          "added token %zu: id %d is far beyond the vocabulary", i, t.id));
    }
    auto model_id = p->model.vocab.find(t.content);
    if (model_id != p->model.vocab.end() && model_id->second != t.id) {
      return InvalidArgumentError(StringPrintf(
          "added token %zu: id %d differs from the model's id %d for the same "
          "content",
          i, t.id, model_id->second));
    }
    if (!p->added_by_id.emplace(t.id, i).second) {
      return InvalidArgumentError(StringPrintf(
          "added token %zu: id %d is given to two added tokens", i, t.id));
    }
    p->added_by_content.emplace(t.content, t.id);
    if (t.special) p->special_contents.insert(t.content);
    if (t.normalized && !p->normalizers.empty()) {
      EMBER_RETURN_IF_ERROR(p->Normalize(t.content, &normalized));
      if (!normalized.empty()) {
        p->normalized_trie.Add(normalized, static_cast<int32_t>(i));
      }
    } else if (t.normalized) {
      p->normalized_trie.Add(t.content, static_cast<int32_t>(i));
    } else {
      p->raw_trie.Add(t.content, static_cast<int32_t>(i));
    }
  }
  return Status::Ok();
}

Status LoadPostProcessor(const element& e, size_t depth, Pipeline* p) {
  if (e.is_null()) return Status::Ok();
  object o;
  if (e.get_object().get(o) != simdjson::SUCCESS) {
    return InvalidArgumentError("post_processor is not an object");
  }
  EMBER_ASSIGN_OR_RETURN(std::string_view type, TypeOf(o, "post_processor"));
  // ByteLevel's post-processor only trims offsets; ids are untouched.
  if (type == "ByteLevel") return Status::Ok();
  if (type == "Sequence") {
    element list;
    array a;
    if (!Field(o, "processors", &list) ||
        list.get_array().get(a) != simdjson::SUCCESS) {
      return InvalidArgumentError(
          "post_processor Sequence: \"processors\" is not an array");
    }
    if (depth > 8) {
      return InvalidArgumentError("post_processor Sequences nest too deep");
    }
    for (element child : a) {
      EMBER_RETURN_IF_ERROR(LoadPostProcessor(child, depth + 1, p));
    }
    return Status::Ok();
  }
  if (type != "TemplateProcessing")
    return Unimplemented("post_processor", type);
  element se, specials_e;
  array single;
  object specials;
  if (!Field(o, "single", &se) ||
      se.get_array().get(single) != simdjson::SUCCESS) {
    return InvalidArgumentError(
        "post_processor TemplateProcessing: \"single\" is not an array");
  }
  if (!Field(o, "special_tokens", &specials_e) ||
      specials_e.get_object().get(specials) != simdjson::SUCCESS) {
    return InvalidArgumentError(
        "post_processor TemplateProcessing: \"special_tokens\" is not an "
        "object");
  }
  if (single.size() > 64) {
    return InvalidArgumentError(
        "post_processor TemplateProcessing: template too long");
  }
  for (element item : single) {
    object io, inner;
    element v;
    if (item.get_object().get(io) != simdjson::SUCCESS) {
      return InvalidArgumentError(
          "post_processor TemplateProcessing: item is not an object");
    }
    TemplateItem t;
    if (Field(io, "Sequence", &v) &&
        v.get_object().get(inner) == simdjson::SUCCESS) {
      EMBER_ASSIGN_OR_RETURN(std::string_view id,
                             GetString(inner, "id", "template Sequence"));
      if (id != "A") {
        return InvalidArgumentError(
            "post_processor TemplateProcessing: single uses sequence B");
      }
      EMBER_ASSIGN_OR_RETURN(
          uint64_t type_id,
          GetUint(inner, "type_id", "template Sequence", 255));
      (void)type_id;  // type ids are not returned by encode
      t.is_sequence = true;
    } else if (Field(io, "SpecialToken", &v) &&
               v.get_object().get(inner) == simdjson::SUCCESS) {
      EMBER_ASSIGN_OR_RETURN(std::string_view id,
                             GetString(inner, "id", "template SpecialToken"));
      element st;
      object sto;
      array ids;
      if (specials.at_key(id).get(st) != simdjson::SUCCESS ||
          st.get_object().get(sto) != simdjson::SUCCESS ||
          sto.at_key("ids").get_array().get(ids) != simdjson::SUCCESS ||
          ids.size() > 64) {
        return InvalidArgumentError(StringPrintf(
            "post_processor TemplateProcessing: special token \"%.*s\" is not "
            "described in \"special_tokens\"",
            static_cast<int>(std::min<size_t>(id.size(), 64)), id.data()));
      }
      for (element idv : ids) {
        uint64_t x = 0;
        if (idv.get_uint64().get(x) != simdjson::SUCCESS || x > INT32_MAX) {
          return InvalidArgumentError(
              "post_processor TemplateProcessing: bad special id");
        }
        t.ids.push_back(static_cast<int32_t>(x));
      }
    } else {
      return InvalidArgumentError(
          "post_processor TemplateProcessing: unknown item");
    }
    p->single_template.push_back(std::move(t));
  }
  if (p->has_template) {
    return UnimplementedError(
        "tokenizer.json post_processor: two TemplateProcessing in one "
        "Sequence is not implemented");
  }
  p->has_template = true;
  return Status::Ok();
}

}  // namespace

Status LoadHuggingFaceJson(std::string_view json, Pipeline* p) {
  if (json.size() > Tokenizer::kMaxJsonBytes) {
    return ResourceExhaustedError(
        StringPrintf("tokenizer.json is %zu bytes, over the limit of %zu",
                     json.size(), Tokenizer::kMaxJsonBytes));
  }
  simdjson::dom::parser parser;
  if (parser.allocate(json.size() + 64, Tokenizer::kMaxJsonDepth) !=
      simdjson::SUCCESS) {
    return ResourceExhaustedError("cannot allocate the JSON parser");
  }
  simdjson::padded_string padded(json);
  element root;
  auto error = parser.parse(padded).get(root);
  if (error != simdjson::SUCCESS) {
    return InvalidArgumentError(
        StringPrintf("malformed JSON: %s", simdjson::error_message(error)));
  }
  object top;
  if (root.get_object().get(top) != simdjson::SUCCESS) {
    return InvalidArgumentError("tokenizer.json is not a JSON object");
  }
  for (std::string_view key : {"truncation", "padding"}) {
    if (!IsNullOrAbsent(top, key)) {
      return UnimplementedError(StringPrintf(
          "tokenizer.json \"%.*s\" is not implemented (it must be null)",
          static_cast<int>(key.size()), key.data()));
    }
  }
  element model_e;
  object model;
  if (!Field(top, "model", &model_e) ||
      model_e.get_object().get(model) != simdjson::SUCCESS) {
    return InvalidArgumentError("tokenizer.json has no \"model\" object");
  }
  std::string_view model_type;
  element te;
  if (Field(model, "type", &te)) {
    if (te.get_string().get(model_type) != simdjson::SUCCESS) {
      return InvalidArgumentError("model \"type\" is not a string");
    }
  } else {
    element merges;
    if (Field(model, "merges", &merges)) model_type = "BPE";
  }
  if (model_type != "BPE") return Unimplemented("model", model_type);

  element e;
  if (Field(top, "normalizer", &e)) {
    EMBER_RETURN_IF_ERROR(LoadNormalizer(e, 0, p));
  }
  if (Field(top, "pre_tokenizer", &e)) {
    EMBER_RETURN_IF_ERROR(LoadPreTokenizer(e, 0, p));
  }
  EMBER_RETURN_IF_ERROR(LoadBpe(model, p));
  if (Field(top, "added_tokens", &e))
    EMBER_RETURN_IF_ERROR(LoadAddedTokens(e, p));
  EMBER_RETURN_IF_ERROR(IndexAddedTokens(p));
  if (Field(top, "post_processor", &e)) {
    EMBER_RETURN_IF_ERROR(LoadPostProcessor(e, 0, p));
  }
  if (Field(top, "decoder", &e) && !e.is_null()) {
    p->has_decoder = true;
    EMBER_RETURN_IF_ERROR(LoadDecoder(e, 0, p));
  }
  return Status::Ok();
}

}  // namespace ember::tokenizer
