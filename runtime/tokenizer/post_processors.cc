// The post-processors: what add_special_tokens adds around a sequence
// (docs/tokenizer.md "Post-processors").
#include <algorithm>

#include "runtime/tokenizer/json_util.h"

namespace ember::tokenizer {

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

Status Pipeline::PostProcess(std::vector<int32_t>* ids) const {
  if (!has_template) return Status::Ok();
  std::vector<int32_t> out;
  out.reserve(ids->size() + 8);
  for (const TemplateItem& item : single_template) {
    if (item.is_sequence) {
      out.insert(out.end(), ids->begin(), ids->end());
    } else {
      out.insert(out.end(), item.ids.begin(), item.ids.end());
    }
  }
  ids->swap(out);
  return Status::Ok();
}

}  // namespace ember::tokenizer
