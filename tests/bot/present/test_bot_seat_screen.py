"""What each seat's private chat and the group read while a claim is open, once it is
settled, after a 逃跑 and in 托管, through the real bot and the fake Bot API. Hands
are dealt from explicit decks (``support.handkit.deck``: dealer, 下家, 上家) at whatever seat the bot
chose to deal."""

from __future__ import annotations

import asyncio
import random
import re
from collections import OrderedDict
from dataclasses import replace
from pathlib import Path

import pytest
from support.dealt import EIGHT, ONE_ASKED, TWO_ASKED, Dealt, deal_from, dealt
from support.e2e import (
    FAST_PACING,
    action_buttons,
    hand_message,
    make_config,
    running_bot,
    services,
)
from support.fakebot import FakeMessage, FakeTelegram
from support.posted import picture_id
from support.robots import one_human_two_computers

from bot.i18n import t
from bot.present.pacing import catch_up_pace
from bot.present.screens import seat as seat_screen
from bot.present.screens.group import draw_table
from bot.present.screens.seat import SeatMarks, draw_hand, hand_signature
from bot.present.screens.words import last_action
from engine import actions as A
from engine.rules import QQ, RuleSet
from engine.state import Hand
from engine.ting import ting as compute_ting
from engine.views import PrivateView, Ting

CLOCK = re.compile(r"还剩 (\d+) 秒")


def status(caption: str) -> str:
    """A hand caption's status line (the clock, if shown, comes after it)."""
    lines = [line for line in caption.splitlines() if not CLOCK.fullmatch(line)]
    return lines[-1]


def buttons(d: Dealt, seat: int) -> list[tuple[str, str]]:
    return action_buttons(hand_message(d.tg, d.users[seat]))


async def test_nobody_is_told_who_may_claim(fake_tg: FakeTelegram, tmp_path: Path,
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    deal_from(monkeypatch, **ONE_ASKED)
    async with dealt(fake_tg, tmp_path) as d:
        dealer, xia, shang = d.seat(0), d.seat(1), d.seat(2)
        await d.svc.presenter.idle()
        discard = t("zh", "wait_discard", name=d.name(dealer))
        assert d.group_caption().splitlines()[-1] == discard  # a discard turn is public
        assert status(d.caption(xia)) == status(d.caption(shang)) == discard
        await d.press(dealer, A.discard(EIGHT))
        assert d.record.hand.to_act() == (shang,)  # the deck's point: he alone is asked
        await d.svc.presenter.idle()
        group, asked = d.group_caption(), d.caption(shang)
        assert group.splitlines()[-1] == t("zh", "wait_answers")
        assert d.name(shang) not in group
        for seat in (dealer, xia):
            assert status(d.caption(seat)) == t("zh", "wait_answers")
            assert d.name(shang) not in d.caption(seat)
            assert CLOCK.search(d.caption(seat)) is None  # no clock without a decision
        assert status(asked) == t("zh", "dm_turn_claim")
        left = CLOCK.search(asked)
        assert left is not None and 0 < int(left[1]) <= 30  # the decision's time left
        await d.press(shang, A.PASS)
        await d.svc.presenter.idle()
        assert t("zh", "ev_pass") not in d.group_caption().split()  # nobody is shown passing


async def test_a_claim_taken_by_a_higher_one_loses_its_buttons_at_once(
        fake_tg: FakeTelegram, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    deal_from(monkeypatch, **TWO_ASKED)
    no_catch_up = replace(FAST_PACING, pressed_pace=60.0, table_pace=60.0)  # in this test
    async with dealt(fake_tg, tmp_path, pacing=no_catch_up) as d:
        dealer, xia, shang = d.seat(0), d.seat(1), d.seat(2)
        await d.press(dealer, A.discard(EIGHT))
        assert set(d.record.hand.to_act()) == {xia, shang}
        await fake_tg.wait_for(lambda: buttons(d, xia) and buttons(d, shang), timeout=5)
        await d.press(shang, A.PENG)
        await fake_tg.wait_for(lambda: not buttons(d, xia), timeout=2)  # not 60 s later
        taken = t("zh", "taken_peng", name=d.name(shang))
        assert taken == f"{d.name(shang)} 碰 了这张牌"
        assert taken in d.caption(xia).splitlines()


async def test_a_chi_overtaken_by_a_peng_says_so(fake_tg: FakeTelegram, tmp_path: Path,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    deal_from(monkeypatch, **TWO_ASKED)
    async with dealt(fake_tg, tmp_path) as d:
        dealer, xia, shang = d.seat(0), d.seat(1), d.seat(2)
        await d.press(dealer, A.discard(EIGHT))
        await d.svc.presenter.idle()
        chi = next(a for a in d.table.decisions[xia].legal if a.startswith("c:"))
        pending = t("zh", "claim_pending", move="")[:2]  # 已选: recorded, not yet certain
        await d.press(xia, chi, answer_starts=pending)  # it waits for the 碰 decision
        await d.press(shang, A.PENG)
        await d.svc.presenter.idle()
        taken = t("zh", "taken_peng", name=d.name(shang))
        assert taken in d.caption(xia).splitlines()
        assert taken not in d.caption(shang)  # his own 碰 is no news to him


async def test_after_an_escape_the_others_read_who_left(fake_tg: FakeTelegram,
                                                        tmp_path: Path) -> None:
    async with dealt(fake_tg, tmp_path) as d:
        await d.svc.presenter.idle()
        await d.svc.service.leave(d.table.id, d.users[2].id, hand_id=d.record.id)
        await d.svc.presenter.idle()
        for seat in (0, 1):
            assert status(d.caption(seat)) == t("zh", "dm_over_escape", name="Carol")
            assert not buttons(d, seat)


def ping(d: Dealt, seat: int) -> FakeMessage | None:
    return next((m for m in d.tg.messages(d.users[seat]) if (m.text or "").startswith("⏰")),
                None)


async def test_a_ping_tells_the_time_left_and_goes_once_answered(
        fake_tg: FakeTelegram, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    deal_from(monkeypatch, **ONE_ASKED)
    timeout = 4.0
    async with dealt(fake_tg, tmp_path, pacing=replace(FAST_PACING, ping_delay=0.5),
                     action_timeout=timeout) as d:
        dealer = d.seat(0)
        sent = await fake_tg.wait_for(lambda: ping(d, dealer), timeout=5)
        left = CLOCK.search(sent.text or "")
        assert left is not None and int(left[1]) <= timeout / 2
        # no sooner than half the decision's time (not at ping_delay), and once
        calls = [c for c in fake_tg.calls if c.chat_id == d.users[dealer].id]
        shown_at = next(c.time for c in calls if c.method == "sendPhoto")
        pinged_at = [c.time for c in calls if c.method == "sendMessage"][-1]
        assert pinged_at - shown_at >= timeout / 2 * 0.95
        await d.press(dealer, A.discard(EIGHT))
        await fake_tg.wait_for(lambda: ping(d, dealer) is None, timeout=5)


async def test_quiet_turns_a_players_pings_off_and_tuoguan_still_comes(
        fake_tg: FakeTelegram, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    deal_from(monkeypatch, **ONE_ASKED)
    async with dealt(fake_tg, tmp_path, pacing=replace(FAST_PACING, ping_delay=0.1),
                     action_timeout=1.5) as d:
        dealer = d.seat(0)
        user = d.users[dealer]

        async def says(text: str, answer: str) -> None:
            await fake_tg.send_text(user, user, text)
            await fake_tg.wait_for(lambda: any(m.text == t("zh", answer)
                                               for m in fake_tg.messages(user)))
        await says("/quiet", "quiet_on")
        await fake_tg.wait_for(lambda: d.table.players[dealer].autoplay, timeout=5)
        await d.svc.presenter.idle()
        assert ping(d, dealer) is None  # past half his time, and 托管 came: no ping
        assert (await d.svc.store.user(user.id)).quiet
        group = await fake_tg.wait_reply(await fake_tg.send_text(d.group, user, "/quiet"))
        assert group.text == t("zh", "quiet_private")
        await says("/quiet off", "quiet_off")
        assert not (await d.svc.store.user(user.id)).quiet


async def test_tuoguan_after_a_claim_timeout_is_told_at_its_next_public_turn(
        fake_tg: FakeTelegram, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    deal_from(monkeypatch, **ONE_ASKED)
    async with dealt(fake_tg, tmp_path, action_timeout=1.0) as d:
        dealer, xia, shang = d.seat(0), d.seat(1), d.seat(2)
        note = t("zh", "trustee_note", name=d.name(shang))

        def notes() -> list[str]:
            return [m.text or "" for m in fake_tg.messages(d.group) if m.text == note]

        await d.press(dealer, A.discard(EIGHT))
        hand, player = d.record.hand, d.table.players[shang]
        await fake_tg.wait_for(lambda: player.autoplay, timeout=5)  # his 碰 timed out

        def public_turn() -> bool:
            return hand.is_terminal() or shang in hand.public_view().to_act \
                or last_action(hand, shang).startswith("d:")
        def pictures_are(marks: dict[int, SeatMarks], group: SeatMarks, moves: int) -> None:
            """Each seat's picture and the group's have these marks, unless play went on
            since ``moves`` (the bot applies a move before it tells the presenter)."""
            for seat, mark in marks.items():
                assert shows(d, seat, mark) or len(hand.log) != moves, seat
            assert group_shows(d, group) or len(hand.log) != moves

        for _ in range(100):
            moves = await d.told()
            if public_turn():
                break
            assert not notes() and "托管" not in d.group_caption()  # it would tell he was asked
            pictures_are({dealer: SeatMarks(), xia: SeatMarks(),  # nor do the pictures
                          shang: SeatMarks(frozenset({shang}))},  # but he knows it
                         SeatMarks(), moves)
            for seat, decision in list(d.table.decisions.items()):
                if seat != shang and decision.legal:
                    legal = decision.legal
                    await d.press(seat, A.PASS if A.PASS in legal else legal[0], may_be_late=True)
            await fake_tg.wait_for(lambda: public_turn() or set(hand.to_act()) - {shang})
        await fake_tg.wait_for(notes, timeout=5)  # the hand moved; the bot tells it soon
        moves = await d.told()
        assert notes() == [note]  # one line, once it tells nothing
        if not hand.is_terminal():
            assert t("zh", "trustee_mark", names=d.name(shang)) in d.group_caption().splitlines()
        marked = SeatMarks(frozenset({shang}))
        # a waiting seat's picture catches up within 5 s (README): on a loaded machine the
        # last of them may still be on its way when the presenter is otherwise idle
        await fake_tg.wait_for(lambda: len(hand.log) != moves or (
            all(shows(d, s, marked) for s in range(3)) and group_shows(d, marked)), timeout=8)
        pictures_are(dict.fromkeys(range(3), marked), marked, moves)


def picture_of(d: Dealt, seat: int, marks: SeatMarks) -> bytes:
    """What the seat's picture should be now, with these marks."""
    hand = d.record.hand
    return draw_hand(hand.private_view(seat), d.record.names, "zh", marks, hand.rules)


def group_shows(d: Dealt, marks: SeatMarks) -> bool:
    msg = d.tg.message(d.group, picture_id(d.svc, d.table) or 0)
    pub = d.record.hand.public_view()
    return msg is not None and msg.photo_bytes == draw_table(pub, d.record.names, "zh", marks)


def shows(d: Dealt, seat: int, marks: SeatMarks) -> bool:
    msg = hand_message(d.tg, d.users[seat])
    return msg is not None and msg.photo_bytes == picture_of(d, seat, marks)


@pytest.mark.parametrize("seed", [0, 2])
def test_equal_signatures_mean_equal_pictures(seed: int) -> None:
    """``hand_signature`` covers everything the seat's picture draws (the whole table now),
    so skipping an edit on an equal signature never leaves a stale picture: over a hand of
    random moves, one signature always comes with one picture."""
    rng, hand = random.Random(seed), Hand.new(QQ, seed=seed)
    names = ("Alice", "Bob", "Carol")
    pictures: dict[tuple[object, ...], bytes] = {}
    while not hand.is_terminal():
        for seat in range(3):
            view = hand.private_view(seat)
            picture = draw_hand(view, names, "zh", SeatMarks(), QQ)
            assert pictures.setdefault(hand_signature(view, names, "zh"), picture) == picture
        mover = hand.to_act()[0]
        hand.apply(mover, rng.choice(hand.legal_actions(mover)))


async def test_computer_players_are_marked_in_every_picture(fake_tg: FakeTelegram,
                                                            tmp_path: Path) -> None:
    async with running_bot(make_config(fake_tg, tmp_path / "db.sqlite3")) as app:
        alice, group, lobby, table = await one_human_two_computers(fake_tg, app)
        await fake_tg.wait_for(lambda: table.status == "playing")  # alone with computers: dealt at once
        d = Dealt(fake_tg, services(app), [alice], group, table)
        hand = d.record.hand

        def alice_discards() -> bool:  # then the computers wait for her
            return hand.to_act() == (0,) and A.PASS not in hand.legal_actions(0)
        await fake_tg.wait_for(lambda: alice_discards() or hand.is_terminal(), timeout=10)
        await d.told()
        computers = SeatMarks(robots=frozenset({1, 2}))
        assert shows(d, 0, computers)
        assert group_shows(d, computers)


async def test_ting_is_computed_only_to_draw_a_seat_picture(
        fake_tg: FakeTelegram, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The analyzer is not free: with no live page open (whose pushes would compute it
    once per decision and share it), 听 is computed once per seat picture drawn, where it is
    painted, never for a change that is held back or draws nothing new."""
    views: list[PrivateView] = []
    monkeypatch.setattr(seat_screen, "_shapes", OrderedDict())  # none known from before

    def counted(rules: RuleSet, view: PrivateView) -> Ting:
        views.append(view)
        return compute_ting(rules, view)
    monkeypatch.setattr(seat_screen, "compute_ting", counted)
    deal_from(monkeypatch, **ONE_ASKED)
    async with dealt(fake_tg, tmp_path) as d:
        dealer, shang = d.seat(0), d.seat(2)
        await d.press(dealer, A.discard(EIGHT))
        await d.press(shang, A.PASS)
        await d.told()
        drawn = [c for c in fake_tg.calls if c.chat_id in {u.id for u in d.users}
                 and c.method in ("sendPhoto", "editMessageMedia")]
        assert len(views) == len(drawn) >= 5  # the three dealt, then the changes
async def test_a_waiting_seat_catches_up_within_a_few_seconds_in_one_edit(
        fake_tg: FakeTelegram, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    deal_from(monkeypatch, **ONE_ASKED)
    async with dealt(fake_tg, tmp_path) as d:  # the real paces
        dealer, xia, shang = d.seat(0), d.seat(1), d.seat(2)
        await d.told()
        msg = hand_message(fake_tg, d.users[xia])
        assert msg is not None
        before, started = msg.edits, asyncio.get_running_loop().time()
        await d.press(dealer, A.discard(EIGHT))  # the table changes twice under 下家's eyes,
        await d.press(shang, A.PENG)  # who has no decision: then it waits for 上家's discard
        pace = catch_up_pace(FAST_PACING)
        await fake_tg.wait_for(lambda: msg.edits > before, timeout=pace + 2)
        caught_up = asyncio.get_running_loop().time() - started
        assert pace * 0.9 <= caught_up <= pace + 1  # a few s
        assert msg.edits == before + 1 and shows(d, xia, SeatMarks())  # both moves in one
        assert pace <= 5


async def test_tuoguan_after_a_discard_timeout_is_told_at_once(
        fake_tg: FakeTelegram, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    deal_from(monkeypatch, **ONE_ASKED)
    async with dealt(fake_tg, tmp_path, action_timeout=1.0) as d:
        dealer = d.seat(0)
        note = t("zh", "trustee_note", name=d.name(dealer))
        hand = d.record.hand
        # nobody presses: the dealer's discard turn, which all can see, times out
        await fake_tg.wait_for(lambda: any(m.text == note for m in fake_tg.messages(d.group)),
                               timeout=5)
        assert hand.log[0][0] == dealer and hand.log[0][1].startswith("d:")
        assert not d.table.players[d.seat(2)].autoplay  # told at his discard, a second before
        # 上家's claim on it can time out in turn
