"""Building the Application: handlers (the commands of :mod:`bot.telegram.commands`, the
buttons of :mod:`bot.telegram.buttons`), lifecycle (database opened in post_init, closed in
post_shutdown), the rate limiter and the one global error handler; running by long polling
or webhook (the database is claimed first, :mod:`bot.claim`)."""

from __future__ import annotations

import asyncio
import logging
import random
import re
import signal
from dataclasses import dataclass, field
from functools import partial

from telegram import Update
from telegram.ext import (
    AIORateLimiter,
    Application,
    BaseRateLimiter,
    CallbackQueryHandler,
    InlineQueryHandler,
    MessageHandler,
    TypeHandler,
    filters,
)

from bot.claim import StartupError
from bot.config import Config
from bot.i18n import CATALOGS, t
from bot.metrics import HANDS_FINISHED, Gauges, MetricsServer
from bot.present.challenges import ChallengeMessages
from bot.present.cups import CupMessages
from bot.present.notify import Notifier
from bot.present.presenter import Presenter
from bot.present.timers import Timers
from bot.present.votes import Votes
from bot.store import Store, StoreUnusable, open_store
from bot.store.health import probe
from bot.store.signals import Signals
from bot.table import HandRecord, Table, TableService, TableStatus
from bot.table.challenge_service import ChallengeService
from bot.table.cup_service import CupService
from bot.table.observers import tell
from bot.table.rater import Rater
from bot.table.reviewer import Reviewer
from bot.telegram import chat, inline, system
from bot.telegram.buttons import button
from bot.telegram.commands import NEW_MESSAGES, SCOPES, add_command_handlers, bot_commands
from bot.telegram.env import Env
from bot.telegram.health import Arrivals, arrived
from bot.telegram.journal import JournalingPolls, JournalingProcessor, PressJournal
from bot.telegram.request import AiohttpRequest
from bot.webapp.live import LivePages
from bot.webapp.relay import BotRelay
from bot.webapp.server import Server, WebApp

log = logging.getLogger(__name__)
ALLOWED_UPDATES = ["message", "callback_query", "inline_query"]


@dataclass
class Hub:
    """The table observer: fans each committed change out to the messages and the timers,
    each branch on its own (:func:`bot.table.observers.tell`): one that fails is logged and
    the others are still told."""

    presenter: Presenter | None = None
    timers: Timers | None = None
    notifier: Notifier | None = None
    cups: CupService | None = None
    pages: LivePages | None = None  # the open live seat pages (WEBAPP_PORT)
    relay: BotRelay | None = None  # the pages served by ``python -m bot webapp``
    rater: Rater | None = None  # the skill ratings: a match may have ended
    reviewer: Reviewer | None = None  # the 复盘 figures: a hand has ended

    def _skill(self) -> None:
        if self.rater is not None:
            tell(self.rater.nudge)
        if self.reviewer is not None:
            tell(self.reviewer.nudge)

    def _live(self, table: Table) -> None:
        if self.pages is not None:  # the pages hold their seats' pictures back
            tell(self.pages.changed, table)
        if self.relay is not None:
            tell(self.relay.changed, table)

    def changed(self, table: Table) -> None:
        assert self.presenter and self.timers
        tell(self.timers.arm, table)  # first: the clock runs whatever showing the change does
        self._live(table)  # next: the pages hold their seats' pictures back
        tell(self.presenter.changed, table)
        if self.notifier is not None:
            tell(self.notifier.changed, table)

    def settled(self, table: Table, record: HandRecord) -> None:
        assert self.presenter
        HANDS_FINISHED.inc()
        self._live(table)
        tell(self.presenter.settled, table, record)
        if self.cups is not None:
            tell(self.cups.settled, table.id)
        self._skill()

    def closed(self, table: Table) -> None:
        assert self.presenter and self.timers
        tell(self.timers.disarm, table)
        self._live(table)
        tell(self.presenter.closed, table)
        if self.cups is not None:  # a cup's table stopped: what it played counts
            tell(self.cups.settled, table.id)
        self._skill()

    def match_over(self, table: Table, match_id: int) -> None:
        assert self.presenter
        tell(self.presenter.match_over, table, match_id)
        self._skill()

    def unseated(self, table: Table, names: tuple[str, ...]) -> None:
        assert self.presenter
        if table.private:  # nothing of a private table is said in its group
            return
        key = "lobby_ready_timeout" if table.unseated_from_lobby else "ready_timeout"
        self.presenter.note(table.chat_id, lambda lang: t(
            lang, key, names=t(lang, "name_sep").join(names)),
            thread_id=table.thread_id)


@dataclass
class Services:
    """What post_init builds; kept on the Application for post_shutdown and tests."""

    store: Store
    service: TableService
    presenter: Presenter
    hub: Hub = field(repr=False)
    votes: Votes | None = field(default=None, repr=False)
    challenges: ChallengeService | None = field(default=None, repr=False)
    cups: CupService | None = field(default=None, repr=False)
    webapp: Server | None = field(default=None, repr=False)
    signals: Signals | None = field(default=None, repr=False)
    metrics: MetricsServer | None = field(default=None, repr=False)
    arrivals: Arrivals | None = field(default=None, repr=False)
    rater: Rater | None = field(default=None, repr=False)
    reviewer: Reviewer | None = field(default=None, repr=False)


async def _post_init(app: Application, config: Config,
                     rng: random.Random | None, arrivals: Arrivals,
                     journal: PressJournal) -> None:
    try:
        store = await open_store(config.database_url or config.db_path)
    except StoreUnusable as e:  # checked before the start (bot.__main__), gone since
        setting = "DATABASE_URL" if config.database_url else "DB_PATH"
        raise StartupError(f"{setting} {e}") from None

    def lost() -> None:  # another process serves the token now: this one stops (see run)
        app.bot_data["claim_lost"] = app.bot.id
        app.stop_running()

    if not await store.claim(app.bot.id, lost):
        await store.close()
        raise StartupError(f"bot {app.bot.id} is served by another running paohuzi-bot on"
                           " DATABASE_URL; stop it first (one process per bot token)")
    journal.open(store, app.bot.id)
    hub = Hub()
    service = TableService(store, hub, action_timeout=config.action_timeout,
                           autoplay_delay=config.autoplay_delay,
                           ready_timeout=config.ready_timeout,
                           full_start_delay=config.full_start_delay,
                           default_lang=config.default_lang, rng=rng, seed=config.seed,
                           bot_id=app.bot.id)
    presenter = Presenter(app.bot, store, service, pacing=config.pacing,
                          default_lang=config.default_lang, username=app.bot.username,
                          webapp_url=config.webapp.url if config.webapp else None,
                          app_short_name=config.webapp.short_name if config.webapp else None,
                          paint_process=config.render_process)
    presenter.chats.painter.warm()
    assert app.job_queue is not None, "install python-telegram-bot[job-queue]"
    hub.presenter, hub.timers = presenter, Timers(service)
    hub.notifier = Notifier(store, presenter, service)
    votes = Votes(service, store, presenter, app.job_queue, config.vote_timeout)
    # with BOT_SEED (tests, benchmarks) a challenge's deals and a cup's draw repeat as well
    drawn = rng if rng is not None or config.seed is None else random.Random(config.seed)
    challenges = ChallengeService(store, lambda user_id: service.table_of_user(user_id)
                                  is not None, bot_id=app.bot.id, rng=drawn)
    challenges.observer = ChallengeMessages(presenter.chats, presenter.bot, store, challenges,
                                            presenter.posts)
    cups = CupService(store, service, bot_id=app.bot.id, rng=drawn)
    cup_messages = CupMessages(presenter.chats, presenter.bot, store, presenter.posts)
    cups.observer = cup_messages
    hub.cups = cups
    votes.cup_table = cups.is_table
    app.add_handler(TypeHandler(Update, partial(arrived, arrivals)), group=-3)
    rater = hub.rater = Rater(store)
    reviewer = hub.reviewer = Reviewer(store, app.bot.id) if config.review_seats else None
    _add_handlers(app, Env(service, presenter, store, store, config.default_lang,
                           votes, challenges, cups, cup_messages,
                           chosen_langs=await store.lang_choices(), rater=rater))
    server = signals = None
    if config.webapp is not None and config.webapp.port is not None:
        web = WebApp.local(service, config.token, config.webapp.path,
                           max_age=config.webapp.max_age, trustee_of=presenter.public_trustee,
                           released=presenter.page_closed, default_lang=config.default_lang)
        server = Server(web, config.webapp.port, config.webapp.listen,
                    config.webapp.proxies)
        await server.start()
        hub.pages = web.pages
        presenter.hold_live(web.pages)
    elif config.webapp is not None and config.database_url:  # served by python -m bot webapp
        signals = await Signals.connect(config.database_url)
        hub.relay = BotRelay(signals, service, app.bot.id, presenter.page_closed)
        await hub.relay.start()
        presenter.hold_live(hub.relay)
    metrics = None
    if config.metrics_port is not None:
        pages = server.webapp.pages.open_count if server is not None else lambda: 0
        metrics = MetricsServer(
            config.metrics_port, config.metrics_host,
            [arrivals.check, partial(probe, store.health, store.schema_version)],
            Gauges(lambda: (tb.status.value for tb in service.tables()), pages,
                   states=[s.value for s in TableStatus if s != TableStatus.CLOSED]))
        await metrics.start()
        arrivals.start()
    app.bot_data["services"] = Services(store, service, presenter, hub, votes, challenges,
                                        cups, server, signals, metrics, arrivals, rater,
                                        reviewer)

    for lang in CATALOGS:
        code = None if lang == config.default_lang else lang
        for scope, names in SCOPES:
            await app.bot.set_my_commands(bot_commands(names, lang), scope=scope, language_code=code)
    await votes.cancel_stored()  # a vote left open by the last run: cancelled, and said so

    # Restart: every open table comes back from the database; messages are refreshed and
    # timers re-armed from the replayed state.
    tables = await service.load()
    await presenter.restored(tables)
    for table in tables:
        hub.changed(table)
    for table, record in await service.unposted_settlements():
        presenter.unposted(table, record)
    for table, match_id in await service.unposted_matches():
        presenter.match_over(table, match_id)
    await challenges.load()
    await cups.load()
    rater.start()  # the skill ratings and the 复盘 figures, beside play
    if reviewer is not None:
        reviewer.start()
    await journal.replay(app.bot, app.update_queue)  # presses a killed run left unanswered
    log.info("started as @%s with %d open tables", app.bot.username, len(service.tables()))


async def _post_shutdown(app: Application) -> None:
    services: Services | None = app.bot_data.pop("services", None)
    if services is not None:
        # PTB has shut the bot's connection by now: nothing can be sent, so delivery stops
        # first, or a job retrying its send would hold up the waits below for seconds
        await services.presenter.shutdown()
        if services.hub.timers is not None:  # no more timed moves; those under way end
            services.hub.timers.stop()
            await services.hub.timers.idle()
        if services.hub.notifier is not None:  # notes being decided need the store
            await services.hub.notifier.idle()
        if services.webapp is not None:
            await services.webapp.stop()
        if services.hub.relay is not None and services.signals is not None:
            services.hub.relay.close()
            await services.signals.close()
        if services.metrics is not None and services.arrivals is not None:
            await services.arrivals.stop()
            await services.metrics.stop()
        if services.rater is not None:
            await services.rater.stop()
        if services.reviewer is not None:
            await services.reviewer.stop()
        if services.challenges is not None:
            services.challenges.shutdown()
        await services.store.close()


def _add_handlers(app: Application, env: Env) -> None:
    private = filters.ChatType.PRIVATE
    # first a group upgraded to a supergroup and a forum topic created or renamed (their
    # service messages may come from a bot stand-in), then nothing from bots (see
    # system.ignore_bots)
    app.add_handler(MessageHandler(filters.StatusUpdate.MIGRATE,
                                   partial(system.migrated, env)), group=-2)
    app.add_handler(MessageHandler(filters.StatusUpdate.FORUM_TOPIC_CREATED
                                   | filters.StatusUpdate.FORUM_TOPIC_EDITED,
                                   partial(system.topic_named, env)), group=-2)
    app.add_handler(TypeHandler(Update, system.ignore_bots), group=-1)
    add_command_handlers(app, env)
    addressed = filters.Regex(rf"^/\w+@{re.escape(app.bot.username)}\b")
    app.add_handler(MessageHandler(NEW_MESSAGES & (
        (private & filters.TEXT) | (filters.ChatType.GROUPS & filters.COMMAND & addressed)),
        partial(chat.unknown, env)))
    app.add_handler(CallbackQueryHandler(partial(button, env)))  # callbacks.parse checks it
    app.add_handler(InlineQueryHandler(partial(inline.inline, env)))  # share cards
    app.add_error_handler(partial(system.error, env))


def build_application(
    config: Config, *, rate_limiter: BaseRateLimiter | None = None,
    rng: random.Random | None = None,
) -> Application:
    """The bot, ready for ``run_polling``.

    The default rate limiter holds Telegram's limits (30 calls/s, 20 a minute per group) and
    does not retry a 429 itself: the outbox re-sends the latest state instead. ``rng`` draws
    the seeds (tests pass a seeded one; the default is the system's cryptographic source).

    Updates are handled concurrently: one handled at a time, each waiting for its own Bot API
    round trips, a press at one table would queue behind every other table's (50–200 ms each
    from a real server). Changes stay ordered per table (every ``TableService`` change takes
    that table's lock) and per chat and user (:mod:`bot.telegram.ordering`). A press is kept in
    the store until answered, so that a start answers those a killed run left
    (:mod:`bot.telegram.journal`).
    """
    journal = PressJournal()  # presses kept until answered (bot.telegram.journal)
    polls = JournalingPolls(journal)
    builder = (
        Application.builder()
        .token(config.token)
        .request(AiohttpRequest())
        .get_updates_request(polls)
        .concurrent_updates(JournalingProcessor(journal))
        .rate_limiter(rate_limiter or AIORateLimiter(max_retries=0))
        .post_init(lambda app: _post_init(app, config, rng, Arrivals(
            polls, webhook=app.bot if config.webhook is not None else None), journal))
        .post_shutdown(_post_shutdown)
    )
    if config.api_base_url:
        builder = builder.base_url(config.api_base_url)
    return builder.build()


def run(config: Config) -> None:
    """Serve until stopped: long polling by default, PTB's webhook server with WEBHOOK_URL.
    Raises :class:`StartupError` when another process took the bot's token meanwhile."""
    app = build_application(config)
    hook = config.webhook
    loop = asyncio.new_event_loop()  # PTB runs on the thread's loop: this one
    asyncio.set_event_loop(loop)
    stop_once_on_signals(loop)
    if hook is None:
        app.run_polling(allowed_updates=ALLOWED_UPDATES, stop_signals=None)
    else:
        # setWebhook is called with the URL and the secret at start; PTB's server refuses any
        # request whose X-Telegram-Bot-Api-Secret-Token header is not the secret (403).
        app.run_webhook(listen=hook.listen, port=hook.port, url_path=hook.path,
                        webhook_url=hook.url, secret_token=hook.secret,
                        allowed_updates=ALLOWED_UPDATES, stop_signals=None)
    if (lost := app.bot_data.get("claim_lost")) is not None:
        raise StartupError(f"bot {lost} is now served by another paohuzi-bot on DATABASE_URL,"
                           " which started while this one's connection to the database was"
                           " away; this one stopped (one process per bot token)")


STOP_SIGNALS = (signal.SIGINT, signal.SIGTERM, signal.SIGABRT)  # PTB's own


def stop_once_on_signals(loop: asyncio.AbstractEventLoop) -> None:
    """The first stop signal ends the run as PTB's own handler does (``SystemExit`` out of the
    loop, then its orderly stop: updater, application, the store closed last); later ones
    are only logged. PTB's handler raises at every signal, and a second one during the stop
    broke it off half way, the store's thread left open and the process hanging: what
    ``make run`` met, since make passes the SIGTERM its process group got on to the bot,
    which so gets two."""
    stopping = False

    def stop(sig: signal.Signals) -> None:
        nonlocal stopping
        if stopping:
            log.info("%s: already stopping", sig.name)
            return
        stopping = True
        log.info("%s: stopping", sig.name)
        raise SystemExit

    for sig in STOP_SIGNALS:
        loop.add_signal_handler(sig, stop, sig)
