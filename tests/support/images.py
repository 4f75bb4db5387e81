"""Small pictures for tests that send or compare photos."""

from __future__ import annotations

import io

from PIL import Image


def png(color: str, size: tuple[int, int] = (40, 30)) -> bytes:
    out = io.BytesIO()
    Image.new("RGB", size, color).save(out, format="PNG")
    return out.getvalue()
