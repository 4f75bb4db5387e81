"""What a searched decision's work counts, against its CPU time (prints figures; not a test).

大师 (engine/player/search.py) counts a decision's work without a clock: the strong judgement's
readings of free cards, the rollouts' moves and their readings (engine/player/eval.py's
READING_COST, engine/player/rollout.py's MOVE_COST). This plays HANDS qq hands by the strong
level and, at each decision with a choice, searches it on master's budget, then fits by least
squares the CPU time (``time.process_time``) of the judgement to its readings, of the rollouts
to their moves and readings, and of the whole to all three (rough microseconds each).

Run: ``nice python bench/bench_search_cost.py 4`` (needs numpy, as the test extras install).
"""

from __future__ import annotations

import sys
import time

import numpy as np

from engine.player import STRONG
from engine.player import search as S
from engine.player.eval import READING_COST
from engine.player.play import judge_counted, ranked
from engine.player.search import Budget
from engine.rules import QQ
from engine.state import Hand

made: list[S.Rollout] = []


class Spy(S.Rollout):
    """The search's rollout, kept for its counts."""

    def __init__(self, *args, **kwargs) -> None:  # type: ignore[no-untyped-def]
        super().__init__(*args, **kwargs)
        made.append(self)


S.Rollout = Spy  # type: ignore[misc]
rows = []
budget = Budget()
for seed in range(int(sys.argv[1]) if len(sys.argv) > 1 else 4):
    h = Hand.new(QQ, seed=seed, dealer=seed % 3)
    pub = [e for e in h.history if e.visible_to is None]
    while not h.is_terminal():
        seat = h.to_act()[0]
        view = h.private_view(seat)
        if len(view.legal) > 1:
            t0 = time.process_time()
            judged, readings = judge_counted(view, pub, STRONG.style)
            t1 = time.process_time()
            made.clear()
            order = ranked(judged)[:budget.candidates]
            S.play_out(view, pub, [c.action for c in order], STRONG.style, budget, spent=READING_COST * readings)
            t2 = time.process_time()
            r = made[0]
            rows.append((readings, t1 - t0, r.moves, r.eval.memo_size(), t2 - t1))
        a = STRONG.choose(view, pub)
        pub.extend(e for e in h.apply(seat, a) if e.visible_to is None)
a = np.array(rows)
j = np.linalg.lstsq(a[:, [0]], a[:, 1] * 1e6, rcond=None)[0]
ro = np.linalg.lstsq(a[:, [2, 3]], a[:, 4] * 1e6, rcond=None)[0]
both = np.linalg.lstsq(a[:, [0, 2, 3]], (a[:, 1] + a[:, 4]) * 1e6, rcond=None)[0]
print(f"{len(rows)} decisions; the judgement: {j[0]:.2f} us a reading; the rollouts: "
      f"{ro[0]:.0f} us a move, {ro[1]:.2f} us a reading; one fit of the whole: "
      f"{both[0]:.2f} us a reading of the judgement, {both[1]:.0f} a move, "
      f"{both[2]:.2f} a reading of the rollouts")
