"""ember.serve: Ember models as Ray Serve deployments.

The first tests need no Ray: the signature read from ``iree.abi.declaration``,
the ``.npy``/multipart codec against hostile bodies, and ``EmberModel``'s
batching (stacked runs equal to direct calls, bit for bit; bad requests in a
batch get the direct call's error). The rest start a real Ray cluster on
loopback -- a head and one more node, each with its own resources, started
by ``ray.cluster_utils.Cluster`` and stopped by the fixture -- and compare
results through the handle and over HTTP with direct ``ember.runtime``
calls, bit for bit, for a static, a dynamic-batch and a parameterised
module; sweep bad HTTP inputs (400s, replicas alive); and kill a replica
during a bounded load (every request answered correctly, the replica
replaced). They are skipped only where ``ray.serve`` cannot be imported.
"""

from __future__ import annotations

import concurrent.futures
import io
import os
import signal
import socket
import threading
import time

import numpy as np
import pytest

from conftest import compile_mlir

import ember.runtime as rt
from ember.serve import EmberModel, Failed, parse_declaration, parse_parameters
from ember.serve import wire

# Ray Serve's own pydantic models warn on import; not ours to fix.
pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning:ray")


def _dense(array: np.ndarray) -> str:
    data = np.ascontiguousarray(array, dtype="<f4").tobytes()
    return f'dense<"0x{data.hex().upper()}">'


_W = np.random.default_rng(24).standard_normal((16, 8)).astype(np.float32)

STATIC = r"""
func.func @main(%x: tensor<4xf32>, %y: tensor<4xf32>) -> tensor<4xf32> {
  %r = arith.mulf %x, %y : tensor<4xf32>
  return %r : tensor<4xf32>
}
"""


def _matmul_body(weights: str) -> str:
    return f"""
  %c0 = arith.constant 0 : index
  %d = tensor.dim %x, %c0 : tensor<?x16xf32>
  %z = arith.constant 0.0 : f32
  %e = tensor.empty(%d) : tensor<?x8xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<?x8xf32>) -> tensor<?x8xf32>
  %m = linalg.matmul ins(%x, {weights} : tensor<?x16xf32>, tensor<16x8xf32>)
                     outs(%f : tensor<?x8xf32>) -> tensor<?x8xf32>
  %e2 = tensor.empty(%d) : tensor<?xf32>
  %f2 = linalg.fill ins(%z : f32) outs(%e2 : tensor<?xf32>) -> tensor<?xf32>
  %s = linalg.reduce ins(%x : tensor<?x16xf32>) outs(%f2 : tensor<?xf32>)
         dimensions = [1]
    (%a: f32, %b: f32) {{
      %t = arith.addf %a, %b : f32
      linalg.yield %t : f32
    }}
  return %m, %s : tensor<?x8xf32>, tensor<?xf32>
"""


DYNAMIC = f"""
func.func @main(%x: tensor<?x16xf32>) -> (tensor<?x8xf32>, tensor<?xf32>) {{
  %w = arith.constant {_dense(_W)} : tensor<16x8xf32>
{_matmul_body("%w")}
}}
"""

PARAMS = f"""
util.global private @w = #stream.parameter.named<"model"::"w"> : tensor<16x8xf32>
func.func @main(%x: tensor<?x16xf32>) -> (tensor<?x8xf32>, tensor<?xf32>) {{
  %w = util.global.load @w : tensor<16x8xf32>
{_matmul_body("%w")}
}}
"""


def _variant(size: int) -> str:
    return f"""
func.func @main_b{size}(%x: tensor<{size}x16xf32>) -> tensor<{size}x8xf32> {{
  %w = arith.constant {_dense(_W)} : tensor<16x8xf32>
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<{size}x8xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<{size}x8xf32>) -> tensor<{size}x8xf32>
  %m = linalg.matmul ins(%x, %w : tensor<{size}x16xf32>, tensor<16x8xf32>)
                     outs(%f : tensor<{size}x8xf32>) -> tensor<{size}x8xf32>
  return %m : tensor<{size}x8xf32>
}}
"""


VARIANTS = _variant(1) + _variant(4)


@pytest.fixture(scope="module")
def modules(tmp_path_factory):
    out = {"static": compile_mlir("serve_static", STATIC),
           "dynamic": compile_mlir("serve_dynamic", DYNAMIC),
           "params": compile_mlir("serve_params", PARAMS),
           "variants": compile_mlir("serve_variants", VARIANTS),
           "variants_pad": compile_mlir("serve_variants_pad",
                                        _variant(4) + _variant(8))}
    weights = tmp_path_factory.mktemp("serve") / "weights.irpa"
    index = rt.ParameterIndex()
    rt.parameter_index_add_numpy_ndarray(index, "w", _W)
    index.create_archive_file(str(weights))
    out["weights"] = weights
    return out


def direct(vmfb, function, *args, parameters=None):
    """The function's results through plain ember.runtime, as numpy."""
    instance = rt.VmInstance()
    device = rt.get_device("local-task")
    vm_modules = []
    if parameters:
        index = rt.ParameterIndex()
        index.load(str(parameters))
        vm_modules.append(rt.create_io_parameters_module(
            instance, index.create_provider(scope="model")))
    module = rt.VmModule.mmap(instance, str(vmfb))
    context = rt.SystemContext(vm_modules=vm_modules + [module],
                               config=rt.Config(device=device))
    result = context.modules[module.name][function](*args)
    if isinstance(result, tuple):
        return tuple(np.asarray(r).copy() for r in result)
    return np.asarray(result).copy()


def direct_error(vmfb, function, *args) -> str:
    with pytest.raises(Exception) as caught:
        direct(vmfb, function, *args)
    return str(caught.value)


def assert_same(got, want):
    """Bit for bit (dtype, shape and bytes)."""
    if isinstance(want, tuple):
        assert isinstance(got, tuple) and len(got) == len(want)
        for g, w in zip(got, want):
            assert_same(g, w)
        return
    got = np.asarray(got)
    assert got.dtype == want.dtype and got.shape == want.shape
    assert got.tobytes() == want.tobytes()


def rows(n: int, seed: int) -> np.ndarray:
    return np.random.default_rng(seed).standard_normal((n, 16)).astype(
        np.float32)


# -- no Ray -------------------------------------------------------------------


def test_signature_from_declaration():
    sig = parse_declaration("main", "sync func @main(%pixels: tensor<?x3x"
                            "224xui8>, %n: i32, %v: !hal.buffer_view) -> "
                            "(%out: tensor<2x?xbf16>, %k: tensor<i64>)")
    assert sig.known
    assert [v.name for v in sig.inputs] == ["pixels", "n", "v"]
    assert sig.inputs[0].dims == (-1, 3, 224)
    assert sig.inputs[0].dtype == np.uint8
    assert not sig.inputs[1].is_tensor and sig.inputs[1].type == "i32"
    assert not sig.inputs[2].is_tensor
    assert sig.outputs[0].element == "bf16" and sig.outputs[0].dims == (2, -1)
    assert sig.outputs[1].dims == () and sig.outputs[1].dtype == np.int64
    js = sig.to_json()
    assert js["inputs"][0]["shape"] == [None, 3, 224]
    assert js["inputs"][0]["dtype"] == "uint8"
    for bad in (None, "", "garbage", 7, "x" * (2 << 20)):
        assert not parse_declaration("f", bad).known


def _npy(array, version=None) -> bytes:
    out = io.BytesIO()
    np.lib.format.write_array(out, np.asarray(array), version=version)
    return out.getvalue()


def test_npy_codec_round_trips():
    x = np.arange(24, dtype=np.float32).reshape(2, 3, 4)
    for data in (_npy(x), _npy(x, (2, 0)), _npy(x, (3, 0)),
                 _npy(np.asfortranarray(x)),
                 _npy(x.astype(">f4"))):
        y = wire.decode_npy(data)
        assert y.dtype == np.float32 and y.flags.c_contiguous
        assert np.array_equal(y, x)
    assert wire.decode_npy(_npy(np.int32(7))).shape == ()
    assert wire.decode_npy(_npy(np.zeros((0, 4), np.int8))).shape == (0, 4)
    body, content_type = wire.encode_multipart([("a", x), ("b", x[0])])
    media, params = wire.parse_content_type(content_type)
    parts = wire.split_multipart(body, params["boundary"])
    assert media == "multipart/form-data"
    assert [name for name, _ in parts] == ["a", "b"]
    assert np.array_equal(wire.decode_npy(parts[1][1]), x[0])


def _bad_npy_bodies() -> dict:
    good = _npy(np.ones((2, 16), np.float32))
    header_end = good.index(b"\n") + 1
    huge = good.replace(b"(2, 16)", b"(1000000000000, 16)")
    return {
        "empty": b"",
        "text": b"hello, world",
        "json": b'{"x": [1, 2, 3]}',
        "magic only": b"\x93NUMPY",
        "bad version": b"\x93NUMPY\x09\x00" + good[8:],
        "truncated header": good[:20],
        "truncated data": good[:-4],
        "trailing bytes": good + b"\0\0\0\0",
        "huge declared shape": huge,
        "negative dim": good.replace(b"(2, 16)", b"(-2, 16)"),
        "object dtype": _npy(np.array([1, "a"], dtype=object)),
        "structured dtype": _npy(np.zeros(3, dtype=[("a", "<f4"),
                                                   ("b", "<i4")])),
        "header not a dict": good[:10] + b"[1, 2, 3]".ljust(
            header_end - 11) + b"\n" + good[header_end:],
        "pickle payload": b"\x80\x04\x95" + b"\0" * 40,
    }


def test_npy_decoder_refuses_hostile_bodies():
    for kind, body in _bad_npy_bodies().items():
        with pytest.raises(wire.BadRequest) as caught:
            wire.decode_npy(body)
        assert "npy" in str(caught.value), kind


def test_multipart_refuses_malformed_bodies():
    body, content_type = wire.encode_multipart([("a", np.ones(3))])
    boundary = wire.parse_content_type(content_type)[1]["boundary"]
    for bad, why in ((body[:-20], "truncated"),
                     (body.replace(b"\r\n", b"\n"), "LF only"),
                     (b"no boundary here", "boundary"),
                     (b"--" + boundary.encode() + b"\r\n" + b"X" * 10000,
                      "headers")):
        with pytest.raises(wire.BadRequest):
            wire.split_multipart(bad, boundary)
    many = b"".join(b"--" + boundary.encode() + b"\r\n\r\nx\r\n"
                    for _ in range(wire.MAX_PARTS + 1))
    with pytest.raises(wire.BadRequest, match="more than"):
        wire.split_multipart(many + b"--" + boundary.encode() + b"--",
                             boundary)
    with pytest.raises(wire.BadRequest, match="boundary"):
        wire.split_multipart(body, "")


def test_import_needs_no_ray():
    """ember.serve imports without Ray; ModelDeployment is loaded on use."""
    import subprocess
    import sys
    code = ("import sys, ember.serve; assert 'ray' not in sys.modules; "
            "print(sorted(ember.serve.__all__))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True,
                         text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert "ModelDeployment" in out.stdout


def test_parameters_argument_forms():
    assert parse_parameters({"model": "a.irpa"}) == [("model", "a.irpa")]
    assert parse_parameters({"m": ["a", "b"]}) == [("m", "a"), ("m", "b")]
    assert parse_parameters(["model=w.irpa", "x.irpa"]) == [
        ("model", "w.irpa"), ("", "x.irpa")]
    assert parse_parameters(None) == []


def test_batching_equals_direct_calls(modules):
    model = EmberModel(modules["dynamic"], "main")
    assert model.mode == "dynamic"
    requests = [(rows(n, seed),) for seed, n in
                enumerate([1, 3, 1, 7, 2, 16, 1, 5])]
    bad = [(rows(2, 99).astype(np.float64),), (rows(2, 98)[:, :15].copy(),),
           (rows(1, 97), rows(1, 96)), ("text",)]
    batch = requests[:4] + bad + requests[4:]
    results = model.run_batch(batch)
    assert model.calls == 1 + len(bad)  # one stacked run, the bad ones alone
    for args, result in zip(batch, results):
        if any(args is b for b in bad):
            assert isinstance(result, Failed)
            assert str(result.error) == direct_error(modules["dynamic"],
                                                     "main", *args)
        else:
            assert_same(result, direct(modules["dynamic"], "main", *args))


def test_compiled_batch_sizes(modules):
    model = EmberModel(modules["variants"], "main")
    assert model.mode == "variants" and sorted(model.variants) == [1, 4]
    requests = [(rows(n, 50 + n),) for n in (1, 2, 3, 6)]
    for args, result in zip(requests, model.run_batch(requests)):
        assert not isinstance(result, Failed), result
        want = np.concatenate([direct(modules["variants"], "main_b1",
                                      args[0][i:i + 1])
                               for i in range(args[0].shape[0])])
        assert_same(result, want)
    # The 12 rows were one stack: three runs of main_b4, one batch.
    assert model.calls == 1
    js = model.signature.to_json()
    assert js["compiled_batch_sizes"] == [1, 4]
    assert js["inputs"][0]["shape"] == [None, 16]
    assert js["inputs"][0]["type"] == "tensor<?x16xf32>"
    assert js["outputs"][0]["shape"] == [None, 8]


def test_compiled_batch_sizes_padded(modules):
    """Rows fewer than every compiled size are padded with zero rows, whose
    results are dropped: 11 rows run as main_b8 + main_b4 (3 rows + 1 pad)."""
    model = EmberModel(modules["variants_pad"], "main")
    assert sorted(model.variants) == [4, 8]
    x = rows(11, 77)
    padded = np.concatenate([x[8:], np.zeros((1, 16), np.float32)])
    want = np.concatenate([direct(modules["variants_pad"], "main_b8", x[:8]),
                           direct(modules["variants_pad"], "main_b4",
                                  padded)[:3]])
    assert_same(model.call(x), want)
    assert_same(model.call(x[:2]),
                direct(modules["variants_pad"], "main_b4",
                       np.concatenate([x[:2], np.zeros((2, 16),
                                                       np.float32)]))[:2])


# A function that updates its input in place: IREE's compiler may write such
# an update into the imported input buffer itself (docs/serving.md, "Inputs
# from Ray's object store"), and nothing in the module's reflection tells it
# from a function that only reads its inputs.
IN_PLACE = """
func.func @main(%x: tensor<1024xf32>, %y: tensor<4xf32>) -> tensor<1024xf32> {
  %r = tensor.insert_slice %y into %x[8] [4] [1]
      : tensor<4xf32> into tensor<1024xf32>
  return %r : tensor<1024xf32>
}
"""


def _aligned(values: np.ndarray) -> np.ndarray:
    """A 64-byte-aligned copy of `values` (the alignment under which a
    writable array would be imported without a copy)."""
    raw = np.empty(values.nbytes + 64, np.uint8)
    offset = (-raw.ctypes.data) % 64
    out = raw[offset:offset + values.nbytes].view(values.dtype)
    out[...] = values
    assert out.ctypes.data % 64 == 0
    return out


def test_read_only_inputs_are_never_written():
    """Arrays from Ray's object store arrive read-only: Ember copies them,
    so a function that updates an input in place leaves the caller's array
    as it was (through EmberModel, what a replica runs, and batching)."""
    vmfb = compile_mlir("serve_in_place", IN_PLACE)
    model = EmberModel(vmfb, "main")
    original = np.arange(1024, dtype=np.float32)
    x = _aligned(original)
    x.flags.writeable = False
    y = np.full(4, -1.0, np.float32)
    want = original.copy()
    want[8:12] = y
    assert_same(model.call(x, y), want)
    assert_same(model.call(x, y), want)  # twice: the input was not changed
    assert x.tobytes() == original.tobytes()
    assert model.signature.inputs[0].dims == (1024,)  # nothing to stack
    results = model.run_batch([(x, y), (x, y)])
    for result in results:
        assert_same(result, want)
    assert x.tobytes() == original.tobytes()


def test_parameterised_model(modules):
    model = EmberModel(modules["params"], "main",
                       parameters={"model": str(modules["weights"])})
    x = rows(5, 7)
    assert_same(model.call(x), direct(modules["params"], "main", x,
                                      parameters=modules["weights"]))
    assert_same(model.call(x)[0], direct(modules["dynamic"], "main", x)[0])
    with pytest.raises(FileNotFoundError, match="nowhere.irpa"):
        EmberModel(modules["params"], "main",
                   parameters={"model": "/nowhere.irpa"})
    with pytest.raises(ValueError, match="no function 'nope'"):
        EmberModel(modules["static"], "nope")


# -- a Ray cluster -----------------------------------------------------------


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="module")
def cluster():
    # Loopback only: without this, Ray resolves 127.0.0.1 to the machine's
    # outward address when the driver connects (on Linux it assumes a
    # cluster spans machines). Read when ray is first imported.
    os.environ["RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER"] = "0"
    try:
        import ray
        from ray import serve
        from ray.cluster_utils import Cluster
    except ImportError as error:
        pytest.skip(f"ray[serve] cannot be imported ({error}); "
                    "pip install 'ray[serve]' to run the serving tests")
    started = time.monotonic()
    node = {"num_cpus": 2, "node_ip_address": "127.0.0.1",
            "include_dashboard": False,
            "object_store_memory": 128 << 20}
    c = Cluster(initialize_head=True,
                head_node_args={**node, "resources": {"ember_head": 8}})
    try:
        c.add_node(**node, resources={"ember_worker": 8})
        ray.init(address=c.address, log_to_driver=False)
        port = _free_port()
        serve.start(proxy_location="HeadOnly",
                    http_options={"host": "127.0.0.1", "port": port})
        yield {"ray": ray, "serve": serve, "url": f"http://127.0.0.1:{port}",
               "port": port, "address": c.address, "started": started}
    finally:
        try:
            serve.shutdown()
        finally:
            ray.shutdown()
            c.shutdown()


@pytest.fixture
def deploy(cluster):
    """deploy(name, replicas=2, **ModelDeployment arguments) -> handle: an
    application with replicas on different nodes, deleted after the test
    (so that the next test's replicas find free CPUs)."""
    from ember.serve import ModelDeployment
    serve = cluster["serve"]
    names = []

    def run(name, replicas=2, **kwargs):
        app = ModelDeployment.options(
            num_replicas=replicas, max_replicas_per_node=1,
            ray_actor_options={"num_cpus": 0.25}).bind(**kwargs)
        names.append(name)
        return serve.run(app, name=name, route_prefix=f"/{name}")

    yield run
    for name in names:
        serve.delete(name)


def _replica_stats(handle, want: int, timeout_s: float = 60.0) -> dict:
    """pid -> stats of `want` distinct replicas (asked until seen)."""
    deadline = time.monotonic() + timeout_s
    seen = {}
    while len(seen) < want and time.monotonic() < deadline:
        futures = [handle.stats.remote() for _ in range(8)]
        for future in futures:
            try:
                stats = future.result(timeout_s=30)
            except Exception:
                continue
            seen[stats["pid"]] = stats
    assert len(seen) >= want, seen
    return seen


def _post(url, *arrays, timeout=30):
    import requests
    if len(arrays) == 1:
        return requests.post(url, data=wire.encode_npy(arrays[0]),
                             headers={"content-type": wire.NPY_CONTENT_TYPE},
                             timeout=timeout)
    body, content_type = wire.encode_multipart(
        [(f"input{i}", a) for i, a in enumerate(arrays)])
    return requests.post(url, data=body, timeout=timeout,
                         headers={"content-type": content_type})


def _http_result(response):
    assert response.status_code == 200, response.text
    media, params = wire.parse_content_type(response.headers["content-type"])
    if media == wire.NPY_CONTENT_TYPE:
        return wire.decode_npy(response.content).copy()
    return tuple(wire.decode_npy(c).copy() for _, c in
                 wire.split_multipart(response.content, params["boundary"]))


def test_cluster_results_equal_direct_calls(cluster, deploy, modules):
    url = cluster["url"]
    handles = {
        "static": deploy("static", module=str(modules["static"])),
        "dynamic": deploy("dynamic", module=str(modules["dynamic"]),
                           max_batch_size=8, batch_wait_timeout_s=0.02),
        "params": deploy("params", module=str(modules["params"]),
                          parameters={"model": str(modules["weights"])},
                          max_batch_size=8, batch_wait_timeout_s=0.02),
    }
    # Replicas on both nodes.
    for name, handle in handles.items():
        stats = _replica_stats(handle, 2)
        assert len({s["node_id"] for s in stats.values()}) == 2, (name, stats)

    rng = np.random.default_rng(5)
    x, y = (rng.standard_normal(4).astype(np.float32) for _ in range(2))
    assert_same(handles["static"].remote(x, y).result(timeout_s=30),
                direct(modules["static"], "main", x, y))
    assert_same(_http_result(_post(f"{url}/static", x, y)),
                direct(modules["static"], "main", x, y))

    for name in ("dynamic", "params"):
        params = modules["weights"] if name == "params" else None
        inputs = [rows(n, 100 + i) for i, n in
                  enumerate([1, 2, 1, 3, 1, 1, 4, 1, 2, 1, 1, 5])]
        # Sent at once, so that replicas stack them.
        futures = [handles[name].remote(a) for a in inputs]
        with concurrent.futures.ThreadPoolExecutor(6) as pool:
            http = list(pool.map(lambda a: _post(f"{url}/{name}", a), inputs))
        for a, future, response in zip(inputs, futures, http):
            want = direct(modules[name], "main", a, parameters=params)
            assert_same(future.result(timeout_s=60), want)
            assert_same(_http_result(response), want)
        stats = _replica_stats(handles[name], 2)
        runs = sum(s["calls"] for s in stats.values())
        assert all(s["batching"] for s in stats.values())
        assert runs < 2 * len(inputs), "no request was batched"

    import requests
    signature = requests.get(f"{url}/params/-/signature", timeout=30).json()
    assert signature["inputs"] == [{"name": "input0",
                                    "type": "tensor<?x16xf32>",
                                    "shape": [None, 16],
                                    "element_type": "f32",
                                    "dtype": "float32"}]
    assert [o["shape"] for o in signature["outputs"]] == [[None, 8], [None]]
    assert handles["params"].signature.remote().result(
        timeout_s=30) == signature


def test_http_bad_input_sweep(cluster, deploy, modules):
    import requests
    url = cluster["url"]
    handle = deploy("sweep", module=str(modules["dynamic"]),
                     max_batch_size=4, max_request_bytes=1 << 20)
    before = set(_replica_stats(handle, 2))
    dynamic = modules["dynamic"]
    good = rows(2, 1)

    def npy(body, content_type=wire.NPY_CONTENT_TYPE):
        return requests.post(f"{url}/sweep", data=body, timeout=30,
                             headers={"content-type": content_type})

    cases = {f"npy: {k}": npy(v) for k, v in _bad_npy_bodies().items()}
    # Bodies that are valid .npy but wrong for the function: the message is
    # the direct call's.
    wrong = {
        "f64": good.astype(np.float64),
        "i32": good.astype(np.int32),
        "f16": good.astype(np.float16),
        "wrong inner dim": rows(2, 2)[:, :15].copy(),
        "rank 1": good[0].copy(),
        "rank 3": good.reshape(2, 4, 4),
        "0-d": np.float32(1.0),
    }
    expected = {}
    for kind, array in wrong.items():
        cases[kind] = _post(f"{url}/sweep", array)
        expected[kind] = direct_error(dynamic, "main", array)
    cases["two inputs"] = _post(f"{url}/sweep", good, good)
    expected["two inputs"] = direct_error(dynamic, "main", good, good)
    cases["json content type"] = npy(b"{}", "application/json")
    cases["multipart without boundary"] = npy(
        wire.encode_multipart([("input0", good)])[0], "multipart/form-data")
    body, content_type = wire.encode_multipart([("input0", good)])
    cases["truncated multipart"] = npy(body[:-30], content_type)
    cases["multipart with a bad part"] = npy(
        body.replace(b"\x93NUMPY", b"\x93NUMPX"), content_type)
    cases["empty multipart"] = npy(b"--b--\r\n", "multipart/form-data; "
                                   "boundary=b")
    assert len(cases) >= 20
    for kind, response in cases.items():
        assert response.status_code == 400, (kind, response.status_code,
                                             response.text)
        assert response.headers["content-type"].startswith("text/plain")
        assert response.text, kind
        if kind in expected:
            assert response.text == expected[kind], kind
    # The Python API raises the same message.
    with pytest.raises(ValueError) as caught:
        handle.remote(wrong["f64"]).result(timeout_s=30)
    assert expected["f64"] in str(caught.value)
    # Too large, wrong method, and still serving on the same replicas.
    big = requests.post(f"{url}/sweep", data=b"\0" * (2 << 20), timeout=30,
                        headers={"content-type": wire.NPY_CONTENT_TYPE})
    assert big.status_code == 413
    assert requests.get(f"{url}/sweep", timeout=30).status_code == 405
    assert_same(_http_result(_post(f"{url}/sweep", good)),
                direct(dynamic, "main", good))
    assert set(_replica_stats(handle, 2)) == before


def test_ember_serve_command(cluster, modules):
    """ember-serve joins the cluster, prints its URL, serves, and deletes
    its application when interrupted."""
    import subprocess
    import sys

    import requests
    command = [sys.executable, "-c",
               "import sys; from ember.serve.cli import main; "
               "sys.exit(main())",
               str(modules["params"]), "--function", "main",
               "--parameters", f"model={modules['weights']}",
               "--address", cluster["address"], "--port",
               str(cluster["port"]), "--route-prefix", "/cli", "--name",
               "cli", "--max-batch-size", "4", "--num-cpus-per-replica",
               "0.25"]
    process = subprocess.Popen(command, stdout=subprocess.PIPE,
                               stderr=subprocess.DEVNULL, text=True)
    try:
        lines = []
        reader = threading.Thread(
            target=lambda: lines.extend(iter(process.stdout.readline, "")),
            daemon=True)
        reader.start()
        deadline = time.monotonic() + 120
        while not any(line.startswith("serving ") for line in lines):
            assert time.monotonic() < deadline and process.poll() is None, \
                lines
            time.sleep(0.2)
        url = next(line for line in lines
                   if line.startswith("serving ")).split()[1]
        assert url == f"{cluster['url']}/cli"
        x = rows(3, 31)
        assert_same(_http_result(_post(url, x)),
                    direct(modules["params"], "main", x,
                           parameters=modules["weights"]))
        process.send_signal(signal.SIGINT)
        assert process.wait(timeout=120) == 0
        assert "cli" not in cluster["serve"].status().applications
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()


def test_replica_killed_under_load(cluster, deploy, modules):
    """2,000 requests from 8 clients; a replica is SIGKILLed after 300 have
    been answered. Requests that meet the dead replica are retried by the
    client (Serve reports them failed, it does not retry a request already
    sent); every answer must be the right one, none lost or duplicated."""
    from ray import exceptions as ray_exceptions

    from ray.serve import exceptions as serve_exceptions

    handle = deploy("fault", module=str(modules["dynamic"]),
                     max_batch_size=8)
    replicas = _replica_stats(handle, 2)
    victim = next(iter(replicas))
    count, clients = 2000, 8
    inputs = [np.full((1, 16), i, np.float32) for i in range(count)]
    want0 = direct(modules["dynamic"], "main", np.stack(
        [a[0] for a in inputs]))
    answers: list = [None] * count
    retries = []
    done = threading.Semaphore(0)
    retriable = (ray_exceptions.RayActorError, ray_exceptions.ActorDiedError,
                 ray_exceptions.ActorUnavailableError,
                 serve_exceptions.RayServeException,
                 ray_exceptions.GetTimeoutError, TimeoutError)

    def client(k: int):
        for i in range(k, count, clients):
            for attempt in range(20):
                try:
                    answers[i] = handle.remote(inputs[i]).result(timeout_s=60)
                    break
                except retriable as error:
                    retries.append((i, type(error).__name__))
                    time.sleep(0.05)
            done.release()

    started = time.monotonic()
    with concurrent.futures.ThreadPoolExecutor(clients) as pool:
        futures = [pool.submit(client, k) for k in range(clients)]
        for _ in range(300):
            done.acquire(timeout=120)
        os.kill(victim, signal.SIGKILL)
        for future in futures:
            future.result(timeout=300)
    elapsed = time.monotonic() - started
    for i, answer in enumerate(answers):
        assert answer is not None, f"request {i} unanswered"
        assert_same(answer, (want0[0][i:i + 1], want0[1][i:i + 1]))
    # The replica is replaced: two live replicas, the victim not among them.
    deadline = time.monotonic() + 90
    while time.monotonic() < deadline:
        now = _replica_stats(handle, 1)
        if len(now) >= 2 and victim not in now:
            break
        time.sleep(1)
    now = _replica_stats(handle, 2)
    assert victim not in now
    print(f"\n{count} requests in {elapsed:.1f} s; {len(retries)} retried: "
          f"{sorted(set(r[1] for r in retries))}")
