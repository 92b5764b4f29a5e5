"""Arrays on the wire: ``.npy`` bodies and ``multipart/form-data`` of them.

Everything here reads untrusted bytes from HTTP clients. numpy's own
``np.load`` allocates the array its header declares before reading the
data (a 40-byte body can ask for terabytes), so ``.npy`` is parsed here:
numpy's header reader (bounded header size), then the declared size checked
against the bytes actually present before any array is made, and the array
made over the received bytes without a copy. Pickled (object) and
structured dtypes are refused. Multipart bodies are split by their boundary
with bounded part and header counts.
"""

from __future__ import annotations

import io
import math
import re
import uuid

import numpy as np

NPY_CONTENT_TYPE = "application/x-npy"
MAX_PARTS = 256
MAX_PART_HEADER_BYTES = 8192
MAX_NPY_HEADER_BYTES = 10000  # numpy's default limit for untrusted headers


class BadRequest(ValueError):
    """Input that cannot be understood: answered with HTTP 400."""


def decode_npy(data, what: str = "body") -> np.ndarray:
    """The array in the ``.npy`` bytes ``data`` (bytes, bytearray or
    memoryview; the array is a read-only view of them when they are in
    native byte order and C order). ``what`` names the data in errors."""
    view = memoryview(data).cast("B")
    if len(view) < 10 or bytes(view[:6]) != b"\x93NUMPY":
        raise BadRequest(f"{what} is not a .npy file (no \\x93NUMPY magic; "
                         f"{len(view)} bytes)")
    stream = io.BytesIO(view)
    try:
        version = np.lib.format.read_magic(stream)
        if version == (1, 0):
            header = np.lib.format.read_array_header_1_0(
                stream, max_header_size=MAX_NPY_HEADER_BYTES)
        elif version in ((2, 0), (3, 0)):
            # 3.0 differs from 2.0 only in the header's text encoding
            # (UTF-8, for non-ASCII field names): read as 2.0, a non-ASCII
            # header decodes to a dtype refused below or fails to parse.
            header = np.lib.format.read_array_header_2_0(
                stream, max_header_size=MAX_NPY_HEADER_BYTES)
        else:
            raise BadRequest(f"{what}: .npy format version "
                             f"{version[0]}.{version[1]} is not supported "
                             "(1.0, 2.0 and 3.0 are)")
    except BadRequest:
        raise
    except Exception as error:  # numpy raises ValueError, SyntaxError...
        raise BadRequest(f"{what}: malformed .npy header: {error}") from None
    shape, fortran_order, dtype = header
    if dtype.hasobject:
        raise BadRequest(f"{what}: .npy arrays of Python objects are not "
                         "accepted")
    if dtype.fields is not None or dtype.subdtype is not None:
        raise BadRequest(f"{what}: structured .npy dtype {dtype.str} is not "
                         "accepted")
    if dtype.itemsize == 0:
        raise BadRequest(f"{what}: .npy dtype {dtype.str} has no size")
    count = math.prod(shape)
    offset = stream.tell()
    present = len(view) - offset
    needed = count * dtype.itemsize
    if needed != present:
        raise BadRequest(
            f"{what}: the .npy header declares shape {tuple(shape)} of "
            f"{dtype.str} ({needed} bytes) but {present} bytes of data "
            "follow it")
    array = np.frombuffer(view, dtype=dtype, count=count, offset=offset)
    array = array.reshape(shape, order="F" if fortran_order else "C")
    if fortran_order:
        array = np.ascontiguousarray(array)
    if not dtype.isnative:
        array = array.astype(dtype.newbyteorder("="))
    return array


def encode_npy(array) -> bytes:
    """``array`` as the bytes of a ``.npy`` file (never pickled)."""
    array = np.asarray(array)
    out = io.BytesIO()
    np.lib.format.write_array(out, array, allow_pickle=False)
    return out.getvalue()


_BOUNDARY = re.compile(r'boundary=(?:"([^"]{1,200})"|([^\s;,"]{1,200}))')
_DISPOSITION_NAME = re.compile(r'(?:^|;)\s*name="([^"]*)"')


def parse_content_type(value: str | None) -> tuple[str, dict]:
    """(media type lower-cased, parameters) of a Content-Type header."""
    if not value:
        return "", {}
    media, _, rest = value.partition(";")
    params = {}
    match = _BOUNDARY.search(rest)
    if match:
        params["boundary"] = match.group(1) or match.group(2)
    return media.strip().lower(), params


def split_multipart(body, boundary: str) -> list[tuple[str | None,
                                                       memoryview]]:
    """The parts of a multipart body as (name or None, content), in order.
    Raises BadRequest for anything malformed."""
    if not boundary or len(boundary) > 70:
        raise BadRequest("multipart body: missing or invalid boundary "
                         "parameter in Content-Type")
    data = memoryview(body).cast("B")
    # find() needs bytes; the parts are views of `data`, not copies.
    raw = body if isinstance(body, bytes) else bytes(data)
    delimiter = b"--" + boundary.encode("latin-1")
    position = raw.find(delimiter)
    if position < 0:
        raise BadRequest("multipart body: the boundary does not occur in it")
    parts = []
    while True:
        position += len(delimiter)
        if raw[position:position + 2] == b"--":
            break  # the closing delimiter
        if raw[position:position + 2] != b"\r\n":
            raise BadRequest("multipart body: a boundary line is not "
                             "followed by CRLF")
        position += 2
        end = raw.find(b"\r\n" + delimiter, position)
        if end < 0:
            raise BadRequest("multipart body: a part is not closed by the "
                             "boundary (truncated body?)")
        if len(parts) >= MAX_PARTS:
            raise BadRequest(f"multipart body: more than {MAX_PARTS} parts")
        header_end = raw.find(b"\r\n\r\n", position, end)
        if raw[position:position + 2] == b"\r\n":
            headers, content_start = b"", position + 2
        elif header_end < 0:
            raise BadRequest("multipart body: a part has no blank line after "
                             "its headers")
        else:
            headers, content_start = raw[position:header_end], header_end + 4
        if len(headers) > MAX_PART_HEADER_BYTES:
            raise BadRequest("multipart body: a part's headers are longer "
                             f"than {MAX_PART_HEADER_BYTES} bytes")
        name = None
        for line in headers.split(b"\r\n"):
            key, _, value = line.decode("latin-1").partition(":")
            if key.strip().lower() == "content-disposition":
                match = _DISPOSITION_NAME.search(value)
                if match:
                    name = match.group(1)
        parts.append((name, data[content_start:end]))
        position = end + 2
    return parts


def encode_multipart(named_arrays) -> tuple[bytes, str]:
    """(body, Content-Type) of multipart/form-data with one .npy part per
    (name, array)."""
    boundary = "ember-" + uuid.uuid4().hex
    chunks = []
    for name, array in named_arrays:
        chunks.append(
            f"--{boundary}\r\nContent-Disposition: form-data; "
            f"name=\"{name}\"; filename=\"{name}.npy\"\r\n"
            f"Content-Type: {NPY_CONTENT_TYPE}\r\n\r\n".encode("latin-1"))
        chunks.append(encode_npy(array))
        chunks.append(b"\r\n")
    chunks.append(f"--{boundary}--\r\n".encode("latin-1"))
    return b"".join(chunks), f"multipart/form-data; boundary={boundary}"
