"""Group buttons carry what they belong to: the lobby's carry the table's latest
hand (0 before the first), a settlement's 再来一局 / 离开 (shown under each seat's private
result, the group's own kinds) its hand, and one shown before the table moved on is refused as
outdated, before and after a restart. An old settlement's 再来一局 never counts for a later
hand, and its 离开 pressed during a hand is never a 逃跑."""

from __future__ import annotations

import random

from support.e2e import make_config, running_bot, services
from support.fakebot import FakeMessage, FakeTelegram
from support.play import live_result, play_hand, start_hand
from support.posted import settlement_id

from bot import callbacks as cb
from bot.i18n import t


def group_buttons(tg: FakeTelegram, msg: FakeMessage) -> dict[str, str]:
    """The table's callback buttons (label → data) the message shows now: not the 验证 that
    stays under every settlement (``bot.present.verify``)."""
    current = tg.message(msg.chat, msg.message_id)
    assert current is not None
    return {text: data for row in current.keyboard for text, data in row
            if data and not isinstance(cb.parse(data), cb.Verify)}


def settlement_of(tg: FakeTelegram, group, hand_id: int, svc) -> FakeMessage:  # type: ignore[no-untyped-def]
    table = svc.service.in_chat(group.id)
    assert table.current.id == hand_id and settlement_id(svc, table) is not None
    msg = tg.message(group, settlement_id(svc, table))
    assert msg is not None
    return msg


async def test_old_group_buttons_are_refused_before_and_after_a_restart(
        tg: FakeTelegram, tmp_path) -> None:  # noqa: F811
    config = make_config(tg, tmp_path / "db.sqlite3", ready_timeout=600)
    rng = random.Random(7)
    async with running_bot(config) as app:
        users, group, lobby, svc, table = await start_hand(tg, app)
        alice, bob, carol = users
        first = table.current.id
        table = await play_hand(tg, app, users, group, rng)
        assert table.status == "between"
        settle1 = settlement_of(tg, group, first, svc)
        assert not group_buttons(tg, settle1)  # each seat has them in private
        result = await tg.wait_for(lambda: live_result(tg, alice))
        old = {label: data for label, data in group_buttons(tg, result).items()
               if data[0] in "gq"}  # 再来一局 and 离开 of hand 1
        assert set(old) == {t("zh", "btn_again"), t("zh", "btn_leave")}
        for user in users:
            assert (await tg.press(group, settle1.message_id, user,
                                   old[t("zh", "btn_again")])).text == t("zh", "ready")
        await svc.presenter.idle()
        assert table.status == "playing" and table.current.id != first
        second = table.current.id
        # hand 1's 离开 during hand 2: outdated, not a 逃跑
        answer = await tg.press(group, settle1.message_id, carol, old[t("zh", "btn_leave")])
        assert (answer.text, answer.show_alert) == (t("zh", "stale"), False)
        assert table.status == "playing" and table.seat_of(carol.id) == 2
        table = await play_hand(tg, app, users, group, rng)
        assert table.status == "between"
        # hand 1's 再来一局 after hand 2: outdated, nobody is made ready for hand 3
        answer = await tg.press(group, settle1.message_id, alice, old[t("zh", "btn_again")])
        assert answer.text == t("zh", "stale")
        assert not any(p.ready for p in table.players.values())
    async with running_bot(config) as app:
        svc = services(app)
        await svc.presenter.idle()
        table = svc.service.in_chat(group.id)
        settle2 = settlement_of(tg, group, second, svc)
        assert not [m for m in tg.messages(group) if group_buttons(tg, m)]
        for data in old.values():  # hand 1's buttons, still outdated after the restart
            answer = await tg.press(group, settle1.message_id, bob, data)
            assert answer.text == t("zh", "stale")
        assert table.seat_of(bob.id) == 1 and not table.players[1].ready
        result = live_result(tg, bob)
        assert result is not None
        again = group_buttons(tg, result)[t("zh", "btn_again")]
        assert again.endswith(f":{table.current.id}")  # hand 2's
        assert (await tg.press(group, settle2.message_id, bob, again)).text == t("zh", "ready")
