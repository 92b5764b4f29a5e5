"""The pre-tokenizers of ember.runtime.Tokenizer against HuggingFace
``tokenizers`` 0.23 (docs/tokenizer.md "Pre-tokenizers"): Whitespace,
WhitespaceSplit, Metaspace (every prepend_scheme, split or not),
Digits, Punctuation (every behaviour), BertPreTokenizer,
CharDelimiterSplit, FixedLength, UnicodeScripts and Sequences of them.

Two kinds of check, both through whole tokenizers so that every split
shows in the ids:

- every code point: the character classes (the `regex` crate's \\w and
  \\s, Rust's is_whitespace and is_numeric, `tokenizers`' punctuation and
  scripts) run through a byte-level BPE whose vocabulary marks the last
  byte of each word (``end_of_word_suffix``), with each code point between
  separators of a known class, so a code point in the wrong class moves a
  word end (the ids `tokenizers` would give follow from its words; its
  encode is slow on these texts);
- >= 10,000 texts (stdlib lines, multilingual, random Unicode,
  adversarial, special tokens at the start, middle and end) through BPEs
  trained here by ``tokenizers``' BpeTrainer with the pre-tokenizer under
  test, encoded with add_special_tokens both ways and decoded with
  skip_special_tokens both ways, token for token.
"""

from __future__ import annotations

import functools
import json
import random

import pytest

tokenizers = pytest.importorskip("tokenizers")

import ember.runtime as rt  # noqa: E402

if getattr(__import__("ember._ember", fromlist=["_"]), "_Tokenizer",
           None) is None:
    pytest.skip("this build has no tokenizer layer", allow_module_level=True)

from tokenizers import (  # noqa: E402
    AddedToken,
    decoders,
    models,
    pre_tokenizers as pt,
    trainers,
)

import tokenizer_corpus as corpus  # noqa: E402

SPECIALS = [corpus.SPECIAL, "<s>"]

# Strings aimed at the pre-tokenizers here: every White_Space character and
# its look-alikes, the replacement character, digits of other scripts,
# ASCII symbols that count as punctuation, marks after punctuation, and
# special tokens where Metaspace's "first" must see them.
_WS = ["\t", "\n", "\x0b", "\x0c", "\r", " ", "\x85", "\xa0", "\u1680",
       "\u2000", "\u200a", "\u2028", "\u2029", "\u202f", "\u205f", "\u3000",
       "\u180e", "\u200b", "\ufeff", "\x1c"]


def _adversarial():
    out = ["", " ", "▁", "▁▁", " ▁ ", "▁a", "a▁", "__a_", "a  b", "  lead",
           "trail  ", "1", "12 345", "x²³½Ⅻ", "١٢٣ ௧௨", "$5.00!", "a,,b..",
           "(a)[b]{c}", "^`|~<=>+", "¿¡«»“”‘’", "、。「」", "e\u0301!\u0301",
           "_under_score_", "a\u200db\u200cc", "x" * 3000, "1" * 3000,
           "!" * 3000, " " * 3000, "▁" * 1000, "ab1!" * 800]
    for s in SPECIALS:
        out += [s, s + "hello", "hello" + s, s + " hi " + s + "x",
                " " + s + " ", s + s + "a", "▁" + s + "▁"]
    for a in _WS:
        out += [a, f"x{a}y", f"{a}x{a}", f"1{a}2", f"!{a}?", f"{a}{a}x"]
    return out


def _texts(seed, count=10000):
    texts = _adversarial() + corpus.texts(seed, count)
    return texts[:max(count, len(_adversarial()))]


def _training_text():
    return corpus.corpus_lines(3000) + corpus.MULTILINGUAL * 10


def _train(pre_tokenizer, mode):
    """A BPE trained with `pre_tokenizer`. `mode` "bytes": byte-level, no
    unknown characters (the pre-tokenizer, then a regex-less ByteLevel);
    "own": the pre-tokenizer has its own ByteLevel; "chars": on
    characters, with an unk token."""
    if mode == "chars":
        tok = tokenizers.Tokenizer(models.BPE(unk_token="<unk>",
                                              fuse_unk=True))
        tok.pre_tokenizer = pre_tokenizer
        alphabet = []
    else:
        tok = tokenizers.Tokenizer(models.BPE())
        tok.pre_tokenizer = pre_tokenizer if mode == "own" else pt.Sequence(
            [pre_tokenizer, pt.ByteLevel(add_prefix_space=False,
                                         use_regex=False)])
        tok.decoder = decoders.ByteLevel()
        alphabet = pt.ByteLevel.alphabet()
    trainer = trainers.BpeTrainer(vocab_size=1500,
                                  special_tokens=["<unk>"] + SPECIALS,
                                  initial_alphabet=alphabet,
                                  show_progress=False)
    tok.train_from_iterator(_training_text(), trainer)
    tok.add_special_tokens([AddedToken(s, normalized=False)
                            for s in SPECIALS])
    tok.add_tokens(["hello world", AddedToken("World", normalized=False)])
    return tok.to_str()


@functools.lru_cache(maxsize=None)
def _whitespace_split_bpe():
    """A byte-level BPE trained with WhitespaceSplit, for tests that swap
    its pre-tokenizer."""
    return _train(pt.WhitespaceSplit(), "bytes")


def _pair(text_json):
    return (tokenizers.Tokenizer.from_str(text_json),
            rt.Tokenizer.from_huggingface_json(text_json))


def _check(text_json, texts):
    """Encodes `texts` (the first 2,000 also with add_special_tokens) and
    decodes the ids with skip_special_tokens both ways, token for token."""
    hf, em = _pair(text_json)
    for add, batch in ((False, texts), (True, texts[:2000])):
        want = [e.ids for e in hf.encode_batch(batch,
                                               add_special_tokens=add)]
        got = em.encode_batch(batch, add_special_tokens=add)
        bad = [(t, w, g) for t, w, g in zip(batch, want, got) if w != g]
        assert not bad, (f"add_special_tokens={add}: {len(bad)} of "
                         f"{len(batch)} differ; first: {bad[:2]!r}")
    ids = want[:2000]
    for skip in (False, True):
        want_text = hf.decode_batch(ids, skip_special_tokens=skip)
        got_text = em.decode_batch(ids, skip_special_tokens=skip)
        bad = [(i, w, g) for i, w, g in zip(ids, want_text, got_text)
               if w != g]
        assert not bad, f"skip={skip}: {len(bad)} differ; first: {bad[:2]!r}"


# ---- every code point ---------------------------------------------------------

_ALL = [c for c in range(0x110000) if not 0xD800 <= c <= 0xDFFF]


def _word_end_json(pre_tokenizer):
    """Byte-level, no merges, and a second token for each byte at a word's
    end: the ids spell the bytes and where every word ends."""
    alphabet = sorted(pt.ByteLevel.alphabet())
    vocab = {c: i for i, c in enumerate(alphabet)}
    vocab.update({c + "</w>": 256 + i for i, c in enumerate(alphabet)})
    tok = tokenizers.Tokenizer(models.BPE(vocab=vocab, merges=[],
                                          end_of_word_suffix="</w>"))
    tok.pre_tokenizer = pt.Sequence(
        [pre_tokenizer, pt.ByteLevel(add_prefix_space=False,
                                     use_regex=False)])
    return tok.to_str()


@pytest.mark.parametrize("name,pre_tokenizer", [
    # Each code point between separators of a known class ("a", or "!" for
    # Whitespace): a non-punctuation (Punctuation, Bert) or a non-numeric
    # character (Digits) joins the "a"s' word, a punctuation or numeric one
    # is a word of its own; for Whitespace, an "other" character joins the
    # "!"s' word and a word character is a word of its own; White_Space is
    # removed. So every class decision moves a word end or a byte.
    ("Whitespace", pt.Whitespace()),
    ("WhitespaceSplit", pt.WhitespaceSplit()),
    ("Bert", pt.BertPreTokenizer()),
    ("Digits", pt.Digits(individual_digits=False)),
    ("Punctuation", pt.Punctuation("contiguous")),
    # Scripts: beside Latin ("Any" joins it, any other script is cut off),
    # and each code point beside the next (a cut where the script changes).
    ("UnicodeScripts", pt.UnicodeScripts()),
])
def test_character_classes_on_every_code_point(name, pre_tokenizer):
    em = rt.Tokenizer.from_huggingface_json(_word_end_json(pre_tokenizer))
    # Whitespace: beside "!" ("other"), so that the many unassigned code
    # points ("other" too) join one word instead of making a word each.
    separators = {"UnicodeScripts": ["a", ""],
                  "Whitespace": ["!"]}.get(name, ["a"])
    texts = [sep.join(map(chr, _ALL[k:k + 8192])) + sep
             for sep in separators for k in range(0, len(_ALL), 8192)]
    got = em.encode_batch(texts)
    # What `tokenizers` gives for this vocabulary follows from its words
    # alone (its own encode agrees, test_word_end_vocabulary_spells_words;
    # it is slow on these texts, so the words come from pre_tokenize_str).
    alphabet = sorted(pt.ByteLevel.alphabet())
    index = {c: i for i, c in enumerate(alphabet)}
    # The id of each byte, from `tokenizers`' own ByteLevel mapping of a
    # string whose UTF-8 holds every byte valid UTF-8 can hold.
    probe = "".join(map(chr, [*range(0x1000), *range(0x1000, 0x10000, 0x1000),
                              0x10000, 0x40000, 0x80000, 0xC0000,
                              0x100000]))
    (mapped, _), = pt.ByteLevel(add_prefix_space=False,
                                use_regex=False).pre_tokenize_str(probe)
    byte_id = [0] * 256
    for byte, c in zip(probe.encode(), mapped):
        byte_id[byte] = index[c]
    for text, g in zip(texts, got):
        want = []
        for word, _ in pre_tokenizer.pre_tokenize_str(text):
            ids = [byte_id[b] for b in word.encode()]
            ids[-1] += 256
            want += ids
        if want != g:
            k = next((i for i, (a, b) in enumerate(zip(want, g)) if a != b),
                     min(len(want), len(g)))
            raise AssertionError(f"{name}: ids differ at {k} in the block "
                                 f"starting U+{ord(text[0]):04X}")


def test_word_end_vocabulary_spells_words():
    # The vocabulary of the test above, through `tokenizers`' own encode.
    hf, em = _pair(_word_end_json(pt.Whitespace()))
    texts = ["a b!!c\u00b2d", "\u4e00\u3000x", "ab\u0301 ,"]
    want = [e.ids for e in hf.encode_batch(texts)]
    # a | b | !! | c | \u00b2 | d: each word's last byte is a second id.
    assert want[0][:5] == [256 + 64, 256 + 65, 0, 256 + 0, 256 + 66]
    assert len(want[0]) == 8
    assert em.encode_batch(texts) == want


# ---- differential on many texts -------------------------------------------------

# name: (pre-tokenizer, _train's mode, how many texts)
_CONFIGS = {
    "whitespace": (lambda: pt.Whitespace(), "bytes", 10000),
    "whitespace_split": (lambda: pt.WhitespaceSplit(), "bytes", 3000),
    "bert": (lambda: pt.BertPreTokenizer(), "bytes", 10000),
    "bert_chars": (lambda: pt.BertPreTokenizer(), "chars", 3000),
    "metaspace_always": (lambda: pt.Metaspace(), "bytes", 10000),
    "metaspace_first": (lambda: pt.Metaspace(prepend_scheme="first"),
                        "chars", 10000),
    "metaspace_never_nosplit": (
        lambda: pt.Metaspace(replacement="_", prepend_scheme="never",
                             split=False), "bytes", 3000),
    "t5": (lambda: pt.Sequence([pt.WhitespaceSplit(),
                                pt.Metaspace(prepend_scheme="first")]),
           "chars", 10000),
    "digits_punctuation": (
        lambda: pt.Sequence([pt.WhitespaceSplit(),
                             pt.Digits(individual_digits=True),
                             pt.Punctuation("merged_with_next")]),
        "bytes", 10000),
    "delimiter_digits": (
        lambda: pt.Sequence([pt.CharDelimiterSplit(" "),
                             pt.Digits(individual_digits=False)]),
        "bytes", 3000),
    "fixed_length": (lambda: pt.FixedLength(3), "bytes", 3000),
    "unicode_scripts": (lambda: pt.UnicodeScripts(), "bytes", 10000),
    "unicode_scripts_chars": (
        lambda: pt.Sequence([pt.UnicodeScripts(),
                             pt.Metaspace(prepend_scheme="first")]),
        "chars", 3000),
    "metaspace_then_byte_level_regex": (
        lambda: pt.Sequence([pt.Metaspace(prepend_scheme="first"),
                             pt.ByteLevel(add_prefix_space=True)]),
        "own", 3000),
}


@pytest.mark.parametrize("config", sorted(_CONFIGS))
def test_trained_pipelines_match_tokenizers(config):
    make, mode, count = _CONFIGS[config]
    texts = _texts(31 + len(config), count)
    assert len(texts) >= count
    _check(_train(make(), mode), texts)


@pytest.mark.parametrize("behavior", ["removed", "isolated",
                                      "merged_with_previous",
                                      "merged_with_next", "contiguous"])
def test_punctuation_behaviors_match_tokenizers(behavior):
    text_json = _train(pt.Punctuation(behavior), "bytes")
    _check(text_json, _texts(5, 2000))


def test_metaspace_first_after_added_tokens():
    # "first" prepends only to the text's first piece: not after a special
    # token, nor after a normalized added token, nor when the text starts
    # with one.
    text_json = _train(pt.Metaspace(prepend_scheme="first"), "chars")
    texts = []
    for a in ["", "<s>", corpus.SPECIAL, "hello world", "World", " "]:
        for b in ["", "x", " x", "hello world x", "<s> x"]:
            texts += [a + b, b + a, a + b + a]
    _check(text_json, texts)


def test_fixed_length_zero_is_refused():
    data = json.loads(_word_end_json(pt.Whitespace()))
    data["pre_tokenizer"] = {"type": "FixedLength", "length": 0}
    with pytest.raises(ValueError, match="FixedLength"):
        rt.Tokenizer.from_huggingface_json(json.dumps(data))


@pytest.mark.parametrize("pre_tokenizer", [
    {"type": "Metaspace", "replacement": "▁", "add_prefix_space": False},
    {"type": "Metaspace", "replacement": "ab"},
    {"type": "Metaspace", "replacement": "▁", "prepend_scheme": "First"},
    {"type": "Digits"},
    {"type": "CharDelimiterSplit", "delimiter": "xy"},
    {"type": "Punctuation", "behavior": "removed"},
])
def test_fields_tokenizers_refuses_are_refused(pre_tokenizer):
    data = json.loads(_word_end_json(pt.Whitespace()))
    data["pre_tokenizer"] = pre_tokenizer
    with pytest.raises(Exception):
        tokenizers.Tokenizer.from_str(json.dumps(data))
    with pytest.raises(ValueError):
        rt.Tokenizer.from_huggingface_json(json.dumps(data))


def test_random_sequences_of_pre_tokenizers():
    # Random Sequences of up to four pre-tokenizers over one byte-level
    # BPE: the order and the mix change the words, never the agreement.
    rng = random.Random(11)
    base = json.loads(_whitespace_split_bpe())
    choices = [
        {"type": "Whitespace"}, {"type": "WhitespaceSplit"},
        {"type": "BertPreTokenizer"},
        {"type": "Metaspace", "replacement": "▁", "prepend_scheme": "first",
         "split": True},
        {"type": "Metaspace", "replacement": "▁", "prepend_scheme": "always",
         "split": False},
        {"type": "Digits", "individual_digits": True},
        {"type": "Digits", "individual_digits": False},
        {"type": "Punctuation", "behavior": "MergedWithPrevious"},
        {"type": "CharDelimiterSplit", "delimiter": "e"},
        {"type": "FixedLength", "length": 2}, {"type": "UnicodeScripts"},
        {"type": "Split", "pattern": {"Regex": r"\s+"},
         "behavior": "MergedWithNext", "invert": False},
    ]
    byte_level = {"type": "ByteLevel", "add_prefix_space": False,
                  "trim_offsets": True, "use_regex": False}
    texts = _texts(3, 1000)
    for _ in range(10):
        steps = [rng.choice(choices) for _ in range(rng.randint(1, 4))]
        base["pre_tokenizer"] = {"type": "Sequence",
                                 "pretokenizers": steps + [byte_level]}
        _check(json.dumps(base, ensure_ascii=False), texts)


@pytest.mark.parametrize("kind", ["wordpiece", "unigram"])
def test_bert_and_t5_style_files_encode_like_tokenizers(kind):
    # The two families whose real files use these pre-tokenizers: BERT
    # (BertNormalizer, BertPreTokenizer, WordPiece) and T5 (WhitespaceSplit
    # then Metaspace, Unigram), trained by tokenizer_corpus.
    hf, em = _pair(corpus.trained_json(kind))
    texts = _texts(41, 10000)
    for add in (False, True):
        want = [e.ids for e in hf.encode_batch(texts,
                                               add_special_tokens=add)]
        got = em.encode_batch(texts, add_special_tokens=add)
        bad = [(t, w, g) for t, w, g in zip(texts, want, got) if w != g]
        assert not bad, f"{len(bad)} differ; first: {bad[:2]!r}"


@pytest.mark.parametrize("behavior", ["removed", "isolated",
                                      "merged_with_previous",
                                      "merged_with_next", "contiguous"])
@pytest.mark.parametrize("invert", [False, True])
def test_split_on_the_empty_string_matches_tokenizers(behavior, invert):
    # `tokenizers` escapes an empty String pattern into the empty regex,
    # whose empty matches at every character boundary cut the text.
    data = json.loads(_whitespace_split_bpe())
    data["pre_tokenizer"] = {"type": "Sequence", "pretokenizers": [
        {"type": "Split", "pattern": {"String": ""}, "behavior":
         behavior.title().replace("_", ""), "invert": invert},
        {"type": "ByteLevel", "add_prefix_space": False,
         "trim_offsets": True, "use_regex": False}]}
    _check(json.dumps(data, ensure_ascii=False), _texts(6, 1000))


@pytest.mark.parametrize("pattern", [r"x*", r"(?=[A-Z])", r"a|", r"\s*",
                                     r"(?=a)|a", r"$", r"\b", r"\B",
                                     r"\b\w+\b"])
@pytest.mark.parametrize("behavior", ["Removed", "Isolated",
                                      "MergedWithPrevious", "MergedWithNext",
                                      "Contiguous"])
def test_split_regexes_that_match_empty_match_tokenizers(pattern, behavior):
    # `tokenizers` cuts at every empty match onig's find_iter reports.
    data = json.loads(_word_end_json(pt.Whitespace()))
    data["pre_tokenizer"] = {"type": "Sequence", "pretokenizers": [
        {"type": "Split", "pattern": {"Regex": pattern},
         "behavior": behavior, "invert": False},
        {"type": "ByteLevel", "add_prefix_space": False,
         "trim_offsets": True, "use_regex": False}]}
    texts = ["HelloWorld aXb xxA", "", "a", "xx", "AbCdE", " \t a"]
    _check(json.dumps(data), texts + _texts(9, 1000))


