// The normalizers: each rewrites the text of a piece before it is
// pre-tokenized (docs/tokenizer.md "Normalizers").
#include <utf8proc.h>

#include <cstdlib>

#include "runtime/tokenizer/json_util.h"

namespace ember::tokenizer {

namespace {

Status UnicodeNormalizeSpan(std::string_view in, utf8proc_option_t options,
                            std::string* out) {
  if (in.empty()) return Status::Ok();
  utf8proc_uint8_t* result = nullptr;
  utf8proc_ssize_t n =
      utf8proc_map(reinterpret_cast<const utf8proc_uint8_t*>(in.data()),
                   static_cast<utf8proc_ssize_t>(in.size()), &result,
                   static_cast<utf8proc_option_t>(options | UTF8PROC_STABLE));
  if (n < 0) {
    return InvalidArgumentError(
        StringPrintf("Unicode normalization failed: %s", utf8proc_errmsg(n)));
  }
  out->append(reinterpret_cast<const char*>(result), static_cast<size_t>(n));
  std::free(result);
  return Status::Ok();
}

// utf8proc's normalization, except that the code points `tokenizers` does
// not know stay as they are and split the text: a character it treats as
// unassigned has class 0, no decomposition and composes with nothing, so
// normalization never crosses it (docs/tokenizer.md "Unicode
// normalization").
Status UnicodeNormalize(std::string_view in, utf8proc_option_t options,
                        std::string* out) {
  out->clear();
  size_t start = 0;
  for (size_t i = 0; i < in.size();) {
    size_t w = 0;
    uint32_t c = DecodeCodePoint(in, i, &w);
    if (c >= 0x7FD && UnknownToTokenizersNormalization(c)) {
      EMBER_RETURN_IF_ERROR(
          UnicodeNormalizeSpan(in.substr(start, i - start), options, out));
      out->append(in.substr(i, w));
      start = i + w;
    }
    i += w;
  }
  return UnicodeNormalizeSpan(in.substr(start), options, out);
}
}  // namespace

Status Pipeline::Normalize(std::string_view in, std::string* out) const {
  out->assign(in);
  std::string scratch;
  for (const Normalizer& n : normalizers) {
    switch (n.kind) {
      case Normalizer::Kind::kPrepend:
        if (!out->empty()) out->insert(0, n.text);
        break;
      case Normalizer::Kind::kReplace:
        if (n.regex) {
          EMBER_RETURN_IF_ERROR(
              RegexReplace(*n.regex, *out, n.content, &scratch));
        } else {
          ReplaceAll(*out, n.text, n.content, &scratch);
        }
        out->swap(scratch);
        break;
      case Normalizer::Kind::kNfc:
        EMBER_RETURN_IF_ERROR(
            UnicodeNormalize(*out, UTF8PROC_COMPOSE, &scratch));
        out->swap(scratch);
        break;
      case Normalizer::Kind::kNfd:
        EMBER_RETURN_IF_ERROR(
            UnicodeNormalize(*out, UTF8PROC_DECOMPOSE, &scratch));
        out->swap(scratch);
        break;
      case Normalizer::Kind::kNfkc:
        EMBER_RETURN_IF_ERROR(UnicodeNormalize(
            *out,
            static_cast<utf8proc_option_t>(UTF8PROC_COMPOSE | UTF8PROC_COMPAT),
            &scratch));
        out->swap(scratch);
        break;
      case Normalizer::Kind::kNfkd:
        EMBER_RETURN_IF_ERROR(
            UnicodeNormalize(*out,
                             static_cast<utf8proc_option_t>(UTF8PROC_DECOMPOSE |
                                                            UTF8PROC_COMPAT),
                             &scratch));
        out->swap(scratch);
        break;
    }
  }
  return Status::Ok();
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

}  // namespace ember::tokenizer
