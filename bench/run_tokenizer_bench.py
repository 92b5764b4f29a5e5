#!/usr/bin/env python3
"""Tokenizer throughput: Ember against HuggingFace `tokenizers` and the
official iree.runtime 3.13 `Tokenizer`, in one run.

Tokenizers (tests/python/tokenizer_corpus.py, trained here with
`tokenizers`' own trainers on the stdlib's sources + multilingual text):
  gpt2       GPT-2-style byte-level BPE
  llama      llama-style BPE with byte fallback (no pre-tokenizer)
  llama3     Llama-3-style BPE (cl100k-like Split regex + ByteLevel)
  wordpiece  BERT-style WordPiece
  unigram    T5-style Unigram (Metaspace)
Inputs (--size UTF-8 bytes each, cut into documents of about --doc-bytes
at line ends): "ascii" English prose (stdlib docstrings), "cjk"
Japanese/Chinese/Korean prose, "code" Python sources.

Measurements, in MiB/s of UTF-8 text (encode: text in; decode: text out):
  HF 1T     `encode_batch` / `decode_batch` with TOKENIZERS_PARALLELISM=false
            (the batch runs serially; no Python loop over documents)
  HF 2T     the same with parallelism on and RAYON_NUM_THREADS=2
  IREE 1T   `encode` / `decode` in a Python loop over the documents (3.13
            has no batch call)
  IREE 2T   the same loop split over 2 Python threads (shows whether 3.13
            releases the GIL)
  Ember 1T  `encode_batch(threads=1)` / `decode_batch(threads=1)`
  Ember 2T  `encode_batch(threads=2)` / `decode_batch(threads=2)`
The "encode+offsets" rows time Ember's `encode_batch_with_offsets`
against HF's `encode_batch`, which computes offsets on every encode (its
cells repeat the encode row's); 3.13 has no offsets.
Before anything is timed, every document's ids (and every decoded text,
and Ember's character offsets) of Ember and IREE is compared with HF's: a tokenizer a runtime refuses is
shown as "refused: <message>", one whose results differ is timed but
flagged "(≠HF k/n)".

Each repeat runs every measurement of a (tokenizer, input) once, in a
rotated order (so none always runs first), and the table shows the median
over --repeats repeats (>= 5). Ratios: ember/iree and ember/hf of the
single-thread encode, and Ember's 2T/1T. Targets (issue "Tokenizer"):
single-thread encode >= 1.0x official 3.13 and >= 2x HF; encode_batch on 2
cores >= 1.8x single-thread.

Results replace the "## Tokenizer" section of BENCHMARKS.md unless
--no-write (--note adds a line, e.g. "loaded machine").

Usage: python3 bench/run_tokenizer_bench.py [--repeats 7] [--size BYTES]
           [--doc-bytes 8192] [--kinds gpt2,llama,...] [--inputs ascii,...]
           [--note TEXT] [--memory-gib 8] [--no-write] [--json PATH]
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import platform
import shlex
import statistics
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Callable, Dict, List, Optional

# Rayon sizes its pool once, from this variable, on first use.
os.environ.setdefault("RAYON_NUM_THREADS", "2")
os.environ["TOKENIZERS_PARALLELISM"] = "true"

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "tests" / "python"))
SECTION = "## Tokenizer"
MIB = float(1 << 20)


def split_docs(text: str, doc_bytes: int) -> List[str]:
    """Documents of about doc_bytes UTF-8 bytes, cut after a newline where
    there is one near the limit."""
    docs, start = [], 0
    approx = max(1, doc_bytes)
    while start < len(text):
        # Characters, not bytes: walk forward until doc_bytes are reached.
        end, n = start, 0
        while end < len(text) and n < approx:
            n += len(text[end].encode("utf-8"))
            end += 1
        cut = text.rfind("\n", start + 1, end)
        if end < len(text) and cut > start + (end - start) // 2:
            end = cut + 1
        docs.append(text[start:end])
        start = end
    return docs


class Parallel2:
    """Runs fn over the documents on 2 Python threads (halves, in order)."""

    def __init__(self, fn: Callable, items: List):
        self.fn, self.items = fn, items

    def __call__(self) -> List:
        half = (len(self.items) + 1) // 2
        out: List[Optional[List]] = [None, None]

        def work(k: int) -> None:
            part = self.items[:half] if k == 0 else self.items[half:]
            out[k] = [self.fn(x) for x in part]

        t = threading.Thread(target=work, args=(1,))
        t.start()
        work(0)
        t.join()
        return out[0] + out[1]


def hf_serial(fn: Callable) -> Callable:
    def run():
        os.environ["TOKENIZERS_PARALLELISM"] = "false"
        try:
            return fn()
        finally:
            os.environ["TOKENIZERS_PARALLELISM"] = "true"
    return run


def short(e: BaseException) -> str:
    # The first clause of the message, without the loader's context.
    msg = " ".join(str(e).split()).split(";")[0]
    return (msg[:70] + "...") if len(msg) > 73 else msg


def measure_case(kind: str, text_json: str, name: str, text: str,
                 args, rts) -> Dict:
    import tokenizers
    hf = tokenizers.Tokenizer.from_str(text_json)
    docs = split_docs(text, args.doc_bytes)
    nbytes = len(text.encode("utf-8"))
    ref_encodings = hf.encode_batch(docs, add_special_tokens=False)
    ref_ids = [e.ids for e in ref_encodings]
    ref_offsets = [(e.ids, [tuple(o) for o in e.offsets])
                   for e in ref_encodings]
    ref_text = hf.decode_batch(ref_ids, skip_special_tokens=False)
    out_bytes = sum(len(t.encode("utf-8")) for t in ref_text)
    case = {"kind": kind, "input": name, "bytes": nbytes,
            "decoded_bytes": out_bytes, "docs": len(docs), "tokens":
            sum(map(len, ref_ids)), "status": {}, "mismatch": {},
            "times": {}}
    runs: Dict[str, Callable] = {
        "hf.enc.1": hf_serial(lambda: hf.encode_batch(
            docs, add_special_tokens=False)),
        "hf.enc.2": lambda: hf.encode_batch(docs, add_special_tokens=False),
        "hf.dec.1": hf_serial(lambda: hf.decode_batch(
            ref_ids, skip_special_tokens=False)),
        "hf.dec.2": lambda: hf.decode_batch(ref_ids,
                                          skip_special_tokens=False),
    }
    for rt_name, mod in rts.items():
        try:
            tok = mod.Tokenizer.from_huggingface_json(text_json)
        except Exception as e:  # a refused kind is a result, not a crash
            case["status"][rt_name] = f"refused: {short(e)}"
            continue
        try:
            if rt_name == "ember":
                got_ids = tok.encode_batch(docs, threads=2)
                got_text = tok.decode_batch(ref_ids, threads=2)
                got_offsets = tok.encode_batch_with_offsets(
                    docs, threads=2, offset_type="char")
                case["mismatch"]["ember.off"] = sum(
                    a != b for a, b in zip(got_offsets, ref_offsets))
                runs["ember.off.1"] = (
                    lambda t=tok: t.encode_batch_with_offsets(docs,
                                                              threads=1))
                runs["ember.off.2"] = (
                    lambda t=tok: t.encode_batch_with_offsets(docs,
                                                              threads=2))
                runs["ember.enc.1"] = (
                    lambda t=tok: t.encode_batch(docs, threads=1))
                runs["ember.enc.2"] = (
                    lambda t=tok: t.encode_batch(docs, threads=2))
                runs["ember.dec.1"] = (
                    lambda t=tok: t.decode_batch(ref_ids, threads=1))
                runs["ember.dec.2"] = (
                    lambda t=tok: t.decode_batch(ref_ids, threads=2))
            else:
                got_ids = [tok.encode(d) for d in docs]
                got_text = [tok.decode(i) for i in ref_ids]
                runs["iree.enc.1"] = (
                    lambda t=tok: [t.encode(d) for d in docs])
                runs["iree.enc.2"] = Parallel2(tok.encode, docs)
                runs["iree.dec.1"] = (
                    lambda t=tok: [t.decode(i) for i in ref_ids])
                runs["iree.dec.2"] = Parallel2(tok.decode, ref_ids)
        except Exception as e:
            case["status"][rt_name] = f"failed: {short(e)}"
            for k in [k for k in runs if k.startswith(rt_name + ".")]:
                del runs[k]
            continue
        case["status"][rt_name] = "ok"
        case["mismatch"][rt_name + ".enc"] = sum(
            a != b for a, b in zip(got_ids, ref_ids))
        case["mismatch"][rt_name + ".dec"] = sum(
            a != b for a, b in zip(got_text, ref_text))
    # Warm up (caches, pools), then alternate.
    for fn in runs.values():
        fn()
    keys = list(runs)
    times: Dict[str, List[float]] = {k: [] for k in keys}
    cpu: Dict[str, List[float]] = {k: [] for k in keys}
    for rep in range(args.repeats):
        order = keys[rep % len(keys):] + keys[:rep % len(keys)]
        for k in order:
            start, start_cpu = time.perf_counter(), time.process_time()
            runs[k]()
            times[k].append(time.perf_counter() - start)
            cpu[k].append(time.process_time() - start_cpu)
    for k, ts in times.items():
        total = out_bytes if ".dec." in k else nbytes
        case["times"][k] = {
            "median_s": statistics.median(ts),
            "mib_s": total / MIB / statistics.median(ts),
            # Process CPU time: on a loaded machine the steadier measure of
            # one thread's work (meaningless for the 2T runs).
            "cpu_mib_s": total / MIB / max(1e-9, statistics.median(cpu[k])),
            "all_s": ts, "all_cpu_s": cpu[k]}
    return case


# The ops of the tables: encode, encode with offsets (HF's encode always
# computes them: its encode timings stand for both), decode.
OPS = (("enc", "encode"), ("off", "encode+offsets"), ("dec", "decode"))


def cell(case: Dict, rt: str, op: str, threads: int) -> str:
    if rt != "hf" and case["status"].get(rt, "ok") != "ok":
        return case["status"][rt]
    if rt == "hf" and op == "off":
        op = "enc"
    t = case["times"].get(f"{rt}.{op}.{threads}")
    if t is None:
        return "-"
    s = f"{t['mib_s']:.1f}"
    bad = case["mismatch"].get(f"{rt}.{op}", 0)
    if bad:
        s += f" (≠HF {bad}/{case['docs']})"
    return s


def ratio(case: Dict, a: str, b: str) -> str:
    ta, tb = case["times"].get(a), case["times"].get(b)
    if not ta or not tb:
        return "-"
    return f"{ta['mib_s'] / tb['mib_s']:.2f}"


def table(cases: List[Dict]) -> str:
    head = ("| tokenizer | input | op | HF 1T | HF 2T | IREE 1T | IREE 2T "
            "| Ember 1T | Ember 2T | ember/iree 1T | ember/hf 1T "
            "| Ember 2T/1T | HF 2T/1T |")
    lines = [head, "|---|---|---|" + "---:|" * 10]
    for c in cases:
        for op, label in OPS:
            refused = {rt: c["status"][rt] for rt in ("iree", "ember")
                       if c["status"].get(rt, "ok") != "ok"}
            hf_op = "enc" if op == "off" else op
            row = [c["kind"], c["input"], label, cell(c, "hf", op, 1),
                   cell(c, "hf", op, 2)]
            for rt in ("iree", "ember"):
                if rt in refused:
                    # One cell says why; the 2T cell points at it.
                    row += [refused[rt], "(as 1T)"]
                else:
                    row += [cell(c, rt, op, 1), cell(c, rt, op, 2)]
            row += [ratio(c, f"ember.{op}.1", f"iree.{op}.1"),
                    ratio(c, f"ember.{op}.1", f"hf.{hf_op}.1"),
                    ratio(c, f"ember.{op}.2", f"ember.{op}.1"),
                    ratio(c, f"hf.{hf_op}.2", f"hf.{hf_op}.1")]
            lines.append("| " + " | ".join(row) + " |")
    return "\n".join(lines)


def cpu_table(cases: List[Dict]) -> str:
    lines = ["| tokenizer | input | op | HF 1T | IREE 1T | Ember 1T "
             "| ember/iree | ember/hf |", "|---|---|---|" + "---:|" * 5]
    for c in cases:
        for op, label in OPS:
            hf_op = "enc" if op == "off" else op
            t = {rt: c["times"].get(f"{rt}.{hf_op if rt == 'hf' else op}.1")
                 for rt in ("hf", "iree", "ember")}
            row = [c["kind"], c["input"], label]
            row += [f"{t[rt]['cpu_mib_s']:.1f}" if t[rt] else "-"
                    for rt in ("hf", "iree", "ember")]
            for other in ("iree", "hf"):
                if t["ember"] and t[other]:
                    r = t["ember"]["cpu_mib_s"] / t[other]["cpu_mib_s"]
                    row.append(f"{r:.2f}")
                else:
                    row.append("-")
            lines.append("| " + " | ".join(row) + " |")
    return "\n".join(lines)


def targets(cases: List[Dict]) -> str:
    out = []
    for c in cases:
        enc = c["times"]
        e1, e2 = enc.get("ember.enc.1"), enc.get("ember.enc.2")
        i1, h1 = enc.get("iree.enc.1"), enc.get("hf.enc.1")
        checks = []
        if e1 and i1:
            r = e1["mib_s"] / i1["mib_s"]
            checks.append(f"vs 3.13 {r:.2f}x {'ok' if r >= 1.0 else 'MISS'}")
        if e1 and h1:
            r = e1["mib_s"] / h1["mib_s"]
            checks.append(f"vs HF {r:.2f}x {'ok' if r >= 2.0 else 'MISS'}")
        if e1 and e2:
            r = e2["mib_s"] / e1["mib_s"]
            checks.append(f"2T/1T {r:.2f}x {'ok' if r >= 1.8 else 'MISS'}")
        if not checks:
            checks.append("Ember " + c["status"].get("ember", "?"))
        out.append(f"- {c['kind']} / {c['input']}: " + "; ".join(checks))
    return "\n".join(out)


def machine() -> str:
    cpu = ""
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    return (f"{os.cpu_count()} cores (`nproc`), {cpu}, "
            f"{platform.platform()}")


def versions() -> str:
    import importlib.metadata as md
    parts = []
    for dist in ("tokenizers", "iree-base-runtime", "ember-runtime"):
        try:
            parts.append(f"{dist} {md.version(dist)}")
        except md.PackageNotFoundError:
            parts.append(f"{dist} (not installed)")
    try:
        rev = subprocess.run(["git", "-C", str(REPO), "rev-parse", "--short",
                              "HEAD"], capture_output=True, text=True,
                             timeout=10).stdout.strip()
        parts.append(f"repo HEAD {rev}")
    except (OSError, subprocess.SubprocessError):
        pass
    return ", ".join(parts)


def write_section(text: str) -> None:
    # Read right before writing: others edit BENCHMARKS.md too.
    target = REPO / "BENCHMARKS.md"
    old = target.read_text() if target.exists() else "# Benchmarks\n"
    start = old.find("\n" + SECTION + "\n")
    if start < 0:
        new = old.rstrip("\n") + "\n\n" + text
    else:
        end = old.find("\n## ", start + 1)
        new = old[:start + 1] + text + (old[end:] if end >= 0 else "")
    target.write_text(new)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=7)
    parser.add_argument("--size", type=int, default=1 << 20,
                        help="UTF-8 bytes of each input (default 1 MiB)")
    parser.add_argument("--doc-bytes", type=int, default=8192)
    parser.add_argument("--kinds", default="gpt2,llama,wordpiece,unigram",
                        help="comma-separated; also: llama3")
    parser.add_argument("--inputs", default="ascii,cjk,code")
    parser.add_argument("--note", default="")
    parser.add_argument("--memory-gib", type=int, default=8,
                        help="address-space cap of this process")
    parser.add_argument("--no-write", action="store_true")
    parser.add_argument("--json", help="also write every time here")
    args = parser.parse_args()
    if args.repeats < 5:
        parser.error("--repeats must be at least 5")

    # iree.runtime 3.13 tries to allocate without bound on some inputs
    # (Unigram behind WhitespaceSplit + Metaspace, 64 words or more): a cap
    # on the address space turns that into a MemoryError ("failed: ...")
    # instead of the machine's OOM killer.
    try:
        import resource
        cap = args.memory_gib << 30
        soft, hard = resource.getrlimit(resource.RLIMIT_AS)
        if hard == resource.RLIM_INFINITY or hard > cap:
            resource.setrlimit(resource.RLIMIT_AS, (cap, hard))
    except (ImportError, ValueError, OSError):
        pass

    import tokenizer_corpus as tc
    rts = {}
    for name, mod in (("iree", "iree.runtime"), ("ember", "ember.runtime")):
        try:
            m = __import__(mod, fromlist=["Tokenizer"])
            if hasattr(m, "Tokenizer"):
                rts[name] = m
        except ImportError as e:
            print(f"{mod}: not importable ({e})", file=sys.stderr)

    load_before = os.getloadavg()
    started = datetime.datetime.now(datetime.timezone.utc)
    inputs = tc.bench_inputs(args.size)
    cases = []
    for kind in args.kinds.split(","):
        text_json = tc.trained_json(kind)
        for name in args.inputs.split(","):
            case = measure_case(kind, text_json, name, inputs[name], args, rts)
            cases.append(case)
            print(f"{kind}/{name}: " + ", ".join(
                f"{k} {v['mib_s']:.1f}" for k, v in case["times"].items())
                + "".join(f"; {k}: {v}" for k, v in case["status"].items()
                          if v != "ok"), file=sys.stderr, flush=True)
    load_after = os.getloadavg()

    cmd = "python3 bench/run_tokenizer_bench.py " + shlex.join(sys.argv[1:])
    text = (
        f"{SECTION}\n\n"
        "Encode and decode throughput in MiB/s of UTF-8 text (decode: text "
        "produced), median of "
        f"{args.repeats} repeats, all runtimes alternating in one process "
        "(`bench/run_tokenizer_bench.py`; its docstring says what each "
        "column runs). Tokenizers trained by `tokenizers`' trainers "
        "(`tests/python/tokenizer_corpus.py`); inputs of "
        f"{args.size} bytes cut into documents of about {args.doc_bytes} "
        "bytes. 1T = one thread, 2T = two. HF 1T/2T: `encode_batch` with "
        "`TOKENIZERS_PARALLELISM` false/true (RAYON_NUM_THREADS=2); IREE "
        "3.13 has no batch call: `encode` in a loop, 2T = the loop on two "
        "Python threads; Ember: `encode_batch(threads=1|2)`. Every result "
        "was compared with HF's before it was timed: a number flagged "
        "(≠HF k/n) is timed although k of the n documents gave other ids "
        "(or text) than HF's; \"failed:\" is the error of the check run, "
        "\"refused:\" the error at load.\n\n"
        f"- command: `{cmd.strip()}`\n"
        f"- date: {started:%Y-%m-%d %H:%M} UTC\n"
        f"- machine: {machine()}\n"
        f"- load average (1 min) before/after: {load_before[0]:.2f} / "
        f"{load_after[0]:.2f}\n"
        f"- versions: {versions()}\n"
        + (f"- note: {args.note}\n" if args.note else "")
        + "\n" + table(cases) + "\n\n"
        "The single-thread runs again, in MiB per second of process CPU "
        "time (steadier than wall time on a loaded machine):\n\n"
        + cpu_table(cases) + "\n\n"
        "Targets (single-thread encode >= 1.0x official 3.13 and >= 2x HF; "
        "Ember encode_batch 2T >= 1.8x 1T):\n\n" + targets(cases) + "\n")
    print(text)
    if args.json:
        Path(args.json).write_text(json.dumps(cases, indent=1))
    if not args.no_write:
        write_section(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
