"""The one error type of the fake Bot API: becomes ``{"ok": false, ...}`` on the wire."""

from __future__ import annotations


class ApiError(Exception):
    """A Bot API error response: HTTP status = ``error_code``, text = ``description``."""

    def __init__(self, code: int, description: str, parameters: dict | None = None) -> None:
        super().__init__(f"{code} {description}")
        self.code = code
        self.description = description
        self.parameters = parameters

    def to_json(self) -> dict:
        body: dict = {"ok": False, "error_code": self.code, "description": self.description}
        if self.parameters:
            body["parameters"] = self.parameters
        return body
