"""``Tokenizer``, ``TokenizerEncodeStream`` and ``TokenizerDecodeStream``:
the names of iree.runtime 3.12+'s tokenizers (HuggingFace ``tokenizer.json``
and tiktoken files), not implemented in Ember yet.

They exist so that code importing them loads; making one (the constructors
and ``Tokenizer.from_file`` / ``from_huggingface_json`` / ``from_tiktoken``)
raises ``NotImplementedError`` naming the feature, as does every method.
"""

from __future__ import annotations

import os
from typing import Any, List, NoReturn, Optional, Union

__all__ = ["Tokenizer", "TokenizerDecodeStream", "TokenizerEncodeStream"]


def _unimplemented(name: str) -> NoReturn:
    raise NotImplementedError(
        f"ember.runtime.{name} is not implemented yet: Ember has no "
        "tokenizer (iree.runtime 3.12+ tokenizes HuggingFace tokenizer.json "
        "and tiktoken files); use iree.runtime or the tokenizers package")


class Tokenizer:
    """Not implemented yet: every constructor and method raises
    NotImplementedError."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        _unimplemented("Tokenizer")

    @staticmethod
    def from_file(path: Union[str, os.PathLike]) -> "Tokenizer":
        """A tokenizer from a tokenizer.json or tiktoken file. Not implemented
        yet: raises NotImplementedError."""
        _unimplemented("Tokenizer.from_file")

    @staticmethod
    def from_huggingface_json(json: str) -> "Tokenizer":
        """A tokenizer from the text of a HuggingFace tokenizer.json. Not
        implemented yet: raises NotImplementedError."""
        _unimplemented("Tokenizer.from_huggingface_json")

    @staticmethod
    def from_tiktoken(data: str, encoding: str) -> "Tokenizer":
        """A tokenizer from the text of a tiktoken file and an encoding name.
        Not implemented yet: raises NotImplementedError."""
        _unimplemented("Tokenizer.from_tiktoken")

    def encode(self, text: str, add_special_tokens: bool = False,
               no_special_token_matching: bool = False) -> List[int]:
        """The token ids of `text`. Not implemented yet: raises
        NotImplementedError."""
        _unimplemented("Tokenizer.encode")

    def decode(self, token_ids: List[int],
               skip_special_tokens: bool = False) -> str:
        """The text of `token_ids`. Not implemented yet: raises
        NotImplementedError."""
        _unimplemented("Tokenizer.decode")

    def encode_stream(self, add_special_tokens: bool = False,
                      no_special_token_matching: bool = False
                      ) -> "TokenizerEncodeStream":
        """A TokenizerEncodeStream that encodes text fed in chunks. Not
        implemented yet: raises NotImplementedError."""
        _unimplemented("Tokenizer.encode_stream")

    def decode_stream(self, skip_special_tokens: bool = False
                      ) -> "TokenizerDecodeStream":
        """A TokenizerDecodeStream that decodes ids fed one by one or in lists.
        Not implemented yet: raises NotImplementedError."""
        _unimplemented("Tokenizer.decode_stream")

    @property
    def vocab_size(self) -> int:
        """The number of tokens of the vocabulary. Not implemented yet: raises
        NotImplementedError."""
        _unimplemented("Tokenizer.vocab_size")

    @property
    def model_type(self) -> str:
        """The kind of model ("BPE", "WordPiece", ...). Not implemented yet:
        raises NotImplementedError."""
        _unimplemented("Tokenizer.model_type")

    def id_to_token(self, token_id: int) -> Optional[str]:
        """The token of an id, or None. Not implemented yet: raises
        NotImplementedError."""
        _unimplemented("Tokenizer.id_to_token")

    def token_to_id(self, token: str) -> Optional[int]:
        """The id of a token, or None. Not implemented yet: raises
        NotImplementedError."""
        _unimplemented("Tokenizer.token_to_id")

    @property
    def special_ids(self) -> dict:
        """The ids of the special tokens, by role. Not implemented yet: raises
        NotImplementedError."""
        _unimplemented("Tokenizer.special_ids")


class TokenizerEncodeStream:
    """Not implemented yet: making one raises NotImplementedError."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        _unimplemented("TokenizerEncodeStream")

    def feed(self, chunk: str) -> List[int]:
        """Feeds input; returns what is complete so far. Not implemented yet:
        raises NotImplementedError."""
        _unimplemented("TokenizerEncodeStream.feed")

    def finalize(self) -> List[int]:
        """Flushes what is left. Not implemented yet: raises
        NotImplementedError."""
        _unimplemented("TokenizerEncodeStream.finalize")

    def __enter__(self) -> "TokenizerEncodeStream":
        _unimplemented("TokenizerEncodeStream")

    def __exit__(self, *args: Any) -> None:
        _unimplemented("TokenizerEncodeStream")


class TokenizerDecodeStream:
    """Not implemented yet: making one raises NotImplementedError."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        _unimplemented("TokenizerDecodeStream")

    def feed(self, token_ids: List[int]) -> str:
        """Feeds input; returns what is complete so far. Not implemented yet:
        raises NotImplementedError."""
        _unimplemented("TokenizerDecodeStream.feed")

    def feed_one(self, token_id: int) -> str:
        """Feeds one token id; returns the text that is complete so far. Not
        implemented yet: raises NotImplementedError."""
        _unimplemented("TokenizerDecodeStream.feed_one")

    def finalize(self) -> str:
        """Flushes what is left. Not implemented yet: raises
        NotImplementedError."""
        _unimplemented("TokenizerDecodeStream.finalize")

    def __enter__(self) -> "TokenizerDecodeStream":
        _unimplemented("TokenizerDecodeStream")

    def __exit__(self, *args: Any) -> None:
        _unimplemented("TokenizerDecodeStream")
