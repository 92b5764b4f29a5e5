"""HTTP on a served model, independent of the web framework.

``handle_request`` takes the method, path, Content-Type and body of a
request and answers (status, content type, body). The deployment adapts
Starlette's request to it; tests call it directly too.

  GET  .../-/signature   the function's signature as JSON (names, shapes,
                         dtypes from the module's ``iree.abi.declaration``)
  POST ...               one input as a ``.npy`` body
                         (``application/x-npy``, ``application/octet-stream``
                         or no Content-Type), or several as
                         ``multipart/form-data`` (or ``multipart/mixed``) of
                         ``.npy`` parts, in the function's argument order
                         (or named after its arguments, in any order);
                         answered with ``.npy`` for one result, multipart of
                         ``.npy`` parts named after the results for several

Bad input is 400 with the message (text/plain) that the Python API raises
for the same arrays; the replica goes on serving.
"""

from __future__ import annotations

import json

import numpy as np

from .model import Failed
from .wire import (NPY_CONTENT_TYPE, BadRequest, decode_npy, encode_multipart,
                   encode_npy, parse_content_type, split_multipart)

SIGNATURE_PATH = "/-/signature"
TEXT = "text/plain; charset=utf-8"
_SINGLE_TYPES = ("", NPY_CONTENT_TYPE, "application/octet-stream",
                 "application/npy")
_MULTIPART_TYPES = ("multipart/form-data", "multipart/mixed")


def decode_inputs(signature, content_type: str | None, body) -> tuple:
    """The call's arguments from a request body (BadRequest when it cannot
    be read). Non-tensor arguments (i32, f32 ...) come as 0-d arrays and are
    passed as Python scalars."""
    media, params = parse_content_type(content_type)
    if media in _SINGLE_TYPES:
        arrays = [decode_npy(body)]
    elif media in _MULTIPART_TYPES:
        parts = split_multipart(body, params.get("boundary", ""))
        if not parts:
            raise BadRequest("multipart body has no parts")
        names = [v.name for v in signature.inputs]
        part_names = [name for name, _ in parts]
        if signature.known and all(part_names) and \
                sorted(part_names) == sorted(names) and \
                len(set(part_names)) == len(part_names):
            order = {name: i for i, name in enumerate(names)}
            parts = sorted(parts, key=lambda p: order[p[0]])
        arrays = [decode_npy(content, f"part {i} ({name or 'unnamed'})")
                  for i, (name, content) in enumerate(parts)]
    else:
        raise BadRequest(
            f"unsupported Content-Type {media!r}: send one input as "
            f"{NPY_CONTENT_TYPE} (a .npy body) or several as "
            "multipart/form-data of .npy parts")
    args = []
    for i, array in enumerate(arrays):
        declared = signature.inputs[i] if i < len(signature.inputs) else None
        if declared is not None and not declared.is_tensor and \
                array.ndim == 0:
            args.append(array.item())
        else:
            args.append(array)
    return tuple(args)


def encode_results(signature, result) -> tuple[str, bytes]:
    """(content type, body) of a call's result."""
    if result is None:
        result = ()
    if not isinstance(result, tuple):
        return NPY_CONTENT_TYPE, encode_npy(result)
    names = [v.name for v in signature.outputs]
    named = []
    for i, value in enumerate(result):
        name = names[i] if i < len(names) else f"output{i}"
        named.append((name, np.asarray(value)))
    body, content_type = encode_multipart(named)
    return content_type, body


def is_input_error(error: BaseException) -> bool:
    """Errors that the request caused: answered with 400."""
    return isinstance(error, (ValueError, TypeError, OverflowError))


def error_response(error: BaseException) -> tuple[int, str, bytes]:
    status = 400 if is_input_error(error) else 500
    message = str(error) or type(error).__name__
    return status, TEXT, message.encode("utf-8", "replace")


async def handle_request(model, run, method: str, path: str,
                         content_type: str | None, body) -> tuple:
    """(status, content type, body) for one request. ``run(args)`` is the
    coroutine that computes a call's result (batched or not) and returns it
    or a ``Failed``."""
    path = path.rstrip("/")
    if path.endswith(SIGNATURE_PATH):
        if method not in ("GET", "HEAD"):
            return 405, TEXT, b"use GET for the signature"
        return 200, "application/json", json.dumps(
            model.signature.to_json()).encode()
    if method != "POST":
        return 405, TEXT, (f"use POST with .npy input(s) to call the model, "
                           f"GET {SIGNATURE_PATH} for its signature").encode()
    try:
        args = decode_inputs(model.signature, content_type, body)
    except BadRequest as error:
        return error_response(error)
    result = await run(args)
    if isinstance(result, Failed):
        return error_response(result.error)
    try:
        media, data = encode_results(model.signature, result)
    except Exception as error:  # pragma: no cover - results are arrays
        return 500, TEXT, f"cannot encode the result: {error}".encode()
    return 200, media, data
