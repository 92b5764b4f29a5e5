"""One loaded model and the batching that knows its compiled signature.

``EmberModel`` is what each serving replica holds: its own ``VmInstance``,
device and ``SystemContext`` (a context is never shared between replicas or
processes), the program mapped from its file (``VmModule.mmap``) and its
parameter files mapped (``ParameterIndex.load`` maps by default), so
replicas on one node share those pages through the page cache instead of
each holding a copy. It has no dependency on Ray: the deployment
(``ember.serve.deployment``) wraps it, and the tests call it directly.

Batching (``run_batch``): requests whose arrays match the signature except
for dim 0 are stacked along dim 0, run once, and the results split back by
each request's rows. Two kinds of function can be batched:

* a function whose inputs and results are all tensors with a dynamic dim 0
  (``tensor<?x784xf32>``): the stack is run as is;
* functions compiled for several batch sizes, ``<function>_b<N>`` (dim 0
  static and equal to N in every input and result, the other dims equal
  across the variants): the stack is cut into chunks, each the largest
  compiled size that fits the rows left; rows fewer than every size are
  padded with zeros up to the smallest (the padding rows' results dropped).

Anything else (a request whose dtypes or shapes differ from the signature,
whose inputs disagree on dim 0, a non-tensor argument, a function that
cannot be batched) runs alone, exactly as a direct call would run it: its
result, or the error the direct call raises, with the same message. A
stacked run that fails is retried request by request, so one request never
gets another's error.
"""

from __future__ import annotations

import dataclasses
import os
import re
from collections.abc import Mapping, Sequence

import numpy as np

from .signature import Signature, signature_of

# Keeps the stacked arrays a batch would make bounded (a batch of requests
# of this many bytes in all is cut into several runs).
DEFAULT_MAX_BATCH_BYTES = 256 << 20


class Failed:
    """A request's exception, returned in place of its results by
    ``run_batch`` (the batch goes on for the others)."""

    __slots__ = ("error",)

    def __init__(self, error: BaseException):
        self.error = error


def parse_parameters(parameters) -> list[tuple[str, str]]:
    """(scope, path) pairs from ``{"scope": "file"}`` (a list of files per
    scope allowed; scope "" for unscoped parameters) or from
    ``--parameters`` strings ``[SCOPE=]FILE``."""
    if parameters is None:
        return []
    if isinstance(parameters, (str, os.PathLike)):
        parameters = [parameters]
    pairs = []
    if isinstance(parameters, Mapping):
        for scope, paths in parameters.items():
            if isinstance(paths, (str, os.PathLike)):
                paths = [paths]
            pairs += [(str(scope), os.fspath(p)) for p in paths]
        return pairs
    for item in parameters:
        item = os.fspath(item)
        scope, sep, path = item.partition("=")
        # As iree-run-module: "scope=file", else the whole text is the file.
        pairs.append((scope, path) if sep and scope and path else ("", item))
    return pairs


def _dynamic_dim0(value):
    dims = (-1,) + tuple(value.dims[1:])
    text = "tensor<" + "".join(("?" if d < 0 else str(d)) + "x"
                               for d in dims) + value.element + ">"
    return dataclasses.replace(value, dims=dims, type=text)


def _variant_sizes(function_names, function: str) -> dict[int, str]:
    pattern = re.compile(re.escape(function) + r"_b(\d{1,9})")
    sizes = {}
    for name in function_names:
        match = pattern.fullmatch(name)
        if match and int(match.group(1)) > 0:
            sizes[int(match.group(1))] = name
    return sizes


class EmberModel:
    """A compiled function ready to serve. ``module``: a .vmfb path;
    ``function``: the exported function (or the stem of its ``_b<N>``
    variants); ``device``: an Ember device URI; ``parameters``: see
    ``parse_parameters``."""

    def __init__(self, module, function: str = "main",
                 device: str = "local-task", parameters=None,
                 max_batch_bytes: int = DEFAULT_MAX_BATCH_BYTES):
        import ember.runtime as rt

        self.rt = rt
        self.module_path = os.fspath(module)
        self.function = function
        self.device_uri = device
        self.max_batch_bytes = int(max_batch_bytes)
        self.instance = rt.VmInstance()
        self.device = rt.get_device(device)
        vm_modules = []
        self._parameter_indices = []
        pairs = parse_parameters(parameters)
        if pairs:
            by_scope: dict[str, object] = {}
            for scope, path in pairs:
                if not os.path.isfile(path):
                    raise FileNotFoundError(
                        f"parameter file not found: {path!r} (scope "
                        f"{scope!r})")
                index = by_scope.get(scope)
                if index is None:
                    index = by_scope[scope] = rt.ParameterIndex()
                index.load(path)  # mapped, not read
            self._parameter_indices = list(by_scope.values())
            providers = [index.create_provider(scope=scope)
                         for scope, index in by_scope.items()]
            vm_modules.append(rt.create_io_parameters_module(
                self.instance, *providers))
        self.vm_module = rt.VmModule.mmap(self.instance, self.module_path)
        vm_modules.append(self.vm_module)
        self.context = rt.SystemContext(vm_modules=vm_modules,
                                        config=rt.Config(device=self.device))
        bound = self.context.modules[self.vm_module.name]
        names = list(self.vm_module.function_names)
        self.variants = {}
        if function in names:
            self.invoker = bound[function]
            self.signature = signature_of(
                self.vm_module.lookup_function(function), function)
        else:
            self.variants = _variant_sizes(names, function)
            if not self.variants:
                raise ValueError(
                    f"module {self.vm_module.name!r} ({self.module_path}) has "
                    f"no function {function!r} (nor {function}_b<N> "
                    f"variants); it exports {names}")
            largest = self.variants[max(self.variants)]
            self.invoker = bound[largest]
            self.signature = signature_of(
                self.vm_module.lookup_function(largest), function)
        self._bound = bound
        self._variant_invokers = {}
        self.mode = self._batch_mode(function in names)
        if self.mode == "variants":
            # Any number of rows is served: dim 0 shows as dynamic, with the
            # compiled sizes beside it.
            sig = self.signature
            if function not in names:
                sig = dataclasses.replace(
                    sig, inputs=tuple(_dynamic_dim0(v) for v in sig.inputs),
                    outputs=tuple(_dynamic_dim0(v) for v in sig.outputs))
            self.signature = dataclasses.replace(
                sig, extra={"compiled_batch_sizes": sorted(self.variants)})
        self.calls = 0  # runs of the compiled function (for tests/metrics)

    # -- what can be batched ------------------------------------------------

    def _batch_mode(self, has_function: bool) -> str:
        sig = self.signature
        tensors = sig.known and sig.inputs and sig.outputs and all(
            v.is_tensor and v.dtype is not None and len(v.dims) >= 1
            for v in sig.inputs + sig.outputs)
        if not tensors:
            return "none"
        if has_function:
            if all(v.dims[0] == -1 for v in sig.inputs + sig.outputs):
                return "dynamic"
            variants = _variant_sizes(self.vm_module.function_names,
                                      self.function)
            if not variants:
                return "none"
            self.variants = variants
        # Compiled batch sizes: each variant's signature must be this one's
        # with dim 0 = its size.
        for size, name in sorted(self.variants.items()):
            other = signature_of(self.vm_module.lookup_function(name), name)
            if not self._same_but_dim0(other, size):
                self.variants = {}
                return "none"
            self._variant_invokers[size] = self._bound[name]
        return "variants"

    def _same_but_dim0(self, other: Signature, size: int) -> bool:
        mine = self.signature
        if not other.known or len(other.inputs) != len(mine.inputs) or \
                len(other.outputs) != len(mine.outputs):
            return False
        for a, b in zip(other.inputs + other.outputs,
                        mine.inputs + mine.outputs):
            if not a.is_tensor or a.dtype != b.dtype or \
                    len(a.dims) != len(b.dims) or a.dims[0] != size or \
                    a.dims[1:] != b.dims[1:]:
                return False
        return True

    def stack_key(self, args: Sequence):
        """A hashable key shared by requests that can be stacked together,
        or None when ``args`` must run alone."""
        if self.mode == "none":
            return None
        inputs = self.signature.inputs
        if len(args) != len(inputs):
            return None
        rows = None
        key = []
        for value, declared in zip(args, inputs):
            if type(value) is not np.ndarray or value.dtype != declared.dtype \
                    or value.ndim != len(declared.dims) or value.ndim == 0:
                return None
            for have, want in zip(value.shape[1:], declared.dims[1:]):
                if want >= 0 and have != want:
                    return None
            if rows is None:
                rows = value.shape[0]
            elif value.shape[0] != rows:
                return None
            key.append((value.dtype.str, value.shape[1:]))
        if not rows:
            return None
        return tuple(key)

    # -- running ------------------------------------------------------------

    def _results(self, raw) -> tuple:
        """The compiled function's results as a tuple of numpy arrays (or
        the values as they came, for non-tensor results)."""
        if raw is None:
            return ()
        if not isinstance(raw, tuple):
            raw = (raw,)
        return tuple(np.asarray(r) if hasattr(r, "to_host") else r
                     for r in raw)

    def _public(self, results: tuple):
        """What a caller gets: one value, a tuple of several, or None."""
        if len(results) == 1:
            return results[0]
        return results if results else None

    def call(self, *args):
        """One request, unbatched: what a direct call of the function gives
        (for ``_b<N>`` variants, the rows run in compiled-size chunks)."""
        result = self.run_batch([args])[0]
        if isinstance(result, Failed):
            raise result.error
        return result

    def _run_stacked(self, stacked: list) -> tuple:
        self.calls += 1
        if self.mode == "dynamic":
            return self._results(self.invoker(*stacked))
        rows = stacked[0].shape[0]
        sizes = sorted(self._variant_invokers)
        pieces, start = [], 0
        while start < rows:
            left = rows - start
            fitting = [s for s in sizes if s <= left]
            size = fitting[-1] if fitting else sizes[0]
            chunk = [a[start:start + size] for a in stacked]
            take = min(size, left)
            if take < size:  # pad with zero rows up to the compiled size
                chunk = [np.concatenate(
                    [c, np.zeros((size - take,) + c.shape[1:], c.dtype)])
                    for c in chunk]
            out = self._results(self._variant_invokers[size](*chunk))
            pieces.append([o[:take] for o in out])
            start += take
        if len(pieces) == 1:
            return tuple(pieces[0])
        return tuple(np.concatenate([p[i] for p in pieces])
                     for i in range(len(pieces[0])))

    def _run_alone(self, args):
        try:
            if self.mode == "variants" and self.stack_key(args) is not None:
                return self._public(self._run_stacked(list(args)))
            self.calls += 1
            return self._public(self._results(self.invoker(*args)))
        except Exception as error:  # the request's own error, as is
            return Failed(error)

    def run_batch(self, requests: Sequence[Sequence]) -> list:
        """Results of each request (a tuple of arguments), in order: the
        value a direct call returns, or ``Failed(error)``."""
        results: list = [None] * len(requests)
        groups: dict = {}
        for i, args in enumerate(requests):
            key = self.stack_key(args)
            if key is None:
                results[i] = self._run_alone(args)
            else:
                groups.setdefault(key, []).append(i)
        for members in groups.values():
            for chunk in self._chunks(requests, members):
                self._run_group(requests, chunk, results)
        return results

    def _chunks(self, requests, members):
        """``members`` cut so that each stack stays under max_batch_bytes."""
        chunk, size = [], 0
        for i in members:
            nbytes = sum(a.nbytes for a in requests[i])
            if chunk and size + nbytes > self.max_batch_bytes:
                yield chunk
                chunk, size = [], 0
            chunk.append(i)
            size += nbytes
        if chunk:
            yield chunk

    def _run_group(self, requests, members, results):
        if len(members) == 1 and self.mode == "dynamic":
            results[members[0]] = self._run_alone(requests[members[0]])
            return
        rows = [requests[i][0].shape[0] for i in members]
        try:
            stacked = [np.concatenate([requests[i][k] for i in members])
                       for k in range(len(requests[members[0]]))]
            out = self._run_stacked(stacked)
            total = sum(rows)
            if any(not isinstance(o, np.ndarray) or o.ndim == 0 or
                   o.shape[0] != total for o in out):
                raise ValueError("results do not have one row per input row")
        except Exception:
            # Run each alone: each request gets its own result or error.
            for i in members:
                results[i] = self._run_alone(requests[i])
            return
        start = 0
        for i, n in zip(members, rows):
            results[i] = self._public(tuple(o[start:start + n] for o in out))
            start += n
