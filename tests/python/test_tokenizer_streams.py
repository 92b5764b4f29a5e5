"""``Tokenizer.encode_stream`` and ``decode_stream`` against the one-shot
``encode`` / ``decode``, and the stream API against iree.runtime 3.13's.

Streaming encode must equal one-shot encode for every way of cutting the
text: every chunk size from 1 character up on a few hundred texts chosen to
stress the word boundaries (pathological whitespace runs, contractions cut
in half, special tokens cut anywhere, CJK, emoji), and random chunkings of
10,000 texts, on tokenizers of each kind: GPT-2 byte-level BPE (the
word-by-word path, with and without add_prefix_space, with and without
a normalized added token), llama (added tokens only), Llama-3 (NFC: added
tokens only; without a normalizer, as Llama 3's own file: word by word),
T5-style
Unigram (Metaspace; with prepend_scheme "first", encoded at finalize), and
tiktoken cl100k/o200k/r50k encodings of a rank file made from a trained
BPE (the word-by-word path through the tiktoken regexes). The test also
checks that the word-by-word path really holds back only the last words
(bounded memory), and the API details iree.runtime 3.13 has: errors after
finalize, context managers, str-only chunks, special_ids' keys.
"""

from __future__ import annotations

import base64
import json
import random

import pytest

tokenizers = pytest.importorskip("tokenizers")

import ember.runtime as rt  # noqa: E402

if getattr(__import__("ember._ember", fromlist=["_"]), "_Tokenizer",
           None) is None:
    pytest.skip("this build has no tokenizer layer", allow_module_level=True)

import tokenizer_corpus as tc  # noqa: E402


def _byte_decoder():
    # GPT-2's printable-character table, inverted (character -> byte).
    bs = (list(range(ord("!"), ord("~") + 1)) +
          list(range(ord("\u00a1"), ord("\u00ac") + 1)) +
          list(range(ord("\u00ae"), ord("\u00ff") + 1)))
    cs = bs[:]
    n = 0
    for b in range(256):
        if b not in bs:
            bs.append(b)
            cs.append(256 + n)
            n += 1
    return {chr(c): b for b, c in zip(bs, cs)}


def rank_file_from_trained_bpe():
    """A tiktoken rank file (text) and its ranks (bytes -> rank) made from
    the GPT-2-style BPE trained by ``tokenizer_corpus``: its tokens in id
    order (bytes first, then merges in the order they were learned)."""
    decoder = _byte_decoder()
    vocab = json.loads(tc.trained_json("gpt2"))["model"]["vocab"]
    ranks = {}
    for token, _ in sorted(vocab.items(), key=lambda kv: kv[1]):
        if token == tc.SPECIAL:
            continue
        ranks[bytes(decoder[c] for c in token)] = len(ranks)
    text = "".join(f"{base64.b64encode(b).decode()} {r}\n"
                   for b, r in ranks.items())
    return text, ranks


def _gpt2_variant(add_prefix_space=False, normalized_added=True):
    data = json.loads(tc.trained_json("gpt2"))
    data["pre_tokenizer"]["add_prefix_space"] = add_prefix_space
    if not normalized_added:
        data["added_tokens"] = [t for t in data["added_tokens"]
                                if not t["normalized"]]
    return json.dumps(data, ensure_ascii=False)


def _make(kind):
    if kind.startswith("tiktoken-"):
        text, _ = rank_file_from_trained_bpe()
        return rt.Tokenizer.from_tiktoken(text, kind[len("tiktoken-"):])
    if kind == "gpt2-words":
        return rt.Tokenizer.from_huggingface_json(
            _gpt2_variant(normalized_added=False))
    if kind == "gpt2-prefix-words":
        return rt.Tokenizer.from_huggingface_json(
            _gpt2_variant(add_prefix_space=True, normalized_added=False))
    if kind == "llama3-words":
        # Llama 3's own file has no normalizer: its Split regex then
        # streams word by word.
        data = json.loads(tc.trained_json("llama3"))
        data["normalizer"] = None
        return rt.Tokenizer.from_huggingface_json(json.dumps(data))
    if kind == "unigram-first":
        # Metaspace's prepend_scheme "first" looks at where a piece starts:
        # the stream encodes everything at finalize.
        data = json.loads(tc.trained_json("unigram"))
        for step in data["pre_tokenizer"]["pretokenizers"]:
            if step["type"] == "Metaspace":
                step["prepend_scheme"] = "first"
        data["decoder"]["prepend_scheme"] = "first"
        return rt.Tokenizer.from_huggingface_json(json.dumps(data))
    return rt.Tokenizer.from_huggingface_json(tc.trained_json(kind))


KINDS = ["gpt2", "gpt2-words", "gpt2-prefix-words", "llama", "llama3",
         "llama3-words", "unigram", "unigram-first", "tiktoken-cl100k_base",
         "tiktoken-o200k_base", "tiktoken-r50k_base"]
# The kinds whose words are emitted as they settle (the rest emit at
# added tokens).
WORD_KINDS = ["gpt2-words", "gpt2-prefix-words", "llama3-words",
              "tiktoken-cl100k_base",
              "tiktoken-o200k_base", "tiktoken-r50k_base"]


@pytest.fixture(scope="module")
def tokenizers_by_kind():
    return {kind: _make(kind) for kind in KINDS}


def _stream(tok, chunks, **options):
    out = []
    with tok.encode_stream(**options) as stream:
        for chunk in chunks:
            out += stream.feed(chunk)
        out += stream.finalize()
    return out


def _hard_texts():
    ws = [" ", "  ", "\t", "\n", "\r\n", "\n\n", " \n ", "\u00a0", "\u3000",
          "\u2028", "\u0085", "\u000b"]
    out = [
        "Hello world, this is a test.   And more  text\n\nhere.",
        "don't you've we'll they're I'm he'd it's DON'T YOU'VE WE'LL",
        "x'" + "l" * 3 + " y's 'S 'Ll",
        "a" + " " * 40 + "b" + " " * 40 + "\n" + " " * 40 + "c",
        "\n" + " " * 60 + "\n" + " " * 30 + "x",
        " " * 50, "\n" * 30, "\t \n" * 20 + "end",
        "12345678901234567890 1,234.5 ١٢٣٤٥",
        "CamelCaseWordsAndMORECAPSwithLower IPhone McDonald's",
        "我们今天去公园散步，天气非常好。" * 3,
        "Emoji: 👩‍👩‍👧‍👦 👍🏽 🇫🇷 ❤️ 🤖" * 2,
        "e\u0301 a\u0300 n\u0303 Z\u0335\u0336a\u0337l\u0338g\u0334o",
        tc.SPECIAL + "hello" + tc.SPECIAL + " " + tc.SPECIAL,
        "<|endof" + "text|> <|endoftext <|<|endoftext|>|>",
        "<|endofprompt|><|fim_prefix|>x<|fim_suffix|>y<|fim_middle|>",
        "hello world hello worldhello world World Worlds",
        "<s> hi </s><unk>[CLS]<|begin_of_text|>",
        "def f(x):\n    return x  # comment\n\n\nclass A:\n\tpass\n",
        "a/b//c///d ./../ \r\n\r\n\r\n x",
    ]
    for a in ws:
        for b in ws:
            out.append(f"x{a}{b}y{a * 5}z{b * 9}")
    return out


@pytest.mark.parametrize("kind", KINDS)
def test_every_chunk_size_equals_encode(tokenizers_by_kind, kind):
    tok = tokenizers_by_kind[kind]
    rng = random.Random(5)
    short = [t for t in tc.texts(11, 1000) if len(t) <= 120]
    texts = _hard_texts() + rng.sample(short, 150)
    for text in texts:
        for options in ({}, {"add_special_tokens": True},
                        {"no_special_token_matching": True}):
            want = tok.encode(text, **options)
            for size in range(1, len(text) + 1):
                chunks = [text[i:i + size]
                          for i in range(0, len(text), size)]
                got = _stream(tok, chunks, **options)
                assert got == want, (kind, text, options, size)
            # No text at all, and empty chunks.
            assert _stream(tok, ["", text, ""], **options) == want


@pytest.mark.parametrize("kind", KINDS)
def test_long_runs_in_small_chunks_equal_encode(tokenizers_by_kind, kind):
    # Long words and whitespace runs are held whole until they end.
    tok = tokenizers_by_kind[kind]
    for text in ["a" * 1500, " " * 1500 + "x", "ab " * 500, "\n" * 700,
                 "x" + " \t" * 400 + "\n" * 3 + " y", "1234567890" * 100,
                 "\u00e9" * 500, "🙂" * 300, "x\u0301" * 300]:
        want = tok.encode(text)
        for size in (1, 2, 3, 7, 64, 333):
            chunks = [text[i:i + size] for i in range(0, len(text), size)]
            assert _stream(tok, chunks) == want, (kind, text[:20], size)


@pytest.mark.parametrize("kind", KINDS)
def test_random_chunkings_equal_encode(tokenizers_by_kind, kind):
    tok = tokenizers_by_kind[kind]
    rng = random.Random(kind)
    texts = tc.texts(3, 10000)
    for text in texts:
        cuts = sorted(rng.sample(range(len(text) + 1),
                                 min(len(text) + 1, rng.randint(0, 12))))
        chunks = [text[a:b] for a, b in zip([0] + cuts, cuts + [len(text)])]
        assert _stream(tok, chunks) == tok.encode(text), (kind, text, cuts)


@pytest.mark.parametrize("kind", WORD_KINDS)
def test_word_streams_hold_back_only_the_last_words(tokenizers_by_kind,
                                                    kind):
    # Fed line by line, a long text comes out as it goes: after each line
    # the ids still held back are those of the last few words.
    tok = tokenizers_by_kind[kind]
    lines = tc.corpus_lines(400)
    text = "\n".join(lines)
    want = tok.encode(text)
    got, emitted_after = [], []
    with tok.encode_stream() as stream:
        for line in lines:
            got += stream.feed(line + "\n")
            emitted_after.append(len(got))
        got += stream.finalize()
    assert got[:len(want)] == want[:len(got)]
    tok_ids_line_ends = []
    running = ""
    for line in lines:
        running += line + "\n"
        tok_ids_line_ends.append(len(tok.encode(running)))
    for held, total in zip(emitted_after, tok_ids_line_ends):
        assert total - held <= 64, (kind, total, held)
    assert got == tok.encode(text + "\n")


def test_non_word_pipelines_emit_at_added_tokens(tokenizers_by_kind):
    tok = tokenizers_by_kind["llama3"]
    with tok.encode_stream() as stream:
        first = stream.feed("some text<|begin_of_text|>more")
        assert first == tok.encode("some text<|begin_of_text|>")
        rest = stream.finalize()
    assert first + rest == tok.encode("some text<|begin_of_text|>more")


def test_stream_api_matches_iree_313(tokenizers_by_kind):
    tok = tokenizers_by_kind["gpt2"]
    stream = tok.encode_stream()
    assert isinstance(stream, rt.TokenizerEncodeStream)
    assert stream.feed("hello") + stream.finalize() == tok.encode("hello")
    with pytest.raises(ValueError, match="Cannot feed after finalize"):
        stream.feed("x")
    with pytest.raises(ValueError, match="Already finalized"):
        stream.finalize()
    with tok.encode_stream() as s2:
        s2.feed("abc")
    with pytest.raises(ValueError, match="Cannot feed after finalize"):
        s2.feed("x")
    with pytest.raises(TypeError):
        tok.encode_stream().feed(b"bytes")
    with pytest.raises(TypeError):
        rt.TokenizerEncodeStream()
    d = tok.decode_stream()
    d.feed_one(5)
    d.finalize()
    with pytest.raises(ValueError, match="Cannot feed after finalize"):
        d.feed([1])
    with pytest.raises(ValueError, match="Cannot feed after finalize"):
        d.feed_one(1)
    with pytest.raises(ValueError, match="Already finalized"):
        d.finalize()
    with tok.decode_stream() as d2:
        d2.feed([5])
    with pytest.raises(ValueError, match="Cannot feed after finalize"):
        d2.feed([6])
    with pytest.raises(ValueError):
        tok.encode_stream().feed("a\ud800b")


@pytest.mark.parametrize("kind,unk", [("gpt2", None), ("llama", "<unk>"),
                                      ("wordpiece", "[UNK]"),
                                      ("unigram", "<unk>")])
def test_special_ids_like_iree_313(kind, unk):
    data = json.loads(tc.trained_json(kind))
    data["normalizer"] = None  # only the model matters here
    tok = rt.Tokenizer.from_huggingface_json(json.dumps(data))
    ids = tok.special_ids
    assert list(ids) == ["bos", "eos", "unk", "pad", "sep", "cls", "mask"]
    want = None if unk is None else tok.token_to_id(unk)
    assert ids["unk"] == want
    assert all(ids[k] is None for k in ids if k != "unk")


def test_stream_ids_agree_with_iree_313_api_types(tokenizers_by_kind):
    tok = tokenizers_by_kind["tiktoken-cl100k_base"]
    with tok.encode_stream() as s:
        out = s.feed("Hello, world! " * 4)
        assert isinstance(out, list) and all(isinstance(i, int) for i in out)
        assert isinstance(s.finalize(), list)
    d = tok.decode_stream()
    assert isinstance(d.feed(tok.encode("Hi")), str)


def test_batches_from_many_threads_and_after_fork(tokenizers_by_kind):
    # encode_batch's workers outlive a batch (warm per-thread caches): one
    # batch uses them at a time, a concurrent one starts its own threads,
    # and a forked child (which has none of the parent's threads) makes its
    # own. All give encode's ids.
    import os
    import threading

    tok = tokenizers_by_kind["tiktoken-cl100k_base"]
    docs = tc.texts(23, 1000)
    want = [tok.encode(d) for d in docs]
    results, errors = [], []

    def run():
        try:
            for _ in range(3):
                results.append(tok.encode_batch(docs, threads=2))
        except Exception as e:  # noqa: BLE001 -- reported below
            errors.append(e)

    threads = [threading.Thread(target=run) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors
    assert len(results) == 12 and all(r == want for r in results)

    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: a batch on two threads, then report
        ok = tok.encode_batch(docs, threads=2) == want
        os.write(write, b"1" if ok else b"0")
        os._exit(0)
    os.close(write)
    import select
    ready, _, _ = select.select([read], [], [], 60)
    assert ready, "encode_batch in a forked child hung"
    assert os.read(read, 1) == b"1"
    os.waitpid(pid, 0)
    os.close(read)
