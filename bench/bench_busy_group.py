"""A busy group's minute: one forum where, at once, three people play a table in a topic of
its own, five play a 复式挑战 (challenge) in private and finish it together, nine play a
three-table 群杯 (cup) in topics the bot opens, and an admin types 8 commands 1.5 s apart in
a topic of their own as the five finish. The bot runs in this process, as the end-to-end tests run it,
with its real pacing (``Pacing()``) against the fake Bot API, which enforces Telegram's
limits (one forum's 20 a minute for all its topics, a private chat's one a second) with a
round trip of ``--delay-ms`` added to every call.

    python bench/bench_busy_group.py [--delay-ms 150] [--think 1.5] [--challenge-think 0.3]
                                     [--seed 3] [--trace F]

At the table and the cup, every human presses one of his buttons (at random) 0.5-1.5 x
``--think`` seconds after they show; the challengers press the strong player's choice
0.5-1.5 x ``--challenge-think`` seconds after theirs show. Each of the five stops before the
press that would finish his run; once all five are there, they press together, and the
admin's commands start, while the tables play on.

Printed, over the whole run (what the group's outbox was asked to show is read from the
presenter's ``Chats.put``, and when each ask was met from the job it queued):

* the longest group gap while something waits to be shown: the longest stretch without a
  message-or-edit reaching the forum while some ask of the forum was not met yet (target
  <= 8 s);
* a person's answer time: from each of the admin's commands to its answer in his topic
  (p90, max; target p90 <= 5 s);
* a card's newest state shown within: from a change asked of a card (the challenge's, the
  cup's, a lobby) to the end of the first edit of it that began after the ask (max; target
  <= 10 s); and the card edits made;
* refusals: the 429s the fake answered (target 0), and the forum's most calls in a minute.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import copy
import json
import random
import statistics
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable, Hashable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT)]
sys.path.append(str(ROOT / "tests"))

from support.challenge import current_buttons, run_of  # noqa: E402
from support.e2e import make_config, running_bot, services  # noqa: E402
from support.fakebot import FakeChat, FakeTelegram, FakeUser, RateLimits  # noqa: E402
from support.fakebot.watch import watch  # noqa: E402

from bot.present.chats import Chats  # noqa: E402
from bot.present.pacing import Pacing  # noqa: E402
from bot.table.challenges import HUMAN, strong_choice  # noqa: E402

WATCHED = ("sendphoto", "sendmessage", "senddocument", "editmessagemedia", "editmessagecaption",
           "editmessagetext", "editmessagereplymarkup")
# the admin's commands, typed in a topic of their own: each is answered there by one message
COMMANDS = ("/help", "/rank", "/rules", "/stats", "/tables", "/me", "/history", "/calc 12")
TYPING = 1.5  # seconds between two of the admin's commands
CARD_KEYS = frozenset({"challenge", "challenge-final", "cup", "cup-final", "lobby", "vote"})
GRACE = 15.0  # seconds after the last event for what is still asked to be shown


def say(t0: float, what: str) -> None:
    """Progress, on stderr."""
    print(f"  {time.monotonic() - t0:6.1f} s  {what}", file=sys.stderr, flush=True)


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] if ordered else float("nan")


class Asks:
    """What the forum's outbox was asked to show (``Chats.put``) and when each ask was met:
    by the end of the first job of its key that began after it."""

    def __init__(self, chat_id: int) -> None:
        self.chat_id = chat_id
        self.asked: list[tuple[Hashable, float]] = []
        self.runs: dict[Hashable, list[tuple[float, float]]] = {}  # key -> (began, ended)
        self.dropped = 0  # notes the outbox dropped

    def hook(self) -> Callable[[], None]:
        put = Chats.put
        asks = self

        def watched_put(chats: Chats, chat_id: Hashable, key: Hashable,
                        job: Callable[[], Awaitable[int]], *args: Any, **kwargs: Any) -> Any:
            target = chats.now(chat_id) if isinstance(chat_id, int) else chat_id
            if target != asks.chat_id:
                return put(chats, chat_id, key, job, *args, **kwargs)
            loop = asyncio.get_running_loop()
            at = loop.time()

            async def timed() -> int:
                began = loop.time()
                try:
                    return await job()
                finally:
                    asks.runs.setdefault(key, []).append((began, loop.time()))
            taken = put(chats, chat_id, key, timed, *args, **kwargs)
            if taken:  # a note the outbox dropped (too many waiting) is asked of nobody
                asks.asked.append((key, at))
            else:
                asks.dropped += 1
            return taken

        Chats.put = watched_put  # type: ignore[method-assign]
        return lambda: setattr(Chats, "put", put)

    def met(self) -> list[tuple[Hashable, float, float]]:
        """Each ask (key, asked at, met at; inf: never)."""
        out = []
        for key, at in self.asked:
            ends = [end for began, end in self.runs.get(key, []) if began >= at]
            out.append((key, at, min(ends, default=float("inf"))))
        return out

    def pending(self, now: float) -> int:
        return sum(met > now for _, _, met in self.met())


def longest_gap(met: list[tuple[Hashable, float, float]], sends: list[float],
                end: float) -> float:
    """The longest stretch without a send while some ask was not met."""
    spans = sorted((at, min(done, end)) for _, at, done in met)
    merged: list[list[float]] = []
    for start, stop in spans:
        if merged and start <= merged[-1][1]:
            merged[-1][1] = max(merged[-1][1], stop)
        else:
            merged.append([start, stop])
    gap = 0.0
    for start, stop in merged:
        points = [start, *(s for s in sends if start < s < stop), stop]
        gap = max(gap, *(b - a for a, b in zip(points, points[1:], strict=False)))
    return gap


class Humans:
    """The table's and the cup's players: each presses one of his action buttons ``think``
    (0.5-1.5 x) seconds after a keyboard with a new decision shows in his private chat."""

    def __init__(self, tg: FakeTelegram, users: list[FakeUser], rng: random.Random,
                 think: float) -> None:
        self.tg, self.users, self.rng, self.think = tg, {u.id: u for u in users}, rng, think
        self.seen: dict[tuple[int, str], float] = {}  # keyboards shown, when
        self.taken: set[tuple[int, str]] = set()  # keyboards whose press counted
        self.inflight: set[int] = set()
        self.first_seen: dict[tuple[int, int], float] = {}  # (chat, message) -> shown at
        self.tasks: set[asyncio.Task[None]] = set()
        self.unwatch = watch(self._answered, WATCHED)

    def _answered(self, chat_id: int, message: dict, p: Any) -> None:
        self.first_seen.setdefault((chat_id, message.get("message_id", 0)), time.monotonic())
        if chat_id in self.users:
            self._seen(chat_id, message)

    def _seen(self, chat_id: int, message: dict) -> None:
        rows = (message.get("reply_markup") or {}).get("inline_keyboard") or []
        actions = [b["callback_data"] for row in rows for b in row
                   if b.get("callback_data", "").startswith("a:")]
        if not actions or (chat_id, actions[0].rsplit(":", 1)[0]) in self.seen:
            return
        self.seen[chat_id, actions[0].rsplit(":", 1)[0]] = time.monotonic()
        self.spawn(self._press(chat_id, message["message_id"], self.rng.choice(actions)))

    def spawn(self, coro: Awaitable[None]) -> None:
        task = asyncio.ensure_future(coro)
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    async def _press(self, chat_id: int, message_id: int, data: str) -> None:
        self.inflight.add(chat_id)
        try:
            await asyncio.sleep(self.rng.uniform(0.5, 1.5) * self.think)
            answer = await self.tg.press(chat_id, message_id, self.users[chat_id], data,
                                         timeout=60)
        except (LookupError, TimeoutError):
            return
        finally:
            self.inflight.discard(chat_id)
        if (answer.text or "").startswith(("✓", "已选")):
            self.taken.add((chat_id, data.rsplit(":", 1)[0]))

    async def watchdog(self) -> None:
        """A keyboard whose press went astray is pressed again (he looks once more)."""
        while True:
            await asyncio.sleep(4)
            for chat_id in self.users:
                photos = [m for m in self.tg.messages(chat_id) if m.photo_bytes is not None]
                actions = [d for row in photos[-1].keyboard for _, d in row
                           if d and d.startswith("a:")] if photos else []
                shown = (chat_id, actions[0].rsplit(":", 1)[0]) if actions else None
                if shown is not None and shown not in self.taken \
                        and chat_id not in self.inflight \
                        and time.monotonic() - self.seen.get(shown, 0.0) > 4:
                    self.spawn(self._press(chat_id, photos[-1].message_id,
                                           self.rng.choice(actions)))

    def close(self) -> None:
        for task in list(self.tasks):
            task.cancel()
        self.unwatch()


async def challenger(tg: FakeTelegram, app: Any, user: FakeUser, challenge_id: int,
                     rng: random.Random, think: float, at_last: asyncio.Barrier,
                     finished: list[float]) -> None:
    """One challenger: the strong player's choices, waiting at his last for the others."""
    while True:
        run = await run_of(app, challenge_id, user)
        if run.finished:
            return
        version = sum(len(d.moves) for d in run.deals)
        action = strong_choice(run.current.hand, run.current.seed, HUMAN)
        msg, shown = await tg.wait_for(
            lambda v=version: current_buttons(tg, user, challenge_id, v), timeout=60)
        trial = copy.deepcopy(run)
        trial.play(action)
        last = trial.finished
        await asyncio.sleep(rng.uniform(0.5, 1.5) * think)
        if last:
            await at_last.wait()
        index = str(run.current.legal().index(action))  # y:challenge:version:index
        data = next(d for d in shown if d.rsplit(":", 1)[1] == index)
        await tg.press(user, msg.message_id, user, data, timeout=60)
        if last:
            finished.append(time.monotonic())


async def run(args: argparse.Namespace) -> None:
    rng = random.Random(args.seed)
    with tempfile.TemporaryDirectory() as tmp:
        async with FakeTelegram(rate_limits=RateLimits(), delay=args.delay_ms / 1000) as tg:
            def people(prefix: str, n: int) -> list[FakeUser]:
                users = [tg.user(f"{prefix}{k}", language_code="zh-hans") for k in range(n)]
                for user in users:
                    tg.start_private(user)
                return users
            table_users, challengers, cuppers = people("T", 3), people("C", 5), people("K", 9)
            admin = people("A", 1)[0]
            forum = tg.forum("忙群", members=(*table_users, *challengers, *cuppers, admin))
            forum.members[tg.bot.id] = "administrator"
            tg.set_admin(forum, admin)
            asks = Asks(forum.id)
            unhook = asks.hook()
            humans = Humans(tg, [*table_users, *cuppers], rng, args.think)
            config = make_config(tg, Path(tmp) / "db.sqlite3", pacing=Pacing(),
                                 action_timeout=120.0, full_start_delay=0.0,
                                 autoplay_delay=1.5, render_process=True)
            try:
                async with running_bot(config, seed=args.seed) as app:
                    await scene(tg, app, forum, table_users, challengers, cuppers, admin,
                                humans, asks, rng, args)
            finally:
                humans.close()
                unhook()


async def scene(tg: FakeTelegram, app: Any, forum: FakeChat, table_users: list[FakeUser],
                challengers: list[FakeUser], cuppers: list[FakeUser], admin: FakeUser,
                humans: Humans, asks: Asks, rng: random.Random,
                args: argparse.Namespace) -> None:
    svc = services(app)
    t0 = time.monotonic()
    humans.spawn(humans.watchdog())
    # the cup's sign-up, the challenge's card and the table, opened one after the other
    await tg.send_text(forum, cuppers[0], "/cup 1轮 1局")
    cup_card = await tg.wait_for(lambda: next(
        (m for m in tg.messages(forum) if (m.text or "").startswith("🏅")), None), timeout=60)
    for user in cuppers[1:]:
        await tg.press_button(cup_card, user, "报名", timeout=60)
    say(t0, "cup signed up")
    await tg.send_text(forum, challengers[0], "/challenge qq 2局 2h")
    card = await tg.wait_for(lambda: next(
        (m for m in tg.messages(forum) if (m.text or "").startswith("⚔️")), None), timeout=60)
    for user in challengers:
        await tg.press_button(card, user, "参加", timeout=60)
    row = await svc.store.open_challenge(forum.id)
    say(t0, "challenge joined")
    assert row is not None
    topic = tg.create_topic(forum, "牌桌")
    chatter = tg.create_topic(forum, "闲聊")
    sent = await tg.send_text(forum, table_users[0], "/new", topic=topic)
    lobby = await tg.wait_reply(sent, match=lambda m: m.thread_id == topic, timeout=60)
    for user in table_users[1:]:
        await tg.press_button(lobby, user, "加入", timeout=60)
    table = await tg.wait_for(lambda: svc.service.in_chat(forum.id, topic), timeout=60)
    say(t0, "table dealt")
    await tg.send_text(forum, cuppers[0], "/cup start")
    # play: the five challengers to their last press, then together; the admin types
    at_last = asyncio.Barrier(len(challengers) + 1)
    finished: list[float] = []
    plays = [asyncio.ensure_future(challenger(tg, app, user, row.id, rng, args.challenge_think,
                                              at_last, finished)) for user in challengers]
    await asyncio.wait_for(at_last.wait(), 300)
    together = time.monotonic()
    say(t0, "the five press their last together; the admin types")
    asked: list[float] = []
    for text in COMMANDS:
        await tg.send_text(forum, admin, text, topic=chatter)
        asked.append(time.monotonic())
        await asyncio.sleep(TYPING)
    await asyncio.gather(*plays)
    say(t0, "the five finished")
    answered = await answers(tg, forum, chatter, asked, humans.first_seen)
    await tg.wait_for(lambda: any((m.text or "").startswith("🏆") for m in tg.messages(forum))
                      and table.status != "playing", timeout=600)
    over = time.monotonic()
    say(t0, "the cup and the table are over")
    while asks.pending(time.monotonic()) and time.monotonic() - over < GRACE:
        await asyncio.sleep(0.5)
    end = time.monotonic()
    report(tg, forum, asks, answered, together - t0, end - t0, args)


async def answers(tg: FakeTelegram, forum: FakeChat, topic: int, asked: list[float],
                  shown_at: dict[tuple[int, int], float]) -> list[float]:
    """Seconds from each command to its answer: the bot's messages in the admin's topic,
    in order (each command is answered by one); NaN for those not come within two minutes."""
    with contextlib.suppress(TimeoutError):
        await tg.wait_for(lambda: len(tg.topic_messages(forum, topic)) >= len(asked),
                          timeout=max(1.0, asked[-1] + 120 - time.monotonic()))
    shown = [shown_at[forum.id, m.message_id] for m in tg.topic_messages(forum, topic)]
    return [b - a for a, b in zip(asked, shown, strict=False)] \
        + [float("nan")] * (len(asked) - len(shown))


def report(tg: FakeTelegram, forum: FakeChat, asks: Asks, answered: list[float],
           together: float, span: float, args: argparse.Namespace) -> None:
    met = asks.met()
    end = time.monotonic()
    sends = tg.send_times(forum)
    cards = [(key, done - at) for key, at, done in met
             if isinstance(key, tuple) and key[0] in CARD_KEYS]
    card_edits = sum(len(runs) for key, runs in asks.runs.items()
                     if isinstance(key, tuple) and key[0] in CARD_KEYS)
    shown = [w for _, w in cards]
    print(f"busy group at {args.delay_ms:.0f} ms: {span:.0f} s, the five finished together "
          f"at {together:.0f} s; {len(sends)} messages-or-edits in the forum, at most "
          f"{tg.max_per_minute(forum)} in a minute; {len(asks.asked)} asks of it, "
          f"{asks.dropped} notes dropped (too many waiting)")
    if args.trace:
        with open(args.trace, "w", encoding="utf-8") as out:
            json.dump({"asks": [(repr(k), a, m) for k, a, m in met],
                       "runs": [(repr(k), b, e) for k, runs in asks.runs.items()
                                for b, e in runs],
                       "calls": [(c.method, c.time) for c in tg.calls
                                 if c.chat_id == forum.id]}, out)
    print(f"  longest group gap while something waits: "
          f"{longest_gap(met, sends, end):.1f} s  (target <= 8)")
    done = [a for a in answered if a == a]
    print(f"  a person's answer: p90 {pct(done, 0.9):.1f} s  max {max(done, default=0):.1f} s"
          f"  median {statistics.median(done) if done else float('nan'):.1f} s  "
          f"({len(done)} of {len(answered)} answered; target p90 <= 5)  "
          + " ".join(f"{a:.1f}" for a in answered))
    print(f"  a card's newest state shown within: max {max(shown, default=0):.1f} s  p90 "
          f"{pct(shown, 0.9):.1f} s  ({len(shown)} changes asked, {card_edits} card edits;"
          f" target <= 10)")
    longest = sorted(((end - began, key) for key, runs in asks.runs.items()
                      for began, end in runs), key=lambda r: -r[0])[:5]
    print("  the longest jobs of the forum's outbox (s): "
          + ", ".join(f"{key} {seconds:.1f}" for seconds, key in longest))
    print(f"  refusals (429): {len(tg.rejections)} (in the forum "
          f"{sum(r.chat_id == forum.id for r in tg.rejections)})  (target 0)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--delay-ms", type=float, default=150.0,
                        help="network round trip added to every Bot API call (ms)")
    parser.add_argument("--think", type=float, default=1.5,
                        help="seconds a player at a table takes to press (0.5-1.5 x this)")
    parser.add_argument("--challenge-think", type=float, default=0.3,
                        help="the same for a challenger")
    parser.add_argument("--seed", type=int, default=3)
    parser.add_argument("--trace", help="write the forum's asks, jobs and calls (JSON) here")
    asyncio.run(run(parser.parse_args()))


if __name__ == "__main__":
    main()
