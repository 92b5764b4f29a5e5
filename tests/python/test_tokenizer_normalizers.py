"""The normalizers of ember.runtime.Tokenizer against HuggingFace
``tokenizers`` 0.23 (docs/tokenizer.md "Normalizers"): Lowercase, Strip,
StripAccents, BertNormalizer (every flag), Nmt, ByteLevel, Precompiled (a
SentencePiece-style charsmap built here from Python's own Unicode data) and
Sequences of them.

Each normalizer runs in a tokenizer whose ids show the normalized text byte
for byte (a byte-level BPE whose vocabulary is the 256 byte characters, no
merges): on every code point (where `tokenizers`' Unicode tables differ from
utf8proc's, Ember must follow `tokenizers`; runtime/tokenizer/
normalization_compat.cc) and on >= 10,000 texts (stdlib lines,
multilingual, random Unicode, adversarial) with token-for-token equality.
Precompiled's grapheme clusters are probed on every code point too. Hostile
charsmaps are refused with ValueError, never a crash.
"""

from __future__ import annotations

import base64
import json
import random
import struct
import unicodedata

import pytest

tokenizers = pytest.importorskip("tokenizers")

import ember.runtime as rt  # noqa: E402

if getattr(__import__("ember._ember", fromlist=["_"]), "_Tokenizer",
           None) is None:
    pytest.skip("this build has no tokenizer layer", allow_module_level=True)

from tokenizers import normalizers, pre_tokenizers  # noqa: E402

import tokenizer_corpus as corpus  # noqa: E402

_ALL = [c for c in range(1, 0x110000) if not 0xD800 <= c <= 0xDFFF]


def _byte_json(normalizer):
    alphabet = sorted(pre_tokenizers.ByteLevel.alphabet())
    return json.dumps({
        "normalizer": normalizer,
        "pre_tokenizer": {"type": "ByteLevel", "add_prefix_space": False,
                          "trim_offsets": False, "use_regex": False},
        "decoder": {"type": "ByteLevel", "add_prefix_space": False,
                    "trim_offsets": False, "use_regex": False},
        "model": {"type": "BPE", "vocab": {c: i for i, c in
                                           enumerate(alphabet)},
                  "merges": []}}, ensure_ascii=False)


def _pair(normalizer):
    text_json = _byte_json(normalizer)
    return (tokenizers.Tokenizer.from_str(text_json),
            rt.Tokenizer.from_huggingface_json(text_json))


def _check_ids(hf, em, texts):
    want = [e.ids for e in hf.encode_batch(texts, add_special_tokens=False)]
    got = em.encode_batch(texts)
    bad = [(t, hf.decode(w), em.decode(g))
           for t, w, g in zip(texts, want, got) if w != g]
    assert not bad, f"{len(bad)} of {len(texts)} differ; first: {bad[:3]!r}"


def _check_every_code_point(hf, em, per_text=128, around=("", "")):
    # Code points in runs, each wrapped in `around` (each normalizer here
    # works character by character or cluster by cluster, so a run shows
    # each one's result); a mismatch is then narrowed to the code point.
    def wrap(c):
        return around[0] + chr(c) + around[1]

    texts = ["".join(map(wrap, _ALL[k:k + per_text]))
             for k in range(0, len(_ALL), per_text)]
    want = [e.ids for e in hf.encode_batch(texts, add_special_tokens=False)]
    got = em.encode_batch(texts)
    bad = []
    for k, (w, g) in enumerate(zip(want, got)):
        if w != g:
            for c in _ALL[k * per_text:(k + 1) * per_text]:
                if (hf.encode(wrap(c), add_special_tokens=False).ids !=
                        em.encode(wrap(c))):
                    bad.append(hex(c))
            bad.append(texts[k][:20])
            if len(bad) > 20:
                break
    assert not bad, bad


BERT_VARIANTS = [
    {"clean_text": True, "handle_chinese_chars": True,
     "strip_accents": None, "lowercase": True},
    {"clean_text": True, "handle_chinese_chars": True,
     "strip_accents": None, "lowercase": False},
    {"clean_text": True, "handle_chinese_chars": False,
     "strip_accents": True, "lowercase": False},
    {"clean_text": False, "handle_chinese_chars": True,
     "strip_accents": False, "lowercase": True},
    {"clean_text": True, "handle_chinese_chars": True,
     "strip_accents": True, "lowercase": True},
]

NORMALIZERS = {
    "lowercase": {"type": "Lowercase"},
    "strip_both": {"type": "Strip", "strip_left": True, "strip_right": True},
    "strip_left": {"type": "Strip", "strip_left": True, "strip_right": False},
    "strip_right": {"type": "Strip", "strip_left": False,
                    "strip_right": True},
    "strip_accents": {"type": "StripAccents"},
    "nmt": {"type": "Nmt"},
    "byte_level": {"type": "ByteLevel"},
    **{f"bert{i}": {"type": "BertNormalizer", **v}
       for i, v in enumerate(BERT_VARIANTS)},
    "nfkd_strip_accents_lowercase": {"type": "Sequence", "normalizers": [
        {"type": "NFKD"}, {"type": "StripAccents"}, {"type": "Lowercase"}]},
    "nmt_nfkc_strip": {"type": "Sequence", "normalizers": [
        {"type": "Nmt"}, {"type": "NFKC"}, {"type": "Strip",
                                            "strip_left": False,
                                            "strip_right": True},
        {"type": "Replace", "pattern": {"Regex": " {2,}"}, "content": " "}]},
}

_STRIP_TEXTS = ["", " ", "  a  ", "\u3000\u00a0x\u2029", "\u0085a\u0085",
                "\u180e x \u180e", "\u200b y \u200b", " \t\n\r\x0b\x0c ",
                "a" + "\u2000" * 50, "\u2003" * 1000]


@pytest.mark.parametrize("name", sorted(NORMALIZERS))
def test_normalizer_matches_tokenizers(name):
    hf, em = _pair(NORMALIZERS[name])
    texts = corpus.texts(31) + _STRIP_TEXTS
    texts += ["İstanbul ΣΑΣ ǅ ẞ Ω K Å \u1e9e \U00010400",
              "Cafe\u0301 e\u0301\u0327 ậ… \u0e33\u0e19\u0e49",
              "中文 字符㐀 \U00020000 \uf900 \u3400",
              "\x00\x01a\ufffdb\u200dc\u2028d\ufeff\u2581"] * 3
    assert len(texts) >= 10000
    _check_ids(hf, em, texts)


@pytest.mark.parametrize("name", ["lowercase", "strip_accents", "nmt",
                                  "byte_level", "bert0", "bert2", "bert3"])
def test_normalizer_matches_tokenizers_on_every_code_point(name):
    hf, em = _pair(NORMALIZERS[name])
    _check_every_code_point(hf, em)
    if name in ("bert0", "bert2"):
        # Beside combining marks of class 1 and 230 (strip_accents' NFD
        # reorders them).
        _check_every_code_point(hf, em, per_text=64,
                                around=("a\u0334", "\u0301"))


def test_strip_every_code_point():
    # White_Space has no member above U+3000 (and the BertNormalizer tests
    # map it on every code point).
    hf, em = _pair(NORMALIZERS["strip_both"])
    texts = [chr(c) + "x" + chr(c) * 2 for c in _ALL if c < 0x10000]
    want = [e.ids for e in hf.encode_batch(texts, add_special_tokens=False)]
    assert em.encode_batch(texts) == want


def test_bert_strip_accents_null_follows_lowercase():
    base = {"type": "BertNormalizer", "clean_text": False,
            "handle_chinese_chars": False, "strip_accents": None}
    for lowercase in (False, True):
        hf, em = _pair({**base, "lowercase": lowercase})
        _check_ids(hf, em, ["Ünïcödé Café", "e\u0301", "ÀÉÎ"])
        assert (em.decode(em.encode("é")) == "e") == lowercase


# ---- Precompiled ------------------------------------------------------------

def build_charsmap(mapping):
    """A SentencePiece `precompiled_charsmap` for {key: replacement}: a
    darts-clone double array (a unit: label in bits 0-7, bit 31 on leaves,
    has-leaf bit 8, offset to the children in bits 10-31) over the UTF-8
    keys, then the replacements, each ending in NUL."""
    offsets, blob = {}, bytearray()
    root = {}
    for key, value in mapping.items():
        kb = key.encode()
        assert kb and b"\0" not in kb
        if value not in offsets:
            offsets[value] = len(blob)
            blob += value.encode() + b"\0"
        node = root
        for byte in kb:
            node = node.setdefault(byte, {})
        node[None] = offsets[value]
    units, used, bases = [0] * 1024, bytearray(1024), set()
    used[0] = 1

    def ensure(n):
        while len(units) <= n:
            units.extend([0] * len(units))
            used.extend(bytearray(len(used)))

    free_from, block = 1, 256
    queue, qi = [(0, root)], 0
    while qi < len(queue):
        pos, node = queue[qi]
        qi += 1
        labels = sorted(k for k in node if k is not None)
        leaf = None in node
        need = labels + ([0] if leaf else [])
        if len(need) > 1:
            # A fresh 256-aligned block for a branching node.
            while True:
                b = block
                block += 256
                ensure(block + 256)
                if b not in bases and all(not used[b ^ c] for c in need):
                    break
        else:
            while used[free_from]:
                free_from += 1
                ensure(free_from + 256)
            f = free_from
            while True:
                ensure(f + 256)
                if not used[f]:
                    b = f ^ need[0]
                    if b not in bases and b > 0 and not used[b ^ need[0]]:
                        ensure(b | 0xFF)
                        break
                f += 1
            free_from = max(free_from, f - 16)
        bases.add(b)
        for c in need:
            used[b ^ c] = 1
        units[pos] |= ((pos ^ b) << 10) | ((1 << 8) if leaf else 0)
        if leaf:
            units[b] = (1 << 31) | node[None]
        for c in labels:
            units[b ^ c] = c
            queue.append((b ^ c, node[c]))
    size = max(max(i for i, u in enumerate(used) if u), max(bases)) | 0xFF
    units = units[:size + 1]
    return (struct.pack("<I", 4 * len(units)) +
            struct.pack(f"<{len(units)}I", *units) + bytes(blob))


def _nfkc_like_mapping():
    # SentencePiece's nmt_nfkc in spirit, from Python's Unicode data: each
    # character NFKC changes, each canonical decomposition back to its
    # composed form (multi-character keys), the nmt whitespace and control
    # rules (deletions included), and keys that are prefixes of longer ones
    # (`tokenizers` uses the shortest).
    m = {}
    for c in _ALL:
        ch = chr(c)
        nfkc = unicodedata.normalize("NFKC", ch)
        if nfkc != ch:
            m[ch] = nfkc
        nfd = unicodedata.normalize("NFD", ch)
        if nfd != ch and len(nfd.encode()) < 12:
            m[nfd] = unicodedata.normalize("NFKC", nfd)
    for c in list(range(1, 9)) + [0xB] + list(range(0xE, 0x20)) + [0x7F]:
        m[chr(c)] = ""
    for ch in "\t\n\r\u1680\u200b\u2028\u2029\ufeff":
        m[ch] = " "
    m["\u00e9\u0301"] = "<E>"  # never used: "é" is a shorter prefix
    m["\u0915"] = "\u0915"     # an Indic consonant, for GB9c
    return m


@pytest.fixture(scope="module")
def nfkc_charsmap():
    return build_charsmap(_nfkc_like_mapping())


def _precompiled_pair(blob, extra=()):
    steps = [{"type": "Precompiled",
              "precompiled_charsmap": base64.b64encode(blob).decode()}]
    steps += list(extra)
    return _pair(steps[0] if len(steps) == 1 else
                 {"type": "Sequence", "normalizers": steps})


def test_precompiled_matches_tokenizers(nfkc_charsmap):
    hf, em = _precompiled_pair(nfkc_charsmap)
    texts = corpus.texts(32)
    texts += ["\r\n", "a\r\nb", "\t\u0301", "e\u0301\u0301", "\u00e9\u0301",
              "ﬁ\u0301", "Ａ\u0301Ｂ", "क्क\u0301", "क\u094d\u200dक\u0301",
              "👩\u200d👩\u200d👧", "🇫🇷🇫", "\u1100\u1161\u11a8",
              "\u0600a\u0301", "a\u200d\u00a9\u0301", "\x00abc\x00"] * 20
    assert len(texts) >= 10000
    _check_ids(hf, em, texts)


def test_precompiled_every_code_point(nfkc_charsmap):
    hf, em = _precompiled_pair(nfkc_charsmap)
    _check_every_code_point(hf, em, per_text=64)
    _check_every_code_point(hf, em, per_text=64, around=("\n", "\u0301"))


_PROBES = [
    # The rules that decide a cluster of under 6 bytes, for each code point
    # c: does c join a letter before it (Extend, SpacingMark, ZWJ)? a
    # letter after it (Prepend)? a mark after it (not Control)? the emoji
    # rule GB11 (c Extended_Pictographic, or Extend inside)? GB9c (Indic
    # consonant, linker, extend)?
    "a{c}", "{c}a\u0301", "{c}\u0301\u0301", "{c}\u200d\u00a9\u0301",
    "\u00a9{c}\u200d\u00a9\u0301", "{c}\u094d\u0915\u0301",
    "\u0915{c}\u0915\u0301", "\u0915\u094d{c}\u0915\u0301",
]


@pytest.mark.parametrize("probe", _PROBES)
def test_precompiled_grapheme_clusters_on_every_code_point(probe):
    # A cluster of under 6 bytes is replaced whole by the value of the
    # shortest key it starts with, so where clusters end shows in the ids.
    blob = build_charsmap({"a": "X", "\u0301": "Q", "\u00a9": "C",
                           "\u0915": "K"})
    hf, em = _precompiled_pair(blob)
    texts = []
    for k in range(0, len(_ALL), 64):
        # LF always breaks and resets every rule's state.
        texts.append("\n".join(probe.format(c=chr(c))
                               for c in _ALL[k:k + 64]))
    want = [e.ids for e in hf.encode_batch(texts, add_special_tokens=False)]
    got = em.encode_batch(texts)
    bad = [t.split("\n")[0] for t, w, g in zip(texts, want, got) if w != g]
    assert not bad, bad[:5]


def test_precompiled_sequence_with_other_normalizers(nfkc_charsmap):
    hf, em = _precompiled_pair(nfkc_charsmap, [
        {"type": "Strip", "strip_left": True, "strip_right": True},
        {"type": "Replace", "pattern": {"Regex": " {2,}"}, "content": " "},
        {"type": "Lowercase"}])
    _check_ids(hf, em, corpus.texts(33, count=3000))


def _charsmap_json(b64):
    return _byte_json({"type": "Precompiled", "precompiled_charsmap": b64})


def test_hostile_charsmaps_are_value_errors(nfkc_charsmap):
    good = base64.b64encode(nfkc_charsmap).decode()
    for b64 in ["", "AAAA", "!!!!", good[:-1], good + "=", "AA==", "AB==",
                base64.b64encode(struct.pack("<I", 4000)).decode(),
                base64.b64encode(struct.pack("<I", 0) + b"ab").decode(),
                base64.b64encode(struct.pack("<II", 4, 0) + b"\xff").decode()]:
        with pytest.raises(ValueError):
            rt.Tokenizer.from_huggingface_json(_charsmap_json(b64))
    with pytest.raises(ValueError, match="precompiled_charsmap"):
        rt.Tokenizer.from_huggingface_json(_byte_json(
            {"type": "Precompiled", "precompiled_charsmap": None}))
    # A trie that points outside itself, or a value outside the strings:
    # loads (like `tokenizers`), fails at encode (where `tokenizers`
    # panics) with a ValueError naming the charsmap.
    outside = struct.pack("<III", 8, 200 << 10, 0)
    units = [0] * 0x300
    units[0] = 0x100 << 10                     # root: children at 0x100 ^ c
    units[0x161] = 0x61 | 0x100 | ((0x161 ^ 0x200) << 10)  # "a", has leaf
    units[0x200] = (1 << 31) | 1000            # its value: past the strings
    value_out = struct.pack("<I", 4 * len(units)) + struct.pack(
        f"<{len(units)}I", *units) + b"x\0"
    for blob in (outside, value_out):
        em = rt.Tokenizer.from_huggingface_json(
            _charsmap_json(base64.b64encode(blob).decode()))
        with pytest.raises(ValueError, match="precompiled_charsmap"):
            em.encode("abc")
        assert em.encode("") == []


def test_random_charsmaps_never_crash(nfkc_charsmap):
    rng = random.Random(34)
    texts = corpus.texts(35, count=1000)[:300]
    for _ in range(300):
        blob = bytearray(nfkc_charsmap[:rng.randint(4, 4000)])
        for _ in range(rng.randint(1, 20)):
            blob[rng.randrange(len(blob))] = rng.randrange(256)
        try:
            em = rt.Tokenizer.from_huggingface_json(
                _charsmap_json(base64.b64encode(bytes(blob)).decode()))
        except ValueError:
            continue
        for t in texts:
            try:
                em.encode(t)
            except ValueError:
                pass


def test_missing_fields_are_value_errors():
    for n in [{"type": "Strip", "strip_left": True},
              {"type": "BertNormalizer", "clean_text": True,
               "handle_chinese_chars": True, "strip_accents": None},
              {"type": "Strip", "strip_left": 1, "strip_right": True}]:
        with pytest.raises(ValueError):
            rt.Tokenizer.from_huggingface_json(_byte_json(n))


# -- Replace at empty matches, and how far normalization may grow ------------


def test_replace_of_the_empty_string_is_refused():
    # `tokenizers` loads it and then panics on every encode.
    normalizer = {"type": "Replace", "pattern": {"String": ""},
                  "content": "-"}
    hf = tokenizers.Tokenizer.from_str(_byte_json(normalizer))
    with pytest.raises(BaseException):  # pyo3's PanicException
        hf.encode("ab")
    with pytest.raises(ValueError, match="String pattern is empty"):
        rt.Tokenizer.from_huggingface_json(_byte_json(normalizer))


@pytest.mark.parametrize("pattern", ["x*", "(?=b)", "a|", "\\s*", "^", "$",
                                     "(?=a)|a", "\\d*"])
def test_replace_regexes_that_match_empty_match_tokenizers(pattern):
    # `tokenizers` replaces at every empty match onig's find_iter reports
    # (not one right after the previous match; none in an empty text).
    normalizer = {"type": "Replace", "pattern": {"Regex": pattern},
                  "content": "-"}
    hf, em = _pair(normalizer)
    texts = ["", "a", "b", "ab", "banana xxa", "  x\n", "é\u0301b",
             "a\nb\n", "\n\n", "x\r\ny"]
    texts += corpus.texts(43, 1000)
    # `tokenizers` 0.23 panics in encode on many of these (its alignments
    # after an empty match go out of step; normalize_str alone is fine):
    # there the normalized text, which this byte-level model spells, is
    # compared with normalize_str's.
    norm = tokenizers.normalizers.Replace(
        tokenizers.Regex(pattern), "-")
    for text in texts:
        got = em.encode(text)
        try:
            want = hf.encode(text, add_special_tokens=False).ids
        except BaseException:  # pyo3's PanicException
            assert em.decode(got) == norm.normalize_str(text), text
            continue
        assert got == want, text


def test_normalized_text_growth_is_bounded():
    # Each Replace multiplies the text by 1,000: three of them would make
    # a gigabyte of 1,000 characters. Refused before it is allocated.
    grow = {"type": "Replace", "pattern": {"String": "a"},
            "content": "a" * 1000}
    em = rt.Tokenizer.from_huggingface_json(_byte_json(
        {"type": "Sequence", "normalizers": [grow, grow, grow]}))
    with pytest.raises(Exception, match="normalized text would exceed"):
        em.encode("a" * 1000)
    # Growth within the bound is fine.
    assert len(em.encode("")) == 0
