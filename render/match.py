"""The 总结算 picture: the end of a match (局数) of several hands.

Top to bottom: the title with the hands played of the hands planned; a grid of the hands (a
row each) by the players (a column each), every cell the hand's points (red won, blue lost),
the hand's winner marked 胡 (自摸 when self-drawn) and a 逃跑 marked 逃; the totals; the hands
won and the 自摸 per player; and one line for the biggest 胡 (胡息, 名堂, which hand). The
match's winner (highest total; equals share it) has a gold column and a 冠军 badge; a player
who left (逃跑), ending the match early, is marked under his name.

Fixed words are drawn with the Regular font (as the leaderboard, player card and replay
pictures: its subset holds the common hanzi); figures with the Bold one.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from engine.points import signed as signed_text
from render import theme as T
from render.scene import Box, Format, Rect, Scene, render
from render.strings import match_pages

WIDTH = 780
M = 20
TITLE_H = 60
HEAD_H = 70  # names and badges
ROW_H = 36  # a hand
SUM_H = 40  # totals, wins and 自摸 rows
NO_W = 112  # the hand-number and row-label column
BEST_H = 70
CELL_PX = 24
LABEL_PX = 20
NAME_PX = 22
FORMAT: Format = "JPEG"  # as the leaderboard: PNG encoding alone would eat most of the budget


@dataclass(frozen=True)
class MatchHand:
    """One hand of a match: points by player, the winner (None: 荒庄 or 逃跑), the win's 胡息
    and 名堂 names, 自摸, and who ran away (逃跑), if anyone."""

    points: tuple[int, ...]
    winner: int | None = None
    huxi: int = 0
    mingtang: tuple[str, ...] = ()
    zimo: bool = False
    escaper: int | None = None


@dataclass(frozen=True)
class MatchSummary:
    """What the bot passes: the players' names, the hands planned, the hands played (in
    order), and the player whose leaving ended the match, if one did."""

    names: tuple[str, ...]
    planned: int
    hands: tuple[MatchHand, ...]
    leaver: int | None = None

    def escaped(self) -> bool:
        """The leaver ran away from a hand (逃跑), rather than leaving between hands."""
        return any(h.escaper == self.leaver for h in self.hands if h.escaper is not None)

    def totals(self) -> tuple[int, ...]:
        return tuple(sum(h.points[p] for h in self.hands) for p in range(len(self.names)))

    def wins(self) -> tuple[int, ...]:
        return tuple(sum(h.winner == p for h in self.hands) for p in range(len(self.names)))

    def zimo(self) -> tuple[int, ...]:
        return tuple(sum(h.winner == p and h.zimo for h in self.hands)
                     for p in range(len(self.names)))

    def champions(self) -> frozenset[int]:
        """The players with the highest total (none before a hand is played)."""
        totals = self.totals()
        if not self.hands:
            return frozenset()
        return frozenset(p for p, v in enumerate(totals) if v == max(totals))

    def most_wins(self) -> frozenset[int]:
        """The players who won most hands (none if nobody won one)."""
        wins = self.wins()
        top = max(wins, default=0)
        return frozenset(p for p, w in enumerate(wins) if w == top and top > 0)

    def biggest(self) -> tuple[int, MatchHand] | None:
        """(hand index, hand) of the biggest 胡: most 胡息, then most points; the earliest."""
        won = [(i, h) for i, h in enumerate(self.hands) if h.winner is not None]
        if not won:
            return None
        return max(won, key=lambda ih: (ih[1].huxi, max(ih[1].points), -ih[0]))


def layout_match(summary: MatchSummary, lang: str = "zh") -> Scene:
    s = match_pages(lang)
    n = len(summary.names)
    col_w = (WIDTH - 2 * M - NO_W) // n
    grid_y = TITLE_H + HEAD_H
    rows_h = ROW_H * max(1, len(summary.hands))
    sums_y = grid_y + rows_h + 6
    best_y = sums_y + 3 * SUM_H + 10
    scene = Scene(WIDTH, best_y + BEST_H + M)
    title = s["title"].format(k=len(summary.hands), n=summary.planned)
    scene.text(M, TITLE_H // 2 + 4, title, 30, T.GOLD, anchor="lm", max_width=WIDTH - 2 * M)
    champions = summary.champions()
    for p in range(n):
        x = M + NO_W + p * col_w
        if p in champions:
            scene.add(Box(Rect(x + 3, TITLE_H, col_w - 6, sums_y + SUM_H - TITLE_H),
                          fill=T.FELT_DARK, outline=T.GOLD, width=2, radius=10))
        _head(scene, s, summary, p, Rect(x, TITLE_H, col_w, HEAD_H), champions)
    scene.add(Box(Rect(M, grid_y - 2, WIDTH - 2 * M, 2), fill=T.FELT_LINE))
    if not summary.hands:
        scene.text(WIDTH // 2, grid_y + ROW_H // 2, s["none"], LABEL_PX, T.TEXT_DIM,
                   anchor="mm", max_width=WIDTH - 2 * M)
    for i, hand in enumerate(summary.hands):
        _hand_row(scene, s, i, hand, grid_y + i * ROW_H, col_w)
    scene.add(Box(Rect(M, sums_y - 4, WIDTH - 2 * M, 2), fill=T.FELT_LINE))
    _sum_row(scene, s["total"], summary.totals(), sums_y, col_w, signed=True)
    _sum_row(scene, s["wins"], summary.wins(), sums_y + SUM_H, col_w,
             gold=summary.most_wins())
    _sum_row(scene, s["zimo"], summary.zimo(), sums_y + 2 * SUM_H, col_w)
    _best(scene, s, summary, best_y)
    return scene


def _head(scene: Scene, s: Mapping[str, str], summary: MatchSummary, p: int, box: Rect,
          champions: frozenset[int]) -> None:
    scene.name(Rect(box.x + 10, box.y + 4, box.w - 20, 34), f"name:{p}", summary.names[p],
               NAME_PX, anchor="mm")
    left = "escaped" if summary.escaped() else "left"
    badges = [s[key] for key, on in (("champion", p in champions), (left, p == summary.leaver))
              if on]
    if badges:
        badge, ink = " · ".join(badges), T.LOSS if p == summary.leaver else T.GOLD
        scene.text(box.x + box.w // 2, box.y + 52, badge, LABEL_PX, ink, anchor="mm",
                   max_width=box.w - 16)


def _hand_row(scene: Scene, s: Mapping[str, str], i: int, hand: MatchHand, y: int,
              col_w: int) -> None:
    mid = y + ROW_H // 2
    scene.text(M + 8, mid, s["hand"].format(k=i + 1), LABEL_PX, T.TEXT_DIM, anchor="lm",
               max_width=NO_W - 12)
    for p, points in enumerate(hand.points):
        x = M + NO_W + p * col_w
        ink = T.WIN if points > 0 else T.LOSS if points < 0 else T.TEXT_DIM
        scene.text(x + col_w // 2 + 18, mid, signed_text(points), CELL_PX, ink,
                   bold=True, anchor="rm", max_width=col_w // 2 + 10)
        mark = s["zimo_mark"] if hand.winner == p and hand.zimo else \
            s["win_mark"] if hand.winner == p else s["escape_mark"] if hand.escaper == p else ""
        if mark:
            scene.text(x + col_w // 2 + 26, mid, mark, LABEL_PX,
                       T.GOLD if hand.winner == p else T.LOSS, anchor="lm",
                       max_width=col_w // 2 - 30)


def _sum_row(scene: Scene, label: str, values: Sequence[int], y: int, col_w: int, *,
             signed: bool = False, gold: frozenset[int] = frozenset()) -> None:
    mid = y + SUM_H // 2
    scene.text(M + 8, mid, label, LABEL_PX + 2, T.TEXT, anchor="lm", max_width=NO_W - 12)
    for p, v in enumerate(values):
        x = M + NO_W + p * col_w
        ink = (T.WIN if v > 0 else T.LOSS if v < 0 else T.TEXT) if signed else \
            T.GOLD if p in gold else T.TEXT
        text = signed_text(v) if signed else str(v)
        scene.text(x + col_w // 2 + 18, mid, text, CELL_PX + 4 if signed else CELL_PX, ink,
                   bold=True, anchor="rm", max_width=col_w // 2 + 10)


def _best(scene: Scene, s: Mapping[str, str], summary: MatchSummary, y: int) -> None:
    scene.add(Box(Rect(M, y, WIDTH - 2 * M, BEST_H), fill=T.FELT_DARK, radius=10))
    found = summary.biggest()
    if found is None:
        text = s["best_none"]
    else:
        i, hand = found
        assert hand.winner is not None
        text = s["best"].format(k=i + 1, huxi=hand.huxi,
                                mingtang=" ".join(hand.mingtang) or s["plain"])
        scene.name(Rect(M + 14, y + 4, 220, 28), "best_name", summary.names[hand.winner],
                   LABEL_PX + 2, T.GOLD)
    scene.text(M + 14, y + (46 if found else BEST_H // 2), text, LABEL_PX + 2, T.TEXT,
               anchor="lm", max_width=WIDTH - 2 * M - 28)


def render_match(summary: MatchSummary, lang: str = "zh") -> bytes:
    """The 总结算 picture of a match, in ``lang`` (zh or en)."""
    return render(lambda: layout_match(summary, lang), FORMAT)


def sample_summary(players: int = 4, planned: int = 16) -> MatchSummary:
    """A full match for the demo and the benchmark: a rotating winner, a 荒庄 every fifth
    hand, 自摸 and 名堂 here and there; names of several scripts and lengths."""
    names = ("小明", "Bartholomew Fitzwilliam", "さくら🌸", "Дмитрий")[:players]
    hands = []
    for i in range(planned):
        winner = None if i % 5 == 4 else i % players
        points = tuple(0 if winner is None else (i + 2) * (players - 1) if p == winner
                       else -(i + 2) for p in range(players))
        hands.append(MatchHand(points, winner, 12 + 3 * i if winner is not None else 0,
                               ("红胡",) if i % 3 == 0 else (), i % 4 == 1))
    return MatchSummary(names, planned, tuple(hands))
