"""``ember-serve``: serve one function of a compiled module with Ray Serve.

    ember-serve model.vmfb --function main [--replicas N]
                [--address ray://HOST:PORT | HOST:PORT | auto]
                [--host 127.0.0.1] [--port 8000] [--route-prefix /]
                [--parameters [SCOPE=]FILE ...] [--device local-task]
                [--max-batch-size N] [--batch-wait-timeout-s S]

Without ``--address`` it starts a Ray instance on this machine (stopped
when ember-serve exits); with one it joins that cluster and, on exit,
deletes the application it made. It prints ``serving <URL>`` once the
replicas are ready and serves until interrupted (Ctrl-C or SIGTERM). The
module and parameter paths are made absolute: every node that runs a
replica must see them at the same path.
"""

from __future__ import annotations

import argparse
import os
import signal
import sys
import threading


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="ember-serve",
        description="Serve a function of an IREE module (.vmfb) with Ember "
                    "on Ray Serve: POST .npy (or multipart of .npy) to the "
                    "URL it prints; GET URL/-/signature for the signature.")
    p.add_argument("module", help="the .vmfb file")
    p.add_argument("--function", default="main",
                   help="exported function (or the stem of its _b<N> "
                        "batch-size variants); default main")
    p.add_argument("--replicas", type=int, default=1)
    p.add_argument("--address", default=None,
                   help="Ray cluster to join (ray://host:port, host:port "
                        "or auto); default: start one here")
    p.add_argument("--host", default="127.0.0.1",
                   help="HTTP address to listen on (default 127.0.0.1)")
    p.add_argument("--port", type=int, default=8000)
    p.add_argument("--route-prefix", default="/")
    p.add_argument("--name", default="ember",
                   help="the Serve application's name")
    p.add_argument("--parameters", action="append", default=[],
                   metavar="[SCOPE=]FILE",
                   help="parameter file, as iree-run-module's --parameters "
                        "(repeatable)")
    p.add_argument("--device", default="local-task")
    p.add_argument("--max-batch-size", type=int, default=None,
                   help="stack up to N requests along dim 0 (default: no "
                        "batching)")
    p.add_argument("--batch-wait-timeout-s", type=float, default=0.005)
    p.add_argument("--num-cpus-per-replica", type=float, default=1.0)
    return p


def main(argv=None) -> int:
    args = _parser().parse_args(argv)
    if args.replicas < 1:
        print("ember-serve: --replicas must be >= 1", file=sys.stderr)
        return 2
    module = os.path.abspath(args.module)
    if not os.path.isfile(module):
        print(f"ember-serve: no such module file: {args.module}",
              file=sys.stderr)
        return 2
    parameters = []
    for item in args.parameters:
        scope, sep, path = item.partition("=")
        if sep and scope and path:
            parameters.append(f"{scope}={os.path.abspath(path)}")
        else:
            parameters.append(os.path.abspath(item))
    try:
        import ray
        from ray import serve

        from ember.serve import ModelDeployment
    except ImportError as error:
        print(f"ember-serve needs Ray Serve (pip install 'ray[serve]'): "
              f"{error}", file=sys.stderr)
        return 2

    # "local": a new instance, never one that another process started.
    ray.init(address=args.address or "local", log_to_driver=False)
    serve.start(http_options={"host": args.host, "port": args.port})
    app = ModelDeployment.options(
        num_replicas=args.replicas,
        ray_actor_options={"num_cpus": args.num_cpus_per_replica}).bind(
            module=module, function=args.function, device=args.device,
            parameters=parameters or None,
            max_batch_size=args.max_batch_size,
            batch_wait_timeout_s=args.batch_wait_timeout_s)
    stop = threading.Event()
    for sig in (signal.SIGINT, signal.SIGTERM):
        signal.signal(sig, lambda *_: stop.set())
    try:
        serve.run(app, name=args.name, route_prefix=args.route_prefix)
        prefix = args.route_prefix.rstrip("/")
        print(f"serving http://{args.host}:{args.port}{prefix} "
              f"({args.function} of {module}, {args.replicas} "
              f"replica{'s' if args.replicas != 1 else ''})", flush=True)
        stop.wait()
    finally:
        try:
            if args.address is None:
                serve.shutdown()
            else:
                serve.delete(args.name)
        finally:
            ray.shutdown()
    return 0


if __name__ == "__main__":
    sys.exit(main())
