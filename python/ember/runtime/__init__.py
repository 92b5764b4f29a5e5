"""The ``iree.runtime``-compatible API of Ember.

Threading: a loaded ``VmModule`` is immutable and may be shared by threads.
"""

from ember._ember import (  # noqa: F401
    Linkage,
    VmBuffer,
    VmFunction,
    VmInstance,
    VmModule,
    VmRef,
    VmVariantList,
)

__all__ = [
    "Linkage",
    "VmBuffer",
    "VmFunction",
    "VmInstance",
    "VmModule",
    "VmRef",
    "VmVariantList",
]
