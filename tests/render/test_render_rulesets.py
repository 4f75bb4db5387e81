"""Pictures under every rule set and seat count: the rules label on every picture,
the 醒家's compact band (no cards, no counts), relations counted over the seats in play, and
settlements with 囤 × 名堂, 醒筹, 打鸟, 点炮 and 地胡, or a single loser at two seats.

Snapshots use the mechanism of ``support.snapshots`` (regenerate with
``UPDATE_SNAPSHOTS=1 .venv/bin/pytest tests/render/test_render_rulesets.py`` and look at them).
"""

from __future__ import annotations

from dataclasses import replace

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from support.positions import positions, swap_hidden_card
from support.scenes import check_scene
from support.snapshots import assert_snapshot, texts
from support.views import (
    FOURTH,
    NAMES,
    WIN_GROUPS,
    discarding_view,
    private_view,
    public_view,
    win_outcome,
)

from engine import cards as C
from engine.birds import settle_birds
from engine.rules import get_rule_set
from engine.views import Outcome, OutcomeKind, PrivateView, PublicView, SeatView, Win
from render import fonts, render_hand, render_table
from render.hand import layout_hand, relation_key, seats_in_play_order
from render.scene import Rect, Scene, Text, paint
from render.settlement import layout_settlement
from render.strings import table
from render.table import layout_table
from render.widgets import rules_label

XING = 2  # the 醒家 of the hand-built hunan/4 table: the dealer (seat 0)'s opposite
TOTALS4 = (1234, -560, 88, 7)


def moved_to(pub: PublicView, seat: int) -> PublicView:
    """The same table with its offer and last move made by ``seat`` (not seat 2)."""
    offer = None if pub.offer is None else replace(pub.offer, seat=seat)
    last = None if pub.last_event is None else replace(pub.last_event, seat=seat)
    return replace(pub, offer=offer, last_event=last)


def hunan4(outcome: Outcome | None = None) -> PublicView:
    """A hunan/4 table dealt by seat 0: seat 2 sits out as 醒家 with nothing at all; seat 3's
    discard is on offer."""
    pub = moved_to(public_view(outcome), 3)
    seats = (pub.seats[0], pub.seats[1], SeatView(XING, 0, (), (), 0), FOURTH)
    return replace(pub, rule_set="hunan/4", seats=seats, dealer=0, xing=XING)


def hunan4_private(me: int) -> PrivateView:
    return replace(private_view(), seat=me, public=hunan4())


def with_rules(view: PrivateView, key: str) -> PrivateView:
    return replace(view, public=replace(view.public, rule_set=key))


def hunan_win(points: tuple[int, ...], xing: int | None) -> Outcome:
    """Seat 0 wins by 自摸 with 红胡: 28 胡息 make 5 囤, 自摸 +1: 6 囤 × 2 × 底分 1 = 12 a
    loser."""
    win = Win(
        WIN_GROUPS,
        huxi=28,
        mingtang=(("红胡", 2),),
        fan=2,
        di=6,
        zimo=True,
        haidi=False,
        tianhu=False,
        base=1,
        winner_points=points[0],
        loser_points=-12,
    )
    return Outcome(OutcomeKind.WIN, points, winner=0, win=win, xing=xing)


# Seat 0 wins; the losers 1 and 3 pay 12 and 1 醒筹 each; the 醒家 collects 2. The stock's
# last card, 伍, sends the birds with the dealer (seat 0).
HUNAN4_WIN = replace(hunan_win((24, -13, 2, -13), XING), bird_card=C.parse_card("伍"))
BIRD_NAMES = ("鸟人阿飞", "Birdwatcher Bob")


def birds_of(pub: PublicView) -> tuple[tuple[str, int], ...]:
    """Two birds and their points as the engine settles them (the bot passes these)."""
    assert pub.outcome is not None
    each, _ = settle_birds(get_rule_set(pub.rule_set), pub.outcome, pub.dealer, len(BIRD_NAMES))
    return tuple((name, each) for name in BIRD_NAMES)


def hunan4_birds(lang: str) -> Scene:
    pub = hunan4(HUNAN4_WIN)
    return layout_settlement(pub, NAMES, TOTALS4, lang, birds=birds_of(pub))


def four14_win() -> Outcome:
    """A 地胡 won on seat 1's discard (点炮) at a four14 table."""
    base = win_outcome()
    win = replace(base.win, dihu=True, zimo=False, haidi=False)  # type: ignore[type-var]
    return replace(base, points=(336, -336, 0, 0), win=win, fed_by=1)


def four14(outcome: Outcome | None = None) -> PublicView:
    pub = public_view(outcome)
    return replace(pub, rule_set="four14", seats=(*pub.seats, FOURTH))


def two_seats(outcome: Outcome | None = None, key: str = "hunan/2/setaside") -> PublicView:
    pub = moved_to(public_view(outcome), 1)
    return replace(pub, rule_set=key, seats=pub.seats[:2])


CASES = {
    "rules_table_hunan4_zh": lambda: layout_table(hunan4(), NAMES, "zh"),
    "rules_table_two_seats_en": lambda: layout_table(two_seats(), NAMES, "en"),
    "rules_seat_hunan4_zh": lambda: layout_hand(hunan4_private(0), NAMES, "zh"),
    "rules_seat_hunan4_en": lambda: layout_hand(hunan4_private(3), NAMES, "en"),
    "rules_seat_four14_en": lambda: layout_hand(
        with_rules(discarding_view(4), "four14"), NAMES, "en"
    ),
    "rules_seat_hunan2_zh": lambda: layout_hand(
        with_rules(discarding_view(2), "hunan/2/min21"), NAMES, "zh"
    ),
    "rules_settlement_hunan4_birds_zh": lambda: hunan4_birds("zh"),
    "rules_settlement_hunan4_birds_en": lambda: hunan4_birds("en"),
    "rules_settlement_hunan4_draw_en": lambda: layout_settlement(
        hunan4(Outcome(OutcomeKind.DRAW, (-3, 0, 3, 0), xing=XING)), NAMES, None, "en"
    ),
    "rules_settlement_four14_zh": lambda: layout_settlement(four14(four14_win()), NAMES, TOTALS4),
    "rules_settlement_hunan2_en": lambda: layout_settlement(
        two_seats(hunan_win((12, -12), None)), NAMES, TOTALS4[:2], "en"
    ),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_snapshot(name: str) -> None:
    scene: Scene = CASES[name]()
    check_scene(scene)
    img = paint(scene)
    assert_snapshot(name, img)



def inside(band: Rect, t: Text) -> bool:
    return band.x <= t.x <= band.right and band.y <= t.y <= band.bottom


def overlaps(a: Rect, b: Rect) -> bool:
    return a.x < b.right and b.x < a.right and a.y < b.bottom and b.y < a.bottom


# --- the rules label -----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("key", "zh", "en"),
    [
        ("qq", "QQ跑胡子 · 3人", "QQ跑胡子 · 3 seats"),
        ("four14", "六胡抢 · 4人", "六胡抢 four14 · 4 seats"),
        ("hunan/4", "湖南跑胡子 · 4人", "湖南 Hunan · 4 seats"),
        ("hunan/3", "湖南跑胡子 · 3人", "湖南 Hunan · 3 seats"),
        ("hunan/2/min21", "湖南跑胡子 · 2人 · 21胡起胡", "湖南 Hunan · 2 seats · 21胡息 to win"),
        (
            "hunan/2/setaside",
            "湖南跑胡子 · 2人 · 去20张",
            "湖南 Hunan · 2 seats · 20 cards out",
        ),
    ],
)
def test_rules_label_names_the_rule_set_seats_and_two_seat_option(
    key: str, zh: str, en: str
) -> None:
    assert rules_label(table("zh"), key) == zh
    assert rules_label(table("en"), key) == en


def test_every_picture_says_which_rules_are_played() -> None:
    for lang in ("zh", "en"):
        s = table(lang)
        for key, pub, mine in (
            ("hunan/4", hunan4(), hunan4_private(0)),
            ("four14", four14(), with_rules(discarding_view(4), "four14")),
            ("hunan/2/setaside", two_seats(), with_rules(discarding_view(2), "hunan/2/setaside")),
            ("qq", public_view(), private_view()),
        ):
            label = rules_label(s, key)
            assert label in texts(layout_table(pub, NAMES, lang)), (key, lang)
            assert label in texts(layout_hand(mine, NAMES, lang)), (key, lang)
        ended = (
            hunan4(HUNAN4_WIN),
            four14(four14_win()),
            two_seats(Outcome(OutcomeKind.DRAW, (0, 0))),
        )
        for pub in ended:
            assert rules_label(s, pub.rule_set) in texts(layout_settlement(pub, NAMES, None, lang))


# --- the 醒家 --------------------------------------------------------------------------------


def xing_scenes() -> list[tuple[str, Scene]]:
    out = []
    for lang in ("zh", "en"):
        out.append((lang, layout_table(hunan4(), NAMES, lang)))
        out += [(lang, layout_hand(hunan4_private(me), NAMES, lang)) for me in (0, 1, 3)]
    return out


def test_the_xing_band_shows_no_cards_no_backs_and_no_counts() -> None:
    for lang, scene in xing_scenes():
        s = table(lang)
        check_scene(scene)
        band = scene.named[f"seat:{XING}"]
        assert not [c for c in scene.cards if c.seat == XING]
        assert not [c for c in scene.cards if overlaps(c.rect, band)]  # no card, no back
        shown = [t.text for t in scene.items if isinstance(t, Text) and inside(band, t)]
        assert s["xing"] in shown
        assert scene.named[f"name:{XING}"].y >= band.y  # the name sits in the band
        counts = (s["hand_count"].format(n=0), s["shown_huxi"].format(n=0), s["discards"])
        assert not [t for t in shown if t in counts]
        others = [scene.named[f"seat:{i}"].h for i in (0, 1, 3) if f"seat:{i}" in scene.named]
        assert band.h < min(others) / 2  # a compact row, not an empty card area


def test_play_passes_the_xing_by_and_relations_count_the_seats_in_play() -> None:
    """Seats 0, 1, 3 play (seat 2 is 醒家): 0's 下家 is 1 and 上家 3; 1's 下家 is 3; the 醒家
    band comes first, above the seats in play."""
    expected = {0: {1: "下家", 3: "上家"}, 1: {3: "下家", 0: "上家"}, 3: {0: "下家", 1: "上家"}}
    for me, relations in expected.items():
        v = hunan4_private(me)
        order = seats_in_play_order(v)
        assert order[0] == XING and sorted(order) == sorted({0, 1, 2, 3} - {me})
        assert {i: table("zh")[relation_key(v, i)] for i in order[1:]} == relations
        scene = layout_hand(v, NAMES)
        for i, rel in relations.items():
            band = scene.named[f"seat:{i}"]
            assert rel in [t.text for t in scene.items if isinstance(t, Text) and inside(band, t)]


def test_a_four_seat_table_with_a_xing_is_shorter_than_one_without() -> None:
    full = layout_hand(with_rules(discarding_view(4), "four14"), NAMES)
    xing = layout_hand(replace(discarding_view(4), public=hunan4()), NAMES)
    assert xing.height < full.height


# --- settlements ---------------------------------------------------------------------------


def test_hunan_settlement_shows_tun_zimo_multipliers_and_xing_chips() -> None:
    for lang in ("zh", "en"):
        s = table(lang)
        shown = texts(layout_settlement(hunan4(HUNAN4_WIN), NAMES, TOTALS4, lang))
        assert s["tun"].format(n=6) in shown
        assert s["tun_zimo"].format(n=get_rule_set("hunan/4").zimo_bonus) in shown
        assert "红胡 ×2" in shown and s["mult_total"].format(n=2) in shown
        assert s["formula_tun"].format(x=6, f=2, d=1) in shown
        assert s["each_pays"].format(p=12) in shown
        assert shown.count(s["xing_chips"]) == 1 and "+2" in shown
        assert s["xing"] in shown  # the 醒家's row is marked
        assert s["fan_total"].format(n=2) not in shown  # 名堂 multiply: no 番 total


@pytest.mark.parametrize(
    ("card", "seat", "role"),
    [
        ("伍", 0, "dealer_seat"),
        ("贰", 1, "next_seat"),
        ("柒", XING, "xing"),
        ("四", 3, "prev_seat"),
    ],
)
def test_birds_show_the_bird_card_the_seat_it_names_and_each_bird(
    card: str, seat: int, role: str
) -> None:
    pub = hunan4(replace(HUNAN4_WIN, bird_card=C.parse_card(card)))
    birds = birds_of(pub)
    assert birds[0][1] == pub.outcome.points[seat]  # type: ignore[union-attr]  # 共输赢
    for lang in ("zh", "en"):
        s = table(lang)
        scene = layout_settlement(pub, NAMES, TOTALS4, lang, birds=birds)
        check_scene(scene)
        shown = texts(scene)
        assert s["birds_title"] in shown
        assert s["bird_follows"].format(role=s[role], name=fonts.clean(NAMES[seat])) in shown
        assert [c.kind for c in scene.cards if c.role == "bird"] == [C.parse_card(card)]
        rows = [scene.named[f"bird:{j}"] for j in range(len(birds))]
        assert rows[0].y > scene.named[f"row:{len(pub.seats) - 1}"].bottom  # under the seats
        signed = f"{birds[0][1]:+d}" if birds[0][1] else "0"
        assert shown.count(signed) >= len(birds) + 1  # each bird, and the seat it follows


def test_no_birds_no_bird_panel() -> None:
    scene = layout_settlement(hunan4(HUNAN4_WIN), NAMES, TOTALS4)
    assert table("zh")["birds_title"] not in texts(scene)
    assert not [c for c in scene.cards if c.role == "bird"]
    assert scene.height < hunan4_birds("zh").height


def test_qq_settlement_keeps_fan_added_up_and_shows_what_each_loser_pays() -> None:
    shown = texts(layout_settlement(public_view(win_outcome()), NAMES, None))
    s = table("zh")
    assert "红胡 2番" in shown and s["fan_total"].format(n=8) in shown
    assert s["each_pays"].format(p=168) in shown  # 7 × 8 × 3, paid by each loser
    assert s["xing_chips"] not in shown


def test_hunan_draw_says_the_dealer_pays_the_xing() -> None:
    for lang in ("zh", "en"):
        pub = hunan4(Outcome(OutcomeKind.DRAW, (-3, 0, 3, 0), xing=XING))
        assert table(lang)["draw_note_xing"].format(p=3) in texts(
            layout_settlement(pub, NAMES, None, lang)
        )
    plain = four14(Outcome(OutcomeKind.DRAW, (0, 0, 0, 0)))
    assert table("zh")["draw_note"] in texts(layout_settlement(plain, NAMES, None))


def test_four14_settlement_marks_the_discarder_and_dihu() -> None:
    for lang in ("zh", "en"):
        s = table(lang)
        scene = layout_settlement(four14(four14_win()), NAMES, TOTALS4, lang)
        shown = [t for t in scene.items if isinstance(t, Text)]
        assert s["dihu"] in [t.text for t in shown]
        fed = [t for t in shown if t.text == s["fed_by"]]
        assert len(fed) == 1
        row = scene.named["row:1"]
        assert row.y <= fed[0].y <= row.bottom  # on the discarder's row
    plain = layout_settlement(public_view(win_outcome()), NAMES, None)
    assert table("zh")["fed_by"] not in texts(plain) and table("zh")["dihu"] not in texts(plain)


def test_two_seat_settlement_has_one_loser_and_totals() -> None:
    scene = layout_settlement(two_seats(hunan_win((12, -12), None)), NAMES, TOTALS4[:2])
    check_scene(scene)
    shown = texts(scene)
    assert "+12" in shown and "-12" in shown and "1,234" in shown and "-560" in shown
    assert "row:2" not in scene.named
    escape = two_seats(Outcome(OutcomeKind.ESCAPE, (-30, 30), escaper=0))
    assert table("zh")["escape_note_one"].format(p=30) in texts(layout_settlement(escape, NAMES))
    four = four14(Outcome(OutcomeKind.ESCAPE, (-90, 30, 30, 30), escaper=0))
    note = table("en")["escape_note_many"].format(p=30, n=3)
    assert note in texts(layout_settlement(four, NAMES, None, "en"))


# --- nothing hidden shows, at four seats ---------------------------------------------------


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    key=st.sampled_from(["four14", "hunan/4"]),
    seed=st.integers(0, 10_000),
    step=st.integers(0, 60),
    me=st.integers(0, 3),
)
def test_at_four_seats_a_seat_sees_the_same_picture_whatever_it_cannot_see(
    key: str, seed: int, step: int, me: int
) -> None:
    """four14 (four seats all playing) and hunan/4 (one sitting out as 醒家): a card another
    seat holds, traded with the stock, changes neither this seat's picture nor the group's;
    its holder sees the difference."""
    hands = positions(seed, get_rule_set(key))
    h = hands[min(step, len(hands) - 1)]
    owner = (me + 1 + step % 3) % 4
    twin = swap_hidden_card(h, owner)  # None for a 醒家, who holds nothing
    if twin is None:
        return
    kw = {"trustee": frozenset({owner}), "robots": frozenset({(owner + 1) % 4})}
    assert render_hand(twin.private_view(me), NAMES, **kw) == render_hand(
        h.private_view(me), NAMES, **kw
    )
    assert render_table(twin.public_view(), NAMES) == render_table(h.public_view(), NAMES)
    assert render_hand(twin.private_view(owner), NAMES) != render_hand(h.private_view(owner), NAMES)


@pytest.mark.parametrize("key", ["four14", "hunan/4"])
def test_played_four_seat_hands_fit_show_hidden_cards_as_backs_and_the_xing_empty(
    key: str,
) -> None:
    xings = 0
    for seed in range(6):
        for h in positions(seed, get_rule_set(key))[::5]:
            pub = h.public_view()
            scenes = {None: layout_table(pub, NAMES)}
            for me in range(4):
                scene = layout_hand(h.private_view(me), NAMES)
                hidden = sum(
                    k is None for s in pub.seats if s.seat != me for m in s.melds for k in m.cards
                )
                assert sum(c.kind is None and c.role == "meld" for c in scene.cards) == hidden
                scenes[me] = scene
            for viewer, scene in scenes.items():
                check_scene(scene)
                if pub.xing not in (None, viewer):  # the 醒家 gets no picture of his own
                    band = scene.named[f"seat:{pub.xing}"]
                    assert not [c for c in scene.cards if overlaps(c.rect, band)]
                    xings += 1
    assert xings > 0 if key == "hunan/4" else xings == 0
