"""The README's Python example runs as written and prints what it says."""

import contextlib
import io
import re
from pathlib import Path

README = Path(__file__).resolve().parents[2] / "README.md"


def python_blocks():
    return re.findall(r"```python\n(.*?)```", README.read_text(), re.S)


def test_readme_python_example_runs_as_written(ember_rt):
    blocks = python_blocks()
    assert blocks, "README.md has no ```python block"
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(blocks[0], str(README), "exec"), {})
    lines = out.getvalue().splitlines()
    assert lines[0] == "sample ['fib']"
    assert lines[1].startswith("<VmFunction fib(0i_i)")
    assert lines[-1] == "55"


def test_readme_tensor_examples_run_as_written(ember_rt):
    blocks = python_blocks()
    assert len(blocks) >= 3, "README.md lacks the tensor examples"
    for block in blocks[1:3]:  # high-level, then low-level
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            exec(compile(block, str(README), "exec"), {})
        assert out.getvalue().splitlines()[-1] == "[ 10.  40.  90. 160.]"
