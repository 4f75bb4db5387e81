"""One hand of 跑胡子 as a deterministic state machine (docs/rules/qq.md, hunan.md, four14.md).

A hand is rebuilt exactly from (rule set, seed or deck, dealer, base, action log). Draws and
forced moves happen inside the engine; it stops whenever some seat must decide, and
``to_act()`` / ``legal_actions(seat)`` say who and what. ``apply`` validates, mutates and returns
the events, each tagged with who may see it.

:class:`Hand` runs the flow: whose turn it is, what each answer leads to, the events and the
outcome. What the steps do is in the modules it composes: ``engine.deal`` (the deal),
``engine.claims`` (who may claim a face-up card and which claim takes it), ``engine.seat`` (a
seat's cards, bars, takes and own view), ``engine.settlement`` (what a win is worth, who pays
whom), ``engine.turns`` (turn order) and ``engine.hand_record`` (the hand as a JSON record).
"""

from __future__ import annotations

import random
from dataclasses import replace
from enum import StrEnum
from typing import Any

from engine import actions as A
from engine import cards as C
from engine import claims, hand_record
from engine.analyzer import Source
from engine.claims import Claim
from engine.deal import deal, forced_winner, seats_of
from engine.melds import Group
from engine.rules import RuleSet
from engine.seat import Seat, census
from engine.settlement import Settlement
from engine.turns import play_orders
from engine.views import (
    Event,
    Offer,
    OfferHow,
    Outcome,
    OutcomeKind,
    PrivateView,
    PublicView,
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
        self._claim: Claim | None = None
        self._selfwin_card: int | None = None
        self._fresh: tuple[int, int] | None = None  # (seat, card) just drawn
        self._won_offer: int | None = None  # a face-up card won on: in no hand or row
        self._xing = rules.xing_seat(dealer)  # 醒家: no cards, never asked
        self._orders = play_orders(rules.players, self._xing)
        self._settle = Settlement(rules, base, dealer, self._xing)
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
        return hand_record.to_dict(self)

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Hand:
        return cls.replay(**hand_record.replay_args(d))

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
        self._check_seat(seat, action)
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
                self._emit("pass", seat, visible_to=seat)  # who was asked is private: qq.md 决定 11
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
        """逃跑: the seat leaves mid-hand and pays the penalty to each other seat
        (docs/rules/qq.md, 结算 · Settlement)."""
        self._check_seat(seat, A.ESCAPE)
        if seat == self._xing:
            raise IllegalAction("sitting_out", seat, A.ESCAPE, "the 醒家 holds no cards")
        start = len(self.history)
        points = self._settle.escape(seat, self.escape_penalty(seat))
        self.log.append((seat, A.ESCAPE))
        self._emit("escape", seat)
        self._finish(Outcome(OutcomeKind.ESCAPE, points, escaper=seat))
        return self.history[start:]

    def dissolve(self, seat: int) -> list[Event]:
        """解散: the hand ends on ``seat``'s proposal, which the other seats agreed to; nobody
        scores or pays (no 醒筹 either). The vote itself is the bot's: the log keeps only its
        result, so that a replay ends the hand where it ended."""
        self._check_seat(seat, A.DISSOLVE)
        start = len(self.history)
        self.log.append((seat, A.DISSOLVE))
        self._emit("dissolve", seat)
        self._finish(Outcome(OutcomeKind.DISSOLVED, (0,) * self.players))
        return self.history[start:]

    def _check_seat(self, seat: int, action: str) -> None:
        if self.outcome is not None:
            raise IllegalAction("hand_over", seat, action, "the hand is over")
        if not 0 <= seat < self.players:
            raise IllegalAction("bad_seat", seat, action, "no such seat")

    def escape_penalty(self, seat: int) -> int:
        """What ``seat`` would pay each other seat if it escaped now (reads hidden cards)."""
        return self._settle.escape_penalty(self._seats, seat)

    def escape_quote(self, seat: int) -> int:
        """The public floor of :meth:`escape_penalty`, quoted before a 逃跑 (anyone may see)."""
        return self._settle.escape_floor(self._seats, seat)

    # ----- the flow -----------------------------------------------------------------

    def _emit(
        self, kind: str, seat: int | None, cards: tuple[int, ...] = (),
        visible_to: int | None = None, groups: tuple[tuple[int, ...], ...] = (),
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
        """Deal (``engine.deal``), show the 亮张, then a forced 天胡, or the 亮张 wins on offer."""
        dealt = deal(self.rules, self.deck, self.dealer, self._order_from(self.dealer))
        self._stock, self._set_aside, self.liangzhang = dealt.stock, dealt.set_aside, dealt.liangzhang
        self._seats: list[Seat] = seats_of(dealt)
        for s in range(self.players):
            if s != self._xing:
                self._emit("deal", s, tuple(sorted(dealt.dealt[s], key=C.sort_key)), visible_to=s)
        self._emit("liang", self.dealer, (self.liangzhang,))
        forced = forced_winner(self.rules, self._seats, self._order_from(self.dealer))
        if forced is not None:
            self._emit("tianhu", forced, tuple(C.expand(self._seats[forced].hand)))
            self._win(forced, self._settle.forced_win(forced, self._seats[forced]))
            return
        order = self._order_from(self.dealer)
        options: dict[int, tuple[str, ...]] = {
            s: (A.HU, A.PASS) for s in order if self._liang_win(s) is not None
        }
        if options:
            self.phase = Phase.LIANG
            self._claim = Claim(Offer(self.liangzhang, self.dealer, OfferHow.LIANG), options)
            return
        self._after_liang()

    def _win_for(self, seat: int, card: int | None, source: Source | None, **how: bool) -> Win | None:
        return self._settle.win_for(seat, self._seats[seat], card, source, **how)

    def _liang_win(self, seat: int) -> Win | None:
        return self._settle.liang_win(seat, self._seats[seat], self.liangzhang)

    def _after_liang(self) -> None:
        """Auto-提 every dealt 4-of-a-kind, then the dealer discards (or is exempt)."""
        for seat in self._order_from(self.dealer):
            for k in self._seats[seat].ti_dealt():
                self._emit("ti", seat, (k,))
        self._after_take(self.dealer)

    def _after_take(self, seat: int) -> None:
        """The discard rule (docs/rules/qq.md, 行牌 · Play): discard exactly when hand + table
        > 20 + max(0, T − 1) (four14: 14), else the 下家 draws. Every take (吃, 碰, 跑, 偎, 提)
        ends here: the seat's dealt cards are touched."""
        s = self._seats[seat]
        s.started = True
        if s.must_discard(self.rules):
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
            self._finish(Outcome(OutcomeKind.DRAW, self._settle.draw()))
            return
        card = self._stock.pop()
        self._fresh = (seat, card)
        s = self._seats[seat]
        s.started = True
        took = s.take_draw(card)
        if took is None:
            self._emit("draw", seat, (card,))
            self._open_claim(Offer(card, seat, OfferHow.DRAW), haidi=not self._stock)
            return
        if took == "wei":  # a plain 偎 is face down: the others see that it happened
            self._emit("wei", seat)
            self._emit("wei", seat, (card,), visible_to=seat)
        else:
            self._emit(took, seat, (card,))
        # 提 or 偎 on his own draw: he may win now (自摸, docs/rules/qq.md, 行牌 · Play).
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
        s.bar(card, chi=True, both=self.rules.chou_bars_peng)  # nor 吃 his own discards
        self._emit("discard", seat, (card,))
        self._open_claim(Offer(card, seat, OfferHow.DISCARD), haidi=False)

    def _open_claim(self, offer: Offer, haidi: bool) -> None:
        """Ask every eligible seat at once (``engine.claims``); a forced 跑 and 'nobody' need
        no answer."""

        def wins(seat: int) -> bool:
            return self._win_for(seat, offer.card, claims.source(offer, seat), haidi=haidi) is not None

        self.phase = Phase.CLAIM
        self._actor = None
        self._claim = claims.open_claim(
            self.rules, self._seats, offer, self._order_from(offer.seat),
            self.next_seat(offer.seat), wins, haidi=haidi,
        )
        self._resolve_claim()

    def _resolve_claim(self) -> None:
        """Carry out the claim that takes the card once nobody ahead of it can still answer."""
        claim = self._claim
        assert claim is not None
        step = claims.next_step(claim, self._order_from(claim.offer.seat))
        if step is None:
            return
        kind, seat = step
        card = claim.offer.card
        if kind == A.HU:
            self._settle_claim_win(seat)
            return
        claims.mark_declines(self.rules, self._seats, claim)
        s = self._seats[seat]
        if kind == "to_row" and claim.offer.how == OfferHow.LIANG:  # nobody won on the 亮张
            self._claim = None
            self._after_liang()
            return
        if kind == "to_row":
            s.discards.append(card)
            self._emit("to_row", seat, (card,))
            self._draw(self.next_seat(seat))
            return
        cards, groups = claims.take(s, step, claim)
        self._emit(kind, seat, cards, groups=groups)
        self._after_take(seat)

    def _settle_claim_win(self, seat: int) -> None:
        claim = self._claim
        assert claim is not None
        offer = claim.offer
        if offer.how == OfferHow.LIANG:  # the 亮张 stays in the dealer's hand
            win = self._liang_win(seat)
        else:
            win = self._win_for(seat, offer.card, claims.source(offer, seat), haidi=claim.haidi)
            self._won_offer = offer.card
        assert win is not None
        self._emit("hu", seat, (offer.card,))
        self._win(seat, win, fed_by=offer.seat if offer.how == OfferHow.DISCARD else None)

    def _win(self, seat: int, win: Win, fed_by: int | None = None) -> None:
        """Every other playing seat pays; a discard win names its discarder in ``fed_by``."""
        losers = [i for i in self._order_from(seat) if i != seat]
        points = self._settle.win(seat, win, losers)
        uncapped = self._settle.uncapped(seat, win, losers)
        self._finish(Outcome(OutcomeKind.WIN, points, winner=seat, win=win, fed_by=fed_by,
                             capped=tuple(losers) if uncapped else (), uncapped_points=uncapped))

    # ----- views --------------------------------------------------------------------

    def public_view(self) -> PublicView:
        public_events = [e for e in self.history if e.visible_to is None]
        return PublicView(
            rule_set=self.rules.key,
            dealer=self.dealer,
            seats=tuple(s.public(i) for i, s in enumerate(self._seats)),
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
        if self._claim is not None:
            highlight: int | None = self._claim.offer.card
        elif self._fresh is not None and self._fresh[0] == seat:
            highlight = self._fresh[1]
        else:
            highlight = None
        legal = self.legal_actions(seat)
        return _settled(self._seats[seat].private(seat, self.public_view(), legal, highlight),
                        self.outcome, seat)


def card_census(hand: Hand) -> list[int]:
    """How many of each kind are where they should be in ``hand``: every entry must be 4
    (tests)."""
    claim = hand._claim
    offered = claim is not None and claim.offer.how != OfferHow.LIANG
    elsewhere = [*hand._stock, *hand._set_aside]
    elsewhere += [claim.offer.card] if offered and claim is not None else []
    elsewhere += [hand._won_offer] if hand._won_offer is not None else []
    return census(hand._seats, elsewhere)


def imagined(
    rules: RuleSet,
    *,
    dealer: int,
    seats: list[Seat],
    stock: list[int],
    liangzhang: int,
    actor: int,
    offer: Offer | None = None,
    selfwin_card: int | None = None,
    set_aside: list[int] | None = None,
    base: int | None = None,
) -> Hand:
    """A hand in the middle, as a searching player imagines it (``engine.player.worlds``):
    the seats' cards and the stock (``pop()`` draws the next) as given, and ``actor`` to
    decide: on ``offer`` (a claim, every eligible seat asked anew), else after his own
    提/偎 on ``selfwin_card`` (自摸 or not), else a discard. It has no log: it cannot be
    stored or replayed, only played on."""
    hand = Hand.__new__(Hand)
    aside = list(set_aside or [])
    rest = C.full_deck()
    for k in (*stock, *aside):
        rest.remove(k)
    hand.rules, hand.dealer, hand.seed = rules, dealer, None
    hand.base = rules.default_base if base is None else base
    hand.deck = rest + stock[::-1] + aside  # the bird card, the stock's last, sits right
    hand.log, hand.history, hand.outcome = [], [], None
    hand._claim, hand._fresh, hand._won_offer = None, None, None
    hand._selfwin_card = selfwin_card
    hand._xing = rules.xing_seat(dealer)
    hand._orders = play_orders(rules.players, hand._xing)
    hand._settle = Settlement(rules, hand.base, dealer, hand._xing)
    hand._stock, hand._set_aside, hand.liangzhang = list(stock), aside, liangzhang
    hand._seats = seats
    hand._actor = actor
    if offer is not None and offer.how == OfferHow.LIANG:
        hand.phase = Phase.LIANG
        order = hand._order_from(dealer)
        options: dict[int, tuple[str, ...]] = {
            s: (A.HU, A.PASS) for s in order if hand._liang_win(s) is not None
        }
        hand._claim = Claim(offer, options)
    elif offer is not None:
        hand._open_claim(offer, haidi=offer.how == OfferHow.DRAW and not stock)
    else:
        hand.phase = Phase.SELFWIN if selfwin_card is not None else Phase.DISCARD
    return hand


def offer_of(hand: Hand) -> Offer | None:
    """The face-up card waiting for answers in ``hand``, if any (public)."""
    return hand._claim.offer if hand._claim else None


def cards_of(hand: Hand, seat: int) -> tuple[tuple[int, ...], tuple[Group, ...]]:
    """A seat's hand (count vector) and table melds: its hidden cards, for a player's search
    inside a world it imagined (``engine.player.rollout``), never for a real table's players
    (they get :meth:`Hand.private_view`)."""
    s = hand._seats[seat]
    return tuple(s.hand), tuple(s.melds)


def next_dealer(
    rules: RuleSet, dealer: int, outcome: Outcome, draws_in_row: int
) -> tuple[int, int]:
    """(next dealer, consecutive 荒庄 count): the winner deals (a dealer who wins deals again,
    连庄; under the house rule 不连庄 his 下家 deals instead); after N 荒庄 the 下家 does
    (``draws_before_dealer_passes``; 0: the dealer deals again however many, as after 开荒醒)."""
    if outcome.kind == OutcomeKind.WIN:
        assert outcome.winner is not None
        if outcome.winner == dealer and not rules.dealer_stays:
            return (dealer + 1) % rules.players, 0
        return outcome.winner, 0
    if outcome.kind == OutcomeKind.DRAW:
        passes = rules.draws_before_dealer_passes
        if passes and draws_in_row + 1 >= passes:
            return (dealer + 1) % rules.players, 0
        return dealer, draws_in_row + 1
    return dealer, draws_in_row


def _settled(view: PrivateView, outcome: Outcome | None, seat: int) -> PrivateView:
    """A winner's view shows the settlement's 胡息合计: his whole hand is arranged then."""
    if outcome is not None and outcome.win is not None and outcome.winner == seat:
        return replace(view, huxi=outcome.win.huxi)
    return view
