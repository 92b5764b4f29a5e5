"""Benchmarking compiled functions: ``iree.runtime.benchmark`` on Ember.

``benchmark_module(module, entry_function=None, inputs=None, timeout=None,
executable=None, **flags)`` returns the ``BenchmarkResult`` rows of
iree.runtime 3.13, which runs ``iree-benchmark-module`` in a subprocess and
reads its Google Benchmark JSON report. Ember measures in this process
instead: it links the module with a ``hal`` module over the device in a
fresh context (as ``SystemContext`` does), uploads the inputs once, and
calls the function repeatedly from native code with the GIL released
(``_ember.benchmark_function``; see python/bindings/benchmark_bindings.cc
for what is timed and how), then writes the rows that report would have.

Two cases run a tool in a subprocess, as upstream always does:
``executable`` (that program, given iree-benchmark-module's command line:
``--module=-`` with the module on stdin for a ``VmModule``, ``--function``,
``--input`` per input and ``--KEY=VALUE`` per flag) and a module file
without an entry function (``benchmark_exe()``, Ember's
``ember-benchmark-module``, which like IREE's benchmarks every export
that takes no arguments; none is an empty list).

What upstream passes on as ``--FLAG=VALUE`` is read here (a list or tuple
gives the flag once per value, the last one counting; ``True``/``False``
are ``true``/``false``):

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

Other flags are ignored with a ``UserWarning``; ``benchmark_out`` and
``benchmark_out_format`` are a ``ValueError``, as upstream (the report is
read from a file of its own).

Rows, as iree.runtime 3.13 makes them from the JSON report:
``BenchmarkResult(benchmark_name="BM_<function>/process_time/real_time",
time="0.0123 ms", cpu_time="0.0114 ms", iterations="46727",
report={...})``: wall and whole-process CPU time per call (Python's repr of
the report's float and its unit, always ``ms``), calls per repetition as a
string (the repetition count for aggregates), and ``report``, the JSON row
as a dict: ``name``, ``family_index``, ``per_family_instance_index``,
``run_name``, ``run_type`` (``"iteration"`` or ``"aggregate"``),
``repetitions``, ``repetition_index`` (iterations) or ``aggregate_name``
and ``aggregate_unit`` (aggregates), ``threads``, ``iterations``,
``real_time``, ``cpu_time``, ``time_unit`` and ``items_per_second``. The
``_cv`` row is a fraction in the report and a percentage in ``time`` and
``cpu_time`` (``"3.21 %"``). Aggregates are Google Benchmark's: the mean,
the median, the sample standard deviation and stddev / mean, of each time
and of ``items_per_second``.

Inputs are numpy arrays (any dtype Ember maps to a HAL element type; not
only those of ``DTYPE_TO_ABI_TYPE``), Python ints and floats, existing
``HalBufferView``/``DeviceArray`` objects, or the strings
``iree-benchmark-module`` takes: ``"4xf32=1,2,3,4"`` and
``"2x2xi32=[1 2][3 4]"`` (``,``, spaces and brackets separate values; one
value fills the tensor), ``"i32=5"``, a bare ``"5"`` (which takes the type
of its argument), ``"@file.npy"`` (the first array of a .npy file) and
``"+file.npy"`` (the next array of the file last named).

Errors, as upstream's: ``ValueError`` for an unknown entry function of a
``VmModule`` (or none given when it has several); ``BenchmarkTimeoutError``
when ``timeout`` seconds pass before the benchmark is done (counted from
the call, setup included); ``BenchmarkToolError`` for everything that
makes ``iree-benchmark-module`` fail (a module file that does not load, a
function it lacks, inputs that do not parse or do not match, a failing
call), with the error's text. A call that is running when the time is up
cannot be interrupted: it finishes on a native thread, and the next one is
not made.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import tempfile
import time
import warnings
from collections import namedtuple
from os import PathLike
from typing import Union

import numpy

from ember import _ember

from .array_interop import DeviceArray, map_dtype_to_element_type
from .dtypes import DTYPE_TO_ABI_TYPE
from .system_setup import get_device

__all__ = [
    "benchmark_exe",
    "benchmark_module",
]

BenchmarkResult = namedtuple(
    "BenchmarkResult", "benchmark_name time cpu_time iterations report"
)
BenchmarkResult.__doc__ = """One row of the benchmark report.

``time`` and ``cpu_time`` are "<value> <unit>" strings ("%" for the
``_cv`` aggregate), ``iterations`` is a string, and ``report`` is the
whole Google Benchmark JSON row as a dict."""


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


def _flag_values(flags: dict):
    """(name, value) for each --name=value upstream would pass: a list or
    tuple is the flag once per value, a bool is "true" or "false"."""
    for name, values in flags.items():
        if not isinstance(values, (list, tuple)):
            values = [values]
        for value in values:
            if isinstance(value, bool):
                value = "true" if value else "false"
            yield name, value


class _Flags:
    def __init__(self, flags: dict):
        self.device = "local-task"
        self.repetitions = 1
        self.min_time = 0.5
        self.iterations = 0
        self.warmup_time = 0.0
        self.aggregates_only = False
        workers = None
        for name, value in _flag_values(flags):
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

def _result(row: dict) -> BenchmarkResult:
    """A report row as iree.runtime 3.13 gives it: the times as "<float>
    <unit>", a percentage for the cv aggregate."""
    unit = row["time_unit"]
    real_time, cpu_time = row["real_time"], row["cpu_time"]
    if row.get("aggregate_unit") == "percentage":
        unit = "%"
        real_time *= 100
        cpu_time *= 100
    return BenchmarkResult(
        benchmark_name=row["name"],
        time=f"{real_time} {unit}",
        cpu_time=f"{cpu_time} {unit}",
        iterations=str(row["iterations"]),
        report=row,
    )


def _parse_report(text: str) -> list:
    """The rows of a Google Benchmark JSON report; BenchmarkToolError for a
    row that reports an error or a report that is not one."""
    # Google Benchmark leaves the file empty when no benchmark ran.
    if not text.strip():
        return []
    try:
        rows = json.loads(text)["benchmarks"]
        if not isinstance(rows, list):
            raise TypeError("'benchmarks' is not a list")
        results = []
        for row in rows:
            if row.get("error_occurred"):
                raise BenchmarkToolError(
                    f"{row['name']}: {row.get('error_message', '')}")
            results.append(_result(row))
        return results
    except (ValueError, KeyError, TypeError, AttributeError) as error:
        raise BenchmarkToolError(
            f"the benchmark report could not be read: {error!r}") from None


def _rows(name: str, family_index: int, samples, aggregates_only: bool):
    """The JSON rows Google Benchmark reports for `samples` (wall seconds,
    process CPU seconds, calls per repetition): one per repetition, then
    with several the mean, median, sample standard deviation and cv of
    each time and of items_per_second. Times are milliseconds per call."""
    repetitions = len(samples)
    common = {"name": name, "family_index": family_index,
              "per_family_instance_index": 0, "run_name": name}
    measured = []  # (real ms, cpu ms, items per second) per repetition
    rows = []
    for index, (wall, cpu, calls) in enumerate(samples):
        real_ms, cpu_ms = wall * 1e3 / calls, cpu * 1e3 / calls
        rate = calls / wall if wall > 0 else float("inf")
        measured.append((real_ms, cpu_ms, rate))
        rows.append({**common, "run_type": "iteration",
                     "repetitions": repetitions, "repetition_index": index,
                     "threads": 1, "iterations": calls, "real_time": real_ms,
                     "cpu_time": cpu_ms, "time_unit": "ms",
                     "items_per_second": rate})
    if repetitions < 2:
        return rows
    if aggregates_only:
        rows = []
    columns = numpy.array(measured, dtype=numpy.float64)
    mean = columns.mean(axis=0)
    stddev = columns.std(axis=0, ddof=1)
    with numpy.errstate(divide="ignore", invalid="ignore"):
        cv = numpy.where(mean != 0, stddev / mean, 0.0)
    for suffix, values, unit in (
            ("mean", mean, "time"),
            ("median", numpy.median(columns, axis=0), "time"),
            ("stddev", stddev, "time"), ("cv", cv, "percentage")):
        rows.append({**common, "name": f"{name}_{suffix}",
                     "run_type": "aggregate", "repetitions": repetitions,
                     "threads": 1, "aggregate_name": suffix,
                     "aggregate_unit": unit, "iterations": repetitions,
                     "real_time": float(values[0]),
                     "cpu_time": float(values[1]), "time_unit": "ms",
                     "items_per_second": float(values[2])})
    return rows


# ---- the tool in a subprocess -----------------------------------------------

def _build_benchmark_args(module, entry_function=None, inputs=None,
                          executable=None, **kwargs):
    """iree-benchmark-module's command line for these arguments, and the
    module's bytes to give it on stdin (None for a module file), as
    iree.runtime 3.13's helper of the same name returns them: the tool
    (``executable``, else ``benchmark_exe()``), ``--module=-`` or
    ``--module=PATH``, ``--function`` (checked against a ``VmModule``'s
    exports: ValueError), ``--KEY=VALUE`` per keyword argument (once per
    value of a list or tuple; booleans as ``true``/``false``), then
    ``--input`` per input: a string as it is, an array as
    ``SHAPExTYPE=VALUES`` (one value when all are equal). Unlike 3.13 a
    0-d array is ``TYPE=VALUE`` (3.13 writes ``xTYPE=VALUE``), an empty one
    has no values (3.13 raises IndexError) and booleans are 1 and 0."""
    args = [os.fspath(executable) if executable is not None
            else benchmark_exe()]
    flatbuffer = None
    if isinstance(module, _ember.VmModule):
        entry_function = _entry_of(module, entry_function)
        flatbuffer = module.stashed_flatbuffer_blob
        args.append("--module=-")
    else:
        args.append(f"--module={os.fspath(module)}")
    # Without --function the tool benchmarks every export that takes no
    # arguments.
    if entry_function is not None:
        args.append(f"--function={entry_function}")
    args.extend(f"--{name}={value}" for name, value in _flag_values(kwargs))
    for value in inputs or []:
        if isinstance(value, str):
            args.append(f"--input={value}")
            continue
        array = numpy.asarray(value)
        abi_type = DTYPE_TO_ABI_TYPE.get(array.dtype)
        if abi_type is None:
            raise ValueError(f"inputs of dtype {array.dtype} cannot be given "
                             "to the tool (DTYPE_TO_ABI_TYPE lacks it)")
        flat = array.reshape(-1)
        if flat.dtype == numpy.bool_:
            flat = flat.astype(numpy.uint8)  # 1 and 0, not True and False
        if flat.size and numpy.all(flat[0] == flat):
            text = str(flat[0])  # one value fills the tensor
        else:
            text = ",".join(str(v) for v in flat)
        shape = "".join(f"{d}x" for d in array.shape)
        args.append(f"--input={shape}{abi_type}={text}")
    return args, flatbuffer


def _run_tool(args, stdin, timeout) -> list:
    """Runs the tool with a JSON report in a file of its own (console
    output stays out of it) and returns the report's rows."""
    with tempfile.TemporaryDirectory() as directory:
        report = os.path.join(directory, "results.json")
        args = args + [f"--benchmark_out={report}",
                       "--benchmark_out_format=json"]
        try:
            done = subprocess.run(args, input=stdin, timeout=timeout,
                                  stdout=subprocess.PIPE,
                                  stderr=subprocess.PIPE)
        except subprocess.TimeoutExpired:
            raise BenchmarkTimeoutError(
                f"Benchmark timed out after {timeout} seconds") from None
        except OSError as error:
            raise BenchmarkToolError(
                f"could not run {args[0]}: {error}") from None
        out = done.stdout.decode(errors="replace")
        err = done.stderr.decode(errors="replace")
        if done.returncode != 0:
            raise BenchmarkToolError(f"stderr:\n{err}\nstdout:\n{out}")
        try:
            with open(report, encoding="utf-8") as file:
                text = file.read()
        except (OSError, UnicodeDecodeError):
            text = ""
        return _parse_report(text)


# ---- the benchmark ----------------------------------------------------------

def _entry_of(module, entry_function):
    """The function to benchmark of a VmModule, checked as upstream checks
    it (ValueError)."""
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
    return entry_function


def benchmark_module(
    module: Union[_ember.VmModule, PathLike, str],
    entry_function=None,
    inputs=None,
    timeout=None,
    executable=None,
    **kwargs,
):
    """Benchmarks ``entry_function`` of ``module`` (a ``VmModule`` or the
    path of a .vmfb file) called with ``inputs``; returns a list of
    ``BenchmarkResult`` (see the module's documentation). Keyword arguments
    are iree-benchmark-module's flags; ``executable`` runs that tool in a
    subprocess instead of measuring in this process."""
    start = time.monotonic()
    if "benchmark_out" in kwargs or "benchmark_out_format" in kwargs:
        raise ValueError(
            "benchmark_module reads results from its own JSON file")
    inputs = list(inputs or [])

    def remaining():
        if timeout is None:
            return None
        left = timeout - (time.monotonic() - start)
        if left <= 0:
            raise BenchmarkTimeoutError(
                f"Benchmark timed out after {timeout} seconds")
        return left

    if isinstance(module, _ember.VmModule):
        entry_function = _entry_of(module, entry_function)
    if executable is not None or entry_function is None:
        # A module file without an entry function: the tool picks the
        # exports to run, as upstream's does.
        args, stdin = _build_benchmark_args(
            module, entry_function, inputs, executable, **kwargs)
        return _run_tool(args, stdin, timeout)

    if isinstance(module, _ember.VmModule):
        vm_module = module
        instance = _ember.VmInstance()
    else:
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
        arguments = _build_inputs(device, inputs)
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
    rows = _rows(f"BM_{entry_function}/process_time/real_time", 0, samples,
                 flags.aggregates_only)
    return [_result(row) for row in rows]
