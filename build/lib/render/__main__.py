"""``python -m render demo OUTDIR [--seed N] [--lang zh|en]``: write one image of every kind."""

from __future__ import annotations

import argparse
from pathlib import Path

from render.demo import write_demo
from render.strings import LANGS


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m render")
    sub = parser.add_subparsers(dest="command", required=True)
    demo = sub.add_parser("demo", help="write sample images from fixed-seed engine hands")
    demo.add_argument("outdir", type=Path)
    demo.add_argument("--seed", type=int, default=7)
    demo.add_argument("--lang", choices=[*LANGS, "all"], default="all")
    args = parser.parse_args(argv)
    for lang in LANGS if args.lang == "all" else (args.lang,):
        for path in write_demo(args.outdir, args.seed, lang):
            print(path)


if __name__ == "__main__":
    main()
