"""The replay stepper's frames and picture: the engine helper gives every seat's view after k
logged actions of a finished hand (and refuses an unfinished one); the picture shows exactly
those cards — hands, melds, discards, the offer — face up, with 第 k/n 步 and what the step did.

Snapshots are hand-built frames (engine changes cannot move them), as in
``support.snapshots`` (regenerate with ``UPDATE_SNAPSHOTS=1`` and look).
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable
from dataclasses import replace

import pytest
from support.scenes import check_scene, decode
from support.snapshots import assert_snapshot, texts
from support.views import MELDS, NAMES, cards, private_view, public_view, win_outcome

from engine import actions as A
from engine.replay import ReplayFrame, replay_views
from engine.rules import QQ
from engine.state import Hand, IllegalAction
from engine.views import Event, OutcomeKind, PrivateView, PublicView
from render import fonts
from render.replay import layout_replay, pack_latest, render_replay_step, shown_events
from render.scene import Scene, paint
from render.strings import LANGS, pages, table

# ----- hand-built frames (snapshots) ---------------------------------------------------------


def seat_views(pub: PublicView) -> tuple[PrivateView, ...]:
    """The three seats of the snapshot position, each with its own hand and melds."""
    own = replace(private_view(), public=pub, legal=())
    one = replace(
        own,
        seat=1,
        hand=cards("一 一 二 三 五 六 七 八 十 壹 肆 伍 陆 捌"),
        kans=(),
        melds=MELDS[1],
        huxi=9,
        chou=(),
    )
    two = replace(
        own,
        seat=2,
        hand=cards("二 四 五 六 九 贰 叁 伍 伍 柒 玖 拾 拾"),
        kans=(),
        melds=MELDS[2],
        huxi=12,
        chou=(),
    )
    return (own, one, two)


def mid_frame() -> ReplayFrame:
    pub = public_view()
    moved = (Event("discard", 2, cards("柒")),)
    return ReplayFrame(seat_views(pub), 20, 48, moved)


def end_frame() -> ReplayFrame:
    pub = public_view(win_outcome())
    moved = (Event("hu", 0, cards("柒")),)
    return ReplayFrame(seat_views(pub), 48, 48, moved)


def xing_frame() -> ReplayFrame:
    """A 4-seat table whose seat 3 is the 醒家 this hand (he holds no cards)."""
    pub = public_view()
    views = seat_views(replace(pub, xing=3, seats=(*pub.seats, replace(pub.seats[0], seat=3,
                                                  hand_count=0, melds=(), discards=()))))
    xing = replace(views[0], seat=3, hand=(), kans=(), melds=(), huxi=0, chou=())
    return ReplayFrame((*views, xing), 20, 48, mid_frame().moved)


CASES: dict[str, Callable[[], Scene]] = {
    "replay_mid_zh": lambda: layout_replay(mid_frame(), NAMES, "zh"),
    "replay_end_en": lambda: layout_replay(end_frame(), NAMES, "en"),
    "replay_xing_en": lambda: layout_replay(xing_frame(), NAMES, "en"),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_snapshot(name: str) -> None:
    img = paint(CASES[name]())
    assert_snapshot(name, img)



def test_the_xing_seat_has_a_band_without_cards() -> None:
    scene = layout_replay(xing_frame(), NAMES, "zh")
    assert not [c for c in scene.cards if c.seat == 3]
    assert pages("zh")["replay_xing"] in texts(scene)
    assert scene.named["seat:3"].h < scene.named["seat:2"].h


def test_the_last_step_shows_the_result_and_each_seats_points() -> None:
    shown = texts(layout_replay(end_frame(), NAMES, "zh"))
    assert "第 48/48 步" in shown
    assert any(t.startswith("胡牌：小明") and "自摸" in t and "海底" in t for t in shown)
    assert {"+336", "-168"} <= set(shown)


# ----- engine frames ----------------------------------------------------------------------


def finished(seed: int, escape: bool = False) -> Hand:
    """A random hand played to its end (or left by 逃跑 half way)."""
    rng = random.Random(seed)
    h = Hand.new(QQ, seed=seed, dealer=seed % 3)
    while not h.is_terminal():
        if escape and len(h.log) >= 12:
            h.escape(h.to_act()[0] if h.to_act() else 0)
            break
        seat = rng.choice(h.to_act())
        h.apply(seat, rng.choice(h.legal_actions(seat)))
    return h


def frame(h: Hand, k: int) -> ReplayFrame:
    return replay_views(h.rules.key, h.seed, h.dealer, h.base, h.log, k)  # type: ignore[arg-type]


@pytest.fixture(scope="module")
def won() -> Hand:
    for seed in range(200):
        h = finished(seed)
        if h.outcome is not None and h.outcome.kind == OutcomeKind.WIN:
            return h
    raise LookupError("no won hand")


def test_frames_are_the_views_after_the_first_k_actions(won: Hand) -> None:
    n = len(won.log)
    for k in (0, 1, n // 2, n - 1, n):
        f = frame(won, k)
        again = Hand.replay(QQ, seed=won.seed, dealer=won.dealer, log=won.log[:k])
        assert f.views == tuple(again.private_view(s) for s in range(3))
        assert (f.step, f.total, f.finished) == (k, n, k == n)
    assert frame(won, 0).moved == ()
    assert frame(won, n).views[0].public.outcome == won.outcome


def test_a_step_names_the_events_of_its_action_for_every_audience(won: Hand) -> None:
    k = next(i for i, (_, a) in enumerate(won.log, 1) if a == A.PASS)
    f = frame(won, k)
    seat = won.log[k - 1][0]
    assert f.moved[0] == Event("pass", seat, visible_to=seat)
    names = ("小明", "Alice", "老王")
    assert table("zh")["ev_pass"].format(name=names[seat]) in texts(layout_replay(f, names, "zh"))


def test_bad_steps_and_unfinished_hands_are_refused(won: Hand) -> None:
    for k in (-1, len(won.log) + 1):
        with pytest.raises(ValueError, match="outside"):
            frame(won, k)
    bad = [*won.log[:3], (won.log[3][0], "d:no-such-card"), *won.log[4:]]
    with pytest.raises(IllegalAction):
        replay_views("qq", won.seed, won.dealer, won.base, bad, len(bad))  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="not ended"):
        replay_views("qq", won.seed, won.dealer, won.base, won.log[:-1], 3)  # type: ignore[arg-type]


def test_a_wei_is_told_once_with_its_card() -> None:
    k = cards("五")
    moved = (Event("draw", 1, ()), Event("wei", 1), Event("wei", 1, k, visible_to=1))
    assert shown_events(moved) == [Event("draw", 1, ()), Event("wei", 1, k, visible_to=1)]
    assert shown_events((Event("deal", 0, k, visible_to=0),)) == []


def slot_kinds(scene: Scene, role: str, seat: int) -> list[int | None]:
    return [c.kind for c in scene.cards if c.role == role and c.seat == seat]


def check_cards(scene: Scene, f: ReplayFrame) -> None:
    """Every card of every seat drawn face up where it is, and nothing else."""
    assert all(c.kind is not None for c in scene.cards)
    pub = f.views[0].public
    for v in f.views:
        i = v.seat
        assert Counter(slot_kinds(scene, "hand", i)) == Counter(v.hand)
        melds = Counter(k for m in v.melds for k in m.cards)
        assert Counter(slot_kinds(scene, "meld", i)) == melds
        assert slot_kinds(scene, "discard", i) == list(pub.seats[i].discards)
    offers = [c.kind for c in scene.cards if c.role == "offer"]
    assert offers == ([] if pub.offer is None else [pub.offer.card])


@pytest.mark.parametrize("lang", LANGS)
def test_step_zero_a_middle_step_and_the_last_show_the_right_cards(won: Hand, lang: str) -> None:
    n = len(won.log)
    for k in (0, n // 2, n):
        f = frame(won, k)
        scene = layout_replay(f, NAMES, lang)
        check_cards(scene, f)
        check_scene(scene)
        assert pages(lang)["replay_step"].format(k=k, n=n) in texts(scene)
    start = texts(layout_replay(frame(won, 0), NAMES, lang))
    assert pages(lang)["replay_start"] in start


@pytest.mark.parametrize("seed", range(12))
def test_random_hands_at_every_fourth_step(seed: int) -> None:
    h = finished(seed, escape=seed % 4 == 0)
    for k in range(0, len(h.log) + 1, 4):
        f = frame(h, k)
        scene = layout_replay(f, NAMES[:3], "en" if seed % 2 else "zh")
        check_cards(scene, f)
        check_scene(scene)
    decode(render_replay_step(frame(h, len(h.log)), NAMES, "zh"))


def test_what_followed_a_decision_keeps_the_latest_events() -> None:
    f = fonts.font(22)
    parts = ["甲 摸出 一", "无人要", "乙 摸出 二", "丙 碰 三"]
    assert pack_latest(parts, f, 2000, 2) == [" · ".join(parts)]
    one = f.getlength("丙 碰 三 · 乙 摸出 二") + 1  # two parts a line
    assert pack_latest(parts, f, one, 2) == ["甲 摸出 一 · 无人要", "乙 摸出 二 · 丙 碰 三"]
    assert pack_latest(parts, f, one, 1) == ["… 乙 摸出 二 · 丙 碰 三"]
    assert pack_latest([], f, one, 2) == []


def test_the_card_won_on_is_shown_at_the_winning_step(won: Hand) -> None:
    f = frame(won, len(won.log))
    hu = next(ev for ev in f.moved if ev.kind == "hu")
    slots = [c for c in layout_replay(f, NAMES, "zh").cards if c.role == "won"]
    assert [(c.kind, c.seat) for c in slots] == [(hu.cards[0], hu.seat)]
    assert not [c for c in layout_replay(frame(won, 1), NAMES, "zh").cards if c.role == "won"]
