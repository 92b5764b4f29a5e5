"""A tokenizer.json's "truncation" and "padding" against HuggingFace
``tokenizers`` 0.23 (docs/tokenizer.md "Truncation and padding"): every
strategy and direction, strides, a max_length the special tokens alone
exceed, padding to a fixed length, to the batch's longest and to a
multiple, on the left and right -- ids of ``encode`` and ``encode_batch``
and the offsets of ``encode_with_offsets``, with and without special
tokens. iree.runtime 3.13 ignores both fields; ``tokenizers`` defines
the behaviour.
"""

from __future__ import annotations

import json

import pytest

tokenizers = pytest.importorskip("tokenizers")

import ember.runtime as rt  # noqa: E402

if getattr(__import__("ember._ember", fromlist=["_"]), "_Tokenizer",
           None) is None:
    pytest.skip("this build has no tokenizer layer", allow_module_level=True)

import tokenizer_corpus as corpus  # noqa: E402


def _with(kind, truncation=None, padding=None):
    data = json.loads(corpus.trained_json(kind))
    data["truncation"] = truncation
    data["padding"] = padding
    return json.dumps(data)


def _trunc(max_length, strategy="LongestFirst", direction="Right", stride=0):
    return {"direction": direction, "max_length": max_length,
            "strategy": strategy, "stride": stride}


def _pad(strategy="BatchLongest", direction="Right", multiple=None,
         pad_id=0):
    return {"strategy": strategy, "direction": direction,
            "pad_to_multiple_of": multiple, "pad_id": pad_id,
            "pad_type_id": 0, "pad_token": "[PAD]"}


def _char_to_byte(text):
    out = [0]
    for ch in text:
        out.append(out[-1] + len(ch.encode("utf-8")))
    return out


CONFIGS = {
    "right_16": (_trunc(16), None),
    "left_16": (_trunc(16, direction="Left"), None),
    "only_first_9_stride_3": (_trunc(9, "OnlyFirst", stride=3), None),
    "max_2": (_trunc(2), None),      # the special tokens alone fill it
    "max_1": (_trunc(1), None),      # ... or exceed it: no truncation
    "max_0": (_trunc(0), None),
    "fixed_40": (None, _pad({"Fixed": 40})),
    "longest_multiple_8_left": (None, _pad(direction="Left", multiple=8,
                                           pad_id=1)),
    "trunc_and_pad": (_trunc(12, direction="Left"), _pad({"Fixed": 14},
                                                          multiple=4)),
}


@pytest.mark.parametrize("kind", ["wordpiece", "gpt2", "unigram"])
@pytest.mark.parametrize("name", sorted(CONFIGS))
def test_truncation_and_padding_match_tokenizers(kind, name):
    truncation, padding = CONFIGS[name]
    text_json = _with(kind, truncation, padding)
    hf = tokenizers.Tokenizer.from_str(text_json)
    em = rt.Tokenizer.from_huggingface_json(text_json)
    texts = corpus.texts(19, 1000)[:400] + ["", "a", "hello world " * 30]
    for add in (False, True):
        want = hf.encode_batch(texts, add_special_tokens=add)
        # encode_batch pads to the batch's longest.
        assert em.encode_batch(texts, add_special_tokens=add) == [
            e.ids for e in want]
        got = em.encode_batch_with_offsets(texts, add_special_tokens=add)
        for text, enc, (ids, offsets) in zip(texts, want, got):
            to_byte = _char_to_byte(text)
            assert ids == enc.ids
            assert offsets == [(to_byte[s], to_byte[e])
                               for s, e in enc.offsets], text
        # One at a time: padded alone.
        for text in texts[:100]:
            enc = hf.encode(text, add_special_tokens=add)
            assert em.encode(text, add_special_tokens=add) == enc.ids, text
            with em.encode_stream(add_special_tokens=add) as stream:
                streamed = stream.feed(text) + stream.finalize()
            assert streamed == enc.ids, text


def test_truncation_errors_where_tokenizers_fails():
    # OnlySecond on a single sequence is an error in `tokenizers`; a stride
    # not below the cut length makes it panic. Both are ValueErrors here.
    long_text = "hello world " * 30
    text_json = _with("wordpiece", _trunc(8, "OnlySecond"))
    hf = tokenizers.Tokenizer.from_str(text_json)
    with pytest.raises(Exception, match="Second sequence not provided"):
        hf.encode(long_text)
    em = rt.Tokenizer.from_huggingface_json(text_json)
    with pytest.raises(ValueError, match="Second sequence not provided"):
        em.encode(long_text)
    assert em.encode("hi") == hf.encode("hi", add_special_tokens=False).ids
    em = rt.Tokenizer.from_huggingface_json(
        _with("wordpiece", _trunc(8, stride=6)))
    with pytest.raises(ValueError, match="stride 6"):
        em.encode(long_text, add_special_tokens=True)
    assert len(em.encode(long_text)) == 8  # 6 < 8 without special tokens


@pytest.mark.parametrize("field,value,needle", [
    ("truncation", {"max_length": 4}, "is missing"),
    ("truncation", dict(_trunc(4), direction="Up"), "direction"),
    ("truncation", dict(_trunc(4), strategy="Random"), "strategy"),
    ("truncation", 7, "truncation"),
    ("padding", dict(_pad(), strategy={"Fixed": -1}), "Fixed"),
    ("padding", dict(_pad(), strategy="Longest"), "strategy"),
    ("padding", dict(_pad(), pad_id=10 ** 9), "pad_id"),
    ("padding", {k: v for k, v in _pad().items() if k != "pad_token"},
     "pad_token"),
])
def test_malformed_fields_are_value_errors(field, value, needle):
    data = json.loads(corpus.trained_json("wordpiece"))
    data[field] = value
    with pytest.raises(ValueError, match=needle):
        rt.Tokenizer.from_huggingface_json(json.dumps(data))
