"""The scale drill's code path (bench/bench_scale.py) with tiny numbers: two tokens on one
PostgreSQL, two tables each (one by pictures, one with two page seats and a picture seat),
a few seconds of play; it stops by itself and prints its figures per token and in all. The
figures themselves are the bench's business (docs/operators.md), not this test's."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_the_drill_runs_and_reports_every_token(postgres_server: str) -> None:
    run = subprocess.run(
        [sys.executable, str(ROOT / "bench" / "bench_scale.py"), "--bots", "2", "--tables", "2", "--picture-tables", "1",
         "--webapp-seats", "2", "--think", "0.3", "--delay-ms", "0", "--seconds", "8", "--grace", "2",
         "--database-url", postgres_server],
        capture_output=True, text=True, timeout=240, cwd=ROOT)
    assert run.returncode == 0, run.stderr[-3000:]
    out = run.stdout
    assert "4 tables (2 tokens x 2) seated and dealt" in out
    rows = {m[1]: float(m[2]) for m in re.finditer(r"^\s+(\d|all)\s+([\d.]+)\s", out, re.M)}
    assert set(rows) == {"1", "2", "all"}, out
    # the tables played (on a loaded machine a token's one table may not move in the window)
    assert rows["all"] > 0, out
    commits = re.search(r"PostgreSQL\s+([\d.]+) transactions/s", out)
    assert commits is not None and float(commits[1]) > 0, out
    assert re.search(r"Bot API calls/s per token against Telegram's 30/s: \d+%, \d+%", out)
