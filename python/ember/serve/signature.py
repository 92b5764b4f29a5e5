"""A function's signature, read from its ``iree.abi.declaration``.

The compiler records each exported function's declaration as text in its
reflection, e.g.
``sync func @main(%input0: tensor<?x4xf32>, %input1: i32) -> (%output0: tensor<?x4xf32>)``.
That text is all the serving layer knows of a compiled function: the names,
ranks, dims (``?`` dynamic) and element types of its arguments and results.
It comes from the module file, so it is read as untrusted text: bounded in
length, and anything not understood leaves that value "opaque" (no checks,
no batching) rather than failing.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

import numpy as np

# A longer declaration is not read (a real one is a few hundred characters
# per argument; this bounds the regular expressions' work on hostile text).
MAX_DECLARATION_CHARS = 1 << 20

_VALUE = re.compile(r"%([\w.$-]+): ([^,()]+(?:<[^<>]*>)?)")
_TENSOR = re.compile(r"tensor<((?:(?:\d{1,18}|\?)x)*)([a-z]\w*)>")

# Element type (as the declaration spells it) -> numpy dtype name. bf16 and
# the f8 types have no numpy dtype of their own (ml_dtypes adds them).
_NUMPY_DTYPES = {
    "f16": "float16", "f32": "float32", "f64": "float64",
    "i1": "bool",
    "i8": "int8", "i16": "int16", "i32": "int32", "i64": "int64",
    "si8": "int8", "si16": "int16", "si32": "int32", "si64": "int64",
    "ui8": "uint8", "ui16": "uint16", "ui32": "uint32", "ui64": "uint64",
}
_ML_DTYPES = {"bf16": "bfloat16", "f8E4M3FN": "float8_e4m3fn",
              "f8E5M2": "float8_e5m2", "f8E4M3FNUZ": "float8_e4m3fnuz",
              "f8E5M2FNUZ": "float8_e5m2fnuz"}


def numpy_dtype(element: str):
    """The numpy dtype of a declared element type, or None."""
    name = _NUMPY_DTYPES.get(element)
    if name is not None:
        return np.dtype(name)
    name = _ML_DTYPES.get(element)
    if name is not None:
        try:
            import ml_dtypes
        except ImportError:  # pragma: no cover - a dependency of Ember
            return None
        return np.dtype(getattr(ml_dtypes, name))
    return None


@dataclass(frozen=True)
class Value:
    """One argument or result. ``dims`` is None for a non-tensor value; a
    dim of -1 is dynamic. ``dtype`` is None where numpy has no dtype for
    the element type (the value is then passed through unchecked)."""

    name: str
    type: str
    dims: tuple | None = None
    element: str | None = None
    dtype: np.dtype | None = None

    @property
    def is_tensor(self) -> bool:
        """Whether the value is a tensor (has dims)."""
        return self.dims is not None

    def to_json(self) -> dict:
        """Name, type text and, for a tensor, shape (None for a dynamic
        dim), element type and numpy dtype name."""
        out = {"name": self.name, "type": self.type}
        if self.is_tensor:
            out["shape"] = [None if d < 0 else d for d in self.dims]
            out["element_type"] = self.element
            out["dtype"] = None if self.dtype is None else self.dtype.name
        return out


@dataclass(frozen=True)
class Signature:
    """A function's inputs and outputs (``Value``s) and its declaration."""

    function: str
    inputs: tuple = ()
    outputs: tuple = ()
    declaration: str = ""
    # False when there was no declaration or it could not be read: nothing
    # is known of the function's values.
    known: bool = False
    extra: dict = field(default_factory=dict)

    def to_json(self) -> dict:
        """What ``GET .../-/signature`` answers."""
        return {"function": self.function,
                "declaration": self.declaration,
                "inputs": [v.to_json() for v in self.inputs],
                "outputs": [v.to_json() for v in self.outputs],
                **self.extra}


def _values(text: str, start: int, end: int) -> tuple:
    values = []
    for match in _VALUE.finditer(text, start, end):
        name, type_text = match.group(1), match.group(2).strip()
        tensor = _TENSOR.fullmatch(type_text)
        if tensor is None:
            values.append(Value(name, type_text))
            continue
        dims = tuple(-1 if d == "?" else int(d)
                     for d in tensor.group(1).split("x") if d)
        element = tensor.group(2)
        values.append(Value(name, type_text, dims, element,
                            numpy_dtype(element)))
    return tuple(values)


def parse_declaration(function: str, declaration) -> Signature:
    """The signature that ``declaration`` (the reflection's
    ``iree.abi.declaration``) describes; ``known=False`` when it is missing
    or unreadable."""
    if not isinstance(declaration, str) or not declaration or \
            len(declaration) > MAX_DECLARATION_CHARS:
        return Signature(function)
    start = declaration.find("(")
    arrow = declaration.find(") ->", start if start >= 0 else 0)
    if start < 0:
        return Signature(function, declaration=declaration)
    if arrow < 0:
        end = declaration.rfind(")")
        if end < start:
            return Signature(function, declaration=declaration)
        return Signature(function, _values(declaration, start, end), (),
                         declaration, True)
    return Signature(function, _values(declaration, start, arrow),
                     _values(declaration, arrow + 4, len(declaration)),
                     declaration, True)


def signature_of(vm_function, function: str | None = None) -> Signature:
    """The signature of a ``VmFunction`` from its reflection."""
    reflection = getattr(vm_function, "reflection", None) or {}
    return parse_declaration(function or vm_function.name,
                             reflection.get("iree.abi.declaration"))
