"""The log's lines: human ones by default (time, level, logger, message), or with
LOG_FORMAT=json one JSON object a line, for a log collector (Loki, Elasticsearch, journald's
JSON): ``time`` (ISO 8601, UTC), ``level``, ``logger``, ``message`` and, with a traceback,
``exc``. A few lines of the standard library's, rather than another dependency."""

from __future__ import annotations

import json
import logging
from datetime import UTC, datetime

TEXT = "%(asctime)s %(levelname)s %(name)s: %(message)s"


class JsonFormatter(logging.Formatter):
    def format(self, record: logging.LogRecord) -> str:
        line: dict[str, object] = {
            "time": datetime.fromtimestamp(record.created, UTC).isoformat(timespec="milliseconds"),
            "level": record.levelname,
            "logger": record.name,
            "message": record.getMessage(),
        }
        if record.exc_info:
            line["exc"] = self.formatException(record.exc_info)
        elif record.stack_info:
            line["exc"] = self.formatStack(record.stack_info)
        return json.dumps(line, ensure_ascii=False)


def setup(json_lines: bool = False, level: int = logging.INFO) -> None:
    """The root logger's one handler on stderr, in the chosen format."""
    handler = logging.StreamHandler()
    handler.setFormatter(JsonFormatter() if json_lines else logging.Formatter(TEXT))
    logging.basicConfig(handlers=[handler], level=level)
