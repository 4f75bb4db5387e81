"""The live seat's first open on a slow phone link: from navigation to the table shown (the
seat's view drawn with its cards' pictures loaded, its buttons live) in headless Chromium
with an empty cache, throttled by Chromium's own network emulation (``--kbps`` down and up,
``--rtt`` ms latency per request; 1.6 Mbit/s and 150 ms by default). The page as it is now
and as it was at ``--before`` (a git revision), served by the same bot, each opened ``--runs``
times; prints each run and the medians (docs/live-seat.md).

    .venv/bin/python bench/bench_webapp_open.py [--runs 5] [--before 2c0e6ab]
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import subprocess
import tempfile
import time
from pathlib import Path

from webapp_table import ROOT, live_table

# shown: the page says it is live, every <img> it has is loaded, its card sprite (if it has
# one) too
PROBE = """return document.body && document.body.dataset.state === 'live'
  && [...document.images].every(i => i.complete && i.naturalWidth > 0)
  && window.spriteReady !== false ? performance.now() : null"""


def open_once(driver, url: str, kbps: float, rtt: float, timeout: float = 30.0) -> float:
    """Milliseconds from navigation to the table shown, in a fresh tab with no cache."""
    driver.switch_to.new_window("tab")
    try:
        driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {
            "width": 390, "height": 844, "deviceScaleFactor": 2, "mobile": True})
        driver.execute_cdp_cmd("Network.enable", {})
        driver.execute_cdp_cmd("Network.setCacheDisabled", {"cacheDisabled": True})
        driver.execute_cdp_cmd("Network.clearBrowserCache", {})
        driver.execute_cdp_cmd("Network.emulateNetworkConditions", {
            "offline": False, "latency": rtt, "downloadThroughput": kbps * 1000 / 8,
            "uploadThroughput": kbps * 1000 / 8})
        driver.execute_script("window.location.href = arguments[0]", url)
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            try:
                shown = driver.execute_script(PROBE)
            except Exception:  # the page is being replaced
                shown = None
            if shown:
                return float(shown)
            time.sleep(0.02)
        raise TimeoutError(f"the table did not show within {timeout} s")
    finally:
        driver.close()
        driver.switch_to.window(driver.window_handles[0])


async def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--kbps", type=float, default=1600.0)
    ap.add_argument("--rtt", type=float, default=150.0)
    ap.add_argument("--before", default="2c0e6ab",
                    help="the revision whose page is measured as 'before'")
    args = ap.parse_args()
    from support.webapp import chromium

    old = subprocess.run(["git", "show", f"{args.before}:bot/webapp/static/index.html"],
                         cwd=ROOT, check=True, capture_output=True).stdout
    with tempfile.TemporaryDirectory() as tmp, chromium("none") as driver:
        async with live_table(Path(tmp), action_timeout=600.0) as t:
            web = t["svc"].webapp.webapp
            now = web._page
            url = t["url"](0)
            results = {}
            for name, page in (("before", old), ("after", now)):
                web._page = page
                times = []
                for _ in range(args.runs):
                    times.append(await asyncio.to_thread(open_once, driver, url, args.kbps,
                                                         args.rtt))
                results[name] = times
                print(f"{name:6} ({args.before if name == 'before' else 'now'}): "
                      + " ".join(f"{ms:.0f}" for ms in times) + " ms")
            web._page = now
    print(f"table shown at {args.kbps / 1000:g} Mbit/s, {args.rtt:g} ms, empty cache, median: "
          + ", ".join(f"{k} {statistics.median(v):.0f} ms" for k, v in results.items()))


if __name__ == "__main__":
    asyncio.run(main())
