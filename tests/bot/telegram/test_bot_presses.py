"""Every move press is answered with what happened: a claim that waits for
higher ones says so, a claim overtaken says who took the card, a double tap repeats the first
answer, an outdated button says it is outdated, and only a press out of turn says so."""

from __future__ import annotations

import random

import pytest
from support.e2e import make_config, running_bot
from support.play import start_hand
from support.service import PEOPLE, Clock, Observer, seated

from bot.i18n import t
from bot.store import Store
from bot.table import PressAnswer, Refusal, Table, TableService
from engine import actions as A
from engine import player


@pytest.fixture
async def service(tmp_path):
    store = await Store.open(tmp_path / "db.sqlite3")
    for p in PEOPLE:
        await store.upsert_user(p.user_id, p.name, None, p.lang, dm_ok=True)
    yield TableService(store, Observer(tmp_path / "db.sqlite3"), action_timeout=60,
                       autoplay_delay=1.5, clock=Clock(), rng=random.Random(4))
    await store.close()


def chi_against_peng(table: Table) -> tuple[int, int] | None:
    """(a seat offered only 吃 and 过, a seat offered 碰 but not 胡) when both are awaited."""
    chi = [s for s, d in table.decisions.items()
           if d.legal and any(a.startswith("c:") for a in d.legal) and A.HU not in d.legal
           and A.PENG not in d.legal]
    peng = [s for s, d in table.decisions.items()
            if A.PENG in d.legal and A.HU not in d.legal]
    awaited = [s for s, d in table.decisions.items() if d.legal]
    if chi and peng and len(awaited) == 2:
        return chi[0], peng[0]
    return None


async def play_until_chi_against_peng(service: TableService, table: Table,
                                      rng: random.Random) -> tuple[int, int]:
    """Play sensible moves (hand after hand) until a 吃 and a 碰 wait on the same card."""
    for _ in range(5000):
        if table.status == "between":
            for p in PEOPLE:
                await service.again(table.id, p.user_id)
        found = chi_against_peng(table)
        if found is not None:
            return found
        hand = table.current.hand
        seat = next(s for s, d in table.decisions.items() if d.legal)
        public = [e for e in hand.history if e.visible_to is None]
        action = player.choose(hand.private_view(seat), public, rng)
        decision = table.decisions[seat]
        await service.act(table.id, PEOPLE[seat].user_id, decision.version,
                          decision.legal.index(action))
    pytest.fail("no 吃 met a 碰 in 5000 moves")


def chi_index(table: Table, seat: int) -> int:
    return next(i for i, a in enumerate(table.decisions[seat].legal) if a.startswith("c:"))


async def test_a_chi_waits_for_the_peng_then_is_told_who_took_the_card(service) -> None:
    table = await seated(service)
    chi, peng = await play_until_chi_against_peng(service, table, random.Random(1))
    d_chi, d_peng = table.decisions[chi], table.decisions[peng]
    index = chi_index(table, chi)
    answer = await service.act(table.id, PEOPLE[chi].user_id, d_chi.version, index)
    # not "✓ 吃": the 碰 may still take the card
    assert answer == PressAnswer("claim_pending", d_chi.legal[index])
    assert t("zh", answer.key, move=A.label(answer.move, "zh")).startswith("已选 吃 ")
    assert t("en", answer.key, move="吃").endswith("waiting for the others")
    assert PEOPLE[peng].name not in t("zh", answer.key, move="吃")  # nobody is named
    # the same button again, while it waits: the same answer
    assert await service.act(table.id, PEOPLE[chi].user_id, d_chi.version, index) == answer
    played = await service.act(table.id, PEOPLE[peng].user_id, d_peng.version,
                               d_peng.legal.index(A.PENG))
    assert played == PressAnswer("played", A.PENG)
    with pytest.raises(Refusal) as taken:  # the 吃 pressed again: who took the card
        await service.act(table.id, PEOPLE[chi].user_id, d_chi.version, index)
    assert (taken.value.code, taken.value.fields) == ("taken_peng", {"name": PEOPLE[peng].name})
    assert t("zh", "taken_peng", name="B") == "B 碰 了这张牌"


async def test_a_withdrawn_chi_keyboard_says_who_took_the_card(service) -> None:
    table = await seated(service)
    chi, peng = await play_until_chi_against_peng(service, table, random.Random(2))
    d_chi, d_peng = table.decisions[chi], table.decisions[peng]
    log = list(table.current.hand.log)
    await service.act(table.id, PEOPLE[peng].user_id, d_peng.version, d_peng.legal.index(A.PENG))
    assert not table.decisions[chi].legal  # the 吃 was withdrawn
    for index in range(len(d_chi.legal)):  # any button of the withdrawn keyboard
        with pytest.raises(Refusal) as taken:
            await service.act(table.id, PEOPLE[chi].user_id, d_chi.version, index)
        assert taken.value.code == "taken_peng"
        assert taken.value.fields == {"name": PEOPLE[peng].name}
    assert table.current.hand.log == [*log, (peng, A.PENG)]


async def test_double_tap_outdated_and_out_of_turn_are_told_apart(service) -> None:
    table = await seated(service)
    seat = next(s for s, d in table.decisions.items() if d.legal)
    other = next(s for s, d in table.decisions.items() if not d.legal)
    decision = table.decisions[seat]
    user = PEOPLE[seat].user_id
    first = await service.act(table.id, user, decision.version, 0)
    assert first == PressAnswer("played", decision.legal[0])
    log = list(table.current.hand.log)
    # the same button again: answered like the first, nothing played twice
    assert await service.act(table.id, user, decision.version, 0) == first
    # another button of the keyboard just used: outdated
    if len(decision.legal) > 1:
        with pytest.raises(Refusal, match="stale"):
            await service.act(table.id, user, decision.version, 1)
    assert table.current.hand.log == log
    # a button of a decision that never was the presser's: not his turn (if he has none now)
    if not table.decisions[other].legal:
        with pytest.raises(Refusal, match="not_your_turn"):
            await service.act(table.id, PEOPLE[other].user_id, decision.version, 0)


async def test_through_telegram_an_overtaken_chi_is_told_who_took_the_card(tg, tmp_path) -> None:
    """The same through the real bot: the toasts a player sees."""
    async with running_bot(make_config(tg, tmp_path / "db.sqlite3")) as app:
        users, group, lobby, svc, table = await start_hand(tg, app)
        rng = random.Random(3)
        for _ in range(5000):
            if chi_against_peng(table) is not None:
                break
            if table.status == "between":
                for user in users:
                    await svc.service.again(table.id, user.id)
                continue
            hand = table.current.hand
            seat = next(s for s, d in table.decisions.items() if d.legal)
            public = [e for e in hand.history if e.visible_to is None]
            action = player.choose(hand.private_view(seat), public, rng)
            d = table.decisions[seat]
            await tg.press(group, lobby.message_id, users[seat],
                           f"a:{table.id}:{d.version}:{d.legal.index(action)}")
        chi, peng = chi_against_peng(table)
        d_chi, d_peng = table.decisions[chi], table.decisions[peng]
        index = chi_index(table, chi)
        chi_data = f"a:{table.id}:{d_chi.version}:{index}"
        label = A.label(d_chi.legal[index], "zh")
        answer = await tg.press(group, lobby.message_id, users[chi], chi_data)
        assert answer.text == f"已选 {label},等待其他玩家"
        answer = await tg.press(group, lobby.message_id, users[peng],
                                f"a:{table.id}:{d_peng.version}:{d_peng.legal.index(A.PENG)}")
        assert answer.text == "✓ 碰"
        answer = await tg.press(group, lobby.message_id, users[chi], chi_data)
        assert answer.text == f"{users[peng].first_name} 碰 了这张牌"
