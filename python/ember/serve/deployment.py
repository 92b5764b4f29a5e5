"""``ModelDeployment``: an Ember model as a Ray Serve deployment.

    from ray import serve
    from ember.serve import ModelDeployment

    app = ModelDeployment.options(num_replicas=2).bind(
        module="model.vmfb", function="main", device="local-task",
        parameters={"model": "weights.irpa"},
        max_batch_size=16, batch_wait_timeout_s=0.005)
    handle = serve.run(app, name="model", route_prefix="/model")
    y = handle.remote(x).result()

Each replica (a Ray actor process) holds its own ``EmberModel``: its own
instance, device and context, the program and parameter files mapped (the
paths must exist on every node that runs a replica). Calls run on a
replica-owned thread pool, with the GIL released inside Ember, so the
replica's event loop goes on taking requests (and filling the next batch)
while one runs. With ``max_batch_size`` set, requests go through
``serve.batch`` and are stacked as ``EmberModel.run_batch`` describes;
``None`` runs each request alone.
"""

from __future__ import annotations

import asyncio
from concurrent.futures import ThreadPoolExecutor

from ray import serve

from .http import TEXT, handle_request
from .model import EmberModel, Failed

# A request body larger than this is refused (413) before it is read whole.
DEFAULT_MAX_REQUEST_BYTES = 256 << 20


async def _read_body(request, limit: int):
    declared = request.headers.get("content-length")
    if declared is not None:
        try:
            if int(declared) > limit:
                return None
        except ValueError:
            pass
    chunks, size = [], 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > limit:
            return None
        chunks.append(chunk)
    return b"".join(chunks)


# max_ongoing_requests: Serve's default (5) would cap every batch at 5
# requests; a replica takes enough to fill its batches (override with
# .options(max_ongoing_requests=...)).
@serve.deployment(max_ongoing_requests=64)
class ModelDeployment:
    """A replica serving one function of a compiled module. Arguments as
    ``EmberModel`` (module, function, device, parameters) plus
    ``max_batch_size`` (requests stacked per run; None: no batching),
    ``batch_wait_timeout_s`` (how long a batch waits to fill),
    ``max_concurrent_calls`` (calls run at once by this replica) and
    ``max_request_bytes`` (HTTP body limit)."""

    def __init__(self, module, function: str = "main",
                 device: str = "local-task", parameters=None,
                 max_batch_size: int | None = None,
                 batch_wait_timeout_s: float = 0.005,
                 max_concurrent_calls: int = 1,
                 max_request_bytes: int = DEFAULT_MAX_REQUEST_BYTES):
        self.model = EmberModel(module, function, device, parameters)
        self._executor = ThreadPoolExecutor(
            max_workers=max(1, int(max_concurrent_calls)),
            thread_name_prefix="ember-serve")
        self._max_request_bytes = int(max_request_bytes)
        self._batching = bool(max_batch_size) and self.model.mode != "none"
        if self._batching:
            if int(max_batch_size) < 1 or batch_wait_timeout_s < 0:
                raise ValueError("max_batch_size must be >= 1 and "
                                 "batch_wait_timeout_s >= 0")
            self._batched.set_max_batch_size(int(max_batch_size))
            self._batched.set_batch_wait_timeout_s(float(batch_wait_timeout_s))

    async def _run(self, args: tuple):
        """The result of one request, or Failed."""
        if self._batching:
            return await self._batched(args)
        loop = asyncio.get_running_loop()
        results = await loop.run_in_executor(self._executor,
                                             self.model.run_batch, [args])
        return results[0]

    @serve.batch(max_batch_size=16, batch_wait_timeout_s=0.005)
    async def _batched(self, requests: list):
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._executor,
                                          self.model.run_batch, requests)

    async def __call__(self, *args):
        """A handle call (numpy arrays in, the result out; the call's error
        raised) or an HTTP request (Starlette's, answered as
        ``ember.serve.http`` describes)."""
        if len(args) == 1 and _is_http_request(args[0]):
            return await self._http(args[0])
        result = await self._run(tuple(args))
        if isinstance(result, Failed):
            raise result.error
        return result

    async def predict(self, *args):
        """The same as calling the handle: ``handle.predict.remote(x)``."""
        return await self.__call__(*args)

    def signature(self) -> dict:
        """The function's signature (as ``GET .../-/signature``)."""
        return self.model.signature.to_json()

    def stats(self) -> dict:
        """This replica's process id and how many runs it made."""
        import os

        import ray
        return {"pid": os.getpid(), "calls": self.model.calls,
                "node_id": ray.get_runtime_context().get_node_id(),
                "memory": _memory(),
                "batching": self._batching, "mode": self.model.mode}

    async def _http(self, request):
        from starlette.responses import Response

        body = b""
        if request.method == "POST":
            body = await _read_body(request, self._max_request_bytes)
            if body is None:
                return Response(
                    f"request body larger than {self._max_request_bytes} "
                    "bytes", status_code=413, media_type=TEXT)
        status, media, data = await handle_request(
            self.model, self._run, request.method, request.url.path,
            request.headers.get("content-type"), body)
        return Response(data, status_code=status, media_type=media)


def _memory() -> dict:
    """This process's memory in bytes from /proc/self/smaps_rollup (Linux):
    rss, pss (shared pages divided among their sharers), anonymous and
    file-backed; empty where there is no such file."""
    fields = {"Rss": "rss", "Pss": "pss", "Anonymous": "anonymous",
              "Pss_File": "pss_file", "Pss_Anon": "pss_anon"}
    out = {}
    try:
        with open("/proc/self/smaps_rollup", encoding="ascii") as f:
            for line in f:
                key, _, value = line.partition(":")
                if key in fields:
                    out[fields[key]] = int(value.split()[0]) * 1024
    except (OSError, ValueError, IndexError):
        return {}
    return out


def _is_http_request(value) -> bool:
    try:
        from starlette.requests import Request
    except ImportError:  # pragma: no cover - comes with ray[serve]
        return False
    return isinstance(value, Request)
