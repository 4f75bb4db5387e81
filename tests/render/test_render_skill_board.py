"""The skill boards' picture (render/skill_board.py) and /me's skill tile
(render/player_card.py): bars on one scale, the computers' marks across every row, a thin
line to where an unsure rating is heading, shared places; the card's tile only when given."""

from __future__ import annotations

from dataclasses import replace

from engine.standings import places
from render.player_card import PlayerCard, layout_player_card
from render.skill_board import Marker, SkillRow, layout_skill_board

MARKS = [Marker("弱", 750), Marker("中", 800), Marker("强", 860)]


def test_bars_and_marks_share_one_scale() -> None:
    at = places([900, 800, 800, 100])
    rows = [SkillRow(at[0], "Ann", "900", 900, "300 场"),
            SkillRow(at[1], "Bob", "800", 800, "40 场", 850),
            SkillRow(at[2], "Cid", "800", 800, "9 场"), SkillRow(at[3], "Dan", "100", 100, "1 场")]
    scene = layout_skill_board(rows, title="技术评级", heads=("玩家", "评级", ""), markers=MARKS,
                               top=950, empty="—", bottom=400)
    bars = [scene.named[f"bar:{i}"] for i in range(4)]
    assert bars[0].w > bars[1].w == bars[2].w > bars[3].w
    middle = scene.named["mark:中"]
    assert abs(bars[1].right - (middle.x + 1)) <= 1  # 800 ends at the 800 mark
    assert scene.named["reach:1"].right > scene.named["mark:强"].x - 10  # Bob heads to 850
    assert "reach:0" not in scene.named and "reach:2" not in scene.named
    assert bars[3].w == bars[3].h  # below the scale's start: its least bar (the number says)


def test_an_empty_board_says_so() -> None:
    scene = layout_skill_board([], title="技术分", heads=("玩家", "技术分", ""), markers=MARKS,
                               top=100, empty="本赛季还没有复盘过的牌局。")
    assert any(getattr(item, "text", "") == "本赛季还没有复盘过的牌局。" for item in scene.items)


def test_the_cards_skill_tile_only_when_given() -> None:
    card = PlayerCard("Ann", 10, 3, 1, 0, None, None, (5, -2, 7))
    plain = layout_player_card(card)
    tiled = layout_player_card(replace(card, skill=("技术评级 · 3 场", "412")))
    assert "skill" not in plain.named and "skill" in tiled.named
    assert tiled.height > plain.height
    assert tiled.named["chart"].y - plain.named["chart"].y == tiled.height - plain.height
