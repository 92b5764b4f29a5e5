// The post-processors: what `tokenizers` does to the ids of an encoded
// sequence after the model (docs/tokenizer.md "Post-processors").
//
// `tokenizers` runs them on a list of encodings, not on one: a single
// sequence starts as a list of one, TemplateProcessing returns one encoding
// per piece of its template (so a `Sequence` of post-processors hands the
// next one a longer list), Bert/Roberta wrap each encoding of the list, and
// the list is concatenated at the end. Ember keeps that list, so every
// `Sequence` gives the ids `tokenizers` gives; what makes `tokenizers` panic
// (a template for a list of 3, a piece naming sequence B of a list of 1, a
// special token missing from "special_tokens") fails that encode instead.
#include <algorithm>

#include "runtime/tokenizer/json_util.h"

namespace ember::tokenizer {

namespace {

// Bounds for hostile files: post-processors after flattening `Sequence`s,
// pieces of one template, ids of one special token, and (a safety net: the
// bounds before keep it far) the ids one encode may produce. A template
// copies the sequence at most 64 times, and the list it makes can only grow
// by Bert/Roberta's two ids per encoding after it: a template given more
// than 2 encodings is an error.
constexpr size_t kMaxPostProcessors = 64;
constexpr size_t kMaxTemplatePieces = 64;
constexpr size_t kMaxSpecialIds = 64;
constexpr size_t kMaxPostProcessedIds = size_t{1} << 26;

// A bool field that must be present (`tokenizers` has no default for it).
Status RequireBool(const object& o, std::string_view key,
                   std::string_view where) {
  element e;
  bool b = false;
  if (!Field(o, key, &e) || e.get_bool().get(b) != simdjson::SUCCESS) {
    return InvalidArgumentError(
        StringPrintf("post_processor %.*s: \"%.*s\" is missing or not a bool",
                     static_cast<int>(where.size()), where.data(),
                     static_cast<int>(key.size()), key.data()));
  }
  return Status::Ok();
}

bool HasBool(const object& o, std::string_view key) {
  element e;
  bool b = false;
  return Field(o, key, &e) && e.get_bool().get(b) == simdjson::SUCCESS;
}

Status CheckId(const Pipeline& p, uint64_t id, std::string_view where) {
  if (id > INT32_MAX || !p.IdToToken(static_cast<int32_t>(id))) {
    // `tokenizers` emits such an id; every decode of it then drops it
    // silently, and Ember's decode would reject it. Refused here.
    return InvalidArgumentError(StringPrintf(
        "post_processor %.*s: special token id %llu is neither in the "
        "vocabulary nor an added token",
        static_cast<int>(where.size()), where.data(),
        static_cast<unsigned long long>(id)));
  }
  return Status::Ok();
}

// A (String, u32) pair of BertProcessing/RobertaProcessing: ["[SEP]", 102].
Result<int32_t> LoadTokenPair(const Pipeline& p, const object& o,
                              std::string_view key, std::string_view where) {
  element e;
  array a;
  if (!Field(o, key, &e) || e.get_array().get(a) != simdjson::SUCCESS ||
      a.size() != 2) {
    return InvalidArgumentError(
        StringPrintf("post_processor %.*s: \"%.*s\" is not a [token, id] pair",
                     static_cast<int>(where.size()), where.data(),
                     static_cast<int>(key.size()), key.data()));
  }
  std::string_view token;
  uint64_t id = 0;
  if (a.at(0).get_string().get(token) != simdjson::SUCCESS ||
      a.at(1).get_uint64().get(id) != simdjson::SUCCESS) {
    return InvalidArgumentError(StringPrintf(
        "post_processor %.*s: \"%.*s\" is not a [string, unsigned] pair",
        static_cast<int>(where.size()), where.data(),
        static_cast<int>(key.size()), key.data()));
  }
  EMBER_RETURN_IF_ERROR(CheckId(p, id, where));
  return static_cast<int32_t>(id);
}

// One template ("single" or "pair"): a list of {"Sequence": {"id": "A",
// "type_id": 0}} and {"SpecialToken": {"id": "[CLS]", "type_id": 0}}.
// Type ids must be u32, as `tokenizers` requires; Tokenizer::EncodeFull
// reports them.
Status LoadTemplate(const Pipeline& p, const object& o, std::string_view key,
                    const object& specials, std::vector<TemplateItem>* out) {
  element e;
  array pieces;
  if (!Field(o, key, &e) || e.get_array().get(pieces) != simdjson::SUCCESS) {
    return InvalidArgumentError(StringPrintf(
        "post_processor TemplateProcessing: \"%.*s\" is not an array",
        static_cast<int>(key.size()), key.data()));
  }
  if (pieces.size() > kMaxTemplatePieces) {
    return InvalidArgumentError(StringPrintf(
        "post_processor TemplateProcessing: \"%.*s\" has %zu pieces, over "
        "the limit of %zu",
        static_cast<int>(key.size()), key.data(), pieces.size(),
        kMaxTemplatePieces));
  }
  for (element item : pieces) {
    object io, inner;
    if (item.get_object().get(io) != simdjson::SUCCESS || io.size() != 1) {
      return InvalidArgumentError(
          "post_processor TemplateProcessing: a piece is not an object with "
          "one key");
    }
    TemplateItem t;
    element v;
    if (Field(io, "Sequence", &v) &&
        v.get_object().get(inner) == simdjson::SUCCESS) {
      EMBER_ASSIGN_OR_RETURN(std::string_view id,
                             GetString(inner, "id", "template Sequence"));
      if (id != "A" && id != "B") {
        return InvalidArgumentError(
            "post_processor TemplateProcessing: a Sequence id is neither "
            "\"A\" nor \"B\"");
      }
      EMBER_ASSIGN_OR_RETURN(
          uint64_t type_id,
          GetUint(inner, "type_id", "template Sequence", UINT32_MAX));
      t.type_id = static_cast<uint32_t>(type_id);
      t.is_sequence = true;
      t.sequence = id == "A" ? 0 : 1;
    } else if (Field(io, "SpecialToken", &v) &&
               v.get_object().get(inner) == simdjson::SUCCESS) {
      EMBER_ASSIGN_OR_RETURN(std::string_view id,
                             GetString(inner, "id", "template SpecialToken"));
      EMBER_ASSIGN_OR_RETURN(
          uint64_t type_id,
          GetUint(inner, "type_id", "template SpecialToken", UINT32_MAX));
      t.type_id = static_cast<uint32_t>(type_id);
      element st;
      if (specials.at_key(id).get(st) != simdjson::SUCCESS) {
        t.missing = true;
      } else {
        object sto;
        array ids;
        if (st.get_object().get(sto) != simdjson::SUCCESS ||
            sto.at_key("ids").get_array().get(ids) != simdjson::SUCCESS) {
          return InvalidArgumentError(StringPrintf(
              "post_processor TemplateProcessing: special token \"%.*s\" has "
              "no \"ids\" array",
              static_cast<int>(std::min<size_t>(id.size(), 64)), id.data()));
        }
        if (ids.size() > kMaxSpecialIds) {
          return InvalidArgumentError(StringPrintf(
              "post_processor TemplateProcessing: special token \"%.*s\" has "
              "%zu ids, over the limit of %zu",
              static_cast<int>(std::min<size_t>(id.size(), 64)), id.data(),
              ids.size(), kMaxSpecialIds));
        }
        for (element idv : ids) {
          uint64_t x = 0;
          if (idv.get_uint64().get(x) != simdjson::SUCCESS) {
            return InvalidArgumentError(
                "post_processor TemplateProcessing: a special token id is "
                "not an unsigned integer");
          }
          EMBER_RETURN_IF_ERROR(CheckId(p, x, "TemplateProcessing"));
          t.ids.push_back(static_cast<int32_t>(x));
        }
      }
    } else {
      return InvalidArgumentError(
          "post_processor TemplateProcessing: a piece is neither a Sequence "
          "nor a SpecialToken");
    }
    out->push_back(std::move(t));
  }
  return Status::Ok();
}

}  // namespace

Status LoadPostProcessor(const element& e, size_t depth, Pipeline* p) {
  if (e.is_null()) return Status::Ok();
  object o;
  if (e.get_object().get(o) != simdjson::SUCCESS) {
    return InvalidArgumentError("post_processor is not an object");
  }
  EMBER_ASSIGN_OR_RETURN(std::string_view type, TypeOf(o, "post_processor"));
  PostProcessor pp;
  if (type == "ByteLevel") {
    // It trims offsets only; `tokenizers` requires both fields.
    EMBER_RETURN_IF_ERROR(RequireBool(o, "add_prefix_space", type));
    EMBER_RETURN_IF_ERROR(RequireBool(o, "trim_offsets", type));
    pp.kind = PostProcessor::Kind::kByteLevel;
    EMBER_ASSIGN_OR_RETURN(pp.add_prefix_space,
                           GetBool(o, "add_prefix_space", type, false));
    EMBER_ASSIGN_OR_RETURN(pp.trim_offsets,
                           GetBool(o, "trim_offsets", type, false));
  }
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
  if (type == "ByteLevel") {
    // Loaded above.
  } else if (type == "BertProcessing" || type == "RobertaProcessing") {
    // `tokenizers` reads these two untagged, Roberta first, and does not
    // check "type": whichever has Roberta's two bools is a Roberta, any
    // other a Bert (they differ for the second encoding of a list on).
    pp.kind = HasBool(o, "trim_offsets") && HasBool(o, "add_prefix_space")
                  ? PostProcessor::Kind::kRoberta
                  : PostProcessor::Kind::kBert;
    EMBER_ASSIGN_OR_RETURN(pp.sep, LoadTokenPair(*p, o, "sep", type));
    EMBER_ASSIGN_OR_RETURN(pp.cls, LoadTokenPair(*p, o, "cls", type));
    if (pp.kind == PostProcessor::Kind::kRoberta) {
      EMBER_ASSIGN_OR_RETURN(pp.add_prefix_space,
                             GetBool(o, "add_prefix_space", type, false));
      EMBER_ASSIGN_OR_RETURN(pp.trim_offsets,
                             GetBool(o, "trim_offsets", type, false));
    }
  } else if (type == "TemplateProcessing") {
    pp.kind = PostProcessor::Kind::kTemplate;
    element specials_e;
    object specials;
    if (!Field(o, "special_tokens", &specials_e) ||
        specials_e.get_object().get(specials) != simdjson::SUCCESS) {
      return InvalidArgumentError(
          "post_processor TemplateProcessing: \"special_tokens\" is not an "
          "object");
    }
    // Every entry must be whole ({"id", "ids", "tokens"}), as `tokenizers`
    // reads them all; only the ids of the ones a template names are used.
    if (specials.size() > kMaxPostProcessors * kMaxTemplatePieces) {
      return InvalidArgumentError(
          "post_processor TemplateProcessing: too many special tokens");
    }
    for (auto [key, value] : specials) {
      object so;
      std::string_view id;
      array ids, tokens;
      if (value.get_object().get(so) != simdjson::SUCCESS ||
          so.at_key("id").get_string().get(id) != simdjson::SUCCESS ||
          so.at_key("ids").get_array().get(ids) != simdjson::SUCCESS ||
          so.at_key("tokens").get_array().get(tokens) != simdjson::SUCCESS) {
        return InvalidArgumentError(StringPrintf(
            "post_processor TemplateProcessing: special token \"%.*s\" is "
            "not an object with \"id\", \"ids\" and \"tokens\"",
            static_cast<int>(std::min<size_t>(key.size(), 64)), key.data()));
      }
    }
    EMBER_RETURN_IF_ERROR(LoadTemplate(*p, o, "single", specials, &pp.single));
    EMBER_RETURN_IF_ERROR(LoadTemplate(*p, o, "pair", specials, &pp.pair));
  } else {
    return Unimplemented("post_processor", type);
  }
  if (p->post_processors.size() >= kMaxPostProcessors) {
    return InvalidArgumentError(StringPrintf(
        "post_processor: more than %zu post-processors", kMaxPostProcessors));
  }
  p->post_processors.push_back(std::move(pp));
  return Status::Ok();
}

namespace {

// The post-processors over the list of encodings, for ids alone (T =
// int32_t) or ids with offsets (offsets.cc). `special(id)` makes the item
// of a token a post-processor adds; `trim(encoding, add_prefix_space)` is
// the offset trimming of ByteLevel and Roberta (nothing for ids alone).
// `pair`, when not null, is the second sequence: the list starts with two
// encodings. The result replaces `items`. `special(id, type_id)` makes an
// added token; `retype(encoding, type_id)` gives every token of an
// encoding that type id (the template's Sequence pieces, Roberta's zeros);
// `unmark(encoding, from)` clears the special-tokens mask from `from` on.
template <typename T, typename Special, typename Trim, typename Retype,
          typename Unmark>
Status RunPostProcessors(const std::vector<PostProcessor>& processors,
                         bool add_special_tokens, std::vector<T>* items,
                         std::vector<T>* pair, const Special& special,
                         const Trim& trim, const Retype& retype,
                         const Unmark& unmark) {
  if (processors.empty() && pair == nullptr) return Status::Ok();
  // The list of encodings, as `tokenizers` keeps it.
  std::vector<std::vector<T>> list;
  list.push_back(std::move(*items));
  if (pair) list.push_back(std::move(*pair));
  std::vector<std::vector<T>> next;
  auto specials = [&](const std::vector<int32_t>& ids, uint32_t type_id) {
    std::vector<T> e;
    e.reserve(ids.size());
    for (int32_t id : ids) e.push_back(special(id, type_id));
    return e;
  };
  for (const PostProcessor& pp : processors) {
    if (pp.trim_offsets) {
      for (std::vector<T>& e : list) trim(e, pp.add_prefix_space);
    }
    if (pp.kind == PostProcessor::Kind::kByteLevel) continue;
    next.clear();
    size_t total = 0;
    if (pp.kind == PostProcessor::Kind::kTemplate) {
      const std::vector<TemplateItem>* tmpl = nullptr;
      if (list.size() == 1) {
        tmpl = &pp.single;
      } else if (list.size() == 2) {
        tmpl = &pp.pair;
      } else {
        return InvalidArgumentError(StringPrintf(
            "post_processor TemplateProcessing: given %zu encodings by the "
            "post-processor before it (only 1 or 2 have a template; "
            "`tokenizers` panics here)",
            list.size()));
      }
      for (const TemplateItem& item : *tmpl) {
        if (item.is_sequence) {
          if (item.sequence >= list.size()) {
            return InvalidArgumentError(
                "post_processor TemplateProcessing: the template names "
                "sequence B of a single sequence (`tokenizers` panics here)");
          }
          total += list[item.sequence].size();
          if (total > kMaxPostProcessedIds) break;
          next.push_back(list[item.sequence]);
          retype(next.back(), item.type_id);
        } else if (add_special_tokens) {
          if (item.missing) {
            return InvalidArgumentError(
                "post_processor TemplateProcessing: the template names a "
                "special token missing from \"special_tokens\" "
                "(`tokenizers` panics here)");
          }
          total += item.ids.size();
          next.push_back(specials(item.ids, item.type_id));
        }
      }
    } else {
      // Roberta gives every token type id 0, special tokens or not.
      if (pp.kind == PostProcessor::Kind::kRoberta) {
        for (std::vector<T>& e : list) retype(e, 0);
      }
      if (!add_special_tokens) continue;  // Bert/Roberta: ids unchanged
      for (size_t i = 0; i < list.size(); ++i) {
        std::vector<T> e;
        total += list[i].size() + 3;
        if (total > kMaxPostProcessedIds) break;
        e.reserve(list[i].size() + 2);
        // Bert: [CLS] a [SEP] of type 0, then b [SEP] with the [SEP] of
        // type 1; Roberta all 0.
        const uint32_t sep_type =
            i > 0 && pp.kind == PostProcessor::Kind::kBert ? 1 : 0;
        if (i == 0) {
          e.push_back(special(pp.cls, 0));
        } else if (pp.kind == PostProcessor::Kind::kRoberta) {
          e.push_back(special(pp.sep, 0));
        }
        // The wrapped tokens' special-tokens mask becomes 0, as
        // `tokenizers` rebuilds it (an earlier Bert's [CLS] included).
        const size_t from = e.size();
        e.insert(e.end(), list[i].begin(), list[i].end());
        unmark(e, from);
        e.push_back(special(pp.sep, sep_type));
        next.push_back(std::move(e));
      }
    }
    if (total > kMaxPostProcessedIds) {
      return ResourceExhaustedError(
          StringPrintf("post_processor: over %zu ids for one sequence",
                       kMaxPostProcessedIds));
    }
    list.swap(next);
  }
  items->clear();
  for (const std::vector<T>& e : list) {
    items->insert(items->end(), e.begin(), e.end());
  }
  return Status::Ok();
}

}  // namespace

Status Pipeline::PostProcess(bool add_special_tokens, std::vector<int32_t>* ids,
                             std::vector<int32_t>* pair) const {
  return RunPostProcessors(
      post_processors, add_special_tokens, ids, pair,
      [](int32_t id, uint32_t) { return id; },
      [](std::vector<int32_t>&, bool) {},
      [](std::vector<int32_t>&, uint32_t) {},
      [](std::vector<int32_t>&, size_t) {});
}

Status Pipeline::PostProcessWithOffsets(
    bool add_special_tokens, std::vector<OffsetToken>* tokens,
    std::vector<OffsetToken>* pair,
    const std::function<void(std::vector<OffsetToken>*, bool)>& trim) const {
  return RunPostProcessors(
      post_processors, add_special_tokens, tokens, pair,
      [](int32_t id, uint32_t type_id) {
        OffsetToken t;
        t.id = id;
        t.type_id = type_id;
        t.special = true;
        return t;
      },
      [&](std::vector<OffsetToken>& e, bool add_prefix_space) {
        trim(&e, add_prefix_space);
      },
      [](std::vector<OffsetToken>& e, uint32_t type_id) {
        for (OffsetToken& t : e) t.type_id = type_id;
      },
      [](std::vector<OffsetToken>& e, size_t from) {
        for (size_t k = from; k < e.size(); ++k) e[k].special = false;
      });
}

}  // namespace ember::tokenizer
