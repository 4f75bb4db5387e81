"""/apart through the real bot and a fake Telegram: an admin keeps two players from sitting at
one table of the group, by username or in reply to one's message; the second of them is
refused privately (by /join, the lobby's 加入 and the deep link alike) and the group hears
nothing of it, at every table and topic of the group, until /apart off. Every wrong use is
answered with a short reason and changes nothing."""

from __future__ import annotations

import pytest
from support.e2e import make_config, running_bot, services
from support.fakebot import FakeChat, FakeTelegram, FakeUser
from support.forum import command
from telegram.ext import Application

from bot.i18n import t
from bot.table import Refusal
from bot.telegram.club import apart_args


@pytest.mark.parametrize(("args", "asked"), [
    ([], (True, [])),
    (["@alice", "@bob"], (True, ["alice", "bob"])),
    (["@bob"], (True, ["bob"])),
    (["OFF", "@alice", "@bob"], (False, ["alice", "bob"])),
])
def test_apart_reads_its_words(args: list[str], asked: tuple[bool, list[str]]) -> None:
    assert apart_args(args) == asked


@pytest.mark.parametrize("args", [["off"], ["alice"], ["@"], ["@a", "@b", "@c"],
                                  ["off", "@a", "@b", "@c"]])
def test_apart_refuses_other_words(args: list[str]) -> None:
    with pytest.raises(Refusal) as refused:
        apart_args(args)
    assert refused.value.code == "apart_usage"


async def _refused_privately(tg: FakeTelegram, app: Application,  # type: ignore[type-arg]
                             forum: FakeChat, topic: int, user: FakeUser, other: str) -> None:
    """``user``'s /join in ``topic`` is refused in his private chat with the reason, and the
    group is told nothing."""
    svc = services(app)
    table = svc.service.in_chat(forum.id, topic)
    assert table is not None
    in_group = len(tg.messages(forum))
    await tg.send_text(forum, user, "/join", topic=topic)
    await tg.wait_for(lambda: tg.messages(user)[-1].text ==
                      t("zh", "apart_refused", name=other))
    await svc.presenter.idle()
    assert len(tg.messages(forum)) == in_group and table.seat_of(user.id) is None


async def test_apart_holds_across_tables_and_topics(tg: FakeTelegram, tmp_path) -> None:
    olga = tg.user("Olga")
    alice, bob, carol = (tg.user(n, username=n.lower()) for n in ("Alice", "Bob", "Carol"))
    for user in (alice, bob, carol):
        tg.start_private(user)
    forum = tg.forum("俱乐部", members=(alice, bob, carol), owner=olga)
    one, two = tg.create_topic(forum, "一桌"), tg.create_topic(forum, "二桌")
    async with running_bot(make_config(tg, tmp_path / "db.sqlite3")) as app:
        svc = services(app)

        async def says(user: FakeUser, text: str, topic: int | None = one, **fields: object) \
                -> str | None:
            return (await command(tg, forum, user, text, topic, **fields)).text  # type: ignore[arg-type]
        # the wrong chat, a non-admin, wrong words: a reason each, nothing kept
        await tg.send_text(bob, bob, "/apart @alice @bob")
        assert (await tg.wait_reply(tg.messages(bob, include_users=True)[-1])).text == \
            t("zh", "group_only")
        assert await says(carol, "/apart @alice @bob") == t("zh", "apart_admin_only")
        lobby = await command(tg, forum, alice, "/new", one)  # Alice known by her username
        assert await says(bob, "/begin", two) == t("zh", "no_table")  # and Bob by his
        assert await says(olga, "/apart @alice @nobody") == t("zh", "apart_unknown", name="nobody")
        for wrong in ("/apart @alice", "/apart off", "/apart alice bob", "/apart @a @b @c"):
            assert await says(olga, wrong) == t("zh", "apart_usage")
        assert await says(olga, "/apart @alice @ALICE") == t("zh", "apart_same")
        assert await says(olga, "/apart") == t("zh", "apart_list_none")
        assert await svc.store.apart_pairs(forum.id) == []
        # kept apart: Bob may not sit with Alice, told privately whichever way he asks
        assert await says(olga, "/apart @alice @bob") == t("zh", "apart_set", a="Alice", b="Bob")
        assert await says(olga, "/apart @Alice @bob") == \
            t("zh", "apart_already", a="Alice", b="Bob")
        await _refused_privately(tg, app, forum, one, bob, "Alice")
        answer = await tg.press_button(lobby, bob, t("zh", "btn_join"))
        assert answer.text == t("zh", "apart_refused", name="Alice")
        await tg.send_text(bob, bob, f"/start j{svc.service.in_chat(forum.id, one).id}")  # type: ignore[union-attr]
        await tg.wait_for(lambda: tg.messages(bob)[-1].text ==
                          t("zh", "apart_refused", name="Alice"))
        # at another table, in another topic: the same
        await tg.send_text(forum, alice, "/leave", topic=one)
        await tg.wait_for(lambda: svc.service.in_chat(forum.id, one) is None)
        await command(tg, forum, bob, "/new", two)
        await _refused_privately(tg, app, forum, two, alice, "Bob")
        # in reply to Carol's message: Carol and Bob apart too
        hello = await tg.send_text(forum, carol, "/rules", topic=two)
        await tg.wait_reply(hello)
        assert await says(olga, "/apart @bob", two, reply_to=hello) == \
            t("zh", "apart_set", a="Carol", b="Bob")
        assert await says(olga, "/apart") == "\n".join(
            [t("zh", "apart_list_head"), "Alice — Bob", "Bob — Carol"])
        await _refused_privately(tg, app, forum, two, carol, "Bob")
        # undone: Alice sits with Bob again
        assert await says(olga, "/apart off @alice @bob") == \
            t("zh", "apart_off", a="Alice", b="Bob")
        assert await says(olga, "/apart off @alice @bob") == \
            t("zh", "apart_not_set", a="Alice", b="Bob")
        await tg.send_text(forum, alice, "/join", topic=two)
        table = svc.service.in_chat(forum.id, two)
        assert table is not None
        await tg.wait_for(lambda: table.seat_of(alice.id) is not None)
