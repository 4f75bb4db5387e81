"""Callback data: typed per kind, at most 64 bytes, strict parsing, nothing else accepted,
and the strings of buttons already in chats still read as before."""

from __future__ import annotations

import dataclasses

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot import callbacks as cb
from bot.numbers import MOST_ID

BIG = 2**63 - 1  # the largest SQLite row id


def _values(kind: type[cb.Button]) -> st.SearchStrategy[dict[str, object]]:
    """Any honest fields of ``kind``."""
    of_type = {"int": st.integers(0, MOST_ID), "bool": st.booleans(),
               "str": st.from_regex(cb.CODE, fullmatch=True)}
    return st.fixed_dictionaries({name: of_type[t] for name, t in cb.fields(kind)})


@pytest.mark.parametrize("kind", list(cb.KINDS.values()), ids=lambda k: k.__name__)
@given(data=st.data())
def test_every_kind_fits_and_round_trips(kind: type[cb.Button], data: st.DataObject) -> None:
    press = kind(**data.draw(_values(kind)))
    packed = press.pack()
    assert len(packed.encode()) <= cb.MAX_BYTES
    assert packed.startswith(kind.letter + ":")
    assert cb.parse(packed) == press and kind.unpack(packed) == press
    others = [k for k in cb.KINDS.values() if k is not kind]
    assert all(k.unpack(packed) is None for k in others)  # read only as its own kind


# Data as the bot sent it before the kinds were typed (and as buttons in chats still carry
# it): each reads as the same press, its fields named.
OLD_BUTTONS = [
    ("a:12:3:4", cb.Act(table=12, version=3, index=4)),
    ("m:7", cb.TakeBack(table=7)), ("h:7", cb.Hint(table=7)), ("d:7", cb.Dissolve(table=7)),
    ("j:5:0", cb.Join(table=5, mark=0)), ("l:5:9", cb.Leave(table=5, mark=9)),
    ("b:5:9", cb.Begin(table=5, mark=9)), ("r:5:9", cb.AddComputer(table=5, mark=9)),
    ("g:5:9", cb.Again(table=5, mark=9)), ("q:5:9", cb.Quit(table=5, mark=9)),
    ("n:5:9", cb.Bird(table=5, mark=9)),
    ("o:5:9:rhunan", cb.Setting(table=5, mark=9, code="rhunan")),
    ("o:1:0:uq10", cb.Setting(table=1, mark=0, code="uq10")),
    ("e:5:40", cb.ConfirmEscape(table=5, hand=40)), ("s:5:40", cb.ConfirmStop(table=5, hand=40)),
    ("k:5:40", cb.KeepPlaying(table=5, hand=40)),
    ("p:40:17", cb.Replay(hand=40, step=17)), ("f:40", cb.Review(hand=40)),
    ("c:40", cb.Verify(hand=40)),
    ("v:5:3:1", cb.Vote(table=5, vote=3, yes=True)), ("v:5:3:0", cb.Vote(table=5, vote=3, yes=False)),
    ("x:8", cb.ChallengeJoin(challenge=8)), ("u:8", cb.ChallengeLeave(challenge=8)),
    ("y:8:21:2", cb.ChallengeMove(challenge=8, version=21, index=2)),
    ("w:8:1", cb.ChallengeDiff(challenge=8, place=1)),
    ("t:6", cb.CupJoin(cup=6)),
]


@pytest.mark.parametrize(("data", "press"), OLD_BUTTONS, ids=[d for d, _ in OLD_BUTTONS])
def test_buttons_already_in_chats_keep_working(data: str, press: cb.Button) -> None:
    assert cb.parse(data) == press
    assert press.pack() == data  # and the bot still sends the very same strings


def test_every_kind_has_an_old_button_above() -> None:
    assert {type(p) for _, p in OLD_BUTTONS} == set(cb.KINDS.values())


@pytest.mark.parametrize("data", [
    None, "", "a:1:2", "a:1:2:3:4", "a:-1:2:3", "a:1:2:x", "z:1", "j:1", "m:1:2", "a:1:2:3 ",
    "a:1:2:3\n", "a:" + "9" * 70 + ":1:1", "j:１", f"a:{MOST_ID + 1}:1:1", "v:1:2:2",
    "v:1:2:yes", "o:1:2:Rhunan", "o:1:2:", "o:1:2:" + "a" * 17, ":1", "a", "p:12", "p:12:-1",
    "c:1:2", "e:1", "j:1:0:" + "0" * 60,
])
def test_malformed_or_forged_data_is_refused(data: str | None) -> None:
    assert cb.parse(data) is None


def test_a_shape_is_no_kind() -> None:
    """A class several kinds share reads nothing: its data has no letter."""
    assert cb.Marked.unpack("j:1:2") is None and cb.Seat.unpack("m:1") is None
    assert cb.Join.unpack("l:1:2") is None  # nor one kind another's


@pytest.mark.parametrize("press", [
    cb.Act(10**70, 1, 1), cb.Act(-1, 1, 1), cb.Join(MOST_ID + 1, 0),
    cb.Setting(1, 1, "BAD"), cb.Setting(1, 1, "x" * 40),
], ids=repr)
def test_data_that_would_not_read_back_is_a_bug(press: cb.Button) -> None:
    with pytest.raises(ValueError):
        press.pack()


def test_fields_are_named_and_presses_are_values() -> None:
    press = cb.Setting(table=3, mark=4, code="b5")
    assert [f.name for f in dataclasses.fields(press)] == ["table", "mark", "code"]
    assert cb.TakeBack(1) != cb.Hint(1)  # same shape, different kinds
    with pytest.raises(dataclasses.FrozenInstanceError):
        press.table = 5  # type: ignore[misc]


@pytest.mark.parametrize("letter", ["a", ":"])
def test_a_kind_letter_is_given_once(letter: str) -> None:
    with pytest.raises(ValueError):
        class Again(cb.Seat, letter=letter):  # noqa: F841
            pass
    assert cb.KINDS.get("a") is cb.Act
