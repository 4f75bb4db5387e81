"""Sample positions from real engine hands, for ``python -m render demo`` and the benchmark.

Hands are played with random legal choices from fixed seeds, so every run shows the same
pictures. Positions are picked to show as much as possible (melds, hidden cards, an offer).
Besides the ``qq`` pictures, :func:`ruleset_images` shows the other rule sets and seat counts.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from dataclasses import replace
from pathlib import Path
from typing import NamedTuple

from engine.birds import settle_birds
from engine.rules import QQ, RuleSet, get_rule_set
from engine.state import Hand
from engine.views import OutcomeKind, PrivateView, PublicView, Ting, Wait
from render.demo_pages import sample_pages
from render.hand import render_hand
from render.match import render_match, sample_summary
from render.settlement import render_settlement
from render.table import render_table

NAMES = ("小明", "Alice Wonderland", "老王🀄", "Zoë")
TOTALS = (1234, -560, 88)
TOTALS4 = (*TOTALS, 321)
BIRDS = ("鸟人阿飞", "Birdwatcher Bob")  # two onlookers who 打鸟 at the hunan/4 table


def play(seed: int, rules: RuleSet = QQ) -> Iterator[Hand]:
    """Yield the hand before the first action and after each one, in a random game."""
    rng = random.Random(seed)
    h = Hand.new(rules, seed=seed, dealer=seed % rules.players)
    yield h
    while not h.is_terminal():
        seat = rng.choice(h.to_act())
        h.apply(seat, rng.choice(h.legal_actions(seat)))
        yield h


def find(seed: int, want: Callable[[Hand], bool], tries: int = 500, rules: RuleSet = QQ) -> Hand:
    """The first position (over seeds ``seed``, ``seed+1``, …) for which ``want`` holds."""
    for s in range(seed, seed + tries):
        for h in play(s, rules):
            if want(h):
                return Hand.replay(rules, seed=s, dealer=s % rules.players, log=list(h.log))
    raise LookupError("no such position")


def _rich(h: Hand) -> bool:
    """A position worth showing: an offer, hidden melds, several melds on the table."""
    pub = h.public_view()
    melds = [m for seat in pub.seats for m in seat.melds]
    return (
        pub.offer is not None
        and len(melds) >= 5
        and any(None in m.cards for m in melds)
        and any(seat.discards for seat in pub.seats)
    )


def rich_private(seed: int = 7, rules: RuleSet = QQ) -> PrivateView:
    h = find(
        seed,
        lambda h: (
            _rich(h)
            and h.to_act() != ()
            and any(not all(m.face_up) for m in h.private_view(h.to_act()[0]).melds)
        ),
        rules=rules,
    )
    return h.private_view(h.to_act()[0])


def rich_public(seed: int = 7, rules: RuleSet = QQ) -> PublicView:
    return find(seed, _rich, rules=rules).public_view()


def ended(
    seed: int, kind: OutcomeKind, rules: RuleSet = QQ, want: Callable[[Hand], bool] | None = None
) -> PublicView:
    """A finished hand of ``kind`` (a win with a 名堂), for which ``want`` holds if given."""

    def done(h: Hand) -> bool:
        o = h.outcome
        return (
            o is not None
            and o.kind == kind
            and (kind != OutcomeKind.WIN or (o.win is not None and bool(o.win.mingtang)))
            and (want is None or want(h))
        )

    return find(seed, done, rules=rules).public_view()


def escaped(seed: int = 7) -> PublicView:
    h = find(seed, _rich)
    h.escape(h.to_act()[0])
    return h.public_view()


def reseated(view: PrivateView, n: int) -> PrivateView:
    """The same position at a table of ``n`` (2..4) seats, this seat first: the seats after it
    in play order are kept, dropped or (for a 4th seat) copied from the 下家. Only for the
    demo and the benchmark, until rule sets with 2 and 4 seats exist."""
    pub = view.public
    k = len(pub.seats)
    order = [(view.seat + d) % k for d in range(min(n, k))]
    order += [order[1]] * (n - len(order))

    def seat_no(old: int | None) -> int:
        return order.index(old) if old in order else 0

    seats = tuple(replace(pub.seats[old], seat=new) for new, old in enumerate(order))
    ev = pub.last_event
    return replace(
        view,
        seat=0,
        public=replace(
            pub,
            seats=seats,
            dealer=seat_no(pub.dealer),
            offer=None if pub.offer is None else replace(pub.offer, seat=seat_no(pub.offer.seat)),
            to_act=tuple(seat_no(i) for i in pub.to_act),
            last_event=None if ev is None else replace(ev, seat=seat_no(ev.seat)),
        ),
    )


def sample_ting(view: PrivateView) -> Ting:
    """A made-up 听 over the seat's own hand (the demo shows how 听 is drawn, not whether the
    hand really is 听): two discards that would leave it waiting, one wait with none unseen."""
    free = sorted(set(view.hand) - set(view.kans))
    waits = (Wait(free[-1], 3), Wait(free[0], 0))
    return Ting(waits=waits, by_discard=tuple((k, waits) for k in free[:2]))


def with_birds(view: PublicView, names: tuple[str, ...]) -> tuple[tuple[str, int], ...]:
    """Each bird's (name, points), as the bot passes them to the settlement."""
    assert view.outcome is not None
    each, _ = settle_birds(get_rule_set(view.rule_set), view.outcome, view.dealer, len(names))
    return tuple((name, each) for name in names)


class RulesetPositions(NamedTuple):
    """Positions of the other rule sets and seat counts, from their engine hands."""

    hunan4_table: PublicView  # a 醒家 sits the hand out
    hunan4_seat: PrivateView
    hunan4_won: PublicView  # a win: the 醒家 collects 醒筹, the 鸟牌 names a seat
    hunan2_seat: PrivateView
    four14_seat: PrivateView
    four14_won: PublicView


def ruleset_positions(seed: int = 7) -> RulesetPositions:
    hunan4, four14 = get_rule_set("hunan/4"), get_rule_set("four14")
    return RulesetPositions(
        hunan4_table=rich_public(seed, hunan4),
        hunan4_seat=rich_private(seed, hunan4),
        hunan4_won=ended(seed, OutcomeKind.WIN, hunan4),
        hunan2_seat=rich_private(seed, get_rule_set("hunan/2/min21")),
        four14_seat=rich_private(seed, four14),
        four14_won=ended(  # won on a discard: the settlement names who fed it (点炮)
            seed, OutcomeKind.WIN, four14, lambda h: h.outcome is not None and h.outcome.fed_by is not None
        ),
    )


def ruleset_images(seed: int, lang: str) -> dict[str, bytes]:
    """Pictures of the other rule sets and seat counts: a hunan/4 table with its 醒家, a
    settlement with 醒筹 and two birds, four14 and a two-seat table."""
    p = ruleset_positions(seed)
    return {
        "hunan4_table": render_table(p.hunan4_table, NAMES, lang),
        "hunan4_seat": render_hand(p.hunan4_seat, NAMES, lang),
        "hunan4_settlement": render_settlement(
            p.hunan4_won, NAMES, TOTALS4, lang, birds=with_birds(p.hunan4_won, BIRDS)
        ),
        "hunan2_seat": render_hand(p.hunan2_seat, NAMES, lang),
        "four14_seat": render_hand(p.four14_seat, NAMES, lang),
        "four14_settlement": render_settlement(p.four14_won, NAMES, TOTALS4, lang),
    }


def write_demo(outdir: Path, seed: int = 7, lang: str = "zh") -> list[Path]:
    """One image of every kind; returns the files written."""
    outdir.mkdir(parents=True, exist_ok=True)
    images = {
        **sample_pages(seed, lang),
        **{
            f"seat{n}": render_hand(
                reseated(rich_private(seed), n),
                NAMES,
                lang,
                trustee=frozenset({1}),
                robots=frozenset({n - 1}),
                ting=sample_ting(rich_private(seed)),
            )
            for n in (2, 3, 4)
        },
        "table": render_table(rich_public(seed), NAMES, lang),
        "settlement_win": render_settlement(ended(seed, OutcomeKind.WIN), NAMES, TOTALS, lang),
        "settlement_draw": render_settlement(ended(seed, OutcomeKind.DRAW), NAMES, TOTALS, lang),
        "settlement_escape": render_settlement(escaped(seed), NAMES, TOTALS, lang),
        **ruleset_images(seed, lang),
        "match_summary": render_match(sample_summary(), lang),
    }
    written = []
    for name, data in images.items():
        ext = "jpg" if data[:2] == b"\xff\xd8" else "png"
        path = outdir / f"{name}_{lang}.{ext}"
        path.write_bytes(data)
        written.append(path)
    return written
