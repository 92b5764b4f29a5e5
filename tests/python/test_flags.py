"""ember.runtime.flags: iree.runtime's parse_flags surface, with the flags
Ember knows taking effect and any other name refused."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest


@pytest.mark.parametrize("which", ["ember", "iree"])
def test_unknown_flags_are_refused_as_iree_does(ember_rt, iree_rt, which):
    rt = ember_rt if which == "ember" else iree_rt
    with pytest.raises(ValueError, match="flag 'barbar' not recognized"):
        rt.flags.parse_flags("--barbar")
    rt.flags.parse_flags("--help")
    assert rt.flags.FUNCTION_INPUT_VALIDATION is True


def test_worker_count_flag_reaches_local_task_uris(ember_rt):
    setup = ember_rt.system_setup
    with pytest.raises(ValueError, match="integer"):
        ember_rt.parse_flags("--task_topology_max_group_count=0")
    ember_rt.parse_flags("--task_topology_max_group_count=3")
    try:
        assert setup._with_flag_defaults("local-task") == \
            "local-task?worker_count=3"
        assert setup._with_flag_defaults("local-task://0?x=1") == \
            "local-task://0?x=1&worker_count=3"
        assert setup._with_flag_defaults("local-task?worker_count=2") == \
            "local-task?worker_count=2"
        assert setup._with_flag_defaults("local-sync") == "local-sync"
        assert ember_rt.get_device("local-task", cache=False) is not None
    finally:
        ember_rt.flags._values.clear()


def test_bad_environment_flags_fail_the_import():
    env = dict(os.environ, IREE_PY_RUNTIME_FLAGS="--barbar")
    result = subprocess.run([sys.executable, "-c", "import ember.runtime"],
                            env=env, capture_output=True, text=True,
                            timeout=120)
    assert result.returncode != 0
    assert "IREE_PY_RUNTIME_FLAGS" in result.stderr
    assert "barbar" in result.stderr
