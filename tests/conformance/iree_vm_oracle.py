"""Runs IREE VM op test modules on the official runtime (the oracle).

    ORACLE_PYTHON tests/conformance/iree_vm_oracle.py MODULE.vmfb...

Run by run_iree_vm_tests.py --oracle under an interpreter that has
`iree.runtime` (e.g. a virtual environment with iree-base-runtime 3.13).
Calls every `test_*` / `fail_*` export of each module in a fresh context, as
Ember's vm_test_runner does, and prints one JSON object per line:

    {"test": "LABEL:NAME", "outcome": "pass" | "fail" | "unrunnable",
     "detail": "..."}

LABEL is the module file's name. "pass" means the export did what its name
asks (test_* succeeded, fail_* failed); "unrunnable" means the official
Python API cannot run it at all (see YIELDABLE_NOTE).
"""

import json
import sys
from pathlib import Path

# IREE's async_ops test imports a native `yieldable_test` module that its C
# test harness registers. From Python it can only be provided as a
# PyModuleInterface, and those cannot export a variadic function
# (yield_variadic_sum, cconv 0CiDi_i): py_module.cc answers "PyModules do not
# yet support variadic arguments/results". yield_n alone does not link, so
# the official Python API cannot run that module.
YIELDABLE_NOTE = "needs IREE's native yieldable_test module"


def yieldable_test_module(rt):
    class Yieldable:
        def __init__(self, iface):
            pass

        def yield_n(self, value, n):
            return value + n

    iface = rt.PyModuleInterface("yieldable_test", Yieldable)
    iface.export("yield_n", "0ii_i", Yieldable.yield_n)
    return iface.create()


def run_module(rt, instance, path: Path):
    label = path.name
    module = rt.VmModule.mmap(instance, str(path))
    names = [n for n in module.function_names
             if n.startswith("test_") or n.startswith("fail_")]
    needs_yieldable = "yieldable_test" in path.read_bytes().decode(
        "latin-1")
    for name in names:
        expects_failure = name.startswith("fail_")
        record = {"test": f"{label}:{name}"}
        try:
            modules = [module]
            if needs_yieldable:
                modules.insert(0, yieldable_test_module(rt))
            context = rt.VmContext(instance, modules)
        except Exception as error:  # noqa: BLE001 - reported, not hidden
            record.update(outcome="unrunnable",
                          detail=(YIELDABLE_NOTE + ": " if needs_yieldable
                                  else "") + f"cannot link: {error}")
            print(json.dumps(record), flush=True)
            continue
        function = module.lookup_function(name)
        try:
            context.invoke(function, rt.VmVariantList(0),
                           rt.VmVariantList(0))
            failed, detail = False, ""
        except Exception as error:  # noqa: BLE001 - the outcome under test
            failed, detail = True, str(error)
        passed = failed if expects_failure else not failed
        record.update(outcome="pass" if passed else "fail",
                      detail=detail if not passed or failed else "")
        print(json.dumps(record), flush=True)


def main() -> int:
    import iree.runtime as rt
    instance = rt.VmInstance()
    for path in sys.argv[1:]:
        run_module(rt, instance, Path(path))
    return 0


if __name__ == "__main__":
    sys.exit(main())
