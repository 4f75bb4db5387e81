"""Seats shown elsewhere: while a seat's live page (the Mini App, :mod:`bot.webapp`) is open,
its private picture is not edited (the chat's budget goes to the others); when the page
closes, the picture is brought up to date at once, as new buttons are (``Presenter.seat_released``,
``SeatMessages.give_back``): it may show buttons answered on the page."""

from __future__ import annotations

from typing import Protocol


class LiveSeats(Protocol):
    def holds(self, user_id: int) -> bool:
        """The user's live page is open: his picture waits."""


class NoLive:
    """No live pages (no WEBAPP_PORT): every picture is kept up to date."""

    def holds(self, user_id: int) -> bool:
        return False
