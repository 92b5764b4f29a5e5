"""Driver and device discovery, cached for the whole process.

Devices are costly to create (each owns worker pools), so ``get_device``
keeps one per URI unless asked not to. ``IREE_DEFAULT_DEVICE`` (a comma list
of device URIs) overrides the default list tried by ``get_first_device``.
"""

from __future__ import annotations

import logging
import os
import threading
from typing import Collection, Optional, Sequence

from ember._ember import HalDevice, HalDriver
from ember._ember import get_driver as create_hal_driver

__all__ = [
    "DEFAULT_DRIVER_NAMES",
    "clear_hal_driver_cache",
    "create_hal_driver",
    "get_cached_hal_driver",
    "get_device",
    "get_driver",
    "get_first_device",
    "query_available_drivers",
]

DEFAULT_DRIVER_NAMES = "local-task,cuda,vulkan"

_devices_lock = threading.RLock()
_devices_by_uri: dict = {}


_drivers_lock = threading.RLock()
_drivers_by_uri: dict = {}


def _driver_name(device_uri: str) -> str:
    """"local-task" of "local-task://0?worker_count=2" (and of
    "local-task")."""
    return device_uri.split(":")[0].split("?")[0]


def get_cached_hal_driver(device_uri: str) -> HalDriver:
    """One driver object per driver name for the whole process, as
    iree.runtime's driver cache (``get_driver`` uses it): "local-sync" and
    "local-sync://0" give the same object. ``create_hal_driver`` makes a new,
    uncached one every time; ``clear_hal_driver_cache`` empties the cache."""
    name = _driver_name(device_uri)
    with _drivers_lock:
        driver = _drivers_by_uri.get(name)
        if driver is None:
            driver = create_hal_driver(device_uri)
            _drivers_by_uri[name] = driver
        return driver


def clear_hal_driver_cache() -> None:
    """Forgets the cached drivers, so that the next get_cached_hal_driver
    (and get_driver) makes new ones; devices already made stay cached."""
    with _drivers_lock:
        _drivers_by_uri.clear()


def get_driver(device_uri: str) -> HalDriver:
    """The cached driver of ``device_uri``'s driver name ("local-task" of
    "local-task://0?worker_count=2"); see get_cached_hal_driver."""
    return get_cached_hal_driver(device_uri)


def query_available_drivers() -> Collection[str]:
    """Names of the HAL drivers this build registers."""
    return HalDriver.query()


def get_device(device_uri: str, cache: bool = True) -> HalDevice:
    """The device for ``device_uri`` (a driver name or "driver://path?params").

    With ``cache`` (the default) one device per URI is created and reused.
    """
    with _devices_lock:
        if cache:
            device = _devices_by_uri.get(device_uri)
            if device is not None:
                return device
        device = get_driver(device_uri).create_device_by_uri(
            _with_flag_defaults(device_uri))
        if cache:
            _devices_by_uri[device_uri] = device
        return device


def _with_flag_defaults(device_uri: str) -> str:
    """`local-task` URIs get --task_topology_max_group_count (flags.py)
    unless they set worker_count themselves."""
    from . import flags
    workers = flags.get_flag("task_topology_max_group_count")
    if (workers is None or not device_uri.startswith("local-task")
            or "worker_count=" in device_uri):
        return device_uri
    separator = "&" if "?" in device_uri else "?"
    return f"{device_uri}{separator}worker_count={workers}"


def _default_device_uris() -> list:
    uris = os.environ.get("IREE_DEFAULT_DEVICE")
    if uris is None:
        uris = DEFAULT_DRIVER_NAMES
    return [uri.strip() for uri in uris.split(",")]


def get_first_device(device_uris: Optional[Sequence[str]] = None,
                     cache: bool = True) -> HalDevice:
    """The first device that can be created from ``device_uris``, in order.

    Without a list, ``$IREE_DEFAULT_DEVICE`` (comma separated) or
    ``DEFAULT_DRIVER_NAMES`` is used. Unknown drivers (ValueError) are
    skipped silently; if a known driver failed, RuntimeError chains the last
    failure, otherwise ValueError says that nothing matched.
    """
    if device_uris is None:
        device_uris = _default_device_uris()
    failure = None
    for uri in device_uris:
        try:
            return get_device(uri, cache=cache)
        except ValueError:
            continue
        except Exception as error:  # pylint: disable=broad-except
            logging.info("Failed to create device %s: %s", uri, error)
            failure = error
    if failure is not None:
        raise RuntimeError(
            "Could not create device. Exception for last tried follows."
        ) from failure
    raise ValueError(f"No device found from list {device_uris}")
