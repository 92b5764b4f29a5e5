"""Benchmarking compiled functions: ``iree.runtime.benchmark`` on Ember.

``benchmark_module(module, entry_function=None, inputs=(), timeout=None,
**flags)`` returns the same ``BenchmarkResult`` rows, with the same string
formats, as iree.runtime 3.11's, which runs ``iree-benchmark-module`` in a
subprocess and parses its console report. Ember measures in this process
instead: it links the module with a ``hal`` module over the device in a
fresh context (as ``SystemContext`` does), uploads the inputs once, and
calls the function repeatedly from native code with the GIL released
(``_ember.benchmark_function``; see python/bindings/benchmark_bindings.cc
for what is timed and how).

What upstream passes on as ``--FLAG=VALUE`` is read here:

=============================== ===========================================
``device``                      device URI (default ``local-task``)
``benchmark_repetitions``       measured repetitions (default 1); with more
                                than one, the ``_mean``, ``_median``,
                                ``_stddev`` and ``_cv`` rows follow
``benchmark_min_time``          seconds per repetition (``0.5``, ``"0.5s"``;
                                default 0.5) or a fixed number of calls
                                (``"100x"``)
``benchmark_min_warmup_time``   seconds of untimed calls first (default 0)
``benchmark_report_aggregates_only``,
``benchmark_display_aggregates_only``
                                with repetitions, only the aggregate rows
``task_topology_max_group_count``
                                workers of a ``local-task`` device
=============================== ===========================================

Other flags are ignored with a ``UserWarning``.

Rows, as Google Benchmark's console reporter writes them:
``BenchmarkResult(benchmark_name="BM_<function>/process_time/real_time",
time="0.012 ms", cpu_time="0.011 ms", iterations="46727",
user_counters="items_per_second=84.7412k/s")``: wall and whole-process CPU
time per call in milliseconds, calls per repetition (the repetition count
for aggregates), calls per second. The ``_cv`` row gives percentages
(``"3.21 %"``, ``"items_per_second=3.10%"``).

Inputs are numpy arrays (any dtype Ember maps to a HAL element type; not
only those of ``DTYPE_TO_ABI_TYPE``), Python ints and floats, existing
``HalBufferView``/``DeviceArray`` objects, or the strings
``iree-benchmark-module`` takes: ``"4xf32=1,2,3,4"`` and
``"2x2xi32=[1 2][3 4]"`` (``,``, spaces and brackets separate values; one
value fills the tensor), ``"i32=5"``, a bare ``"5"`` (which takes the type
of its argument), ``"@file.npy"`` (the first array of a .npy file) and
``"+file.npy"`` (the next array of the file last named).

Errors, as upstream's: ``ValueError`` for an unknown entry function of a
``VmModule`` (or none given when it has several), or no entry function
given with a file path; ``BenchmarkTimeoutError`` when ``timeout`` seconds
pass before the benchmark is done (counted from the call, setup included);
``BenchmarkToolError`` for everything that makes ``iree-benchmark-module``
fail (a module file that does not load, a function it lacks, inputs that
do not parse or do not match, a failing call), with the error's text.
A call that is running when the time is up cannot be interrupted: it
finishes on a native thread, and the next one is not made.
"""

from __future__ import annotations

import os
import re
import time
import warnings
from collections import namedtuple
from os import PathLike
from typing import Union

import numpy

from ember import _ember

from .array_interop import DeviceArray, map_dtype_to_element_type
from .system_setup import get_device

__all__ = [
    "benchmark_exe",
    "benchmark_module",
]

BenchmarkResult = namedtuple(
    "BenchmarkResult", "benchmark_name time cpu_time iterations user_counters"
)

# The numpy dtypes upstream can pass as inputs, and their names in
# iree-benchmark-module's input syntax.
DTYPE_TO_ABI_TYPE = {
    numpy.dtype(numpy.float32): "f32",
    numpy.dtype(numpy.int32): "i32",
    numpy.dtype(numpy.int64): "i64",
    numpy.dtype(numpy.float64): "f64",
    numpy.dtype(numpy.int16): "i16",
    numpy.dtype(numpy.float16): "f16",
    numpy.dtype(numpy.int8): "i8",
    numpy.dtype(numpy.bool_): "i1",
}


class BenchmarkToolError(Exception):
    """The benchmark could not run; ``message`` says why."""

    def __init__(self, message):
        self.message = message
        super().__init__(self.message)


class BenchmarkTimeoutError(Exception):
    """The benchmark did not finish within the timeout it was given."""


def benchmark_exe():
    """The path of Ember's command-line benchmark tool,
    ``ember-benchmark-module`` (iree-benchmark-module's main flags)."""
    from ember._tools import _tool_path

    return os.fspath(_tool_path("ember-benchmark-module"))


# ---- flags ------------------------------------------------------------------

_AGGREGATE_FLAGS = (
    "benchmark_report_aggregates_only",
    "benchmark_display_aggregates_only",
)


def _flag_bool(name, value) -> bool:
    if isinstance(value, str):
        text = value.strip().lower()
        if text in ("1", "true", "yes", "t", "y", ""):
            return True
        if text in ("0", "false", "no", "f", "n"):
            return False
        raise BenchmarkToolError(f"--{name}={value}: not a boolean")
    return bool(value)


def _flag_int(name, value, minimum) -> int:
    try:
        number = int(str(value).strip())
    except ValueError:
        raise BenchmarkToolError(f"--{name}={value}: not an integer") from None
    if number < minimum:
        raise BenchmarkToolError(f"--{name}={value}: must be >= {minimum}")
    return number


def _min_time(value):
    """(seconds, fixed calls) of --benchmark_min_time."""
    text = str(value).strip()
    try:
        if text.endswith("x"):
            calls = int(text[:-1])
            if calls < 1:
                raise ValueError
            return 0.0, calls
        seconds = float(text[:-1] if text.endswith("s") else text)
        if not seconds >= 0:
            raise ValueError
        return seconds, 0
    except ValueError:
        raise BenchmarkToolError(
            f"--benchmark_min_time={value}: expected seconds (0.5, 0.5s) or "
            "a number of iterations (100x)") from None


def _seconds(name, value) -> float:
    text = str(value).strip()
    try:
        seconds = float(text[:-1] if text.endswith("s") else text)
    except ValueError:
        seconds = -1.0
    if not seconds >= 0:
        raise BenchmarkToolError(f"--{name}={value}: expected seconds")
    return seconds


class _Flags:
    def __init__(self, flags: dict):
        self.device = "local-task"
        self.repetitions = 1
        self.min_time = 0.5
        self.iterations = 0
        self.warmup_time = 0.0
        self.aggregates_only = False
        workers = None
        for name, value in flags.items():
            if name == "device":
                self.device = str(value)
            elif name == "benchmark_repetitions":
                self.repetitions = _flag_int(name, value, 1)
            elif name == "benchmark_min_time":
                self.min_time, self.iterations = _min_time(value)
            elif name == "benchmark_min_warmup_time":
                self.warmup_time = _seconds(name, value)
            elif name in _AGGREGATE_FLAGS:
                self.aggregates_only |= _flag_bool(name, value)
            elif name == "task_topology_max_group_count":
                workers = _flag_int(name, value, 1)
            else:
                warnings.warn(
                    f"ember.runtime.benchmark: --{name} is not supported; "
                    "ignored", UserWarning, stacklevel=3)
        if (workers is not None and self.device.startswith("local-task")
                and "?" not in self.device):
            self.device += f"?worker_count={workers}"


# ---- inputs -----------------------------------------------------------------

# iree-benchmark-module's element type names: (HAL element type name, numpy
# dtype name; None when numpy has no such type).
_ELEMENT_TYPES = {
    "i1": ("BOOL_8", "bool"),
    "i8": ("INT_8", "int8"), "si8": ("SINT_8", "int8"),
    "ui8": ("UINT_8", "uint8"),
    "i16": ("INT_16", "int16"), "si16": ("SINT_16", "int16"),
    "ui16": ("UINT_16", "uint16"),
    "i32": ("INT_32", "int32"), "si32": ("SINT_32", "int32"),
    "ui32": ("UINT_32", "uint32"),
    "i64": ("INT_64", "int64"), "si64": ("SINT_64", "int64"),
    "ui64": ("UINT_64", "uint64"),
    "f16": ("FLOAT_16", "float16"), "f32": ("FLOAT_32", "float32"),
    "f64": ("FLOAT_64", "float64"),
    "bf16": ("BFLOAT_16", "bfloat16"),
    "f8E5M2": ("FLOAT_8_E5M2", "float8_e5m2"),
    "f8E4M3FN": ("FLOAT_8_E4M3_FN", "float8_e4m3fn"),
    "f8E5M2FNUZ": ("FLOAT_8_E5M2_FNUZ", "float8_e5m2fnuz"),
    "f8E4M3FNUZ": ("FLOAT_8_E4M3_FNUZ", "float8_e4m3fnuz"),
}

_SHAPED = re.compile(r"^((?:\d+x)*)([A-Za-z][A-Za-z0-9]*)=(.*)$", re.S)
_SEPARATORS = re.compile(r"[\s,\[\]]+")
_INTEGER = re.compile(r"[+-]?(0[xX][0-9a-fA-F]+|\d+)")


def _integer(word: str) -> int:
    """A decimal integer (leading zeros allowed) or a 0x hex one."""
    if not _INTEGER.fullmatch(word):
        raise ValueError(f"invalid integer {word!r}")
    digits = word.lstrip("+-")
    value = int(digits, 16) if digits[:2] in ("0x", "0X") else int(digits)
    return -value if word.startswith("-") else value


def _numpy_dtype(type_name: str):
    element_type, dtype_name = _ELEMENT_TYPES[type_name]
    try:
        return numpy.dtype(dtype_name)
    except TypeError:
        # bf16 and the f8 types come from ml_dtypes, as in array_interop.
        import ml_dtypes

        return numpy.dtype(getattr(ml_dtypes, dtype_name))


def _parse_values(text: str, dtype, count: int, spec: str):
    words = [w for w in _SEPARATORS.split(text) if w]
    if not words:
        raise BenchmarkToolError(f"--input={spec}: no values")
    if len(words) == 1 and count != 1:
        words = words * count  # one value fills the tensor
    if len(words) != count:
        raise BenchmarkToolError(
            f"--input={spec}: {len(words)} values for {count} elements")
    try:
        if dtype == numpy.dtype(bool):
            values = [bool(_integer(w)) if w not in ("true", "false")
                      else w == "true" for w in words]
        elif dtype.kind in "iu":
            values = [_integer(w) for w in words]
        else:
            values = [float(w) for w in words]
        return numpy.array(values, dtype=dtype)
    except (ValueError, OverflowError) as error:
        raise BenchmarkToolError(f"--input={spec}: {error}") from None


class _NpyFiles:
    """What '@file.npy' and '+file.npy' read: arrays of a file in turn."""

    def __init__(self):
        self._path = None
        self._file = None

    def read(self, spec: str):
        path = spec[1:]
        if spec[0] == "@" or path != self._path:
            self.close()
            try:
                self._file = open(path, "rb")
            except OSError as error:
                raise BenchmarkToolError(f"--input={spec}: {error}") from None
            self._path = path
        try:
            return numpy.load(self._file, allow_pickle=False)
        except (OSError, ValueError, EOFError) as error:
            raise BenchmarkToolError(
                f"--input={spec}: no array to read ({error})") from None

    def close(self):
        if self._file is not None:
            self._file.close()
        self._file = None
        self._path = None


def _upload(device, array, element_type=None):
    array = numpy.ascontiguousarray(array)
    if element_type is None:
        element_type = map_dtype_to_element_type(array.dtype)
        if element_type is None:
            raise BenchmarkToolError(
                f"inputs of dtype {array.dtype} are not supported")
    return device.allocator.allocate_buffer_copy(
        memory_type=_ember.MemoryType.DEVICE_LOCAL,
        allowed_usage=_ember.BufferUsage.DEFAULT,
        device=device,
        buffer=array,
        element_type=element_type,
    )


def _push_text(inputs, device, spec: str, npy: _NpyFiles):
    text = spec.strip()
    if text[:1] in ("@", "+"):
        inputs.push_ref(_upload(device, npy.read(text)))
        return
    match = _SHAPED.match(text)
    if match is None:
        # A bare scalar: the native side gives it the argument's type.
        try:
            if _INTEGER.fullmatch(text):
                inputs.push_int(_integer(text))
            else:
                inputs.push_float(float(text))
        except ValueError:
            raise BenchmarkToolError(
                f"--input={spec}: not a value (expected e.g. 4xf32=1,2,3,4, "
                "i32=5, 5 or @file.npy)") from None
        return
    dims, type_name, values = match.groups()
    if type_name not in _ELEMENT_TYPES:
        raise BenchmarkToolError(
            f"--input={spec}: unknown element type '{type_name}'")
    dtype = _numpy_dtype(type_name)
    if not dims:
        # "i32=5": a scalar of that type (a tensor of rank 0 is "0d" only
        # through numpy inputs, as in iree-benchmark-module).
        scalar = _parse_values(values, dtype, 1, spec)[0]
        if dtype.kind in "iub":
            inputs.push_int(int(scalar))
        else:
            inputs.push_float(float(scalar))
        return
    shape = [int(d) for d in dims[:-1].split("x")]
    count = int(numpy.prod(shape, dtype=numpy.int64))
    if values.strip().startswith("@"):
        raise BenchmarkToolError(
            f"--input={spec}: raw file contents are not supported here; use "
            "a .npy file or a numpy array")
    array = _parse_values(values, dtype, count, spec).reshape(shape)
    element_type = getattr(_ember.HalElementType, _ELEMENT_TYPES[type_name][0])
    inputs.push_ref(_upload(device, array, element_type))


def _build_inputs(device, values) -> "_ember.VmVariantList":
    inputs = _ember.VmVariantList(len(values))
    npy = _NpyFiles()
    try:
        for value in values:
            if isinstance(value, str):
                _push_text(inputs, device, value, npy)
            elif isinstance(value, DeviceArray):
                inputs.push_ref(value._buffer_view)
            elif isinstance(value, _ember.HalBufferView):
                inputs.push_ref(value)
            elif isinstance(value, bool) or isinstance(value, int):
                inputs.push_int(int(value))
            elif isinstance(value, float):
                inputs.push_float(value)
            else:
                inputs.push_ref(_upload(device, numpy.asarray(value)))
    finally:
        npy.close()
    return inputs


# ---- results ----------------------------------------------------------------

_BIG_PREFIXES = ("", "k", "M", "G", "T", "P", "E", "Z", "Y")
_SMALL_PREFIXES = ("", "m", "u", "n", "p", "f", "a", "z", "y")


def _human(value: float) -> str:
    """A counter as Google Benchmark writes it: 84.7412k, 500m, 12."""
    if value == 0 or not numpy.isfinite(value):
        return f"{value:g}"
    magnitude = abs(value)
    step = 0
    if magnitude >= 1000:
        while magnitude >= 1000 and step + 1 < len(_BIG_PREFIXES):
            magnitude /= 1000
            step += 1
        prefix = _BIG_PREFIXES[step]
    elif magnitude < 1:
        while magnitude < 1 and step + 1 < len(_SMALL_PREFIXES):
            magnitude *= 1000
            step += 1
        prefix = _SMALL_PREFIXES[step]
    else:
        prefix = ""
    sign = "-" if value < 0 else ""
    return f"{sign}{magnitude:g}{prefix}"


def _time(milliseconds: float) -> str:
    """A time column: fewer decimals as the number grows (Google Benchmark's
    console layout)."""
    if milliseconds < 1.0:
        number = f"{milliseconds:.3f}"
    elif milliseconds < 10.0:
        number = f"{milliseconds:.2f}"
    elif milliseconds < 100.0:
        number = f"{milliseconds:.1f}"
    elif milliseconds >= 1e9:
        number = f"{milliseconds:.4e}"
    else:
        number = f"{milliseconds:.0f}"
    return f"{number} ms"


def _results(name: str, samples, aggregates_only: bool):
    # Per repetition: wall and CPU ms per call, calls, calls per second.
    rows = []
    for wall, cpu, calls in samples:
        rows.append((wall * 1e3 / calls, cpu * 1e3 / calls, calls,
                     calls / wall if wall > 0 else float("inf")))
    results = []
    if not (aggregates_only and len(rows) > 1):
        for wall_ms, cpu_ms, calls, rate in rows:
            results.append(BenchmarkResult(
                benchmark_name=name, time=_time(wall_ms),
                cpu_time=_time(cpu_ms), iterations=str(calls),
                user_counters=f"items_per_second={_human(rate)}/s"))
    if len(rows) > 1:
        columns = numpy.array([row[:2] + row[3:] for row in rows],
                              dtype=numpy.float64)
        count = str(len(rows))
        mean = columns.mean(axis=0)
        median = numpy.median(columns, axis=0)
        stddev = columns.std(axis=0, ddof=1)
        for suffix, values in (("mean", mean), ("median", median),
                               ("stddev", stddev)):
            results.append(BenchmarkResult(
                benchmark_name=f"{name}_{suffix}", time=_time(values[0]),
                cpu_time=_time(values[1]), iterations=count,
                user_counters=f"items_per_second={_human(values[2])}/s"))
        with numpy.errstate(divide="ignore", invalid="ignore"):
            cv = numpy.where(mean != 0, stddev / mean, 0.0) * 100
        results.append(BenchmarkResult(
            benchmark_name=f"{name}_cv", time=f"{cv[0]:.2f} %",
            cpu_time=f"{cv[1]:.2f} %", iterations=count,
            user_counters=f"items_per_second={cv[2]:.2f}%"))
    return results


# ---- the benchmark ----------------------------------------------------------

def benchmark_module(
    module: Union[_ember.VmModule, PathLike, str],
    entry_function=None,
    inputs=(),
    timeout=None,
    **kwargs,
):
    """Benchmarks ``entry_function`` of ``module`` (a ``VmModule`` or the
    path of a .vmfb file) called with ``inputs``; returns a list of
    ``BenchmarkResult`` (see the module's documentation)."""
    start = time.monotonic()

    def remaining():
        if timeout is None:
            return None
        left = timeout - (time.monotonic() - start)
        if left <= 0:
            raise BenchmarkTimeoutError(
                f"Benchmark timed out after {timeout} seconds")
        return left

    if isinstance(module, _ember.VmModule):
        functions = [f for f in module.function_names if f != "__init"]
        if entry_function is None:
            if len(functions) > 1:
                raise ValueError(
                    f"No function specified with multiple options {functions}")
            if not functions:
                raise ValueError("The module has no function to benchmark")
            entry_function = functions[0]
        if entry_function not in functions:
            raise ValueError(
                f"Attempted to benchmark unknown function {entry_function} of "
                f"options {functions}")
        vm_module = module
        instance = _ember.VmInstance()
    else:
        if entry_function is None:
            raise ValueError(
                "When specifying the module as a filepath the entry function "
                "must be specified.")
        instance = _ember.VmInstance()
        try:
            vm_module = _ember.VmModule.mmap(instance, os.fspath(module))
        except (OSError, ValueError, RuntimeError) as error:
            raise BenchmarkToolError(
                f"could not load module {os.fspath(module)}: {error}") from None

    flags = _Flags(kwargs)
    try:
        device = get_device(flags.device)
        hal_module = _ember.create_hal_module(instance, device)
        context = _ember.VmContext(instance, modules=[hal_module, vm_module])
    except (ValueError, RuntimeError, NotImplementedError) as error:
        raise BenchmarkToolError(str(error)) from None
    function = vm_module.lookup_function(entry_function)
    if function is None:
        raise BenchmarkToolError(
            f"NOT_FOUND: function '{entry_function}' not found in module "
            f"'{vm_module.name}'; exports: "
            f"{[f for f in vm_module.function_names if f != '__init']}")
    remaining()
    try:
        arguments = _build_inputs(device, list(inputs))
    except (ValueError, RuntimeError, TypeError) as error:
        raise BenchmarkToolError(f"invalid input: {error}") from None

    try:
        samples = _ember.benchmark_function(
            context, function, arguments,
            repetitions=flags.repetitions, min_time=flags.min_time,
            iterations=flags.iterations, warmup_time=flags.warmup_time,
            timeout=remaining())
    except TimeoutError:
        raise BenchmarkTimeoutError(
            f"Benchmark timed out after {timeout} seconds") from None
    except (ValueError, RuntimeError, IndexError, NotImplementedError) as error:
        raise BenchmarkToolError(str(error)) from None
    return _results(f"BM_{entry_function}/process_time/real_time", samples,
                    flags.aggregates_only)
