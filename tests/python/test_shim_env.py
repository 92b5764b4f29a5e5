"""EMBER_SHIM_IREE_RUNTIME=1: any Python process gets Ember for
``import iree.runtime``, through the .pth file the package installs.

Without the variable (or with an off value) the official runtime stays,
and the .pth does not even import Ember. The file is exercised the way the
interpreter reads it at start-up (``site.addsitedir`` on a folder holding
it) and, when Ember is installed in site-packages (as in CI), by a plain
interpreter start.
"""

from __future__ import annotations

import os
import shutil
import site
import subprocess
import sys
from pathlib import Path

import pytest

from ember import shim

REPO = Path(__file__).resolve().parents[2]
PTH_NAME = "ember_shim_iree_runtime.pth"
PTH_SOURCE = REPO / "python" / PTH_NAME
VARIABLE = "EMBER_SHIM_IREE_RUNTIME"

PROBE = """
import sys
shim_imported_at_start = "ember.shim" in sys.modules
import iree.runtime as rt
import iree.runtime.system_api as system_api
from iree.runtime._binding import VmVariantList
import ember.runtime
import ember.runtime.system_api
print(rt is ember.runtime, system_api is ember.runtime.system_api,
      VmVariantList is ember.runtime.VmVariantList, shim_imported_at_start)
"""


def run(code: str, value, cwd, extra_path=()):
    env = dict(os.environ)
    env.pop(VARIABLE, None)
    if value is not None:
        env[VARIABLE] = value
    if extra_path:
        env["PYTHONPATH"] = os.pathsep.join(
            [*map(str, extra_path), env.get("PYTHONPATH", "")])
    return subprocess.run([sys.executable, "-c", code], capture_output=True,
                          text=True, timeout=120, cwd=cwd, env=env)


def with_site(folder: Path) -> str:
    """Code that reads ``folder``'s .pth files as the start-up does."""
    return f"import site, sys; site.addsitedir({str(folder)!r})\n"


@pytest.fixture
def site_dir(tmp_path):
    folder = tmp_path / "site"
    folder.mkdir()
    shutil.copy(PTH_SOURCE, folder / PTH_NAME)
    return folder


def test_pth_file_is_one_guarded_import_line():
    lines = [line for line in PTH_SOURCE.read_text().splitlines()
             if line.strip() and not line.startswith("#")]
    # site.py executes only lines starting with "import"; every other line
    # would be added to sys.path.
    assert len(lines) == 1 and lines[0].startswith("import "), lines
    assert VARIABLE in lines[0] and shim.ENVIRONMENT_VARIABLE == VARIABLE


@pytest.mark.parametrize("value", ["1", "yes", " true "])
def test_variable_set_redirects_iree_runtime(site_dir, tmp_path, value):
    result = run(with_site(site_dir) + PROBE, value, tmp_path)
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == ["True", "True", "True", "True"], (
        result.stdout)
    assert result.stderr == ""


@pytest.mark.parametrize("value", [None, "", "0", "off", "false"])
def test_without_the_variable_the_official_runtime_stays(site_dir, tmp_path,
                                                         value):
    result = run(with_site(site_dir) + PROBE, value, tmp_path)
    assert result.returncode == 0, result.stderr
    words = result.stdout.split()
    assert words[:3] == ["False", "False", "False"], result.stdout
    if value in (None, "", "0"):
        # The cheap path: the .pth line did not import Ember at all.
        assert words[3] == "False", result.stdout
    assert result.stderr == ""


def test_a_broken_ember_never_stops_the_interpreter(site_dir, tmp_path):
    fake = tmp_path / "fake"
    (fake / "ember").mkdir(parents=True)
    (fake / "ember" / "__init__.py").write_text(
        "raise RuntimeError('broken install')\n")
    code = with_site(site_dir) + "print('started')\n"
    result = run(code, "1", tmp_path, extra_path=[fake])
    assert result.returncode == 0, result.stderr
    assert result.stdout == "started\n"
    assert VARIABLE in result.stderr and "broken install" in result.stderr
    assert "Traceback" not in result.stderr


def test_the_runner_still_works_with_the_variable_set(site_dir, tmp_path):
    (tmp_path / "probe.py").write_text(PROBE)
    code = (with_site(site_dir)
            + "from ember import shim; sys.exit(shim.main(['probe.py']))\n")
    result = run(code, "1", tmp_path)
    assert result.returncode == 0, result.stderr
    assert result.stdout.split()[:3] == ["True", "True", "True"]


def test_install_from_environment_reads_the_value(monkeypatch):
    calls = []
    monkeypatch.setattr(shim, "install", lambda: calls.append(True))
    for value, expected in (("1", True), ("on", True), ("0", False),
                            ("", False), ("No", False)):
        assert shim.install_from_environment({VARIABLE: value}) is expected
    assert shim.install_from_environment({}) is False
    monkeypatch.setenv(VARIABLE, "1")
    assert shim.install_from_environment() is True
    assert len(calls) == 3


def _installed_site_dir():
    """The site-packages folder Ember is installed in, or None when it is
    imported from the source tree (PYTHONPATH)."""
    import ember
    package = Path(ember.__file__).resolve().parent
    sites = list(site.getsitepackages())
    if site.ENABLE_USER_SITE:
        sites.append(site.getusersitepackages())
    for folder in sites:
        if package.parent == Path(folder).resolve():
            return package.parent
    return None


def test_installed_pth_works_at_interpreter_start(tmp_path):
    installed = _installed_site_dir()
    if installed is None:
        pytest.skip("ember is not installed in site-packages")
    assert (installed / PTH_NAME).exists(), (
        f"{PTH_NAME} was not installed into {installed}")
    on = run(PROBE, "1", tmp_path)
    assert on.returncode == 0, on.stderr
    assert on.stdout.split() == ["True", "True", "True", "True"], on.stdout
    off = run(PROBE, None, tmp_path)
    assert off.returncode == 0, off.stderr
    assert off.stdout.split() == ["False", "False", "False", "False"]
