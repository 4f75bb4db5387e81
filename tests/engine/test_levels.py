"""等级 titles from cumulative points (docs/rules/qq.md, 结算: 等级)."""

import pytest

from engine.rules import TITLES, title_of


@pytest.mark.parametrize(
    "points, title",
    [
        (-500, "包身工"), (0, "包身工"), (29, "包身工"), (30, "短工"), (59, "短工"), (60, "长工"),
        (90, "佃户"), (180, "贫农"), (320, "渔夫"), (530, "猎人"), (839, "猎人"), (840, "中农"),
        (1150, "富农"), (1600, "掌柜"), (2300, "商人"), (3450, "衙役"), (5000, "小财主"),
        (6900, "大财主"), (9200, "小地主"), (12600, "大地主"), (17700, "知县"), (23000, "通判"),
        (32200, "知府"), (46000, "总督"), (69000, "巡抚"), (103000, "丞相"), (160999, "丞相"),
        (161000, "帝王"), (10**9, "帝王"),
    ],
)
def test_title_of(points: int, title: str) -> None:
    assert title_of(points) == title


def test_levels_table_is_ordered_and_complete() -> None:
    thresholds = [t for t, _ in TITLES]
    assert thresholds == sorted(thresholds, reverse=True)
    assert len(TITLES) + 1 == 23  # 22 thresholds plus 包身工
