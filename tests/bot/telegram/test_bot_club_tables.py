"""/tables through the real bot and a fake Telegram: in a forum topic every open table of the
group, a line each, with a button that seats the presser at it, whatever its topic (one the
bot cannot message gets the start link); a cup's table played in private chats is not
listed; privately the tables of the groups one plays in, with buttons that seat; a table in
play is listed as such, and /tables and /apart are answered while its hand waits for a
decision. A table's topic is named as the bot last saw it (created or renamed by a member,
or by the bot itself), else by its number."""

from __future__ import annotations

from support.e2e import make_config, running_bot, services
from support.fakebot import FakeChat, FakeTelegram, FakeUser
from support.forum import command

from bot import callbacks as cb
from bot.i18n import t
from bot.store import Tx
from bot.table import Person, Table
from bot.table.cup_tables import open_seated
from engine.rules import get_rule_set


def _line(table: Table, topic: int | str, rules: str, state: str, standing: bool = False) -> str:
    """A table's line; its topic by name (a str) or, a name the bot never saw, by number."""
    where = t("zh", "tables_topic_named", name=topic) if isinstance(topic, str) else \
        t("zh", "tables_topic", topic=topic)
    return t("zh", "tables_line", table=table.id, where=where, rules=rules,
             taken=len(table.players), n=table.rules.players,
             state=t("zh", state)) + (t("zh", "tables_standing") if standing else "")


async def _nothing(tx: Tx, table_id: int) -> None:
    """A cup's record of its table: none here."""


async def test_tables_lists_the_groups_tables_with_buttons_that_seat(tg: FakeTelegram,
                                                                      tmp_path) -> None:
    olga = tg.user("Olga")
    alice, dave, erin, fay, gil = (tg.user(n) for n in ("Alice", "Dave", "Erin", "Fay", "Gil"))
    for user in (alice, dave, fay, gil):
        tg.start_private(user)
    forum = tg.forum("俱乐部", members=(alice, dave, erin, fay), owner=olga)
    one, two = tg.create_topic(forum, "一桌"), tg.create_topic(forum, "二桌")
    config = make_config(tg, tmp_path / "db.sqlite3", full_start_delay=0.0)
    async with running_bot(config) as app:
        svc = services(app)
        asked = await command(tg, forum, dave, "/tables hunan", one)
        assert asked.text == t("zh", "tables_usage")
        none_here = await command(tg, forum, dave, "/tables", one)
        assert none_here.text == t("zh", "tables_none") and not none_here.keyboard
        await tg.send_text(erin, erin, "/start")
        await tg.wait_reply(tg.messages(erin, include_users=True)[-1])
        await tg.send_text(erin, erin, "/tables")
        await tg.wait_for(lambda: tg.messages(erin)[-1].text == t("zh", "tables_none_private"))
        await command(tg, forum, alice, "/new", one)
        await command(tg, forum, olga, "/new hunan 4 常驻", two)
        first, standing = svc.service.in_chat(forum.id, one), svc.service.in_chat(forum.id, two)
        assert first is not None and standing is not None
        # a 群杯's table played in private chats takes no place in the group: not listed
        await svc.store.upsert_user(gil.id, "Gil", None, "zh", dm_ok=True)
        cup = await open_seated(svc.service, (forum.id, None), get_rule_set("qq"),
                                [Person(gil.id, "Gil", "zh"), None, None], _nothing,
                                private=True)
        # in topic one: both tables, each with a button that seats, topic two's too
        listing = await command(tg, forum, dave, "/tables", one)
        assert listing.text == "\n".join([
            t("zh", "tables_head"), _line(first, "一桌", "QQ跑胡子 · 3人", "tables_waiting"),
            _line(standing, "二桌", "湖南跑胡子 · 4人", "tables_waiting", standing=True)])
        assert listing.keyboard == [[(t("zh", "btn_tables_seat", table=first.id),
                                      cb.Join(first.id, 0).pack())],
                                    [(t("zh", "btn_tables_seat", table=standing.id),
                                      cb.Join(standing.id, 0).pack())]]
        # one the bot cannot message yet gets the start link that seats him
        answer = await tg.press_button(listing, olga, t("zh", "btn_tables_seat",
                                                        table=standing.id))
        assert answer.url == svc.presenter.deep_link(standing.id)
        assert standing.seat_of(olga.id) is None
        await tg.press_button(listing, dave, t("zh", "btn_tables_seat", table=first.id))
        await tg.wait_for(lambda: first.seat_of(dave.id) is not None)
        await tg.press_button(listing, fay, t("zh", "btn_tables_seat", table=standing.id))
        await tg.wait_for(lambda: standing.seat_of(fay.id) is not None)
        assert cup.seat_of(gil.id) == 0 and cup.private
        # privately: the tables of the groups Erin plays in (here: asked /notify of)
        await command(tg, forum, erin, "/notify", one)
        await tg.send_text(erin, erin, "/tables")
        await tg.wait_for(lambda: (tg.messages(erin)[-1].text or "").startswith(
            t("zh", "tables_head_private")))
        mine = tg.messages(erin)[-1]
        assert mine.text.splitlines()[1:] == [  # type: ignore[union-attr]
            t("zh", "tables_group", chat="俱乐部"),
            _line(first, "一桌", "QQ跑胡子 · 3人", "tables_waiting"),
            _line(standing, "二桌", "湖南跑胡子 · 4人", "tables_waiting", standing=True)]
        assert [data for _, data in mine.buttons] == [cb.Join(first.id, 0).pack(),
                                                      cb.Join(standing.id, 0).pack()]
        await tg.press_button(mine, erin, t("zh", "btn_tables_seat", table=standing.id))
        await tg.wait_for(lambda: standing.seat_of(erin.id) is not None)
        # a table in play: listed as such, no button, answered while its hand waits
        for _ in range(2):
            await tg.send_text(forum, fay, "/addbot", topic=two)
        await tg.wait_for(lambda: standing.status == "playing", timeout=20)
        during = await command(tg, forum, dave, "/tables", one)
        assert during.text.splitlines()[2] == _line(  # type: ignore[union-attr]
            standing, "二桌", "湖南跑胡子 · 4人", "tables_running", standing=True)
        assert [data for _, data in during.buttons] == [cb.Join(first.id, 0).pack()]
        asked_apart = await tg.send_text(forum, olga, "/apart", topic=two)
        apart = await tg.wait_reply(asked_apart, match=lambda m: m.thread_id == two
                                    and m.photo is None)  # not the hand's table picture
        assert apart.text == t("zh", "apart_list_none")
        # a listing's button of a table that moved on is outdated
        late = await tg.press_button(mine, olga, t("zh", "btn_tables_seat", table=standing.id))
        assert late.text == t("zh", "stale") and standing.seat_of(olga.id) is None


async def _listed(tg: FakeTelegram, forum: FakeChat, user: FakeUser, topic: int) -> list[str]:
    return (await command(tg, forum, user, "/tables", topic)).text.splitlines()[1:]  # type: ignore[union-attr]


async def test_tables_names_a_topic_as_last_seen_else_by_number(tg: FakeTelegram,
                                                                tmp_path) -> None:
    """A topic made before anyone was in the group (its creation unseen) goes by its number
    until a member renames it; one made with the bot there by its name, renamed too; an
    icon's change alone keeps the name; the names stay over a restart."""
    forum = tg.forum("论坛")
    unseen = tg.create_topic(forum, "老桌")  # a forum of nobody yet: no service message
    alice, bob = tg.user("Alice"), tg.user("Bob")
    for user in (alice, bob):
        tg.start_private(user)
        forum.members[user.id] = "member"
    config = make_config(tg, tmp_path / "db.sqlite3")
    async with running_bot(config) as app:
        svc = services(app)
        seen = tg.create_topic(forum, "一桌", by=bob)
        await command(tg, forum, alice, "/new", unseen)
        await command(tg, forum, bob, "/new hunan 3", seen)
        old, new = svc.service.in_chat(forum.id, unseen), svc.service.in_chat(forum.id, seen)
        assert old is not None and new is not None
        assert await _listed(tg, forum, alice, unseen) == [
            _line(old, unseen, "QQ跑胡子 · 3人", "tables_waiting"),
            _line(new, "一桌", "湖南跑胡子 · 3人", "tables_waiting")]
        tg.rename_topic(forum, unseen, "老友桌", by=alice)
        tg.rename_topic(forum, seen, "湖南桌", by=bob)
        # the service messages and the /tables after them are one chat's: in order
        listed = [_line(old, "老友桌", "QQ跑胡子 · 3人", "tables_waiting"),
                  _line(new, "湖南桌", "湖南跑胡子 · 3人", "tables_waiting")]
        assert await _listed(tg, forum, bob, seen) == listed
        icon = tg.world.add_message(forum, alice, thread_id=seen)  # a new icon, no name
        tg.world.push_update("message", {**icon.to_json(), "forum_topic_edited": {
            "icon_custom_emoji_id": "5312241539987020022"}})
        assert await _listed(tg, forum, bob, seen) == listed
    async with running_bot(config) as app:
        assert await _listed(tg, forum, alice, unseen) == listed
        assert await services(app).store.topic_names(forum.id) == {unseen: "老友桌",
                                                                   seen: "湖南桌"}
