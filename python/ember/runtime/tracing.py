"""Built-in timelines: Chrome trace JSON of invocations, VM frames, native
module calls, HAL queue operations, dispatches (with each worker's share)
and blocking waits, which Perfetto (ui.perfetto.dev, trace_processor) and
chrome://tracing open. Upstream IREE needs a separate Tracy build for this.

Off by default, and then it costs one relaxed atomic load per
instrumentation point. Two ways to switch it on:

* ``with ember.runtime.trace("out.json") as session:`` records the block and
  writes the file when it ends (``path=None`` writes nothing);
  ``session.json()`` returns the JSON text either way.
* ``EMBER_TRACE=/path/out.json`` records from ``import ember.runtime`` (or
  from the start of an ``ember-*-module`` tool) and writes at exit; a
  ``%p`` in the path becomes the process id (``out.%p.json``), so that
  processes sharing the variable write separate files. A trace file is
  replaced whole (written beside it, then renamed), never torn.

One session records at a time, process-wide (every thread, every device).
"""

import atexit
import os
from typing import Optional

from ember import _ember

__all__ = ["trace", "trace_json"]


def trace_json() -> str:
    """The most recent trace session as Chrome trace JSON text.

    Returns the events recorded so far while a session records, and the
    finished session's events after it stopped.
    """
    return _ember.trace_json()


class trace:
    """Context manager recording a trace session for the ``with`` block.

    On exit the session stops and, when ``path`` is given, is written there
    as Chrome trace JSON. Raises RuntimeError if a session is already
    recording (another block, or EMBER_TRACE).
    """

    def __init__(self, path: Optional[str] = None):
        self.path = None if path is None else os.fspath(path)

    def __enter__(self) -> "trace":
        if _ember.trace_enabled():
            raise RuntimeError(
                "a trace session is already recording (another "
                "ember.runtime.trace block, or EMBER_TRACE)"
            )
        _ember.trace_start()
        return self

    def __exit__(self, *exc_info) -> None:
        _ember.trace_stop()
        if self.path is not None:
            _ember.trace_write(self.path)

    def json(self) -> str:
        """The Chrome trace JSON text of the most recent session (so far,
        inside the block)."""
        return _ember.trace_json()

    @property
    def dropped_events(self) -> int:
        """Events the session dropped because it held the maximum (~2M)."""
        return _ember.trace_dropped_events()


def _write_environment_trace(path: str) -> None:
    _ember.trace_stop()
    try:
        _ember.trace_write(path)
    except Exception as error:  # at exit: report, never raise
        print(f"EMBER_TRACE: {error}", file=__import__("sys").stderr)


def _start_from_environment() -> None:
    path = os.environ.get("EMBER_TRACE")
    if not path or _ember.trace_enabled():
        return
    path = path.replace("%p", str(os.getpid()))  # as the tools do
    _ember.trace_start()
    atexit.register(_write_environment_trace, path)


_start_from_environment()
