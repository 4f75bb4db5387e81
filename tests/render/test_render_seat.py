"""The seat's picture: the whole table from one seat's view, and nothing that seat may not see.

Other seats in play order with their marks, hidden melds drawn as backs in their own band, the
status line (轮到你了 / 托管中 / whose turn / 等待表态, never who may answer), the two 胡息
labels, the 听 badges and lines, and a layout that fits Telegram at 2, 3 and 4 seats.
"""

from __future__ import annotations

import io
import itertools
from dataclasses import replace

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from PIL import Image
from support.positions import positions, swap_hidden_card
from support.scenes import check_scene, is_back

from engine import cards as C
from engine.melds import GroupKind
from engine.views import (
    Event,
    MeldView,
    Offer,
    OfferHow,
    PrivateView,
    PublicView,
    SeatView,
    Ting,
    Wait,
)
from render import render_hand
from render import theme as T
from render.hand import layout_hand, seats_in_play_order, status_line
from render.scene import MAX_SIDE, Box, CardSlot, Scene, Text, paint
from render.strings import table
from render.table import last_move, layout_table

NAMES = ("甲一", "乙二", "丙三", "丁四")


def k(text: str) -> int:
    return C.parse_card(text)


def seat(i: int, melds: tuple[MeldView, ...] = (), discards: str = "") -> SeatView:
    return SeatView(i, 10, melds, tuple(C.parse_cards(discards)) if discards else (), 3)


HIDDEN_WEI = MeldView(GroupKind.WEI, (None, None, None), (False, False, False))
HIDDEN_TI = MeldView(GroupKind.TI, (k("六"), None, None, None), (True, False, False, False))
PENG = MeldView(GroupKind.PENG, (k("七"),) * 3, (True,) * 3)


def view(
    n: int = 3,
    me: int = 0,
    *,
    legal: tuple[str, ...] = (),
    to_act: tuple[int, ...] = (),
    waiting: bool = False,
    offer: Offer | None = None,
    last: Event | None = None,
) -> PrivateView:
    """Seat ``me`` at a hand-built table of ``n`` seats; every other seat holds a hidden 偎,
    a 提 with one card up and a 碰, and has discarded two cards."""
    seats = tuple(
        seat(i) if i == me else seat(i, (HIDDEN_WEI, HIDDEN_TI, PENG), "一 贰") for i in range(n)
    )
    pub = PublicView("qq", 0, seats, 10, k("贰"), offer, to_act, last, 5, None, waiting)
    return PrivateView(
        me, pub, tuple(C.parse_cards("一 一 五 五 五 八")), (k("五"),), (), 9, (), legal, None
    )


def texts(scene: Scene) -> list[str]:
    return [t.text for t in scene.items if isinstance(t, Text)]


def test_other_seats_come_in_play_order_named_by_where_they_sit() -> None:
    expected = {
        2: {1: "对家"},
        3: {1: "下家", 2: "上家"},
        4: {1: "下家", 2: "对家", 3: "上家"},
    }
    for n, relations in expected.items():
        for me in range(n):
            v = view(n, me)
            order = seats_in_play_order(v)
            assert order == [(me + d) % n for d in range(1, n)]
            scene = layout_hand(v, NAMES)
            check_scene(scene)
            assert scene.height <= MAX_SIDE
            bands = [scene.named[f"seat:{i}"] for i in order]
            assert [b.y for b in bands] == sorted(b.y for b in bands)  # top to bottom
            assert f"seat:{me}" not in scene.named
            for i in order:
                band = scene.named[f"seat:{i}"]
                shown = [t.text for t in scene.items if isinstance(t, Text) and band_holds(band, t)]
                assert relations[(i - me) % n] in shown


def band_holds(band: object, t: Text) -> bool:
    return band.x <= t.x <= band.right and band.y <= t.y <= band.bottom  # type: ignore[attr-defined]


def test_hidden_melds_of_other_seats_are_backs_in_their_own_band() -> None:
    for n in (2, 3, 4):
        v = view(n)
        scene = layout_hand(v, NAMES)
        img = paint(scene)
        for i in seats_in_play_order(v):
            band = scene.named[f"seat:{i}"]
            slots = [c for c in scene.cards if c.role == "meld" and c.seat == i]
            assert len(slots) == 3 + 4 + 3
            assert all(band.contains(c.rect) for c in slots)
            for slot in slots:
                assert is_back(img, slot) == (slot.kind is None), slot
            assert sum(c.kind is None for c in slots) == 3 + 3


def test_hidden_melds_are_backs_for_random_engine_positions() -> None:
    """Pixel probes over played hands: another seat's face-down cards are backs in its band,
    its face-up cards are not, and this seat's own hidden cards are faces marked hidden."""
    backs = 0
    for seed in range(40):
        for h in positions(seed)[::4]:
            me = len(h.log) % 3
            v = h.private_view(me)
            scene = layout_hand(v, NAMES)
            assert scene.height <= MAX_SIDE  # no scaling down by the encoder's safety net
            img = paint(scene)
            for i in seats_in_play_order(v):
                slots = [c for c in scene.cards if c.role == "meld" and c.seat == i]
                band = scene.named[f"seat:{i}"]
                assert sorted(c.kind is None for c in slots) == sorted(
                    x is None for m in v.public.seats[i].melds for x in m.cards
                )
                for slot in slots:
                    assert band.contains(slot.rect)
                    assert is_back(img, slot) == (slot.kind is None), slot
                    backs += slot.kind is None
            own = [c for c in scene.cards if c.role == "meld" and c.seat == me]
            assert all(c.kind is not None and not is_back(img, c) for c in own)
    assert backs > 20  # the probe did meet hidden cards


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10_000), step=st.integers(0, 60), me=st.integers(0, 2))
def test_a_seat_sees_the_same_picture_whatever_it_cannot_see(seed: int, step: int, me: int) -> None:
    """Two hands that differ only in a card another seat holds (or the stock) give this seat
    the same picture; the seat holding the card sees the difference (so the test can fail)."""
    hands = positions(seed)
    h = hands[min(step, len(hands) - 1)]
    owner = (me + 1 + step % 2) % 3
    twin = swap_hidden_card(h, owner)
    if twin is None:
        return
    kw = {"trustee": frozenset({owner}), "robots": frozenset({(owner + 1) % 3})}
    assert render_hand(twin.private_view(me), NAMES, **kw) == render_hand(
        h.private_view(me), NAMES, **kw
    )
    assert render_hand(twin.private_view(owner), NAMES) != render_hand(h.private_view(owner), NAMES)


def name_texts(scene: Scene) -> list[Text]:
    """Texts holding a player name other than in a name box (status lines, event lines)."""
    boxes = [b for key, b in scene.named.items() if key.startswith("name:")]
    return [
        t
        for t in scene.items
        if isinstance(t, Text)
        and any(n in t.text for n in NAMES)
        and not any(b.x <= t.x <= b.right and b.y <= t.y <= b.bottom for b in boxes)
    ]


def test_waiting_never_names_who_may_answer() -> None:
    for n in (2, 3, 4):
        v = view(n, waiting=True)
        for lang in ("zh", "en"):
            scene = layout_hand(v, NAMES, lang)
            assert table(lang)["waiting"] in texts(scene)
            assert name_texts(scene) == []
            assert not any(table(lang)["to_act"].split("{")[0] in t for t in texts(scene))
            public = layout_table(v.public, NAMES, lang)
            assert table(lang)["waiting"] in texts(public)
            assert name_texts(public) == []


def test_waiting_with_an_offer_names_only_who_produced_it() -> None:
    offer = Offer(k("九"), 1, OfferHow.DISCARD)
    v = view(3, waiting=True, offer=offer)
    scene = layout_hand(v, NAMES)
    assert [t.text for t in name_texts(scene)] == ["乙二 打出"]


def test_whose_turn_names_only_the_seat_that_must_discard() -> None:
    scene = layout_hand(view(4, to_act=(2,)), NAMES)
    assert [t.text for t in name_texts(scene)] == ["轮到：丙三"]
    band = scene.named["seat:2"]
    outlined = [b for b in scene.items if isinstance(b, Box) and b.rect == band]
    assert outlined[0].outline == T.GOLD and outlined[0].width == 3


def test_trustee_reads_tuoguan_instead_of_your_turn() -> None:
    mine = view(3, legal=("d:x1",), to_act=(0,))
    s = table("zh")
    assert s["your_turn"] in texts(layout_hand(mine, NAMES))
    shown = texts(layout_hand(mine, NAMES, trustee=frozenset({0})))
    assert s["in_trustee"] in shown and s["your_turn"] not in shown
    waiting = texts(layout_hand(view(3, waiting=True), NAMES, trustee=frozenset({0})))
    assert s["in_trustee"] in waiting and s["waiting"] not in waiting
    assert status_line(mine, NAMES, s, frozenset()) == (s["your_turn"], T.GOLD, True)


def test_other_seats_are_marked_tuoguan_or_computer() -> None:
    for lang in ("zh", "en"):
        s = table(lang)
        v = view(4)
        scene = layout_hand(v, NAMES, lang, trustee=frozenset({1, 3}), robots=frozenset({3}))
        marks = {
            i: [
                t.text
                for t in scene.items
                if isinstance(t, Text)
                and band_holds(scene.named[f"seat:{i}"], t)
                and t.text in (s["trustee"], s["robot"])
            ]
            for i in (1, 2, 3)
        }
        assert marks == {1: [s["trustee"]], 2: [], 3: [s["robot"]]}
        marked = {"trustee": frozenset({1}), "robots": frozenset({2})}
        group = texts(layout_table(v.public, NAMES, lang, **marked))
        assert group.count(s["trustee"]) == 1 and group.count(s["robot"]) == 1
        assert s["trustee"] not in texts(layout_table(v.public, NAMES, lang))


def test_own_huxi_and_shown_huxi_are_labelled_apart() -> None:
    v = view(3)
    for lang, mine, shown in (
        ("zh", "我的胡息 9", "明胡息 3"),
        ("en", "My 胡息 9", "Shown 胡息 3"),
    ):
        all_text = texts(layout_hand(v, NAMES, lang))
        assert mine in all_text and shown in all_text
        assert all_text.count(shown) == 3  # this seat's and the two others'


TING = Ting(
    waits=(Wait(k("六"), 3), Wait(k("九"), 0)),
    by_discard=((k("一"), (Wait(k("六"), 3), Wait(k("九"), 0))), (k("八"), (Wait(k("二"), 2),))),
)


def badges(scene: Scene) -> list[Box]:
    return [b for b in scene.items if isinstance(b, Box) and b.fill == T.TING]


def test_ting_badges_sit_on_each_discard_that_leaves_the_hand_ting() -> None:
    v = view(3, legal=("d:x1", "d:x8"), to_act=(0,))
    scene = layout_hand(v, NAMES, ting=TING)
    hand = [c for c in scene.cards if c.role == "hand"]
    marked = [c for c in hand if any(c.visible.contains(b.rect) for b in badges(scene))]
    assert sorted(c.kind for c in marked) == [k("一"), k("一"), k("八")]  # type: ignore[type-var]
    assert len(badges(scene)) == 3
    line = [
        t for t in scene.items if isinstance(t, Text) and t.y > max(c.rect.bottom for c in hand)
    ]
    words = [(t.text, t.fill) for t in line if "×" in t.text or "听" in t.text]
    assert words[:4] == [
        ("打一 听", T.TEXT),
        ("六×3", T.GOLD),
        ("九×0", T.GREY),  # none left unseen: greyed
        ("打八 听", T.TEXT),
    ]


def test_ting_while_waiting_lists_the_current_waits_without_badges() -> None:
    scene = layout_hand(view(3, waiting=True), NAMES, "en", ting=Ting(waits=TING.waits))
    assert badges(scene) == []
    assert [t for t in texts(scene) if t in ("听: ", "六×3", "九×0")] == ["听: ", "六×3", "九×0"]
    assert layout_hand(view(3), NAMES, ting=Ting()).items == layout_hand(view(3), NAMES).items


def test_a_kan_card_gets_no_badge() -> None:
    locked = Ting(by_discard=((k("五"), (Wait(k("六"), 1),)),))
    assert badges(layout_hand(view(3, legal=("d:x5",)), NAMES, ting=locked)) == []


def test_the_old_call_still_works_and_pictures_stay_within_telegram() -> None:
    for n in (2, 3, 4):
        data = render_hand(view(n), NAMES)
        assert data[:2] == b"\xff\xd8"
        img = Image.open(io.BytesIO(data))
        assert max(img.size) <= MAX_SIDE and img.width == 760


def test_card_slots_of_other_seats_never_carry_a_hidden_kind() -> None:
    """A slot drawn for another seat's face-down card has no kind at all to leak."""
    scene = layout_hand(view(4), NAMES)
    hidden: list[CardSlot] = [c for c in scene.cards if c.seat != 0 and c.kind is None]
    assert len(hidden) == 3 * 6


def test_the_last_move_glows_in_the_seat_picture_too() -> None:
    """The melds or the discard the last move put down glow, in whichever band (or among the
    seat's own melds) they lie; the offer is highlighted as the pending card instead."""
    seen: set[str] = set()
    for seed in range(30):
        for h in positions(seed):
            v = h.private_view(seed % 3)
            what, who, idx = last_move(v.public)
            scene = layout_hand(v, NAMES)
            glows = [b for b in scene.items if isinstance(b, Box) and b.fill == T.LAST_MOVE]
            if what not in ("melds", "discard"):
                assert glows == []
                continue
            assert len(glows) == len(idx)
            role = "meld" if what == "melds" else "discard"
            lit = [c for c in scene.cards if any(g.rect.contains(c.rect) for g in glows)]
            assert lit and {(c.role, c.seat) for c in lit} == {(role, who)}
            seen.add(what + (" own" if who == v.seat else ""))
    assert {"melds", "melds own"} <= seen


def test_a_card_nobody_took_glows_in_its_discard_row() -> None:
    scene = layout_hand(view(3, last=Event("to_row", 2, (k("贰"),))), NAMES)
    glows = [b for b in scene.items if isinstance(b, Box) and b.fill == T.LAST_MOVE]
    lit = [c for c in scene.cards if any(g.rect.contains(c.rect) for g in glows)]
    assert [(c.role, c.seat, c.kind) for c in lit] == [("discard", 2, k("贰"))]


def test_a_tall_hand_at_a_full_four_seat_table_overlaps_more_to_fit() -> None:
    """Two 坎 of one point (a column of 6) under three full bands: the hand's columns overlap
    more, instead of the encoder scaling the whole picture down."""
    ti = MeldView(GroupKind.TI, (k("九"),) * 4, (True, False, False, False))
    tall = replace(
        view(4),
        hand=tuple(C.parse_cards("四 四 四 肆 肆 肆 一 二")),
        kans=(k("四"), k("肆")),
        melds=(ti,),
    )
    scene = layout_hand(tall, NAMES)
    assert scene.height <= MAX_SIDE
    column = [c.rect.y for c in scene.cards if c.role == "hand" and C.point(c.kind or 0) == 4]
    steps = {b - a for a, b in itertools.pairwise(column)}
    assert len(column) == 6 and len(steps) == 1 and steps.pop() < T.OWN.step
    normal = [c.rect.y for c in layout_hand(view(4), NAMES).cards if c.role == "hand"]
    assert normal[1] - normal[0] == T.OWN.step  # 一 一: the usual overlap
