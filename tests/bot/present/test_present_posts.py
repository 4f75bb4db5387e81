"""The posting room without Telegram: one call shows a screen (sent, then edited, sent again
once deleted), its id is the store's too (a restart reads it back), a group's posts stay in
the chat they were made in, and a seat's are his only while he sits there. A message kept
for a cup, a challenge or a vote is reserved in the store before it is sent; a final card
whose send may have gone out is never posted again."""

from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from support.service import PEOPLE, Counting
from telegram.error import BadRequest, TimedOut

from bot.present.posts import Kept, Post, Posts
from bot.store import Store
from bot.store.posts import RESERVED, Slot
from bot.table import Table, TableService


@dataclass
class Sent:
    message_id: int


class Screen:
    """A screen's sends and edits, as a chat would take them (``gone``: deleted there)."""

    def __init__(self) -> None:
        self.calls: list[tuple[str, int]] = []
        self.gone: set[int] = set()
        self._next = 100

    async def send(self) -> Sent:
        self._next += 1
        self.calls.append(("send", self._next))
        return Sent(self._next)

    async def edit(self, msg_id: int) -> None:
        if msg_id in self.gone:
            raise BadRequest("Message to edit not found")
        self.calls.append(("edit", msg_id))


@pytest.fixture
async def service(tmp_path: Path) -> AsyncIterator[TableService]:
    store = await Store.open(tmp_path / "db.sqlite3")
    for p in PEOPLE:
        await store.upsert_user(p.user_id, p.name, None, p.lang)
    yield TableService(store, Counting(), action_timeout=60, autoplay_delay=1.5)
    await store.close()


async def dealt(service: TableService) -> Table:
    table = await service.open(-1, PEOPLE[0])
    for p in PEOPLE[1:]:
        await service.join(table.id, p)
    return await service.begin(table.id, PEOPLE[0].user_id)


async def test_a_screen_is_sent_edited_and_sent_again_once_deleted(
        service: TableService) -> None:
    table, posts, screen = await dealt(service), Posts(service.store), Screen()
    assert table.current is not None
    post = Post.picture(table, table.current)
    assert await posts.show(post, screen.send, screen.edit) == 101
    assert await posts.show(post, screen.send, screen.edit) == 101
    screen.gone.add(101)
    assert await posts.show(post, screen.send, screen.edit) == 102
    screen.gone.add(102)
    assert await posts.show(post, screen.send, screen.edit, again=False) is None
    assert screen.calls == [("send", 101), ("edit", 101), ("send", 102)]
    restarted = Posts(service.store)  # the store is the record
    await restarted.load(table)
    assert restarted.get(post) == 102


async def test_a_group_post_stays_in_the_chat_it_was_made_in(service: TableService) -> None:
    table, posts = await dealt(service), Posts(service.store)
    assert table.current is not None
    await posts.remember(Post.lobby(table), 7)
    await posts.remember(Post.settlement(table, table.current), 8)
    seat = Post.seat_picture(table, table.current, 0, PEOPLE[0].user_id)
    await posts.remember(seat, 9)
    await service.move_chat(-1, -2)
    assert posts.get(Post.lobby(table)) is None
    assert posts.get(Post.settlement(table, table.current)) is None
    assert posts.get(seat) == 9  # his private chat did not move
    restarted = Posts(service.store)
    await restarted.load(table)
    assert restarted.get(Post.lobby(table)) is None
    assert restarted.get(Post.settlement(table, table.current)) is None
    assert restarted.get(seat) == 9


async def test_a_seat_post_is_his_while_he_sits_there(service: TableService) -> None:
    table = await service.open(-1, PEOPLE[0])
    await service.join(table.id, PEOPLE[1])
    posts, bob = Posts(service.store), PEOPLE[1].user_id
    ping = Post.ping(table, 1, bob)
    await posts.remember(ping, 5)
    assert posts.get(ping) == 5
    await service.leave(table.id, bob)
    posts.seated(table)
    assert posts.get(ping) is None
    await service.join(table.id, PEOPLE[1])  # back at the same seat: no ping of his yet
    await posts.remember(Post.ping(table, 1, PEOPLE[2].user_id), 6)  # not his seat
    assert posts.get(ping) is None
    restarted = Posts(service.store)
    await restarted.load(table)
    assert restarted.get(ping) is None


async def test_a_kept_message_is_reserved_before_it_is_sent_and_found_after_a_restart(
        service: TableService) -> None:
    store, screen = service.store, Screen()
    card = Kept(Slot.CUP_CARD, 1, -1)
    reserved: list[int | None] = []

    async def send() -> Sent:
        reserved.append(await store.kept(card.slot, *card.stored))
        return await screen.send()

    posts = Posts(store)
    assert await posts.keep(card, send, screen.edit, "a") == 1
    assert reserved == [RESERVED]  # in the store before the send
    assert await store.kept(card.slot, *card.stored) == 101
    assert await posts.keep(card, send, screen.edit, "a") == 0  # shows that already
    assert await posts.keep(card, send, screen.edit, "b") == 1
    restarted = Posts(store)
    assert await restarted.keep(card, send, screen.edit, "c") == 1  # found: edited
    assert await restarted.keep(Kept(Slot.CUP_CARD, 1, -2), send, screen.edit, "c") == 1
    assert screen.calls == [("send", 101), ("edit", 101), ("edit", 101), ("send", 102)]


async def test_a_final_card_whose_send_timed_out_is_never_posted_again(
        service: TableService) -> None:
    store, screen = service.store, Screen()

    async def lost() -> Sent:
        raise TimedOut()

    for slot, again in ((Slot.CUP_FINAL, 0), (Slot.CUP_CARD, 1)):
        kept = Kept(slot, 1, -1)
        with pytest.raises(TimedOut):  # it may have reached the group
            await Posts(store).keep(kept, lost, screen.edit)
        # a restart finds it reserved: a final card may be there, a card is posted afresh
        assert await Posts(store).keep(kept, screen.send, screen.edit) == again
    assert screen.calls == [("send", 101)]
