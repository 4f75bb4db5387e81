"""A table never stops after a claim that loses to a higher one (docs/rules/qq.md, 行牌 · Play:
胡, then 跑, then 碰, then 吃; among 吃 the drawer first): the press that makes the claim lose
is answered with who took the card, and the table is shown again and its clock re-armed, so
the computer player who took it plays on."""

from __future__ import annotations

from support.e2e import action_buttons, hand_message, make_config, running_bot, services
from support.robots import one_human_two_computers

from engine import actions as A

# With this deal seed the first decision Alice has alone is a 吃 of the card the drawer (a
# computer player) 吃s too, while she may also 碰 it: the computer's 吃 comes first in the
# order of claims, and it waited only for her answer.
SEED = 28
LOSING_CHI = "c:x2d2d2+d2d3d4"


async def test_a_lost_chi_against_a_computer_player_does_not_freeze_the_table(tg, tmp_path) -> None:
    config = make_config(tg, tmp_path / "db.sqlite3", seed=SEED)
    async with running_bot(config) as app:
        alice, group, lobby, table = await one_human_two_computers(tg, app)
        await tg.wait_for(lambda: table.status == "playing")  # alone with computers: dealt at once

        def her_chi() -> tuple[object, str] | None:
            decision = table.decisions[0]
            if table.current.hand.to_act() != (0,) or LOSING_CHI not in decision.legal:
                return None
            msg = hand_message(tg, alice)
            current = f"a:{table.id}:{decision.version}:{decision.legal.index(LOSING_CHI)}"
            return (msg, current) if any(d == current for _, d in action_buttons(msg)) else None

        msg, data = await tg.wait_for(her_chi, timeout=20)
        assert A.PENG in table.decisions[0].legal  # she could have 碰ed: the 吃 waited for her
        pressed = len(table.current.hand.log)
        answer = await tg.press(alice, msg.message_id, alice, data)
        taker = table.players[table.current.hand.history[-1].seat]
        assert answer.text == f"{taker.name} 吃 了这张牌" and taker.robot
        # the computer player who took the card discards, and the hand goes on without her
        await tg.wait_for(lambda: len(table.current.hand.log) > pressed + 1
                          or table.status != "playing", timeout=10)
        assert table.current.hand.log[pressed] == (0, LOSING_CHI)
        await services(app).presenter.idle()
