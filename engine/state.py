"""One hand of 跑胡子 as a deterministic state machine (RULES.md sections 2–8).

A hand is rebuilt exactly from (rule set, seed or deck, dealer, base, action log). Draws and
forced moves happen inside the engine; it stops whenever some seat must decide, and
``to_act()`` / ``legal_actions(seat)`` say who and what. ``apply`` validates, mutates and returns
the events, each tagged with who may see it.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field, replace
from enum import StrEnum
from functools import cache
from typing import Any

from engine import actions as A
from engine import analyzer, scoring
from engine import cards as C
from engine.chi import chi_options
from engine.melds import FOUR_KINDS, Group, GroupKind
from engine.rules import RuleSet, get_rule_set
from engine.views import (
    Event,
    MeldView,
    Offer,
    OfferHow,
    Outcome,
    OutcomeKind,
    PrivateView,
    PublicView,
    SeatView,
    Win,
)


class IllegalAction(ValueError):
    """An action that is not legal now for that seat. Nothing was changed."""

    def __init__(self, code: str, seat: int, action: str, message: str) -> None:
        super().__init__(f"{code}: seat {seat} {action!r}: {message}")
        self.code = code
        self.seat = seat
        self.action = action


class Phase(StrEnum):
    LIANG = "liang"  # players may win on the 亮张 (天胡)
    DISCARD = "discard"
    CLAIM = "claim"  # a face-up card waits for 胡/碰/吃 answers
    SELFWIN = "selfwin"  # after a 提/偎 on his own draw the drawer may win (自摸)
    OVER = "over"


# Which cards of a table meld everyone sees (True) — the rest are face down.
_FACE_UP = {
    GroupKind.CHI: (True, True, True),
    GroupKind.PENG: (True, True, True),
    GroupKind.PAO: (True, True, True, True),
    GroupKind.WEI: (False, False, False),
    GroupKind.CHOUWEI: (True, False, False),
    GroupKind.TI: (True, False, False, False),
}


_KAN_HUXI = tuple(Group(GroupKind.KAN, (k,) * 3).huxi for k in range(C.KINDS))


@cache
def _play_orders(players: int, xing: int | None) -> tuple[tuple[int, ...], ...]:
    """For each seat, the seats that play this hand in turn order from it (a 醒家 skipped)."""
    return tuple(
        tuple(t for i in range(players) if (t := (s + i) % players) != xing or t == s)
        for s in range(players)
    )


_chi_action = cache(A.chi)  # the same few thousand 吃 choices recur in every hand


@cache
def _chi_used(groups: tuple[tuple[int, ...], ...], card: int) -> tuple[int, ...]:
    """The hand cards a 吃 (with its 比 groups) puts out: all its cards but the eaten one."""
    used = [k for g in groups for k in g]
    used.remove(card)
    return tuple(used)


def _source(offer: Offer, seat: int) -> analyzer.Source:
    """Who produced the face-up card, as the analyzer reads it for ``seat``'s win: a 碰
    does not take a discard (docs/rules/four14.md, 胡牌 · Winning)."""
    if seat == offer.seat:
        return "self"
    return "discard" if offer.how == OfferHow.DISCARD else "other"


@dataclass
class _Seat:
    hand: list[int]  # count vector; a count of 3 is a 坎
    melds: list[Group] = field(default_factory=list)
    discards: list[int] = field(default_factory=list)
    chou: set[int] = field(default_factory=set)  # may not 吃 (臭牌, own discards)
    no_peng: set[int] = field(default_factory=set)  # may not 碰
    declined_peng: set[int] = field(default_factory=set)  # 忍碰: a later 偎 is 臭偎
    chou_hu: dict[int, int] = field(default_factory=dict)  # kind -> 当前胡息 when a win was declined
    started: bool = False  # has drawn, taken or discarded: his dealt cards are no longer untouched

    @property
    def huxi(self) -> int:
        """当前胡息: the 胡息 of the table area."""
        return sum(g.huxi for g in self.melds)

    @property
    def ti_pao(self) -> int:
        return sum(1 for g in self.melds if g.kind in FOUR_KINDS)

    @property
    def card_total(self) -> int:
        return sum(self.hand) + sum(len(g.cards) for g in self.melds)

    def meld_of(self, kind: int, *group_kinds: GroupKind) -> int | None:
        for i, g in enumerate(self.melds):
            if g.cards[0] == kind and g.kind in group_kinds:
                return i
        return None

    def may_win_on(self, kind: int) -> bool:
        """臭胡 (6.6): a declined win on this kind bars it while 当前胡息 is unchanged."""
        return self.chou_hu.get(kind) != self.huxi

    def bar(self, card: int, *, chi: bool, both: bool) -> None:
        """Make ``card`` 臭 for this seat: for 吃 (``chi``) or else for 碰; ``both`` when the
        rules make every 臭 bar both (RuleSet.chou_bars_peng)."""
        if chi or both:
            self.chou.add(card)
        if not chi or both:
            self.no_peng.add(card)

    def discardable(self) -> list[int]:
        return [k for k, n in enumerate(self.hand) if 0 < n < 3]

    def may_take_with(self, rules: RuleSet, used: tuple[int, ...]) -> bool:
        """9.9: a 吃/碰 putting out these hand cards (plus the offered one) is allowed only if,
        when 5.5 then obliges a discard, some card other than a 坎 card is left to discard."""
        if self.card_total + 1 <= rules.discard_threshold(self.ti_pao):
            return True
        after = list(self.hand)
        for k in used:
            after[k] -= 1
        return any(0 < n < 3 for n in after)


@dataclass
class _Claim:
    """A face-up card waiting for answers."""

    offer: Offer
    options: dict[int, tuple[str, ...]]  # seat -> legal answers (always ending in "pass")
    answers: dict[int, str] = field(default_factory=dict)
    pao_seat: int | None = None
    haidi: bool = False


class Hand:
    """One hand. Build with :meth:`new` or :meth:`replay`; never mutate fields directly."""

    def __init__(
        self, rules: RuleSet, deck: list[int], dealer: int, seed: int | None, base: int
    ) -> None:
        if sorted(deck) != C.full_deck():
            raise ValueError("deck must hold each of the 20 kinds exactly 4 times")
        if not 0 <= dealer < rules.players:
            raise ValueError(f"dealer must be a seat 0..{rules.players - 1}")
        self.rules = rules
        self.deck = list(deck)
        self.dealer = dealer
        self.seed = seed
        self.base = base
        self.log: list[tuple[int, str]] = []
        self.history: list[Event] = []
        self.outcome: Outcome | None = None
        self.phase = Phase.OVER
        self._actor: int | None = None  # DISCARD / SELFWIN
        self._claim: _Claim | None = None
        self._selfwin_card: int | None = None
        self._fresh: tuple[int, int] | None = None  # (seat, card) just drawn
        self._won_offer: int | None = None  # a face-up card won on: in no hand or row
        self._xing = rules.xing_seat(dealer)  # 醒家: no cards, never asked
        self._orders = _play_orders(rules.players, self._xing)
        self._deal()

    # ----- construction -------------------------------------------------------------

    @classmethod
    def new(
        cls,
        rules: RuleSet,
        *,
        seed: int | None = None,
        deck: list[int] | None = None,
        dealer: int = 0,
        base: int | None = None,
    ) -> Hand:
        """A new hand from a seed (shuffled with ``random.Random(seed)``) or an explicit deck."""
        if (seed is None) == (deck is None):
            raise ValueError("give exactly one of seed and deck")
        if deck is None:
            deck = C.full_deck()
            random.Random(seed).shuffle(deck)
        return cls(rules, deck, dealer, seed, rules.default_base if base is None else base)

    @classmethod
    def replay(
        cls,
        rules: RuleSet,
        *,
        seed: int | None = None,
        deck: list[int] | None = None,
        dealer: int = 0,
        base: int | None = None,
        log: list[tuple[int, str]] | list[list[Any]] = (),  # type: ignore[assignment]
    ) -> Hand:
        hand = cls.new(rules, seed=seed, deck=deck, dealer=dealer, base=base)
        for seat, action in log:
            hand.apply_logged(seat, action)
        return hand

    def to_dict(self) -> dict[str, Any]:
        d: dict[str, Any] = {"rules": self.rules.key, "dealer": self.dealer, "base": self.base}
        if self.seed is not None:
            d["seed"] = self.seed
        else:
            d["deck"] = C.format_ascii(self.deck)
        d["log"] = [[seat, action] for seat, action in self.log]
        return d

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Hand:
        if not isinstance(d, dict):
            raise ValueError("hand record must be a JSON object")
        try:
            rules = get_rule_set(d.get("rules", "qq"))
            deck = C.parse_cards(d["deck"]) if "deck" in d else None
            seed = d.get("seed")
            if seed is not None and not isinstance(seed, int):
                raise ValueError("seed must be an integer")
            dealer, base = d.get("dealer", 0), d.get("base")
            if not isinstance(dealer, int) or (base is not None and not isinstance(base, int)):
                raise ValueError("dealer and base must be integers")
            log = d.get("log", [])
            if not isinstance(log, list) or not all(
                isinstance(e, list | tuple) and len(e) == 2 and isinstance(e[0], int)
                and isinstance(e[1], str) for e in log
            ):
                raise ValueError("log must be a list of [seat, action] pairs")
        except C.CardError as e:
            raise ValueError(f"bad deck: {e}") from None
        return cls.replay(rules, seed=seed, deck=deck, dealer=dealer, base=base, log=log)

    # ----- queries ------------------------------------------------------------------

    @property
    def players(self) -> int:
        return self.rules.players

    def next_seat(self, seat: int) -> int:
        """The 下家 who plays this hand (a 醒家 is skipped)."""
        return self._orders[seat][1]

    def _order_from(self, seat: int) -> tuple[int, ...]:
        """Seats in play order starting at ``seat`` (a 醒家 is skipped)."""
        return self._orders[seat]

    def is_terminal(self) -> bool:
        return self.outcome is not None

    def returns(self) -> tuple[int, ...]:
        return self.outcome.points if self.outcome else (0,) * self.players

    @property
    def stock_count(self) -> int:
        return len(self._stock)

    def to_act(self) -> tuple[int, ...]:
        if self.phase in (Phase.DISCARD, Phase.SELFWIN):
            assert self._actor is not None
            return (self._actor,)
        if self.phase in (Phase.CLAIM, Phase.LIANG):
            assert self._claim is not None
            return tuple(s for s in self._claim.options if s not in self._claim.answers)
        return ()

    def legal_actions(self, seat: int) -> tuple[str, ...]:
        if seat not in self.to_act():
            return ()
        if self.phase == Phase.DISCARD:
            return tuple(A.discard(k) for k in self._seats[seat].discardable())
        if self.phase == Phase.SELFWIN:
            return (A.HU, A.PASS)
        assert self._claim is not None
        return self._claim.options[seat]

    # ----- actions ------------------------------------------------------------------

    def apply(self, seat: int, action: str) -> list[Event]:
        """Apply a seat's decision; raise :class:`IllegalAction` (changing nothing) if not legal."""
        if self.outcome is not None:
            raise IllegalAction("hand_over", seat, action, "the hand is over")
        if not 0 <= seat < self.players:
            raise IllegalAction("bad_seat", seat, action, "no such seat")
        if seat not in self.to_act():
            raise IllegalAction("not_your_turn", seat, action, "not this seat's decision")
        if action not in self.legal_actions(seat):
            raise IllegalAction("illegal", seat, action, "not among the legal actions")
        start = len(self.history)
        self.log.append((seat, action))
        if self.phase == Phase.DISCARD:
            self._discard(seat, A.parse(action).card)  # type: ignore[arg-type]
        elif self.phase == Phase.SELFWIN:
            self._answer_selfwin(seat, action)
        else:
            assert self._claim is not None
            self._claim.answers[seat] = action
            if action == A.PASS:
                self._emit("pass", seat, visible_to=seat)  # who was asked is private (9.11)
            if self.phase == Phase.LIANG:
                self._resolve_liang()
            else:
                self._resolve_claim()
        return self.history[start:]

    def apply_logged(self, seat: int, action: str) -> list[Event]:
        """Apply an entry of the log: a move, or an ending no seat chooses alone (逃跑, 解散)."""
        if action == A.ESCAPE:
            return self.escape(seat)
        if action == A.DISSOLVE:
            return self.dissolve(seat)
        return self.apply(seat, action)

    def escape(self, seat: int) -> list[Event]:
        """逃跑: the seat leaves mid-hand and pays the penalty to each other seat (9.6)."""
        if self.outcome is not None:
            raise IllegalAction("hand_over", seat, A.ESCAPE, "the hand is over")
        if not 0 <= seat < self.players:
            raise IllegalAction("bad_seat", seat, A.ESCAPE, "no such seat")
        if seat == self._xing:
            raise IllegalAction("sitting_out", seat, A.ESCAPE, "the 醒家 holds no cards")
        start = len(self.history)
        penalty = self.escape_penalty(seat)
        self.log.append((seat, A.ESCAPE))
        points = [0 if i == self._xing else penalty for i in range(self.players)]
        points[seat] = -penalty * (self.rules.playing_seats - 1)
        self._emit("escape", seat)
        self._finish(Outcome(OutcomeKind.ESCAPE, self._with_xing_stake(points, [seat]),
                             escaper=seat))
        return self.history[start:]

    def dissolve(self, seat: int) -> list[Event]:
        """解散: the hand ends on ``seat``'s proposal, which the other seats agreed to; nobody
        scores or pays (no 醒筹 either). The vote itself is the bot's: the log keeps only its
        result, so that a replay ends the hand where it ended."""
        if self.outcome is not None:
            raise IllegalAction("hand_over", seat, A.DISSOLVE, "the hand is over")
        if not 0 <= seat < self.players:
            raise IllegalAction("bad_seat", seat, A.DISSOLVE, "no such seat")
        start = len(self.history)
        self.log.append((seat, A.DISSOLVE))
        self._emit("dissolve", seat)
        self._finish(Outcome(OutcomeKind.DISSOLVED, (0,) * self.players))
        return self.history[start:]

    def escape_penalty(self, seat: int) -> int:
        """What ``seat`` would pay each other seat if it escaped now (9.6); changes nothing.

        It depends on the others' hidden cards, so the bot may show the amount only to ``seat``.
        """
        h2 = sum(
            analyzer.best_huxi(self.rules, s.hand, s.melds)
            for i, s in enumerate(self._seats)
            if i not in (seat, self._xing)
        )
        return scoring.escape_penalty(self.rules, h2, self.base)

    # ----- the flow -----------------------------------------------------------------

    def _emit(
        self,
        kind: str,
        seat: int | None,
        cards: tuple[int, ...] = (),
        visible_to: int | None = None,
        groups: tuple[tuple[int, ...], ...] = (),
    ) -> None:
        self.history.append(Event(kind, seat, cards, visible_to, groups))

    def _finish(self, outcome: Outcome) -> None:
        """End the hand; every outcome names the 醒家 and, where birds fly, the bird card."""
        self.outcome = replace(outcome, xing=self._xing, bird_card=self._bird_card())
        self.phase = Phase.OVER
        self._claim = None
        self._actor = None

    def _bird_card(self) -> int | None:
        """The stock's last card (the last drawn at a 荒庄): it names the seat birds follow."""
        return self.deck[len(self.deck) - self.rules.set_aside - 1] if self.rules.birds else None

    def _deal(self) -> None:
        """Deal in turn order from the dealer (a 醒家 gets nothing); the deck's last
        ``set_aside`` cards are put aside unseen, and the rest is the stock."""
        r = self.rules
        pos = 0
        dealt: dict[int, list[int]] = {s: [] for s in range(r.players)}
        for seat in self._order_from(self.dealer):
            size = r.dealer_cards if seat == self.dealer else r.other_cards
            dealt[seat] = self.deck[pos : pos + size]
            pos += size
        self._set_aside = self.deck[len(self.deck) - r.set_aside :] if r.set_aside else []
        self._stock = self.deck[pos : len(self.deck) - r.set_aside][::-1]  # pop() takes deck[pos]
        self.liangzhang = dealt[self.dealer][-1]
        self._seats: list[_Seat] = [_Seat(C.counts(dealt[s])) for s in range(r.players)]
        for s in range(r.players):
            if s != self._xing:
                self._emit("deal", s, tuple(sorted(dealt[s], key=C.sort_key)), visible_to=s)
        self._emit("liang", self.dealer, (self.liangzhang,))
        if self._forced_tianhu():
            return
        options: dict[int, tuple[str, ...]] = {}
        for seat in self._order_from(self.dealer):
            if self._liang_win(seat) is not None:
                options[seat] = (A.HU, A.PASS)
        if options:
            self.phase = Phase.LIANG
            self._claim = _Claim(Offer(self.liangzhang, self.dealer, OfferHow.LIANG), options)
            return
        self._after_liang()

    def _forced_tianhu(self) -> bool:
        for seat in self._order_from(self.dealer):
            s = self._seats[seat]
            if analyzer.forced_tianhu(self.rules, s.hand):
                win = analyzer.forced_tianhu_win(
                    self.rules, s.hand, zimo=seat == self.dealer, base=self.base,
                    dihu=self._dihu(seat),
                )
                self._emit("tianhu", seat, tuple(C.expand(s.hand)))
                self._win(seat, win)
                return True
        return False

    def _win_for(
        self, seat: int, card: int | None, source: str | None, *, haidi: bool = False,
        tianhu: bool = False,
    ) -> Win | None:
        """The analyzer's verdict on this seat's cards (valid by construction: unchecked).
        A win of a seat whose dealt cards are untouched is 地胡 where the rules have it."""
        s = self._seats[seat]
        dihu = self._dihu(seat)
        return analyzer.analyze(
            self.rules, s.hand, s.melds, card, source=source,  # type: ignore[arg-type]
            haidi=haidi, tianhu=tianhu and not dihu, base=self.base, checked=False, dihu=dihu,
        )

    def _dihu(self, seat: int) -> bool:
        """地胡 (``rules.dihu``): a non-dealer who has not yet drawn, taken or discarded."""
        return self.rules.dihu and seat != self.dealer and not self._seats[seat].started

    def _liang_win(self, seat: int) -> Win | None:
        """天胡 on the 亮张: the dealer's 21 cards as they stand (not 自摸: only the forced
        天胡 is, section 8), or another seat's 20 cards with the 亮张 (地胡 where the rules
        have it)."""
        if seat == self.dealer:
            return self._win_for(seat, None, None, tianhu=True)
        return self._win_for(seat, self.liangzhang, "other", tianhu=True)

    def _resolve_liang(self) -> None:
        claim = self._claim
        assert claim is not None
        for seat in self._order_from(self.dealer):
            if seat not in claim.options:
                continue
            answer = claim.answers.get(seat)
            if answer is None:
                return
            if answer == A.HU:
                win = self._liang_win(seat)
                assert win is not None
                self._emit("hu", seat, (self.liangzhang,))
                self._win(seat, win)
                return
        for seat in claim.options:
            self._seats[seat].chou_hu[self.liangzhang] = self._seats[seat].huxi
        self._claim = None
        self._after_liang()

    def _after_liang(self) -> None:
        """Auto-提 every dealt 4-of-a-kind, then the dealer discards (or is exempt)."""
        for seat in self._order_from(self.dealer):
            s = self._seats[seat]
            for k in range(C.KINDS):
                if s.hand[k] == 4:
                    s.hand[k] = 0
                    s.melds.append(Group(GroupKind.TI, (k,) * 4))
                    self._emit("ti", seat, (k,))
        self._after_take(self.dealer)

    def _after_take(self, seat: int) -> None:
        """RULES.md 5.5: discard exactly when hand+table > 20 + max(0, T−1), else 下家 draws.
        Every take (吃, 碰, 跑, 偎, 提) ends here: the seat's dealt cards are touched."""
        s = self._seats[seat]
        s.started = True
        if s.card_total > self.rules.discard_threshold(s.ti_pao) and s.discardable():
            self.phase = Phase.DISCARD
            self._actor = seat
            self._claim = None
            return
        self._draw(self.next_seat(seat))

    def _draw(self, seat: int) -> None:
        self._claim = None
        self._actor = None
        if not self._stock:
            self._emit("huangzhuang", None)
            self._finish(Outcome(OutcomeKind.DRAW, self._with_xing_stake([0] * self.players,
                                                                         [self.dealer])))
            return
        card = self._stock.pop()
        self._fresh = (seat, card)
        s = self._seats[seat]
        s.started = True
        wei = s.meld_of(card, GroupKind.WEI, GroupKind.CHOUWEI)
        if s.hand[card] == 3 or wei is not None:
            if wei is not None:
                s.melds[wei] = Group(GroupKind.TI, (card,) * 4)
            else:
                s.hand[card] = 0
                s.melds.append(Group(GroupKind.TI, (card,) * 4))
            self._emit("ti", seat, (card,))
        elif s.hand[card] == 2:
            s.hand[card] = 0
            if card in s.declined_peng:
                s.melds.append(Group(GroupKind.CHOUWEI, (card,) * 3))
                self._emit("chouwei", seat, (card,))
            else:
                s.melds.append(Group(GroupKind.WEI, (card,) * 3))
                self._emit("wei", seat)
                self._emit("wei", seat, (card,), visible_to=seat)
        else:
            self._emit("draw", seat, (card,))
            self._open_claim(Offer(card, seat, OfferHow.DRAW), haidi=not self._stock)
            return
        # 提 or 偎 on his own draw: he may win now (自摸, decision 9.3).
        if s.may_win_on(card) and self._win_for(seat, None, "self", haidi=not self._stock):
            self.phase = Phase.SELFWIN
            self._actor = seat
            self._selfwin_card = card
            return
        self._after_take(seat)

    def _answer_selfwin(self, seat: int, action: str) -> None:
        s = self._seats[seat]
        card = self._selfwin_card
        assert card is not None
        if action == A.HU:
            win = self._win_for(seat, None, "self", haidi=not self._stock)
            assert win is not None
            self._emit("hu", seat, (card,))
            self._win(seat, win)
            return
        s.chou_hu[card] = s.huxi
        self._emit("pass", seat, visible_to=seat)
        self._after_take(seat)

    def _discard(self, seat: int, card: int) -> None:
        s = self._seats[seat]
        s.hand[card] -= 1
        s.started = True
        s.bar(card, chi=True, both=self.rules.chou_bars_peng)  # 6.2: nor 吃 his own discards
        self._emit("discard", seat, (card,))
        self._open_claim(Offer(card, seat, OfferHow.DISCARD), haidi=False)

    def _open_claim(self, offer: Offer, haidi: bool) -> None:
        """Ask every eligible seat at once (5.4); forced 跑 and 'nobody' need no answer."""
        r, c, src = self.rules, offer.card, offer.seat
        drawn = offer.how == OfferHow.DRAW
        options: dict[int, list[str]] = {}
        for seat in self._win_askees(offer):
            s = self._seats[seat]
            if s.may_win_on(c) and self._win_for(seat, c, _source(offer, seat), haidi=haidi):
                options.setdefault(seat, []).append(A.HU)
        pao_seat = self._pao_seat(offer)
        if pao_seat is None:
            for seat in self._order_from(src):
                s = self._seats[seat]
                if seat != src and c not in s.no_peng and s.hand[c] == 2 and s.may_take_with(
                    r, (c, c)
                ):
                    options.setdefault(seat, []).append(A.PENG)
                may_chi = seat in (src, self.next_seat(src)) if drawn else seat == self.next_seat(src)
                if may_chi and c not in s.chou:
                    combos = [g for g in chi_options(s.hand, c) if s.may_take_with(r, _chi_used(g, c))]
                    if combos:
                        options.setdefault(seat, []).extend(_chi_action(g) for g in combos)
        self.phase = Phase.CLAIM
        self._actor = None
        self._claim = _Claim(
            offer, {s: (*o, A.PASS) for s, o in options.items()}, pao_seat=pao_seat, haidi=haidi
        )
        self._resolve_claim()

    def _win_askees(self, offer: Offer) -> tuple[int, ...]:
        """Who may win on a face-up card, in priority order: on a drawn card everyone, the
        drawer first, then his 下家 onwards; on a discard (only where the rules allow it)
        everyone but the discarder, his 下家 first."""
        order = self._order_from(offer.seat)
        if offer.how == OfferHow.DRAW:
            return order
        return order[1:] if self.rules.win_on_discard else ()

    def _pao_seat(self, offer: Offer) -> int | None:
        """5.3: the one seat forced to 跑 this card, if any."""
        c, drawn = offer.card, offer.how == OfferHow.DRAW
        for seat, s in enumerate(self._seats):
            other = seat != offer.seat
            if other and (s.hand[c] == 3 or s.meld_of(c, GroupKind.WEI, GroupKind.CHOUWEI) is not None):
                return seat
            if drawn and s.meld_of(c, GroupKind.PENG) is not None:
                return seat
        return None

    def _resolve_claim(self) -> None:
        """Take the highest claim once every higher-priority seat has answered (胡>跑>碰>吃)."""
        claim = self._claim
        assert claim is not None
        order = self._order_from(claim.offer.seat)

        def first_taker(is_claim: Any) -> tuple[bool, int | None]:
            """(still waiting, seat that took it) over seats offered such a claim, in order."""
            for seat in order:
                if not any(is_claim(o) for o in claim.options.get(seat, ())):
                    continue
                answer = claim.answers.get(seat)
                if answer is None:
                    return True, None
                if is_claim(answer):
                    return False, seat
            return False, None

        waiting, winner = first_taker(lambda a: a == A.HU)
        if waiting:
            return
        if winner is not None:
            self._settle_claim_win(winner)
            return
        if claim.pao_seat is not None:
            self._mark_declines(claim)
            self._pao(claim.pao_seat, claim.offer.card)
            return
        waiting, taker = first_taker(lambda a: a == A.PENG)
        if waiting:
            return
        if taker is not None:
            self._mark_declines(claim)
            self._peng(taker, claim.offer.card)
            return
        waiting, taker = first_taker(lambda a: a.startswith("c:"))
        if waiting:
            return
        self._mark_declines(claim)
        if taker is not None:
            self._chi(taker, claim.answers[taker])
            return
        src = claim.offer.seat
        self._seats[src].discards.append(claim.offer.card)
        self._emit("to_row", src, (claim.offer.card,))
        self._draw(self.next_seat(src))

    def _mark_declines(self, claim: _Claim) -> None:
        """6.1 / 6.6: a seat that passed on a 吃/碰 makes the kind 臭; a declined win is 臭胡.

        A seat that claimed and lost to a higher claim, or never answered, is not 臭.
        """
        c = claim.offer.card
        for seat, answer in claim.answers.items():
            s = self._seats[seat]
            options = claim.options[seat]
            if A.HU in options and answer != A.HU:
                s.chou_hu[c] = s.huxi
            if answer != A.PASS:
                continue
            if A.PENG in options:
                s.declined_peng.add(c)
                s.bar(c, chi=False, both=self.rules.chou_bars_peng)  # 碰一不碰二
            if any(o.startswith("c:") for o in options):
                s.bar(c, chi=True, both=self.rules.chou_bars_peng)

    def _settle_claim_win(self, seat: int) -> None:
        claim = self._claim
        assert claim is not None
        win = self._win_for(seat, claim.offer.card, _source(claim.offer, seat), haidi=claim.haidi)
        assert win is not None
        self._emit("hu", seat, (claim.offer.card,))
        self._won_offer = claim.offer.card
        fed = claim.offer.seat if claim.offer.how == OfferHow.DISCARD else None
        self._win(seat, win, fed_by=fed)

    def _pao(self, seat: int, card: int) -> None:
        s = self._seats[seat]
        i = s.meld_of(card, GroupKind.WEI, GroupKind.CHOUWEI, GroupKind.PENG)
        if i is not None:
            s.melds[i] = Group(GroupKind.PAO, (card,) * 4)
        else:
            s.hand[card] = 0
            s.melds.append(Group(GroupKind.PAO, (card,) * 4))
        self._emit("pao", seat, (card,) * 4)
        self._after_take(seat)

    def _peng(self, seat: int, card: int) -> None:
        s = self._seats[seat]
        s.hand[card] -= 2
        s.melds.append(Group(GroupKind.PENG, (card,) * 3))
        self._emit("peng", seat, (card,) * 3)
        self._after_take(seat)

    def _chi(self, seat: int, action: str) -> None:
        s = self._seats[seat]
        groups = A.parse(action).groups
        for k in _chi_used(groups, self._claim.offer.card):  # type: ignore[union-attr]
            s.hand[k] -= 1
        for g in groups:
            s.melds.append(Group(GroupKind.CHI, g))
        self._emit("chi", seat, tuple(k for g in groups for k in g), groups=groups)
        self._after_take(seat)

    def _win(self, seat: int, win: Win, fed_by: int | None = None) -> None:
        """The winner is paid by every other playing seat, who also pays the 醒家 his 醒筹; on
        a discard win too (its discarder is named in ``fed_by``, not charged more)."""
        losers = [i for i in self._order_from(seat) if i != seat]
        points = [0] * self.players
        points[seat] = win.winner_points
        for i in losers:
            points[i] = win.loser_points
        self._finish(Outcome(OutcomeKind.WIN, self._with_xing_stake(points, losers),
                             winner=seat, win=win, fed_by=fed_by))

    def _with_xing_stake(self, points: list[int], payers: list[int]) -> tuple[int, ...]:
        """Add the 醒筹: each payer gives the 醒家 ``xing_stake`` 底分 (none without a 醒家)."""
        if self._xing is not None:
            stake = self.rules.xing_stake * self.base
            for i in payers:
                points[i] -= stake
                points[self._xing] += stake
        return tuple(points)

    # ----- views --------------------------------------------------------------------

    def _meld_view(self, g: Group, owner_view: bool) -> MeldView:
        up = _FACE_UP[g.kind]
        cards = tuple(k if (owner_view or u) else None for k, u in zip(g.cards, up, strict=True))
        return MeldView(g.kind, cards, up)

    def public_view(self) -> PublicView:
        seats = tuple(
            SeatView(
                seat=i,
                hand_count=sum(s.hand),
                melds=tuple(self._meld_view(g, False) for g in s.melds),
                discards=tuple(s.discards),
                shown_huxi=sum(g.huxi for g in s.melds if g.kind != GroupKind.WEI),
            )
            for i, s in enumerate(self._seats)
        )
        public_events = [e for e in self.history if e.visible_to is None]
        return PublicView(
            rule_set=self.rules.key,
            dealer=self.dealer,
            seats=seats,
            stock_count=len(self._stock),
            liangzhang=self.liangzhang,
            offer=self._claim.offer if self._claim else None,
            to_act=(self._actor,) if self.phase == Phase.DISCARD else (),  # type: ignore[arg-type]
            waiting=self.phase in (Phase.CLAIM, Phase.LIANG, Phase.SELFWIN),
            last_event=public_events[-1] if public_events else None,
            move_no=len(public_events),
            outcome=self.outcome,
            xing=self._xing,
        )

    def private_view(self, seat: int) -> PrivateView:
        s = self._seats[seat]
        if self._claim is not None:
            highlight: int | None = self._claim.offer.card
        elif self._fresh is not None and self._fresh[0] == seat:
            highlight = self._fresh[1]
        else:
            highlight = None
        return PrivateView(
            seat=seat,
            public=self.public_view(),
            hand=tuple(sorted(C.expand(s.hand), key=C.sort_key)),
            kans=tuple(k for k in range(C.KINDS) if s.hand[k] == 3),
            melds=tuple(self._meld_view(g, True) for g in s.melds),
            huxi=s.huxi + sum(_KAN_HUXI[k] for k in range(C.KINDS) if s.hand[k] == 3),
            chou=tuple(sorted(s.chou | s.no_peng)),
            legal=self.legal_actions(seat),
            highlight=highlight,
            no_win=tuple(sorted(k for k in s.chou_hu if not s.may_win_on(k))),
        )

    def card_census(self) -> list[int]:
        """How many of each kind are where they should be: every entry must be 4 (tests)."""
        total = [0] * C.KINDS
        for s in self._seats:
            for k in range(C.KINDS):
                total[k] += s.hand[k]
            for g in s.melds:
                for k in g.cards:
                    total[k] += 1
            for k in s.discards:
                total[k] += 1
        for k in (*self._stock, *self._set_aside):
            total[k] += 1
        if self._claim is not None and self._claim.offer.how != OfferHow.LIANG:
            total[self._claim.offer.card] += 1
        if self._won_offer is not None:
            total[self._won_offer] += 1
        return total


def next_dealer(
    rules: RuleSet, dealer: int, outcome: Outcome, draws_in_row: int
) -> tuple[int, int]:
    """(next dealer, consecutive 荒庄 count): the winner deals; after N 荒庄 the 下家 does
    (``draws_before_dealer_passes``; 0: the dealer deals again however many, as after 开荒醒)."""
    if outcome.kind == OutcomeKind.WIN:
        assert outcome.winner is not None
        return outcome.winner, 0
    if outcome.kind == OutcomeKind.DRAW:
        passes = rules.draws_before_dealer_passes
        if passes and draws_in_row + 1 >= passes:
            return (dealer + 1) % rules.players, 0
        return dealer, draws_in_row + 1
    return dealer, draws_in_row
