"""Whether the store can be reached, as each backend finds out call by call.

A backend turns what its driver raises when the store cannot take a call now (the server
down or restarting, a connection killed, the disk full, the file locked by another
process) into :class:`StoreUnavailable`, and a lock or statement timeout on PostgreSQL (one
row held by another session) into :class:`StoreBusy`; anything else (a bug, a broken
constraint) passes unchanged. Nothing of the failed call was stored, so whoever made it
tries again later. :class:`Health` says it once when the store goes away and once when it is
back, rather than a traceback per call. Every call is timed and every failure counted
(:mod:`bot.metrics`); :func:`probe` tells ``/healthz`` whether the store answers.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable, Iterator
from contextlib import contextmanager

from bot.metrics import STORE_FAILURES, STORE_SECONDS

log = logging.getLogger("bot.store")


class StoreUnavailable(Exception):
    """The store could not take the call now; nothing of it was stored."""


class StoreBusy(StoreUnavailable):
    """The call waited past the lock or statement timeout (another session holds a row it
    needs): the store is up, this one change waits."""


# A backend's sorting of its driver's errors: the kind of unavailability, or None for an
# error that is not one (raised as it is).
Classify = Callable[[BaseException], type[StoreUnavailable] | None]


class Health:
    """The store's state as its calls found it: up until a call finds it unreachable, down
    until a transaction commits again (the backend calls :meth:`back`)."""

    def __init__(self, classify: Classify) -> None:
        self._classify = classify
        self.up = True
        self.reason = ""  # what the call that found it unavailable met

    @contextmanager
    def watch(self) -> Iterator[None]:
        """Run one call of the store, its failure sorted (see the module's doc). Its success
        says nothing yet: a full disk still reads; the store is back once it commits."""
        started = time.perf_counter()
        try:
            yield
        except StoreUnavailable:
            raise
        except Exception as error:
            kind = self._classify(error)
            if kind is None:
                raise
            STORE_FAILURES.labels("busy" if kind is StoreBusy else "unavailable").inc()
            if kind is StoreUnavailable:
                self.went_away(error)
            raise kind(f"{type(error).__name__}: {error}") from error
        finally:
            STORE_SECONDS.observe(time.perf_counter() - started)

    def went_away(self, error: BaseException) -> None:
        if self.up:
            self.up = False
            self.reason = f"{type(error).__name__}: {error}"
            log.warning("the store is unavailable (%s: %s); nothing changes until it is back",
                        type(error).__name__, error)

    def back(self) -> None:
        if not self.up:
            self.up = True
            log.warning("the store is back")


PROBE_TIMEOUT = 5.0  # seconds a probe's read may take before the store counts as not answering


async def probe(health: Health, read: Callable[[], Awaitable[object]],
                timeout: float = PROBE_TIMEOUT) -> str | None:
    """Why the store does not answer now, or None when it does: ``read`` (a small query of
    the store's) failed or took over ``timeout`` seconds, or the store has been unavailable
    since a call found it so and nothing committed since (a full disk, or a file locked by
    another process, still reads)."""
    try:
        async with asyncio.timeout(timeout):  # not wait_for: bot.waits says why
            await read()
    except TimeoutError:
        return f"store: no answer within {timeout:g} s"
    except Exception as error:  # whatever the driver raises: the reason is its message
        return f"store: {type(error).__name__}: {error}"
    if not health.up:
        return f"store: unavailable ({health.reason})"
    return None
