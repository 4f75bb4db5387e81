"""Pace as players feel it: a lone player with two computer players, and a four-seat 湖南 table
with its 醒家, through the fake Bot API at a round trip of 150 ms (prints figures).

    python bench/bench_pace.py [--rev 517402b] [--hands 3] [--delay-ms 150] [--think 0.3]
                               [--only lone|hunan4] [--trace]

Each scenario runs the bot as ``python -m bot`` (real pacing; BOT_SEED set) against the fake
Telegram of tests/support/fakebot, which enforces Telegram's limits (20 a minute per group, 1 a
second per private chat): the rejections it counted are printed. With ``--rev`` the bot of an
older revision (a temporary git worktree) runs the same scenarios first: "before" and "after"
in one run, on the same machine at the same time.

* lone: one human opens a table and seats two computer players (/addbot); he presses one of
  his buttons (seeded random choice) ``--think`` seconds after they show, and 再来一局 in his
  private result. Printed: from each of his moves to his next buttons (median, p90, max; the
  targets are p90 <= 2 s, max <= 4 s), and from each deal to his first buttons.
* hunan4: four humans at ``/new hunan 4`` (each hand one of them is the 醒家 and sits out),
  pressing the same way. Printed per hand: from the deal (the last 再来一局 answered; hand
  1: 开局) to the group's first table picture (target <= 4 s), and to the 醒家's own first
  picture; whether the 醒家's picture showed the hand's end. One of them also asks ``/stats``
  in the group every ``ASK_EVERY`` seconds (at once after the deals of some hands, in the
  middle of others): printed, from each /stats sent to its picture in the group (a club
  command is to be answered within a second or two, even during a hand).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]  # the project before tests/bot

from support.fakebot import FakeChat, FakeTelegram, FakeUser, RateLimits  # noqa: E402
from support.fakebot.watch import watch  # noqa: E402

SEED = 7
GRACE = 5.0  # seconds after the last hand for its end to arrive
ASK_EVERY = 20.0  # seconds between two /stats in the four-seat scenario
WATCHED = ("sendphoto", "sendmessage", "editmessagemedia", "editmessagecaption",
           "editmessagetext", "editmessagereplymarkup")


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] if ordered else float("nan")


def buttons(message: dict) -> list[str]:
    rows = (message.get("reply_markup") or {}).get("inline_keyboard") or []
    return [b["callback_data"] for row in rows for b in row if "callback_data" in b]


class Players:
    """The simulated humans, hooked into the fake's method table: each presses one of his
    action buttons ``think`` seconds after a keyboard with a new decision shows, and
    再来一局 in his private result."""

    def __init__(self, tg: FakeTelegram, group: FakeChat, users: list[FakeUser],
                 rng: random.Random, think: float, hands: int) -> None:
        self.tg, self.group, self.users = tg, group, {u.id: u for u in users}
        self.rng, self.think, self.hands = rng, think, hands
        # keyboards shown, by (chat, "a:table:version"): the seats asked about one card share
        # its version
        self.decisions: set[tuple[int, str]] = set()
        self.moved: dict[int, float] = {}  # user -> his last move, awaiting his next buttons
        self.rounds: list[float] = []  # a move -> the same player's next buttons (seconds)
        # when each hand was dealt (开局 or the last 再来一局 sent) and when the group's table
        # pictures were posted, new decisions shown and the 醒家's pictures sent: matched up
        # afterwards (a picture may come before the press that dealt it is answered)
        self.deals: list[float] = []
        self.group_pictures: list[float] = []
        self.shown_at: list[float] = []
        self.xing_pictures: list[float] = []
        self.asked: list[float] = []  # /stats sent in the group
        self.stats_answers: list[float] = []  # its pictures (caption 📊…) posted
        self.ready_sent: list[float] = []  # this round's 再来一局 presses
        self.xing_msg: dict[int, int] = {}  # 醒家 -> his picture's message id this hand
        self.xing_caption: dict[int, str] = {}  # a 醒家 picture's message id -> its caption
        self.ready: set[int] = set()  # who pressed 再来一局 for the next hand
        self.results = 0  # private results seen (by the first human)
        self.done = asyncio.Event()
        self.inflight: set[int] = set()  # users whose press is on its way
        self.taken: set[tuple[int, str]] = set()  # keyboards whose press counted
        self.tasks: set[asyncio.Task[None]] = set()
        self.trace: list[tuple[float, int, str]] = []  # (time, chat, what) for --trace
        self.slow: list[tuple[float, float]] = []  # (move, buttons) of rounds over 2 s
        self.unwatch = watch(self._seen, WATCHED)

    def _seen(self, chat_id: int, message: dict, p: Any) -> None:
        parse_mode = p.raw("parse_mode")
        now = time.perf_counter()
        data = buttons(message)
        caption = message.get("caption") or message.get("text") or ""
        if chat_id == self.group.id:
            if caption.startswith("📊"):
                self.stats_answers.append(now)
            elif "photo" in message and parse_mode is None:
                self.group_pictures.append(now)
            return
        if chat_id not in self.users:
            return
        self.trace.append((now, chat_id, "edit" + ("+buttons" if any(
            d.startswith("a:") for d in data) else "")))
        if "醒家" in caption and "photo" in message:
            self._xing(chat_id, message, caption, now)
        actions = [d for d in data if d.startswith("a:")]
        shown = (chat_id, actions[0].rsplit(":", 1)[0]) if actions else None
        if shown is not None and shown not in self.decisions:
            self.decisions.add(shown)
            self.shown_at.append(now)
            moved = self.moved.pop(chat_id, None)
            if moved is not None:
                self.rounds.append(now - moved)
                if now - moved > 2:
                    self.slow.append((moved, now))
            self._spawn(self._press(chat_id, message["message_id"], self.rng.choice(actions)))
        again = [d for d in data if d.startswith("g:")]
        if again and "photo" not in message and chat_id not in self.ready:
            self.moved.pop(chat_id, None)  # the hand is over: no next buttons in it
            self.ready.add(chat_id)
            if chat_id == min(self.users):
                self.results += 1
            self._spawn(self._press(chat_id, message["message_id"], again[0], ready=True))

    def _xing(self, chat_id: int, message: dict, caption: str, now: float) -> None:
        """The 醒家's own picture: the first of a hand, and its last caption (the hand's end
        has no 等待 line)."""
        if self.xing_msg.get(chat_id) != message["message_id"]:
            self.xing_msg[chat_id] = message["message_id"]
            self.xing_pictures.append(now)
        self.xing_caption[message["message_id"]] = caption

    def _spawn(self, coro: Any) -> None:
        task = asyncio.get_running_loop().create_task(coro)
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    async def watchdog(self) -> None:
        """A keyboard whose press went astray (answered as outdated while the picture
        lagged, say) is pressed again: a player looks at his buttons once more."""
        while not self.done.is_set():
            await asyncio.sleep(3)
            for chat_id in self.users:
                photos = [m for m in self.tg.messages(chat_id) if m.photo_bytes is not None]
                if not photos or chat_id in self.inflight:
                    continue
                actions = [d for row in photos[-1].keyboard for _, d in row
                           if d and d.startswith("a:")]
                if actions and (chat_id, actions[0].rsplit(":", 1)[0]) not in self.taken:
                    self._spawn(self._press(chat_id, photos[-1].message_id,
                                            self.rng.choice(actions)))

    async def _press(self, chat_id: int, message_id: int, data: str, ready: bool = False) -> None:
        self.inflight.add(chat_id)
        try:
            await asyncio.sleep(self.rng.uniform(0.5, 1.5) * self.think)
            user = self.users[chat_id]
            if ready:
                if self.results >= self.hands:
                    self.done.set()
                    return
            else:
                self.moved[chat_id] = time.perf_counter()
                self.trace.append((self.moved[chat_id], chat_id, "press"))
            sent = time.perf_counter()
            try:
                answer = await self.tg.press(chat_id, message_id, user, data, timeout=60)
            except (LookupError, TimeoutError):
                return
        finally:
            self.inflight.discard(chat_id)
        if not ready and (answer.text or "").startswith(("✓", "已选")):
            self.taken.add((chat_id, data.rsplit(":", 1)[0]))
        if ready:
            self.ready_sent.append(sent)
            if len(self.ready_sent) == len(self.users):  # the last 再来一局: the next hand
                self.deal(max(self.ready_sent))
                self.ready_sent.clear()
                self.ready.clear()

    async def ask_stats(self) -> None:
        """One player asks /stats in the group every ``ASK_EVERY`` seconds."""
        asker = list(self.users.values())[-1]
        while not self.done.is_set():
            await asyncio.sleep(ASK_EVERY)
            self.asked.append(time.perf_counter())
            await self.tg.send_text(self.group, asker, "/stats")

    def deal(self, at: float | None = None) -> None:
        self.deals.append(time.perf_counter() if at is None else at)

    def after_deals(self, times: list[float]) -> list[float]:
        """For each deal, the seconds to the first of ``times`` at or after it."""
        return first_after(self.deals, times)


def first_after(starts: list[float], times: list[float]) -> list[float]:
    """For each of ``starts``, the seconds to the first of ``times`` at or after it."""
    return [min((x for x in times if x >= s), default=float("nan")) - s for s in starts]


async def start_bot(tree: Path, tg: FakeTelegram, tmp: Path) -> tuple[Any, Any]:
    env = {**os.environ, "BOT_TOKEN": tg.token, "BOT_API_BASE_URL": tg.base_url,
           "DB_PATH": str(tmp / "db.sqlite3"), "BOT_SEED": str(SEED), "ACTION_TIMEOUT": "600",
           "PYTHONPATH": str(tree)}
    log = open(tmp / "bot.log", "wb")  # noqa: SIM115
    proc = await asyncio.create_subprocess_exec(sys.executable, "-m", "bot", cwd=tmp, env=env,
                                                stdout=log, stderr=log)
    await tg.wait_for(lambda: any(c.method == "getUpdates" for c in tg.calls), timeout=60)
    return proc, log


async def stop_bot(proc: Any, log: Any) -> None:
    proc.send_signal(signal.SIGTERM)
    try:
        await asyncio.wait_for(proc.wait(), 60)
    except TimeoutError:
        proc.kill()
        await proc.wait()
    log.close()


async def scenario(tree: Path, args: argparse.Namespace, name: str) -> Players:
    """One scenario (``lone`` or ``hunan4``) against the bot of ``tree``."""
    rng = random.Random(SEED)
    async with FakeTelegram(delay=args.delay_ms / 1000, rate_limits=RateLimits()) as tg:
        tmp = Path(tempfile.mkdtemp(prefix="bench_pace_"))
        proc, log = await start_bot(tree, tg, tmp)
        try:
            count = 1 if name == "lone" else 4
            users = [tg.user(f"{name[0].upper()}{i}") for i in range(count)]
            for user in users:
                tg.start_private(user)
            group = tg.group(f"{name}", members=tuple(users))
            players = Players(tg, group, users, rng, args.think, args.hands)
            opener = users[0]
            if name == "lone":
                lobby = await tg.wait_reply(await tg.send_text(group, opener, "/new"), timeout=60)
                robot = lambda text, data: bool(data) and data[0] == "r"  # noqa: E731 (加电脑)
                await tg.press_button(lobby, opener, robot, timeout=60)
                players.deal()  # the second computer player fills the table: it deals at once
                await tg.press_button(lobby, opener, robot, timeout=60)
            else:
                lobby = await tg.wait_reply(await tg.send_text(group, opener, "/new hunan 4"),
                                            timeout=60)
                for user in users[1:]:
                    await tg.press_button(lobby, user,
                                          lambda text, data: bool(data) and data[0] == "j",
                                          timeout=60)
                players.deal()
                await tg.press_button(lobby, opener,
                                      lambda text, data: bool(data) and data[0] == "b",
                                      timeout=60)
            players._spawn(players.watchdog())
            if name == "hunan4":
                players._spawn(players.ask_stats())
            try:
                await asyncio.wait_for(players.done.wait(), args.hands * 240)
            except TimeoutError:
                print(f"  ({name}: timed out after {players.results} hands)")
            await asyncio.sleep(GRACE)  # what the last hand's end still sends
            players.rejections = len(tg.rejections)  # type: ignore[attr-defined]
            return players
        finally:
            await stop_bot(proc, log)
            if "players" in locals():
                for task in list(players.tasks):
                    task.cancel()
                players.unwatch()


def show(side: str, lone: Players | None, hunan: Players | None, trace: bool) -> None:
    if lone is not None:
        r = lone.rounds
        print(f"[{side}] lone player: move -> his next buttons  median"
              f" {statistics.median(r):.2f} s  p90 {pct(r, .9):.2f} s  max {max(r):.2f} s"
              f"  ({len(r)} moves; targets p90 <= 2, max <= 4)")
        print(f"[{side}] lone player: deal -> his first buttons  "
              + "  ".join(f"{x:.2f}" for x in lone.after_deals(lone.shown_at)) + " s")
        print(f"[{side}] 429 refusals by the fake: lone {lone.rejections}")  # type: ignore[attr-defined]
        if trace:
            for start, end in lone.slow:
                print(f"  slow round {end - start:.2f} s: " + ", ".join(
                    f"{what} +{at - start:.2f}" for at, _, what in lone.trace
                    if start - 0.01 <= at <= end + 0.01))
    if hunan is None:
        return
    captions = list(hunan.xing_caption.values())[:hunan.results]
    ended = sum("等待" not in c for c in captions)
    print(f"[{side}] hunan 4: deal -> group's first picture per hand  "
          + "  ".join(f"{x:.2f}" for x in hunan.after_deals(hunan.group_pictures))
          + " s  (target <= 4)")
    print(f"[{side}] hunan 4: deal -> 醒家's first picture per hand  "
          + "  ".join(f"{x:.2f}" for x in hunan.after_deals(hunan.xing_pictures))
          + " s; his picture showed the "
          f"end of {ended} of {len(captions)} hands")
    asked = first_after(hunan.asked, hunan.stats_answers)
    print(f"[{side}] hunan 4: /stats during play -> its picture  median "
          f"{statistics.median(asked):.2f} s  max {max(asked):.2f} s  ({len(asked)} asked;"
          f" target a second or two)" if asked else f"[{side}] hunan 4: /stats not asked")
    print(f"[{side}] 429 refusals by the fake: hunan {hunan.rejections}")  # type: ignore[attr-defined]


async def run(args: argparse.Namespace, trees: list[tuple[str, Path]]) -> None:
    for side, tree in trees:
        print(f"== {side} ({tree})", flush=True)
        lone = await scenario(tree, args, "lone") if args.only != "hunan4" else None
        hunan = await scenario(tree, args, "hunan4") if args.only != "lone" else None
        show(side, lone, hunan, args.trace)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rev", help="also run an older revision's bot first (before)")
    parser.add_argument("--hands", type=int, default=3, help="hands per scenario")
    parser.add_argument("--delay-ms", type=float, default=150,
                        help="network round trip added to every Bot API call (ms)")
    parser.add_argument("--think", type=float, default=0.3,
                        help="seconds a player takes to press (0.5-1.5 x this)")
    parser.add_argument("--only", choices=("lone", "hunan4"), help="run one scenario only")
    parser.add_argument("--trace", action="store_true",
                        help="list the lone player's edits in each move over 2 s")
    args = parser.parse_args()
    if args.rev is None:
        asyncio.run(run(args, [("after", ROOT)]))
        return
    with tempfile.TemporaryDirectory() as tmp:
        old = Path(tmp) / "before"
        subprocess.run(["git", "-C", str(ROOT), "worktree", "add", "--detach", str(old),
                        args.rev], check=True, capture_output=True)
        try:
            asyncio.run(run(args, [("before", old), ("after", ROOT)]))
        finally:
            subprocess.run(["git", "-C", str(ROOT), "worktree", "remove", "--force", str(old)],
                           check=False, capture_output=True)


if __name__ == "__main__":
    main()
