"""Text and trained tokenizers shared by the tokenizer tests and
bench/run_tokenizer_bench.py. Everything comes from what is installed:
the Python standard library's sources and docstrings, a fixed set of
multilingual sentences, and text generated from a seeded ``random.Random``
(same seed, same text, on every machine). Nothing is downloaded.

API (small on purpose; import it as ``tokenizer_corpus``):

  SPECIAL               "<|endoftext|>", the GPT-2-style special token
  MULTILINGUAL          sentences in CJK, Korean, RTL (Arabic, Hebrew),
                        Indic, Thai, Cyrillic, Greek, emoji, combining marks
  corpus_lines(limit)   non-empty lines of the stdlib's top-level *.py files
  random_unicode(rng, n)   n code points from ranges chosen to hit every
                        class the tokenizers care about (no surrogates)
  adversarial()         edge cases: empty, whitespace pairs, long runs,
                        special-token look-alikes, byte-token look-alikes
  texts(seed, count)    ``count`` texts mixing all of the above
  KINDS                 the trained tokenizer kinds, below
  trained_json(kind)    a ``tokenizer.json`` (str) trained here with
                        ``tokenizers``' own trainers (cached per process)
  bench_inputs(size)    {"ascii": prose, "cjk": CJK text, "code": Python
                        source}, each about ``size`` UTF-8 bytes

The kinds of ``trained_json`` (each like the real file of its family):

  gpt2       BPE, ByteLevel pre-tokenizer and decoder, ByteLevel
             post-processor, special "<|endoftext|>", added "hello world"
             (normalized) and "World" (not normalized)
  llama      BPE with byte_fallback and fuse_unk, Prepend("▁") +
             Replace(" ", "▁") normalizer, no pre-tokenizer, decoder
             Replace/ByteFallback/Fuse/Strip, "<s> $A" template, <0xAB>
             byte tokens in the vocabulary
  llama3     BPE, NFC, Split(cl100k-like regex) + ByteLevel(no regex),
             ByteLevel decoder, ByteLevel + "<|begin_of_text|> $A"
  wordpiece  BERT: BertNormalizer(lowercase), BertPreTokenizer, WordPiece
             ("##", [UNK]), WordPiece decoder, "[CLS] $A [SEP]" template
  unigram    T5: Replace(" {2,}", " "), WhitespaceSplit +
             Metaspace(always, split), Unigram (<unk>), Metaspace decoder,
             "$A </s>" template (T5's Precompiled charsmap, mostly NFKC,
             cannot be made with the Python API, and iree.runtime 3.13
             refuses an NFKC normalizer: so no Unicode normalization)
"""

from __future__ import annotations

import ast
import functools
import glob
import json
import random
import sysconfig
from pathlib import Path
from typing import Dict, List

__all__ = [
    "SPECIAL", "MULTILINGUAL", "KINDS", "corpus_lines", "random_unicode",
    "adversarial", "texts", "trained_json", "bench_inputs",
]

SPECIAL = "<|endoftext|>"

MULTILINGUAL = [
    "我们今天去公园散步，天气非常好。",
    "東京は日本の首都です。ひらがなとカタカナも使います。",
    "안녕하세요, 만나서 반갑습니다. 한국어 문장입니다.",
    "مرحبا بالعالم، هذه جملة باللغة العربية.",
    "שלום עולם, זה משפט בעברית עם ניקוד: שָׁלוֹם.",
    "नमस्ते दुनिया, यह हिंदी में एक वाक्य है।",
    "สวัสดีชาวโลก นี่คือประโยคภาษาไทย",
    "Привет, мир! Это предложение на русском языке.",
    "Καλημέρα κόσμε, αυτή είναι μια ελληνική πρόταση.",
    "Emoji: 👩‍👩‍👧‍👦 family, 👍🏽 thumbs, 🇫🇷 flag, ❤️ heart, 🤖 robot.",
    "Combining: e\u0301 a\u0300 n\u0303 o\u0308 "
    "Z\u0335\u0336a\u0337l\u0338g\u0334o",
    "Ünïcödé façade naïve café résumé coöperate Ångström",
    "Mixed: English 中文 العربية עברית 日本語 한국어 🙂",
    "Tab\tand\nnewlines\r\nand   multiple    spaces  "
    "\u00a0nbsp\u3000ideographic",
    "全角文字：ＡＢＣ１２３！？　半角ｶﾀｶﾅ ﬁ ﬂ ㍿ ① ⅷ",
    "繁體中文：臺灣的夜市很熱鬧，小吃種類繁多。",
    "كتب الطالبُ الدرسَ ١٢٣٤ في الصباح",
    "Tiếng Việt có nhiều dấu: ắ ằ ẳ ẵ ặ ố ồ ổ ỗ ộ",
]

# Strings each trained kind treats as special somewhere (so that every kind
# meets the others' special tokens as plain text too).
_SPECIAL_LOOKALIKES = [
    SPECIAL, "<s>", "</s>", "<unk>", "<pad>", "[CLS]", "[SEP]", "[UNK]",
    "[MASK]", "[PAD]", "<|begin_of_text|>", "<|eot_id|>",
]


def _stdlib() -> Path:
    return Path(sysconfig.get_paths()["stdlib"])


def corpus_lines(limit: int = 6000) -> List[str]:
    """Non-empty lines (at most 400 characters each) of the standard
    library's top-level ``*.py`` files, in file-name order."""
    lines: List[str] = []
    for path in sorted(_stdlib().glob("*.py")):
        try:
            text = path.read_text(encoding="utf-8")
        except (UnicodeDecodeError, OSError):
            continue
        for line in text.splitlines():
            if line.strip():
                lines.append(line[:400])
        if len(lines) >= limit:
            break
    return lines[:limit]


_RANGES = [(0x20, 0x7E), (0x00, 0x20), (0x80, 0x2FF), (0x300, 0x36F),
           (0x370, 0x6FF), (0x900, 0xDFF), (0x1100, 0x11FF),
           (0x2000, 0x206F), (0x3000, 0x30FF), (0x4E00, 0x9FFF),
           (0xAC00, 0xD7A3), (0xE000, 0xF8FF), (0xFE00, 0xFFFF),
           (0x1F300, 0x1FAFF), (0x10000, 0x10FFFF)]


def random_unicode(rng: random.Random, n: int) -> str:
    """``n`` code points, each from a range picked uniformly from a list
    that covers ASCII, controls, Latin, combining marks, RTL, Indic,
    Hangul jamo, general punctuation, CJK, Hangul syllables, private use,
    specials, emoji and the supplementary planes. Surrogates become
    spaces (a ``str`` holding one cannot be encoded as UTF-8)."""
    out = []
    for _ in range(n):
        lo, hi = rng.choice(_RANGES)
        c = rng.randint(lo, hi)
        if 0xD800 <= c <= 0xDFFF:
            c = 0x20
        out.append(chr(c))
    return "".join(out)


def adversarial() -> List[str]:
    """Edge cases, the same list on every call (about 700 strings)."""
    ws = [" ", "\t", "\n", "\r\n", "\u00a0", "\u0085", "\u2028", "\u3000",
          "\u200b", "\u000b", "\u000c", "\u001c", "\u1680", "\u180e"]
    out = ["", " ", "  ", "\n", " \n ", "a", "'s", "'S", "'ll've're",
           "don't", "I'm", " 's", "a" * 5000, " " * 3000, "ab " * 2000,
           "\u00e9" * 1000, "🙂" * 500, "1234567890" * 100, "x\u0301" * 300,
           SPECIAL * 3, " " + SPECIAL + " ", "a" + SPECIAL + "b",
           "<|endof", "<|endoftext|", "|endoftext|>", "<<|endoftext|>>",
           "<s><s>hello</s>", " <s> hi", "[CLS]x[SEP]", "[cls] [sep]",
           "<0x41>", "<0xZZ>", "▁", "▁▁ ▁", "Ġ", "ĠĠhello", "##ing",
           "\ufeffbom", "\x00\x01\x7f", "hello world",
           "hello worldhello world", "Hello World", "HELLO World!!",
           "a" * 101, "x" + "y" * 200 + " z", "\u0301" * 50,
           "\U0001F3F4\U000E0067\U000E0062\U000E0073\U000E0063\U000E0074"
           "\U000E007F", "\u202e\u202dRTL override", "٣٤٥ ۱۲۳ ௧௨",
           "ﬁﬂ ㎏ ℌ Ⅻ ½", "İstanbul ǅ ß ẞ Σσς", "a\u200db\u200cc",
           "\t\t\tindented:\n\t\treturn x", "    " * 50 + "x"]
    out += _SPECIAL_LOOKALIKES
    out += [f" {s} " for s in _SPECIAL_LOOKALIKES]
    for a in ws:
        for b in ws:
            out.append(f"x{a}{b}y")
            out.append(f"{a}{b}")
            out.append(f"x{a * 3}y{b}")
    return out


def texts(seed: int, count: int = 10000) -> List[str]:
    """``count`` texts (``count`` >= 1000): the adversarial list, then in
    equal thirds of the rest stdlib lines, multilingual sentences joined
    with a stdlib line (by a space, nothing, a newline or a special-token
    look-alike), and random Unicode of 1 to 60 code points."""
    if count < 1000:
        raise ValueError("texts() makes at least 1000 texts")
    rng = random.Random(seed)
    out = adversarial()[:count]
    rest = count - len(out)
    lines = corpus_lines()
    out += rng.sample(lines, min(len(lines), rest // 3))
    seps = [" ", "", "\n", "  "] + _SPECIAL_LOOKALIKES + [" <s> "]
    while len(out) < count - rest // 3:
        parts = [rng.choice(MULTILINGUAL), rng.choice(lines)]
        rng.shuffle(parts)
        out.append(rng.choice(seps).join(parts))
    while len(out) < count:
        out.append(random_unicode(rng, rng.randint(1, 60)))
    return out


KINDS = ("gpt2", "llama", "llama3", "wordpiece", "unigram")

# Llama 3 / tiktoken cl100k's pattern.
LLAMA3_PATTERN = (
    r"(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}{1,3}|"
    r" ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+")


def _training_text() -> List[str]:
    return corpus_lines(4000) + MULTILINGUAL * 20


@functools.lru_cache(maxsize=None)
def trained_json(kind: str) -> str:
    """The ``tokenizer.json`` text of a tokenizer of ``kind`` (one of
    KINDS, described in the module docstring) trained on the stdlib lines
    and the multilingual sentences, vocabulary 3000. Needs ``tokenizers``."""
    import tokenizers
    from tokenizers import (AddedToken, decoders, models, normalizers,
                            pre_tokenizers, processors, trainers)

    if kind == "gpt2":
        tok = tokenizers.Tokenizer(models.BPE())
        tok.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
        tok.decoder = decoders.ByteLevel()
        tok.post_processor = processors.ByteLevel(trim_offsets=True)
        trainer = trainers.BpeTrainer(
            vocab_size=3000, special_tokens=[SPECIAL],
            initial_alphabet=pre_tokenizers.ByteLevel.alphabet(),
            show_progress=False)
        tok.train_from_iterator(_training_text(), trainer)
        tok.add_tokens(["hello world", AddedToken("World", normalized=False)])
        return tok.to_str()
    if kind == "llama":
        tok = tokenizers.Tokenizer(
            models.BPE(unk_token="<unk>", byte_fallback=True, fuse_unk=True))
        tok.normalizer = normalizers.Sequence(
            [normalizers.Prepend("▁"), normalizers.Replace(" ", "▁")])
        tok.decoder = decoders.Sequence([
            decoders.Replace("▁", " "), decoders.ByteFallback(),
            decoders.Fuse(), decoders.Strip(" ", 1, 0)])
        trainer = trainers.BpeTrainer(
            vocab_size=3000, special_tokens=["<unk>", "<s>", "</s>"],
            show_progress=False)
        tok.train_from_iterator(_training_text(), trainer)
        tok.post_processor = processors.TemplateProcessing(
            single="<s> $A", special_tokens=[("<s>", 1)])
        # Byte tokens in the vocabulary only, as in llama's own file.
        data = json.loads(tok.to_str())
        vocab = data["model"]["vocab"]
        for b in range(256):
            vocab.setdefault(f"<0x{b:02X}>", len(vocab))
        return json.dumps(data, ensure_ascii=False)
    if kind == "llama3":
        tok = tokenizers.Tokenizer(models.BPE())
        tok.normalizer = normalizers.NFC()
        tok.pre_tokenizer = pre_tokenizers.Sequence([
            pre_tokenizers.Split(tokenizers.Regex(LLAMA3_PATTERN),
                                 behavior="isolated", invert=False),
            pre_tokenizers.ByteLevel(add_prefix_space=False,
                                     use_regex=False)])
        tok.decoder = decoders.ByteLevel()
        trainer = trainers.BpeTrainer(
            vocab_size=3000,
            special_tokens=["<|begin_of_text|>", "<|eot_id|>"],
            initial_alphabet=pre_tokenizers.ByteLevel.alphabet(),
            show_progress=False)
        tok.train_from_iterator(_training_text(), trainer)
        tok.post_processor = processors.Sequence([
            processors.ByteLevel(trim_offsets=False),
            processors.TemplateProcessing(
                single="<|begin_of_text|> $A",
                special_tokens=[("<|begin_of_text|>", 0)])])
        return tok.to_str()
    if kind == "wordpiece":
        tok = tokenizers.Tokenizer(models.WordPiece(unk_token="[UNK]"))
        tok.normalizer = normalizers.BertNormalizer(lowercase=True)
        tok.pre_tokenizer = pre_tokenizers.BertPreTokenizer()
        tok.decoder = decoders.WordPiece(prefix="##")
        trainer = trainers.WordPieceTrainer(
            vocab_size=3000,
            special_tokens=["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]"],
            show_progress=False)
        tok.train_from_iterator(_training_text(), trainer)
        tok.post_processor = processors.TemplateProcessing(
            single="[CLS] $A [SEP]",
            special_tokens=[("[CLS]", tok.token_to_id("[CLS]")),
                            ("[SEP]", tok.token_to_id("[SEP]"))])
        return tok.to_str()
    if kind == "unigram":
        tok = tokenizers.Tokenizer(models.Unigram())
        tok.normalizer = normalizers.Sequence([
            normalizers.Replace(tokenizers.Regex(" {2,}"), " ")])
        tok.pre_tokenizer = pre_tokenizers.Sequence([
            pre_tokenizers.WhitespaceSplit(),
            pre_tokenizers.Metaspace(replacement="▁",
                                     prepend_scheme="always", split=True)])
        tok.decoder = decoders.Metaspace(replacement="▁",
                                         prepend_scheme="always", split=True)
        trainer = trainers.UnigramTrainer(
            vocab_size=3000, special_tokens=["<pad>", "</s>", "<unk>"],
            unk_token="<unk>", show_progress=False)
        tok.train_from_iterator(_training_text(), trainer)
        tok.post_processor = processors.TemplateProcessing(
            single="$A </s>", special_tokens=[("</s>",
                                               tok.token_to_id("</s>"))])
        return tok.to_str()
    raise ValueError(f"unknown tokenizer kind {kind!r}; one of {KINDS}")


def _repeat_to(parts: List[str], size: int) -> str:
    # Whole parts, in order, cycling, until the text has `size` UTF-8 bytes.
    out, n, i = [], 0, 0
    while n < size and parts:
        p = parts[i % len(parts)]
        out.append(p)
        n += len(p.encode("utf-8"))
        i += 1
    return "".join(out)


def _ascii_prose(size: int) -> List[str]:
    # Docstrings of the stdlib: English prose; only all-ASCII paragraphs.
    paras: List[str] = []
    total = 0
    for path in sorted(_stdlib().glob("**/*.py")):
        if "test" in path.parts or "idlelib" in path.parts:
            continue
        try:
            tree = ast.parse(path.read_text(encoding="utf-8"))
        except (SyntaxError, UnicodeDecodeError, OSError, ValueError):
            continue
        for node in ast.walk(tree):
            if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef,
                                 ast.AsyncFunctionDef)):
                doc = ast.get_docstring(node)
                if doc and doc.isascii() and len(doc) > 200:
                    paras.append(doc + "\n\n")
                    total += len(doc) + 2
        if total >= size:
            break
    return paras


def _cjk() -> List[str]:
    # Vim's tutor in Japanese, Chinese and Korean where Vim's runtime is
    # installed (Debian: vim-runtime); otherwise sentences assembled from
    # the CJK lines above and random common Han/kana/Hangul (diverse words,
    # so no tokenizer's word cache makes it look faster than it is).
    files = []
    for pattern in ("/usr/share/vim/vim*/tutor/tutor.ja.utf-8",
                    "/usr/share/vim/vim*/tutor/tutor.zh*.utf-8",
                    "/usr/share/vim/vim*/tutor/tutor.ko.utf-8"):
        files += sorted(glob.glob(pattern))
    parts = []
    for f in files:
        try:
            parts.append(Path(f).read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError):
            pass
    if sum(map(len, parts)) > 20000:
        return parts
    rng = random.Random(11)
    out = []
    for _ in range(2000):
        n = rng.randint(8, 40)
        words = [chr(rng.choice([rng.randint(0x4E00, 0x62FF),
                                 rng.randint(0x3041, 0x3093),
                                 rng.randint(0xAC00, 0xB7FF)]))
                 for _ in range(n)]
        out.append("".join(words) + rng.choice(["。", "，", "、", "！", "？\n"]))
        if rng.random() < 0.2:
            out.append(rng.choice(MULTILINGUAL[:3]) + "\n")
    return out


def _code(size: int) -> List[str]:
    # Python sources of stdlib packages (not the top-level files the
    # tokenizers are trained on).
    parts = []
    for pkg in ("json", "email", "asyncio", "importlib", "logging",
                "concurrent", "xml", "http", "urllib", "unittest"):
        for path in sorted((_stdlib() / pkg).glob("**/*.py")):
            if "test" in path.parts:
                continue
            try:
                parts.append(path.read_text(encoding="utf-8"))
            except (OSError, UnicodeDecodeError):
                pass
            if sum(map(len, parts)) >= size:
                return parts
    return parts


def bench_inputs(size: int = 1 << 20) -> Dict[str, str]:
    """Three texts of about ``size`` UTF-8 bytes each: "ascii" (English
    docstrings of the stdlib), "cjk" (Japanese, Chinese and Korean prose)
    and "code" (Python sources of stdlib packages)."""
    return {"ascii": _repeat_to(_ascii_prose(size), size),
            "cjk": _repeat_to(_cjk(), size),
            "code": _repeat_to(_code(size), size)}
