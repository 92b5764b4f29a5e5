"""The ``iree.runtime``-compatible API of Ember.

Threading: a loaded ``VmModule`` is immutable and may be shared by threads.
"""

from ember._ember import (  # noqa: F401
    Linkage,
    VmFunction,
    VmInstance,
    VmModule,
)

__all__ = ["Linkage", "VmFunction", "VmInstance", "VmModule"]
