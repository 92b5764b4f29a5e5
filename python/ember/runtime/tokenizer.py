"""``Tokenizer``, ``TokenizerEncodeStream`` and ``TokenizerDecodeStream``:
iree.runtime 3.12+'s tokenizers, token-for-token as HuggingFace
``tokenizers`` for the same ``tokenizer.json``.

What a ``tokenizer.json`` may hold is listed in docs/tokenizer.md
"Coverage"; a file with any other component is refused at load with
``NotImplementedError`` naming it, never approximated.
tiktoken rank files (``from_tiktoken``, ``from_file`` on
``<encoding>.tiktoken``) give ``tiktoken``'s ids; ``encode_stream`` returns
ids as soon as more text cannot change them (docs/tokenizer.md "Streaming
encode").

Beyond iree.runtime: ``encode_batch`` / ``decode_batch`` run on every core
with the GIL released (so do ``encode`` and ``decode``). Errors: malformed
files and text are ``ValueError``, an id not in the vocabulary in
``decode`` is ``IndexError`` (``tokenizers`` and iree.runtime 3.13 drop it
silently), text with a lone surrogate is ``ValueError`` (3.13: TypeError);
``bytes`` are accepted where 3.13 takes ``str`` file contents. The streams
raise ``ValueError`` when used after ``finalize``, as 3.13's do.
"""

from __future__ import annotations

import os
from typing import Any, List, NoReturn, Optional, Sequence, Tuple, Union

from ember import _ember

__all__ = ["Encoding", "Tokenizer", "TokenizerDecodeStream",
           "TokenizerEncodeStream"]

_Native = getattr(_ember, "_Tokenizer", None)


def _unimplemented(name: str, why: str = "") -> NoReturn:
    raise NotImplementedError(
        f"ember.runtime.{name} is not implemented yet"
        + (f": {why}" if why else "")
        + "; use iree.runtime or the tokenizers package")


def _require_native(name: str) -> None:
    if _Native is None:
        _unimplemented(
            name, "this build of Ember has no tokenizer (it was built "
            "without PCRE2, utf8proc and simdjson)")


class Encoding:
    """What ``Tokenizer.encode_full`` returns: one entry per token in each
    list, with ``tokenizers``' names."""

    __slots__ = ("ids", "type_ids", "offsets", "special_tokens_mask",
                 "attention_mask")

    def __init__(self, ids: List[int], type_ids: List[int],
                 offsets: List[Tuple[int, int]],
                 special_tokens_mask: List[int], attention_mask: List[int]):
        self.ids = ids
        self.type_ids = type_ids
        self.offsets = offsets
        self.special_tokens_mask = special_tokens_mask
        self.attention_mask = attention_mask

    def __len__(self) -> int:
        return len(self.ids)

    def __repr__(self) -> str:
        return (f"Encoding(num_tokens={len(self.ids)}, attributes=[ids, "
                "type_ids, offsets, special_tokens_mask, attention_mask])")


class Tokenizer:
    """A tokenizer loaded from a HuggingFace ``tokenizer.json``. Immutable:
    share one between threads freely."""

    __slots__ = ("_native",)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        raise TypeError("make a Tokenizer with Tokenizer.from_file or "
                        "Tokenizer.from_huggingface_json")

    @classmethod
    def _wrap(cls, native: Any) -> "Tokenizer":
        self = object.__new__(cls)
        self._native = native
        return self

    @staticmethod
    def from_file(path: Union[str, os.PathLike]) -> "Tokenizer":
        """A tokenizer from a ``tokenizer.json`` file, or from a tiktoken
        rank file named ``<encoding>.tiktoken`` (the encoding is the file
        name's stem, as in iree.runtime 3.13)."""
        _require_native("Tokenizer.from_file")
        return Tokenizer._wrap(_Native.from_file(os.fspath(path)))

    @staticmethod
    def from_huggingface_json(json: str) -> "Tokenizer":
        """A tokenizer from the text of a HuggingFace ``tokenizer.json``."""
        _require_native("Tokenizer.from_huggingface_json")
        if isinstance(json, (bytes, bytearray, memoryview)):
            json = bytes(json).decode("utf-8")
        return Tokenizer._wrap(_Native.from_huggingface_json(json))

    @staticmethod
    def from_tiktoken(data: str, encoding: str) -> "Tokenizer":
        """A tokenizer from the text of a tiktoken rank file and an
        encoding name giving its regex and special tokens: cl100k_base,
        o200k_base, o200k_harmony, r50k_base, gpt2, p50k_base, p50k_edit.
        An unknown name or a malformed file is a ValueError."""
        _require_native("Tokenizer.from_tiktoken")
        if isinstance(data, (bytes, bytearray, memoryview)):
            data = bytes(data).decode("utf-8")
        return Tokenizer._wrap(_Native.from_tiktoken(data, encoding))

    def encode(self, text: str, add_special_tokens: bool = False,
               no_special_token_matching: bool = False, *,
               pair: Optional[str] = None) -> List[int]:
        """The token ids of ``text``. ``add_special_tokens`` runs the
        post-processor; ``no_special_token_matching`` encodes the text of
        special tokens as ordinary text. With ``pair`` (beyond
        iree.runtime), the two texts are encoded as one input, as
        ``tokenizers``' ``encode(text, pair)``: each on its own, then
        truncated and post-processed together (e.g. ``[CLS] text [SEP]
        pair [SEP]``)."""
        return self._native.encode(text, add_special_tokens,
                                   no_special_token_matching, pair)

    def encode_with_offsets(self, text: str, add_special_tokens: bool = False,
                            no_special_token_matching: bool = False,
                            offset_type: str = "byte", *,
                            pair: Optional[str] = None
                            ) -> Tuple[List[int], List[Tuple[int, int]]]:
        """``encode``, and where each token came from: a ``(start, end)``
        pair per id, in bytes of the UTF-8 (``offset_type="byte"``) or in
        characters (``"char"``, what ``tokenizers``' ``Encoding.offsets``
        gives) of ``text`` -- or of ``pair`` for the pair's tokens. Tokens
        the post-processor or padding adds have ``(0, 0)``."""
        return self._native.encode_with_offsets(text, add_special_tokens,
                                                no_special_token_matching,
                                                offset_type, pair)

    @staticmethod
    def _split_pairs(texts) -> Tuple[List[str], Optional[List[Optional[str]]]]:
        # A batch item is a str, or a (text, pair) tuple or list, as in
        # `tokenizers`' encode_batch.
        firsts: List[str] = []
        pairs: List[Optional[str]] = []
        any_pair = False
        for item in texts:
            if isinstance(item, (tuple, list)):
                if len(item) != 2:
                    raise ValueError("a batch item must be a str or a "
                                     "(text, pair) pair")
                firsts.append(item[0])
                pairs.append(item[1])
                any_pair = True
            else:
                firsts.append(item)
                pairs.append(None)
        return firsts, (pairs if any_pair else None)

    def encode_full(self, text: str, add_special_tokens: bool = False,
                    no_special_token_matching: bool = False,
                    offset_type: str = "byte", *,
                    pair: Optional[str] = None) -> "Encoding":
        """The whole ``Encoding`` of ``text`` (and ``pair``): ids, type ids,
        offsets, special-tokens mask and attention mask, as ``tokenizers``'
        ``Encoding`` has them (the inputs of a BERT-style model)."""
        return Encoding(*self._native.encode_full(
            text, add_special_tokens, no_special_token_matching, offset_type,
            pair))

    def encode_batch_full(self, texts: Sequence[Union[str, Tuple[str, str]]],
                          add_special_tokens: bool = False,
                          no_special_token_matching: bool = False,
                          threads: int = 0, offset_type: str = "byte"
                          ) -> List["Encoding"]:
        """``encode_full`` of each text (a str or a ``(text, pair)``
        tuple), on ``threads`` threads, padded together when the
        tokenizer.json pads."""
        firsts, pairs = self._split_pairs(texts)
        return [Encoding(*e) for e in self._native.encode_batch_full(
            firsts, add_special_tokens, no_special_token_matching, threads,
            offset_type, pairs)]

    def encode_batch_with_offsets(
            self, texts: Sequence[Union[str, Tuple[str, str]]],
            add_special_tokens: bool = False,
            no_special_token_matching: bool = False, threads: int = 0,
            offset_type: str = "byte"
    ) -> List[Tuple[List[int], List[Tuple[int, int]]]]:
        """``encode_with_offsets`` of each text (a str, or a ``(text,
        pair)`` tuple), on ``threads`` threads (0: every core)."""
        firsts, pairs = self._split_pairs(texts)
        return self._native.encode_batch_with_offsets(
            firsts, add_special_tokens, no_special_token_matching, threads,
            offset_type, pairs)

    def encode_batch(self, texts: Sequence[Union[str, Tuple[str, str]]],
                     add_special_tokens: bool = False,
                     no_special_token_matching: bool = False,
                     threads: int = 0) -> List[List[int]]:
        """``encode`` of each text (a str, or a ``(text, pair)`` tuple), on
        ``threads`` threads (0: every core)."""
        firsts, pairs = self._split_pairs(texts)
        return self._native.encode_batch(firsts, add_special_tokens,
                                         no_special_token_matching, threads,
                                         pairs)

    def decode(self, token_ids: Sequence[int],
               skip_special_tokens: bool = False) -> str:
        """The text of ``token_ids``; an id not in the vocabulary raises
        IndexError."""
        return self._native.decode(list(token_ids), skip_special_tokens)

    def decode_batch(self, batch: Sequence[Sequence[int]],
                     skip_special_tokens: bool = False,
                     threads: int = 0) -> List[str]:
        """``decode`` of each sequence, on ``threads`` threads (0: every
        core)."""
        return self._native.decode_batch([list(ids) for ids in batch],
                                         skip_special_tokens, threads)

    def encode_stream(self, add_special_tokens: bool = False,
                      no_special_token_matching: bool = False
                      ) -> "TokenizerEncodeStream":
        """A TokenizerEncodeStream: text fed chunk by chunk gives its ids
        as soon as more text cannot change them; everything it returns,
        joined, is ``encode`` of all the text."""
        return TokenizerEncodeStream._wrap(self._native.encode_stream(
            add_special_tokens, no_special_token_matching))

    def decode_stream(self, skip_special_tokens: bool = False
                      ) -> "TokenizerDecodeStream":
        """A TokenizerDecodeStream: ids fed one by one or in lists give
        their text as soon as it is final; everything it returns, joined,
        is ``decode`` of all the ids."""
        return TokenizerDecodeStream._wrap(
            self._native.decode_stream(skip_special_tokens))

    @property
    def vocab_size(self) -> int:
        """The number of distinct tokens, added tokens included."""
        return self._native.vocab_size

    @property
    def model_type(self) -> str:
        """The kind of model: "BPE", "WordPiece", "Unigram" or "WordLevel"."""
        return self._native.model_type

    def id_to_token(self, token_id: int) -> Optional[str]:
        """The token of an id, or None."""
        return self._native.id_to_token(token_id)

    def token_to_id(self, token: str) -> Optional[int]:
        """The id of a token, or None."""
        return self._native.token_to_id(token)

    @property
    def special_ids(self) -> dict:
        """The ids of the special roles, as iree.runtime 3.13 gives them:
        keys bos, eos, unk, pad, sep, cls and mask, each an id or None.
        Like 3.13, only ``unk`` is ever set (the model's unknown token)."""
        roles = dict.fromkeys(
            ("bos", "eos", "unk", "pad", "sep", "cls", "mask"))
        roles["unk"] = self._native.unk_id
        return roles


_STREAM_FINALIZED = "Already finalized"
_STREAM_FED_AFTER = "Cannot feed after finalize"


class TokenizerEncodeStream:
    """Encodes text fed chunk by chunk (``feed``), returning the ids that
    more text cannot change; ``finalize`` returns the rest. Made by
    ``Tokenizer.encode_stream``; as a context manager it finalizes on exit
    (the ids ``finalize`` would return are dropped, as in iree.runtime)."""

    __slots__ = ("_native", "_finalized")

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        raise TypeError("make a TokenizerEncodeStream with "
                        "Tokenizer.encode_stream()")

    @classmethod
    def _wrap(cls, native: Any) -> "TokenizerEncodeStream":
        self = object.__new__(cls)
        self._native = native
        self._finalized = False
        return self

    def feed(self, chunk: str) -> List[int]:
        """Feeds text; returns the ids that are final so far."""
        if self._finalized:
            raise ValueError(_STREAM_FED_AFTER)
        if not isinstance(chunk, str):
            raise TypeError(
                f"feed() takes a str chunk, not {type(chunk).__name__}")
        return self._native.feed(chunk)

    def finalize(self) -> List[int]:
        """Returns the ids of the text held back."""
        if self._finalized:
            raise ValueError(_STREAM_FINALIZED)
        self._finalized = True
        return self._native.finalize()

    def __enter__(self) -> "TokenizerEncodeStream":
        return self

    def __exit__(self, *args: Any) -> None:
        if not self._finalized:
            self._finalized = True
            try:
                self._native.finalize()
            except ValueError:
                if args and args[0] is None:
                    raise
        return None


class TokenizerDecodeStream:
    """Decodes ids fed one by one (``feed_one``) or in lists (``feed``),
    returning the text that later ids cannot change; ``finalize`` returns
    the rest. Made by ``Tokenizer.decode_stream``; as a context manager it
    finalizes on exit (the text ``finalize`` would return is dropped, as in
    iree.runtime)."""

    __slots__ = ("_native", "_finalized")

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        raise TypeError("make a TokenizerDecodeStream with "
                        "Tokenizer.decode_stream()")

    @classmethod
    def _wrap(cls, native: Any) -> "TokenizerDecodeStream":
        self = object.__new__(cls)
        self._native = native
        self._finalized = False
        return self

    def feed(self, token_ids: Sequence[int]) -> str:
        """Feeds ids; returns the text that is final so far."""
        if self._finalized:
            raise ValueError(_STREAM_FED_AFTER)
        return self._native.feed(list(token_ids))

    def feed_one(self, token_id: int) -> str:
        """Feeds one id; returns the text that is final so far."""
        if self._finalized:
            raise ValueError(_STREAM_FED_AFTER)
        return self._native.feed_one(token_id)

    def finalize(self) -> str:
        """Returns what is left (text held for a later byte)."""
        if self._finalized:
            raise ValueError(_STREAM_FINALIZED)
        self._finalized = True
        return self._native.finalize()

    def __enter__(self) -> "TokenizerDecodeStream":
        return self

    def __exit__(self, *args: Any) -> None:
        if not self._finalized:
            self._finalized = True
            try:
                self._native.finalize()
            except (ValueError, IndexError):
                if args and args[0] is None:
                    raise
        return None
