"""The deterministic player of the bot-process tests: the lowest awaited seat plays what
``engine.player`` picks, so a hand driven through the bot (restarts and all) can be compared
with the uninterrupted run, the engine alone with the same choices."""

from __future__ import annotations

from bot.i18n import t
from engine import player
from engine.rules import QQ
from engine.state import Hand
from support.fakebot import FakeMessage, FakeTelegram, FakeUser

_TAKEN = tuple(t("zh", f"taken_{kind}", name="") for kind in ("hu", "pao", "peng", "chi"))


def choice(hand: Hand) -> tuple[int, str]:
    """(seat, action): the lowest awaited seat and the policy's action for it."""
    seat = min(hand.to_act())
    public = [e for e in hand.history if e.visible_to is None]
    return seat, player.choose(hand.private_view(seat), public)


def reference(seed: int, dealer: int) -> Hand:
    """The uninterrupted run: the engine alone, the same deal and the same choices."""
    hand = Hand.new(QQ, seed=seed, dealer=dealer)
    while not hand.is_terminal():
        hand.apply(*choice(hand))
    return hand


def hand_message(tg: FakeTelegram, user: FakeUser) -> FakeMessage | None:
    """The user's latest hand picture in his private chat."""
    photos = [m for m in tg.messages(user) if m.photo_bytes]
    return photos[-1] if photos else None


def taken(answer_text: str | None) -> bool:
    """The press answered "Dave 吃 了这张牌": another seat's higher claim took the card (a
    claim counted all the same, or one pressed after it): the chooser reads the hand anew."""
    return answer_text is not None and answer_text.endswith(_TAKEN)
