"""What a call copies, counted by the device allocator.

The allocator's IREE-named totals (host_/device_bytes_allocated, bytes
allocated over its life) say exactly how many bytes a call allocated, so
each claim of the native call path is checked as a byte count:

- every host input is copied once, as iree.runtime copies it: compiled
  code may update an argument's buffer in place (a tensor.insert_slice
  into an argument with no other use), so an imported array could come
  back changed;
- np.asarray / to_host of a result on a CPU device maps it (nothing
  allocated, the same memory every time, kept alive by the ndarray);
- a result never aliases the caller's array (a function that returns its
  argument gets a copy);
- the numbers are the ones numpy computes.
"""

from __future__ import annotations

import gc

import numpy as np
import pytest

import ember.runtime as rt
from conftest import compile_mlir

N = 16384  # elements: 64 KiB of f32, well above any small-size path
NBYTES = N * 4

PROGRAM = f"""
func.func @neg(%x: tensor<{N}xf32>) -> tensor<{N}xf32> {{
  %0 = arith.negf %x : tensor<{N}xf32>
  return %0 : tensor<{N}xf32>
}}
func.func @same(%x: tensor<{N}xf32>) -> tensor<{N}xf32> {{
  return %x : tensor<{N}xf32>
}}
func.func @insert(%x: tensor<{N}xf32>, %y: tensor<4xf32>) -> tensor<{N}xf32> {{
  %0 = tensor.insert_slice %y into %x[8] [4] [1]
      : tensor<4xf32> into tensor<{N}xf32>
  return %0 : tensor<{N}xf32>
}}
"""


@pytest.fixture(scope="module")
def module_path():
    return compile_mlir("zero_copy", PROGRAM)


@pytest.fixture(params=["local-sync", "local-task"])
def bound(request, module_path):
    return rt.load_vm_flatbuffer_file(module_path, driver=request.param)


def _allocated(device) -> int:
    stats = device.allocator.statistics
    return int(stats["host_bytes_allocated"]) + int(
        stats["device_bytes_allocated"])


def _device(bound):
    return bound._context.config.device  # pylint: disable=protected-access


def _aligned(values: np.ndarray) -> np.ndarray:
    """A copy of `values` at a 64-byte aligned address."""
    backing = np.empty(values.size + 16, values.dtype)
    skip = (-backing.ctypes.data % 64) // values.itemsize
    out = backing[skip:skip + values.size]
    out[...] = values
    assert out.ctypes.data % 64 == 0
    return out


def _unaligned(values: np.ndarray) -> np.ndarray:
    backing = np.empty(values.size + 16, values.dtype)
    skip = (-backing.ctypes.data % 64) // values.itemsize + 1
    out = backing[skip:skip + values.size]
    out[...] = values
    assert out.ctypes.data % 64 != 0
    return out


def _bytes_allocated_by(device, action):
    before = _allocated(device)
    result = action()
    return _allocated(device) - before, result


VALUES = np.linspace(-3, 5, N, dtype=np.float32)


@pytest.mark.parametrize("kind",
                         ["aligned", "read_only", "unaligned", "strided"])
def test_inputs_are_copied_once(bound, kind):
    if kind == "aligned":
        x = _aligned(VALUES)
    elif kind == "read_only":
        x = _aligned(VALUES)
        x.flags.writeable = False
    elif kind == "unaligned":
        x = _unaligned(VALUES)
    else:
        backing = _aligned(np.repeat(VALUES, 2))
        x = backing[::2]
        assert not x.flags.c_contiguous
    allocated, result = _bytes_allocated_by(_device(bound),
                                            lambda: bound.neg(x))
    assert allocated == 2 * NBYTES  # one copy of the input, and the result
    np.testing.assert_array_equal(np.asarray(result), -VALUES)


@pytest.mark.parametrize("writable", [True, False])
def test_an_in_place_update_never_reaches_the_callers_array(bound, writable):
    # The compiler updates %x in place (its only use); with the array
    # imported instead of copied, elements 8..11 of the caller's array
    # would change.
    x = _aligned(VALUES)
    x.flags.writeable = writable
    y = np.full(4, -1.0, np.float32)
    want = VALUES.copy()
    want[8:12] = y
    for _ in range(2):
        np.testing.assert_array_equal(np.asarray(bound.insert(x, y)), want)
    np.testing.assert_array_equal(x, VALUES)


def test_read_only_input_is_never_written(bound):
    x = _aligned(VALUES)
    x.flags.writeable = False
    before = x.copy()
    bound.neg(x)
    bound.same(x)
    np.testing.assert_array_equal(x, before)


def test_result_is_a_view_not_a_copy(bound):
    device = _device(bound)
    result = bound.neg(_aligned(VALUES))
    allocated, host = _bytes_allocated_by(device, lambda: np.asarray(result))
    assert allocated == 0
    assert np.asarray(result) is host  # kept, not remade
    assert result.to_host() is host
    np.testing.assert_array_equal(host, -VALUES)
    # The ndarray keeps the buffer alive after the DeviceArray is gone.
    del result
    gc.collect()
    np.testing.assert_array_equal(host, -VALUES)


def test_result_never_aliases_the_input(bound):
    x = _aligned(VALUES)
    result = np.asarray(bound.same(x))
    assert not np.shares_memory(result, x)
    x[:] = 0  # the caller reuses its array
    np.testing.assert_array_equal(result, VALUES)


def test_the_callers_array_is_free_after_the_call(bound):
    # After the call the caller's array is free to change and results are
    # unaffected.
    x = _aligned(VALUES)
    first = np.asarray(bound.neg(x))
    x *= 2
    second = np.asarray(bound.neg(x))
    np.testing.assert_array_equal(first, -VALUES)
    np.testing.assert_array_equal(second, -2 * VALUES)
