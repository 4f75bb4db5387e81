"""A 群杯's tables (:mod:`bot.table.cup_service`) are ordinary tables of the group, played by
the table service; these are the three changes the cup makes to them: one opened with its
players already seated (computer players in the empty seats) and dealt at once, one dealt
its next hand without waiting for 再来一局, and one closed when its hands are played."""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence

from bot.store import Tx
from bot.table import lobby, owners, play
from bot.table.model import CupPlace, Person, Player, Table, TableStatus
from bot.table.service import TableService
from engine.rules import RuleSet


async def open_seated(service: TableService, place: tuple[int, int | None], rules: RuleSet,
                      people: Sequence[Person | None], also: Callable[[Tx, int], Awaitable[None]],
                      *, private: bool = False, cup: CupPlace | None = None) -> Table:
    """A table at ``place`` with ``people`` at its seats (None: a computer player), its first
    hand dealt; ``also`` writes in the same transaction (the cup's record of it). A
    ``private`` one is played in its players' private chats only (``Table.private``); ``cup``
    is its place in its cup (``Table.cup``)."""
    chat_id, thread_id = place
    opener = next(p for p in people if p is not None)

    async def create(tx: Tx) -> Table:
        table_id = await owners.create_table(tx, service.bot_id, chat_id, opener.user_id,
                                             rules, thread_id, private=private)
        table = Table(table_id, chat_id, opener.user_id, rules.default_base,
                      TableStatus.LOBBY, None, 0, 0, thread_id=thread_id,
                      no=await tx.table_number(table_id), rules=rules, private=private,
                      cup=cup)
        for seat, person in enumerate(people):
            if person is None:
                robot_id, name = lobby.robot_for(table, opener.lang)
                person = Person(robot_id, name, opener.lang)
                await tx.upsert_user(robot_id, name, None, opener.lang)
            else:
                await owners.check_seat_free(tx, person.user_id)
            await tx.add_seat(table_id, seat, person.user_id)
            table.players[seat] = Player(person.user_id, person.name, person.lang)
        await also(tx, table_id)
        await play.deal(tx, service.store, table, service.random, service.seed,
                        service.clock())
        return table

    return await service.work.add(create)


async def deal_next(service: TableService, table_id: int) -> None:
    """Between two of the round's hands (waiting for 再来一局, or back in the lobby after a
    逃跑): everyone is ready (a computer player sits where one left) and the next hand is
    dealt."""
    async with service.work.change(table_id) as (table, tx):
        if table.status not in (TableStatus.BETWEEN, TableStatus.LOBBY):
            return
        for seat in table.seats:
            player = table.players.get(seat)
            if player is None:
                lang = service.default_lang
                robot_id, name = lobby.robot_for(table, lang)
                await tx.upsert_user(robot_id, name, None, lang)
                await tx.add_seat(table.id, seat, robot_id)
                table.players[seat] = Player(robot_id, name, lang)
            elif not (player.ready or player.robot):
                await tx.update_seat(table.id, seat, ready=1)
                player.ready = True
        await play.deal(tx, service.store, table, service.random, service.seed, service.clock())


async def close(service: TableService, table_id: int) -> None:
    """The round's hands are played here: the table closes (its seats free for the next)."""
    if service.registry.find(table_id) is None:
        return
    async with service.work.change(table_id) as (table, tx):
        if table.status not in (TableStatus.CLOSED, TableStatus.PLAYING):
            await lobby.close(tx, table)


async def stop(service: TableService, table_id: int) -> None:
    """/cup cancel: the table closes whatever it was doing; a hand in play is voided (as by
    /stop), the hands it finished stay played."""
    if service.registry.find(table_id) is None:
        return
    async with service.work.change(table_id) as (table, tx):
        if table.status != TableStatus.CLOSED:
            await lobby.close(tx, table)
