"""ember.runtime.Tokenizer against HuggingFace ``tokenizers`` (the reference
behaviour): tokenizers trained here with ``tokenizers``' own trainers on the
Python standard library's sources plus multilingual text, then >= 10,000
texts each (corpus lines, multilingual mixes, random Unicode, adversarial
strings) encoded and decoded by both, compared token for token.

Covered (docs/tokenizer.md "Coverage"): GPT-2-style byte-level BPE (the
ByteLevel pre-tokenizer with and without add_prefix_space, the ByteLevel
decoder and post-processor, special and non-special added tokens),
llama-style byte-fallback BPE (Prepend + Replace normalizers, ByteFallback,
Fuse, Strip and Replace decoders, TemplateProcessing), Llama-3-style BPE
(NFC, a Sequence of a Split with the cl100k-like regex and a regex-less
ByteLevel, a Sequence post-processor), every Split behaviour, and, on every
code point, the four Unicode normalization forms and the regex classes
(where `tokenizers`' Unicode tables differ from utf8proc's and PCRE2's).
"""

from __future__ import annotations

import json
import random
import sys
import threading
import unicodedata
from pathlib import Path

import pytest

tokenizers = pytest.importorskip("tokenizers")

import ember.runtime as rt  # noqa: E402

if getattr(__import__("ember._ember", fromlist=["_"]), "_Tokenizer",
           None) is None:
    pytest.skip("this build has no tokenizer layer", allow_module_level=True)

from tokenizers import (  # noqa: E402
    decoders,
    models,
    normalizers,
    pre_tokenizers,
    processors,
    trainers,
)

# The texts and the training text are tokenizer_corpus's (shared by every
# tokenizer test and the benchmark; its docstring says what they hold).
sys.path.insert(0, str(Path(__file__).resolve().parent))
import tokenizer_corpus as tc  # noqa: E402

MULTILINGUAL = tc.MULTILINGUAL
SPECIAL = tc.SPECIAL
_corpus_lines = tc.corpus_lines
_random_unicode = tc.random_unicode
_adversarial = tc.adversarial
_texts = tc.texts


def _training_text():
    return _corpus_lines(4000) + MULTILINGUAL * 20


@pytest.fixture(scope="module")
def gpt2_json():
    return tc.trained_json("gpt2")


@pytest.fixture(scope="module")
def llama_json():
    return tc.trained_json("llama")


def _pair(text_json):
    return (tokenizers.Tokenizer.from_str(text_json),
            rt.Tokenizer.from_huggingface_json(text_json))


def _check_encode(hf, em, texts, add_special_tokens=False):
    want = [e.ids for e in hf.encode_batch(texts,
                                           add_special_tokens=add_special_tokens)]
    got = em.encode_batch(texts, add_special_tokens=add_special_tokens)
    bad = [(t, w, g) for t, w, g in zip(texts, want, got) if w != g]
    assert not bad, f"{len(bad)} of {len(texts)} differ; first: {bad[:3]!r}"
    return want


def _check_decode(hf, em, id_lists):
    for skip in (False, True):
        want = hf.decode_batch(id_lists, skip_special_tokens=skip)
        got = em.decode_batch(id_lists, skip_special_tokens=skip)
        bad = [(i, w, g) for i, w, g in zip(id_lists, want, got) if w != g]
        assert not bad, f"skip={skip}: {len(bad)} differ; first: {bad[:3]!r}"


@pytest.mark.parametrize("add_prefix_space", [False, True])
def test_gpt2_style_matches_tokenizers(gpt2_json, add_prefix_space):
    data = json.loads(gpt2_json)
    data["pre_tokenizer"]["add_prefix_space"] = add_prefix_space
    hf, em = _pair(json.dumps(data))
    texts = _texts(1)
    assert len(texts) >= 10000
    ids = _check_encode(hf, em, texts)
    _check_decode(hf, em, ids)
    # The special token's text, matched or not.
    assert em.encode(SPECIAL) == [hf.token_to_id(SPECIAL)]
    for text in texts[:200]:
        assert em.encode(text) == hf.encode(text, add_special_tokens=False).ids
    # no_special_token_matching is tokenizers' encode_special_tokens: the
    # special token's text is encoded as text, added tokens still match.
    hf.encode_special_tokens = True
    special_texts = [t for t in texts if SPECIAL in t or "World" in t]
    assert len(special_texts) > 100
    want = [e.ids for e in hf.encode_batch(special_texts,
                                           add_special_tokens=False)]
    got = em.encode_batch(special_texts, no_special_token_matching=True)
    assert got == want
    assert hf.token_to_id(SPECIAL) not in em.encode(
        SPECIAL, no_special_token_matching=True)


def test_gpt2_random_ids_decode_like_tokenizers(gpt2_json):
    hf, em = _pair(gpt2_json)
    rng = random.Random(2)
    n = hf.get_vocab_size()
    id_lists = [[rng.randrange(n) for _ in range(rng.randint(0, 20))]
                for _ in range(3000)]
    _check_decode(hf, em, id_lists)


def test_llama_style_matches_tokenizers(llama_json):
    hf, em = _pair(llama_json)
    texts = _texts(3)
    assert len(texts) >= 10000
    ids = _check_encode(hf, em, texts)
    _check_encode(hf, em, texts[:2000], add_special_tokens=True)
    _check_decode(hf, em, ids)
    # Byte fallback happened (random Unicode is not in the vocabulary).
    assert any(hf.token_to_id("<0xF0>") in i for i in ids)


def test_llama_random_ids_decode_like_tokenizers(llama_json):
    hf, em = _pair(llama_json)
    rng = random.Random(4)
    n = hf.get_vocab_size()
    byte0 = hf.token_to_id("<0x00>")
    id_lists = []
    for _ in range(3000):
        ids = [rng.randrange(n) for _ in range(rng.randint(0, 12))]
        # Runs of byte tokens: valid and invalid UTF-8.
        ids += [byte0 + rng.randrange(256) for _ in range(rng.randint(0, 6))]
        rng.shuffle(ids)
        id_lists.append(ids)
    _check_decode(hf, em, id_lists)


@pytest.mark.parametrize("which", ["gpt2", "llama"])
def test_vocabulary_queries_match(which, gpt2_json, llama_json):
    hf, em = _pair(gpt2_json if which == "gpt2" else llama_json)
    assert em.vocab_size == hf.get_vocab_size()
    assert em.model_type == "BPE"
    for token, i in hf.get_vocab().items():
        assert em.token_to_id(token) == i
        assert em.id_to_token(i) == hf.id_to_token(i)
    assert em.token_to_id("no such token \u2603") is None
    assert em.id_to_token(10**9) is None
    assert em.id_to_token(-1) is None


def test_from_file_and_merges_as_pairs(gpt2_json, tmp_path):
    # Merges in the older "a b" form load the same model as [a, b] pairs.
    data = json.loads(gpt2_json)
    merges = data["model"]["merges"]
    if isinstance(merges[0], list):
        data["model"]["merges"] = [" ".join(m) for m in merges]
    else:
        data["model"]["merges"] = [m.split(" ") for m in merges]
    path = tmp_path / "tokenizer.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    hf = tokenizers.Tokenizer.from_file(str(path))
    em = rt.Tokenizer.from_file(path)
    texts = _texts(5, count=1000)
    _check_encode(hf, em, texts)


def test_encode_batch_threads_release_the_gil(gpt2_json):
    _, em = _pair(gpt2_json)
    texts = _texts(6, count=2000)
    want = [em.encode(t) for t in texts]
    assert em.encode_batch(texts, threads=1) == want
    assert em.encode_batch(texts, threads=4) == want
    results = [None] * 4

    def work(k):
        results[k] = [em.encode(t) for t in texts]

    threads = [threading.Thread(target=work, args=(k,)) for k in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert all(r == want for r in results)


# The pattern of Llama 3 / tiktoken's cl100k (lookahead, case-insensitive
# group, \s inside and outside classes).
LLAMA3_PATTERN = (
    r"(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}{1,3}|"
    r" ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+")


@pytest.fixture(scope="module")
def llama3_json():
    tok = tokenizers.Tokenizer(models.BPE())
    tok.normalizer = normalizers.NFC()
    tok.pre_tokenizer = pre_tokenizers.Sequence([
        pre_tokenizers.Split(tokenizers.Regex(LLAMA3_PATTERN),
                             behavior="isolated", invert=False),
        pre_tokenizers.ByteLevel(add_prefix_space=False, use_regex=False)])
    tok.decoder = decoders.ByteLevel()
    trainer = trainers.BpeTrainer(
        vocab_size=3000, special_tokens=["<|begin_of_text|>", "<|eot_id|>"],
        initial_alphabet=pre_tokenizers.ByteLevel.alphabet(),
        show_progress=False)
    tok.train_from_iterator(_training_text(), trainer)
    tok.post_processor = processors.Sequence([
        processors.ByteLevel(trim_offsets=False),
        processors.TemplateProcessing(
            single="<|begin_of_text|> $A",
            special_tokens=[("<|begin_of_text|>", 0)])])
    return tok.to_str()


def test_llama3_style_split_sequence_nfc_matches_tokenizers(llama3_json):
    hf, em = _pair(llama3_json)
    texts = _texts(7)
    # NFC matters: decomposed and composed forms of the same letters.
    texts += ["Cafe\u0301 cafe\u0301", "\u1100\u1161\u11a8", "A\u030a\u0301",
              "\u212b \u2126", "e\u0301\u0327", "\u0958\u0959"] * 10
    assert len(texts) >= 10000
    ids = _check_encode(hf, em, texts)
    _check_encode(hf, em, texts[:2000], add_special_tokens=True)
    _check_decode(hf, em, ids)


@pytest.mark.parametrize("behavior", ["removed", "isolated",
                                      "merged_with_previous",
                                      "merged_with_next", "contiguous"])
@pytest.mark.parametrize("invert", [False, True])
@pytest.mark.parametrize("pattern", ["regex", "string"])
def test_split_behaviors_match_tokenizers(gpt2_json, behavior, invert,
                                          pattern):
    hf = tokenizers.Tokenizer.from_str(gpt2_json)
    split_pattern = (tokenizers.Regex(r"\s+|\p{P}") if pattern == "regex"
                     else " ")
    hf.pre_tokenizer = pre_tokenizers.Sequence([
        pre_tokenizers.Split(split_pattern, behavior=behavior, invert=invert),
        pre_tokenizers.ByteLevel(add_prefix_space=True, use_regex=False)])
    text_json = hf.to_str()
    hf = tokenizers.Tokenizer.from_str(text_json)
    em = rt.Tokenizer.from_huggingface_json(text_json)
    _check_encode(hf, em, _texts(8, count=3000))


def test_oniguruma_only_regex_escapes_are_refused(gpt2_json):
    data = json.loads(gpt2_json)
    # \w and \b are translated; inside [...] Oniguruma's \w differs.
    for escape in (r"[\w-]", r"\h", r"[\S]", r"\p{Han}", r"[\P{L}]"):
        data["pre_tokenizer"] = {"type": "Split", "pattern": {"Regex": escape},
                                 "behavior": "Isolated", "invert": False}
        with pytest.raises(NotImplementedError, match="regex"):
            rt.Tokenizer.from_huggingface_json(json.dumps(data))


def _byte_vocab_json(normalizer):
    alphabet = sorted(pre_tokenizers.ByteLevel.alphabet())
    return json.dumps({
        "normalizer": normalizer,
        "pre_tokenizer": {"type": "ByteLevel", "add_prefix_space": False,
                          "trim_offsets": False, "use_regex": False},
        "decoder": {"type": "ByteLevel", "add_prefix_space": False,
                    "trim_offsets": False, "use_regex": False},
        "model": {"type": "BPE", "vocab": {c: i for i, c in
                                           enumerate(alphabet)},
                  "merges": []}})


@pytest.mark.parametrize("form", ["NFC", "NFD", "NFKC", "NFKD"])
def test_unicode_normalization_matches_tokenizers_on_every_code_point(form):
    # Each assigned-or-not code point alone, before a class-1 mark, after a
    # class-230 mark, inside a base + mark, and decomposed (to compose it
    # back): `tokenizers`' tables are older than utf8proc's, and Ember must
    # follow the older ones (runtime/tokenizer/normalization_compat.cc).
    hf, em = _pair(_byte_vocab_json({"type": form}))
    cps = [c for c in range(0x80, 0x32400) if not 0xD800 <= c <= 0xDFFF]
    cps += list(range(0xE0000, 0xE0200))
    texts = []
    for c in cps:
        ch = chr(c)
        texts.append(f"{ch} {ch}\u0334 \u0301{ch} a{ch}\u0301 "
                     f"{unicodedata.normalize('NFD', ch)}")
    _check_encode(hf, em, texts)


_ALL_CODE_POINTS = [c for c in range(0x110000) if not 0xD800 <= c <= 0xDFFF]


@pytest.mark.parametrize("pattern", [
    r"\s", r"\S", r"\d", r"\p{L}", r"\p{N}", r"\p{P}", r"\p{S}", r"\p{M}",
    r"\p{Mn}", r"\p{Lu}", r"\P{L}", r"[^\s\p{L}\p{N}]", r"\w", r"\W"])
def test_regex_classes_match_oniguruma_on_every_code_point(pattern):
    # `tokenizers` runs a file's patterns with Oniguruma, Ember with PCRE2
    # and translated classes (runtime/tokenizer/regex_classes.cc): a Split
    # that removes the class's members must remove the same code points.
    split = {"type": "Split", "pattern": {"Regex": pattern},
             "behavior": "Removed", "invert": False}
    text = "".join(map(chr, _ALL_CODE_POINTS))
    hf_pre = pre_tokenizers.Split(tokenizers.Regex(pattern),
                                  behavior="removed")
    kept = set()
    for _, (start, end) in hf_pre.pre_tokenize_str(text):
        kept.update(range(start, end))
    want = {c for i, c in enumerate(_ALL_CODE_POINTS) if i not in kept}
    data = json.loads(_byte_vocab_json(None))
    data["pre_tokenizer"] = {"type": "Sequence", "pretokenizers": [
        split, data["pre_tokenizer"]]}
    em = rt.Tokenizer.from_huggingface_json(json.dumps(data))
    ids = em.encode_batch([chr(c) for c in _ALL_CODE_POINTS])
    got = {c for c, i in zip(_ALL_CODE_POINTS, ids) if not i}
    assert len(want) > 10
    assert sorted(got - want)[:10] == [] and sorted(want - got)[:10] == []


# ---- streaming decode ---------------------------------------------------------

def _stream_decode(em, ids, skip, rng=None):
    out = []
    with em.decode_stream(skip_special_tokens=skip) as stream:
        if rng is None:
            for i in ids:
                out.append(stream.feed_one(i))
        else:
            k = 0
            while k < len(ids):
                n = rng.randint(0, 5)
                out.append(stream.feed(ids[k:k + n]))
                k += n
        out.append(stream.finalize())
    return out


@pytest.mark.parametrize("which", ["gpt2", "llama", "llama3", "none",
                                   "buffered"])
def test_decode_stream_equals_decode(which, gpt2_json, llama_json,
                                     llama3_json):
    text_json = {"gpt2": gpt2_json, "llama": llama_json,
                 "llama3": llama3_json}.get(which, gpt2_json)
    data = json.loads(text_json)
    if which == "none":
        data["decoder"] = None
    elif which == "buffered":
        # A chain the stream cannot decode incrementally (a regex Replace
        # after ByteLevel, docs/tokenizer.md "Streaming decode"): all at
        # finalize.
        data["decoder"] = {"type": "Sequence", "decoders": [
            {"type": "ByteLevel", "add_prefix_space": True,
             "trim_offsets": True, "use_regex": True},
            {"type": "Replace", "pattern": {"Regex": "e+"}, "content": "E"}]}
    text_json = json.dumps(data)
    hf, em = _pair(text_json)
    rng = random.Random(9)
    texts = _texts(10, count=3000)
    id_lists = [e.ids for e in hf.encode_batch(texts, add_special_tokens=False)]
    n = hf.get_vocab_size()
    id_lists += [[rng.randrange(n) for _ in range(rng.randint(0, 30))]
                 for _ in range(1000)]
    incremental = 0
    for ids in id_lists:
        for skip in (False, True):
            want = hf.decode(ids, skip_special_tokens=skip)
            pieces = _stream_decode(em, ids, skip)
            assert "".join(pieces) == want, (ids, pieces, want)
            assert "".join(_stream_decode(em, ids, skip, rng)) == want
            incremental += any(pieces[:-1])
    # Text comes out before finalize, except for the buffered chain.
    if which == "buffered":
        assert incremental == 0
    else:
        assert incremental > 1000


def test_decode_stream_holds_split_utf8(gpt2_json):
    _, em = _pair(gpt2_json)
    ids = em.encode("a€b")
    pieces = _stream_decode(em, ids, False)
    assert "".join(pieces) == "a€b"
    assert "\ufffd" not in "".join(pieces)
    stream = em.decode_stream()
    with pytest.raises(IndexError):
        stream.feed_one(10**7)


# ---- hostile input ----------------------------------------------------------

def test_malformed_json_is_a_value_error():
    for text in ["", "{", "[]", "{\"model\": 3}", "{" * 10000,
                 '{"model": {"type": "BPE", "vocab": {"a": -1}, "merges": []}}',
                 '{"model": {"type": "BPE", "vocab": {"a": 0}, '
                 '"merges": ["a b"]}}']:
        with pytest.raises(ValueError):
            rt.Tokenizer.from_huggingface_json(text)


@pytest.mark.parametrize("component,field,value", [
    # Every normalizer of `tokenizers` 0.23 is implemented: a type it
    # does not have.
    ("normalizer", None, {"type": "Uppercase"}),
    # Every decoder and post-processor of `tokenizers` 0.23 is implemented:
    # types it does not have either.
    ("decoder", None, {"type": "SentencePieceDecoder"}),
    ("post_processor", None, {"type": "ChatTemplateProcessing"}),
])
def test_unimplemented_components_are_named(gpt2_json, component, field,
                                            value):
    data = json.loads(gpt2_json)
    if field:
        data[component][field] = value
        name = value
    else:
        data[component] = value
        name = value["type"]
    with pytest.raises(NotImplementedError, match=name):
        rt.Tokenizer.from_huggingface_json(json.dumps(data))


def test_decode_out_of_range_is_an_index_error(gpt2_json):
    _, em = _pair(gpt2_json)
    for ids in ([em.vocab_size + 5], [-1], [2**40], [0, 10**9]):
        with pytest.raises(IndexError):
            em.decode(ids)


def test_lone_surrogates_are_a_value_error(gpt2_json):
    _, em = _pair(gpt2_json)
    with pytest.raises(ValueError):
        em.encode("a\ud800b")


def test_huge_vocabulary_is_bounded():
    vocab = {f"t{i}": i * 100000 for i in range(10)}
    text = json.dumps({"model": {"type": "BPE", "vocab": vocab, "merges": []}})
    with pytest.raises(ValueError, match="not an integer"):
        rt.Tokenizer.from_huggingface_json(text)


def test_not_implemented_features():
    # tiktoken files and streaming encode, once refused here, are
    # implemented (tests/python/test_tokenizer_tiktoken.py and
    # test_tokenizer_streams.py): a bad rank file is now a ValueError and a
    # stream gives encode's ids.
    with pytest.raises(ValueError, match="no tokens"):
        rt.Tokenizer.from_tiktoken("", "cl100k_base")
    tok = rt.Tokenizer.from_huggingface_json(
        '{"model": {"type": "BPE", "vocab": {"a": 0}, "merges": []}}')
    assert tok.encode("aba") == [0, 0]  # no unk token: "b" is dropped
    with tok.encode_stream() as stream:
        assert stream.feed("ab") + stream.feed("a") + stream.finalize() == [
            0, 0]
