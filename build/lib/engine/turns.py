"""Turn order: who plays after whom in a hand.

docs/rules/qq.md, 座位与发牌 · Seats and the deal: play passes to the 下家; with a 醒家
(docs/rules/hunan.md) he is skipped, since he holds no cards this hand.
"""

from __future__ import annotations

from functools import cache


@cache
def play_orders(players: int, xing: int | None) -> tuple[tuple[int, ...], ...]:
    """For each seat, the seats that play this hand in turn order from it (a 醒家 skipped,
    except from his own seat, where he comes first)."""
    return tuple(
        tuple(t for i in range(players) if (t := (s + i) % players) != xing or t == s)
        for s in range(players)
    )
