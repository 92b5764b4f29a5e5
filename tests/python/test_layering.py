"""scripts/check_layering.py: the layer table holds for the tree and catches
back-edges, private headers and includes of python/ from runtime/."""

import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
SCRIPT = REPO / "scripts" / "check_layering.py"


def run(root):
    return subprocess.run([sys.executable, str(SCRIPT), str(root)],
                          capture_output=True, text=True)


def write(root, path, text):
    target = root / path
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(text)


def test_repository_follows_the_layers():
    result = run(REPO)
    assert result.returncode == 0, result.stderr


def test_allowed_includes_pass(tmp_path):
    write(tmp_path, "runtime/base/a.h", "")
    write(tmp_path, "runtime/vm/b.h", '#include "runtime/base/a.h"\n')
    write(tmp_path, "runtime/vm/bytecode/c.cc", '#include "runtime/vm/b.h"\n')
    write(tmp_path, "runtime/hal/d.h", '#include "runtime/base/a.h"\n')
    write(tmp_path, "runtime/modules/hal/e.cc",
          '#include "runtime/vm/b.h"\n#include "runtime/hal/d.h"\n')
    write(tmp_path, "runtime/vm/bytecode/f_internal.h", "")
    write(tmp_path, "runtime/vm/bytecode/g.cc",
          '#include "runtime/vm/bytecode/f_internal.h"\n')
    write(tmp_path, "tools/t.cc", '#include "runtime/vm/bytecode/c.h"\n')
    write(tmp_path, "tools/io.h", "")
    write(tmp_path, "fuzz/io_fuzzer.cc", '#include "tools/io.h"\n')
    result = run(tmp_path)
    assert result.returncode == 0, result.stderr


def test_back_edges_fail(tmp_path):
    cases = {
        "runtime/vm/x.cc": ('runtime/vm/bytecode/y.h', "layer vm may not use layer vm/bytecode"),
        "runtime/hal/x.cc": ('runtime/vm/y.h', "layer hal may not use layer vm"),
        "runtime/vm/z.cc": ('runtime/hal/y.h', "layer vm may not use layer hal"),
        "runtime/base/x.cc": ('runtime/vm/y.h', "layer base may not use layer vm"),
        "runtime/hal/cpu/x.cc": ('runtime/modules/hal/y.h',
                                 "layer hal/cpu may not use layer modules/hal"),
        "runtime/vm/w.cc": ('python/bindings/y.h', "runtime/ must not include python/"),
        "runtime/vm/v.cc": ('runtime/vm/bytecode/p_internal.h', "is private to"),
        "tools/x.cc": ('runtime/vm/bytecode/p_internal.h', "is private to"),
        "runtime/hal/u.cc": ('tools/io.h', "runtime/ must not include tools/"),
        "tests/t.cc": ('tools/io.h', "tests/ must not include tools/"),
        "fuzz/f.cc": ('python/bindings/y.h', "fuzz/ must not include python/"),
    }
    for source, (target, message) in cases.items():
        root = tmp_path / source.replace("/", "_")
        write(root, source, f'#include "{target}"\n')
        result = run(root)
        assert result.returncode == 1, (source, result.stderr)
        assert message in result.stderr, (source, result.stderr)
