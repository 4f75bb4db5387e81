"""The bot's commands in one table: each command's name, handler and the menus that offer
it. The menus of each chat scope (Telegram's ``setMyCommands``), the registration of the
handlers and the descriptions (catalog entries ``cmd_<name>``) all follow from
:data:`COMMANDS`, so a new command is one row here, its handler and its ``cmd_`` texts.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Coroutine
from dataclasses import dataclass
from enum import Enum
from typing import Any

from telegram import (
    BotCommand,
    BotCommandScopeAllChatAdministrators,
    BotCommandScopeAllGroupChats,
    BotCommandScopeAllPrivateChats,
    Update,
)
from telegram.ext import Application, CommandHandler, filters

from bot.i18n import t
from bot.telegram import (
    challenge,
    chat,
    club,
    club_scores,
    cup,
    info,
    lobby,
    quick,
    replay,
    votes,
)
from bot.telegram.env import Context, Env


class Menu(Enum):
    """Where a command is offered. A group's administrators see the group's menu and theirs
    (/lang, which only they may use in a group; privately anyone sets his own)."""

    GROUP = "group"
    ADMIN = "admin"
    PRIVATE = "private"


NEW_MESSAGES = filters.UpdateType.MESSAGE  # not edits (``edited_message``)
G, P, A = frozenset({Menu.GROUP}), frozenset({Menu.PRIVATE}), frozenset({Menu.ADMIN})
GP = G | P


@dataclass(frozen=True)
class Command:
    name: str
    handler: Callable[[Env, Update, Context], Awaitable[None]]
    menus: frozenset[Menu]  # the menus that list it; it is answered in every chat


# In menu order. A command answers in any chat; a group one says so in a private chat.
COMMANDS: tuple[Command, ...] = (
    Command("start", chat.start, P),
    Command("new", lobby.new, G),
    Command("join", lobby.join, G),
    Command("leave", lobby.leave, G),
    Command("begin", lobby.begin, G),
    Command("stop", lobby.stop, G),
    Command("addbot", lobby.add_robot, G),
    Command("removebot", lobby.remove_robot, G),
    Command("dissolve", votes.dissolve, GP),
    Command("replace", votes.replace, G),
    Command("notify", votes.notify, G),
    Command("tables", club.tables, GP),
    Command("play", quick.play, G),
    Command("rank", info.rank, GP),
    Command("me", info.me, GP),
    Command("history", info.history, G),
    Command("calc", info.calc, GP),
    Command("export", info.export, G),
    Command("replay", replay.replay, GP),
    Command("quiet", chat.quiet, P),
    Command("help", chat.help_, GP),
    Command("rules", info.rules, GP),
    Command("lang", chat.lang, A | P),
    Command("apart", club.apart, A),
    Command("timezone", chat.timezone, A),
    Command("club", club.club, G),
    Command("challenge", challenge.challenge, G),
    Command("season", club_scores.season, G),
    Command("stats", club_scores.stats, G),
    Command("void", club_scores.void, A),
    Command("dispute", club_scores.dispute, G),
    Command("cup", cup.cup, G),
)


def menu(where: Menu) -> tuple[str, ...]:
    """The names a menu lists, in order; the administrators' holds the group's too."""
    wanted = {where, Menu.GROUP} if where is Menu.ADMIN else {where}
    return tuple(c.name for c in COMMANDS if c.menus & wanted)


GROUP_COMMANDS, ADMIN_COMMANDS, PRIVATE_COMMANDS = (menu(m) for m in Menu)
SCOPES = ((BotCommandScopeAllGroupChats(), GROUP_COMMANDS),
          (BotCommandScopeAllChatAdministrators(), ADMIN_COMMANDS),
          (BotCommandScopeAllPrivateChats(), PRIVATE_COMMANDS))


def bot_commands(names: tuple[str, ...], lang: str) -> list[BotCommand]:
    return [BotCommand(n, t(lang, f"cmd_{n}")) for n in names]


def _bound(handler: Callable[[Env, Update, Context], Awaitable[None]],
           env: Env) -> Callable[[Update, Context], Coroutine[Any, Any, None]]:
    async def handle(update: Update, context: Context) -> None:
        await handler(env, update, context)
    return handle


def add_command_handlers(app: Application, env: Env) -> None:
    """One handler per command, in private chats and groups (channel posts reach none), for
    new messages only: PTB's command handlers also take an ``edited_message``, and a
    command edited into a message is not sent again."""
    chats = NEW_MESSAGES & (filters.ChatType.PRIVATE | filters.ChatType.GROUPS)
    for command in COMMANDS:
        app.add_handler(CommandHandler(command.name, _bound(command.handler, env),
                                       filters=chats))
