"""The 复式挑战's card and final card as the group reads them: shared places (equal points
and decisions off the strong choice) are marked, and a tie for first names every winner."""

from __future__ import annotations

from support.challenge import scored_runs

from bot.present.screens import challenge as screens
from bot.store.challenges import ChallengeRow
from bot.table import ChallengeStatus
from bot.table.challenges import standings


def test_the_card_marks_a_shared_place_and_the_final_names_both_winners() -> None:
    players, runs = scored_runs((6, 2), (6, 2), (1, 0))
    table = standings(players, runs)
    row = ChallengeRow(7, -100, None, 1, "qq", (11,), 0.0, ChallengeStatus.DONE)
    final = screens.final_text(row, table, {}, "zh")
    assert final.splitlines()[0].endswith("冠军 P0、P1 +6")
    rows = [line for line in final.splitlines() if line[:2] in ("1.", "2.", "3.")]
    assert [row.split(" ")[:2] for row in rows] == [["1.", "P0"], ["1.", "P1"], ["3.", "P2"]]
    assert [row.endswith("(并列)") for row in rows] == [True, True, False]
    assert "2." not in screens.card_text(row, table, "en")
