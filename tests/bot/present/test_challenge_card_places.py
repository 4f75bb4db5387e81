"""The 复式挑战's card and final card as the group reads them: shared places (equal points
and decisions off the strong choice) are marked, and a tie for first names every winner."""

from __future__ import annotations

from dataclasses import dataclass

from bot.present.screens import challenge as screens
from bot.store.challenges import ChallengePlayerRow, ChallengeRow
from bot.table import ChallengeStatus
from bot.table.challenges import Run, standings
from engine.rules import get_rule_set


@dataclass
class _Ran(Run):
    total: int = 0

    def points(self) -> int:
        return self.total

    def played(self) -> int:
        return 1


def _runs(*figures: tuple[int, int]) -> tuple[list[ChallengePlayerRow], dict[int, Run]]:
    rules = get_rule_set("qq")
    players = [ChallengePlayerRow(10 + k, f"P{k}", "zh", "done", float(k))
               for k in range(len(figures))]
    return players, {p.user_id: _Ran(rules, (1,), [], offs, points)
                     for p, (points, offs) in zip(players, figures, strict=True)}


def test_the_card_marks_a_shared_place_and_the_final_names_both_winners() -> None:
    players, runs = _runs((6, 2), (6, 2), (1, 0))
    table = standings(players, runs)
    row = ChallengeRow(7, -100, None, 1, "qq", (11,), 0.0, ChallengeStatus.DONE)
    final = screens.final_text(row, table, {}, "zh")
    assert final.splitlines()[0].endswith("冠军 P0、P1 +6")
    rows = [line for line in final.splitlines() if line[:2] in ("1.", "2.", "3.")]
    assert [row.split(" ")[:2] for row in rows] == [["1.", "P0"], ["1.", "P1"], ["3.", "P2"]]
    assert [row.endswith("(并列)") for row in rows] == [True, True, False]
    assert "2." not in screens.card_text(row, table, "en")
