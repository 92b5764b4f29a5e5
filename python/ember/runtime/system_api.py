"""The high-level API: configurations, system contexts and bound modules.

    config = Config("local-task")
    ctx = SystemContext(config=config)
    ctx.add_vm_module(VmModule.mmap(config.vm_instance, "model.vmfb"))
    result = ctx.modules.module.main(np.ones(4, np.float32))
"""

from __future__ import annotations

from typing import Any, Optional, Tuple

import numpy as np

from ember._ember import (
    HalDevice,
    VmContext,
    VmInstance,
    VmModule,
    create_hal_module,
)

from .function import FunctionInvoker
from .system_setup import get_first_device

__all__ = [
    "load_vm_flatbuffer",
    "load_vm_flatbuffer_file",
    "load_vm_module",
    "load_vm_modules",
    "normalize_value",
    "Config",
    "SystemContext",
    "TARGET_BACKEND_TO_DRIVER",
]

# The driver that runs what each compiler target backend produces.
TARGET_BACKEND_TO_DRIVER = {
    "llvm-cpu": "local-task",
    "vmvx": "local-task",
    "vulkan-spirv": "vulkan",
}


class Config:
    """A device, a fresh VM instance and the default modules (the HAL).

    ``driver_name`` is a comma list of device URIs tried in order (default:
    ``$IREE_DEFAULT_DEVICE`` or "local-task,cuda,vulkan"); ``device`` gives
    the device directly. They are mutually exclusive.
    """

    device: HalDevice
    vm_instance: VmInstance
    default_vm_modules: Tuple[VmModule, ...]

    def __init__(self, driver_name: Optional[str] = None, *,
                 device: Optional[HalDevice] = None):
        if device is not None and driver_name is not None:
            raise ValueError(
                "Either 'device' or 'driver_name' can be specified (not both)")
        if device is None:
            device = get_first_device(
                driver_name.split(",") if driver_name is not None else None)
        self.device = device
        self.vm_instance = VmInstance()
        self.default_vm_modules = (create_hal_module(self.vm_instance,
                                                     self.device),)


def normalize_value(value: Any):
    """``value`` as IREE expects it: an ndarray, with Python int and float
    scalars narrowed to int32 / float32; None, lists, tuples and dicts are
    returned unchanged."""
    if value is None or isinstance(value, (list, tuple, dict)):
        return value
    array = np.asarray(value)
    if isinstance(value, (bool, int, float)):
        if array.dtype == np.float64:
            array = array.astype(np.float32)
        elif array.dtype == np.int64:
            array = array.astype(np.int32)
    return array


class BoundModule:
    """A module of a SystemContext; ``m.fn`` and ``m["fn"]`` give the
    FunctionInvoker of the export ``fn`` (made on the first lookup and
    kept: its call plan is built once)."""

    def __init__(self, context: "SystemContext", vm_module: VmModule):
        self._context = context
        self._vm_module = vm_module
        self._invokers: dict = {}

    @property
    def name(self) -> str:
        """The module's name (its ``VmModule.name``)."""
        return self._vm_module.name

    @property
    def vm_module(self) -> VmModule:
        """The VmModule this binds."""
        return self._vm_module

    def __getattr__(self, name):
        try:
            return self[name]
        except KeyError:
            raise AttributeError(name) from None

    def __getitem__(self, name) -> FunctionInvoker:
        invoker = self._invokers.get(name)
        if invoker is not None:
            return invoker
        vm_function = self._vm_module.lookup_function(name)
        if vm_function is None:
            raise KeyError(f"Function '{name}' not found in module '{self}'")
        invoker = FunctionInvoker(self._context.vm_context,
                                  self._context.config.device, vm_function)
        self._invokers[name] = invoker
        return invoker

    def __repr__(self):
        return f"<BoundModule {self._vm_module!r}>"


class BoundModules(dict):
    """Module name -> BoundModule, also readable as attributes."""

    def __getattr__(self, name):
        try:
            return self[name]
        except KeyError:
            raise AttributeError(name) from None


class SystemContext:
    """A VmContext with its Config and the modules bound to it.

    ``vm_modules=None`` makes a dynamic context that ``add_vm_module(s)``
    extends; otherwise the context is static and holds the default modules
    followed by ``vm_modules``.
    """

    def __init__(self, vm_modules=None, config: Optional[Config] = None):
        self._config = config if config is not None else Config()
        self._is_dynamic = vm_modules is None
        defaults = self._config.default_vm_modules
        if self._is_dynamic:
            self._vm_context = VmContext(self._config.vm_instance, None)
            self._vm_context.register_modules(defaults)
            initial = defaults
        else:
            # IREE lets a context hold two modules of one name (imports
            # resolve to the last); a caller passing its own `hal` module
            # with a Config that has one (IREE's io_runtime_test does) means
            # its own, so the default of that name is left out.
            names = {m.name for m in vm_modules}
            initial = tuple(m for m in defaults if m.name not in names)
            initial += tuple(vm_modules)
            self._vm_context = VmContext(self._config.vm_instance, initial)
        self._bound_modules = BoundModules(
            (m.name, BoundModule(self, m)) for m in initial)

    @property
    def vm_context(self) -> VmContext:
        """The underlying VmContext."""
        return self._vm_context

    @property
    def is_dynamic(self) -> bool:
        """Whether modules can still be added (made with vm_modules=None)."""
        return self._is_dynamic

    @property
    def config(self) -> Config:
        """The Config in use: its device, VM instance and default modules."""
        return self._config

    @property
    def instance(self) -> VmInstance:
        """The VM instance of the config (``config.vm_instance``)."""
        return self._config.vm_instance

    @property
    def modules(self) -> BoundModules:
        """Module name -> BoundModule of every module in the context, the
        default ones included (``ctx.modules.name`` or
        ``ctx.modules["name"]``)."""
        return self._bound_modules

    def add_vm_modules(self, vm_modules):
        """Links ``vm_modules`` into a dynamic context, in order.

        AssertionError on a static context; ValueError when a module's name
        is already bound.
        """
        assert self._is_dynamic, "Cannot 'add_module' on a static context"
        vm_modules = list(vm_modules)
        for m in vm_modules:
            if m.name in self._bound_modules:
                raise ValueError(
                    f"Attempt to register duplicate VmModule: '{m.name}'")
            self._bound_modules[m.name] = BoundModule(self, m)
        self._vm_context.register_modules(vm_modules)

    def add_vm_module(self, vm_module):
        """Links one module into a dynamic context (see add_vm_modules)."""
        self.add_vm_modules((vm_module,))

    def add_module_dependency(self, name, minimum_version=0):
        """Registers the module `name` made by
        ``VmModule.resolve_module_dependency``, which makes none (ValueError,
        as in iree.runtime): add the modules themselves with
        add_vm_module."""
        resolved = VmModule.resolve_module_dependency(
            self._config.vm_instance, name, minimum_version)
        self._vm_context.register_modules([resolved])


def load_vm_modules(*vm_modules, config: Optional[Config] = None):
    """Binds ``vm_modules`` in a new static SystemContext; returns their
    BoundModules in order."""
    context = SystemContext(vm_modules=vm_modules, config=config)
    return [context.modules[m.name] for m in vm_modules]


def load_vm_module(vm_module, config: Optional[Config] = None):
    """Binds one module in a new static SystemContext."""
    return load_vm_modules(vm_module, config=config)[0]


def _config_for(driver: Optional[str], backend: Optional[str]) -> Config:
    if driver is None and backend is None:
        raise ValueError("Either 'driver' or 'backend' must be specified, "
                         "but got 'None' for both.")
    if driver is not None and backend is not None:
        raise ValueError("Cannot specify both 'driver' and a 'backend' to "
                         "infer the driver from.")
    if backend is not None:
        driver = TARGET_BACKEND_TO_DRIVER[backend]
    return Config(driver)


def load_vm_flatbuffer(vm_flatbuffer: bytes, *, driver: Optional[str] = None,
                       backend: Optional[str] = None) -> BoundModule:
    """Loads module bytes (copied, so alignment does not matter) on the
    driver named, or the one for ``backend``."""
    config = _config_for(driver, backend)
    vm_module = VmModule.copy_buffer(config.vm_instance, vm_flatbuffer)
    return load_vm_module(vm_module, config)


def load_vm_flatbuffer_file(path, *, driver: Optional[str] = None,
                            backend: Optional[str] = None,
                            destroy_callback=None) -> BoundModule:
    """Maps a module file (VmModule.mmap) and loads it; do not modify or
    delete the file while the module is in use."""
    config = _config_for(driver, backend)
    vm_module = VmModule.mmap(config.vm_instance, str(path),
                              destroy_callback=destroy_callback)
    return load_vm_module(vm_module, config)
