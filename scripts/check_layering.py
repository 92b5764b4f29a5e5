#!/usr/bin/env python3
"""Checks every `#include "..."` of the tree against Ember's layer table.

    python3 scripts/check_layering.py [ROOT]

The layers (one library per folder under runtime/, see CMakeLists.txt):

    base                                 the ground floor
    vm             may use base          values, refs, modules, contexts
    vm/bytecode    may use vm, base      bytecode modules, the interpreter
    hal            may use base          HAL objects; knows nothing of the VM
    hal/cpu        may use hal, base     the CPU devices
    hal/vulkan     may use hal, base     the Vulkan device (libvulkan loaded
                                         at run time)
    modules/hal    may use vm, hal, base the bridge between VM and HAL
    modules/check  may use modules/hal,  the `check` module (its operands
                   vm, hal, base         are the hal module's ref types)
    io             may use base          parameter files, indices, archives
    tokenizer      may use base          text <-> token ids (HF tokenizer.json)
    modules/io_parameters                the `io_parameters` module
                   may use io, modules/hal, vm, hal, base
    modules/vmvx   may use vm/bytecode,  VMVX executables (bytecode run per
                   vm, hal/cpu, hal,     workgroup through an executable
                   base                  loader) and the `vmvx` module
    drivers        may use modules/vmvx, every driver this build has, in one
                   vm/bytecode, vm,      registry (the only place that names
                   hal/vulkan, hal/cpu,  device kinds)
                   hal, base
    testing        may use every layer   test helpers (tests only)

Above runtime/: tools/, fuzz/ and tests/ may include any layer (not python/);
python/bindings/ may include any layer and itself. Only tools/ and fuzz/ (a
fuzz target for the tools' file readers) include tools/; nothing under
runtime/ includes python/ or tools/.

A header named `*_internal.h` is private to its folder's library: only files
of that folder (its tests too) and fuzz targets may include it.

The build runs this script (target ember_layering), so a back-edge fails the
build, not a review. Exit status 1 and one line per offending include.
"""
import pathlib
import re
import sys

LAYERS = {
    "base": set(),
    "vm": {"base"},
    "vm/bytecode": {"vm", "base"},
    "hal": {"base"},
    "hal/cpu": {"hal", "base"},
    "hal/vulkan": {"hal", "base"},
    "modules/hal": {"vm", "hal", "base"},
    "modules/check": {"modules/hal", "vm", "hal", "base"},
    "io": {"base"},
    "tokenizer": {"base"},
    "modules/io_parameters": {"io", "modules/hal", "vm", "hal", "base"},
    "modules/vmvx": {"vm/bytecode", "vm", "hal/cpu", "hal", "base"},
    "drivers": {"modules/vmvx", "vm/bytecode", "vm", "hal/vulkan", "hal/cpu",
                "hal", "base"},
}
INCLUDE = re.compile(r'^\s*#\s*include\s*"([^"]+)"', re.M)
SOURCE_SUFFIXES = {".h", ".cc", ".cpp", ".inl"}


def layer_of(path):
    """The layer ('vm/bytecode', ...) of a path under runtime/, else None."""
    parts = pathlib.PurePosixPath(path).parts
    if len(parts) < 2 or parts[0] != "runtime":
        return None
    folder = "/".join(parts[1:-1])
    if folder == "testing":
        return "testing"
    if folder not in LAYERS:
        return "unknown:" + folder
    return folder


def check_include(source, target):
    """An error message, or None when `source` may include `target`."""
    target_parts = pathlib.PurePosixPath(target).parts
    top = source.split("/", 1)[0]
    if target_parts[0] == "python" and top != "python":
        return f"{top}/ must not include python/"
    # The tools' shared code (e.g. the .npy reader) is fuzzed from fuzz/.
    if target_parts[0] == "tools" and top not in ("tools", "fuzz"):
        return f"{top}/ must not include tools/"
    if target_parts[0] != "runtime":
        return None
    target_layer = layer_of(target)
    if target_layer is None or target_layer.startswith("unknown:"):
        return f"{target} is in no layer (add its folder to LAYERS)"
    source_layer = layer_of(source)
    if source_layer and source_layer.startswith("unknown:"):
        return f"{source} is in no layer (add its folder to LAYERS)"
    source_folder = str(pathlib.PurePosixPath(source).parent)
    target_folder = str(pathlib.PurePosixPath(target).parent)
    if target.endswith("_internal.h") and source_folder != target_folder \
            and top != "fuzz":
        return f"{target} is private to {target_folder}/"
    if source_layer is None or source_layer == "testing":
        if target_layer == "testing" and top not in ("runtime", "tests", "fuzz"):
            return "runtime/testing/ is for tests only"
        return None
    if target_layer == "testing":
        if source.endswith("_test.cc"):
            return None
        return "runtime/testing/ is for tests only"
    if target_layer == source_layer or target_layer in LAYERS[source_layer]:
        return None
    return (f"layer {source_layer} may not use layer {target_layer} "
            f"(allowed: {', '.join(sorted(LAYERS[source_layer])) or 'none'})")


def main(argv):
    root = pathlib.Path(argv[1] if len(argv) > 1 else
                        pathlib.Path(__file__).resolve().parent.parent)
    errors = []
    for top in ("runtime", "tools", "python/bindings", "fuzz", "tests"):
        for path in sorted((root / top).rglob("*")):
            if path.suffix not in SOURCE_SUFFIXES or not path.is_file():
                continue
            source = path.relative_to(root).as_posix()
            text = path.read_text(encoding="utf-8", errors="replace")
            for match in INCLUDE.finditer(text):
                line = text.count("\n", 0, match.start()) + 1
                error = check_include(source, match.group(1))
                if error:
                    errors.append(f"{source}:{line}: includes "
                                  f'"{match.group(1)}": {error}')
    for error in errors:
        print(error, file=sys.stderr)
    if errors:
        print(f"check_layering: {len(errors)} include(s) break the layers "
              "(scripts/check_layering.py has the table)", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
