// The shared accessors of the tokenizer.json loaders (json_util.h).
#include "runtime/tokenizer/json_util.h"

namespace ember::tokenizer {

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
                                           std::string_view fallback) {
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
    EMBER_ASSIGN_OR_RETURN(*regex,
                           Regex::CompileOniguruma(sv, /*line_anchors=*/true),
                           "while compiling %.*s's pattern",
                           static_cast<int>(where.size()), where.data());
    return Status::Ok();
  }
  return InvalidArgumentError(
      StringPrintf("%.*s: \"pattern\" has neither \"String\" nor \"Regex\"",
                   static_cast<int>(where.size()), where.data()));
}

}  // namespace ember::tokenizer
