"""``python -m ember.shim``: existing iree.runtime code runs on Ember."""

from __future__ import annotations

import subprocess
import sys

PROBE = """
import sys
import iree.runtime as rt
import iree.runtime.system_api as system_api
from iree.runtime._binding import VmVariantList
import ember.runtime
import ember.runtime.system_api
import iree.compiler
print(rt is ember.runtime, system_api is ember.runtime.system_api,
      VmVariantList is ember.runtime.VmVariantList,
      iree.compiler.__name__, sys.argv[1:], __name__)
try:
    import iree.runtime.no_such_part
except ModuleNotFoundError as error:
    print("missing:", error.name)
"""


def run(args, cwd):
    return subprocess.run([sys.executable, *args], capture_output=True,
                          text=True, timeout=120, cwd=cwd)


def test_script_and_module_forms_see_ember(tmp_path):
    (tmp_path / "probe.py").write_text(PROBE)
    expected = "True True True iree.compiler ['a', '--b'] __main__"
    for args in (["-m", "ember.shim", "probe.py", "a", "--b"],
                 ["-m", "ember.shim", "-m", "probe", "a", "--b"]):
        result = run(args, tmp_path)
        assert result.returncode == 0, result.stderr
        lines = result.stdout.splitlines()
        assert lines[0] == expected, result.stdout
        assert lines[1] == "missing: iree.runtime.no_such_part"


def test_without_the_shim_the_official_runtime_stays(tmp_path):
    (tmp_path / "probe.py").write_text(PROBE)
    result = run(["probe.py"], tmp_path)
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith("False False False iree.compiler")


def test_exit_status_and_usage(tmp_path):
    (tmp_path / "fails.py").write_text("raise SystemExit(3)\n")
    assert run(["-m", "ember.shim", "fails.py"], tmp_path).returncode == 3
    assert run(["-m", "ember.shim"], tmp_path).returncode == 2
    assert run(["-m", "ember.shim", "-m"], tmp_path).returncode == 2
