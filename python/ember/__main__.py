"""``python -m ember``: Ember's main job on its bundled sample module.

With no arguments it loads the sample module shipped inside the package
(compiled from Ember's own MLIR by iree-compile 3.13), prints its
structure -- with the compiler release that built it -- then runs its
``simple_mul`` on the CPU twice -- with ember-run-module, and through the
Python API (``load_vm_flatbuffer_file``) -- and prints the results.
``python -m ember FILE`` prints any ``.vmfb`` and checks that it links
against Ember's native modules on the CPU (exit status 1 when it does not);
``--json`` prints JSON instead.
"""

import argparse
import subprocess
import sys
from pathlib import Path

from ember import runtime as rt

SAMPLE = Path(__file__).resolve().parent / "samples" / "simple_mul.vmfb"


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="python -m ember", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("module", nargs="?", default=str(SAMPLE),
                        help="a .vmfb file (default: the bundled sample)")
    parser.add_argument("--json", action="store_true", help="print JSON")
    parser.add_argument("--verbose", action="store_true",
                        help="include every debug location")
    args = parser.parse_args(argv)
    instance = rt.VmInstance()
    try:
        module = rt.VmModule.mmap(instance, args.module)
    except (ValueError, RuntimeError, OSError) as error:
        print(f"ember: cannot load {args.module}: {error}", file=sys.stderr)
        return 1
    print(module.dump(json=args.json, verbose=args.verbose), end="")
    if not args.json:
        print(f"\nLoaded {module!r} from {args.module}")
    link_error = check_links(instance, module)
    if not args.json:
        print("Links against Ember's native modules on local-sync: " +
              ("yes" if link_error is None else f"NO\n  {link_error}"))
    if link_error is not None:
        if args.json:
            print(f"ember: {args.module} cannot be linked: {link_error}",
                  file=sys.stderr)
        return 1
    if args.module == str(SAMPLE) and not args.json:
        return run_sample()
    return 0


def check_links(instance, module):
    """Registers `module` in a context with the native modules it depends
    on (`hal` on a local-sync device, `io_parameters` without parameters);
    None when that works, else the error's text. A module that loads but
    cannot link -- a program of a compiler release Ember does not run, or
    one importing a module Ember does not have -- is not fine."""
    import json

    dependencies = json.loads(module.dump(json=True))["dependencies"]
    names = {dependency["name"] for dependency in dependencies}
    modules = []
    if "hal" in names:
        device = rt.get_driver("local-sync").create_default_device()
        modules.append(rt.create_hal_module(instance, device))
    if "io_parameters" in names:
        modules.append(rt.create_io_parameters_module(instance))
    try:
        rt.VmContext(instance, modules=[*modules, module])
    except Exception as error:  # the context's own message says why
        return str(error)
    return None


def run_sample() -> int:
    """Runs simple_mul([1, 2, 3, 4], [10, 20, 30, 40]) on local-sync."""
    from ember._tools import _tool_path

    tool = _tool_path("ember-run-module")
    command = [str(tool), f"--module={SAMPLE}", "--function=simple_mul",
               "--device=local-sync", "--input=4xf32=1,2,3,4",
               "--input=4xf32=10,20,30,40"]
    print("\n$ ember-run-module --module=simple_mul.vmfb --function=simple_mul "
          "--input=4xf32=1,2,3,4 --input=4xf32=10,20,30,40")
    result = subprocess.run(command, capture_output=True, text=True)
    print(result.stdout, end="")
    if result.returncode != 0:
        print(result.stderr, end="", file=sys.stderr)
        return result.returncode
    return run_sample_in_python()


def run_sample_in_python() -> int:
    """The same call through the high-level Python API."""
    import numpy as np

    print("\n>>> module = ember.runtime.load_vm_flatbuffer_file("
          "'simple_mul.vmfb', driver='local-task')")
    print(">>> module.simple_mul(np.array([1, 2, 3, 4], np.float32), "
          "np.array([10, 20, 30, 40], np.float32)).to_host()")
    module = rt.load_vm_flatbuffer_file(SAMPLE, driver="local-task")
    result = module.simple_mul(np.array([1, 2, 3, 4], np.float32),
                               np.array([10, 20, 30, 40], np.float32))
    print(repr(result.to_host()))
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    except BrokenPipeError:  # e.g. `python -m ember | head`
        sys.stderr.close()
        sys.exit(0)
