"""Modules of iree-compile 3.11 and 3.13 in one runtime.

Each release's modules are checked against the official runtime *of that
release* (no official runtime runs both: 3.11 refuses 3.12+ modules, which
need `hal` version 7, and 3.12+ refuse 3.11's, whose dispatch signature
differs):

  * every function of every tensor program of the corpus, compiled by each
    release, run by `ember-run-module` and by that release's
    `iree-run-module` with the same inputs on both CPU devices: the results
    (written as .npy) must be the same bytes;
  * a 3.11 module and a 3.13 module of one program, under two module names,
    registered in one context that shares one `hal` module and one device,
    both called, each result equal to its own release's;
  * the compiler release Ember reads from each module (`compiler` in the
    dump), and the message of a module it cannot run.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from conftest import (CPU_COMPILE_FLAGS, compile_mlir, ember_run_module_command,
                      iree311_tool)

TIMEOUT = 120
DEVICES = ("local-sync", "local-task")

# Programs whose functions are not plain calls of tensors and scalars.
SKIPPED_PROGRAMS = {
    "check_expectations": "runs through ember-check-module (test_tools.py)",
    "lists": "takes and returns lists, which iree-run-module cannot write",
}

_DECLARATION = re.compile(r"func @([\w$.]+)\((.*)\) -> \((.*)\)$")
_TENSOR = re.compile(r"tensor<((?:[0-9?]+x)*)(\w+)>$")


def split_types(text: str) -> list[str]:
    """'%input0: tensor<4xf32>, %input1: f32' -> ['tensor<4xf32>', 'f32']."""
    types = []
    for part in re.split(r",\s*(?=%)", text.strip()):
        if part:
            types.append(part.split(":", 1)[1].strip())
    return types


def declarations(module_path: Path) -> list[tuple[str, list[str], list[str]]]:
    """(name, argument types, result types) of every export that has an
    iree.abi.declaration, read through Ember's own loader."""
    import ember.runtime as rt

    dump = json.loads(rt.VmModule.mmap(rt.VmInstance(), str(module_path))
                      .dump(json=True))
    found = []
    for export in dump["exports"]:
        declaration = (export.get("reflection") or {}).get(
            "iree.abi.declaration", "")
        m = _DECLARATION.search(declaration)
        if not m:
            continue
        found.append((m.group(1), split_types(m.group(2)),
                      split_types(m.group(3))))
    return found


_INTEGERS = {"i8": np.int8, "i16": np.int16, "i32": np.int32, "i64": np.int64,
             "si8": np.int8, "si32": np.int32, "ui8": np.uint8,
             "ui32": np.uint32}
_FLOATS = ("f16", "bf16", "f32", "f64")


def input_flag(type_: str, rng) -> str | None:
    """An --input= value for `type_` (None: a type this harness skips).
    Floats are small multiples of 1/4, exact in every float type, so the
    text means the same bits to both tools."""
    if type_ in ("i32", "i64", "index"):
        return str(int(rng.integers(1, 5)))
    if type_ in ("f32", "f64"):
        # Positive: scalars are also loop limits (control_flow.halve_until).
        return str(float(rng.integers(1, 9)) / 4)
    m = _TENSOR.match(type_)
    if not m:
        return None
    dims = [3 if d == "?" else int(d) for d in m.group(1).split("x") if d]
    element = m.group(2)
    count = int(np.prod(dims)) if dims else 1
    if element == "i1":
        # IREE's tools read i1 elements as hex bytes.
        values = [f"{int(v):02X}" for v in rng.integers(0, 2, count)]
    elif element in _INTEGERS:
        # Small and non-negative: integer inputs are also indices (gather).
        values = [str(int(v)) for v in rng.integers(0, 4, count)]
    elif element in _FLOATS:
        values = [str(float(v) / 4) for v in rng.integers(-16, 16, count)]
    else:
        return None
    shape = "x".join(str(d) for d in dims)
    return (f"{shape}x{element}=" if shape else f"{element}=") + ",".join(values)


def run(command: list[str]) -> subprocess.CompletedProcess:
    return subprocess.run(command, capture_output=True, timeout=TIMEOUT)


def compare_program(module: Path, iree_run_module: str, tmp_path: Path,
                    devices=DEVICES) -> int:
    """Runs every declared function of `module` on both tools and each of
    `devices`; returns how many calls were compared."""
    compared = 0
    failures = []
    for name, arguments, results in declarations(module):
        rng = np.random.default_rng(abs(hash(name)) % (1 << 32))
        inputs = [input_flag(t, rng) for t in arguments]
        if any(i is None for i in inputs) or not results:
            continue
        for device in devices:
            outputs = {}
            for tool_name, tool in (("ember", ember_run_module_command()),
                                    ("iree", [iree_run_module])):
                out = tmp_path / f"{name}.{device}.{tool_name}.npy"
                out.unlink(missing_ok=True)
                flags = [f"--module={module}", f"--function={name}",
                         f"--device={device}"]
                flags += [f"--input={i}" for i in inputs]
                flags += [f"--output=@{out}"] + [f"--output=+{out}"] * (
                    len(results) - 1)
                outputs[tool_name] = (run(tool + flags), out)
            (ours, ours_file), (theirs, theirs_file) = (outputs["ember"],
                                                        outputs["iree"])
            where = f"{module.name} {name} on {device}"
            if theirs.returncode != 0:
                if ours.returncode == 0:
                    failures.append(
                        f"{where}: the official runtime failed but Ember did "
                        f"not:\n{theirs.stderr.decode(errors='replace')}")
            elif ours.returncode != 0:
                failures.append(
                    f"{where}: {ours.stderr.decode(errors='replace')}")
            elif ours_file.read_bytes() != theirs_file.read_bytes():
                failures.append(f"{where}: results differ\nember: "
                                f"{ours.stdout!r}\niree:  {theirs.stdout!r}")
            else:
                compared += 1
    assert not failures, "\n".join(failures)
    return compared


def _tensor_program_names() -> list[str]:
    tool = sys.modules.get("ember_corpus")
    if tool is None:
        import conftest
        tool = conftest._load_corpus_tool()
    return [p.name for p in tool.discover_programs()
            if p.kind == "tensor" and p.name not in SKIPPED_PROGRAMS]


@pytest.mark.parametrize("program", _tensor_program_names())
@pytest.mark.parametrize("release", ["3.13", "3.11"])
def test_corpus_functions_match_their_release(corpus, corpus311,
                                              iree_run_module, tmp_path,
                                              program, release):
    manifest = corpus if release == "3.13" else corpus311
    tool = (iree_run_module if release == "3.13" else
            iree311_tool("iree-run-module"))
    (entry,) = [e for e in manifest["modules"] if e["name"] == program]
    compared = compare_program(Path(entry["forms"]["embedded"]), tool,
                               tmp_path)
    # Every program here has at least one function of plain tensors and
    # scalars (a harness that compares nothing must not pass).
    assert compared >= 1, program


# ---- one context, two releases ------------------------------------------------

PROGRAM = """
module @NAME {
  func.func @affine(%x: tensor<4x8xf32>, %w: tensor<8x3xf32>) -> tensor<4x3xf32> {
    %zero = arith.constant 0.0 : f32
    %init = tensor.empty() : tensor<4x3xf32>
    %filled = linalg.fill ins(%zero : f32) outs(%init : tensor<4x3xf32>) -> tensor<4x3xf32>
    %y = linalg.matmul ins(%x, %w : tensor<4x8xf32>, tensor<8x3xf32>)
                       outs(%filled : tensor<4x3xf32>) -> tensor<4x3xf32>
    %t = math.tanh %y : tensor<4x3xf32>
    return %t : tensor<4x3xf32>
  }
}
"""

ORACLE_311 = """
import sys
import numpy as np
import iree.runtime as rt
data = np.load(sys.argv[2])
config = rt.Config("local-task")
ctx = rt.SystemContext(config=config)
ctx.add_vm_module(rt.VmModule.mmap(config.vm_instance, sys.argv[1]))
result = ctx.modules.affine311.affine(data["x"], data["w"]).to_host()
np.save(sys.argv[3], result)
print(rt.version.VERSION if hasattr(rt, "version") else "")
"""


def test_311_and_313_modules_share_one_context_and_device(ember_rt, iree_rt,
                                                          tmp_path):
    module311 = compile_mlir("affine311", PROGRAM.replace("NAME", "affine311"),
                             CPU_COMPILE_FLAGS, iree311_tool("iree-compile"))
    module313 = compile_mlir("affine313", PROGRAM.replace("NAME", "affine313"))
    rng = np.random.default_rng(11)
    x = rng.standard_normal((4, 8), dtype=np.float32)
    w = rng.standard_normal((8, 3), dtype=np.float32)

    rt = ember_rt
    config = rt.Config("local-task")
    context = rt.SystemContext(config=config)
    instance = config.vm_instance
    m311 = rt.VmModule.mmap(instance, str(module311))
    m313 = rt.VmModule.mmap(instance, str(module313))
    assert json.loads(m311.dump(json=True))["compiler"]["name"] == \
        "iree-compile 3.11"
    assert json.loads(m313.dump(json=True))["compiler"]["name"].startswith(
        "iree-compile 3.1")
    context.add_vm_modules([m311, m313])  # one hal module, one device
    ours311 = context.modules.affine311.affine(x, w).to_host()
    ours313 = context.modules.affine313.affine(x, w).to_host()

    # Each against its own release's runtime.
    inputs = tmp_path / "inputs.npz"
    np.savez(inputs, x=x, w=w)
    out311 = tmp_path / "out311.npy"
    done = subprocess.run(
        [iree311_tool("python"), "-c", ORACLE_311, str(module311),
         str(inputs), str(out311)], capture_output=True, text=True,
        timeout=TIMEOUT)
    assert done.returncode == 0, done.stderr
    theirs311 = np.load(out311)
    official = iree_rt.load_vm_flatbuffer_file(str(module313),
                                               driver="local-task")
    theirs313 = official.affine(x, w).to_host()

    assert ours311.tobytes() == theirs311.tobytes()
    assert ours313.tobytes() == theirs313.tobytes()
    np.testing.assert_allclose(ours313, np.tanh(x @ w), rtol=1e-5, atol=1e-5)


# ---- what Ember says about a module's compiler --------------------------------


def rt_module_dump(path: Path) -> str:
    import ember.runtime as rt
    return rt.VmModule.mmap(rt.VmInstance(), str(path)).dump(json=True)


def module_compiler(path: Path) -> dict:
    return json.loads(rt_module_dump(path))["compiler"]


def test_the_compiler_of_every_corpus_module(corpus, corpus311):
    for manifest, tensor_name in ((corpus311, "iree-compile 3.11"),
                                  (corpus, None)):
        for entry in manifest["modules"]:
            path = Path(entry["forms"]["embedded"])
            compiler = module_compiler(path)
            assert compiler["supported"], (path, compiler)
            dispatches = any(
                i["full_name"] == "hal.command_buffer.dispatch"
                for i in json.loads(rt_module_dump(path))["imports"])
            if not dispatches:
                # A VM-only module, or one whose work is all queue
                # operations, says only its bytecode version (3.12+ declare
                # hal >= 6, or nothing, for those too).
                assert compiler["name"] == "iree-compile 3.11 to 3.13", path
            elif tensor_name:
                assert compiler["name"] == tensor_name, (path, compiler)
            else:
                assert compiler["name"] in ("iree-compile 3.12 or 3.13",
                                            "iree-compile 3.13"), (path,
                                                                   compiler)
                assert "requires hal >= 7" in compiler["evidence"]


def test_python_m_ember_prints_the_compiler_and_links(corpus, corpus311):
    for path, expected in (
            (Path(corpus311["modules"][0]["forms"]["embedded"]),
             "compiler: iree-compile 3.11 "),
            (Path(corpus["modules"][0]["forms"]["embedded"]),
             "compiler: iree-compile 3.1")):
        done = subprocess.run([sys.executable, "-m", "ember", str(path)],
                              capture_output=True, text=True, timeout=TIMEOUT)
        assert done.returncode == 0, done.stderr
        assert expected in done.stdout
        assert ("Links against Ember's native modules on local-sync: yes"
                in done.stdout)


def _bytecode_version_offset(data: bytes) -> int:
    """The file offset of BytecodeModuleDef.bytecode_version (field 13 of
    the root table, docs/module-format.md) in a flat (non-ZIP) module: a
    4-byte size prefix, then the FlatBuffer whose first word is the root
    table's offset."""
    base = 4
    table = base + int.from_bytes(data[base:base + 4], "little")
    vtable = table - int.from_bytes(data[table:table + 4], "little",
                                    signed=True)
    vtable_size = int.from_bytes(data[vtable:vtable + 2], "little")
    slot = vtable + 4 + 2 * 13
    assert slot + 2 <= vtable + vtable_size, "no bytecode_version field"
    field = int.from_bytes(data[slot:slot + 2], "little")
    assert field != 0, "bytecode_version is absent (defaulted)"
    return table + field


def test_a_module_of_another_release_is_named_as_such():
    """A real 3.13 module with its bytecode version rewritten to 16.0 (that
    of iree-compile 3.10) and 18.0: the loader's message names the release
    and the ones Ember runs."""
    import ember.runtime as rt

    source = compile_mlir("version_probe", """
func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {
  %y = arith.addf %x, %x : tensor<4xf32>
  return %y : tensor<4xf32>
}
""", CPU_COMPILE_FLAGS + ["--iree-vm-emit-polyglot-zip=false"])
    data = bytearray(source.read_bytes())
    at = _bytecode_version_offset(data)
    assert int.from_bytes(data[at:at + 4], "little") == 17 << 16
    rt.VmModule.copy_buffer(rt.VmInstance(), bytes(data))  # loads as is
    for major, release in ((16, "built by iree-compile 3.10 (bytecode 16.0)"),
                           (18, "built by an iree-compile newer than 3.13 "
                                "(bytecode 18.0)")):
        data[at:at + 4] = (major << 16).to_bytes(4, "little")
        with pytest.raises(ValueError) as error:
            rt.VmModule.copy_buffer(rt.VmInstance(), bytes(data))
        text = str(error.value)
        assert release in text, text
        assert "Ember runs modules from iree-compile 3.11-3.13" in text, text


def test_hal_module_lists_what_iree_313_lists(ember_rt, iree_rt):
    """The hal module is version 7 with 3.13's exports, each listed once
    (the version-6 dispatch signatures it also serves share their names),
    and a lookup by name finds 3.13's signature."""
    def listing(rt):
        instance = rt.VmInstance()
        device = rt.get_driver("local-sync").create_default_device()
        module = rt.create_hal_module(instance, device)
        return (module.version, module.function_names,
                [repr(module.lookup_function(name))
                 for name in module.function_names])

    ours, theirs = listing(ember_rt), listing(iree_rt)
    assert ours[0] == theirs[0] == 7
    assert ours[1] == theirs[1]
    assert len(ours[1]) == 60
    # reprs show each function's cconv.
    assert ours[2] == theirs[2]


def test_311_library_without_export_names_runs(ember_rt):
    """iree-compile 3.11 with --iree-llvmcpu-debug-symbols=false leaves the
    executable library's export names out; its programs dispatch by ordinal
    and run (3.12+ programs look exports up by name instead)."""
    program = """
func.func @scale(%x: tensor<64xf32>) -> tensor<64xf32> {
  %y = arith.mulf %x, %x : tensor<64xf32>
  %z = arith.addf %y, %x : tensor<64xf32>
  return %z : tensor<64xf32>
}
"""
    path = compile_mlir("unnamed311", program,
                        CPU_COMPILE_FLAGS + ["--iree-llvmcpu-debug-symbols=false"],
                        iree311_tool("iree-compile"))
    # The library really has no names: the export's name (which a build
    # with names has, "scale_dispatch_0_elementwise_64_f32") is not in it.
    assert b"scale_dispatch_0_elementwise" not in path.read_bytes()
    x = np.linspace(-3, 3, 64, dtype=np.float32)
    for driver in DEVICES:
        module = ember_rt.load_vm_flatbuffer_file(str(path), driver=driver)
        np.testing.assert_array_equal(module.scale(x).to_host(), x * x + x)
