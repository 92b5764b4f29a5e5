// `_ember._Tokenizer`: the native core of ember.runtime.Tokenizer
// (python/ember/runtime/tokenizer.py wraps it in iree.runtime 3.13's API).
// Every call that tokenizes releases the GIL: the Tokenizer is immutable, so
// threads share one freely, and encode_batch/decode_batch spread a batch
// over all cores. Built only when the tokenizer layer is
// (EMBER_HAVE_TOKENIZER); otherwise the module has no _Tokenizer and the
// Python class raises NotImplementedError.
#include <nanobind/nanobind.h>
#include <nanobind/stl/optional.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/string_view.h>
#include <nanobind/stl/vector.h>

#include <memory>
#include <span>
#include <string>
#include <vector>

#include "python/bindings/status_utils.h"

#ifdef EMBER_HAVE_TOKENIZER
#include "runtime/tokenizer/tokenizer.h"
#endif

namespace nb = nanobind;

#ifdef EMBER_HAVE_TOKENIZER
// The streams own their state (a DecodeStream holds unique_ptrs): never
// copied, which nanobind otherwise infers from the declared copy
// constructors.
namespace nanobind::detail {
template <>
struct is_copy_constructible<ember::tokenizer::DecodeStream> : std::false_type {
};
template <>
struct is_copy_constructible<ember::tokenizer::EncodeStream> : std::false_type {
};
}  // namespace nanobind::detail
#endif

namespace ember::python {

#ifdef EMBER_HAVE_TOKENIZER
namespace {

using tokenizer::EncodeOptions;
using tokenizer::Tokenizer;

// The UTF-8 of a str (a str holding lone surrogates is a ValueError, as in
// `tokenizers`). The view lives as long as `text`.
std::string_view Utf8Of(const nb::str& text) {
  Py_ssize_t size = 0;
  const char* data = PyUnicode_AsUTF8AndSize(text.ptr(), &size);
  if (data == nullptr) {
    PyErr_Clear();
    throw nb::value_error("text is not encodable as UTF-8 (lone surrogate?)");
  }
  return std::string_view(data, static_cast<size_t>(size));
}

// The Python int of an id. Making the lists of a batch is the part of
// encode_batch that holds the GIL and runs on one thread; allocating an
// int per id was most of it. Ids below kIntCacheSize are made once and
// kept (at most 8 MiB, like CPython's own small-int cache, never freed);
// the cache is only touched with the GIL held.
constexpr size_t kIntCacheSize = size_t{1} << 18;

PyObject* IdObject(int32_t id) {
  static std::vector<PyObject*>* cache =
      new std::vector<PyObject*>(kIntCacheSize, nullptr);
  if (id < 0 || static_cast<size_t>(id) >= kIntCacheSize) {
    return PyLong_FromLong(id);
  }
  PyObject*& slot = (*cache)[static_cast<size_t>(id)];
  if (slot == nullptr) {
    slot = PyLong_FromLong(id);
    if (slot == nullptr) return nullptr;
  }
  Py_INCREF(slot);
  return slot;
}

nb::list ToList(const std::vector<int32_t>& ids) {
  PyObject* list = PyList_New(static_cast<Py_ssize_t>(ids.size()));
  if (list == nullptr) throw nb::python_error();
  for (size_t i = 0; i < ids.size(); ++i) {
    PyObject* item = IdObject(ids[i]);
    if (item == nullptr) {
      Py_DECREF(list);
      throw nb::python_error();
    }
    PyList_SET_ITEM(list, static_cast<Py_ssize_t>(i), item);
  }
  return nb::steal<nb::list>(list);
}

// Whether `offset_type` asks for characters ("char") rather than bytes
// ("byte"); anything else is a ValueError.
bool CharOffsets(const std::string& offset_type) {
  if (offset_type != "byte" && offset_type != "char") {
    throw nb::value_error("offset_type must be \"byte\" or \"char\"");
  }
  return offset_type == "char";
}

// The UTF-8 of a batch's texts and of its pairs (none, or one per text,
// each a str or None); the views live as long as the arguments.
void Views(const std::vector<nb::str>& texts,
           const std::optional<std::vector<std::optional<nb::str>>>& pairs,
           std::vector<std::string_view>* views,
           std::vector<std::optional<std::string_view>>* pair_views) {
  views->reserve(texts.size());
  for (const nb::str& text : texts) views->push_back(Utf8Of(text));
  if (!pairs) return;
  if (pairs->size() != texts.size()) {
    throw nb::value_error("pairs must have one entry (a str or None) per text");
  }
  pair_views->reserve(pairs->size());
  for (const std::optional<nb::str>& pair : *pairs) {
    pair_views->push_back(pair ? std::optional<std::string_view>(Utf8Of(*pair))
                               : std::nullopt);
  }
}

// The offsets as a list of (start, end) tuples, made with the C API
// (nanobind's make_tuple and append per pair took half of a call).
nb::list ToPairs(const std::vector<tokenizer::TokenOffsets>& offsets) {
  PyObject* list = PyList_New(static_cast<Py_ssize_t>(offsets.size()));
  if (list == nullptr) throw nb::python_error();
  nb::list owner = nb::steal<nb::list>(list);
  for (size_t i = 0; i < offsets.size(); ++i) {
    PyObject* pair = PyTuple_New(2);
    if (pair == nullptr) throw nb::python_error();
    PyList_SET_ITEM(list, static_cast<Py_ssize_t>(i), pair);
    PyObject* begin = PyLong_FromSize_t(offsets[i].begin);
    if (begin == nullptr) throw nb::python_error();
    PyTuple_SET_ITEM(pair, 0, begin);
    PyObject* end = PyLong_FromSize_t(offsets[i].end);
    if (end == nullptr) throw nb::python_error();
    PyTuple_SET_ITEM(pair, 1, end);
  }
  return owner;
}

// A list of small unsigned values (type ids, masks) as Python ints.
template <typename T>
nb::list ToIntList(const std::vector<T>& values) {
  PyObject* list = PyList_New(static_cast<Py_ssize_t>(values.size()));
  if (list == nullptr) throw nb::python_error();
  nb::list owner = nb::steal<nb::list>(list);
  for (size_t i = 0; i < values.size(); ++i) {
    const uint64_t v = values[i];
    PyObject* item = v < kIntCacheSize ? IdObject(static_cast<int32_t>(v))
                                       : PyLong_FromUnsignedLongLong(v);
    if (item == nullptr) throw nb::python_error();
    PyList_SET_ITEM(list, static_cast<Py_ssize_t>(i), item);
  }
  return owner;
}

// An Encoding as (ids, type_ids, offsets, special_tokens_mask,
// attention_mask); ember.runtime.Encoding wraps it.
nb::tuple ToTuple(const tokenizer::Encoding& e) {
  return nb::make_tuple(ToList(e.ids), ToIntList(e.type_ids),
                        ToPairs(e.offsets), ToIntList(e.special_tokens_mask),
                        ToIntList(e.attention_mask));
}

// Ids from Python ints: anything outside int32 is OUT_OF_RANGE (IndexError)
// like an id that is merely not in the vocabulary.
std::vector<int32_t> ToIds(const std::vector<int64_t>& ids) {
  std::vector<int32_t> out(ids.size());
  for (size_t i = 0; i < ids.size(); ++i) {
    if (ids[i] < 0 || ids[i] > INT32_MAX) {
      ThrowStatus(
          OutOfRangeError(StringPrintf("token id %lld is not in the vocabulary",
                                       static_cast<long long>(ids[i]))));
    }
    out[i] = static_cast<int32_t>(ids[i]);
  }
  return out;
}

}  // namespace

void BindTokenizer(nb::module_& m) {
  nb::class_<tokenizer::DecodeStream>(
      m, "_TokenizerDecodeStream",
      "The native stream decoder (see ember.runtime.TokenizerDecodeStream).")
      .def(
          "feed",
          [](tokenizer::DecodeStream& s,
             const std::vector<int64_t>& token_ids) {
            std::vector<int32_t> ids = ToIds(token_ids);
            std::string text;
            CheckStatus(s.Feed(ids, &text));
            return text;
          },
          nb::arg("token_ids"))
      .def(
          "feed_one",
          [](tokenizer::DecodeStream& s, int64_t token_id) {
            std::vector<int32_t> ids = ToIds({token_id});
            std::string text;
            CheckStatus(s.Feed(ids, &text));
            return text;
          },
          nb::arg("token_id"))
      .def("finalize", [](tokenizer::DecodeStream& s) {
        std::string text;
        CheckStatus(s.Finalize(&text));
        return text;
      });
  nb::class_<tokenizer::EncodeStream>(
      m, "_TokenizerEncodeStream",
      "The native stream encoder (see ember.runtime.TokenizerEncodeStream).")
      .def(
          "feed",
          [](tokenizer::EncodeStream& s, const nb::str& chunk) {
            std::string_view utf8 = Utf8Of(chunk);
            std::vector<int32_t> ids;
            Status status;
            {
              nb::gil_scoped_release release;
              status = s.Feed(utf8, &ids);
            }
            CheckStatus(status);
            return ToList(ids);
          },
          nb::arg("chunk"))
      .def("finalize", [](tokenizer::EncodeStream& s) {
        std::vector<int32_t> ids;
        Status status;
        {
          nb::gil_scoped_release release;
          status = s.Finalize(&ids);
        }
        CheckStatus(status);
        return ToList(ids);
      });
  nb::class_<Tokenizer>(m, "_Tokenizer",
                        "The native tokenizer (see ember.runtime.Tokenizer).")
      .def_static(
          "from_huggingface_json",
          [](const std::string& json) {
            auto result = [&] {
              nb::gil_scoped_release release;
              return Tokenizer::FromHuggingFaceJson(json);
            }();
            return Unwrap(std::move(result)).release();
          },
          nb::arg("json"), nb::rv_policy::take_ownership)
      .def_static(
          "from_file",
          [](const std::string& path) {
            auto result = [&] {
              nb::gil_scoped_release release;
              return Tokenizer::FromFile(path);
            }();
            return Unwrap(std::move(result)).release();
          },
          nb::arg("path"), nb::rv_policy::take_ownership)
      .def_static(
          "from_tiktoken",
          [](const std::string& data, const std::string& encoding) {
            auto result = [&] {
              nb::gil_scoped_release release;
              return Tokenizer::FromTiktoken(data, encoding);
            }();
            return Unwrap(std::move(result)).release();
          },
          nb::arg("data"), nb::arg("encoding"), nb::rv_policy::take_ownership)
      .def(
          "encode",
          [](const Tokenizer& t, const nb::str& text, bool add_special_tokens,
             bool no_special_token_matching,
             const std::optional<nb::str>& pair) {
            std::string_view utf8 = Utf8Of(text);
            std::string_view second = pair ? Utf8Of(*pair) : std::string_view();
            EncodeOptions options{add_special_tokens,
                                  no_special_token_matching};
            std::vector<int32_t> ids;
            Status status;
            {
              nb::gil_scoped_release release;
              status = pair ? t.EncodePair(utf8, second, options, &ids)
                            : t.Encode(utf8, options, &ids);
            }
            CheckStatus(status);
            return ToList(ids);
          },
          nb::arg("text"), nb::arg("add_special_tokens") = false,
          nb::arg("no_special_token_matching") = false,
          nb::arg("pair") = nb::none())
      .def(
          "encode_with_offsets",
          [](const Tokenizer& t, const nb::str& text, bool add_special_tokens,
             bool no_special_token_matching, const std::string& offset_type,
             const std::optional<nb::str>& pair) {
            bool chars = CharOffsets(offset_type);
            std::string_view utf8 = Utf8Of(text);
            std::string_view second = pair ? Utf8Of(*pair) : std::string_view();
            EncodeOptions options{add_special_tokens, no_special_token_matching,
                                  chars};
            std::vector<int32_t> ids;
            std::vector<tokenizer::TokenOffsets> offsets;
            Status status;
            {
              nb::gil_scoped_release release;
              status = pair
                           ? t.EncodePairWithOffsets(utf8, second, options,
                                                     &ids, &offsets)
                           : t.EncodeWithOffsets(utf8, options, &ids, &offsets);
            }
            CheckStatus(status);
            return nb::make_tuple(ToList(ids), ToPairs(offsets));
          },
          nb::arg("text"), nb::arg("add_special_tokens") = false,
          nb::arg("no_special_token_matching") = false,
          nb::arg("offset_type") = "byte", nb::arg("pair") = nb::none())
      .def(
          "encode_full",
          [](const Tokenizer& t, const nb::str& text, bool add_special_tokens,
             bool no_special_token_matching, const std::string& offset_type,
             const std::optional<nb::str>& pair) {
            bool chars = CharOffsets(offset_type);
            std::string_view utf8 = Utf8Of(text);
            std::string_view second = pair ? Utf8Of(*pair) : std::string_view();
            EncodeOptions options{add_special_tokens, no_special_token_matching,
                                  chars};
            tokenizer::Encoding encoding;
            Status status;
            {
              nb::gil_scoped_release release;
              status = t.EncodeFull(utf8, pair ? &second : nullptr, options,
                                    &encoding);
            }
            CheckStatus(status);
            return ToTuple(encoding);
          },
          nb::arg("text"), nb::arg("add_special_tokens") = false,
          nb::arg("no_special_token_matching") = false,
          nb::arg("offset_type") = "byte", nb::arg("pair") = nb::none())
      .def(
          "encode_batch_full",
          [](const Tokenizer& t, const std::vector<nb::str>& texts,
             bool add_special_tokens, bool no_special_token_matching,
             unsigned threads, const std::string& offset_type,
             const std::optional<std::vector<std::optional<nb::str>>>& pairs) {
            bool chars = CharOffsets(offset_type);
            std::vector<std::string_view> views;
            std::vector<std::optional<std::string_view>> pair_views;
            Views(texts, pairs, &views, &pair_views);
            EncodeOptions options{add_special_tokens, no_special_token_matching,
                                  chars};
            std::vector<tokenizer::Encoding> out;
            Status status;
            {
              nb::gil_scoped_release release;
              status =
                  t.EncodeBatchFull(views, options, threads, &out, pair_views);
            }
            CheckStatus(status);
            nb::list result;
            for (const tokenizer::Encoding& e : out) result.append(ToTuple(e));
            return result;
          },
          nb::arg("texts"), nb::arg("add_special_tokens") = false,
          nb::arg("no_special_token_matching") = false, nb::arg("threads") = 0,
          nb::arg("offset_type") = "byte", nb::arg("pairs") = nb::none())
      .def(
          "encode_batch_with_offsets",
          [](const Tokenizer& t, const std::vector<nb::str>& texts,
             bool add_special_tokens, bool no_special_token_matching,
             unsigned threads, const std::string& offset_type,
             const std::optional<std::vector<std::optional<nb::str>>>& pairs) {
            bool chars = CharOffsets(offset_type);
            std::vector<std::string_view> views;
            std::vector<std::optional<std::string_view>> pair_views;
            Views(texts, pairs, &views, &pair_views);
            EncodeOptions options{add_special_tokens, no_special_token_matching,
                                  chars};
            std::vector<std::vector<int32_t>> ids;
            std::vector<std::vector<tokenizer::TokenOffsets>> offsets;
            Status status;
            {
              nb::gil_scoped_release release;
              status = t.EncodeBatchWithOffsets(views, options, threads, &ids,
                                                &offsets, pair_views);
            }
            CheckStatus(status);
            nb::list result;
            for (size_t i = 0; i < ids.size(); ++i) {
              result.append(
                  nb::make_tuple(ToList(ids[i]), ToPairs(offsets[i])));
            }
            return result;
          },
          nb::arg("texts"), nb::arg("add_special_tokens") = false,
          nb::arg("no_special_token_matching") = false, nb::arg("threads") = 0,
          nb::arg("offset_type") = "byte", nb::arg("pairs") = nb::none())
      .def(
          "encode_batch",
          [](const Tokenizer& t, const std::vector<nb::str>& texts,
             bool add_special_tokens, bool no_special_token_matching,
             unsigned threads,
             const std::optional<std::vector<std::optional<nb::str>>>& pairs) {
            std::vector<std::string_view> views;
            std::vector<std::optional<std::string_view>> pair_views;
            Views(texts, pairs, &views, &pair_views);
            EncodeOptions options{add_special_tokens,
                                  no_special_token_matching};
            std::vector<std::vector<int32_t>> out;
            Status status;
            {
              nb::gil_scoped_release release;
              status = t.EncodeBatch(views, options, threads, &out, pair_views);
            }
            CheckStatus(status);
            nb::list result;
            for (const auto& ids : out) result.append(ToList(ids));
            return result;
          },
          nb::arg("texts"), nb::arg("add_special_tokens") = false,
          nb::arg("no_special_token_matching") = false, nb::arg("threads") = 0,
          nb::arg("pairs") = nb::none())
      .def(
          "decode",
          [](const Tokenizer& t, const std::vector<int64_t>& token_ids,
             bool skip_special_tokens) {
            std::vector<int32_t> ids = ToIds(token_ids);
            auto text = [&] {
              nb::gil_scoped_release release;
              return t.Decode(ids, skip_special_tokens);
            }();
            return Unwrap(std::move(text));
          },
          nb::arg("token_ids"), nb::arg("skip_special_tokens") = false)
      .def(
          "decode_batch",
          [](const Tokenizer& t, const std::vector<std::vector<int64_t>>& batch,
             bool skip_special_tokens, unsigned threads) {
            std::vector<std::vector<int32_t>> ids;
            ids.reserve(batch.size());
            for (const auto& one : batch) ids.push_back(ToIds(one));
            std::vector<std::span<const int32_t>> spans(ids.begin(), ids.end());
            std::vector<std::string> out;
            Status status;
            {
              nb::gil_scoped_release release;
              status = t.DecodeBatch(spans, skip_special_tokens, threads, &out);
            }
            CheckStatus(status);
            return out;
          },
          nb::arg("batch"), nb::arg("skip_special_tokens") = false,
          nb::arg("threads") = 0)
      .def(
          "encode_stream",
          [](const Tokenizer& t, bool add_special_tokens,
             bool no_special_token_matching) {
            EncodeOptions options{add_special_tokens,
                                  no_special_token_matching};
            return t.NewEncodeStream(options).release();
          },
          nb::arg("add_special_tokens") = false,
          nb::arg("no_special_token_matching") = false, nb::keep_alive<0, 1>(),
          nb::rv_policy::take_ownership)
      .def(
          "decode_stream",
          [](const Tokenizer& t, bool skip_special_tokens) {
            return t.NewDecodeStream(skip_special_tokens).release();
          },
          nb::arg("skip_special_tokens") = false, nb::keep_alive<0, 1>(),
          nb::rv_policy::take_ownership)
      .def_prop_ro("vocab_size", &Tokenizer::vocab_size)
      .def_prop_ro(
          "model_type",
          [](const Tokenizer& t) { return std::string(t.model_type()); })
      .def(
          "id_to_token",
          [](const Tokenizer& t, int64_t id) -> std::optional<std::string> {
            if (id < 0 || id > INT32_MAX) return std::nullopt;
            auto token = t.IdToToken(static_cast<int32_t>(id));
            if (!token) return std::nullopt;
            return std::string(*token);
          },
          nb::arg("token_id"))
      .def(
          "token_to_id",
          [](const Tokenizer& t, const nb::str& token)
              -> std::optional<int32_t> { return t.TokenToId(Utf8Of(token)); },
          nb::arg("token"))
      .def_prop_ro("special_ids", &Tokenizer::SpecialIds)
      .def_prop_ro("unk_id", &Tokenizer::UnkId);
}
#else
void BindTokenizer(nb::module_& m) {}
#endif

}  // namespace ember::python
