"""``FunctionInvoker``: calls a module export with Python values.

Calling a ``FunctionInvoker`` runs native code (``ember._ember.NativeInvoker``,
its base class, explained in python/bindings/function_bindings.cc): the
arguments are converted, the function runs with the GIL released, and the
results are made into Python values without going through this module.
Host arrays that can be are imported without a copy.

This module supplies what that native path defers to Python (the
``_array_argument`` and ``_sequence_argument`` hooks), and the Python
implementation of a call (``_call_python``), which serves functions with
``iree.abi`` reflection and invokers over stand-in contexts and functions
(objects with ``invoke`` / ``reflection`` that are not Ember's own). It has
three steps:

1. ``_pack_dynamic`` / ``_pack_reflected`` turn the Python arguments into a
   ``VmVariantList``;
2. ``VmContext.invoke`` runs the function (the GIL is released there);
3. ``_unpack_dynamic`` / ``_unpack_reflected`` turn the results back into
   Python values (buffer views become ``DeviceArray``).

Dynamic mode (no ``iree.abi`` reflection, which is what current compilers
produce) follows iree.runtime 3.11: ``int`` -> i64, ``float`` -> f64,
``list``/``tuple`` -> a VM list, ``dict`` -> a VM list of its values sorted
by key, ``HalBufferView``/``DeviceArray`` by reference, anything with
``__array__`` -> a new buffer view holding a copy; nothing else is accepted.

Functions of the ``coarse-fences`` model (``--iree-execution-model=
async-external``) take a wait and a signal fence after their arguments. The
invoker appends both (an empty wait fence, a signal fence on a fresh
semaphore) and waits for the signal before reading the results.
iree.runtime 3.11 cannot call such functions at all (the VM reports an
argument count mismatch), so this is an Ember extension.
"""

from __future__ import annotations

import asyncio
import atexit
import functools
import json
import logging
import re
import weakref

import numpy as np

from ember._ember import (
    BufferUsage,
    HalBufferView,
    HalDevice,
    HalFence,
    MemoryType,
    NativeInvoker,
    VmContext,
    VmFunction,
    VmRef,
    VmVariantList,
)

from ember import _ember

from .array_interop import (
    _ELEMENT_TYPE_TO_DTYPE,
    DeviceArray,
    _element_type_to_dtype_or_none,
    map_dtype_to_element_type,
)
from .dtypes import map_abi_type_to_dtype_info

__all__ = [
    "FunctionInvoker",
]

# How implicit argument buffers (from ndarrays) are allocated.
IMPLICIT_BUFFER_ARG_MEMORY_TYPE = MemoryType.DEVICE_LOCAL
IMPLICIT_BUFFER_ARG_USAGE = BufferUsage.DEFAULT | BufferUsage.MAPPING

ABI_TYPE_TO_DTYPE = {
    "f32": np.float32,
    "i32": np.int32,
    "i64": np.int64,
    "f64": np.float64,
    "i16": np.int16,
    "i8": np.int8,
    "i1": np.bool_,
}


class ArgumentError(ValueError):
    """An argument could not be converted to a VM value."""


class ReturnError(ValueError):
    """A result could not be converted to a Python value."""


class Invocation:
    """Context of one call, kept for error messages."""

    __slots__ = ["device", "function_name", "current_arg", "current_desc",
                 "current_return_list", "current_return_index"]

    def __init__(self, device: HalDevice, function_name: str = ""):
        self.device = device
        self.function_name = function_name
        self.current_arg = None
        self.current_desc = None
        self.current_return_list = None
        self.current_return_index = 0


# -- arguments ---------------------------------------------------------------


def _not_convertible(value, function_name: str, path: str):
    return ValueError(f"could not convert python value to VM: {value!r} "
                      f"(argument {path} of '{function_name}'; expected an "
                      "array (numpy, DLPack), a DeviceArray or HalBufferView, "
                      "an int, a float, or a list, tuple or dict of these)")


def _push_array(device: HalDevice, out: VmVariantList, value, dtype,
                function_name: str, path: str):
    host = np.asarray(value, dtype, "C")
    element_type = map_dtype_to_element_type(host.dtype)
    if element_type is None:
        raise ValueError(
            f"could not map dtype {host.dtype} to a HAL element type "
            f"(argument {path} of '{function_name}')")
    out.push_ref(device.allocator.allocate_buffer_copy(
        IMPLICIT_BUFFER_ARG_MEMORY_TYPE, IMPLICIT_BUFFER_ARG_USAGE, device,
        host, element_type))


def _push_dynamic(device: HalDevice, out: VmVariantList, value,
                  function_name: str, path: str):
    kind = type(value)
    if kind is int:
        out.push_int(value)
    elif kind is float:
        out.push_float(value)
    elif kind is DeviceArray:
        out.push_ref(value._buffer_view)  # pylint: disable=protected-access
    elif kind is HalBufferView:
        out.push_ref(value)
    elif kind is list or kind is tuple:
        out.push_list(_pack_sequence(device, value, function_name, path))
    elif kind is dict:
        items = [value[key] for key in sorted(value)]
        out.push_list(_pack_sequence(device, items, function_name, path))
    elif hasattr(value, "__array__"):
        _push_array(device, out, value, None, function_name, path)
    else:
        raise _not_convertible(value, function_name, path)


def _pack_sequence(device, values, function_name: str, path: str):
    packed = VmVariantList(len(values))
    for index, item in enumerate(values):
        _push_dynamic(device, packed, item, function_name, f"{path}[{index}]")
    return packed


# Kinds of dtypes whose arrays the native path can import (they have a
# buffer-protocol format); others are copied here. numpy's own type codes
# only: ml_dtypes' types have a kind ("V", or "f" for float8_e5m2) but no
# buffer format.
_IMPORTABLE_KINDS = frozenset("biufc?")
_NUMPY_TYPE_CODES = frozenset(np.typecodes["All"])


def _array_argument(device: HalDevice, value, function_name: str, path: str):
    """Native-path hook: an argument the native path could not import (not
    a buffer-protocol array of a type it knows) that has ``__array__`` or
    ``__dlpack__``. Returns an ndarray for the native path to import (or
    copy), or a ``HalBufferView`` holding a copy."""
    if hasattr(value, "__array__"):
        host = np.asarray(value)
    elif hasattr(value, "__dlpack__"):
        host = np.from_dlpack(value)
    else:
        raise _not_convertible(value, function_name, path)
    dtype = host.dtype
    if (dtype.kind in _IMPORTABLE_KINDS and dtype.char in _NUMPY_TYPE_CODES
            and dtype.isnative and map_dtype_to_element_type(dtype)
            is not None):
        return host
    packed = VmVariantList(1)
    _push_array(device, packed, host, None, function_name, path)
    return packed.get_as_object(0, HalBufferView)


def _sequence_argument(device: HalDevice, value, function_name: str,
                       path: str) -> VmVariantList:
    """Native-path hook: a list, tuple or dict argument as a VM list."""
    if type(value) is dict:
        value = [value[key] for key in sorted(value)]
    return _pack_sequence(device, value, function_name, path)


def _pack_dynamic(device: HalDevice, function_name: str, args, kwargs):
    if kwargs:
        raise ValueError("kwargs not supported for dynamic dispatch functions")
    packed = VmVariantList(len(args))
    for index, value in enumerate(args):
        _push_dynamic(device, packed, value, function_name, str(index))
    return packed


def _push_reflected(device: HalDevice, out: VmVariantList, value, desc,
                    function_name: str, path: str):
    if isinstance(desc, str):
        dtype = ABI_TYPE_TO_DTYPE.get(desc)
        if dtype is None:
            raise ArgumentError(f"unrecognized scalar type '{desc}' "
                                f"(argument {path} of '{function_name}')")
        # Casts as nanobind does: floats take ints, ints take no floats.
        if desc[0] == "f" and type(value) in (float, int):
            out.push_float(float(value))
        elif desc[0] != "f" and isinstance(value, int):
            out.push_int(int(value))
        else:
            raise RuntimeError("std::bad_cast")
        return
    kind = desc[0]
    if kind == "named":
        _push_reflected(device, out, value, desc[2], function_name, path)
    elif kind == "ndarray":
        if type(value) is DeviceArray:
            out.push_ref(value._buffer_view)  # pylint: disable=protected-access
        elif type(value) is HalBufferView:
            out.push_ref(value)
        else:
            dtype = ABI_TYPE_TO_DTYPE.get(desc[1])
            if dtype is None:
                raise ArgumentError(f"unrecognized dtype '{desc[1]}' "
                                    f"(argument {path} of '{function_name}')")
            if desc[2] == 0 and not hasattr(value, "__array__"):
                value = dtype(value)
            _push_array(device, out, value, dtype, function_name, path)
    elif kind in ("slist", "stuple"):
        items = list(value)
        sub_descs = desc[1:]
        if len(items) != len(sub_descs):
            # iree.runtime's wording, then where.
            raise ArgumentError(
                f"expected a sequence with {len(sub_descs)} values. got: "
                f"{value!r} (argument {path} of '{function_name}')")
        packed = VmVariantList(len(items))
        for index, (item, sub) in enumerate(zip(items, sub_descs)):
            _push_reflected(device, packed, item, sub, function_name,
                            f"{path}[{index}]")
        out.push_list(packed)
    elif kind == "sdict":
        if len(value) != len(desc) - 1:
            raise ArgumentError(
                f"expected a dict with {len(desc) - 1} values. got: "
                f"{value!r} (argument {path} of '{function_name}')")
        packed = VmVariantList(len(desc) - 1)
        for key, sub in desc[1:]:
            try:
                item = value[key]
            except (KeyError, IndexError, TypeError) as error:
                raise ArgumentError(
                    f"could not get item {key!r} from: {value!r} (argument "
                    f"{path} of '{function_name}')") from error
            _push_reflected(device, packed, item, sub, function_name,
                            f"{path}[{key!r}]")
        out.push_list(packed)
    else:
        raise ArgumentError(f"unsupported argument descriptor {desc!r} "
                            f"(argument {path} of '{function_name}')")


def _pack_reflected(device: HalDevice, function_name: str, arg_descs, args,
                    kwargs):
    # As iree.runtime 3.11: "named" descriptors are keyword-only, the others
    # take the positional arguments in order.
    values = [_MISSING] * len(arg_descs)
    positional = []
    names = {}
    for index, desc in enumerate(arg_descs):
        if isinstance(desc, list) and desc and desc[0] == "named":
            names[desc[1]] = index
        else:
            positional.append(index)
    if len(args) > len(positional):
        raise ValueError(f"mismatched call arity: expected {len(positional)} "
                         f"got {len(args)} (calling '{function_name}')")
    for index, value in zip(positional, args):
        values[index] = value
    for key, value in kwargs.items():
        index = names.get(key)
        if index is None:
            raise ValueError(f"specified kwarg '{key}' is unknown "
                             f"(calling '{function_name}')")
        values[index] = value
    packed = VmVariantList(len(values))
    for index, (value, desc) in enumerate(zip(values, arg_descs)):
        if value is _MISSING:
            raise ValueError("mismatched call arity: expected a value for "
                             f"argument {index} (calling '{function_name}')")
        _push_reflected(device, packed, value, desc, function_name, str(index))
    return packed


_MISSING = object()


# -- results -----------------------------------------------------------------


def _unpack_dynamic(device: HalDevice, results: VmVariantList) -> list:
    values = []
    for index in range(len(results)):
        value = results.get_variant(index)
        if isinstance(value, VmRef):
            buffer_view = value.deref(HalBufferView, True)
            if buffer_view is not None:
                value = DeviceArray(device, buffer_view,
                                    implicit_host_transfer=True)
        values.append(value)
    return values


def _return_error(inv: Invocation, summary: str):
    return ReturnError(
        f"Error processing function return: {summary} (while decoding "
        f"return {inv.current_return_index} of '{inv.function_name}' with "
        f"description {inv.current_desc})")


def _result_ndarray(inv, vm_list, index, desc):
    buffer_view = vm_list.get_as_object(index, HalBufferView)
    # As iree.runtime 3.13: the dtypes table's numpy dtype (np.dtype, so a
    # DeviceArray's dtype and repr say "float32"; 3.11 gave the scalar type
    # and knew fewer ABI types).
    try:
        dtype = map_abi_type_to_dtype_info(desc[1]).dtype
    except (KeyError, TypeError):
        raise _return_error(inv, f"unrecognized dtype '{desc[1]}'") from None
    return DeviceArray(inv.device, buffer_view, implicit_host_transfer=True,
                       override_dtype=dtype)


def _result_slist(inv, vm_list, index, desc):
    return _unpack_reflected(inv, vm_list.get_as_list(index), desc[1:])


def _result_stuple(inv, vm_list, index, desc):
    return tuple(_result_slist(inv, vm_list, index, desc))


def _result_sdict(inv, vm_list, index, desc):
    keys = [key for key, _ in desc[1:]]
    values = _unpack_reflected(inv, vm_list.get_as_list(index),
                               [sub for _, sub in desc[1:]])
    return dict(zip(keys, values))


def _result_pylist(inv, vm_list, index, desc):
    sub_list = vm_list.get_as_list(index)
    return _unpack_reflected(inv, sub_list, list(desc[1:]) * len(sub_list))


def _result_scalar(expected: type):
    def convert(inv, vm_list, index, desc):
        value = vm_list.get_variant(index)
        if not isinstance(value, expected):
            raise ReturnError(
                f"expected an {expected} value but got {value.__class__}")
        return value
    return convert


VM_TO_PYTHON_CONVERTERS = {
    "ndarray": _result_ndarray,
    "sdict": _result_sdict,
    "slist": _result_slist,
    "stuple": _result_stuple,
    "py_homogeneous_list": _result_pylist,
    "i8": _result_scalar(int),
    "i16": _result_scalar(int),
    "i32": _result_scalar(int),
    "i64": _result_scalar(int),
    "f16": _result_scalar(float),
    "f32": _result_scalar(float),
    "f64": _result_scalar(float),
    "bf16": _result_scalar(float),
}


def _unpack_reflected(inv: Invocation, vm_list: VmVariantList, descs) -> list:
    if len(vm_list) != len(descs):
        raise _return_error(
            inv, f"mismatched return arity: {len(vm_list)} vs {len(descs)}")
    values = []
    for index, desc in enumerate(descs):
        inv.current_return_list = vm_list
        inv.current_return_index = index
        inv.current_desc = desc
        kind = desc if isinstance(desc, str) else desc[0]
        converter = VM_TO_PYTHON_CONVERTERS.get(kind)
        if converter is None:
            raise _return_error(inv, f"cannot map VM type to Python: {kind}")
        try:
            values.append(converter(inv, vm_list, index, desc))
        except ReturnError:
            raise
        except Exception as error:
            raise _return_error(
                inv, "exception converting from VM type to Python") from error
    return values


# -- the invoker -------------------------------------------------------------


_DECLARED_PARAMETER = re.compile(r"%[\w.$-]+: ([^,()]+(?:<[^<>]*>)?)")
# At most 18 digits a dim, so that it fits an int64 (a longer one, from a
# hostile module, leaves that argument unchecked rather than failing).
_DECLARED_TENSOR = re.compile(r"tensor<((?:(?:\d{1,18}|\?)x)*)([a-z]\w*)>")
# Element types the native path checks before the call (the program checks
# every type, but its message names the HAL's type codes in hex): floats and
# integers of whole bytes. Others (i1, complex, float8) are left to the
# program.
_CHECKED_ELEMENT_TYPE = re.compile(r"(?:f|bf|i|si|ui)(?:8|16|32|64)")


def _declared_arguments(reflection: dict) -> list:
    """What ``iree.abi.declaration`` says of each argument, for the native
    path's checks: ``(type text, dims, element type)`` for a tensor (a dim
    of -1 is dynamic; the element type as text, e.g. "f32", or None when it
    is not checked), ``(type text, None, None)`` for anything else; an empty
    list when there is no declaration or it cannot be read (nothing is
    checked)."""
    declaration = reflection.get("iree.abi.declaration", "")
    if not isinstance(declaration, str) or len(declaration) > 65536:
        return []
    start = declaration.find("(")
    end = declaration.find(") ->") if ") ->" in declaration else \
        declaration.rfind(")")
    if start < 0 or end < start:
        return []
    declared = []
    for match in _DECLARED_PARAMETER.finditer(declaration, start, end):
        text = match.group(1).strip()
        tensor = _DECLARED_TENSOR.fullmatch(text)
        if tensor is None:
            declared.append((text, None, None))
            continue
        dims = [-1 if dim == "?" else int(dim)
                for dim in tensor.group(1).split("x") if dim]
        element = tensor.group(2)
        if not _CHECKED_ELEMENT_TYPE.fullmatch(element):
            element = None
        declared.append((text, dims, element))
    return declared


# One _CompletionPort per event loop, watched by the loop (add_reader): the
# eventfd through which device threads say that async_calls have finished.
# Kept on the loop itself, so that a dropped loop takes its port with it (the
# port holds finished calls' futures, which hold the loop: a cycle the
# collector sees); loops that take no attributes use a weak dictionary.
_completion_ports = weakref.WeakKeyDictionary()


def _completion_port(loop):
    port = getattr(loop, "_ember_completion_port", None)
    if port is None:
        port = _completion_ports.get(loop)
    if port is None:
        port = _ember._CompletionPort()
        loop.add_reader(port.fileno(), port.drain)
        try:
            loop._ember_completion_port = port
        except AttributeError:
            _completion_ports[loop] = port
    return port


class FunctionInvoker(NativeInvoker):
    """A callable VM function bound to a context and a device.

    ``FunctionInvoker(vm_context, device, vm_function)``; calling it with
    Python values calls the function and returns its result (one value),
    a tuple of results, or None. Thread-safe: calls on one context are
    serialised, with the GIL released while the function runs.
    """

    __slots__ = ["_vm_context", "_device", "_vm_function", "_name",
                 "_abi_dict", "_arg_descs", "_ret_descs",
                 "_has_inlined_results", "_coarse_fences"]

    def __init__(self, vm_context: VmContext, device: HalDevice,
                 vm_function: VmFunction):
        self._vm_context = vm_context
        self._device = device
        self._vm_function = vm_function
        # Reflection alone decides the calling mode; a name is for messages
        # (IREE's tests invoke through stand-ins that have none).
        self._name = getattr(vm_function, "name", "?")
        self._abi_dict = None
        self._arg_descs = None
        self._ret_descs = None
        self._has_inlined_results = False
        reflection = vm_function.reflection
        self._coarse_fences = (
            reflection.get("iree.abi.model") == "coarse-fences")
        self._parse_abi(reflection)
        NativeInvoker.__init__(self, vm_context, device, vm_function,
                               use_native=self._arg_descs is None,
                               coarse_fences=self._coarse_fences,
                               declared=_declared_arguments(reflection))

    @property
    def vm_function(self) -> VmFunction:
        """The VmFunction this invoker calls."""
        return self._vm_function

    def __repr__(self):
        return repr(self._vm_function)

    def _parse_abi(self, reflection: dict):
        abi_json = reflection.get("iree.abi")
        if abi_json is None:
            logging.debug("Function lacks reflection data. Interop will be "
                          "limited: %r", self._vm_function)
            return
        try:
            self._abi_dict = json.loads(abi_json)
        except json.JSONDecodeError as error:
            raise RuntimeError(
                f"Reflection metadata is not valid JSON: {abi_json}") from error
        try:
            self._arg_descs = self._abi_dict["a"]
            self._ret_descs = self._abi_dict["r"]
        except (KeyError, TypeError) as error:
            raise RuntimeError(
                f"Malformed function reflection metadata: {reflection}"
            ) from error
        if (not isinstance(self._arg_descs, list)
                or not isinstance(self._ret_descs, list)):
            raise RuntimeError("Malformed function reflection metadata "
                               f"structure: {reflection}")
        if len(self._ret_descs) == 1:
            only = self._ret_descs[0]
            if only and only[0] in ("slist", "stuple", "sdict"):
                self._has_inlined_results = True

    def _call_python(self, *args, **kwargs):
        """The call, in Python (see the module's docstring)."""
        device = self._device
        if self._arg_descs is None:
            arg_list = _pack_dynamic(device, self._name, args, kwargs)
        else:
            arg_list = _pack_reflected(device, self._name, self._arg_descs,
                                       args, kwargs)
        ret_descs = self._ret_descs
        ret_list = VmVariantList(len(ret_descs) if ret_descs else 1)
        if self._coarse_fences:
            self._invoke_with_fences(arg_list, ret_list)
        else:
            self._vm_context.invoke(self._vm_function, arg_list, ret_list)

        if ret_descs is None:
            values = _unpack_dynamic(device, ret_list)
        else:
            inv = Invocation(device, self._name)
            if self._has_inlined_results:
                wrapped = VmVariantList(1)
                wrapped.push_list(ret_list)
                ret_list = wrapped
            values = _unpack_reflected(inv, ret_list, ret_descs)
        if len(values) == 1:
            return values[0]
        if not values:
            return None
        return tuple(values)

    async def async_call(self, *args, **kwargs):
        """Calls the function from asyncio without blocking the event loop.

        ``await invoker.async_call(*args)`` returns what ``invoker(*args)``
        returns. A function of the coarse-fences model (compiled with
        ``--iree-execution-model=async-external``) on a device with queue
        threads (``local-task``) is issued on the loop's thread and returns
        once its work is queued; the result arrives when its signal fence
        does, so many calls awaited together (``asyncio.gather``) are in
        flight at once and run side by side on the device. Other functions
        (and local-sync) run whole on the loop's default executor, so the
        loop stays free, but calls into one context still run one at a
        time. An Ember extension: iree.runtime has no awaitable call.
        """
        loop = asyncio.get_running_loop()
        future = None
        if not kwargs:
            future = _ember._start_async_call(self, _completion_port(loop),
                                              loop, *args)
        if future is None:
            return await loop.run_in_executor(
                None, functools.partial(self, *args, **kwargs))
        return await future

    def _invoke_with_fences(self, arg_list: VmVariantList,
                            ret_list: VmVariantList):
        semaphore = self._device.create_semaphore(0)
        signal = HalFence.create_at(semaphore, 1)
        arg_list.push_ref(HalFence(0))
        arg_list.push_ref(signal)
        self._vm_context.invoke(self._vm_function, arg_list, ret_list)
        signal.wait()


_ember._set_call_hooks(DeviceArray, np.asarray, _ELEMENT_TYPE_TO_DTYPE,
                       _array_argument, _sequence_argument,
                       _element_type_to_dtype_or_none)
atexit.register(_ember._clear_call_hooks)
