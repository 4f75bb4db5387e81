"""Building the Application: handlers, lifecycle (database opened in post_init, closed in
post_shutdown), the rate limiter and the one global error handler."""

from __future__ import annotations

import logging
import random
import re
from dataclasses import dataclass, field

from telegram import (
    BotCommand,
    BotCommandScopeAllGroupChats,
    BotCommandScopeAllPrivateChats,
    Update,
)
from telegram.ext import (
    AIORateLimiter,
    Application,
    BaseRateLimiter,
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
from bot.store import Store
from bot.tables import HandRecord, Table, TableService
from bot.timers import Timers

log = logging.getLogger(__name__)

GROUP_COMMANDS = ("new", "join", "leave", "begin", "stop", "addbot", "removebot", "rank", "me",
                  "history", "calc", "export", "help", "rules", "lang")
PRIVATE_COMMANDS = ("start", "calc", "rank", "me", "help", "rules")


@dataclass
class Hub:
    """The table observer: fans each committed change out to the messages and the timers."""

    presenter: Presenter | None = None
    timers: Timers | None = None

    def changed(self, table: Table) -> None:
        assert self.presenter and self.timers
        self.presenter.changed(table)
        self.timers.arm(table)

    def settled(self, table: Table, record: HandRecord) -> None:
        assert self.presenter
        self.presenter.settled(table, record)

    def closed(self, table: Table) -> None:
        assert self.presenter and self.timers
        self.presenter.closed(table)
        self.timers.disarm(table)

    def unseated(self, table: Table, names: tuple[str, ...]) -> None:
        assert self.presenter
        self.presenter.note(table.chat_id, lambda lang: t(
            lang, "ready_timeout", names=t(lang, "name_sep").join(names)))


@dataclass
class Services:
    """What post_init builds; kept on the Application for post_shutdown and tests."""

    store: Store
    service: TableService
    presenter: Presenter
    hub: Hub = field(repr=False)


def _commands(names: tuple[str, ...], lang: str) -> list[BotCommand]:
    return [BotCommand(n, t(lang, f"cmd_{n}")) for n in names]


async def _post_init(app: Application, config: Config,  # type: ignore[type-arg]
                     rng: random.Random | None) -> None:
    store = await Store.open(config.db_path)
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
    handlers = Handlers(service, presenter, store, config.default_lang)
    _add_handlers(app, handlers)
    app.bot_data["services"] = Services(store, service, presenter, hub)

    for lang in CATALOGS:
        code = None if lang == config.default_lang else lang
        await app.bot.set_my_commands(_commands(GROUP_COMMANDS, lang),
                                      scope=BotCommandScopeAllGroupChats(), language_code=code)
        await app.bot.set_my_commands(_commands(PRIVATE_COMMANDS, lang),
                                      scope=BotCommandScopeAllPrivateChats(), language_code=code)

    # Restart: every open table comes back from the database; messages are refreshed and
    # timers re-armed from the replayed state.
    for table in await service.load():
        hub.changed(table)
    log.info("started as @%s with %d open tables", app.bot.username, len(service.tables()))


async def _post_shutdown(app: Application) -> None:  # type: ignore[type-arg]
    services: Services | None = app.bot_data.pop("services", None)
    if services is not None:
        services.presenter.shutdown()
        await services.store.close()


def _add_handlers(app: Application, h: Handlers) -> None:  # type: ignore[type-arg]
    private = filters.ChatType.PRIVATE
    # first a group upgraded to a supergroup (its service message may come from a bot
    # stand-in), then nothing from bots (see Handlers.ignore_bots)
    app.add_handler(MessageHandler(filters.StatusUpdate.MIGRATE, h.migrated), group=-2)
    app.add_handler(TypeHandler(Update, h.ignore_bots), group=-1)
    app.add_handler(CommandHandler("start", h.start, filters=private))
    app.add_handler(CommandHandler("help", h.help))
    app.add_handler(CommandHandler("rules", h.rules))
    app.add_handler(CommandHandler("lang", h.lang))
    app.add_handler(CommandHandler("calc", h.calc))
    app.add_handler(CommandHandler("rank", h.rank))
    app.add_handler(CommandHandler("me", h.me))
    app.add_handler(CommandHandler("history", h.history))
    app.add_handler(CommandHandler("export", h.export))
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
    """
    builder = (
        Application.builder()
        .token(config.token)
        .rate_limiter(rate_limiter or AIORateLimiter(max_retries=0))
        .post_init(lambda app: _post_init(app, config, rng))
        .post_shutdown(_post_shutdown)
    )
    if config.api_base_url:
        builder = builder.base_url(config.api_base_url)
    return builder.build()
