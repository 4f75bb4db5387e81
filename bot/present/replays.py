"""The replay stepper (/replay): a finished hand, one step at a time, in one message.

The message is the picture of the table after step k of the hand's n logged actions (every
hand face up: the hand is over) with the buttons ⏮ ◀ k/n ▶ ⏭, and 🏆 (the winning move, the
last step) when someone won. It opens at the deal (step 0); a press that would show the step
already shown (▶ at the end, ◀ at the start) is answered so and uploads nothing
(:func:`already`). In a group it also links to the same replay in the viewer's private
chat (its ``/start r<hand id>`` link, :func:`bot.links.start`), where a step is not paced by the group. Each button carries the hand id and the step it shows
(:class:`bot.callbacks.Replay`); the handler checks the hand against the chat the button is in
and asks the presenter for that step: the message's edits go through the chat's outbox, so
rapid presses are paced and coalesce to the last step asked for.

The record replayed is the one ``/export`` gives and ``python -m engine verify`` checks: a
hand that ended (a win, 荒庄 or 逃跑) as the store holds it, rebuilt by
``engine.replay.replay_views``. A hand voided by /stop (status ``aborted``) has no result and
is not exported: it is not replayed either (its log stops mid-hand). In a group ``/replay N``
is the group's hand number N (as the captions and /history number them); in a private chat
it is the hand id (as /me and the export file name show it) of a hand the user sat at.
"""

from __future__ import annotations

from collections.abc import Sequence

from bot import callbacks as cb
from bot.i18n import t
from bot.numbers import positive
from bot.store import PlayedHand
from engine.replay import replay_views
from render.replay import render_replay_step

FIRST, BACK, NEXT, LAST, WIN = "⏮", "◀", "▶", "⏭", "🏆"
OPENING_STEP = 0  # the deal: nothing played yet


def total_steps(played: PlayedHand) -> int:
    return len(played.log)


def picture(played: PlayedHand, step: int, lang: str) -> bytes:
    """The table after ``step`` of the hand's actions, every hand shown."""
    frame = replay_views(played.rule_set, played.seed, played.dealer, played.base,
                         played.log, step)
    return render_replay_step(frame, played.names, lang)


def caption(played: PlayedHand, step: int, lang: str) -> str:
    """Which hand and step; a hand an admin voided (/void) says so, with his reason."""
    text = t(lang, "replay_caption", no=played.no, table=played.table_number,
             hand=played.table_no, step=step, total=total_steps(played))
    if played.voided_by is not None:
        text += "\n" + t(lang, "replay_voided", reason=played.void_reason or "")
    return text


def buttons(played: PlayedHand, step: int) -> list[list[tuple[str, str]]]:
    """Rows of (label, callback data): ⏮ ◀ k/n ▶ ⏭, then 🏆 when the hand was won. The
    middle button shows the step and, pressed, shows it again."""
    n = total_steps(played)

    def to(label: str, k: int) -> tuple[str, str]:
        return label, cb.Replay(played.id, min(max(k, 0), n)).pack()
    rows = [[to(FIRST, 0), to(BACK, step - 1), to(f"{step}/{n}", step), to(NEXT, step + 1),
             to(LAST, n)]]
    if played.winner is not None:
        rows.append([to(WIN, n)])
    return rows


def already(played: PlayedHand, asked: int, shown: int | None) -> str | None:
    """The catalog key of the answer to a press asking for the step already shown (at the
    end: the last step, else the first), None when the press moves the replay."""
    if shown is None or asked != shown:
        return None
    return "replay_at_last" if shown == total_steps(played) else "replay_at_first" \
        if shown == OPENING_STEP else "replay_step"


def hand_number(args: Sequence[str]) -> int | None:
    """/replay's argument: a positive number, or 0 for none; None when it is not one."""
    if not args:
        return 0
    word = args[0].lstrip("#")
    return positive(word) if len(args) == 1 else None
