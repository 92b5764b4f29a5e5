"""Allocator queries and enums as iree.runtime 3.11 has them: buffer
compatibility, host staging copies, trim, MemoryAccess/BufferCompatibility
values, element type byte queries."""

from __future__ import annotations

import numpy as np
import pytest

RUNTIMES = ["ember", "iree"]


def _rt(ember_rt, iree_rt, which):
    return ember_rt if which == "ember" else iree_rt


def test_enum_values_match(ember_rt, iree_rt):
    for enum in ("MemoryAccess", "BufferCompatibility"):
        ours = getattr(ember_rt, enum)
        theirs = getattr(iree_rt, enum)
        for name in ("NONE", "READ", "WRITE", "DISCARD", "DISCARD_WRITE",
                     "MAY_ALIAS", "UNALIGNED", "ANY", "ALL", "ALLOCATABLE",
                     "IMPORTABLE", "EXPORTABLE", "QUEUE_TRANSFER",
                     "QUEUE_DISPATCH", "LOW_PERFORMANCE"):
            if hasattr(theirs, name):
                assert int(getattr(ours, name)) == int(getattr(theirs, name)), \
                    (enum, name)
    for name in ("INT_4", "INT_8", "FLOAT_16", "BOOL_8", "FLOAT_64"):
        e = getattr(ember_rt.HalElementType, name)
        i = getattr(iree_rt.HalElementType, name)
        assert ember_rt.HalElementType.is_byte_aligned(e) == \
            iree_rt.HalElementType.is_byte_aligned(i), name
        assert ember_rt.HalElementType.dense_byte_count(e) == \
            iree_rt.HalElementType.dense_byte_count(i), name


@pytest.mark.parametrize("memory_type,usage", [
    ("DEVICE_LOCAL", "DEFAULT"), ("HOST_LOCAL", "DEFAULT"),
    ("DEVICE_LOCAL", "TRANSFER"), ("DEVICE_LOCAL", "DISPATCH_STORAGE"),
    ("HOST_LOCAL", "MAPPING"),
])
def test_buffer_compatibility_matches_iree(ember_rt, iree_rt, memory_type,
                                           usage):
    answers = []
    for rt in (ember_rt, iree_rt):
        allocator = rt.get_device("local-task").allocator
        answers.append(int(allocator.query_buffer_compatibility(
            memory_type=getattr(rt.MemoryType, memory_type),
            allowed_usage=getattr(rt.BufferUsage, usage),
            intended_usage=getattr(rt.BufferUsage, usage),
            allocation_size=1024)))
    assert answers[0] == answers[1]


def test_host_staging_copy_matches_iree(ember_rt, iree_rt):
    reprs = []
    for rt in (ember_rt, iree_rt):
        device = rt.get_device("local-task")
        buffer = device.allocator.allocate_host_staging_buffer_copy(
            device, np.arange(3, dtype=np.int32))
        reprs.append(repr(buffer))
    assert reprs[0] == reprs[1]


def test_trim_keeps_live_buffers(ember_rt):
    device = ember_rt.get_device("local-task")
    allocator = device.allocator
    view = allocator.allocate_buffer_copy(
        memory_type=ember_rt.MemoryType.DEVICE_LOCAL,
        allowed_usage=ember_rt.BufferUsage.DEFAULT, device=device,
        buffer=np.arange(4, dtype=np.float32),
        element_type=ember_rt.HalElementType.FLOAT_32)
    for _ in range(10):  # freed blocks go to the reuse cache ...
        allocator.allocate_buffer(
            memory_type=ember_rt.MemoryType.DEVICE_LOCAL,
            allowed_usage=ember_rt.BufferUsage.DEFAULT, allocation_size=256)
    allocator.trim()  # ... and trim frees them, not live buffers
    assert list(view.map().asarray([4], np.float32)) == [0, 1, 2, 3]
