"""The real bot as a process (``python -m bot``) talking to the fake Bot API: its environment,
starting it until it polls, a second start that must be refused, and stopping it."""

from __future__ import annotations

import asyncio
import os
import resource
import signal
import socket
import sys
from pathlib import Path

from support.fakebot import FakeTelegram

ROOT = Path(__file__).resolve().parents[2]

Process = asyncio.subprocess.Process


def free_port() -> int:
    """A localhost port nothing listens on now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def bot_env(token: str, base_url: str, **settings: str) -> dict[str, str]:
    """This process's environment without its bot settings, and the bot's: its token, the
    Bot API's address and ``settings`` (``DB_PATH``, ``DATABASE_URL``, ``BOT_SEED``…)."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("BOT_", "WEBHOOK_"))}
    env.update(PYTHONPATH=str(ROOT), BOT_TOKEN=token, BOT_API_BASE_URL=base_url, **settings)
    return env


def fake_env(tg: FakeTelegram, **settings: str) -> dict[str, str]:
    """:func:`bot_env` for the bot ``tg`` fakes."""
    return bot_env(tg.token, tg.base_url, **settings)


def _open_files(limit: int | None):
    """The child's soft limit of open files (``RLIMIT_NOFILE``: systemd's default is 1,024)."""
    if limit is None:
        return None

    def set_limit() -> None:
        hard = resource.getrlimit(resource.RLIMIT_NOFILE)[1]
        resource.setrlimit(resource.RLIMIT_NOFILE, (limit, hard))
    return set_limit


async def start_bot(tg: FakeTelegram, cwd: Path, env: dict[str, str],
                    log: Path | None = None, open_files: int | None = None) -> Process:
    """Run the bot and return once it polls ``tg`` (its start-up refresh is then queued);
    its output goes to ``log`` (else a pipe, read by :func:`stop_bot`); ``open_files``: its
    limit of open files."""
    seen = len(tg.calls)
    limit = _open_files(open_files)
    if log is None:
        proc = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "bot", cwd=cwd, env=env, preexec_fn=limit,
            stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE)
    else:
        with open(log, "ab") as out:
            proc = await asyncio.create_subprocess_exec(
                sys.executable, "-m", "bot", cwd=cwd, env=env, stdout=out, stderr=out,
                preexec_fn=limit)
    try:
        await tg.wait_for(lambda: any(c.method == "getUpdates" for c in tg.calls[seen:]),
                          timeout=30, what="the bot to poll")
    except BaseException:
        proc.kill()
        await proc.wait()
        raise
    return proc


async def refused_start(cwd: Path, env: dict[str, str]) -> list[str]:
    """Start the bot where it must refuse to run: it exits 2 printing nothing on stdout;
    the lines it printed on stderr."""
    proc = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "bot", cwd=cwd, env=env,
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE)
    out, err = await asyncio.wait_for(proc.communicate(), timeout=30)
    assert proc.returncode == 2 and out == b"", (proc.returncode, out, err)
    return err.decode().splitlines()


async def stop_bot(proc: Process, how: signal.Signals = signal.SIGINT) -> int:
    """Stop the bot with ``how`` and return its exit status (SIGKILL: no clean-up at all)."""
    proc.send_signal(how)
    await asyncio.wait_for(proc.communicate(), timeout=30)
    assert proc.returncode is not None
    return proc.returncode
