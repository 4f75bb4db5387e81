"""复盘 through the real bot and a fake Telegram: after a hand each human's private result
offers 🔍 复盘 (his hand message does not: one end-of-hand message per seat); pressed, his
private chat gets his own seat's review (its text and the pictures
``render.review.render_moment`` draws for his flagged moments), computed in a worker thread;
a press by someone who did not sit at the hand is refused and sends nothing; /replay, in
private or in the group, offers the same button; computer seats get none."""

from __future__ import annotations

import asyncio
import random

from support.e2e import hand_message, make_config, running_bot, services
from support.fakebot import FakeMessage, FakeTelegram, FakeUser
from support.play import play_hand, start_hand
from support.robots import alice_plays, one_human_two_computers

from bot import callbacks as cb
from bot.i18n import t
from bot.present import reviews
from bot.present.reviews import review_of
from bot.present.screens.result import result_text
from bot.present.screens.review import (
    MAX_PICTURES,
    moment_caption,
    pictured,
    review_text,
)
from bot.store import PlayedHand
from bot.table import HandRecord, Table
from engine import actions as A
from engine.review import COSTLY_LOSS, RATING_ANCHORS
from render.review import render_moment

REVIEW = "🔍 复盘"


def review_data(msg: FakeMessage | None) -> list[str]:
    """The callback data of the message's 🔍 复盘 buttons."""
    assert msg is not None
    return [data for row in msg.keyboard for text, data in row if text == REVIEW and data]


def result_message(tg: FakeTelegram, user: FakeUser, table: Table,
                   record: HandRecord) -> FakeMessage:
    """The user's one private result of the hand (``bot.present.results``)."""
    head = result_text(table, record, record.users.index(user.id), "zh", total=0,
                       hand_birds=(), live=False).splitlines()[0]
    [found] = [m for m in tg.messages(user) if m.text and m.text.startswith(head)]
    return found


async def played_hand(app, hand_id: int) -> PlayedHand:  # type: ignore[no-untyped-def]
    found = await services(app).store.played_hand(hand_id)
    assert found is not None
    return found[1]


async def press_review(tg: FakeTelegram, app, msg: FakeMessage,  # type: ignore[no-untyped-def]
                       user: FakeUser) -> tuple[str | None, list[FakeMessage]]:
    """``user`` presses the 🔍 复盘 of ``msg``: the toast, and what his DM got since."""
    before = len(tg.messages(user))
    answer = await tg.press_button(msg, user, REVIEW)
    await services(app).presenter.idle()
    return answer.text, tg.messages(user)[before:]


def is_review(sent: list[FakeMessage], played: PlayedHand, seat: int, lang: str = "zh") -> None:
    """``sent`` is exactly the seat's review: its text, then its flagged moments' pictures."""
    review = review_of(played, seat, lang)
    steps = pictured(review, seat)
    assert [m.text for m in sent[:1]] == [review_text(review, seat, played, lang)]
    assert [m.photo_bytes for m in sent[1:]] == \
        [render_moment(review, seat, step, played.names) for step in steps]
    assert [m.caption for m in sent[1:]] == \
        [moment_caption(review, seat, step, lang) for step in steps]
    assert [m.silent for m in sent] == [False] + [True] * len(steps)  # one notification


async def test_each_human_is_offered_his_own_review_and_nobody_elses(tg: FakeTelegram,
                                                                     tmp_path) -> None:
    async with running_bot(make_config(tg, tmp_path / "db.sqlite3"), seed=2) as app:
        users, group, lobby, svc, table = await start_hand(tg, app)
        record = table.current
        await svc.presenter.idle()
        assert review_data(hand_message(tg, users[0])) == []  # not while the hand is played
        await play_hand(tg, app, users, group, random.Random(5))
        played = await played_hand(app, record.id)
        for user in users:  # each one's result offers it, his hand message does not
            assert review_data(result_message(tg, user, table, record)) == [cb.Review(record.id).pack()]
            assert review_data(hand_message(tg, user)) == []

        final = result_message(tg, users[1], table, record)
        others = [len(tg.messages(u)) for u in (users[0], users[2])]
        toast, sent = await press_review(tg, app, final, users[1])
        assert toast == t("zh", "review_coming")
        is_review(sent, played, 1)
        review = review_of(played, 1, "zh")
        mine = review.seat(1)
        assert sent[0].text.splitlines()[1] == t("zh", "review_rating", rating=mine.rating,
                                                         **RATING_ANCHORS)
        for d in mine.costliest():  # coaching: the move counted from 1, then what it should be
            line = f"· 第 {d.move_no} 步:{A.label(d.played)}(应{A.label(d.best)}),约少 "
            assert line in sent[0].text
        assert 1 <= len(sent) - 1 <= MAX_PICTURES  # this hand has flagged moments of his
        assert t("zh", "review_pictures", n=len(sent) - 1, costly=f"{COSTLY_LOSS:g}",
                 most=MAX_PICTURES) in sent[0].text  # which moments are drawn, and why
        assert [len(tg.messages(u)) for u in (users[0], users[2])] == others  # his alone

        # Dora, who did not sit at the hand, presses Bob's button (its data, from her chat)
        dora = tg.user("Dora", language_code="en")
        tg.start_private(dora)
        hers = await tg.wait_reply(await tg.send_text(dora, dora, "/start"))
        calls = len(tg.calls)
        answer = await tg.press(dora, hers.message_id, dora, cb.Review(record.id).pack())
        assert answer.text == t("en", "review_foreign")
        await svc.presenter.idle()
        assert not [c for c in tg.calls[calls:] if c.method.startswith("send")]
        answer = await tg.press(dora, hers.message_id, dora, cb.Review(record.id + 5).pack())
        assert answer.text == t("en", "stale")  # no such finished hand


async def test_replay_offers_the_review_in_private_and_in_the_group(tg: FakeTelegram,
                                                                    tmp_path) -> None:
    async with running_bot(make_config(tg, tmp_path / "db.sqlite3"), seed=2) as app:
        users, group, lobby, svc, table = await start_hand(tg, app)
        record = table.current
        await play_hand(tg, app, users, group, random.Random(4))
        played = await played_hand(app, record.id)
        await svc.presenter.idle()

        mine = await tg.wait_reply(await tg.send_text(users[2], users[2], f"/replay {record.id}"))
        assert review_data(mine) == [cb.Review(record.id).pack()]
        toast, sent = await press_review(tg, app, mine, users[2])
        assert toast == t("zh", "review_coming")
        is_review(sent, played, 2)

        # the group's replay: a player's press sends his review to his private chat only
        shown = await tg.wait_reply(await tg.send_text(group, users[0], "/replay"))
        assert review_data(shown) == [cb.Review(record.id).pack()]
        in_group = len(tg.messages(group))
        toast, sent = await press_review(tg, app, shown, users[0])
        assert toast == t("zh", "review_coming_dm")
        is_review(sent, played, 0)
        assert len(tg.messages(group)) == in_group
        stranger = tg.user("Eve")
        tg.start_private(stranger)
        calls = len(tg.calls)
        answer = await tg.press_button(shown, stranger, REVIEW)
        assert answer.text == t("zh", "review_foreign")
        await svc.presenter.idle()
        assert not [c for c in tg.calls[calls:] if c.method.startswith("send")]


async def test_the_review_is_computed_in_a_worker_thread_once_at_a_time(
        tg: FakeTelegram, tmp_path, monkeypatch) -> None:
    """The review runs through ``asyncio.to_thread`` (off the event loop); a second press
    while it is on its way is told so and computes nothing more."""
    threaded: list[object] = []
    to_thread = asyncio.to_thread

    async def recording(func, /, *args, **kwargs):  # type: ignore[no-untyped-def]
        threaded.append(func)
        return await to_thread(func, *args, **kwargs)
    monkeypatch.setattr(reviews.asyncio, "to_thread", recording)
    async with running_bot(make_config(tg, tmp_path / "db.sqlite3"), seed=2) as app:
        users, group, lobby, svc, table = await start_hand(tg, app)
        record = table.current
        await play_hand(tg, app, users, group, random.Random(4))
        final = result_message(tg, users[0], table, record)
        first = await tg.press_button(final, users[0], REVIEW)
        second = await tg.press_button(final, users[0], REVIEW)
        assert (first.text, second.text) == (t("zh", "review_coming"), t("zh", "review_busy"))
        await svc.presenter.idle()
        assert threaded.count(review_of) == 1
        played = await played_hand(app, record.id)
        sent = len(pictured(review_of(played, 0, "zh"), 0)) + 1
        is_review(tg.messages(users[0])[-sent:], played, 0)


async def test_with_computers_only_the_human_is_offered_a_review(tg: FakeTelegram,
                                                                 tmp_path) -> None:
    async with running_bot(make_config(tg, tmp_path / "db.sqlite3")) as app:
        alice, group, _, table = await one_human_two_computers(tg, app)
        await tg.wait_for(lambda: table.status == "playing")  # alone with computers: dealt at once
        record = table.current
        await alice_plays(tg, app, alice, table, random.Random(6))
        await services(app).presenter.idle()
        result = result_message(tg, alice, table, record)
        assert review_data(result) == [cb.Review(record.id).pack()]
        assert not [c for c in tg.calls if c.chat_id in record.users[1:]]  # computers: no DM
        toast, sent = await press_review(tg, app, result, alice)
        assert toast == t("zh", "review_coming")
        is_review(sent, await played_hand(app, record.id), 0)
