"""打鸟 at a hunan 4-seat table: onlookers place birds before a deal, the last stock card names
the seat each follows, and the birds' points are stored with the hand's results (zero-sum),
counted in the group's leaderboard of the rule set, and shown in the settlement.

The figures expected here come from ``engine.birds`` applied to the played outcome, never from
the store, so a lost or doubled bird shows as a mismatch."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from support.e2e import make_config, running_bot, services
from support.fakebot import FakeTelegram
from support.posted import settlement_id
from support.robots import alice_plays
from support.service import Counting
from support.stats import play_out

from bot.commands import rulebook
from bot.i18n import t
from bot.present.birds import waiting_line
from bot.store import Score, Store
from bot.table import HandRecord, Person, Refusal, Table, TableService, birds
from engine.birds import bird_seat, settle_birds
from engine.points import signed
from engine.rules import table_rules

HUNAN4 = table_rules("hunan", 4)
SEATED = [Person(10 + i, n, "zh") for i, n in enumerate(("Ann", "Bo", "Cy", "Di"))]
EVE, FAY, GUS = (Person(20 + i, n, "zh") for i, n in enumerate(("Eve", "Fay", "Gus")))
CHAT = -100


@pytest.fixture
async def world(tmp_path: Path):
    store = await Store.open(tmp_path / "db.sqlite3")
    for p in (*SEATED, EVE, FAY, GUS):
        await store.upsert_user(p.user_id, p.name, None, p.lang, dm_ok=True)
    observer = Counting()
    service = TableService(store, observer, action_timeout=60, autoplay_delay=1,
                           rng=random.Random(1))
    yield service, observer, store
    await store.close()


async def _full_table(service: TableService) -> Table:
    table = await service.open(CHAT, SEATED[0], HUNAN4)
    for p in SEATED[1:]:
        await service.join(table.id, p)
    return table


async def test_who_may_place_a_bird_and_when(world) -> None:
    service, observer, store = world
    table = await _full_table(service)
    mark = service.button_mark(table)
    changes = observer.changes
    assert await service.toggle_bird(table.id, mark, EVE.user_id) is True
    assert observer.changes == changes + 1  # the lobby is shown again, with the bird
    assert await service.toggle_bird(table.id, mark, FAY.user_id) is True
    assert await service.toggle_bird(table.id, mark, FAY.user_id) is False  # withdrawn
    assert await service.toggle_bird(table.id, mark, FAY.user_id) is True
    with pytest.raises(Refusal) as seated:
        await service.toggle_bird(table.id, mark, SEATED[2].user_id)
    assert seated.value.code == "bird_seated"
    with pytest.raises(Refusal) as stale:
        await service.toggle_bird(table.id, mark + 1, GUS.user_id)
    assert stale.value.code == "stale"
    assert [b.name for b in await birds.waiting(store, table)] == ["Eve", "Fay"]
    await service.begin(table.id, SEATED[0].user_id)
    with pytest.raises(Refusal) as playing:  # the deal has begun: the lobby's button is old
        await service.toggle_bird(table.id, mark, GUS.user_id)
    assert playing.value.code == "stale"
    assert await birds.waiting(store, table) == []
    assert [b.name for b in await store.hand_birds(table.current.id)] == ["Eve", "Fay"]


async def test_no_birds_where_the_rules_have_none(world) -> None:
    service, _, store = world
    table = await service.open(CHAT, SEATED[0], table_rules("hunan", 3))
    with pytest.raises(Refusal) as refused:
        await service.toggle_bird(table.id, service.button_mark(table), EVE.user_id)
    assert refused.value.code == "stale"
    assert waiting_line(table.rules, [], "zh") is None


async def test_birds_settle_with_the_hand_zero_sum_and_count_as_birds(world) -> None:
    service, observer, store = world
    table = await _full_table(service)
    rng = random.Random(7)
    played: list[tuple[HandRecord, tuple[int, ...]]] = []  # each hand and its birds' users
    for n in range(4):
        mark = service.button_mark(table)
        onlookers = (EVE, FAY) if n % 2 == 0 else (GUS,)
        for p in onlookers:
            await service.toggle_bird(table.id, mark, p.user_id)
        if n == 0:
            await service.begin(table.id, SEATED[0].user_id)
        else:
            for p in SEATED:
                await service.again(table.id, p.user_id)
        await play_out(service, table, rng)
        played.append((table.current, tuple(p.user_id for p in onlookers)))
    expected: dict[int, list[int]] = {}  # user -> [points, hands, wins, birds]
    results = {h.id: h.points for h in await store.finished_hands(CHAT, 10)}
    shares: list[int] = []  # what one bird of each hand got
    for record, bird_users in played:
        outcome = record.hand.outcome
        each, extra = settle_birds(HUNAN4, outcome, record.hand.dealer, len(bird_users))
        seat = bird_seat(HUNAN4, record.hand.dealer, outcome.bird_card)
        rows = await store.hand_birds(record.id)
        assert [(b.user_id, b.seat, b.points) for b in rows] == \
            [(u, seat, each) for u in bird_users]
        stored = list(results[record.id])
        assert stored == [p + e for p, e in zip(outcome.points, extra, strict=True)]
        assert stored == [p.total for p in birds.seat_points(record, rows)]
        assert sum(stored) + each * len(bird_users) == 0  # zero-sum, the birds counted in
        shares.append(each)
        for s, user in enumerate(record.users):
            row = expected.setdefault(user, [0, 0, 0, 0])
            row[0] += stored[s]
            row[1] += 1
            row[2] += s == outcome.winner
        for user in bird_users:
            row = expected.setdefault(user, [0, 0, 0, 0])
            row[0] += each
            row[3] += 1
    assert min(shares) < 0 < max(shares)  # birds won and lost (a win and a 荒醒 among them)
    for user, (points, hands, wins, n) in expected.items():
        assert (await store.scores(user, CHAT))["hunan"] == Score(points, hands, wins, n)
    assert (await store.scores(EVE.user_id))["hunan"].hands == 0
    ranked = {r.user_id: r.birds for r in await store.ranking(CHAT, rule_set="hunan")}
    assert ranked[EVE.user_id] == 2 and ranked[GUS.user_id] == 2 and ranked[10] == 0


async def test_a_hunan_table_with_two_birds_through_the_bot(tg: FakeTelegram,  # noqa: F811
                                                            tmp_path: Path) -> None:
    """Alice and three computers at a hunan 4-seat table; Bob and Cy, not seated, place birds
    in the lobby (Alice may not; Bob withdraws and places his again). After a restart in the
    middle of the hand, it is played to its settlement, which names the birds with their
    points; the leaderboard counts them; the birds got no private message."""
    config = make_config(tg, tmp_path / "db.sqlite3")
    alice, bob, cy = (tg.user(n, language_code="zh-hans") for n in ("Alice", "Bob", "Cy"))
    group = tg.group("湖南群", members=(alice, bob, cy))
    tg.start_private(alice)
    bird_button = t("zh", "btn_bird")
    async with running_bot(config) as app:
        lobby = await tg.wait_reply(await tg.send_text(group, alice, "/new 湖南 4"))
        assert t("zh", "birds_none") in lobby.text and bird_button in buttons(lobby)
        table = services(app).service.in_chat(group.id)
        for _ in range(2):  # the last seat after the birds: alone with computers, it deals
            await tg.send_text(group, alice, "/addbot")
        await tg.wait_for(lambda: len(table.players) == 3)
        assert (await tg.press_button(lobby, alice, bird_button)).text == t("zh", "bird_seated")
        for user, toast in ((bob, "bird_placed"), (bob, "bird_withdrawn"), (cy, "bird_placed"),
                            (bob, "bird_placed")):
            assert (await tg.press_button(lobby, user, bird_button)).text == t("zh", toast)
        waiting = t("zh", "birds_waiting", names="Cy、Bob")
        await tg.wait_for(lambda: waiting in (tg.message(group, lobby.message_id).text or ""))
        bird_data = next(d for row in tg.message(group, lobby.message_id).keyboard
                         for text, d in row if text == bird_button)
        await tg.send_text(group, alice, "/addbot")
        await tg.wait_for(lambda: table.status == "playing")  # at once
        assert (await tg.press(group, lobby.message_id, cy, bird_data)).text == t("zh", "stale")
        await alice_plays(tg, app, alice, table, random.Random(3),
                          until=lambda: len(table.current.hand.log) >= 8)
        record_id = table.current.id
    async with running_bot(config) as app:  # a restart in the middle of the hand
        svc = services(app)
        table = svc.service.in_chat(group.id)
        assert table.status == "playing" and table.current.id == record_id
        await alice_plays(tg, app, alice, table, random.Random(3))
        assert table.status == "between"
        await svc.presenter.idle()
        record = table.current
        outcome = record.hand.outcome
        each, extra = settle_birds(HUNAN4, outcome, record.hand.dealer, 2)
        seat = bird_seat(HUNAN4, record.hand.dealer, outcome.bird_card)
        settlement = tg.message(group, settlement_id(app, table, record))
        assert settlement.photo_bytes and bird_button in buttons(settlement)
        lines = settlement.caption.splitlines()
        followed = lines.index(t("zh", "birds_followed", name=record.names[seat]))
        assert lines[followed + 1:followed + 3] == [
            t("zh", "birds_points", name=name, points=signed(each)) for name in ("Cy", "Bob")]
        totals = {u: outcome.points[s] + extra[s] for s, u in enumerate(record.users)}
        for s, name in enumerate(record.names):  # the hand's points with the birds' part
            line = next(line for line in lines if line.startswith(name))
            birds_part = f"打鸟 {extra[s]:+d}" if extra[s] else None
            assert line.split(": ")[1].startswith(signed(outcome.points[s] + extra[s])), line
            assert (birds_part in line) if birds_part else "打鸟" not in line, line
            assert line.endswith(f"累计 {signed(totals[record.users[s]])})"), line
        shares = [e for e in extra if e]
        assert shares and each != 0
        rank = await tg.wait_reply(await tg.send_text(group, bob, "/rank"))  # the table's rules
        assert rank.caption.splitlines()[0] == t("zh", "rank_group", n=10, rules=t("zh", "rs_hunan"))
        assert rank.caption == (await tg.wait_reply(await tg.send_text(group, bob, "/rank hunan"))).caption
        assert "Bob" not in (await tg.wait_reply(await tg.send_text(group, bob, "/rank qq"))).text
        rules = await tg.wait_reply(await tg.send_text(group, cy, "/rules"))
        assert rules.document.file_name == "hunan.md"
        assert rules.caption.startswith(rulebook.summary(table.rules, "zh"))
        bob_line = next(line for line in rank.caption.splitlines() if " Bob · " in line)
        # Cy's bird won the same: they share a place
        assert bob_line.endswith(t("zh", "rank_birds", birds=1) + t("zh", "place_tied"))
        assert f" {each} 分 " in bob_line
        assert tg.messages(bob) == [] and tg.messages(cy) == []  # birds get no DMs
        assert await svc.store.scores(bob.id, group.id) == {"hunan": Score(each, 0, 0, 1)}


def buttons(message) -> list[str]:
    return [text for text, _ in message.buttons]
