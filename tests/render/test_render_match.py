"""The 总结算 picture of a match: a row a hand, a column a player, totals, hands won, 自摸,
the biggest 胡; the winner's column gold; names of every script kept in their boxes.

Snapshots as in ``support.snapshots`` (regenerate with ``UPDATE_SNAPSHOTS=1`` and look).
"""

from __future__ import annotations

from collections.abc import Callable

import pytest
from support.names import NAMES
from support.scenes import check_scene, decode
from support.snapshots import assert_snapshot, texts

from bot.i18n import t
from render import fonts
from render import theme as T
from render.match import MatchHand, MatchSummary, layout_match, render_match, sample_summary
from render.scene import Box, Scene, Text, paint
from render.strings import LANGS, MATCH_EN, MATCH_ZH


def hands(players: int, k: int) -> tuple[MatchHand, ...]:
    """k hands: a rotating winner (every fourth 自摸, some with 名堂), a 荒庄 every fifth."""
    played = []
    for i in range(k):
        if i % 5 == 4:
            played.append(MatchHand((0,) * players))
            continue
        winner = i % players
        points = [-(i + 2)] * players
        points[winner] = (i + 2) * (players - 1)
        played.append(MatchHand(tuple(points), winner, huxi=15 + 3 * i,
                                mingtang=("红胡", "点胡") if i % 3 == 0 else (),
                                zimo=i % 4 == 1))
    return tuple(played)


def summary(players: int, k: int, planned: int | None = None, offset: int = 0,
            leaver: int | None = None, escaped: bool = False) -> MatchSummary:
    """A match of ``k`` hands; with ``escaped`` the leaver ran away from one more (逃跑)."""
    names = tuple(NAMES[(offset + p) % len(NAMES)] for p in range(players))
    played = hands(players, k)
    if escaped and leaver is not None:
        paid = tuple(-3 * (players - 1) if p == leaver else 3 for p in range(players))
        played += (MatchHand(paid, escaper=leaver),)
    return MatchSummary(names, planned or k, played, leaver)


CASES: dict[str, Callable[[], Scene]] = {
    "match_2p_4_zh": lambda: layout_match(summary(2, 4), "zh"),
    "match_3p_16_en": lambda: layout_match(summary(3, 16, offset=1), "en"),
    "match_4p_16_zh": lambda: layout_match(summary(4, 16, offset=3), "zh"),
    "match_4p_4_en_left": lambda: layout_match(summary(4, 2, 4, offset=5, leaver=2,
                                                       escaped=True), "en"),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_snapshot(name: str) -> None:
    img = paint(CASES[name]())
    assert_snapshot(name, img)



@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize(("players", "k"), [(2, 4), (3, 8), (4, 16), (3, 0)])
def test_every_text_fits_and_is_drawable(lang: str, players: int, k: int) -> None:
    s = summary(players, k, planned=max(k, 4))
    check_scene(layout_match(s, lang))
    decode(render_match(s, lang))


def test_the_strings_have_the_same_keys_and_the_font_has_them() -> None:
    assert MATCH_ZH.keys() == MATCH_EN.keys()
    for text in [*MATCH_ZH.values(), *MATCH_EN.values()]:
        assert set(text.replace("{", "").replace("}", "")) <= fonts.coverage() | set("kn")


def test_a_row_a_hand_and_the_totals_are_the_sums() -> None:
    s = summary(3, 8)
    shown = texts(layout_match(s, "zh"))
    for k in range(1, 9):
        assert f"第 {k} 局" in shown
    assert "第 9 局" not in shown
    totals = s.totals()
    assert totals == tuple(sum(h.points[p] for h in s.hands) for p in range(3))
    assert sum(totals) == 0
    for v in totals:
        assert (f"{v:+,}" if v else "0") in shown
    assert s.wins() == (3, 2, 2) and s.zimo() == (0, 1, 1)  # hands 2 and 6 were 自摸
    assert "总结算 · 8/8 局" in shown


def test_the_winner_has_a_gold_column_and_the_badge() -> None:
    s = summary(3, 4)
    scene = layout_match(s, "en")
    (champion,) = s.champions()
    golden = [b for b in scene.items if isinstance(b, Box) and b.outline == T.GOLD]
    name_box = scene.named[f"name:{champion}"]
    assert len(golden) == 1 and golden[0].rect.x <= name_box.x < golden[0].rect.right
    assert "Winner" in texts(scene)


def test_equal_totals_share_the_win() -> None:
    s = MatchSummary(("A", "B", "C"), 4, (MatchHand((2, 2, -4), 0),))
    assert s.champions() == {0, 1}
    golden = [b for b in layout_match(s).items if isinstance(b, Box) and b.outline == T.GOLD]
    assert len(golden) == 2


def test_the_biggest_hu_names_its_hand_huxi_and_mingtang() -> None:
    s = summary(4, 16)
    i, best = s.biggest()  # type: ignore[misc]
    assert best.huxi == max(h.huxi for h in s.hands)
    line = MATCH_ZH["best"].format(k=i + 1, huxi=best.huxi, mingtang=" ".join(best.mingtang)
                                   or MATCH_ZH["plain"])
    assert line in texts(layout_match(s, "zh"))
    none = MatchSummary(("A", "B"), 4, (MatchHand((0, 0)),))
    assert none.biggest() is None and MATCH_EN["best_none"] in texts(layout_match(none, "en"))


def test_the_leaver_is_marked() -> None:
    s = summary(3, 2, 8, leaver=1)  # left between hands
    scene = layout_match(s, "zh")
    assert s.champions() == {1} and "冠军 · 离开" in texts(scene)  # he led when he left
    assert "总结算 · 2/8 局" in texts(scene)
    ran = summary(3, 2, 8, leaver=2, escaped=True)
    shown = texts(layout_match(ran, "zh"))
    assert ran.escaped() and "逃跑" in shown and "逃" in shown and "总结算 · 3/8 局" in shown


def test_names_are_cut_inside_their_columns() -> None:
    scene = layout_match(summary(4, 4), "en")
    for p in range(4):
        box = scene.named[f"name:{p}"]
        name = next(t for t in scene.items if isinstance(t, Text) and t.px == 22 and not t.bold
                    and t.y == box.y + box.h // 2 and t.x == box.x + box.w // 2)
        assert fonts.font(22).getlength(name.text) <= box.w
    assert scene.width == 780


@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_sample_match_of_the_demo_and_bench_is_a_full_match(players: int) -> None:
    s = sample_summary(players, 16)
    assert len(s.hands) == s.planned == 16 and len(s.names) == players
    assert sum(s.totals()) == 0 and all(len(h.points) == players for h in s.hands)
    check_scene(layout_match(s, "en"))


@pytest.mark.parametrize("lang", LANGS)
def test_a_plain_biggest_hu_says_ping_hu_as_the_hands_caption_does(lang: str) -> None:
    plain = MatchSummary(("A", "B"), 4, (MatchHand((4, -4), 0, huxi=12),))
    strings = MATCH_ZH if lang == "zh" else MATCH_EN
    line = strings["best"].format(k=1, huxi=12, mingtang=t(lang, "settle_plain"))
    assert line in texts(layout_match(plain, lang))
