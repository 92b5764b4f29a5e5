"""The ``iree.runtime``-compatible API of Ember.

Threading: a loaded ``VmModule`` and a ``VmInstance`` are immutable and may
be shared by threads. A ``VmContext`` runs one call at a time: ``invoke``
releases the GIL, and calls from several threads into one context are
serialised by the context's own lock; give each thread its own context to
run in parallel.
"""

from ember._ember import (  # noqa: F401
    BufferCompatibility,
    BufferUsage,
    ExternalTimepointFlags,
    ExternalTimepointType,
    FileHandle,
    HalAllocator,
    HalBuffer,
    HalBufferView,
    HalCommandBuffer,
    HalDevice,
    HalDeviceLoopBridge,
    HalDriver,
    HalElementType,
    HalExternalTimepoint,
    HalFence,
    HalModuleDebugSink,
    HalSemaphore,
    Linkage,
    MappedMemory,
    MemoryAccess,
    MemoryType,
    PyModuleInterface,
    ParameterIndex,
    ParameterIndexEntry,
    ParameterProvider,
    SemaphoreCompatibility,
    Shape,
    VmBuffer,
    VmContext,
    VmFunction,
    VmInstance,
    VmModule,
    VmRef,
    VmVariantList,
    create_hal_module,
    create_io_parameters_module,
    query_available_drivers,
)

from . import array_interop, flags, function, system_api, system_setup  # noqa: F401
from . import _binding, dtypes, io, typing, version  # noqa: F401
from .tokenizer import (  # noqa: F401
    Tokenizer,
    TokenizerDecodeStream,
    TokenizerEncodeStream,
)
from .io import (  # noqa: F401
    SplatValue,
    parameter_index_add_numpy_ndarray,
    parameter_index_entry_as_numpy_flat_ndarray,
    parameter_index_entry_as_numpy_ndarray,
    save_archive_file,
)
from .array_interop import DeviceArray, asdevicearray, from_dlpack  # noqa: F401
from . import benchmark  # noqa: F401
from . import tracing  # noqa: F401
from .tracing import trace, trace_json  # noqa: F401
from .benchmark import benchmark_exe, benchmark_module  # noqa: F401

# What HalModuleDebugSink calls: callback(trace key, buffer views).
from .typing import HalModuleBufferViewTraceCallback  # noqa: F401
from .flags import parse_flags  # noqa: F401
from .function import FunctionInvoker  # noqa: F401
from .system_api import (  # noqa: F401
    TARGET_BACKEND_TO_DRIVER,
    Config,
    SystemContext,
    load_vm_flatbuffer,
    load_vm_flatbuffer_file,
    load_vm_module,
    load_vm_modules,
    normalize_value,
)
from .system_setup import (  # noqa: F401
    clear_hal_driver_cache,
    create_hal_driver,
    get_cached_hal_driver,
    get_device,
    get_driver,
    get_first_device,
)

__all__ = [
    "BufferCompatibility",
    "BufferUsage",
    "ExternalTimepointFlags",
    "ExternalTimepointType",
    "HalAllocator",
    "HalBuffer",
    "HalBufferView",
    "HalCommandBuffer",
    "HalDevice",
    "HalDeviceLoopBridge",
    "HalDriver",
    "HalElementType",
    "HalExternalTimepoint",
    "HalFence",
    "HalModuleBufferViewTraceCallback",
    "HalModuleDebugSink",
    "HalSemaphore",
    "Linkage",
    "MappedMemory",
    "MemoryAccess",
    "MemoryType",
    "SemaphoreCompatibility",
    "Shape",
    "VmBuffer",
    "VmContext",
    "VmFunction",
    "VmInstance",
    "VmModule",
    "VmRef",
    "VmVariantList",
    "create_hal_module",
    "get_driver",
    # Parameters (io).
    "FileHandle",
    "ParameterIndex",
    "ParameterIndexEntry",
    "ParameterProvider",
    "SplatValue",
    "create_io_parameters_module",
    "parameter_index_add_numpy_ndarray",
    "parameter_index_entry_as_numpy_flat_ndarray",
    "parameter_index_entry_as_numpy_ndarray",
    "save_archive_file",
    "query_available_drivers",
    # The high-level API (system_api, system_setup, function, array_interop).
    "Config",
    "DeviceArray",
    "FunctionInvoker",
    "SystemContext",
    "TARGET_BACKEND_TO_DRIVER",
    "asdevicearray",
    "from_dlpack",
    "benchmark_exe",
    "benchmark_module",
    "get_device",
    "get_first_device",
    "clear_hal_driver_cache",
    "create_hal_driver",
    "get_cached_hal_driver",
    "load_vm_flatbuffer",
    "load_vm_flatbuffer_file",
    "load_vm_module",
    "load_vm_modules",
    "normalize_value",
    "flags",
    "parse_flags",
    "trace",
    "trace_json",
    "tracing",
    # The tokenizer (runtime/tokenizer, docs/tokenizer.md).
    "Tokenizer",
    "TokenizerDecodeStream",
    "TokenizerEncodeStream",
    # Submodules; not `typing` or `io`, which a star import would bind over
    # the standard library's in the importing module.
    "dtypes",
]
