"""Images for many random engine positions: they decode, fit Telegram, show backs where cards
are face down, red ink on red cards, and keep every text inside the picture."""

from __future__ import annotations

import io
import random

import pytest
from PIL import Image, ImageChops, ImageDraw
from support.scenes import check_scene, decode, is_back

from engine import cards as C
from engine.rules import QQ
from engine.state import Hand
from engine.views import OutcomeKind, PrivateView, PublicView
from render import fonts, render_hand, render_settlement, render_table
from render import theme as T
from render.__main__ import main as render_main
from render.cards import char_box
from render.hand import hand_columns, layout_hand
from render.scene import MAX_SIDE, CardSlot, Text, paint
from render.settlement import layout_settlement
from render.table import layout_table

NAMES = ("小明", "Alice", "老王")
SEEDS = range(60)


def play(seed: int) -> tuple[list[Hand], Hand]:
    """A random game: a few positions along the way (by replay) and the finished hand."""
    rng = random.Random(seed)
    h = Hand.new(QQ, seed=seed, dealer=seed % 3)
    stops = set(rng.sample(range(1, 60), 3))
    snaps = [h]
    while not h.is_terminal():
        seat = rng.choice(h.to_act())
        h.apply(seat, rng.choice(h.legal_actions(seat)))
        if len(h.log) in stops and not h.is_terminal():
            snaps.append(Hand.replay(QQ, seed=seed, dealer=seed % 3, log=list(h.log)))
    if seed % 5 == 0 and len(snaps) > 1:  # some hands end by 逃跑
        h = snaps[-1]
        snaps = snaps[:-1]
        h.escape(h.to_act()[0])
    elif seed % 5 == 1 and len(snaps) > 1:  # and some by a 解散 vote
        h = snaps[-1]
        snaps = snaps[:-1]
        h.dissolve(seed % 3)
    return snaps, h


@pytest.fixture(scope="module")
def games() -> list[tuple[list[Hand], Hand]]:
    return [play(seed) for seed in SEEDS]


def red_ink(img: Image.Image, slot: CardSlot) -> int:
    """Pixels of red ink in the card's character box."""
    cx, cy, px = char_box(slot.size)
    box = (
        slot.rect.x + cx - px // 2,
        slot.rect.y + cy - px // 2,
        slot.rect.x + cx + px // 2,
        slot.rect.y + cy + px // 2,
    )
    r, g, b = img.crop(box).convert("RGB").split()
    mask = ImageChops.multiply(
        r.point(lambda v: 255 if v > 150 else 0),
        ImageChops.multiply(
            g.point(lambda v: 255 if v < 100 else 0), b.point(lambda v: 255 if v < 100 else 0)
        ),
    )
    return mask.histogram()[255]


def test_every_kind_renders_for_random_positions(
    games: list[tuple[list[Hand], Hand]],
) -> None:
    kinds: set[OutcomeKind] = set()
    for snaps, end in games:
        for h in snaps:
            private = h.private_view(len(h.log) % 3)
            check_scene(layout_hand(private, NAMES))
            decode(render_hand(private, NAMES))
            check_scene(layout_table(h.public_view(), NAMES, "en"))
            decode(render_table(h.public_view(), NAMES))
        view = end.public_view()
        assert view.outcome is not None
        kinds.add(view.outcome.kind)
        totals = [100 * i - 150 for i in range(3)]
        check_scene(layout_settlement(view, NAMES, totals))
        decode(render_settlement(view, NAMES, totals))
        check_scene(layout_settlement(view, NAMES, None, lang="en"))
    assert kinds == set(OutcomeKind)  # wins, 荒庄, 逃跑 and 解散 all came up


def test_table_shows_backs_exactly_where_cards_are_face_down(
    games: list[tuple[list[Hand], Hand]],
) -> None:
    backs = 0
    for snaps, _ in games:
        for h in snaps:
            view = h.public_view()
            scene = layout_table(view, NAMES)
            check_scene(scene)
            img = paint(scene)
            for i, seat in enumerate(view.seats):
                slots = [c for c in scene.cards if c.role == "meld" and c.seat == i]
                cards = sorted((k for m in seat.melds for k in m.cards), key=lambda k: k is None)
                assert sorted((c.kind for c in slots), key=lambda k: k is None) == cards
                for slot in slots:
                    assert is_back(img, slot) == (slot.kind is None), slot
                    backs += slot.kind is None
                shown = [c.kind for c in scene.cards if c.role == "discard" and c.seat == i]
                assert shown == list(seat.discards)
            assert not [c for c in scene.cards if c.role == "hand"]  # never the hands
    assert backs > 20  # the probe did meet face-down cards


def test_red_cards_are_red_and_black_cards_are_not(
    games: list[tuple[list[Hand], Hand]],
) -> None:
    seen = {True: 0, False: 0}
    for snaps, _ in games[:15]:
        view = snaps[-1].private_view(0)
        scene = layout_hand(view, NAMES)
        check_scene(scene)
        img = paint(scene)
        for slot in scene.cards:
            if slot.kind is None:
                continue
            red = C.is_red(slot.kind)
            assert (red_ink(img, slot) > 40) == red, slot
            seen[red] += 1
    assert seen[True] > 10 and seen[False] > 10


def test_hand_is_sorted_in_point_columns_with_kan_first(
    games: list[tuple[list[Hand], Hand]],
) -> None:
    for snaps, _ in games:
        for h in snaps:
            for seat in range(3):
                view = h.private_view(seat)
                cols = hand_columns(view)
                assert sorted(k for col in cols for k, _ in col) == sorted(view.hand)
                points = [C.point(col[0][0]) for col in cols]
                assert points == sorted(set(points))
                for col in cols:
                    assert len({C.point(k) for k, _ in col}) == 1
                    locked = [lk for _, lk in col]
                    assert locked == sorted(locked, reverse=True)
                    assert sum(locked) % 3 == 0
                slots = [c for c in layout_hand(view, NAMES).cards if c.role == "hand"]
                assert sorted(c.kind for c in slots) == sorted(view.hand)  # type: ignore[type-var]


def test_own_face_down_melds_are_shown_to_the_owner_marked_hidden(
    games: list[tuple[list[Hand], Hand]],
) -> None:
    checked = 0
    for snaps, _ in games:
        for h in snaps:
            for seat in range(3):
                view = h.private_view(seat)
                scene = layout_hand(view, NAMES)
                slots = [c for c in scene.cards if c.role == "meld" and c.seat == seat]
                assert all(c.kind is not None for c in slots)
                hidden = sum(not up for m in view.melds for up in m.face_up)
                assert sum(c.hidden for c in slots) == hidden
                checked += hidden
    assert checked > 0


def test_offer_and_highlight_are_drawn(games: list[tuple[list[Hand], Hand]]) -> None:
    offers = 0
    for snaps, _ in games:
        for h in snaps:
            view = h.private_view(0)
            expected = view.public.offer.card if view.public.offer else view.highlight
            got = [c.kind for c in layout_hand(view, NAMES).cards if c.role == "offer"]
            assert got == ([] if expected is None else [expected])
            table_offer = [
                c.kind for c in layout_table(view.public, NAMES).cards if c.role == "offer"
            ]
            assert table_offer == ([view.public.offer.card] if view.public.offer else [])
            offers += bool(got)
    assert offers > 10


WILD_NAMES = [
    "",
    " \n\t ",
    "W" * 200,
    "無敵的超級長名字" * 20,
    "👨‍👩‍👧‍👦🎉🔥" * 10,
    "مرحبا بالعالم، هذا اسم طويل جدا",
    "שלום עולם",
    "Zalgo z̷̢̛a̸l̶g̵o̴" * 5,
    "a\u200b\u200e\u202e\ufeffb",
    "\x00\x07bell",
    "𠀀𠀁𠀂 rare hanzi",
    "한국어 이름",
    "Ünïcödé Ñame Ελληνικά Кириллица",
]


@pytest.mark.parametrize("wild", WILD_NAMES)
def test_wild_names_render_and_stay_in_their_boxes(
    wild: str, games: list[tuple[list[Hand], Hand]]
) -> None:
    names = [wild, wild + "2", wild[::-1]]
    snaps, end = games[3]
    h = snaps[-1]
    scenes = [layout_hand(h.private_view(s), names) for s in range(3)]
    scenes.append(layout_table(h.public_view(), names))
    scenes.append(layout_settlement(end.public_view(), names, [1, 2, 3]))
    for lang in ("zh", "en"):
        scenes.append(layout_table(h.public_view(), names, lang))
    draw = ImageDraw.Draw(Image.new("RGB", (1, 1)))
    for scene in scenes:
        check_scene(scene)
        for key, box in scene.named.items():
            inside = [
                t
                for t in scene.items
                if isinstance(t, Text) and box.x <= t.x <= box.right and box.y <= t.y <= box.bottom
            ]
            assert inside, key
            for t in inside:
                x0, _, x1, _ = draw.textbbox(
                    (t.x, t.y), t.text, font=fonts.font(t.px, t.bold), anchor=t.anchor
                )
                assert box.x - 1 <= x0 and x1 <= box.right + 1, (key, t.text)
        paint(scene)


def test_long_name_is_cut_with_an_ellipsis() -> None:
    view = _first_public()
    scene = layout_table(view, ["Bartholomew Fitzwilliam the Third of Somewhere", "b", "c"])
    text = [t.text for t in scene.items if isinstance(t, Text) and t.text.startswith("Bart")]
    assert text and all(t.endswith(fonts.ELLIPSIS) for t in text)


def _first_public() -> PublicView:
    return Hand.new(QQ, seed=1, dealer=0).public_view()


def test_too_few_names_and_unknown_language_are_errors() -> None:
    view = _first_public()
    with pytest.raises(ValueError):
        render_table(view, ["only one"])
    with pytest.raises(ValueError):
        render_table(view, NAMES, lang="fr")
    with pytest.raises(ValueError):
        render_settlement(view, NAMES)  # the hand has not ended


def test_private_view_types_are_accepted() -> None:
    view: PrivateView = Hand.new(QQ, seed=2, dealer=1).private_view(1)
    assert decode(render_hand(view, NAMES, lang="en")).format == "JPEG"


PAGES = ("leaderboard", "player_card", "replay_end", "replay_mid")


def test_demo_writes_one_image_of_every_kind(tmp_path) -> None:  # type: ignore[no-untyped-def]
    render_main(["demo", str(tmp_path), "--lang", "zh"])
    kinds = sorted(p.name.split("_zh")[0] for p in tmp_path.iterdir())
    written = [k for k in kinds if k not in PAGES]  # the /rank, /me and /replay pictures: checked below
    assert written == [
        "four14_seat",
        "four14_settlement",
        "hunan2_seat",
        "hunan4_seat",
        "hunan4_settlement",
        "hunan4_table",
        "match_summary",
        "seat2",
        "seat3",
        "seat4",
        "settlement_draw",
        "settlement_escape",
        "settlement_win",
        "table",
    ]
    assert [k for k in kinds if k in PAGES] == list(PAGES)
    for p in tmp_path.iterdir():
        decode(p.read_bytes())


def test_card_faces_of_small_and_big_differ() -> None:
    """Same point, different size: the faces differ (colour of face and band)."""
    from render.cards import face

    for p in range(1, 11):
        small, big = face(C.make(p, False), T.HAND), face(C.make(p, True), T.HAND)
        s_px = small.convert("RGB").getpixel((T.HAND.w // 2, T.HAND.h - 20))
        b_px = big.convert("RGB").getpixel((T.HAND.w // 2, T.HAND.h - 20))
        assert s_px != b_px


def test_encode_scales_an_oversized_picture_down_to_telegram_size() -> None:
    from render.scene import encode

    big = Image.new("RGB", (2000, 500), T.FELT)
    for fmt in ("PNG", "JPEG"):
        assert decode_any(encode(big, fmt)).size == (MAX_SIDE, 320)  # type: ignore[arg-type]


def decode_any(data: bytes) -> Image.Image:
    img = Image.open(io.BytesIO(data))
    img.load()
    return img


def test_last_move_glows(games: list[tuple[list[Hand], Hand]]) -> None:
    from render.scene import Box
    from render.table import last_move

    seen: set[str] = set()
    for snaps, _ in games:
        for h in snaps:
            view = h.public_view()
            what, seat, idx = last_move(view)
            ev = view.last_event
            glows = [
                b
                for b in layout_table(view, NAMES).items
                if isinstance(b, Box) and b.fill == T.LAST_MOVE
            ]
            assert len(glows) == (
                len(idx) if what in ("melds", "discard") else int(what == "offer")
            )
            if what == "melds":
                assert ev is not None and seat == ev.seat
                kinds = {view.seats[seat].melds[i].kind for i in idx}
                assert kinds == {"chi" if ev.kind == "chi" else ev.kind}
            if ev is not None and ev.kind in ("chi", "peng", "pao", "ti", "wei", "chouwei"):
                assert what == "melds" and idx
            seen.add(what)
    assert {"offer", "melds"} <= seen


def test_rendering_from_many_threads_gives_the_same_pictures(
    games: list[tuple[list[Hand], Hand]],
) -> None:
    from concurrent.futures import ThreadPoolExecutor

    views = [snaps[-1] for snaps, _ in games[:8]]
    jobs = [(render_table, h.public_view()) for h in views]
    jobs += [(render_hand, h.private_view(0)) for h in views]
    serial = [fn(v, NAMES) for fn, v in jobs]  # type: ignore[operator]
    with ThreadPoolExecutor(4) as pool:
        threaded = list(pool.map(lambda job: job[0](job[1], NAMES), jobs * 3))
    assert threaded == serial * 3
