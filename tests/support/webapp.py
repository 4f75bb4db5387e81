"""The live seat in tests: init data signed as Telegram signs it (written out here from
Telegram's documentation, apart from bot.webapp.initdata, so that a mistake in one is not
copied into the other), and the headless Chromium that opens the page."""

from __future__ import annotations

import hashlib
import hmac
import json
import os
import shutil
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from urllib.parse import quote, urlencode

import pytest

from bot.config import WebAppConfig

CHROMIUM, CHROMEDRIVER = "/usr/bin/chromium", "/usr/bin/chromedriver"
CHROMIUM_FLAGS = ("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
                  "--no-first-run", "--disable-background-networking",
                  "--disable-component-update", "--disable-sync", "--disable-dev-shm-usage")


def init_data(token: str, user_id: int, first_name: str = "Alice", *, lang: str = "zh-hans",
              auth_date: float | None = None, **extra: str) -> str:
    """``initData`` as a Mini App receives it: url-encoded fields and their ``hash``."""
    fields = {"auth_date": str(int(time.time() if auth_date is None else auth_date)),
              "query_id": "AAHdF6IQAAAAAN0XohDhrOrc",
              "user": json.dumps({"id": user_id, "first_name": first_name,
                                  "language_code": lang}, separators=(",", ":"),
                                 ensure_ascii=False),
              **extra}
    return sign(token, fields)


def sign(token: str, fields: dict[str, str]) -> str:
    """``fields`` and their ``hash``: HMAC_SHA256 keyed with HMAC_SHA256("WebAppData", token)
    of the sorted ``key=value`` lines."""
    check = "\n".join(f"{k}={v}" for k, v in sorted(fields.items()))
    key = hmac.new(b"WebAppData", token.encode(), hashlib.sha256).digest()
    signed = {**fields, "hash": hmac.new(key, check.encode(), hashlib.sha256).hexdigest()}
    return urlencode(signed, quote_via=quote)


def page_url(base: str, data: str) -> str:
    """The page as Telegram opens it: the init data in the fragment."""
    return f"{base}#tgWebAppData={quote(data, safe='')}&tgWebAppVersion=8.0&tgWebAppPlatform=tdesktop"


def browser_available() -> bool:
    return os.access(CHROMIUM, os.X_OK) and os.access(CHROMEDRIVER, os.X_OK)


@contextmanager
def chromium(page_load_strategy: str = "normal") -> Iterator[object]:
    """A fresh headless Chromium at phone size; skipped without one unless REQUIRE_BROWSER
    is set (CI sets it: there a browser test that cannot run fails). ``page_load_strategy``
    "none": a script runs in a page still loading (a timing of its own, bench/)."""
    if not browser_available():
        if os.environ.get("REQUIRE_BROWSER"):
            pytest.fail(f"REQUIRE_BROWSER is set but {CHROMIUM} or {CHROMEDRIVER} is missing")
        pytest.skip("no chromium / chromedriver (apt-get install chromium chromium-driver)")
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    profile = tempfile.mkdtemp(prefix="chromium-")
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    options.page_load_strategy = page_load_strategy
    for flag in (*CHROMIUM_FLAGS, f"--user-data-dir={profile}",
                 "--window-size=500,900"):
        options.add_argument(flag)
    driver = webdriver.Chrome(service=Service(CHROMEDRIVER), options=options)
    try:
        yield driver
    finally:
        driver.quit()
        shutil.rmtree(profile, ignore_errors=True)


def luminance(colour: str) -> float:
    def f(v: int) -> float:
        c = v / 255
        return c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4
    r, g, b = (int(colour[i:i + 2], 16) for i in (1, 3, 5))
    return 0.2126 * f(r) + 0.7152 * f(g) + 0.0722 * f(b)


def contrast(a: str, b: str) -> float:
    """WCAG's contrast ratio of two ``#rrggbb`` colours (text wants at least 4.5)."""
    x, y = sorted((luminance(a), luminance(b)), reverse=True)
    return (x + 0.05) / (y + 0.05)


EDITS = ("editMessageMedia", "editMessageCaption", "editMessageReplyMarkup")


def edits_to(tg, user) -> int:
    """The edits of the user's private chat so far (his seat picture's)."""
    return sum(1 for c in tg.calls if c.method in EDITS and c.chat_id == user.id)


def free_port() -> int:
    import socket
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def webapp_config(port: int, short_name: str | None = None) -> WebAppConfig:
    """The live seat served on this machine (http is accepted for 127.0.0.1 alone)."""
    return WebAppConfig(url=f"http://127.0.0.1:{port}/app/", port=port, short_name=short_name)


class Page:
    """One tab of the browser showing one user's live page; every call blocks (run it in a
    thread: the bot shares the test's event loop)."""

    def __init__(self, driver, url: str, width: int = 390, height: int = 844,
                 before: str | None = None) -> None:
        """``before``: a script run in the tab before the page's own (a stand-in for
        Telegram's ``window.Telegram.WebApp``)."""
        self.driver = driver
        driver.switch_to.new_window("tab")
        self.handle = driver.current_window_handle
        if before is not None:
            driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": before})
        # a phone's viewport (a headless window is at least 500 px wide)
        driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {
            "width": width, "height": height, "deviceScaleFactor": 1, "mobile": True})
        driver.get(url)

    def _here(self):
        self.driver.switch_to.window(self.handle)
        return self.driver

    def state(self) -> str | None:
        return self._here().execute_script("return document.body.dataset.state || null")

    def moves(self) -> list[str]:
        """The labels of the clickable moves the page shows."""
        return self._here().execute_script(
            "return [...document.querySelectorAll('[data-move]')].map(e => e.dataset.move)")

    def view(self) -> dict:
        return self._here().execute_script("return window.seatView()")

    def busy(self) -> bool:
        """Views wait to be shown (the page paces other seats' moves) or a press is out."""
        return self._here().execute_script("return window.pageBusy()")

    def sheet_ready(self) -> bool:
        """The settlement sheet is up."""
        return self._here().execute_script(
            "return document.getElementById('sheet').classList.contains('on')")

    def pick(self, kind: int) -> None:
        """The first tap of a discard: the card ``kind`` rises, its 听 shows."""
        from selenium.webdriver.common.by import By
        self._here().find_element(By.CSS_SELECTOR, f'#hand .c.legal[data-kind="{kind}"]').click()
        self.wait(lambda p: p._here().execute_script(
            "return !!document.querySelector('#hand .c.sel')"), what=f"card {kind} picked")

    def click(self, label: str, timeout: float = 15.0) -> str:
        """Play the move and return the answer the page shows (its toast): a claim or a
        button with one tap; a discard with two, the card (it rises) and then the confirm
        control (``data-confirm``)."""
        from selenium.webdriver.common.by import By
        driver = self._here()
        driver.execute_script("document.getElementById('toast').textContent = ''")
        target = driver.find_element(By.CSS_SELECTOR, f'[data-move="{label}"]')
        discard = target.get_attribute("data-discard")
        picked = "sel" in (target.get_attribute("class") or "").split()
        target.click()  # a discard picked already: this second tap plays it
        if discard and not picked:
            assert driver.execute_script("return document.getElementById('toast').textContent"
                                         ) == "", "one tap played a discard"
            self.wait(lambda p: p._here().execute_script(
                "return !!document.querySelector('#hand .c.sel')"), timeout, f"{label} picked")
            driver.find_element(By.CSS_SELECTOR, "[data-confirm]").click()
        return self.wait(lambda p: p._here().execute_script(
            "return document.getElementById('toast').textContent"), timeout, f"{label}'s answer")

    def wait(self, predicate, timeout: float = 15.0, what: str = "the page"):
        """Poll ``predicate(self)`` until it is true; its value."""
        deadline = time.monotonic() + timeout
        while True:
            value = predicate(self)
            if value:
                return value
            if time.monotonic() > deadline:
                raise AssertionError(f"timed out waiting for {what}: {self.state()}, "
                                     f"{self.moves()}")
            time.sleep(0.02)

    def screenshot(self, path) -> None:
        self._here().save_screenshot(str(path))

    def close(self) -> None:
        self._here().close()
