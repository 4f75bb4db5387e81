"""The live seat from a group (WEBAPP_SHORT_NAME): the table picture's 🀄 link opens the Mini
App with the table in ``startapp``; the page opened from it shows the presser's seat at that
table (Telegram signs the table as ``start_param``), 403 for a table he is not seated at."""

import aiohttp
from support.e2e import make_config, running_bot
from support.play import start_hand
from support.webapp import free_port, init_data, webapp_config

from bot.i18n import t


async def test_group_link_opens_that_tables_seat(fake_tg, tmp_path):
    tg, port = fake_tg, free_port()
    base = f"http://127.0.0.1:{port}/app/"
    config = make_config(tg, tmp_path / "db.sqlite3", webapp=webapp_config(port, "live"))
    async with running_bot(config) as app:
        users, group, lobby, svc, table = await start_hand(tg, app)
        await svc.presenter.idle()
        picture = await tg.wait_for(lambda: next(
            (m for m in tg.messages(group) if m.photo_bytes and m.reply_markup), None),
            timeout=10, what="the table picture's link")
        [[button]] = picture.reply_markup["inline_keyboard"]
        link = f"https://t.me/{tg.bot.username}/live?startapp=t{table.id}"
        assert button == {"text": t("zh", "webapp_button"), "url": link}

        alice, dave = users[0], tg.user("Dave")
        async with aiohttp.ClientSession() as http:
            async def seat(user, start_param: str) -> tuple[int, dict]:
                data = init_data(tg.token, user.id, user.first_name, start_param=start_param)
                async with http.get(base + "api/seat",
                                    headers={"Authorization": f"tma {data}"}) as r:
                    return r.status, await r.json()

            status, view = await seat(alice, f"t{table.id}")
            assert status == 200 and view["table"] == table.id and view["seat"] == 0
            assert (await seat(alice, f"t{table.id + 1}"))[0] == 403  # not seated there
            assert (await seat(dave, f"t{table.id}"))[0] == 403
            async with http.ws_connect(base + "ws") as ws:
                await ws.send_str(init_data(tg.token, alice.id, start_param=f"t{table.id + 1}"))
                await ws.receive()
                assert ws.close_code == 4403


async def test_no_short_name_no_link(fake_tg, tmp_path):
    tg, port = fake_tg, free_port()
    async with running_bot(make_config(tg, tmp_path / "db.sqlite3",
                                       webapp=webapp_config(port))) as app:
        users, group, lobby, svc, table = await start_hand(tg, app)
        await svc.presenter.idle()
        pictures = [m for m in tg.messages(group) if m.photo_bytes]
        assert pictures and all(not m.keyboard for m in pictures)
