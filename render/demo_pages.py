"""Samples of the statistics pictures (leaderboard, player card, replay step) for ``python -m
render demo`` and the benchmark: fixed data and one fixed-seed hand, so every run is the same."""

from __future__ import annotations

import random

from engine.replay import ReplayFrame, replay_views
from engine.rules import QQ
from engine.standings import places
from engine.state import Hand
from engine.views import OutcomeKind
from render.leaderboard import BoardRow, render_leaderboard
from render.player_card import PlayerCard, render_player_card
from render.replay import render_replay_step

NAMES = ("小明", "Alice Wonderland", "老王🀄", "Zoë", "محمد", "Дмитрий Иванович", "さくら🌸",
         "Bartholomew Fitzwilliam III", "阿强", "Li Wei")


def sample_rows(n: int = 10) -> list[BoardRow]:
    """``n`` players, best first, each with a made-up run of recent hands."""
    rng = random.Random(13)
    rows = []
    for i in range(n):
        recent = tuple(rng.choice((-1, 1)) * rng.randrange(0, 120, 6) for _ in range(20))
        hands = 200 - 17 * i
        rows.append(BoardRow(NAMES[i % len(NAMES)], 14_000 // (i + 1) - 900, hands,
                             hands * (45 - 3 * i) // 100, recent))
    return rows


def sample_card() -> PlayerCard:
    rng = random.Random(14)
    timeline = tuple(rng.choice((-1, -1, 2)) * rng.randrange(6, 90, 6) for _ in range(80))
    return PlayerCard(NAMES[1], 5_432, 180, 71, 19, 38, ("红胡", 14), timeline)


def won_hand(seed: int) -> Hand:
    """The first hand won with a 名堂 from ``seed`` on, played with random legal moves."""
    for s in range(seed, seed + 500):
        rng = random.Random(s)
        h = Hand.new(QQ, seed=s, dealer=s % 3)
        while not h.is_terminal():
            seat = rng.choice(h.to_act())
            h.apply(seat, rng.choice(h.legal_actions(seat)))
        o = h.outcome
        if o is not None and o.kind == OutcomeKind.WIN and o.win is not None and o.win.mingtang:
            return h
    raise LookupError("no won hand")


def frame_at(hand: Hand, k: int) -> ReplayFrame:
    """The finished ``hand`` replayed from its record to step ``k``."""
    assert hand.seed is not None
    return replay_views(hand.rules.key, hand.seed, hand.dealer, hand.base, hand.log, k)


def sample_frame(seed: int = 7, where: float = 0.5) -> ReplayFrame:
    """A frame ``where`` of the way through a won hand (1.0: the last step)."""
    h = won_hand(seed)
    return frame_at(h, round(len(h.log) * where))


def sample_pages(seed: int = 7, lang: str = "zh") -> dict[str, bytes]:
    """The demo's statistics pictures, by file stem."""
    title = "本群排行" if lang == "zh" else "This group · top 10"
    return {
        "leaderboard": render_leaderboard(sample_rows(), lang, title=title,
                                          places=places([r.points for r in sample_rows()])),
        "player_card": render_player_card(sample_card(), lang),
        "replay_mid": render_replay_step(sample_frame(seed), NAMES, lang),
        "replay_end": render_replay_step(sample_frame(seed, 1.0), NAMES, lang),
    }
