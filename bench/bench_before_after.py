"""``bench_load.py`` of an older revision against this checkout's, in one run (prints figures).

    python bench/bench_before_after.py --rev 93380d9 [--rounds 3] -- --tables 20 --actions 900

The older revision is checked out into a temporary git worktree and both benches run with
this interpreter, alternately (old, new, old, new, ...), so that whatever else the machine
does at the time weighs on both alike. Each run's bot CPU per action and Bot API calls per
action are read from its report; printed are every run's figures and, per side, their
median, and the new side's median relative to the old one. Arguments after ``--`` go to
both benches unchanged (so keep to options the older ``bench_load.py`` has too).
"""

from __future__ import annotations

import argparse
import re
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
FIGURES = {
    "CPU ms/action": re.compile(r"^bot CPU\s+([\d.]+) ms per action", re.M),
    "calls/action": re.compile(r"^Bot API calls\s+([\d.]+) per action", re.M),
}


def measure(tree: Path, bench_args: list[str]) -> dict[str, float]:
    """One ``bench_load.py`` run from ``tree``: its figures by name."""
    out = subprocess.run([sys.executable, str(tree / "bench" / "bench_load.py"), *bench_args],
                         capture_output=True, text=True, check=True).stdout
    found = {name: pattern.search(out) for name, pattern in FIGURES.items()}
    missing = [name for name, match in found.items() if match is None]
    if missing:
        raise SystemExit(f"no {', '.join(missing)} in the report of {tree}:\n{out}")
    return {name: float(match[1]) for name, match in found.items() if match is not None}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rev", required=True, help="the older revision (before)")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("bench_args", nargs=argparse.REMAINDER,
                        help="-- then bench_load.py's arguments")
    args = parser.parse_args()
    bench_args = [a for a in args.bench_args if a != "--"]
    runs: dict[str, list[dict[str, float]]] = {"before": [], "after": []}
    with tempfile.TemporaryDirectory() as tmp:
        old = Path(tmp) / "before"
        subprocess.run(["git", "-C", str(ROOT), "worktree", "add", "--detach", str(old),
                        args.rev], check=True, capture_output=True)
        try:
            for n in range(1, args.rounds + 1):
                for side, tree in (("before", old), ("after", ROOT)):
                    runs[side].append(measure(tree, bench_args))
                    figures = "  ".join(f"{k} {v:.2f}" for k, v in runs[side][-1].items())
                    print(f"round {n} {side:6} {figures}", flush=True)
        finally:
            subprocess.run(["git", "-C", str(ROOT), "worktree", "remove", "--force", str(old)],
                           check=False, capture_output=True)
    print(f"medians over {args.rounds} rounds ({args.rev} -> this checkout):")
    for name in FIGURES:
        before = statistics.median(r[name] for r in runs["before"])
        after = statistics.median(r[name] for r in runs["after"])
        print(f"  {name:14} {before:8.2f} -> {after:8.2f}   {100 * (after / before - 1):+.1f} %")


if __name__ == "__main__":
    main()
