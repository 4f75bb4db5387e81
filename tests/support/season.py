"""A season of simulated matches written into a store as the bot writes them: each hand
played out by the engine, every seat deciding with a computer level's policy (a "human" seat
with the level he is made to play like), its log, results and scores stored. What the skill
measures are computed from, without playing hundreds of hands through Telegram."""

from __future__ import annotations

import itertools
import random
from collections.abc import Sequence

from bot.store import Store
from engine import player
from engine.rules import get_rule_set
from engine.state import Hand

GROUP_RULES = "qq"
_topics = itertools.count(1000)
POSTED = 1  # a message id standing for one posted long ago


def play_out(seed: int, dealer: int, levels: Sequence[str]) -> Hand:
    """A qq hand with seat s deciding as ``levels[s]``."""
    hand = Hand.new(get_rule_set(GROUP_RULES), seed=seed, dealer=dealer)
    rng = random.Random(seed)
    while not hand.is_terminal():
        seat = hand.to_act()[0]
        public = [e for e in hand.history if e.visible_to is None]
        hand.apply(seat, player.choose(hand.private_view(seat), public, rng,
                                       level=levels[seat]))
    return hand


async def open_table(store: Store, chat_id: int, opener: int, level: str,
                     bot_id: int = 0) -> int:
    async with store.transaction() as tx:
        table_id = await tx.create_table(chat_id, opener, 1, thread_id=next(_topics),
                                         bot_id=bot_id)
        await tx.update_table(table_id, robot_level=level)
    return table_id


async def store_hand(store: Store, chat_id: int, table_id: int, users: Sequence[int],
                     hand: Hand) -> int:
    """The finished ``hand`` at ``table_id``, seats held by ``users``: its id."""
    outcome = hand.outcome
    assert outcome is not None and hand.seed is not None
    async with store.transaction() as tx:
        no = await tx.next_hand_no(chat_id)
        hand_id = await tx.create_hand(table_id, no, no, hand.rules.key, hand.seed,
                                       hand.dealer)
        for seat, action in hand.log:
            await tx.append_action(hand_id, seat, action)
        win = outcome.win
        await tx.finish_hand(hand_id, chat_id, users, outcome.points, outcome.winner,
                             zimo=win is not None and win.zimo,
                             huxi=None if win is None else win.huxi)
        await tx.update_hand(hand_id, settle_msg_id=POSTED)  # its settlement is no bot's to post
    return hand_id


async def close(store: Store, table_ids: Sequence[int]) -> None:
    async with store.transaction() as tx:
        for table_id in table_ids:
            await tx.close_table(table_id, 1)
