"""Screenshots of the live seat at phone sizes, light and dark (docs/live-seat.md): a hand
dealt by the real bot, played by ``engine.player`` through the table service until each
moment — the deal, a discard picked with its 听, a claim, the settlement — and each seat's
page photographed at 390 and 360 px wide and in landscape (844 × 390), light and dark.

    .venv/bin/python bench/webapp_shots.py OUT_DIR [--seed N]
"""

from __future__ import annotations

import argparse
import asyncio
import random
import tempfile
from pathlib import Path

from webapp_table import live_table

from bot.present.screens.seat import seat_ting
from bot.table import Refusal
from engine import player

SIZES = ((390, 844), (360, 640), (844, 390))  # the last: a phone turned to landscape
SCHEMES = ("light", "dark")


def shoot(page, out: Path, name: str) -> None:
    driver = page._here()
    for width, height in SIZES:
        for scheme in SCHEMES:
            driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {
                "width": width, "height": height, "deviceScaleFactor": 2, "mobile": True})
            driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {
                "features": [{"name": "prefers-color-scheme", "value": scheme}]})
            driver.execute_script("return new Promise(r => setTimeout(r, 150))")
            page.screenshot(out / f"{name}-{width}-{scheme}.png")
    driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": []})


async def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("out", type=Path)
    ap.add_argument("--seed", type=int, default=3)
    args = ap.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    from support.webapp import Page, chromium

    with tempfile.TemporaryDirectory() as tmp, chromium() as driver:
        async with live_table(Path(tmp), seed=args.seed, action_timeout=600.0) as t:
            table, svc, users = t["table"], t["svc"], t["users"]
            record = table.current
            pages = {}
            for seat in users:
                pages[seat] = await asyncio.to_thread(Page, driver, t["url"](seat))
                await asyncio.to_thread(pages[seat].wait, lambda p: p.state() == "live")
            rng = random.Random(args.seed)
            wanted = {"deal", "ting", "claim", "settlement"}

            async def settle(seat: int) -> None:
                await svc.presenter.idle()
                version = table.decisions[seat].version if seat in table.decisions else None
                await asyncio.to_thread(pages[seat].wait, lambda p: (p.view() or {}).get(
                    "version") == version and not p.busy())

            dealer = next(s for s, d in table.decisions.items()
                          if any(a.startswith("d:") for a in d.legal))
            await settle(dealer)
            await asyncio.to_thread(shoot, pages[dealer], args.out, "deal")
            wanted.discard("deal")
            for _ in range(400):
                await svc.presenter.idle()
                if table.status != "playing":
                    break
                for seat, d in table.decisions.items():
                    if not d.legal:
                        continue
                    view = record.hand.private_view(seat)
                    after = seat_ting(record.hand.rules, view).by_discard
                    if "ting" in wanted and after:
                        await settle(seat)
                        page = pages[seat]
                        card = after[0][0]
                        await asyncio.to_thread(page.pick, card)
                        await asyncio.to_thread(shoot, page, args.out, "ting")
                        wanted.discard("ting")
                    if "claim" in wanted and any(a.startswith(("c:", "peng", "hu")) for a in d.legal):
                        await settle(seat)
                        await asyncio.to_thread(shoot, pages[seat], args.out, "claim")
                        wanted.discard("claim")
                moved = False
                for seat, d in list(table.decisions.items()):
                    if not d.legal:
                        continue
                    view = record.hand.private_view(seat)
                    public = [e for e in record.hand.history if e.visible_to is None]
                    action = player.choose(view, public, rng)
                    try:
                        await svc.service.act(table.id, users[seat].id, d.version,
                                              d.legal.index(action))
                        moved = True
                        break
                    except Refusal:
                        continue
                assert moved
            await svc.presenter.idle()
            await asyncio.to_thread(pages[0].wait, lambda p: (p.view() or {}).get("over")
                                    and p.sheet_ready())
            await asyncio.to_thread(shoot, pages[0], args.out, "settlement")
            wanted.discard("settlement")
    print("shot:", sorted({"deal", "ting", "claim", "settlement"} - wanted),
          "missed:", sorted(wanted))


if __name__ == "__main__":
    asyncio.run(main())
