"""Which finished hand /replay and its buttons show, read from the store.

In a group ``/replay N`` is the group's hand number N (the ``#N`` that /history and the
replay caption show beside the table's own 第 k 局); in a private chat it is the hand id (as /me and the export file name show it) of a
hand the user sat at. A hand voided by /stop has no result and is not replayed.
"""

from __future__ import annotations

from bot.store import PlayedHand, Reads
from bot.table import HandStatus


async def group_hand(store: Reads, chat_id: int, no: int) -> PlayedHand | str:
    """The group's finished hand number ``no`` (0: its last), or the key saying why not."""
    if no == 0:
        last = await store.finished_hands(chat_id, 1)
        return last[0] if last else "replay_none"
    return await numbered_hand(store, chat_id, no)


async def numbered_hand(store: Reads, chat_id: int, no: int,
                        keys: str = "replay") -> PlayedHand | str:
    """The group's finished hand number ``no``, or the key saying why not: ``{keys}_unknown``
    (the group has none such), ``{keys}_running`` or ``{keys}_aborted`` (ended by /stop)."""
    hand = await store.hand_in_chat(chat_id, no)
    if hand is None:
        return f"{keys}_unknown"
    hand_id, status = hand
    found = await store.played_hand(hand_id) if status == HandStatus.DONE else None
    if found is None:
        return f"{keys}_running" if status == HandStatus.RUNNING else f"{keys}_aborted"
    return found[1]


async def own_hand(store: Reads, user_id: int, hand_id: int) -> PlayedHand | str:
    """The finished hand ``hand_id`` (0: the last) ``user_id`` sat at, or why not."""
    if hand_id == 0:
        last = await store.last_played_id(user_id)
        if last is None:
            return "replay_dm_none"
        hand_id = last
    found = await store.played_hand(hand_id)
    if found is None or user_id not in found[1].users:
        return "replay_dm_unknown"
    return found[1]


async def step_of(store: Reads, hand_id: int, step: int) -> tuple[int, PlayedHand] | None:
    """(the hand's chat, the hand) when ``step`` is a step of the finished hand ``hand_id``;
    None when there is no such hand or step (a replay button of something gone)."""
    found = await store.played_hand(hand_id)
    if found is None or not 0 <= step <= len(found[1].log):
        return None
    return found
