"""Type aliases of the runtime API (``iree.runtime.typing``).

``HalModuleBufferViewTraceCallback`` is what ``HalModuleDebugSink`` calls
when a program traces tensors (``flow.tensor.trace "key" [...]`` in the
source): ``callback(key, buffer_views)`` with the trace key and a list of
``HalBufferView``.
"""

from typing import TYPE_CHECKING, Callable, List

if TYPE_CHECKING:
    from ember._ember import HalBufferView

TraceKey = str
HalModuleBufferViewTraceCallback = Callable[[TraceKey, List["HalBufferView"]],
                                            None]

__all__ = ["HalModuleBufferViewTraceCallback", "TraceKey"]
