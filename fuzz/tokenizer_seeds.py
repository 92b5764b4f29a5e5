#!/usr/bin/env python3
"""Writes small HuggingFace tokenizer.json files as seeds for
tokenizer_loader_fuzzer (and tokenizer_encode_fuzzer, which ignores them).

    python3 fuzz/tokenizer_seeds.py OUT_DIR

Written from scratch here with the json module (no tokenizers package, no
file from anywhere): each seed exercises a different part of the loader
that docs/tokenizer.md describes -- byte-level BPE with the ByteLevel
pre-tokenizer and decoder, byte-fallback BPE with Prepend/Replace
normalizers and the ByteFallback/Fuse/Strip decoders, Split pre-tokenizers
of every behaviour, a template post-processor, added tokens, both merge
spellings, a BERT-style WordPiece, a T5-style Unigram with byte fallback,
a WordLevel with CTC decoding and stripping added tokens, truncation and
padding -- plus a few the loader must refuse (an unknown component, a
merge of unknown tokens, an id out of range).
"""

import json
import sys
from pathlib import Path


def byte_level_alphabet():
    """GPT-2's byte-to-character table: printable bytes stand for
    themselves, the others are moved above U+0100."""
    keep = (list(range(ord("!"), ord("~") + 1)) +
            list(range(0xA1, 0xAC + 1)) + list(range(0xAE, 0xFF + 1)))
    chars, extra = {}, 0
    for byte in range(256):
        if byte in keep:
            chars[byte] = chr(byte)
        else:
            chars[byte] = chr(256 + extra)
            extra += 1
    return chars


def bpe(vocab, merges, **options):
    model = {"type": "BPE", "dropout": None, "unk_token": None,
             "continuing_subword_prefix": None, "end_of_word_suffix": None,
             "fuse_unk": False, "byte_fallback": False,
             "ignore_merges": False, "vocab": vocab, "merges": merges}
    model.update(options)
    return model


def tokenizer(model, normalizer=None, pre_tokenizer=None,
              post_processor=None, decoder=None, added_tokens=()):
    return {"version": "1.0", "truncation": None, "padding": None,
            "added_tokens": list(added_tokens), "normalizer": normalizer,
            "pre_tokenizer": pre_tokenizer, "post_processor": post_processor,
            "decoder": decoder, "model": model}


def added(token_id, content, special=True, normalized=False):
    return {"id": token_id, "content": content, "single_word": False,
            "lstrip": False, "rstrip": False, "normalized": normalized,
            "special": special}


def seeds():
    table = byte_level_alphabet()
    space = table[ord(" ")]
    byte_vocab = {table[b]: b for b in range(256)}
    words = ["he", "ll", "hell", "hello", space + "w", space + "wo",
             "or", "ld", space + "world"]
    vocab = dict(byte_vocab)
    for word in words:
        vocab.setdefault(word, len(vocab))
    merges = ["h e", "l l", "he ll", "hell o", f"{space} w", f"{space}w o",
              "o r", "l d"]
    byte_level = {"type": "ByteLevel", "add_prefix_space": False,
                  "trim_offsets": True, "use_regex": True}
    yield "gpt2_style", tokenizer(
        bpe(vocab, merges), pre_tokenizer=byte_level, decoder=byte_level,
        added_tokens=[added(len(vocab), "<|endoftext|>")])

    yield "pair_merges_prefix_space", tokenizer(
        bpe(vocab, [m.split(" ") for m in merges], ignore_merges=True),
        pre_tokenizer=dict(byte_level, add_prefix_space=True),
        decoder=byte_level,
        post_processor={"type": "ByteLevel", "add_prefix_space": True,
                        "trim_offsets": False, "use_regex": True})

    split_seq = {"type": "Sequence", "pretokenizers": [
        {"type": "Split", "pattern": {"Regex": r"\p{N}{1,3}"},
         "behavior": "Isolated", "invert": False},
        dict(byte_level, use_regex=False)]}
    yield "llama3_style", tokenizer(
        bpe(vocab, merges, ignore_merges=True), pre_tokenizer=split_seq,
        decoder=byte_level,
        post_processor={"type": "TemplateProcessing",
                        "single": [{"SpecialToken": {"id": "<s>",
                                                     "type_id": 0}},
                                   {"Sequence": {"id": "A", "type_id": 0}}],
                        "pair": [{"Sequence": {"id": "A", "type_id": 0}},
                                 {"Sequence": {"id": "B", "type_id": 1}}],
                        "special_tokens": {"<s>": {"id": "<s>",
                                                   "ids": [len(vocab)],
                                                   "tokens": ["<s>"]}}},
        added_tokens=[added(len(vocab), "<s>")])

    for behavior in ("Removed", "Isolated", "MergedWithPrevious",
                     "MergedWithNext", "Contiguous"):
        yield f"split_{behavior.lower()}", tokenizer(
            bpe(vocab, merges),
            pre_tokenizer={"type": "Split", "pattern": {"String": " "},
                           "behavior": behavior,
                           "invert": behavior == "Contiguous"},
            decoder=byte_level)

    fallback_vocab = {"<unk>": 0, "<s>": 1, "</s>": 2}
    for byte in range(256):
        fallback_vocab[f"<0x{byte:02X}>"] = len(fallback_vocab)
    for piece in ["\u2581", "a", "b", "\u2581a", "ab", "\u2581ab"]:
        fallback_vocab[piece] = len(fallback_vocab)
    yield "llama_byte_fallback", tokenizer(
        bpe(fallback_vocab, ["\u2581 a", "a b", "\u2581a b"],
            unk_token="<unk>", fuse_unk=True, byte_fallback=True),
        normalizer={"type": "Sequence", "normalizers": [
            {"type": "Prepend", "prepend": "\u2581"},
            {"type": "Replace", "pattern": {"String": " "},
             "content": "\u2581"}]},
        decoder={"type": "Sequence", "decoders": [
            {"type": "Replace", "pattern": {"String": "\u2581"},
             "content": " "},
            {"type": "ByteFallback"}, {"type": "Fuse"},
            {"type": "Strip", "content": " ", "start": 1, "stop": 0}]},
        added_tokens=[added(0, "<unk>"), added(1, "<s>"), added(2, "</s>")])

    yield "nfkc_regex_replace", tokenizer(
        bpe(vocab, merges),
        normalizer={"type": "Sequence", "normalizers": [
            {"type": "NFKC"},
            {"type": "Replace", "pattern": {"Regex": r"\s+"},
             "content": " "}]},
        pre_tokenizer=byte_level, decoder=byte_level,
        added_tokens=[added(len(vocab), "<pad>", special=False,
                            normalized=True)])

    # WordPiece, BERT style: BertNormalizer, BertPreTokenizer, the
    # BertProcessing post-processor and the WordPiece decoder.
    wp_vocab = {"[PAD]": 0, "[UNK]": 1, "[CLS]": 2, "[SEP]": 3}
    for piece in ["h", "e", "l", "o", "w", "r", "d", "##e", "##l", "##o",
                  "##llo", "he", "hello", "world", "!", "\u4e2d"]:
        wp_vocab.setdefault(piece, len(wp_vocab))
    yield "bert_wordpiece", tokenizer(
        {"type": "WordPiece", "unk_token": "[UNK]",
         "continuing_subword_prefix": "##", "max_input_chars_per_word": 100,
         "vocab": wp_vocab},
        normalizer={"type": "BertNormalizer", "clean_text": True,
                    "handle_chinese_chars": True, "strip_accents": None,
                    "lowercase": True},
        pre_tokenizer={"type": "BertPreTokenizer"},
        post_processor={"type": "BertProcessing", "sep": ["[SEP]", 3],
                        "cls": ["[CLS]", 2]},
        decoder={"type": "WordPiece", "prefix": "##", "cleanup": True},
        added_tokens=[added(i, t) for t, i in list(wp_vocab.items())[:4]])

    # Unigram, T5 style: Metaspace pre-tokenizer and decoder, byte fallback,
    # a template that appends "</s>".
    pieces = [["<pad>", 0.0], ["</s>", 0.0], ["<unk>", 0.0]]
    pieces += [[f"<0x{b:02X}>", -20.0] for b in range(256)]
    pieces += [["\u2581", -2.0], ["\u2581he", -3.0], ["llo", -3.5],
               ["\u2581hello", -4.0], ["h", -5.0], ["e", -5.0],
               ["l", -5.0], ["o", -5.0], ["\u2581w", -4.5],
               ["orld", -4.0]]
    metaspace = {"type": "Metaspace", "replacement": "\u2581",
                 "prepend_scheme": "always", "split": True}
    yield "t5_unigram", tokenizer(
        {"type": "Unigram", "unk_id": 2, "byte_fallback": True,
         "vocab": pieces},
        normalizer={"type": "Sequence", "normalizers": [
            {"type": "Nmt"}, {"type": "NFKC"}, {"type": "Lowercase"},
            {"type": "Strip", "strip_left": True, "strip_right": True},
            {"type": "StripAccents"}]},
        pre_tokenizer={"type": "Sequence", "pretokenizers": [
            {"type": "WhitespaceSplit"}, {"type": "Digits",
                                          "individual_digits": True},
            {"type": "Punctuation", "behavior": "Isolated"}, metaspace]},
        post_processor={"type": "TemplateProcessing",
                        "single": [{"Sequence": {"id": "A", "type_id": 0}},
                                   {"SpecialToken": {"id": "</s>",
                                                     "type_id": 0}}],
                        "pair": [{"Sequence": {"id": "A", "type_id": 0}},
                                 {"Sequence": {"id": "B", "type_id": 1}}],
                        "special_tokens": {"</s>": {"id": "</s>",
                                                    "ids": [1],
                                                    "tokens": ["</s>"]}}},
        decoder={"type": "Sequence", "decoders": [
            {"type": "ByteFallback"}, metaspace]},
        added_tokens=[added(0, "<pad>"), added(1, "</s>"),
                      added(2, "<unk>")])

    # WordLevel with the Whitespace pre-tokenizer, a CTC decoder and added
    # tokens that strip the whitespace around them.
    wl_vocab = {"<unk>": 0, "<pad>": 1, "hello": 2, "world": 3, "!": 4,
                "|": 5}
    lstrip = dict(added(6, "<mask>"), lstrip=True, rstrip=True)
    yield "wordlevel_ctc", tokenizer(
        {"type": "WordLevel", "unk_token": "<unk>", "vocab": wl_vocab},
        pre_tokenizer={"type": "Whitespace"},
        post_processor={"type": "RobertaProcessing", "sep": ["|", 5],
                        "cls": ["<pad>", 1], "trim_offsets": True,
                        "add_prefix_space": False},
        decoder={"type": "CTC", "pad_token": "<pad>",
                 "word_delimiter_token": "|", "cleanup": True},
        added_tokens=[added(1, "<pad>"), lstrip,
                      dict(added(7, "hi", special=False),
                           single_word=True)])

    # Truncation (left, special tokens counted) and padding to a multiple,
    # with NFC and Metaspace "first" (the alignment path) in front.
    truncated = tokenizer(
        bpe(vocab, merges), normalizer={"type": "NFC"},
        pre_tokenizer={"type": "Metaspace", "replacement": space,
                       "prepend_scheme": "first", "split": True},
        post_processor={"type": "BertProcessing", "sep": ["ld", vocab["ld"]],
                        "cls": ["he", vocab["he"]]},
        decoder=byte_level)
    truncated["truncation"] = {"direction": "Left", "max_length": 6,
                               "strategy": "LongestFirst", "stride": 1}
    truncated["padding"] = {"strategy": "BatchLongest", "direction": "Right",
                            "pad_to_multiple_of": 4, "pad_id": 0,
                            "pad_type_id": 0, "pad_token": table[0]}
    yield "truncation_padding_alignments", truncated

    # Refused: each must load with a clear error.
    yield "refused_unknown_model", tokenizer({"type": "Mystery"})
    yield "refused_merge_of_unknown_tokens", tokenizer(
        bpe({"a": 0}, ["a z"]), pre_tokenizer=byte_level)
    yield "refused_added_id_out_of_range", tokenizer(
        bpe({"a": 0}, []), added_tokens=[added(1 << 40, "<x>")])


def main():
    out = Path(sys.argv[1])
    out.mkdir(parents=True, exist_ok=True)
    for name, document in seeds():
        (out / f"{name}.json").write_text(
            json.dumps(document, ensure_ascii=False, indent=1),
            encoding="utf-8")


if __name__ == "__main__":
    main()
