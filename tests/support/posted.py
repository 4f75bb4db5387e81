"""What the bot posted where, as its posting room keeps it (:mod:`bot.present.posts`): the
ids of a table's lobby, and of a hand's table picture and settlement, in its group, and of a
seat's hand picture in its player's private chat."""

from __future__ import annotations

from telegram.ext import Application

from bot.present.posts import Post, Posts
from bot.table import HandRecord, Table
from bot.telegram.app import Services
from support.e2e import services


def _posts(bot: Application | Services) -> Posts:  # type: ignore[type-arg]
    return (bot if isinstance(bot, Services) else services(bot)).presenter.posts


def lobby_id(bot: Application | Services, table: Table) -> int | None:  # type: ignore[type-arg]
    """The id of the table's lobby in its group, as the bot keeps it."""
    return _posts(bot).get(Post.lobby(table))


def picture_id(bot: Application | Services, table: Table,  # type: ignore[type-arg]
               record: HandRecord | None = None) -> int | None:
    """The id of a hand's table picture in its group (by default the table's latest)."""
    record = record or table.current
    assert record is not None
    return _posts(bot).get(Post.picture(table, record))


def settlement_id(bot: Application | Services, table: Table,  # type: ignore[type-arg]
                  record: HandRecord | None = None) -> int | None:
    """The id of a hand's settlement in its group (by default the table's latest)."""
    record = record or table.current
    assert record is not None
    return _posts(bot).get(Post.settlement(table, record))


def seat_picture_id(bot: Application | Services, table: Table,  # type: ignore[type-arg]
                    seat: int, record: HandRecord | None = None) -> int | None:
    """The id of a seat's hand picture in its player's private chat (by default the table's
    latest hand)."""
    record = record or table.current
    assert record is not None
    return _posts(bot).get(Post.seat_picture(table, record, seat, record.users[seat]))
