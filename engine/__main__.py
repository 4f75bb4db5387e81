"""``python -m engine <command>``: engine tools for the command line.

Add a command by adding one row to ``COMMANDS``: (help text, argument setup, runner).
A runner gets the parsed arguments, stdin and stdout, and returns the exit status.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from typing import IO

from engine import cli, duplicate, record

Runner = Callable[[argparse.Namespace, IO[str], IO[str]], int]

# each command's arguments: a function that adds them to its parser (what it returns is unused)
Arguments = Callable[[argparse.ArgumentParser], object]

COMMANDS: dict[str, tuple[str, Arguments, Runner]] = {
    "analyze": (
        "analyse hands: one JSON object per stdin line → one JSON line each (exit 2 on bad lines)",
        lambda parser: None,
        cli.cmd_analyze,
    ),
    "simulate": (
        "play random hands and print a JSON summary",
        cli.simulate_arguments,
        cli.cmd_simulate,
    ),
    "verify": (
        "replay an exported hand record (JSON) and confirm its seed, deck, moves and result;"
        " a 复式挑战's record: its seeds' SHA-256, every deal and every computer move too",
        lambda parser: parser.add_argument("file", help="the record, as /export gives it"),
        lambda args, stdin, stdout: record.cmd_verify(args, stdin, stdout,
                                                      duplicate.verify_any),
    ),
    "review": (
        "复盘 of an exported hand record: each seat's decisions against the strong player's"
        " values, a rating per seat and the flagged moments, as JSON",
        cli.review_arguments,
        cli.cmd_review,
    ),
}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m engine", description="跑胡子 engine tools")
    sub = parser.add_subparsers(dest="command", required=True)
    for name, (help_text, setup, runner) in COMMANDS.items():
        command = sub.add_parser(name, help=help_text, description=help_text)
        setup(command)
        command.set_defaults(runner=runner)
    args = parser.parse_args(argv)
    return args.runner(args, sys.stdin, sys.stdout)


if __name__ == "__main__":
    sys.exit(main())
