"""``python -m ember``: Ember's main job on its bundled sample module.

With no arguments it loads the sample module shipped inside the package
(compiled from Ember's own MLIR by iree-compile 3.11) and prints its
structure. ``python -m ember FILE`` does the same for any ``.vmfb``;
``--json`` prints JSON instead.
"""

import argparse
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
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    except BrokenPipeError:  # e.g. `python -m ember | head`
        sys.stderr.close()
        sys.exit(0)
