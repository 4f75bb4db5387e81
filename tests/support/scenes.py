"""Checks of rendered pictures: a picture decodes within Telegram's sizes, every card and text
of a scene lies inside it in a font that has its characters, and a card slot shows a back.
"""

from __future__ import annotations

import io

from PIL import Image, ImageDraw, ImageStat

from render import fonts
from render.scene import MAX_SIDE, CardSlot, Rect, Scene, Text


def decode(data: bytes) -> Image.Image:
    img = Image.open(io.BytesIO(data))
    img.load()
    assert img.format in ("PNG", "JPEG")
    assert max(img.size) <= MAX_SIDE
    assert min(img.size) >= 300
    return img


def text_boxes(scene: Scene) -> list[tuple[Text, tuple[float, float, float, float]]]:
    draw = ImageDraw.Draw(Image.new("RGB", (1, 1)))
    return [
        (t, draw.textbbox((t.x, t.y), t.text, font=fonts.font(t.px, t.bold), anchor=t.anchor))
        for t in scene.items
        if isinstance(t, Text)
    ]


def check_scene(scene: Scene) -> None:
    """Every card and every text lies inside the picture; the font has every character."""
    frame = Rect(0, 0, scene.width, scene.height)
    for slot in scene.cards:
        assert frame.contains(slot.rect), slot
    for t in scene.items:
        if isinstance(t, Text):
            assert set(t.text) <= fonts.coverage(t.bold), t
    for t, (x0, y0, x1, y1) in text_boxes(scene):
        assert x0 >= 0 and x1 <= scene.width and y0 >= 0 and y1 <= scene.height, t


def inner(slot: CardSlot) -> tuple[int, int, int, int]:
    """A box well inside the visible part of a card, clear of edges and bands."""
    v = slot.visible
    top = v.y + max(6, round(slot.size.h * 0.1))
    return (v.x + 5, top, v.right - 5, max(top + 2, v.bottom - 4))


def mean_colour(img: Image.Image, box: tuple[int, int, int, int]) -> list[float]:
    return ImageStat.Stat(img.crop(box).convert("RGB")).mean


def is_back(img: Image.Image, slot: CardSlot) -> bool:
    r, g, b = mean_colour(img, inner(slot))
    return b > r + 40 and b > 100
