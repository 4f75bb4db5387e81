"""Bot API request parameters from query string, urlencoded form, multipart form or JSON body.

PTB sends a urlencoded form (or multipart when uploading) whose values are strings, with
non-string values JSON-encoded; a JSON body carries typed values. ``Params`` reads either.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from aiohttp import BodyPartReader, web

from .errors import ApiError


@dataclass(frozen=True)
class FilePart:
    name: str
    filename: str | None
    content_type: str | None
    data: bytes


class Params:
    def __init__(self, values: dict[str, Any], files: dict[str, FilePart]) -> None:
        self.values = values
        self.files = files

    @classmethod
    async def read(cls, request: web.Request) -> Params:
        values: dict[str, Any] = dict(request.query)
        files: dict[str, FilePart] = {}
        if request.content_type == "application/json":
            body = await request.json()
            if isinstance(body, dict):
                values.update(body)
        elif request.content_type == "multipart/form-data":
            reader = await request.multipart()
            while (part := await reader.next()) is not None:
                if not isinstance(part, BodyPartReader) or part.name is None:
                    continue
                if part.filename is not None:
                    files[part.name] = FilePart(
                        part.name,
                        part.filename,
                        part.headers.get("Content-Type"),
                        bytes(await part.read()),
                    )
                else:
                    values[part.name] = await part.text()
        elif request.can_read_body:
            values.update(await request.post())
        return cls(values, files)

    def __contains__(self, name: str) -> bool:
        return self.values.get(name) is not None

    def raw(self, name: str) -> Any:
        return self.values.get(name)

    def str(self, name: str, *, required: bool = False) -> str | None:
        value = self.values.get(name)
        if value is None:
            if required:
                raise ApiError(400, f"Bad Request: parameter {name!r} is required")
            return None
        return value if isinstance(value, str) else json.dumps(value)

    def int(self, name: str, *, required: bool = False) -> int | None:
        value = self.values.get(name)
        if value is None or value == "":
            if required:
                raise ApiError(400, f"Bad Request: {name} is empty")
            return None
        try:
            return int(value)
        except (TypeError, ValueError):
            raise ApiError(400, f"Bad Request: invalid {name} specified") from None

    def float(self, name: str) -> float | None:
        value = self.values.get(name)
        return None if value is None else float(value)

    def bool(self, name: str) -> bool:
        value = self.values.get(name)
        return value is True or (isinstance(value, str) and value.lower() in ("true", "1"))

    def json(self, name: str) -> Any:
        value = self.values.get(name)
        if isinstance(value, str):
            try:
                return json.loads(value)
            except ValueError:
                raise ApiError(400, f"Bad Request: can't parse {name} JSON object") from None
        return value
