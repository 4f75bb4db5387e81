"""A 429 under a flood is logged as one warning line with its wait, never as an ERROR with a
traceback: the outbox that made the call sends it again (see :mod:`bot.present.outbox`)."""

from __future__ import annotations

import logging

import pytest
from support.e2e import make_config, running_bot, services
from support.fakebot import FakeTelegram, RateLimits


@pytest.mark.filterwarnings("ignore::telegram.warnings.PTBDeprecationWarning")  # PTB's 429 parsing
async def test_each_429_is_one_warning_line_with_its_wait(fake_tg: FakeTelegram, tmp_path,
                                                          caplog: pytest.LogCaptureFixture) -> None:
    tg = fake_tg
    caplog.set_level(logging.WARNING)
    async with running_bot(make_config(tg, tmp_path / "db.sqlite3")) as app:
        presenter = services(app).presenter
        bob = tg.user("Bob")
        chat = tg.start_private(bob)
        tg.rate_limits = RateLimits(private_per_second=1, private_burst=1)
        for n in range(3):  # unpaced here: the second comes within the second, and is refused
            presenter.note(bob.id, lambda lang, n=n: f"note {n}")
        await presenter.idle()
        assert [m.text for m in tg.messages(chat)] == ["note 0", "note 1", "note 2"]
    assert tg.rejections
    assert [r for r in caplog.records if r.levelno >= logging.ERROR] == []
    assert [r for r in caplog.records if r.exc_info] == []
    told = [r for r in caplog.records if "429" in r.getMessage()]
    assert len(told) == len(tg.rejections)
    assert all(r.levelno == logging.WARNING for r in told)
    assert all(r.getMessage().endswith(f"again in {rejection.retry_after:g} s")
               for r, rejection in zip(told, tg.rejections, strict=True))
