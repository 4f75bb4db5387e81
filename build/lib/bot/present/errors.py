"""What a Bot API refusal means for the presenter: a forum topic that refuses posts, a
message that is gone, an edit that changed nothing, and the wait a 429 asks for."""

from __future__ import annotations

import logging
import warnings
from datetime import timedelta

from telegram.error import BadRequest, NetworkError, RetryAfter, TelegramError
from telegram.warnings import PTBDeprecationWarning


def topic_refusal(e: BadRequest) -> str | None:
    """Why a forum topic refused a post: "closed" (TOPIC_CLOSED: only its admins may post),
    "gone" (deleted: "message thread not found"), or None: not for its topic."""
    text = str(e).lower()
    if "topic_closed" in text:
        return "closed"
    return "gone" if "thread not found" in text else None


def transient(e: TelegramError) -> bool:
    """A refusal that a later try may not get: a 429 or trouble on the way (a timeout, a
    lost connection). A BadRequest is a NetworkError in PTB, but trying again changes nothing."""
    return isinstance(e, RetryAfter) or (isinstance(e, NetworkError)
                                         and not isinstance(e, BadRequest))


def gone(e: BadRequest) -> bool:
    """The message to edit no longer exists (the user deleted it)."""
    return "not found" in str(e).lower()


def not_modified(e: BadRequest) -> bool:
    """An edit refused because the message already shows exactly that."""
    return "not modified" in str(e).lower()


RATE_LIMITER_LOG = "telegram.ext.AIORateLimiter"


class _NoRetryAfterErrors(logging.Filter):
    """Drops PTB's ERROR (with a traceback) for a 429 its rate limiter was told not to retry
    (``max_retries=0`` in ``build_application``): the outbox that made the call
    waits as told and sends it again, and logs one warning line with the wait."""

    def filter(self, record: logging.LogRecord) -> bool:
        error = record.exc_info[1] if record.exc_info else None
        return not isinstance(error, RetryAfter)


_NO_RETRY_AFTER_ERRORS = _NoRetryAfterErrors()


def quiet_rate_limiter() -> None:
    """Leave a 429 to the outboxes to log (idempotent)."""
    logging.getLogger(RATE_LIMITER_LOG).addFilter(_NO_RETRY_AFTER_ERRORS)


def retry_seconds(e: RetryAfter) -> float:
    """The wait a 429 asks for, in seconds."""
    with warnings.catch_warnings():  # PTB 22 warns that the type will become timedelta
        warnings.simplefilter("ignore", PTBDeprecationWarning)
        delay = e.retry_after
    return delay.total_seconds() if isinstance(delay, timedelta) else float(delay)
