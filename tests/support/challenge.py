"""Playing a 复式挑战 through the real bot: a participant's current buttons in his private
chat, and presses of the strong player's choice (or another) until a condition holds; and
runs with given figures, for the standings without the bot."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from telegram.ext import Application

from bot import callbacks as cb
from bot.store.challenges import ChallengePlayerRow
from bot.table.challenges import HUMAN, Run, strong_choice
from engine.rules import get_rule_set
from support.e2e import services
from support.fakebot import FakeMessage, FakeTelegram, FakeUser


async def run_of(app: Application, challenge_id: int, user: FakeUser) -> Run:  # type: ignore[type-arg]
    svc = services(app)
    assert svc.challenges is not None
    row = await svc.store.challenge(challenge_id)
    assert row is not None
    return await svc.challenges.run(row, user.id)


def current_buttons(tg: FakeTelegram, user: FakeUser, challenge_id: int,
                    version: int) -> tuple[FakeMessage, list[str]] | None:
    """His photo whose buttons are those of decision ``version``, and their data."""
    prefix = f"y:{challenge_id}:{version}:"
    for msg in reversed(tg.messages(user)):
        data = [d for row in msg.keyboard for _, d in row if d and d.startswith(prefix)]
        if data:
            return msg, data
    return None


async def play(tg: FakeTelegram, app: Application, user: FakeUser,  # type: ignore[type-arg]
               challenge_id: int, choose: Callable[[Run, int], str | None]) -> list[str]:
    """Press ``choose(run, decision number)`` (an action; None: the strong player's) until
    his run is finished or ``choose`` raises StopIteration; the actions pressed."""
    pressed: list[str] = []
    while True:
        run = await run_of(app, challenge_id, user)
        if run.finished:
            return pressed
        version = sum(len(d.moves) for d in run.deals)
        try:
            wanted = choose(run, version)
        except StopIteration:
            return pressed
        deal = run.current
        action = wanted or strong_choice(deal.hand, deal.seed, HUMAN)
        msg, data = await tg.wait_for(
            lambda v=version: current_buttons(tg, user, challenge_id, v), timeout=30)
        pressed_data = cb.ChallengeMove(challenge_id, version, deal.legal().index(action)).pack()
        assert pressed_data in data
        answer = await tg.press(user, msg.message_id, user, pressed_data)
        assert answer.text is not None and answer.text.startswith("✓"), answer
        pressed.append(action)


@dataclass
class Scored(Run):
    """A run whose finished deals scored ``total`` (the standings read only its figures)."""

    total: int = 0

    def points(self) -> int:
        return self.total

    def played(self) -> int:
        return 1


def scored_runs(*figures: tuple[int, int]) -> tuple[list[ChallengePlayerRow], dict[int, Run]]:
    """Players joined in this order, each with (points, decisions off the strong choice)."""
    rules = get_rule_set("qq")
    players = [ChallengePlayerRow(10 + k, f"P{k}", "zh", "done", float(k))
               for k in range(len(figures))]
    return players, {p.user_id: Scored(rules, (1,), [], offs, points)
                     for p, (points, offs) in zip(players, figures, strict=True)}
