"""The 复盘 moment's picture (render.review): what the reviewed seat could see then and nothing
more — two deals that differ only in cards hidden from it give the same picture, where the
/replay picture of the same moment differs — with the better move marked and every text
drawable."""

from __future__ import annotations

import random
from collections.abc import Callable

import pytest
from support.review import RULES, continued, hidden_positions, played, same_for, steps_before
from support.scenes import check_scene, decode

from engine import actions as A
from engine.replay import ReplayFrame
from engine.review import Flag, Review, review_hand
from engine.rules import RuleSet
from engine.state import Hand, IllegalAction
from render import fonts
from render.replay import layout_replay
from render.review import BETTER, PLAYED, better_move, layout_moment, render_moment
from render.scene import Box, Rect, Text, paint

NAMES = ("Alice", "Bob", "Carol", "Dan")


def hidden_twin(rules: RuleSet, seed: int) -> tuple[Hand, Hand, int] | None:
    """(a position, its twin, the seat deciding in both): the twin's deck swaps one of another
    seat's hand cards with a card of the stock, the deciding seat sees the same in both."""
    h = played(rules, seed)
    befores = steps_before(h)
    rng = random.Random(seed)
    steps = [i for i, (s, _) in enumerate(h.log) if len(befores[i].legal_actions(s)) > 1]
    for k in rng.sample(steps, min(len(steps), 6)):
        seat, before = h.log[k][0], befores[k]
        hidden = hidden_positions(before, seat)
        for _ in range(40):
            i, j = rng.sample(hidden, 2)
            deck = list(h.deck)
            if deck[i] == deck[j]:
                continue
            deck[i], deck[j] = deck[j], deck[i]
            try:
                twin = Hand.replay(rules, deck=deck, dealer=h.dealer, base=h.base, log=h.log[:k])
            except IllegalAction:
                continue
            others_differ = any(
                before.private_view(t).hand != twin.private_view(t).hand
                for t in range(rules.players) if t != seat
            )
            if others_differ and seat in twin.to_act() and same_for(seat, before, twin):
                return before, twin, seat
    return None


def frame_of(h: Hand, total: int) -> ReplayFrame:
    """The /replay frame of this position: every seat's view, every hand face up."""
    views = tuple(h.private_view(s) for s in range(h.players))
    return ReplayFrame(views, len(h.log), total, ())


@pytest.mark.parametrize("rules", RULES, ids=lambda r: r.key)
def test_hidden_cards_never_change_the_picture(rules: RuleSet) -> None:
    before, twin, seat = next(
        t for seed in range(30) if (t := hidden_twin(rules, seed)) is not None
    )
    k = len(before.log)
    pictures, replays = [], []
    for h in (before, twin):
        review = review_hand(continued(h, seat, random.Random(k)), seat=seat)
        d = review.decision(seat, k)
        scene = layout_moment(d, [f for f in review.flags if f.step == k], 99, NAMES)
        check_scene(scene)
        for slot in scene.cards:
            if slot.seat != seat and slot.kind is not None:
                assert slot.role in ("meld", "discard", "offer"), slot  # never a hidden hand
        pictures.append(paint(scene).tobytes())
        replays.append(paint(layout_replay(frame_of(h, 99), NAMES)).tobytes())
    assert pictures[0] == pictures[1]
    assert replays[0] != replays[1]  # the /replay picture, which shows every hand, does differ


def flagged(kind: str, lang: str = "zh") -> tuple[Review, int, int]:
    """A review with a flag of ``kind`` whose better move is a discard: (review, seat, step)."""
    for rules in RULES:
        for seed in range(40):
            review = review_hand(played(rules, seed), lang=lang)
            for f in review.flags:
                if f.kind == kind and f.better is not None and f.better.startswith("d:"):
                    return review, f.seat, f.step
    raise AssertionError(f"no {kind} flag with a better discard")


@pytest.mark.parametrize("kind", ["broke_ting", "costly"])
def test_the_better_discard_is_outlined_and_named(kind: str) -> None:
    review, seat, step = flagged(kind)
    d = review.decision(seat, step)
    flags = [f for f in review.flags_of(seat) if f.step == step]
    better = better_move(d, flags)
    assert better is not None and better != d.played
    scene = layout_moment(d, flags, review.steps, NAMES)
    check_scene(scene)
    img = paint(scene)
    for action, colour in ((better, BETTER), (d.played, PLAYED)):
        box = scene.named[f"mark:{action}"]
        assert img.getpixel((box.x + box.w // 2, box.y + 2)) == colour
        card = A.parse(action).card
        assert any(c.kind == card and box.contains(c.visible) for c in scene.cards
                   if c.role == "hand")
    texts = [t.text for t in scene.items if isinstance(t, Text)]
    assert any(A.label(better) in t and "更好" in t for t in texts)
    assert any(f.text[:6] in t for f in flags for t in texts)


def flag_where(better: Callable[[str], bool]) -> tuple[Review, Flag]:
    """The first flag, over random hands of each rule set, whose better move passes ``better``."""
    for rules in RULES:
        for seed in range(60):
            review = review_hand(played(rules, seed))
            hit = next((f for f in review.flags if f.better is not None and better(f.better)),
                       None)
            if hit is not None:
                return review, hit
    pytest.fail("no such flag")


def test_a_claim_marks_the_card_on_offer() -> None:
    review, hit = flag_where(lambda b: not b.startswith("d:") and b != A.PASS)
    d = review.decision(hit.seat, hit.step)
    scene = layout_moment(d, [hit], review.steps, NAMES)
    offer = next(c for c in scene.cards if c.role == "offer")
    assert scene.named[f"mark:{hit.better}"].contains(offer.visible)


def test_a_better_pass_is_labelled_pass_not_framed_as_a_card_to_take() -> None:
    review, hit = flag_where(lambda b: b == A.PASS)
    d = review.decision(hit.seat, hit.step)
    scene = layout_moment(d, [hit], review.steps, NAMES)
    check_scene(scene)
    offer = next(c for c in scene.cards if c.role == "offer")
    label = scene.named[f"mark:{A.PASS}"]
    assert offer.visible.y < label.y and label.bottom <= offer.visible.bottom  # on the card
    texts = [i for i in scene.items if isinstance(i, Text)]
    assert any(i.text == A.label(A.PASS) and label.contains(Rect(i.x, i.y, 0, 0))
               for i in texts)
    frames = [b for b in scene.items if isinstance(b, Box) and b.outline is not None
              and b.rect.contains(offer.visible)]
    assert [b.outline for b in frames] == [PLAYED]  # the take played, in red; no green frame
    img = paint(scene)
    assert img.getpixel((label.x + label.w // 2, label.y + 2)) == BETTER


def test_moments_are_counted_from_one() -> None:
    review, hit = flag_where(lambda b: True)
    d = review.decision(hit.seat, hit.step)
    scene = layout_moment(d, [hit], review.steps, NAMES)
    head = next(i.text for i in scene.items if isinstance(i, Text))
    assert f" {d.step + 1}/{review.steps}" in head
    first = review_hand(played(RULES[0], 0)).seats[0].decisions[0]
    assert first.move_no == first.step + 1 >= 1


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_the_picture_at_phone_size(lang: str) -> None:
    review, seat, step = flagged("costly", lang)
    img = decode(render_moment(review, seat, step, NAMES))
    assert img.format == "PNG" and img.width == 760 and img.height <= 1280
    for r in review.seats:
        for f in review.flags_of(r.seat):
            assert fonts.clean(f.text) == f.text  # the Regular subset draws every character
