"""The WordPiece, Unigram and WordLevel models of ember.runtime.Tokenizer
against HuggingFace ``tokenizers`` (the reference behaviour), token for
token.

Two groups of tokenizers, each trained here with ``tokenizers``' own
trainers on the Python standard library's sources plus multilingual text
(tests/python/tokenizer_corpus.py), each run on >= 10,000 texts (corpus
lines, multilingual mixes, random Unicode, adversarial strings), encoded
with add_special_tokens both ways and decoded with skip_special_tokens both
ways:

* the models on their own: Split pre-tokenizers only, no normalizer, no
  decoder (a decode joins the tokens with spaces), a TemplateProcessing
  post-processor: WordPiece (and the same vocabulary with a small
  max_input_chars_per_word), Unigram with words split before spaces,
  Unigram with no pre-tokenizer at all (a whole text is one word for the
  Viterbi search), Unigram with byte_fallback and <0xAB> pieces, Unigram
  with repeated pieces, WordLevel;
* the full BERT-style (BertNormalizer, BertPreTokenizer, WordPiece,
  WordPiece decoder, [CLS] $A [SEP]) and T5-style (Replace, WhitespaceSplit
  + Metaspace, Unigram, Metaspace decoder, $A </s>) pipelines
  (tokenizer_corpus.trained_json).

Decode is also checked on random id sequences over the whole vocabulary.
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
    Regex,
    models,
    pre_tokenizers,
    processors,
    trainers,
)

import tokenizer_corpus as corpus  # noqa: E402

# Words: runs of letters, of digits, of anything else; spaces dropped.
_WORDS = pre_tokenizers.Sequence([
    pre_tokenizers.Split(Regex(r"\s+"), behavior="removed"),
    pre_tokenizers.Split(Regex(r"\p{L}+|\p{N}+|[^\s\p{L}\p{N}]+"),
                         behavior="isolated"),
])
# Words that keep the space in front of them (as SentencePiece's do).
_SPACED_WORDS = pre_tokenizers.Split(Regex(r" "),
                                     behavior="merged_with_next")


def _template(tok, first, last):
    single = " ".join(x for x in (first, "$A", last) if x)
    special = [(t, tok.token_to_id(t)) for t in (first, last) if t]
    tok.post_processor = processors.TemplateProcessing(
        single=single, special_tokens=special)


def _training_text():
    return corpus.corpus_lines(4000) + corpus.MULTILINGUAL * 20


@functools.lru_cache(maxsize=None)
def _models_only_json(kind):
    """A tokenizer.json exercising one model with components that have
    nothing to undo (no normalizer, no decoder)."""
    text = _training_text()
    if kind.startswith("wordpiece"):
        tok = tokenizers.Tokenizer(models.WordPiece(unk_token="[UNK]"))
        tok.pre_tokenizer = _WORDS
        tok.train_from_iterator(text, trainers.WordPieceTrainer(
            vocab_size=3000,
            special_tokens=["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]"],
            show_progress=False))
        _template(tok, "[CLS]", "[SEP]")
        data = json.loads(tok.to_str())
        if kind == "wordpiece_short":
            data["model"]["max_input_chars_per_word"] = 6
        if kind == "wordpiece_prefix":
            # Another continuing-subword prefix (and a 2-byte one).
            model = data["model"]
            model["continuing_subword_prefix"] = "\u00a7"
            model["vocab"] = {("\u00a7" + k[2:] if k.startswith("##") else k): v
                              for k, v in model["vocab"].items()}
        return json.dumps(data, ensure_ascii=False)
    if kind.startswith("unigram"):
        tok = tokenizers.Tokenizer(models.Unigram())
        if kind != "unigram_whole":
            tok.pre_tokenizer = _SPACED_WORDS
        tok.train_from_iterator(text, trainers.UnigramTrainer(
            vocab_size=3000, special_tokens=["<pad>", "</s>", "<unk>"],
            unk_token="<unk>", show_progress=False))
        _template(tok, None, "</s>")
        data = json.loads(tok.to_str())
        vocab = data["model"]["vocab"]
        low = min(score for _, score in vocab)
        if kind == "unigram_bytes":
            # SentencePiece's byte pieces, scored below everything; the
            # characters the training text lacks fall back to them.
            vocab += [[f"<0x{b:02X}>", low - 1.0] for b in range(256)]
            data["model"]["byte_fallback"] = True
        if kind == "unigram_repeats":
            # Repeated pieces: `tokenizers` maps a piece to its last id and
            # scores it with that id's score.
            rng = random.Random(5)
            for piece, score in rng.sample(vocab[3:], 300):
                vocab.append([piece, score + rng.choice([-3.0, 0.5, 2.0])])
        return json.dumps(data, ensure_ascii=False)
    if kind == "wordlevel":
        tok = tokenizers.Tokenizer(models.WordLevel(unk_token="[UNK]"))
        tok.pre_tokenizer = _WORDS
        tok.train_from_iterator(text, trainers.WordLevelTrainer(
            vocab_size=3000, special_tokens=["[UNK]", "[CLS]", "[SEP]"],
            show_progress=False))
        _template(tok, "[CLS]", "[SEP]")
        return tok.to_str()
    raise ValueError(kind)


MODELS_ONLY = ["wordpiece", "wordpiece_short", "wordpiece_prefix", "unigram",
               "unigram_whole", "unigram_bytes", "unigram_repeats",
               "wordlevel"]
MODEL_TYPE = {"wordpiece": "WordPiece", "unigram": "Unigram",
              "wordlevel": "WordLevel"}


def _pair(text_json):
    return (tokenizers.Tokenizer.from_str(text_json),
            rt.Tokenizer.from_huggingface_json(text_json))


def _check_encode(hf, em, texts, add_special_tokens):
    want = [e.ids for e in hf.encode_batch(
        texts, add_special_tokens=add_special_tokens)]
    # One call per text: encode_batch has its own test below.
    got = [em.encode(t, add_special_tokens=add_special_tokens)
           for t in texts]
    bad = [(t, w, g) for t, w, g in zip(texts, want, got) if w != g]
    assert not bad, f"{len(bad)} of {len(texts)} differ; first: {bad[:3]!r}"
    return want


def _check_decode(hf, em, id_lists):
    for skip in (False, True):
        want = hf.decode_batch(id_lists, skip_special_tokens=skip)
        got = [em.decode(ids, skip_special_tokens=skip) for ids in id_lists]
        bad = [(i, w, g) for i, w, g in zip(id_lists, want, got) if w != g]
        assert not bad, f"skip={skip}: {len(bad)} differ; first: {bad[:3]!r}"


def _check_vocab(hf, em):
    assert em.vocab_size == hf.get_vocab_size()
    for i in range(hf.get_vocab_size(with_added_tokens=False)):
        token = hf.id_to_token(i)
        assert em.id_to_token(i) == token, i
        if token is not None:
            assert em.token_to_id(token) == hf.token_to_id(token), token


def _random_ids(hf, seed, count=2000):
    rng = random.Random(seed)
    n = hf.get_vocab_size()
    return [[rng.randrange(n) for _ in range(rng.randint(0, 40))]
            for _ in range(count)]


def _differential(text_json, seed):
    hf, em = _pair(text_json)
    texts = corpus.texts(seed, 10000)
    assert len(texts) >= 10000
    plain = _check_encode(hf, em, texts, add_special_tokens=False)
    with_special = _check_encode(hf, em, texts, add_special_tokens=True)
    # The ids must not be trivial: most texts give several tokens, and the
    # vocabulary is used widely.
    assert sum(map(len, plain)) > 5 * len(texts)
    assert len({i for ids in plain for i in ids}) > 1000
    _check_decode(hf, em, plain)
    _check_decode(hf, em, with_special)
    _check_decode(hf, em, _random_ids(hf, seed))
    _check_vocab(hf, em)
    return hf, em, plain


@pytest.mark.parametrize("kind", MODELS_ONLY)
def test_model_alone_matches_tokenizers(kind):
    hf, em, plain = _differential(_models_only_json(kind),
                                  seed=MODELS_ONLY.index(kind) + 100)
    assert em.model_type == MODEL_TYPE[kind.split("_")[0]]
    unk = {"wordpiece": "[UNK]", "wordlevel": "[UNK]"}.get(
        kind.split("_")[0], "<unk>")
    unk_id = hf.token_to_id(unk)
    # The unknown path is exercised (random Unicode has characters the
    # training text lacks), except where byte fallback covers them all.
    used = {i for ids in plain for i in ids}
    if kind == "unigram_bytes":
        assert hf.token_to_id("<0xF0>") in used
    else:
        assert unk_id in used


@pytest.mark.parametrize("kind", ["wordpiece", "unigram"])
def test_full_pipeline_matches_tokenizers(kind):
    # BERT-style and T5-style files need their normalizers, pre-tokenizers,
    # post-processors and decoders besides the model.
    _differential(corpus.trained_json(kind),
                  seed=200 + ["wordpiece", "unigram"].index(kind))


def test_unigram_without_unk_id_fails_like_tokenizers():
    data = json.loads(_models_only_json("unigram"))
    data["model"]["unk_id"] = None
    text_json = json.dumps(data, ensure_ascii=False)
    hf, em = _pair(text_json)
    assert em.encode("def main():") == hf.encode(
        "def main():", add_special_tokens=False).ids
    with pytest.raises(Exception):
        hf.encode("\U0010FFFD")
    with pytest.raises(ValueError):
        em.encode("\U0010FFFD")


def test_models_are_thread_safe():
    # Unigram's per-thread Viterbi buffer and the shared tries: encode_batch
    # on every core gives what one thread gives.
    for kind in ("unigram_whole", "wordpiece"):
        em = rt.Tokenizer.from_huggingface_json(_models_only_json(kind))
        texts = corpus.texts(7, 2000)
        one = [em.encode(t) for t in texts]
        assert em.encode_batch(texts) == one


@pytest.mark.parametrize("model", [
    {"type": "WordPiece", "unk_token": "[UNK]",
     "continuing_subword_prefix": "##", "max_input_chars_per_word": 100,
     "vocab": {"[UNK]": 0, "a": 0}},
    {"type": "Unigram", "unk_id": 2, "vocab": [["<unk>", 0], ["a", -1]]},
    {"type": "Unigram", "unk_id": 0, "vocab": [["<unk>", 0], ["a", "x"]]},
    {"type": "WordLevel", "vocab": {"a": 0}},
])
def test_bad_models_are_value_errors(model):
    data = {"version": "1.0", "truncation": None, "padding": None,
            "added_tokens": [], "normalizer": None, "pre_tokenizer": None,
            "post_processor": None, "decoder": None, "model": model}
    with pytest.raises(ValueError):
        rt.Tokenizer.from_huggingface_json(json.dumps(data))
