"""Building the Application: handlers, lifecycle (database opened in post_init, closed in
post_shutdown), the rate limiter and the one global error handler; claiming the database
before start and running by long polling or webhook."""

from __future__ import annotations

import asyncio
import fcntl
import logging
import os
import random
import re
import sqlite3
from collections.abc import Awaitable
from contextlib import AsyncExitStack
from dataclasses import dataclass, field
from pathlib import Path

from telegram import (
    BotCommand,
    BotCommandScopeAllChatAdministrators,
    BotCommandScopeAllGroupChats,
    BotCommandScopeAllPrivateChats,
    Update,
)
from telegram.ext import (
    AIORateLimiter,
    Application,
    BaseRateLimiter,
    BaseUpdateProcessor,
    CallbackQueryHandler,
    CommandHandler,
    MessageHandler,
    TypeHandler,
    filters,
)

from bot.config import Config
from bot.handlers import Handlers
from bot.i18n import CATALOGS, t
from bot.messages import Presenter
from bot.notify import Notifier
from bot.store import Store, open_store
from bot.tables import HandRecord, Table, TableService
from bot.timers import Timers
from bot.votes import Votes

log = logging.getLogger(__name__)

# Each chat shows the commands that apply there (Telegram's command scopes); a group's
# administrators see the group's and /lang, which only they may use.
GROUP_COMMANDS = ("new", "join", "leave", "begin", "stop", "addbot", "removebot", "dissolve",
                  "replace", "notify", "rank", "me", "history", "calc", "export", "replay",
                  "help", "rules")
ADMIN_COMMANDS = (*GROUP_COMMANDS, "lang")
PRIVATE_COMMANDS = ("start", "dissolve", "calc", "rank", "me", "help", "rules", "replay")
SCOPES = ((BotCommandScopeAllGroupChats(), GROUP_COMMANDS),
          (BotCommandScopeAllChatAdministrators(), ADMIN_COMMANDS),
          (BotCommandScopeAllPrivateChats(), PRIVATE_COMMANDS))
ALLOWED_UPDATES = ["message", "callback_query"]


class StartupError(Exception):
    """The bot cannot start; the message is one line for the operator."""


@dataclass
class Hub:
    """The table observer: fans each committed change out to the messages and the timers."""

    presenter: Presenter | None = None
    timers: Timers | None = None
    notifier: Notifier | None = None

    def changed(self, table: Table) -> None:
        assert self.presenter and self.timers
        self.presenter.changed(table)
        self.timers.arm(table)
        if self.notifier is not None:
            self.notifier.changed(table)

    def settled(self, table: Table, record: HandRecord) -> None:
        assert self.presenter
        self.presenter.settled(table, record)

    def closed(self, table: Table) -> None:
        assert self.presenter and self.timers
        self.presenter.closed(table)
        self.timers.disarm(table)

    def match_over(self, table: Table, match_id: int) -> None:
        assert self.presenter
        self.presenter.match_over(table, match_id)

    def unseated(self, table: Table, names: tuple[str, ...]) -> None:
        assert self.presenter
        self.presenter.note(table.chat_id, lambda lang: t(
            lang, "ready_timeout", names=t(lang, "name_sep").join(names)),
            thread_id=table.thread_id)


@dataclass
class Services:
    """What post_init builds; kept on the Application for post_shutdown and tests."""

    store: Store
    service: TableService
    presenter: Presenter
    hub: Hub = field(repr=False)
    votes: Votes | None = field(default=None, repr=False)


class OrderedPerSender(BaseUpdateProcessor):
    """Updates handled concurrently, except that those of one chat or of one user keep
    their order (each waits for the earlier ones it shares a chat or a user with).

    Table changes take their table's lock, but opening a table (one per group and forum
    topic) and taking a seat (one table per user) are checked against other tables: two
    ``/new`` at once in one group would both pass the check. Moves come from each player's
    own chat, so the players of one table still press at the same time.
    """

    def __init__(self, max_concurrent_updates: int = 256) -> None:
        super().__init__(max_concurrent_updates)
        self._locks: dict[int, asyncio.Lock] = {}
        self._users: dict[int, int] = {}  # key -> updates holding or awaiting its lock

    async def do_process_update(self, update: object, coroutine: Awaitable[object]) -> None:
        keys = sorted(_sender_keys(update))  # always in one order: no two wait on each other
        for key in keys:
            self._users[key] = self._users.get(key, 0) + 1
        try:
            async with AsyncExitStack() as held:
                for key in keys:
                    await held.enter_async_context(self._locks.setdefault(key, asyncio.Lock()))
                await coroutine
        finally:
            for key in keys:
                self._users[key] -= 1
                if not self._users[key]:
                    del self._users[key], self._locks[key]

    async def initialize(self) -> None:
        pass

    async def shutdown(self) -> None:
        pass


def _sender_keys(update: object) -> set[int]:
    """The chat and the user an update comes from (a private chat's id is its user's). A
    button press is only its user's: a button acts on the table it names, under its lock,
    so the three presses of 再来一局 in one group need not wait for each other's answers."""
    if not isinstance(update, Update):
        return set()
    chat, user = update.effective_chat, update.effective_user
    if update.callback_query is not None:
        chat = None
    return {x.id for x in (chat, user) if x is not None}


def _commands(names: tuple[str, ...], lang: str) -> list[BotCommand]:
    return [BotCommand(n, t(lang, f"cmd_{n}")) for n in names]


async def _post_init(app: Application, config: Config,  # type: ignore[type-arg]
                     rng: random.Random | None) -> None:
    store = await open_store(config.database_url or config.db_path)
    if not await store.claim(app.bot.id):
        await store.close()
        raise StartupError(f"bot {app.bot.id} is served by another running paohuzi-bot on"
                           " DATABASE_URL; stop it first (one process per bot token)")
    hub = Hub()
    service = TableService(store, hub, action_timeout=config.action_timeout,
                           autoplay_delay=config.autoplay_delay,
                           ready_timeout=config.ready_timeout,
                           full_start_delay=config.full_start_delay,
                           default_lang=config.default_lang, rng=rng, seed=config.seed)
    presenter = Presenter(app.bot, store, service, group_interval=config.group_interval,
                          dm_interval=config.dm_interval, send_interval=config.send_interval,
                          default_lang=config.default_lang, username=app.bot.username)
    assert app.job_queue is not None, "install python-telegram-bot[job-queue]"
    hub.presenter, hub.timers = presenter, Timers(app.job_queue, service)
    hub.notifier = Notifier(store, presenter, service)
    votes = Votes(service, store, presenter, app.job_queue, config.vote_timeout)
    handlers = Handlers(service, presenter, store, config.default_lang, votes)
    _add_handlers(app, handlers)
    app.bot_data["services"] = Services(store, service, presenter, hub, votes)

    for lang in CATALOGS:
        code = None if lang == config.default_lang else lang
        for scope, names in SCOPES:
            await app.bot.set_my_commands(_commands(names, lang), scope=scope, language_code=code)
    await votes.cancel_stored()  # a vote left open by the last run: cancelled, and said so

    # Restart: every open table comes back from the database; messages are refreshed and
    # timers re-armed from the replayed state.
    for table in await service.load():
        hub.changed(table)
    for table, record in await service.unposted_settlements():
        presenter.unposted(table, record)
    for table, match_id in await service.unposted_matches():
        presenter.match_over(table, match_id)
    log.info("started as @%s with %d open tables", app.bot.username, len(service.tables()))


async def _post_shutdown(app: Application) -> None:  # type: ignore[type-arg]
    services: Services | None = app.bot_data.pop("services", None)
    if services is not None:
        if services.hub.notifier is not None:  # notes being decided need the store
            await services.hub.notifier.idle()
        services.presenter.shutdown()
        await services.store.close()


def _add_handlers(app: Application, h: Handlers) -> None:  # type: ignore[type-arg]
    private = filters.ChatType.PRIVATE
    # first a group upgraded to a supergroup (its service message may come from a bot
    # stand-in), then nothing from bots (see Handlers.ignore_bots)
    app.add_handler(MessageHandler(filters.StatusUpdate.MIGRATE, h.migrated), group=-2)
    app.add_handler(TypeHandler(Update, h.ignore_bots), group=-1)
    app.add_handler(CommandHandler("start", h.start, filters=private))
    app.add_handler(CommandHandler("start", h.group_start, filters=filters.ChatType.GROUPS))
    app.add_handler(CommandHandler("dissolve", h.dissolve))
    app.add_handler(CommandHandler("replace", h.replace))
    app.add_handler(CommandHandler("notify", h.notify))
    app.add_handler(CommandHandler("help", h.help))
    app.add_handler(CommandHandler("rules", h.rules))
    app.add_handler(CommandHandler("lang", h.lang))
    app.add_handler(CommandHandler("calc", h.calc))
    app.add_handler(CommandHandler("rank", h.rank))
    app.add_handler(CommandHandler("me", h.me))
    app.add_handler(CommandHandler("history", h.history))
    app.add_handler(CommandHandler("export", h.export))
    app.add_handler(CommandHandler("replay", h.replay))
    app.add_handler(CommandHandler(["new", "join", "leave", "begin", "stop", "addbot",
                                    "removebot"], h.group_command))
    addressed = filters.Regex(rf"^/\w+@{re.escape(app.bot.username)}\b")
    app.add_handler(MessageHandler(
        (private & filters.TEXT) | (filters.ChatType.GROUPS & filters.COMMAND & addressed),
        h.unknown))
    app.add_handler(CallbackQueryHandler(h.button))  # bot.callbacks.parse checks the data
    app.add_error_handler(h.error)


def build_application(
    config: Config, *, rate_limiter: BaseRateLimiter | None = None,  # type: ignore[type-arg]
    rng: random.Random | None = None,
) -> Application:  # type: ignore[type-arg]
    """The bot, ready for ``run_polling``.

    The default rate limiter holds Telegram's limits (30 calls/s, 20 a minute per group) and
    does not retry a 429 itself: the outbox re-sends the latest state instead. ``rng`` draws
    the seeds (tests pass a seeded one; the default is the system's cryptographic source).

    Updates are handled concurrently: one handled at a time, each waiting for its own Bot API
    round trips, a press at one table would queue behind every other table's (50–200 ms each
    from a real server). Changes stay ordered per table (every ``TableService`` change takes
    that table's lock) and per chat and user (see :class:`OrderedPerSender`).
    """
    builder = (
        Application.builder()
        .token(config.token)
        .concurrent_updates(OrderedPerSender())
        .rate_limiter(rate_limiter or AIORateLimiter(max_retries=0))
        .post_init(lambda app: _post_init(app, config, rng))
        .post_shutdown(_post_shutdown)
    )
    if config.api_base_url:
        builder = builder.base_url(config.api_base_url)
    return builder.build()


def claim_database(path: Path) -> int:
    """Check that ``path`` is a usable SQLite database and lock it for this process.

    Returns the file descriptor that holds the lock: keep it open while the bot runs (the
    kernel releases the lock when the process ends, however it ends), and close it only after
    the store is closed (closing any descriptor of a file drops the process's POSIX locks on
    it, SQLite's included). A second bot on the same database would answer every press
    twice, so it is refused here. The lock is ``flock`` on the database file itself, which
    SQLite's own (``fcntl``) locks ignore.
    """
    if not path.parent.is_dir():
        raise StartupError(f"DB_PATH {path}: the directory {path.parent} does not exist")
    try:
        fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
    except OSError as e:
        raise StartupError(f"DB_PATH {path} cannot be opened for writing: {e.strerror}") from None
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        os.close(fd)
        raise StartupError(f"DB_PATH {path} is in use by another running paohuzi-bot; "
                           "stop it first (one bot per database)") from None
    try:
        _check_writable(path)
    except sqlite3.Error as e:
        os.close(fd)
        raise StartupError(f"DB_PATH {path} is not a usable SQLite database: {e}") from None
    return fd


def _check_writable(path: Path) -> None:
    """Open the database as the store will (WAL) and take a write lock, writing nothing."""
    db = sqlite3.connect(path, isolation_level=None)
    try:
        db.execute("PRAGMA journal_mode = WAL")
        db.execute("BEGIN IMMEDIATE")
        db.execute("ROLLBACK")
    finally:
        db.close()


def run(config: Config) -> None:
    """Serve until stopped: long polling by default, PTB's webhook server with WEBHOOK_URL."""
    app = build_application(config)
    hook = config.webhook
    if hook is None:
        app.run_polling(allowed_updates=ALLOWED_UPDATES)
        return
    # setWebhook is called with the URL and the secret at start; PTB's server refuses any
    # request whose X-Telegram-Bot-Api-Secret-Token header is not the secret (403).
    app.run_webhook(listen=hook.listen, port=hook.port, url_path=hook.path,
                    webhook_url=hook.url, secret_token=hook.secret,
                    allowed_updates=ALLOWED_UPDATES)
