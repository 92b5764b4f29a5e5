"""The ``iree.runtime``-compatible API of Ember.

Threading: a loaded ``VmModule`` and a ``VmInstance`` are immutable and may
be shared by threads. A ``VmContext`` runs one call at a time: ``invoke``
releases the GIL, and calls from several threads into one context are
serialised by the context's own lock; give each thread its own context to
run in parallel.
"""

from ember._ember import (  # noqa: F401
    BufferUsage,
    HalAllocator,
    HalBuffer,
    HalBufferView,
    HalCommandBuffer,
    HalDevice,
    HalDriver,
    HalElementType,
    HalFence,
    HalSemaphore,
    Linkage,
    MappedMemory,
    MemoryType,
    VmBuffer,
    VmContext,
    VmFunction,
    VmInstance,
    VmModule,
    VmRef,
    VmVariantList,
    create_hal_module,
    get_driver,
    query_available_drivers,
)

__all__ = [
    "BufferUsage",
    "HalAllocator",
    "HalBuffer",
    "HalBufferView",
    "HalCommandBuffer",
    "HalDevice",
    "HalDriver",
    "HalElementType",
    "HalFence",
    "HalSemaphore",
    "Linkage",
    "MappedMemory",
    "MemoryType",
    "VmBuffer",
    "VmContext",
    "VmFunction",
    "VmInstance",
    "VmModule",
    "VmRef",
    "VmVariantList",
    "create_hal_module",
    "get_driver",
    "query_available_drivers",
]
