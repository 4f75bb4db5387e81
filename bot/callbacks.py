"""Callback data of inline buttons: typed, compact, at most 64 bytes, parsed strictly.

Each button kind is a small frozen dataclass, a :class:`Button` with a letter and named
fields (as aiogram's ``CallbackData``): ``Act(table=5, version=3, index=0).pack()`` is
``"a:5:3:0"``, and :func:`parse` gives the press back — or None for data that is not ours,
malformed, too long, or forged (a number past what the store holds, :data:`MOST_ID`, names
nothing). The data is ``{letter}:{field}:{field}…`` in field order: the very strings the bot
has sent since its first buttons, so buttons already in chats keep working. A field is an
``int`` (a number), a ``bool`` (``1`` or ``0``) or a ``str`` (an option code, :data:`CODE`).
Every kind is in :data:`KINDS`, and its handler is bound to it by ``bot.telegram.press.on``
(each kind exactly one), so a new button is one class here and its handler. No Telegram
here: screens build their keyboards with these classes.

The seat is never in the data: a press acts for the presser's own seat. Group buttons carry
the table's latest hand id as their ``mark`` (0 before the first; see
``TableService.button_mark``): one shown before the table moved on is refused as outdated,
also after a restart. Confirmations carry the hand they are about: a confirmation of a hand
no longer running is outdated. A replay button carries the hand and the step it shows; it
is checked against the chat it is pressed in (``bot.present.replays``). A 复盘 button carries
only the hand: the review is of the presser's own seat, if he sat at it; so does a 验证 button
(anyone may check a finished hand's fairness). A vote's buttons carry the vote: a press of a
vote that is over is outdated (``bot.present.votes``).
"""

from __future__ import annotations

import dataclasses
import functools
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, ClassVar, TypeVar

from bot.numbers import MOST_ID

MAX_BYTES = 64
NUMBER = "[0-9]{1,19}"  # an id, version, index or step: at most MOST_ID (bot.numbers), checked
CODE = "[a-z][a-z0-9]{0,15}"  # a ⚙ option code
FIELD_DATA = {"int": NUMBER, "bool": "[01]", "str": CODE}  # a field's type: what its data holds

B = TypeVar("B", bound="Button")
R = TypeVar("R")


@dataclass(frozen=True)
class Button:
    """A button kind's data. A kind names its letter where it is declared
    (``class Hint(Seat, letter="h")``); a class without one is a shape several kinds share."""

    letter: ClassVar[str] = ""

    def __init_subclass__(cls, letter: str = "", **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if letter:
            if letter in KINDS or ":" in letter:
                raise ValueError(f"button kind letter {letter!r} is taken or bad")
            cls.letter = letter
            KINDS[letter] = cls

    def pack(self) -> str:
        """The callback data of this press; ValueError if it would not parse back as itself
        (a negative or oversized number, a bad code, over :data:`MAX_BYTES`): a bug."""
        values = (getattr(self, name) for name, _ in fields(type(self)))
        data = ":".join((self.letter, *(str(int(v) if isinstance(v, bool) else v)
                                        for v in values)))
        if type(self).unpack(data) != self:
            raise ValueError(f"not valid callback data: {data!r} ({self!r})")
        return data

    @classmethod
    def unpack(cls: type[B], data: str | None) -> B | None:
        """The press of this kind ``data`` describes, or None (see :func:`parse`)."""
        if not cls.letter or not data or len(data.encode()) > MAX_BYTES \
                or not _pattern(cls).fullmatch(data):
            return None
        values: dict[str, object] = {}
        for (name, kind), text in zip(fields(cls), data.split(":")[1:], strict=True):
            if kind == "int" and int(text) > MOST_ID:
                return None  # forged: no row has such an id
            values[name] = int(text) if kind == "int" else text == "1" if kind == "bool" else text
        return cls(**values)


KINDS: dict[str, type[Button]] = {}  # every button kind, by its letter


def _per_kind(work: Callable[[type[Button]], R]) -> Callable[[type[Button]], R]:
    """``functools.cache`` for a function of a button kind. mypy takes a class object for
    unhashable where the cache's wrapper asks for Hashable (its open bug on type[X] and
    Hashable): the one ignore below says so, and the callers stay checked."""
    return functools.cache(work)  # type: ignore[return-value]


@_per_kind
def fields(kind: type[Button]) -> tuple[tuple[str, str], ...]:
    """The kind's fields in data order: (name, type: ``int``, ``bool`` or ``str``)."""
    found = tuple((f.name, str(f.type)) for f in dataclasses.fields(kind))
    assert all(t in FIELD_DATA for _, t in found), f"{kind.__name__}: a field of no known type"
    return found


@_per_kind
def _pattern(kind: type[Button]) -> re.Pattern[str]:
    return re.compile(":".join((re.escape(kind.letter),
                                *(FIELD_DATA[t] for _, t in fields(kind)))))


def parse(data: str | None) -> Button | None:
    """The press ``data`` describes, or None when it is not ours or malformed."""
    kind = KINDS.get((data or "").partition(":")[0])
    return kind.unpack(data) if kind is not None else None


# --- a seat's private chat -------------------------------------------------------------


@dataclass(frozen=True)
class Act(Button, letter="a"):
    """Play entry ``index`` of one's legal actions at keyboard ``version`` of the table."""

    table: int
    version: int
    index: int


@dataclass(frozen=True)
class Seat(Button):
    """A button of a seat's private chat that carries only its table."""

    table: int


class TakeBack(Seat, letter="m"):
    """Take back control from 托管."""


class Hint(Seat, letter="h"):
    """提示: what the computer player would play now."""


class Dissolve(Seat, letter="d"):
    """解散: propose to dissolve the table (a vote in the group)."""


# --- the group's lobby and settlement ----------------------------------------------------


@dataclass(frozen=True)
class Marked(Button):
    """A lobby or settlement button of the table whose latest hand was ``mark``."""

    table: int
    mark: int


class Join(Marked, letter="j"):
    """The lobby's 加入."""


class Leave(Marked, letter="l"):
    """The lobby's 离开."""


class Begin(Marked, letter="b"):
    """The lobby's 开局 (or 准备)."""


class AddComputer(Marked, letter="r"):
    """The lobby's 加电脑."""


class Again(Marked, letter="g"):
    """The settlement's 再来一局."""


class Quit(Marked, letter="q"):
    """The settlement's 离开."""


class Bird(Marked, letter="n"):
    """Place or withdraw a bird (打鸟) on the next hand (``bot.table.birds``)."""


@dataclass(frozen=True)
class Setting(Marked, letter="o"):
    """A lobby ⚙ button: ``m`` opens the keyboard, ``k`` goes back, ``p`` opens its house
    rules (房规) page, a letter and a value sets an option (``rhunan``, ``s4``, ``xmin21``,
    ``b5``, ``t60``, ``h8``, ``lweak``; a house rule ``uq10``: ``bot.table.house``)."""

    code: str


# --- questions about a running hand ------------------------------------------------------


@dataclass(frozen=True)
class AboutHand(Button):
    """A confirmation (or its cancel) about the running hand ``hand`` of the table."""

    table: int
    hand: int


class ConfirmEscape(AboutHand, letter="e"):
    """确认逃跑."""


class ConfirmStop(AboutHand, letter="s"):
    """确认结束: stop the running hand."""


class KeepPlaying(AboutHand, letter="k"):
    """取消: keep playing (cancels either question)."""


# --- a finished hand ---------------------------------------------------------------------


@dataclass(frozen=True)
class OfHand(Button):
    """A button about the finished hand ``hand``."""

    hand: int


@dataclass(frozen=True)
class Replay(OfHand, letter="p"):
    """Show step ``step`` of the finished hand (/replay)."""

    step: int


class Review(OfHand, letter="f"):
    """🔍 复盘: the presser's own review of a finished hand he sat at."""


class Verify(OfHand, letter="c"):
    """验证: the fairness check of a finished hand, sent to the presser."""


@dataclass(frozen=True)
class Vote(Button, letter="v"):
    """同意 (``yes``) or 拒绝 of vote ``vote`` at the table."""

    table: int
    vote: int
    yes: bool


# --- 复式挑战 (``bot.table.challenges``) and 群杯 (``bot.table.cups``) -------------------


@dataclass(frozen=True)
class OfChallenge(Button):
    challenge: int


class ChallengeJoin(OfChallenge, letter="x"):
    """参加 on the challenge's card."""


class ChallengeLeave(OfChallenge, letter="u"):
    """离开, in the private chat."""


@dataclass(frozen=True)
class ChallengeMove(OfChallenge, letter="y"):
    """Entry ``index`` of one's legal actions after ``version`` decisions."""

    version: int
    index: int


@dataclass(frozen=True)
class ChallengeDiff(OfChallenge, letter="w"):
    """The final card's 🔍: the player at place ``place`` + 1."""

    place: int


@dataclass(frozen=True)
class CupJoin(Button, letter="t"):
    """报名 on a 群杯's sign-up card."""

    cup: int
