"""The live seat in a real browser (headless Chromium, support.webapp): two seats play a hand
to its end through their pages while the third plays by its pictures; the pages show exactly
each seat's legal moves, a discard takes two taps (the card, then the confirm control) and
shows its 听 when picked, the pictures of seats whose page is open are not edited and catch
up once it closes, forged or expired init data gets a screen saying what to do, and the
hand's end is a settlement sheet (how it ended, each seat's points and running total, the
再来一局 countdown); a restart of the bot reconnects an open page to the same hand; a page
closed mid-hand gives its seat back to the chat with live buttons."""

import asyncio
import json
import random
import signal
import time
from contextlib import ExitStack
from urllib.parse import quote

import pytest
from support.botproc import fake_env, start_bot, stop_bot
from support.e2e import action_buttons, hand_message, make_config, running_bot
from support.play import seat_three, start_hand
from support.robots import one_human_two_computers
from support.webapp import (
    Page,
    chromium,
    contrast,
    edits_to,
    free_port,
    init_data,
    page_url,
    webapp_config,
)

from bot.i18n import t
from bot.present.screens.seat import seat_ting
from bot.present.screens.words import outcome_lines
from engine import actions as A
from engine import player
from engine.points import signed

SHEET = """return [...document.querySelectorAll('#sheet tr')].map(r =>
    [...r.querySelectorAll('td')].map(d => d.textContent))"""


def screen_text(page) -> str:
    return page._here().execute_script(
        "const s = document.getElementById('screen');"
        "return s.classList.contains('on') ? s.innerText : ''")


async def test_a_hand_played_through_the_pages(fake_tg, tmp_path):
    tg, port = fake_tg, free_port()
    base = f"http://127.0.0.1:{port}/app/"
    config = make_config(tg, tmp_path / "db.sqlite3", webapp=webapp_config(port))
    with ExitStack() as stack:
        driver = await asyncio.to_thread(stack.enter_context, chromium())
        async with running_bot(config) as app:
            users, group, lobby, svc, table = await start_hand(tg, app)
            record = table.current
            by_seat = {s: next(u for u in users if u.id == uid)
                       for s, uid in enumerate(record.users)}
            carol_seat = 2  # plays by the pictures
            pages = {}
            for seat in (0, 1):
                user = by_seat[seat]
                url = page_url(base, init_data(tg.token, user.id, user.first_name))
                pages[seat] = await asyncio.to_thread(Page, driver, url)
                await asyncio.to_thread(pages[seat].wait, lambda p: p.state() == "live")
            forged = await asyncio.to_thread(
                Page, driver, page_url(base, init_data("1:" + "x" * 35, by_seat[0].id)))
            await asyncio.to_thread(forged.wait, lambda p: p.state() == "expired")
            assert t("zh", "webapp_expired") in await asyncio.to_thread(screen_text, forged)
            await asyncio.to_thread(forged.close)
            await svc.presenter.idle()
            held = {s: edits_to(tg, by_seat[s]) for s in pages}

            rng = random.Random(5)
            picked_ting = 0
            for step in range(400):
                await svc.presenter.idle()
                if table.status != "playing":
                    break
                seat = rng.choice([s for s, d in table.decisions.items() if d.legal
                                   and table.pressed.get(s, (None,))[0] != d.version])
                view = record.hand.private_view(seat)
                public = [e for e in record.hand.history if e.visible_to is None]
                label = A.label(player.choose(view, public, rng), "zh")
                want = sorted(A.label(a, "zh") for a in table.decisions[seat].legal)
                if seat == carol_seat:
                    user = by_seat[seat]
                    msg = hand_message(tg, user)
                    buttons = action_buttons(msg)
                    assert sorted(text for text, _ in buttons) == want
                    data = next(d for text, d in buttons if text == label)
                    await tg.press(user, msg.message_id, user, data)
                    continue
                page = pages[seat]
                if step == 12:  # what a player sees (README's screenshot is one of these)
                    await asyncio.to_thread(page.screenshot, tmp_path / f"seat{seat}.png")
                # exactly the seat's legal moves, within one round trip of the change
                await asyncio.to_thread(page.wait, lambda p, w=want: sorted(p.moves()) == w,
                                        what=f"seat {seat}'s moves {want}")
                shown = await asyncio.to_thread(page.view)
                assert shown["my_hand"] == list(view.hand)
                for other in shown["seats"]:
                    assert "hand" not in other  # the others' cards: a count only
                after = dict(seat_ting(record.hand.rules, view).by_discard)
                if after:  # the first tap on a discard that leaves the hand 听: its waits
                    card = next(iter(after))
                    await asyncio.to_thread(page.pick, card)
                    ting = await asyncio.to_thread(page._here().execute_script,
                                                   "return document.getElementById('ting')"
                                                   ".textContent")
                    assert all(f"{p['char']}×{w.unseen}" in ting for w in after[card]
                               for p in [shown["cards"][str(w.card)]]), ting
                    picked_ting += 1
                answer = await asyncio.to_thread(page.click, label)
                assert answer in (t("zh", "played", move=label),
                                  t("zh", "claim_pending", move=label))
            else:
                pytest.fail("the hand did not end")
            await svc.presenter.idle()
            assert {s: edits_to(tg, by_seat[s]) for s in pages} == held  # pictures held

            # the hand's end: the settlement sheet, and 再来一局 on it
            again = t("zh", "btn_again")
            await asyncio.to_thread(pages[0].wait, lambda p: again in p.moves())
            shown = await asyncio.to_thread(pages[0].view)
            assert shown["over"]
            totals = await svc.store.table_totals(table.id)
            outcome = record.hand.outcome
            want_rows = [[record.names[s] + (" 胡" if s == outcome.winner else ""),
                          signed(outcome.points[s]), f"累计 {signed(totals.get(u, 0))}"]
                         for s, u in enumerate(record.users)]
            rows = await asyncio.to_thread(pages[0].wait, lambda p: (
                r := p._here().execute_script(SHEET)) == want_rows and r,
                what="the sheet's points and totals")
            assert rows == want_rows
            sheet = await asyncio.to_thread(lambda: pages[0]._here().execute_script(
                "return document.getElementById('sheet').innerText"))
            for line in outcome_lines(record, "zh"):
                assert line in sheet
            assert "秒内按「再来一局」" in sheet
            print("discards picked with their 听 shown:", picked_ting)
            await asyncio.to_thread(pages[0].screenshot, tmp_path / "over.png")
            # answered as the settlement's button is
            assert await asyncio.to_thread(pages[0].click, again) == t("zh", "ready")
            assert table.players[0].ready
            await asyncio.to_thread(pages[0].wait, lambda p: again not in p.moves())

            # the page closes: its picture is brought up to date, once
            alice = by_seat[0]
            await asyncio.to_thread(pages[0].close)
            await tg.wait_for(lambda: edits_to(tg, alice) > held[0], timeout=10,
                              what="the picture to catch up")
            await svc.presenter.idle()
            assert not action_buttons(hand_message(tg, alice))
            assert edits_to(tg, by_seat[1]) == held[1]  # Bob's page is still open


async def test_a_restart_reconnects_the_page_to_the_same_hand(fake_tg, tmp_path):
    """``python -m bot`` killed (SIGKILL) mid-hand and started again: the open page says it
    lost the connection, then shows the same hand again, live."""
    tg, port = fake_tg, free_port()
    base = f"http://127.0.0.1:{port}/app/"
    env = fake_env(tg, DB_PATH=str(tmp_path / "db.sqlite3"), BOT_SEED="7",
                   ACTION_TIMEOUT="600", FULL_START_DELAY="0",
                   WEBAPP_PORT=str(port), WEBAPP_URL=base)
    proc = await start_bot(tg, tmp_path, env, log=tmp_path / "bot.log")
    with ExitStack() as stack:
        try:
            driver = await asyncio.to_thread(stack.enter_context, chromium())
            users, _, _ = await seat_three(tg)  # three seated: dealt at once
            alice = users[0]
            await tg.wait_for(lambda: hand_message(tg, alice), timeout=30, what="the deal")
            page = await asyncio.to_thread(
                Page, driver, page_url(base, init_data(tg.token, alice.id, "Alice")))
            await asyncio.to_thread(page.wait, lambda p: p.state() == "live")
            before = await asyncio.to_thread(page.view)
            await stop_bot(proc, signal.SIGKILL)
            await asyncio.to_thread(page.wait, lambda p: p.state() == "offline")
            proc = await start_bot(tg, tmp_path, env, log=tmp_path / "bot.log")
            await asyncio.to_thread(page.wait, lambda p: p.state() == "live", 30)
            after = await asyncio.to_thread(page.view)
            same = ("table", "hand", "seat", "my_hand", "my_melds", "seats", "offer", "moves")

            def timeless(view: dict) -> dict:  # the clocks have ticked meanwhile
                return {k: [{**s, "seconds": None} for s in view[k]] if k == "seats"
                        else view[k] for k in same}

            assert timeless(after) == timeless(before)
        finally:
            await stop_bot(proc, signal.SIGKILL)


async def test_a_page_that_cannot_play_says_why_and_what_to_do(fake_tg, tmp_path):
    """Init data that expires while the page is open: the next press shows the 失效 screen
    (not a silent failure); one already expired, the same at once, in the user's language;
    a user who is not seated, a screen saying so. Each has the button back to the chat."""
    tg, port = fake_tg, free_port()
    base = f"http://127.0.0.1:{port}/app/"
    config = make_config(tg, tmp_path / "db.sqlite3", webapp=webapp_config(port))
    max_age = config.webapp.max_age
    with ExitStack() as stack:
        driver = await asyncio.to_thread(stack.enter_context, chromium())
        async with running_bot(config) as app:
            users, group, lobby, svc, table = await start_hand(tg, app)
            await svc.presenter.idle()
            dealer = next(s for s, d in table.decisions.items() if d.legal)
            user = next(u for u in users if u.id == table.current.users[dealer])
            soon = time.time() - max_age + 4  # valid for 4 more seconds
            page = await asyncio.to_thread(
                Page, driver, page_url(base, init_data(tg.token, user.id, auth_date=soon)))
            await asyncio.to_thread(page.wait, lambda p: p.state() == "live" and p.moves())
            await asyncio.sleep(max(0.0, soon + max_age + 1 - time.time()))
            version = table.decisions[dealer].version
            kind = await asyncio.to_thread(lambda: page._here().execute_script(
                "return document.querySelector('#hand [data-move]').dataset.kind"))
            await asyncio.to_thread(page.pick, int(kind))
            await asyncio.to_thread(lambda: page._here().find_element(
                "css selector", "[data-confirm]").click())
            await asyncio.to_thread(page.wait, lambda p: p.state() == "expired")
            text = await asyncio.to_thread(screen_text, page)
            assert t("zh", "webapp_expired") in text and t("zh", "webapp_back") in text
            assert table.decisions[dealer].version == version  # nothing was played
            # the table moves on: the page stays on its screen (no view hides it again)
            await svc.service.act(table.id, user.id, version, 0)
            await svc.presenter.idle()
            await asyncio.sleep(1.0)
            assert await asyncio.to_thread(page.state) == "expired"

            old = init_data(tg.token, user.id, lang="en", auth_date=time.time() - max_age - 5)
            stale = await asyncio.to_thread(Page, driver, page_url(base, old))
            await asyncio.to_thread(stale.wait, lambda p: p.state() == "expired")
            text = await asyncio.to_thread(screen_text, stale)
            assert t("en", "webapp_expired") in text and t("en", "webapp_back") in text

            # a theme of Telegram's whose hint is too pale to read is darkened until it reads
            dave = tg.user("Dave")
            theme = {"bg_color": "#ffffff", "text_color": "#000000", "hint_color": "#dddddd",
                     "secondary_bg_color": "#f0f0f0", "button_color": "#8ecdf8",
                     "button_text_color": "#ffffff"}
            unseated = await asyncio.to_thread(
                Page, driver, page_url(base, init_data(tg.token, dave.id, "Dave"))
                + "&tgWebAppThemeParams=" + quote(json.dumps(theme)))
            await asyncio.to_thread(unseated.wait, lambda p: p.state() == "not_seated")
            assert t("zh", "webapp_not_seated") in await asyncio.to_thread(screen_text, unseated)
            colours = await asyncio.to_thread(unseated._here().execute_script, """
                const css = getComputedStyle(document.documentElement);
                return Object.fromEntries(['--bg', '--card', '--hint', '--btn', '--btn-fg']
                  .map(n => [n, css.getPropertyValue(n).trim()]))""")
            assert colours["--bg"] == "#ffffff"
            for text, ground in (("--hint", "--bg"), ("--hint", "--card"), ("--btn-fg", "--btn")):
                assert contrast(colours[text], colours[ground]) >= 4.5, (text, ground, colours)


# Telegram's ``window.Telegram.WebApp`` as far as the page uses it, recording each call
TELEGRAM = """
window.tgCalls = [];
const rec = (name) => (...args) => { window.tgCalls.push([name, ...args]); };
const button = (name) => ({text: "", visible: false, click: null,
  setText(t) { this.text = t; return this; }, show() { this.visible = true; return this; },
  hide() { this.visible = false; return this; }, onClick(f) { this.click = f; return this; }});
window.Telegram = {WebApp: {initData: "", themeParams: {}, ready: rec("ready"),
  expand: rec("expand"), close: rec("close"), onEvent: rec("onEvent"),
  enableClosingConfirmation: rec("closing_on"), disableClosingConfirmation: rec("closing_off"),
  HapticFeedback: {selectionChanged: rec("selection"), impactOccurred: rec("impact"),
                   notificationOccurred: rec("notification")},
  MainButton: button("main"), BackButton: button("back")}};
"""


async def test_inside_telegram_the_main_button_plays_the_picked_card(fake_tg, tmp_path):
    """With Telegram's WebApp there: the first tap on a discard picks it (a selection
    haptic) and shows Telegram's MainButton saying which card it plays; pressing the
    MainButton plays it (an impact haptic); while the hand is played the BackButton shows
    and closing asks first; the seat's turn buzzed once when it came. The table stopped under
    the page: a screen says so, and its button closes the page back to the chat."""
    tg, port = fake_tg, free_port()
    base = f"http://127.0.0.1:{port}/app/"
    config = make_config(tg, tmp_path / "db.sqlite3", webapp=webapp_config(port))
    with ExitStack() as stack:
        driver = await asyncio.to_thread(stack.enter_context, chromium())
        async with running_bot(config) as app:
            users, group, lobby, svc, table = await start_hand(tg, app)
            await svc.presenter.idle()
            dealer = next(s for s, d in table.decisions.items() if d.legal)
            user = next(u for u in users if u.id == table.current.users[dealer])
            page = await asyncio.to_thread(
                Page, driver, page_url(base, init_data(tg.token, user.id)), before=TELEGRAM)
            await asyncio.to_thread(page.wait, lambda p: p.state() == "live" and p.moves())
            run = page._here().execute_script
            calls = lambda: [c[0] for c in run("return window.tgCalls")]  # noqa: E731
            await asyncio.to_thread(page.wait, lambda p: "closing_on" in calls())
            assert {"ready", "expand", "notification"} <= set(calls())
            assert run("return Telegram.WebApp.BackButton.visible")
            assert not run("return Telegram.WebApp.MainButton.visible")
            assert not run("return !!document.querySelector('#confirm.on')")  # Telegram's own

            kind = int(run("return document.querySelector('#hand [data-move]').dataset.kind"))
            version = table.decisions[dealer].version
            await asyncio.to_thread(page.pick, kind)
            assert "selection" in calls()
            assert run("return Telegram.WebApp.MainButton.visible")
            want = t("zh", "webapp_confirm", card=shown_char(page, kind))
            assert run("return Telegram.WebApp.MainButton.text") == want
            assert table.decisions[dealer].version == version  # one tap played nothing

            run("document.getElementById('toast').textContent = '';"
                "Telegram.WebApp.MainButton.click()")
            answer = await asyncio.to_thread(page.wait, lambda p: run(
                "return document.getElementById('toast').textContent"))
            assert answer == t("zh", "played", move=A.label(A.discard(kind), "zh"))
            assert "impact" in calls()
            await asyncio.to_thread(page.wait, lambda p: not run(
                "return Telegram.WebApp.MainButton.visible"), what="the MainButton hidden")

            # the table is stopped under the open page: a screen says it is over, with the
            # way back to the chat, and closing no longer asks
            await svc.service.stop(table.id, table.opener_id, True, hand_id=table.current.id)
            await asyncio.to_thread(page.wait, lambda p: p.state() == "over")
            text = await asyncio.to_thread(screen_text, page)
            assert t("zh", "webapp_over_title") in text and t("zh", "webapp_back") in text
            made = calls()
            assert max(i for i, c in enumerate(made) if c == "closing_off") > \
                max(i for i, c in enumerate(made) if c == "closing_on")
            assert not run("return Telegram.WebApp.BackButton.visible")
            run("document.getElementById('back').click()")
            assert calls()[-1] == "close"


def shown_char(page, kind: int) -> str:
    return page.view()["cards"][str(kind)]["char"]


async def test_the_computers_moves_are_paced_on_the_page(fake_tg, tmp_path):
    """Alone with two computers that move every 50 ms (Alice in 托管 after a 1 s timer), her
    page shows each other seat's move for at least the page's pause before drawing the next
    view, however fast they come: a computer's run can be followed."""
    tg, port = fake_tg, free_port()
    base = f"http://127.0.0.1:{port}/app/"
    config = make_config(tg, tmp_path / "db.sqlite3", webapp=webapp_config(port),
                         action_timeout=1.0)
    with ExitStack() as stack:
        driver = await asyncio.to_thread(stack.enter_context, chromium())
        async with running_bot(config) as app:
            alice, group, lobby, table = await one_human_two_computers(tg, app)
            await tg.wait_for(lambda: table.status == "playing")
            page = await asyncio.to_thread(
                Page, driver, page_url(base, init_data(tg.token, alice.id, "Alice")))
            await tg.wait_for(lambda: table.status != "playing", timeout=60)
            await asyncio.to_thread(page.wait, lambda p: p.view()["over"] and not p.busy(),
                                    30.0, "the hand's end drawn")
            log = await asyncio.to_thread(page._here().execute_script, "return window.drawLog")
    others = [(a, b) for a, b in zip(log, log[1:], strict=False)
              if a[1] is not None and a[2] is not None and a[2] != a[3] and b[1] != a[1]]
    assert len(others) >= 3, log
    gaps = [b[0] - a[0] for a, b in others]
    assert min(gaps) >= 440, gaps  # the page's 450 ms, give or take a timer's slack


async def test_a_page_closed_mid_hand_gives_the_seat_back_to_the_chat(fake_tg, tmp_path):
    """A seat plays on its page in Chromium while the others play by their pictures; nothing
    is sent to its chat meanwhile. Its tab is closed while it has a move to make: within a few
    seconds its private picture shows exactly that move's buttons, of that decision (not the
    ones it answered on the page, which would say "这个按钮已过时"), and a press on them plays."""
    tg, port = fake_tg, free_port()
    base = f"http://127.0.0.1:{port}/app/"
    config = make_config(tg, tmp_path / "db.sqlite3", webapp=webapp_config(port))
    with ExitStack() as stack:
        driver = await asyncio.to_thread(stack.enter_context, chromium())
        async with running_bot(config) as app:
            users, group, lobby, svc, table = await start_hand(tg, app)
            record = table.current
            by_seat = {s: next(u for u in users if u.id == uid)
                       for s, uid in enumerate(record.users)}
            me = by_seat[0]
            page = await asyncio.to_thread(
                Page, driver, page_url(base, init_data(tg.token, me.id, me.first_name)))
            await asyncio.to_thread(page.wait, lambda p: p.state() == "live")
            await svc.presenter.idle()
            held = edits_to(tg, me)

            def open_decision(seat: int):
                d = table.decisions.get(seat)
                unpressed = d is not None and table.pressed.get(seat, (None,))[0] != d.version
                return d if d is not None and d.legal and unpressed else None

            def labels(seat: int) -> list[str]:
                d = open_decision(seat)
                return sorted(A.label(a, "zh") for a in d.legal) if d else []

            def shows_now() -> bool:
                """His picture has exactly his open decision's buttons, of that decision."""
                buttons = action_buttons(hand_message(tg, me))
                d = open_decision(0)
                return sorted(text for text, _ in buttons) == labels(0) and d is not None \
                    and all(data.split(":")[2] == str(d.version) for _, data in buttons)

            rng, on_page = random.Random(7), 0
            for _ in range(300):
                await svc.presenter.idle()
                assert table.status == "playing"
                if on_page and open_decision(0) and not shows_now():
                    break
                seat = rng.choice([s for s in table.decisions if open_decision(s)])
                view = record.hand.private_view(seat)
                public = [e for e in record.hand.history if e.visible_to is None]
                label = A.label(player.choose(view, public, rng), "zh")
                if seat == 0:
                    want = labels(0)
                    await asyncio.to_thread(page.wait, lambda p, w=want: sorted(p.moves()) == w,
                                            what="his moves on the page")
                    assert (await asyncio.to_thread(page.click, label)).startswith("✓")
                    on_page += 1
                    continue
                user = by_seat[seat]
                msg = hand_message(tg, user)
                data = dict(action_buttons(msg))[label]
                assert (await tg.press(user, msg.message_id, user, data)).text != t("zh", "stale")
            else:
                raise AssertionError("he never had a move to make after playing on the page")
            assert edits_to(tg, me) == held  # nothing sent while his page was open
            await asyncio.to_thread(page.close)
            await tg.wait_for(shows_now, timeout=5, what="his picture with live buttons")
            decision = open_decision(0)
            buttons = dict(action_buttons(hand_message(tg, me)))
            label = A.label(decision.legal[0], "zh")
            answer = await tg.press(me, hand_message(tg, me).message_id, me, buttons[label])
            assert (answer.text or "").startswith("✓"), answer  # played, not "stale"
