"""Callback data of inline buttons: compact, at most 64 bytes, parsed strictly.

Every button is a :class:`Kind` in :data:`KINDS`: a letter and the fields its data carries,
``{letter}:{field}:{field}…``. The pattern the bot's callback handler accepts and the parser
follow from that list, and the handler of each kind is bound to it by
``bot.telegram.press.on`` (each kind exactly one), so a new button is one entry here and
its handler. No Telegram here: screens build their keyboards with the builders below.

The seat is never in the data: a press acts for the presser's own seat. Group buttons carry
the table's latest hand id as their ``mark`` (0 before the first; see
``TableService.button_mark``): one shown before the table moved on is refused as outdated,
also after a restart. Confirmations carry the hand they are about: a confirmation of a hand
no longer running is outdated. A replay button carries the hand and the step it shows; it
is checked against the chat it is pressed in (``bot.present.replays``). A 复盘 button carries
only the hand: the review is of the presser's own seat, if he sat at it; so does a 验证 button
(anyone may check a finished hand's fairness). A vote's buttons carry the
vote: a press of a vote that is over is outdated (``bot.present.votes``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from bot.numbers import MOST_ID

MAX_BYTES = 64
NUMBER = "[0-9]{1,19}"  # an id, version, index or step: at most MOST_ID (bot.numbers), checked
FIELDS = {  # a field's name: the characters it may hold
    "table": NUMBER, "version": NUMBER, "index": NUMBER, "mark": NUMBER, "hand": NUMBER,
    "step": NUMBER, "vote": NUMBER, "challenge": NUMBER, "cup": NUMBER, "yes": "[01]", "code": "[a-z][a-z0-9]{0,15}",
}
TEXT_FIELDS = frozenset({"code"})  # kept as text in :attr:`Press.option`; the others are numbers


@dataclass(frozen=True)
class Kind:
    """A button kind: its letter and the fields of its data, in order (see :data:`FIELDS`).
    The numbers go to :class:`Press` in order (``table_id``, ``version``, ``index``): a
    challenge's id is its ``table_id``."""

    letter: str
    fields: tuple[str, ...]

    @property
    def pattern(self) -> str:
        return ":".join((re.escape(self.letter), *(FIELDS[f] for f in self.fields)))

    def data(self, *values: object) -> str:
        """The callback data of a button of this kind carrying ``values``."""
        if len(values) != len(self.fields):
            raise ValueError(f"button kind {self.letter!r} carries {self.fields}")
        data = ":".join((self.letter, *map(str, values)))
        assert len(data.encode()) <= MAX_BYTES, f"callback data over {MAX_BYTES} bytes: {data!r}"
        return data


TABLE, MARKED, ABOUT_HAND = ("table",), ("table", "mark"), ("table", "hand")
KINDS: dict[str, Kind] = {k.letter: k for k in (
    # a seat's private chat: play entry ``index`` of one's legal actions at keyboard
    # ``version``; take back control from 托管; 提示 (what the policy would play now); 解散
    Kind("a", ("table", "version", "index")),
    Kind("m", TABLE),
    Kind("h", TABLE),
    Kind("d", TABLE),
    # the lobby's join, leave, 开局, add a computer player; the settlement's 再来一局, leave
    Kind("j", MARKED),
    Kind("l", MARKED),
    Kind("b", MARKED),
    Kind("r", MARKED),
    Kind("g", MARKED),
    Kind("q", MARKED),
    # a lobby ⚙ setting: ``m`` opens the keyboard, ``k`` goes back, ``p`` opens its house
    # rules (房规) page, a letter and a value sets an option (``rhunan``, ``s4``, ``xmin21``,
    # ``b5``, ``t60``, ``h8``, ``lweak``; a house rule ``uq10``: ``bot.table.house``)
    Kind("o", ("table", "mark", "code")),
    Kind("n", MARKED),  # place or withdraw a bird (打鸟) on the next hand (``bot.table.birds``)
    # confirm 逃跑, confirm stopping a running hand, keep playing (cancels either)
    Kind("e", ABOUT_HAND),
    Kind("s", ABOUT_HAND),
    Kind("k", ABOUT_HAND),
    Kind("p", ("hand", "step")),  # show that step of a finished hand (/replay)
    Kind("f", ("hand",)),  # 复盘: the presser's own review of a finished hand he sat at
    Kind("c", ("hand",)),  # 验证: the fairness check of a finished hand, sent to the presser
    Kind("v", ("table", "vote", "yes")),  # 同意 (1) or 拒绝 (0) of a vote
    # a 复式挑战 (``bot.table.challenges``): 参加 on its card; in the private chat, entry
    # ``index`` of one's legal actions after ``version`` decisions, and 离开
    Kind("x", ("challenge",)),
    Kind("y", ("challenge", "version", "index")),
    Kind("u", ("challenge",)),
    Kind("w", ("challenge", "index")),  # the final card's 🔍: the player at place index+1
    Kind("t", ("cup",)),  # 报名 on a 群杯's sign-up card (``bot.table.cups``)
)}
PATTERN = r"\A(?:" + "|".join(k.pattern for k in KINDS.values()) + r")\Z"
_RE = re.compile(PATTERN)


def shaped(fields: tuple[str, ...]) -> frozenset[str]:
    """The letters of the kinds whose data carries ``fields``."""
    return frozenset(k.letter for k in KINDS.values() if k.fields == fields)


SIMPLE_KINDS = shaped(TABLE)
GROUP_KINDS = shaped(MARKED) - {"n"}  # the lobby's and the settlement's own buttons
CONFIRM_KINDS = shaped(ABOUT_HAND)
OPTION_KIND, BIRD_KIND, REPLAY_KIND, VOTE_KIND, REVIEW_KIND = "o", "n", "p", "v", "f"
VERIFY_KIND = "c"


@dataclass(frozen=True)
class Press:
    kind: str
    table_id: int
    version: int = 0
    index: int = 0
    option: str = ""  # a settings button's option code


def _of(letters: frozenset[str], kind: str, *values: object) -> str:
    if kind not in letters:
        raise ValueError(f"unknown button kind {kind!r}")
    return KINDS[kind].data(*values)


def action(table_id: int, version: int, index: int) -> str:
    return KINDS["a"].data(table_id, version, index)


def simple(kind: str, table_id: int) -> str:
    """A private-chat button that carries only its table."""
    return _of(SIMPLE_KINDS, kind, table_id)


def group(kind: str, table_id: int, mark: int) -> str:
    """A lobby or settlement button of the table whose latest hand was ``mark``."""
    return _of(GROUP_KINDS, kind, table_id, mark)


def confirm(kind: str, table_id: int, hand_id: int) -> str:
    """A confirmation (or its cancel) about hand ``hand_id`` of the table."""
    return _of(CONFIRM_KINDS, kind, table_id, hand_id)


def option(table_id: int, mark: int, code: str) -> str:
    """A ⚙ settings button of the lobby of the table whose latest hand was ``mark``."""
    return KINDS[OPTION_KIND].data(table_id, mark, code)


def bird(table_id: int, mark: int) -> str:
    """The 打鸟 button of the table whose latest hand was ``mark``."""
    return KINDS[BIRD_KIND].data(table_id, mark)


def replay(hand_id: int, step: int) -> str:
    """A replay button: step ``step`` of the finished hand ``hand_id``."""
    return KINDS[REPLAY_KIND].data(hand_id, step)


def review(hand_id: int) -> str:
    """The 🔍 复盘 button of the finished hand ``hand_id`` (``bot.present.reviews``)."""
    return KINDS[REVIEW_KIND].data(hand_id)


def verify(hand_id: int) -> str:
    """The 验证 button of the settlement of hand ``hand_id`` (``bot.present.verify``)."""
    return KINDS[VERIFY_KIND].data(hand_id)


def challenge_join(challenge_id: int) -> str:
    return KINDS["x"].data(challenge_id)


def challenge_move(challenge_id: int, version: int, index: int) -> str:
    return KINDS["y"].data(challenge_id, version, index)


def challenge_leave(challenge_id: int) -> str:
    return KINDS["u"].data(challenge_id)


def challenge_diff(challenge_id: int, index: int) -> str:
    return KINDS["w"].data(challenge_id, index)


def vote(table_id: int, vote_id: int, yes: bool) -> str:
    """同意 (``yes``) or 拒绝 of vote ``vote_id`` at the table (see ``bot.present.votes``)."""
    return KINDS[VOTE_KIND].data(table_id, vote_id, int(yes))


def parse(data: str | None) -> Press | None:
    """The press described by ``data``, or ``None`` when it is not ours or malformed (a
    number past what the store holds, :data:`bot.numbers.MOST_ID`, names nothing: forged)."""
    if not data or len(data.encode()) > MAX_BYTES or not _RE.fullmatch(data):
        return None
    letter, *values = data.split(":")
    fields = KINDS[letter].fields
    numbers = [int(v) for f, v in zip(fields, values, strict=True) if f not in TEXT_FIELDS]
    if any(n > MOST_ID for n in numbers):
        return None
    text = [v for f, v in zip(fields, values, strict=True) if f in TEXT_FIELDS]
    return Press(letter, *numbers, option=text[0] if text else "")


def cup_join(cup_id: int) -> str:
    return KINDS["t"].data(cup_id)
