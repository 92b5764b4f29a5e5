"""Post-processors, decoders and added-token options of
ember.runtime.Tokenizer against HuggingFace ``tokenizers`` 0.23 (the
reference), id for id and character for character.

- Post-processors (BertProcessing, RobertaProcessing, TemplateProcessing,
  ByteLevel and Sequences of them, including the Sequences where
  ``tokenizers`` hands the next post-processor a list of encodings): 10,000
  texts each, add_special_tokens both ways; the cases where ``tokenizers``
  panics are errors in Ember.
- Decoders (WordPiece, Metaspace, CTC, BPEDecoder, ByteLevel, ByteFallback,
  Fuse, Strip, Replace and chains of them): 10,000 random id lists each,
  special tokens among them, skip_special_tokens both ways; and for every
  chain, ``decode_stream`` fed one id at a time and in random chunks gives
  exactly ``decode``.
- Added tokens with lstrip, rstrip, single_word and normalized, inserted at
  random places in 10,000 texts with random whitespace and word characters
  around them; and the two character classes they depend on (Rust regex's
  ``\\s`` and ``\\w``) measured on every code point.
"""

from __future__ import annotations

import json
import random
import sysconfig
from pathlib import Path

import pytest

tokenizers = pytest.importorskip("tokenizers")

import ember.runtime as rt  # noqa: E402

if getattr(__import__("ember._ember", fromlist=["_"]), "_Tokenizer",
           None) is None:
    pytest.skip("this build has no tokenizer layer", allow_module_level=True)

# Ember's batch calls use every core: the components run from several
# threads at once on one loaded tokenizer.
THREADS = 0

# ---- text ------------------------------------------------------------------

MULTILINGUAL = [
    "我们今天去公园散步，天气非常好。",
    "東京は日本の首都です。ひらがなとカタカナも使います。",
    "안녕하세요, 만나서 반갑습니다.",
    "مرحبا بالعالم، هذه جملة باللغة العربية.",
    "שלום עולם, זה משפט בעברית עם ניקוד: שָׁלוֹם.",
    "नमस्ते दुनिया, यह हिंदी में एक वाक्य है।",
    "Привет, мир! Это предложение.",
    "Emoji: 👩‍👩‍👧‍👦 family, 👍🏽 thumbs, 🇫🇷 flag, ❤️ heart.",
    "Combining: e\u0301 a\u0300 n\u0303 o\u0308 Z\u0335\u0336a\u0337l",
    "Tab\tand\nnewlines\r\nand   spaces  \u00a0nbsp\u3000ideographic",
]

# Whitespace for Rust's `\s` and look-alikes that are not (U+180E, U+200B).
WS = [" ", "  ", "\t", "\n", "\r\n", "\u00a0", "\u0085", "\u2028", "\u3000",
      "\u000b", "\u000c", "\u1680", "\u2003", "\u202f", "\u180e", "\u200b",
      ""]
# Neighbours for single_word: word characters of several kinds (`\w`:
# letters, marks, digits, connector punctuation, Join_Control, circled
# letters) and non-word ones.
NEIGHBOURS = ["a", "Z", "é", "中", "\u0301", "7", "٣", "_", "\u200d", "Ⓐ",
              "Ⅻ", ".", "-", "!", "🙂", "€", " ", "\u00a0", "", "'", "\u200b"]


def _corpus_lines(limit=4000):
    stdlib = Path(sysconfig.get_paths()["stdlib"])
    lines = []
    for path in sorted(stdlib.glob("*.py")):
        try:
            text = path.read_text(encoding="utf-8")
        except (UnicodeDecodeError, OSError):
            continue
        lines += [line[:200] for line in text.splitlines() if line.strip()]
        if len(lines) >= limit:
            break
    return lines[:limit]


def _random_unicode(rng, n):
    ranges = [(0x20, 0x7E), (0x00, 0x20), (0x80, 0x2FF), (0x300, 0x36F),
              (0x370, 0x6FF), (0x2000, 0x206F), (0x3000, 0x30FF),
              (0x4E00, 0x9FFF), (0x1F300, 0x1FAFF), (0x10000, 0x10FFFF)]
    out = []
    for _ in range(n):
        lo, hi = rng.choice(ranges)
        c = rng.randint(lo, hi)
        out.append(chr(0x20 if 0xD800 <= c <= 0xDFFF else c))
    return "".join(out)


def _texts(seed, count=10000):
    rng = random.Random(seed)
    corpus = _corpus_lines()
    texts = ["", " ", "a", "hello world"] + corpus[:3000]
    while len(texts) < count - 2000:
        texts.append(rng.choice(corpus) + rng.choice(["", " "]) +
                     rng.choice(MULTILINGUAL))
    while len(texts) < count:
        texts.append(_random_unicode(rng, rng.randint(1, 40)))
    return texts


# ---- tokenizer.json building ----------------------------------------------

# GPT-2's byte-to-character table: a ByteLevel BPE whose vocabulary is the
# 256 byte characters (no merges) gives one id per byte, in any text.
def _byte_chars():
    bs = (list(range(ord("!"), ord("~") + 1)) +
          list(range(0xA1, 0xAD)) + list(range(0xAE, 0x100)))
    cs = bs[:]
    n = 0
    for b in range(256):
        if b not in bs:
            bs.append(b)
            cs.append(256 + n)
            n += 1
    return {b: chr(c) for b, c in zip(bs, cs)}


BYTE_CHARS = _byte_chars()


def _added(content, id_, special=False, lstrip=False, rstrip=False,
           single_word=False, normalized=None):
    return {"id": id_, "content": content, "single_word": single_word,
            "lstrip": lstrip, "rstrip": rstrip,
            "normalized": (not special) if normalized is None else normalized,
            "special": special}


def _byte_level_json(added=(), post_processor=None, normalizer=None):
    vocab = {BYTE_CHARS[b]: b for b in range(256)}
    return json.dumps({
        "version": "1.0", "truncation": None, "padding": None,
        "added_tokens": list(added), "normalizer": normalizer,
        "pre_tokenizer": {"type": "ByteLevel", "add_prefix_space": False,
                          "trim_offsets": True, "use_regex": True},
        "post_processor": post_processor,
        "decoder": {"type": "ByteLevel", "add_prefix_space": True,
                    "trim_offsets": True, "use_regex": True},
        "model": {"type": "BPE", "dropout": None, "unk_token": None,
                  "continuing_subword_prefix": None,
                  "end_of_word_suffix": None, "fuse_unk": False,
                  "byte_fallback": False, "ignore_merges": False,
                  "vocab": vocab, "merges": []}}, ensure_ascii=False)


def _pair(text_json):
    return (tokenizers.Tokenizer.from_str(text_json),
            rt.Tokenizer.from_huggingface_json(text_json))


def _check_encode(hf, em, texts, add_special_tokens):
    want = [e.ids for e in hf.encode_batch(
        texts, add_special_tokens=add_special_tokens)]
    got = em.encode_batch(texts, add_special_tokens=add_special_tokens,
                          threads=THREADS)
    bad = [(t, w, g) for t, w, g in zip(texts, want, got) if w != g]
    assert not bad, f"{len(bad)} of {len(texts)} differ; first: {bad[:3]!r}"


# ---- post-processors ---------------------------------------------------------

CLS, SEP, BOS, EOS = 256, 257, 258, 259
SPECIALS = [_added("[CLS]", CLS, special=True),
            _added("[SEP]", SEP, special=True),
            _added("<s>", BOS, special=True),
            _added("</s>", EOS, special=True)]

A = {"Sequence": {"id": "A", "type_id": 0}}
B = {"Sequence": {"id": "B", "type_id": 1}}


def _special(name, type_id=0):
    return {"SpecialToken": {"id": name, "type_id": type_id}}


SPECIAL_TOKENS = {
    "[CLS]": {"id": "[CLS]", "ids": [CLS], "tokens": ["[CLS]"]},
    "[SEP]": {"id": "[SEP]", "ids": [SEP], "tokens": ["[SEP]"]},
    "<s>": {"id": "<s>", "ids": [BOS], "tokens": ["<s>"]},
    # Several ids for one special token.
    "</s>": {"id": "</s>", "ids": [EOS, SEP, EOS], "tokens": ["a", "b", "c"]},
}


def _template(single, pair=None):
    return {"type": "TemplateProcessing", "single": single,
            "pair": [A, B] if pair is None else pair,
            "special_tokens": SPECIAL_TOKENS}


BERT = {"type": "BertProcessing", "sep": ["[SEP]", SEP], "cls": ["[CLS]", CLS]}
ROBERTA = {"type": "RobertaProcessing", "sep": ["</s>", EOS],
           "cls": ["<s>", BOS], "trim_offsets": True, "add_prefix_space": True}
BYTE_LEVEL = {"type": "ByteLevel", "add_prefix_space": True,
              "trim_offsets": False, "use_regex": True}


def _seq(*processors):
    return {"type": "Sequence", "processors": list(processors)}


POST_PROCESSORS = {
    "bert": BERT,
    "roberta": ROBERTA,
    # The type is not what decides (`tokenizers` reads them untagged).
    "bert_with_roberta_fields": dict(BERT, trim_offsets=False,
                                     add_prefix_space=False),
    "roberta_without_its_fields": {"type": "RobertaProcessing",
                                   "sep": ["</s>", EOS], "cls": ["<s>", BOS]},
    "template": _template([_special("[CLS]"), A, _special("[SEP]")]),
    "template_multi_ids": _template([_special("<s>", 1), A,
                                     _special("</s>", 1)]),
    "template_twice": _template([A, _special("<s>"), A]),
    "template_empty": _template([]),
    "template_specials_only": _template([_special("<s>")]),
    "byte_level": BYTE_LEVEL,
    "seq_byte_level_template": _seq(BYTE_LEVEL,
                                    _template([_special("<s>"), A])),
    "seq_two_templates": _seq(_template([_special("<s>"), A]),
                              _template([_special("[CLS]"), A])),
    "seq_template_pair": _seq(_template([A, _special("[SEP]")]),
                              _template([_special("[CLS]"), A],
                                        pair=[B, _special("<s>"), A, B])),
    "seq_template_bert": _seq(_template([_special("[CLS]"), A,
                                         _special("[SEP]")]), BERT),
    "seq_template_roberta": _seq(_template([_special("[CLS]"), A,
                                            _special("[SEP]")]), ROBERTA),
    "seq_bert_roberta": _seq(BERT, ROBERTA, _seq(BYTE_LEVEL, BERT)),
    "seq_empty": _seq(),
}


@pytest.fixture(scope="module")
def post_texts():
    return _texts(11)


@pytest.mark.parametrize("name", sorted(POST_PROCESSORS))
def test_post_processor_matches_tokenizers(name, post_texts):
    text_json = _byte_level_json(SPECIALS, POST_PROCESSORS[name])
    hf, em = _pair(text_json)
    texts = post_texts if name in ("bert", "roberta", "template",
                                   "seq_template_bert") else post_texts[:2000]
    for add in (False, True):
        _check_encode(hf, em, texts, add)


# Where `tokenizers` panics (PanicException, a BaseException), Ember's
# encode is an error; with the other add_special_tokens both agree.
@pytest.mark.parametrize("processor,panics_with", [
    # A template for a list of 3 encodings: `todo!()`.
    (_seq(_template([_special("<s>"), A, _special("[SEP]")]),
          _template([A])), (True,)),
    # Sequence B in the single template.
    (_template([A, B]), (False, True)),
    # A special token missing from "special_tokens".
    (_template([_special("[MISSING]"), A]), (True,)),
])
def test_post_processor_panics_are_errors(processor, panics_with):
    hf, em = _pair(_byte_level_json(SPECIALS, processor))
    for add in (False, True):
        if add in panics_with:
            with pytest.raises(BaseException):
                hf.encode("hi", add_special_tokens=add)
            with pytest.raises(ValueError, match="panics"):
                em.encode("hi", add_special_tokens=add)
        else:
            assert (em.encode("hi", add_special_tokens=add) ==
                    hf.encode("hi", add_special_tokens=add).ids)


@pytest.mark.parametrize("processor,needle", [
    ({"type": "BertProcessing", "sep": ["[SEP]", SEP]}, "cls"),
    ({"type": "BertProcessing", "sep": ["[SEP]", 99999], "cls": ["a", 0]},
     "special token id 99999"),
    ({"type": "BertProcessing", "sep": ["[SEP]"], "cls": ["a", 0]}, "sep"),
    ({"type": "ByteLevel", "trim_offsets": True}, "add_prefix_space"),
    ({"type": "TemplateProcessing", "single": [A],
      "special_tokens": SPECIAL_TOKENS}, "pair"),
    ({"type": "TemplateProcessing", "single": "[CLS] $A", "pair": [],
      "special_tokens": SPECIAL_TOKENS}, "single"),
    (_template([{"Sequence": {"id": "C", "type_id": 0}}]), "Sequence id"),
    ({"type": "TemplateProcessing", "single": [A], "pair": [],
      "special_tokens": {"x": {"id": "x", "ids": [1]}}}, "tokens"),
    (_template([{"Sequence": {"id": "A"}}]), "type_id"),
    (_template([A] * 65), "pieces"),
    (_seq(*([BERT] * 65)), "more than 64"),
])
def test_malformed_post_processors_are_refused(processor, needle):
    text_json = _byte_level_json(SPECIALS, processor)
    # `tokenizers` refuses them too, but for Ember's own bounds and the id
    # that names no token (which it emits).
    if needle not in ("pieces", "more than 64", "special token id 99999"):
        with pytest.raises(Exception):
            tokenizers.Tokenizer.from_str(text_json)
    with pytest.raises(ValueError, match=needle):
        rt.Tokenizer.from_huggingface_json(text_json)


def test_largest_template_repeats_the_sequence_64_times():
    processor = _seq(_template([A] * 64), BERT)
    hf, em = _pair(_byte_level_json(SPECIALS, processor))
    for text in ("", "x", "hello world " * 50):
        for add in (False, True):
            assert (em.encode(text, add_special_tokens=add) ==
                    hf.encode(text, add_special_tokens=add).ids)


# ---- decoders ----------------------------------------------------------------

def _decoder_vocab():
    """Token strings that exercise every decoder: WordPiece prefixes and
    cleanup patterns, Metaspace replacements, CTC pads and delimiters, BPE
    suffixes, byte tokens (valid and broken UTF-8), GPT-2 byte characters,
    multilingual text."""
    toks = ["a", "b", "ab", "the", "cat", "##", "##a", "##b", "##ing", "#",
            "▁", "▁▁", "▁a", "a▁", "a▁b", "▁the", "▁▁cat", "x▁▁y",
            "<pad>", "|", "a|b", "||", "<pad><pad>", "|<pad>|",
            "</w>", "a</w>", "</w></w>", "ab</w>c", "w>", "</",
            ".", "?", "!", ",", "'", "' ", " '", "n't", " n't", "'m", "'s",
            "'ve", "'re", "do", "not", " do not", "do not", " ", "  ", "",
            " .", " ?", " !", " ,", " ' ", " 'm", " 's", " 've", " 're",
            "don't", "é", "中文", "🙂", "\u0301", "Ġ", "Ġa", "ĠĠ", "Ċ",
            "<0x41>", "<0x20>", "<0x0A>", "<0xC3>", "<0xA9>", "<0xE2>",
            "<0x82>", "<0xAC>", "<0xF0>", "<0x9F>", "<0x99>", "<0x82>",
            "<0xFF>", "<0x80>", "<0xED>", "<0xA0>", "<0xC0>", "<0x+A>",
            "<0xG1>", "<0x4>", "<0x041>", "<0xe9>"]
    for s in ["é", "€", "🙂", "中", "a b", " hi", "\n"]:
        enc = s.encode()
        toks.append("".join(BYTE_CHARS[b] for b in enc))
        toks += [BYTE_CHARS[b] for b in enc]
    toks += ["".join(BYTE_CHARS[b] for b in "hello".encode()), "ĠðŁĻ"]
    out = []
    for t in toks:
        if t and t not in out:
            out.append(t)
    return out


DEC_SPECIALS = ["[CLS]", "<s>", "</s>"]
DEC_NONSPECIAL = ["<extra>", "▁added", "##added"]

ST = {"type": "Strip", "content": " ", "start": 1, "stop": 0}
DECODERS = {
    "wordpiece": {"type": "WordPiece", "prefix": "##", "cleanup": True},
    "wordpiece_no_cleanup": {"type": "WordPiece", "prefix": "##",
                             "cleanup": False},
    "wordpiece_empty_prefix": {"type": "WordPiece", "prefix": "",
                               "cleanup": True},
    "metaspace_always": {"type": "Metaspace", "replacement": "▁",
                         "prepend_scheme": "always", "split": True},
    "metaspace_first": {"type": "Metaspace", "replacement": "▁",
                        "prepend_scheme": "first", "split": False},
    "metaspace_never": {"type": "Metaspace", "replacement": "▁",
                        "prepend_scheme": "never", "split": True},
    "metaspace_legacy": {"type": "Metaspace", "replacement": "▁",
                         "add_prefix_space": True},
    "metaspace_hash": {"type": "Metaspace", "replacement": "#",
                       "prepend_scheme": "always"},
    "ctc": {"type": "CTC", "pad_token": "<pad>", "word_delimiter_token": "|",
            "cleanup": True},
    "ctc_no_cleanup": {"type": "CTC", "pad_token": "<pad>",
                       "word_delimiter_token": "|", "cleanup": False},
    "ctc_empty_delimiter": {"type": "CTC", "pad_token": "",
                            "word_delimiter_token": "", "cleanup": True},
    "bpe": {"type": "BPEDecoder", "suffix": "</w>"},
    "bpe_empty_suffix": {"type": "BPEDecoder", "suffix": ""},
    "byte_level": {"type": "ByteLevel", "add_prefix_space": True,
                   "trim_offsets": True, "use_regex": True},
    "llama": {"type": "Sequence", "decoders": [
        {"type": "Replace", "pattern": {"String": "▁"}, "content": " "},
        {"type": "ByteFallback"}, {"type": "Fuse"}, ST]},
    "fallback_metaspace": {"type": "Sequence", "decoders": [
        {"type": "ByteFallback"},
        {"type": "Metaspace", "replacement": "▁", "prepend_scheme": "first"}]},
    "fuse_metaspace": {"type": "Sequence", "decoders": [
        {"type": "ByteFallback"}, {"type": "Fuse"},
        {"type": "Metaspace", "replacement": "▁", "prepend_scheme": "always"}]},
    "fuse_replace_literal": {"type": "Sequence", "decoders": [
        {"type": "Fuse"},
        {"type": "Replace", "pattern": {"String": "a▁b"}, "content": "[X]"},
        {"type": "Replace", "pattern": {"String": "##"}, "content": ""},
        {"type": "Strip", "content": "▁", "start": 2, "stop": 0}]},
    "byte_level_then_replace": {"type": "Sequence", "decoders": [
        {"type": "ByteLevel", "add_prefix_space": True, "trim_offsets": True,
         "use_regex": True},
        {"type": "Replace", "pattern": {"String": "ab"}, "content": "-"},
        {"type": "Fuse"}]},
    "ctc_wordpiece_bpe": {"type": "Sequence", "decoders": [
        {"type": "CTC", "pad_token": "<pad>", "word_delimiter_token": "|",
         "cleanup": True},
        {"type": "WordPiece", "prefix": "##", "cleanup": False},
        {"type": "BPEDecoder", "suffix": "</w>"}]},
    "regex_replace_strip": {"type": "Sequence", "decoders": [
        {"type": "Replace", "pattern": {"Regex": "[▁#]+"}, "content": " "},
        {"type": "Strip", "content": " ", "start": 1, "stop": 0},
        {"type": "Metaspace", "replacement": "|", "prepend_scheme": "first"}]},
    # Streams by buffering until finalize (a WordPiece after a Fuse).
    "fuse_wordpiece": {"type": "Sequence", "decoders": [
        {"type": "Fuse"},
        {"type": "WordPiece", "prefix": "##", "cleanup": True}]},
    "nested_sequence": {"type": "Sequence", "decoders": [
        {"type": "Sequence", "decoders": [
            {"type": "Metaspace", "replacement": "▁",
             "prepend_scheme": "always"}]},
        {"type": "Sequence", "decoders": [{"type": "ByteFallback"}]},
        {"type": "WordPiece", "prefix": "##", "cleanup": True}]},
    "none": None,
}


def _decoder_json(decoder):
    vocab = {t: i for i, t in enumerate(_decoder_vocab())}
    n = len(vocab)
    added = ([_added(t, n + i, special=True)
              for i, t in enumerate(DEC_SPECIALS)] +
             [_added(t, n + len(DEC_SPECIALS) + i)
              for i, t in enumerate(DEC_NONSPECIAL)])
    return json.dumps({
        "version": "1.0", "truncation": None, "padding": None,
        "added_tokens": added, "normalizer": None, "pre_tokenizer": None,
        "post_processor": None, "decoder": decoder,
        "model": {"type": "BPE", "dropout": None, "unk_token": None,
                  "continuing_subword_prefix": None,
                  "end_of_word_suffix": None, "fuse_unk": False,
                  "byte_fallback": False, "ignore_merges": False,
                  "vocab": vocab, "merges": []}}, ensure_ascii=False)


def _id_lists(n_ids, seed, count=10000):
    rng = random.Random(seed)
    lists = [[], [0], [n_ids - 1]]
    while len(lists) < count:
        k = rng.choice([1, 2, 3, 5, 8, 13, 30])
        lists.append([rng.randrange(n_ids) for _ in range(k)])
    return lists


def _stream(em, ids, skip, rng=None):
    out = []
    with em.decode_stream(skip_special_tokens=skip) as stream:
        if rng is None:
            for i in ids:
                out.append(stream.feed_one(i))
        else:
            k = 0
            while k < len(ids):
                n = rng.randint(0, 4)
                out.append(stream.feed(ids[k:k + n]))
                k += n
        out.append(stream.finalize())
    return "".join(out)


@pytest.mark.parametrize("name", sorted(DECODERS))
def test_decoder_matches_tokenizers_and_streams(name):
    text_json = _decoder_json(DECODERS[name])
    hf, em = _pair(text_json)
    n_ids = em.vocab_size
    lists = _id_lists(n_ids, seed=len(name))
    rng = random.Random(5)
    for skip in (False, True):
        want = hf.decode_batch(lists, skip_special_tokens=skip)
        got = em.decode_batch(lists, skip_special_tokens=skip,
                              threads=THREADS)
        bad = [(i, w, g) for i, w, g in zip(lists, want, got) if w != g]
        assert not bad, f"skip={skip}: {len(bad)} differ; first {bad[:3]!r}"
        # The stream, one id at a time and in random chunks, is `decode`.
        for ids, w in zip(lists[:3000], want):
            assert _stream(em, ids, skip) == w, ids
            assert _stream(em, ids, skip, rng) == w, ids


def test_decoder_stream_is_incremental():
    # WordPiece and Metaspace chains give each token's text at once.
    for name in ("wordpiece", "metaspace_first", "ctc_wordpiece_bpe",
                 "fuse_metaspace"):
        em = rt.Tokenizer.from_huggingface_json(_decoder_json(DECODERS[name]))
        ids = [em.token_to_id(t) for t in ("a", "##b", "▁the", "cat", "a")]
        stream = em.decode_stream()
        pieces = [stream.feed_one(i) for i in ids]
        if name == "ctc_wordpiece_bpe":
            # BPEDecoder holds one token: it may be the last.
            assert pieces[0] == "" and all(pieces[1:]), (name, pieces)
        else:
            assert all(pieces), (name, pieces)
        assert "".join(pieces) + stream.finalize() == em.decode(ids)
    # A byte run waits for its end; an impossible byte comes out at once.
    em = rt.Tokenizer.from_huggingface_json(
        _decoder_json(DECODERS["fallback_metaspace"]))
    stream = em.decode_stream()
    assert stream.feed_one(em.token_to_id("<0xC3>")) == ""
    assert stream.feed_one(em.token_to_id("<0xA9>")) == ""
    assert stream.feed_one(em.token_to_id("a")) == "éa"
    assert stream.feed_one(em.token_to_id("<0xFF>")) == "\ufffd"


@pytest.mark.parametrize("decoder,needle", [
    ({"type": "WordPiece", "prefix": "##"}, "cleanup"),
    ({"type": "WordPiece", "cleanup": True}, "prefix"),
    ({"type": "Metaspace", "replacement": "▁▁"}, "replacement"),
    ({"type": "Metaspace", "replacement": "▁", "prepend_scheme": "sometimes"},
     "prepend_scheme"),
    ({"type": "Metaspace", "replacement": "▁", "add_prefix_space": False},
     "add_prefix_space"),
    ({"type": "CTC", "pad_token": "<pad>", "cleanup": True},
     "word_delimiter_token"),
    ({"type": "BPEDecoder"}, "suffix"),
    ({"type": "BPEDecoder", "suffix": "x" * 2000}, "over"),
    ({"type": "Sequence", "decoders": [{"type": "Fuse"}] * 65},
     "more than 64"),
])
def test_malformed_decoders_are_refused(decoder, needle):
    # `tokenizers` refuses these too (except the bounds, which are Ember's).
    text_json = _decoder_json(decoder)
    if needle not in ("over", "more than 64"):
        with pytest.raises(Exception):
            tokenizers.Tokenizer.from_str(text_json)
    with pytest.raises(ValueError, match=needle):
        rt.Tokenizer.from_huggingface_json(text_json)


def test_exploding_decoder_chain_is_bounded():
    # Each BPEDecoder with an empty suffix doubles the text (Rust's replace
    # of "" inserts before every character): 2^60 bytes asked for.
    chain = {"type": "Sequence",
             "decoders": [{"type": "BPEDecoder", "suffix": ""}] * 60}
    em = rt.Tokenizer.from_huggingface_json(_decoder_json(chain))
    ids = [em.token_to_id("the")] * 4
    with pytest.raises(Exception, match="over"):
        em.decode(ids)
    with pytest.raises(Exception, match="over"):
        with em.decode_stream() as stream:
            stream.feed(ids)
            stream.finalize()


# ---- added tokens --------------------------------------------------------------

# Added tokens of every flag combination (ids from 256 on).
ADDED_CONFIGS = [
    ("<mask>", dict(special=True, lstrip=True)),
    ("[R]", dict(special=True, rstrip=True)),
    ("<both>", dict(special=False, lstrip=True, rstrip=True,
                    normalized=False)),
    ("word", dict(special=False, single_word=True, normalized=False)),
    ("中文", dict(special=False, single_word=True, lstrip=True,
                normalized=False)),
    ("ab", dict(special=True, single_word=True, rstrip=True)),
    ("wordy", dict(special=False, normalized=False)),
    # Starts with whitespace: rstrip of a token before it can reach past
    # its start (`tokenizers` then moves back).
    (" sp", dict(special=False, lstrip=True, normalized=False)),
    ("\u3000x", dict(special=True, rstrip=True)),
    # normalized=true: matched in the normalized text.
    ("ﬁne", dict(special=False, normalized=True, lstrip=True)),
    ("NORM", dict(special=False, normalized=True, single_word=True,
                  rstrip=True)),
    # NFKC makes it "DŽa"; special and normalized.
    ("Ǆa", dict(special=True, normalized=True, single_word=True)),
]


def _added_json(normalizer=None):
    added = [_added(c, 256 + i, **kw) for i, (c, kw) in
             enumerate(ADDED_CONFIGS)]
    return _byte_level_json(added, normalizer=normalizer)


def _texts_with_added(seed, count=10000):
    rng = random.Random(seed)
    corpus = _corpus_lines()
    contents = [c for c, _ in ADDED_CONFIGS] + ["fine", "norm", "DŽa", "dža"]
    texts = []
    while len(texts) < count:
        base = rng.choice(corpus + MULTILINGUAL)
        for _ in range(rng.randint(1, 4)):
            at = rng.randint(0, len(base))
            piece = (rng.choice(NEIGHBOURS) + rng.choice(WS) +
                     rng.choice(WS) + rng.choice(contents) + rng.choice(WS) +
                     rng.choice(WS) + rng.choice(NEIGHBOURS))
            base = base[:at] + piece + base[at:]
        texts.append(base)
    return texts


@pytest.mark.parametrize("normalizer", [
    None,
    {"type": "NFKC"},
    {"type": "Sequence", "normalizers": [
        {"type": "Replace", "pattern": {"String": "N"}, "content": "n"},
        {"type": "NFD"}]},
])
def test_added_token_options_match_tokenizers(normalizer):
    hf, em = _pair(_added_json(normalizer))
    texts = _texts_with_added(3)
    for add in (False, True):
        _check_encode(hf, em, texts, add)
    # Special tokens as text (`tokenizers`' encode_special_tokens).
    hf.encode_special_tokens = True
    want = [e.ids for e in hf.encode_batch(texts[:3000])]
    got = [em.encode(t, no_special_token_matching=True) for t in texts[:3000]]
    assert want == got
    # Decoding gives what `tokenizers` gives, the normalized content of
    # normalized tokens included (its id_to_token returns that too).
    hf.encode_special_tokens = False
    lists = [e.ids for e in hf.encode_batch(texts[:3000])]
    for skip in (False, True):
        assert (hf.decode_batch(lists, skip_special_tokens=skip) ==
                em.decode_batch(lists, skip_special_tokens=skip,
                                threads=THREADS))
    for i in range(256, 256 + len(ADDED_CONFIGS)):
        assert em.id_to_token(i) == hf.id_to_token(i)


def test_normalized_tokens_under_lowercase():
    # "NORM" and "Ǆa" are matched (and decoded) as "norm" and "ǆa".
    hf, em = _pair(_added_json({"type": "Lowercase"}))
    texts = _texts_with_added(4, 3000)
    _check_encode(hf, em, texts, False)
    lists = [e.ids for e in hf.encode_batch(texts)]
    for skip in (False, True):
        assert (hf.decode_batch(lists, skip_special_tokens=skip) ==
                em.decode_batch(lists, skip_special_tokens=skip,
                                threads=THREADS))


def _code_points():
    # Every code point of the BMP and of the ranges beyond where Unicode 16
    # assigned letters, marks and digits; every 61st elsewhere (the whole
    # range was measured once; this keeps the test under a few seconds).
    dense = [(0x10000, 0x1FFFF), (0x20000, 0x2000F), (0x2A6D0, 0x2A6FF),
             (0xE0000, 0xE01EF)]
    cps = [c for c in range(0x10000) if not 0xD800 <= c <= 0xDFFF]
    for lo, hi in dense:
        cps += range(lo, hi + 1)
    cps += range(0x20010, 0x10FFFF, 61)
    return [chr(c) for c in sorted(set(cps))]


def _one_token_json(**flags):
    return _byte_level_json([_added("<#>", 256, normalized=False, **flags)])


def _chunked(items, n=2000):
    return ["".join(items[i:i + n]) for i in range(0, len(items), n)]


def test_word_and_space_classes_on_every_code_point():
    """single_word's `\\w` and lstrip/rstrip's `\\s`, on the code points:
    "c<#> " needs c not a word character; " <#>c" the same after; "xc<#>"
    with lstrip takes c when it is whitespace, "<#>cx" with rstrip too."""
    cps = _code_points()
    cases = [
        (dict(single_word=True), [c + "<#> " for c in cps]),
        (dict(single_word=True), [" <#>" + c for c in cps]),
        (dict(lstrip=True), ["x" + c + "<#>" for c in cps]),
        (dict(rstrip=True), ["<#>" + c + "x" for c in cps]),
    ]
    for flags, pieces in cases:
        hf, em = _pair(_one_token_json(**flags))
        texts = _chunked(pieces)
        want = [e.ids for e in hf.encode_batch(texts)]
        got = em.encode_batch(texts, threads=THREADS)
        bad = [i for i, (w, g) in enumerate(zip(want, got)) if w != g]
        assert not bad, (flags, bad[:3])
