"""Callback data of inline buttons: compact, at most 64 bytes, parsed strictly.

``a:{table}:{version}:{index}`` plays entry ``index`` of the presser's own legal-action list
at keyboard ``version``; the seat is never in the data, it is the presser's own.
Buttons in private chats carry only a table id: ``m`` take back control from 托管, ``h`` 提示
(what the policy would play now), ``d`` propose 解散 (see ``bot.votes``). Group buttons carry what they belong to, as
``{kind}:{table}:{mark}`` (in ``version``), the table's latest hand id then (0 before the
first; see ``TableService.button_mark``): the lobby's ``j`` join, ``l`` leave, ``b`` begin,
``r`` add a computer player, and the settlement's ``g`` 再来一局 and ``q`` leave. One shown
before the table moved on is refused as outdated, also after a restart.
The lobby's ⚙ settings buttons are group buttons with an option code as well,
``o:{table}:{mark}:{code}``: ``m`` opens the settings keyboard, ``k`` goes back, and a letter
plus a value sets an option (``rhunan`` rule set, ``s4`` seats, ``xmin21`` two-seat option,
``b5`` 底分, ``t60`` timer; see ``Handlers._option``).
``n:{table}:{mark}`` places (or withdraws) a bird (打鸟) on the next hand, from the lobby or a
settlement alike (``bot.birds``).
Confirmations carry the hand they belong to, ``{kind}:{table}:{hand}``
(in ``version``): ``e`` confirms 逃跑, ``s`` confirms stopping a running hand, ``k`` keeps
playing (cancels either); a confirmation of a hand no longer running is outdated.
A replay button (/replay) is ``p:{hand}:{step}`` (in ``version``): show that step of that
finished hand; it is checked against the chat it is pressed in (``bot.present.replays``).
A vote's buttons (``bot.votes``) are ``v:{table}:{vote}:{1|0}`` (同意 / 拒绝; the vote id in
``version``, the answer in ``index``): a press of a vote that is over is outdated.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

MAX_BYTES = 64
SIMPLE_KINDS = frozenset("mhd")
LOBBY_KINDS = frozenset("jlbr")
SETTLEMENT_KINDS = frozenset("gq")
GROUP_KINDS = LOBBY_KINDS | SETTLEMENT_KINDS
CONFIRM_KINDS = frozenset("esk")
OPTION_KIND = "o"
BIRD_KIND = "n"
REPLAY_KIND = "p"
VOTE_KIND = "v"
PATTERN = (r"\A(?:a:[0-9]+:[0-9]+:[0-9]+|[mhd]:[0-9]+|[jlbrgqeskn]:[0-9]+:[0-9]+"
           r"|o:[0-9]+:[0-9]+:[a-z][a-z0-9]{0,15}|p:[0-9]+:[0-9]+|v:[0-9]+:[0-9]+:[01])\Z")
_RE = re.compile(PATTERN)


@dataclass(frozen=True)
class Press:
    kind: str
    table_id: int
    version: int = 0
    index: int = 0
    option: str = ""  # a settings button's option code


def _checked(data: str) -> str:
    assert len(data.encode()) <= MAX_BYTES, f"callback data over {MAX_BYTES} bytes: {data!r}"
    return data


def action(table_id: int, version: int, index: int) -> str:
    return _checked(f"a:{table_id}:{version}:{index}")


def simple(kind: str, table_id: int) -> str:
    if kind not in SIMPLE_KINDS:
        raise ValueError(f"unknown button kind {kind!r}")
    return _checked(f"{kind}:{table_id}")


def group(kind: str, table_id: int, mark: int) -> str:
    """A lobby or settlement button of the table whose latest hand was ``mark``."""
    if kind not in GROUP_KINDS:
        raise ValueError(f"unknown group button kind {kind!r}")
    return _checked(f"{kind}:{table_id}:{mark}")


def confirm(kind: str, table_id: int, hand_id: int) -> str:
    """A confirmation (or its cancel) about hand ``hand_id`` of the table."""
    if kind not in CONFIRM_KINDS:
        raise ValueError(f"unknown confirmation kind {kind!r}")
    return _checked(f"{kind}:{table_id}:{hand_id}")


def option(table_id: int, mark: int, code: str) -> str:
    """A ⚙ settings button of the lobby of the table whose latest hand was ``mark``."""
    return _checked(f"{OPTION_KIND}:{table_id}:{mark}:{code}")


def bird(table_id: int, mark: int) -> str:
    """The 打鸟 button of the table whose latest hand was ``mark``."""
    return _checked(f"{BIRD_KIND}:{table_id}:{mark}")


def replay(hand_id: int, step: int) -> str:
    """A replay button: step ``step`` of the finished hand ``hand_id``."""
    return _checked(f"{REPLAY_KIND}:{hand_id}:{step}")


def vote(table_id: int, vote_id: int, yes: bool) -> str:
    """同意 (``yes``) or 拒绝 of vote ``vote_id`` at the table (see ``bot.votes``)."""
    return _checked(f"{VOTE_KIND}:{table_id}:{vote_id}:{int(yes)}")


def parse(data: str | None) -> Press | None:
    """The press described by ``data``, or ``None`` when it is not ours or malformed."""
    if not data or len(data.encode()) > MAX_BYTES or not _RE.fullmatch(data):
        return None
    kind, *numbers = data.split(":")
    if kind == OPTION_KIND:
        table_id, mark, code = numbers
        return Press(kind, int(table_id), int(mark), option=code)
    return Press(kind, *(int(n) for n in numbers))
