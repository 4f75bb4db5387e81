"""A hand's settlement: what a seat's win is worth, and who pays whom when the hand ends (a
win, a 逃跑 or a 荒庄), with the 醒筹 a 醒家 collects.

docs/rules/qq.md, 胡牌与名堂 · Winning and 结算 · Settlement; docs/rules/hunan.md for the 醒家
and his 醒筹; docs/rules/four14.md, 胡牌 · Winning (地胡) and 结算 · Settlement (on a discard
win everyone pays alike).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from engine import analyzer, scoring
from engine.rules import RuleSet
from engine.seat import Seat
from engine.views import Win


@dataclass(frozen=True)
class Settlement:
    """One hand's wins and points: its rules, 底分, dealer and 醒家 (or None)."""

    rules: RuleSet
    base: int
    dealer: int
    xing: int | None

    def win_for(
        self, seat: int, s: Seat, card: int | None, source: analyzer.Source | None, *,
        haidi: bool = False, tianhu: bool = False,
    ) -> Win | None:
        """The analyzer's verdict on seat ``seat``'s cards ``s`` (valid by construction:
        unchecked). A win of a seat whose dealt cards are untouched is 地胡 where the rules
        have it."""
        dihu = self.dihu(seat, s)
        return analyzer.analyze(
            self.rules, s.hand, s.melds, card, source=source,
            haidi=haidi, tianhu=tianhu and not dihu, base=self.base, checked=False, dihu=dihu,
        )

    def dihu(self, seat: int, s: Seat) -> bool:
        """地胡 (``rules.dihu``): a non-dealer who has not yet drawn, taken or discarded."""
        return self.rules.dihu and seat != self.dealer and not s.started

    def liang_win(self, seat: int, s: Seat, liangzhang: int) -> Win | None:
        """天胡 on the 亮张: the dealer's cards as they stand (not 自摸: only the forced 天胡
        is), or another seat's cards with the 亮张 (地胡 where the rules have it)."""
        if seat == self.dealer:
            return self.win_for(seat, s, None, None, tianhu=True)
        return self.win_for(seat, s, liangzhang, "other", tianhu=True)

    def forced_win(self, seat: int, s: Seat) -> Win:
        """必需天胡 (a non-dealer's is 地胡 where the rules have it): the dealer's is 自摸."""
        return analyzer.forced_tianhu_win(
            self.rules, s.hand, zimo=seat == self.dealer, base=self.base, dihu=self.dihu(seat, s)
        )

    def win(self, seat: int, win: Win, losers: Sequence[int]) -> tuple[int, ...]:
        """The winner is paid by every other playing seat (``losers``), who also pays the 醒家
        his 醒筹; on a discard win too (its discarder is not charged more)."""
        points = [0] * self.rules.players
        points[seat] = win.winner_points
        for i in losers:
            points[i] = win.loser_points
        return self._with_xing_stake(points, losers)

    def uncapped(self, seat: int, win: Win, losers: Sequence[int]) -> tuple[int, ...] | None:
        """The points :meth:`win` would give without 封顶 (None when the cap did not apply)."""
        if win.uncapped_loser_points is None:
            return None
        loss = win.uncapped_loser_points
        return self.win(seat, replace(win, winner_points=-loss * len(losers), loser_points=loss),
                        losers)

    def escape(self, seat: int, penalty: int) -> tuple[int, ...]:
        """逃跑: ``seat`` pays ``penalty`` to each other playing seat, and the 醒筹."""
        points = [0 if i == self.xing else penalty for i in range(self.rules.players)]
        points[seat] = -penalty * (self.rules.playing_seats - 1)
        return self._with_xing_stake(points, [seat])

    def draw(self) -> tuple[int, ...]:
        """荒庄: nobody scores; the dealer alone pays a 醒家 his 醒筹."""
        return self._with_xing_stake([0] * self.rules.players, [self.dealer])

    def escape_penalty(self, seats: Sequence[Seat], seat: int) -> int:
        """What ``seat`` would pay each other seat if it escaped now: from the best 胡息 the
        other playing seats can arrange (hidden cards: only ``seat`` may be told)."""
        h2 = sum(
            analyzer.best_huxi(self.rules, s.hand, s.melds)
            for i, s in enumerate(seats)
            if i not in (seat, self.xing)
        )
        return scoring.escape_penalty(self.rules, h2, self.base)

    def escape_floor(self, seats: Sequence[Seat], seat: int) -> int:
        """The least ``seat`` would pay each other seat if it escaped now, from what every seat
        sees: the same formula over the other playing seats' 明胡息 (their face-up melds; hidden
        cards only add 胡息), so anyone may be told it (docs/rules/qq.md, 逃跑)."""
        shown = sum(s.public(i).shown_huxi for i, s in enumerate(seats)
                    if i not in (seat, self.xing))
        return scoring.escape_penalty(self.rules, shown, self.base)

    def _with_xing_stake(self, points: list[int], payers: Sequence[int]) -> tuple[int, ...]:
        """Add the 醒筹: each payer gives the 醒家 ``xing_stake`` 底分 (none without a 醒家)."""
        if self.xing is not None:
            stake = self.rules.xing_stake * self.base
            for i in payers:
                points[i] -= stake
                points[self.xing] += stake
        return tuple(points)
