"""Token offsets of ember.runtime.Tokenizer.encode_with_offsets against
HuggingFace ``tokenizers`` 0.23's ``Encoding.offsets`` (docs/tokenizer.md
"Offsets").

``tokenizers``' Python binding reports offsets in characters; Ember's
default is bytes of the UTF-8, so both are compared: HF's character
offsets turned into bytes against Ember's bytes, and Ember's
``offset_type="char"`` against HF's directly. The ids must be Encode's.

Covered: the five trained tokenizers of tokenizer_corpus (GPT-2 byte-level
BPE, llama-style BPE with byte fallback, Llama-3-style Split + ByteLevel,
BERT WordPiece, T5 Unigram) on thousands of texts each (stdlib lines,
multilingual, random Unicode, adversarial), every normalizer of
test_tokenizer_normalizers (NFC/NFKC composition moves offsets in
``tokenizers``' own way), the trained pre-tokenizer pipelines of
test_tokenizer_pre_tokenizers, the post-processors of
test_tokenizer_post_decode (ByteLevel and Roberta trim offsets), added
tokens with lstrip/rstrip/single_word/normalized, the real tokenizer.json
files test_tokenizer_real_files finds, and tiktoken files against
``tiktoken``'s decode_with_offsets.
"""

from __future__ import annotations

import json

import pytest

tokenizers = pytest.importorskip("tokenizers")

import ember.runtime as rt  # noqa: E402

if getattr(__import__("ember._ember", fromlist=["_"]), "_Tokenizer",
           None) is None:
    pytest.skip("this build has no tokenizer layer", allow_module_level=True)

from tokenizers import pre_tokenizers  # noqa: E402

import test_tokenizer_normalizers as norm_tests  # noqa: E402
import test_tokenizer_post_decode as post_tests  # noqa: E402
import test_tokenizer_pre_tokenizers as pre_tests  # noqa: E402
import test_tokenizer_real_files as real_tests  # noqa: E402
import tokenizer_corpus as corpus  # noqa: E402


def _char_to_byte(text):
    """The byte offset of each character index of `text` (and of its
    end)."""
    out = [0]
    for ch in text:
        out.append(out[-1] + len(ch.encode("utf-8")))
    return out


def _check(hf, em, texts, add_special_tokens=(False, True), name=""):
    """Ids and offsets (bytes and characters) of every text, both ways of
    add_special_tokens, against `tokenizers`."""
    checked = 0
    for add in add_special_tokens:
        want = hf.encode_batch(texts, add_special_tokens=add)
        for text, enc in zip(texts, want):
            ids, offsets = em.encode_with_offsets(
                text, add_special_tokens=add)
            to_byte = _char_to_byte(text)
            want_bytes = [(to_byte[s], to_byte[e]) for s, e in enc.offsets]
            assert ids == enc.ids, (name, text, add)
            assert offsets == want_bytes, (
                f"{name}: {text!r} add_special_tokens={add}\n"
                f"tokens {enc.tokens}\nwant {want_bytes}\ngot  {offsets}")
            _, chars = em.encode_with_offsets(text, add_special_tokens=add,
                                              offset_type="char")
            assert chars == [tuple(o) for o in enc.offsets], (name, text)
            checked += 1
    return checked


# ---- the trained tokenizers -------------------------------------------------

@pytest.mark.parametrize("kind", corpus.KINDS)
def test_trained_tokenizers_offsets_match_tokenizers(kind):
    text_json = corpus.trained_json(kind)
    hf = tokenizers.Tokenizer.from_str(text_json)
    em = rt.Tokenizer.from_huggingface_json(text_json)
    texts = corpus.texts(71, 3000)
    assert _check(hf, em, texts, name=kind) >= 6000


def test_offsets_are_encode_ids_and_in_order():
    # The ids are encode's; for a byte-level BPE without a normalizer every
    # token's offsets lie inside the text, start on character boundaries
    # and never go back.
    text_json = corpus.trained_json("gpt2")
    em = rt.Tokenizer.from_huggingface_json(text_json)
    for text in corpus.texts(5, 1000):
        ids, offsets = em.encode_with_offsets(text)
        assert ids == em.encode(text)
        data = text.encode("utf-8")
        starts = set(_char_to_byte(text))
        for (s, e) in offsets:
            assert 0 <= s <= e <= len(data) and s in starts and e in starts
        assert [s for s, _ in offsets] == sorted(s for s, _ in offsets)


# ---- normalizers ------------------------------------------------------------

_NORMALIZER_TEXTS = ["e\u0301", "a\u0328\u0301b", "\u1e0b\u0323x",
                     "\u0301start", "ﬁ ﬀ ﷺ ｶﾞ", "ẞ İ ǅ", "  x  ", "가각",
                     "\u1100\u1161\u11a8", "Å\u030a\u0327", "x\u0f73\u0f75",
                     "a\u05b0\u05b1\u05b2b", "\u0958\u0959",
                     "x\uac00\u11a7y", "\u1100\u1161\u11a7"]
NORMALIZERS = dict(norm_tests.NORMALIZERS)
NORMALIZERS.update({
    "nfc": {"type": "NFC"}, "nfd": {"type": "NFD"},
    "nfkc": {"type": "NFKC"}, "nfkd": {"type": "NFKD"},
    "prepend": {"type": "Prepend", "prepend": "▁"},
    "replace_grow": {"type": "Replace", "pattern": {"String": "a"},
                     "content": "xyz"},
    "replace_remove": {"type": "Replace", "pattern": {"Regex": "[aeiou]+"},
                       "content": ""},
    "llama": {"type": "Sequence", "normalizers": [
        {"type": "Prepend", "prepend": "▁"},
        {"type": "Replace", "pattern": {"String": " "}, "content": "▁"}]},
})


@pytest.mark.parametrize("name", sorted(NORMALIZERS))
def test_normalizer_offsets_match_tokenizers(name):
    hf, em = norm_tests._pair(NORMALIZERS[name])
    texts = _NORMALIZER_TEXTS + corpus.texts(13, 1500)
    _check(hf, em, texts, add_special_tokens=(False,), name=name)


@pytest.mark.parametrize("name", ["nfc", "nfkc", "nfd", "nfkd", "bert0",
                                  "lowercase"])
def test_normalizer_offsets_on_every_code_point(name):
    # Every code point between two letters, 64 to a text (composition and
    # reordering of combining marks across neighbours included).
    hf, em = norm_tests._pair(NORMALIZERS[name])
    texts = []
    for at in range(0, len(norm_tests._ALL), 64):
        chunk = norm_tests._ALL[at:at + 64]
        texts.append("a" + "a".join(chr(c) for c in chunk) + "a")
        texts.append("".join(chr(c) for c in chunk))
    _check(hf, em, texts, add_special_tokens=(False,), name=name)


def test_precompiled_offsets_match_tokenizers(nfkc_charsmap):
    hf, em = norm_tests._precompiled_pair(nfkc_charsmap, extra=[
        {"type": "Strip", "strip_left": True, "strip_right": True},
        {"type": "Replace", "pattern": {"Regex": " {2,}"}, "content": " "}])
    texts = _NORMALIZER_TEXTS + corpus.texts(17, 2000)
    _check(hf, em, texts, add_special_tokens=(False,), name="precompiled")


@pytest.fixture(scope="module")
def nfkc_charsmap():
    return norm_tests.build_charsmap(norm_tests._nfkc_like_mapping())


# ---- pre-tokenizers ---------------------------------------------------------

@pytest.mark.parametrize("config", sorted(pre_tests._CONFIGS))
def test_pre_tokenizer_offsets_match_tokenizers(config):
    make, mode, _ = pre_tests._CONFIGS[config]
    hf, em = pre_tests._pair(pre_tests._train(make(), mode))
    _check(hf, em, pre_tests._texts(41 + len(config), 1500), name=config)


@pytest.mark.parametrize("pattern", [r"(?=[A-Z])", r"x*", r"$"])
def test_split_on_empty_matches_offsets_match_tokenizers(pattern):
    data = json.loads(pre_tests._word_end_json(pre_tokenizers.Whitespace()))
    data["pre_tokenizer"] = {"type": "Sequence", "pretokenizers": [
        {"type": "Split", "pattern": {"Regex": pattern},
         "behavior": "MergedWithNext", "invert": False},
        {"type": "ByteLevel", "add_prefix_space": False,
         "trim_offsets": True, "use_regex": False}]}
    hf, em = pre_tests._pair(json.dumps(data))
    texts = ["HelloWorld aXb xxA", "a\nb\n"] + corpus.texts(47, 1000)[:600]
    _check(hf, em, texts, name=pattern)


def test_metaspace_first_follows_the_original_start():
    # prepend_scheme "first" prepends to a piece whose first character
    # came from the start of the text: after a normalizer strips leading
    # spaces, `tokenizers` does not prepend (the piece starts later).
    data = json.loads(pre_tests._train(
        pre_tokenizers.Metaspace(prepend_scheme="first"), "chars"))
    data["normalizer"] = {"type": "Strip", "strip_left": True,
                          "strip_right": False}
    hf, em = pre_tests._pair(json.dumps(data))
    texts = [" hello", "hello", "  two words", "<s> x", " <s>x", "\u3000y"]
    _check(hf, em, texts, name="strip+metaspace_first")


# ---- real tokenizer.json files ---------------------------------------------

@pytest.mark.parametrize("name,dist,rel,components", real_tests.JSON_FILES,
                         ids=[f[0] for f in real_tests.JSON_FILES])
def test_real_file_offsets_match_tokenizers(name, dist, rel, components):
    path = real_tests._find(dist, rel)
    hf = tokenizers.Tokenizer.from_file(str(path))
    em = rt.Tokenizer.from_file(path)
    texts = real_tests._real_texts(300 + len(name))[:1500]
    _check(hf, em, texts, name=name)


# ---- post-processors and added tokens ---------------------------------------

@pytest.mark.parametrize("name", sorted(post_tests.POST_PROCESSORS))
def test_post_processor_offsets_match_tokenizers(name):
    processor = post_tests.POST_PROCESSORS[name]
    for byte_level in (post_tests.BYTE_LEVEL,
                       dict(post_tests.BYTE_LEVEL, trim_offsets=True),
                       dict(post_tests.BYTE_LEVEL, trim_offsets=True,
                            add_prefix_space=False)):
        seq = post_tests._seq(byte_level, processor)
        hf, em = post_tests._pair(post_tests._byte_level_json(
            added=post_tests.SPECIALS, post_processor=seq))
        _check(hf, em, post_tests._texts(23, 600), name=name)


_ADDED = [
    post_tests._added("<mask>", 260, special=True, lstrip=True, rstrip=True),
    post_tests._added("[X]", 261, lstrip=True),
    post_tests._added("yo", 262, single_word=True),
    post_tests._added("HeLLo", 263, normalized=True),
    post_tests._added(" \u3000", 264, rstrip=True),
]


@pytest.mark.parametrize("normalizer", [None, {"type": "Lowercase"},
                                        {"type": "NFKC"}])
def test_added_token_offsets_match_tokenizers(normalizer):
    roberta = dict(post_tests.ROBERTA, add_prefix_space=False)
    hf, em = post_tests._pair(post_tests._byte_level_json(
        added=post_tests.SPECIALS + _ADDED, normalizer=normalizer,
        post_processor=roberta))
    pieces = ["<mask>", " <mask> ", "[X]", "  [X]", "yo", "yoyo", " yo ",
              "HeLLo", "hello", "x \u3000 y", "\u3000\u3000", "[CLS]"]
    texts = [a + b + c for a in pieces for b in ["", " ", "ab"]
             for c in pieces]
    _check(hf, em, texts + post_tests._texts(29, 300), name="added")


# ---- tiktoken ---------------------------------------------------------------

def test_tiktoken_offsets_match_decode_with_offsets(monkeypatch):
    # tiktoken gives each token's start in characters (a token that starts
    # inside a character: that character); Ember's character offsets must
    # start there too, for every encoding's regex and special tokens.
    pytest.importorskip("tiktoken")
    import test_tokenizer_tiktoken as tk_tests
    from test_tokenizer_streams import rank_file_from_trained_bpe
    text, ranks = rank_file_from_trained_bpe()
    texts = corpus.texts(37, 1000) + [
        "<|endoftext|>x <|endoftext|>", "日本語", "😀👍🏽", "  \n\n "]
    for name in ["cl100k_base", "o200k_base", "gpt2"]:
        em = rt.Tokenizer.from_tiktoken(text, name)
        tk = tk_tests._tiktoken(name, ranks, monkeypatch)
        for t in texts:
            ids, chars = em.encode_with_offsets(t, offset_type="char")
            assert ids == tk.encode(t, allowed_special="all"), t
            _, starts = tk.decode_with_offsets(ids)
            assert [s for s, _ in chars] == starts, (name, t)


# ---- the API ----------------------------------------------------------------

@pytest.mark.parametrize("offset_type", ["byte", "char"])
def test_batch_offsets_are_each_texts(offset_type):
    em = rt.Tokenizer.from_huggingface_json(corpus.trained_json("wordpiece"))
    texts = corpus.texts(3, 1000)
    for threads in (1, 2):
        got = em.encode_batch_with_offsets(texts, add_special_tokens=True,
                                           threads=threads,
                                           offset_type=offset_type)
        assert got == [em.encode_with_offsets(t, add_special_tokens=True,
                                              offset_type=offset_type)
                       for t in texts]
    with pytest.raises(ValueError, match="UTF-8"):
        em.encode_batch_with_offsets(["a", "\ud800"])


def test_offset_type_is_checked_and_text_must_be_utf8():
    em = rt.Tokenizer.from_huggingface_json(corpus.trained_json("gpt2"))
    with pytest.raises(ValueError, match="offset_type"):
        em.encode_with_offsets("x", offset_type="word")
    with pytest.raises(ValueError):
        em.encode_with_offsets("\ud800")
    assert em.encode_with_offsets("") == ([], [])
