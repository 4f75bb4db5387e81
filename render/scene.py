"""Layout results and the painter: a scene is a list of boxes, cards and texts in paint order.

Layouts (``render.hand``, ``render.table``, ``render.settlement``) compute scenes; ``paint``
turns a scene into pixels. Tests read a scene's card slots and named boxes to probe pixels
(where a card back is drawn, where a name must stay).
"""

from __future__ import annotations

import io
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Literal

from PIL import Image, ImageDraw

from render import cards, fonts
from render import theme as T

MAX_SIDE = 1280  # Telegram photos: the long side is scaled down beyond this
# A FreeType face must not be used by two threads at once, and the bot renders from worker
# threads (asyncio.to_thread): layout (text measuring) and painting run under this lock;
# encoding, the slow part, does not touch fonts and runs outside it.
_FONT_LOCK = threading.Lock()
# JPEG settings, chosen by size, time and PSNR side by side (bench/bench_render.py --jpeg):
# quality 75 in full chroma is smaller than 80-88 with chroma subsampling at a better PSNR and
# keeps red ink sharp; "optimize" would save ~10 % of the bytes for ~2 ms more per picture
# (CPU is what is short; Telegram re-encodes photos anyway).
JPEG_QUALITY = 75
JPEG_SUBSAMPLING = 0  # 4:4:4


@dataclass(frozen=True)
class Rect:
    x: int
    y: int
    w: int
    h: int

    @property
    def right(self) -> int:
        return self.x + self.w

    @property
    def bottom(self) -> int:
        return self.y + self.h

    @property
    def box(self) -> tuple[int, int, int, int]:
        """Pillow's inclusive (x0, y0, x1, y1)."""
        return (self.x, self.y, self.x + self.w - 1, self.y + self.h - 1)

    def grow(self, d: int) -> Rect:
        return Rect(self.x - d, self.y - d, self.w + 2 * d, self.h + 2 * d)

    def contains(self, other: Rect) -> bool:
        return (
            self.x <= other.x
            and self.y <= other.y
            and other.right <= self.right
            and other.bottom <= self.bottom
        )


@dataclass(frozen=True)
class Box:
    rect: Rect
    fill: T.RGB | None = None
    outline: T.RGB | None = None
    width: int = 1
    radius: int = 0


@dataclass(frozen=True)
class CardSlot:
    """One card drawn at ``rect``. ``kind`` None: a face-down card (a back).

    ``visible`` is the part of ``rect`` that no later card covers. ``role`` says what the
    card is (``hand meld discard offer liang stock group chou bird``) and ``seat`` whose it is.
    """

    rect: Rect
    kind: int | None
    size: T.CardSize
    visible: Rect
    role: str
    seat: int | None = None
    hidden: bool = False  # face up to the viewer but face down to the others
    locked: bool = False  # part of a 坎


@dataclass(frozen=True)
class Text:
    x: int
    y: int
    text: str  # already cleaned and fitted
    px: int
    fill: T.RGB = T.TEXT
    bold: bool = False
    anchor: str = "la"


Item = Box | CardSlot | Text


@dataclass
class Scene:
    width: int
    height: int
    items: list[Item] = field(default_factory=list)
    named: dict[str, Rect] = field(default_factory=dict)  # e.g. "name:0": a name's box
    background: T.RGB = T.FELT

    @property
    def cards(self) -> list[CardSlot]:
        return [i for i in self.items if isinstance(i, CardSlot)]

    def add(self, item: Item) -> None:
        self.items.append(item)

    def card(
        self,
        x: int,
        y: int,
        kind: int | None,
        size: T.CardSize,
        role: str,
        seat: int | None = None,
        visible_h: int | None = None,
        hidden: bool = False,
        locked: bool = False,
    ) -> CardSlot:
        rect = Rect(x, y, size.w, size.h)
        slot = CardSlot(
            rect, kind, size, Rect(x, y, size.w, visible_h or size.h), role, seat, hidden, locked
        )
        self.items.append(slot)
        return slot

    def column(
        self,
        x: int,
        y: int,
        kinds: Sequence[int | None],
        size: T.CardSize,
        role: str,
        seat: int | None = None,
        hidden: list[bool] | None = None,
        locked: list[bool] | None = None,
    ) -> Rect:
        """Cards overlapping downwards, each showing its top ``size.step`` pixels."""
        for i, kind in enumerate(kinds):
            last = i == len(kinds) - 1
            self.card(
                x,
                y + i * size.step,
                kind,
                size,
                role,
                seat,
                None if last else size.step,
                hidden=bool(hidden and hidden[i]),
                locked=bool(locked and locked[i]),
            )
        return Rect(x, y, size.w, column_height(len(kinds), size))

    def text(
        self,
        x: int,
        y: int,
        text: str,
        px: int,
        fill: T.RGB = T.TEXT,
        bold: bool = False,
        anchor: str = "la",
        max_width: float | None = None,
    ) -> str:
        """Add fixed text (from the string tables); cut to ``max_width`` if given."""
        if max_width is not None:
            text = fonts.fit(text, fonts.font(px, bold), max_width)
        self.items.append(Text(x, y, text, px, fill, bold, anchor))
        return text

    def name(
        self,
        box: Rect,
        key: str,
        raw: str,
        px: int,
        fill: T.RGB = T.TEXT,
        anchor: Literal["lm", "mm"] = "lm",
    ) -> str:
        """A player name inside ``box`` (vertically centred), cleaned and cut to fit."""
        text = fonts.name(raw, fonts.font(px), box.w)
        x = box.x if anchor == "lm" else box.x + box.w // 2
        self.items.append(Text(x, box.y + box.h // 2, text, px, fill, False, anchor))
        self.named[key] = box
        return text


def column_height(n: int, size: T.CardSize) -> int:
    return 0 if n == 0 else size.h + (n - 1) * size.step


def paint(scene: Scene) -> Image.Image:
    img = Image.new("RGB", (scene.width, scene.height), scene.background)
    draw = ImageDraw.Draw(img)
    for item in scene.items:
        if isinstance(item, CardSlot):
            sprite = (
                cards.back(item.size)
                if item.kind is None
                else cards.face(item.kind, item.size, item.hidden, item.locked)
            )
            img.paste(sprite, (item.rect.x, item.rect.y), sprite)
        elif isinstance(item, Text):
            mask, dx, dy = text_mask(item.text, item.px, item.bold, item.anchor)
            img.paste(item.fill, (item.x + dx, item.y + dy), mask)
        else:
            draw.rounded_rectangle(
                item.rect.box, item.radius, fill=item.fill, outline=item.outline, width=item.width
            )
    return img


@lru_cache(maxsize=512)  # ~5.5 KB a mask: <= 3 MB; 95 % hits (2048 entries: 95.6 %)
def text_mask(text: str, px: int, bold: bool, anchor: str) -> tuple[Image.Image, int, int]:
    """``text`` rasterised once as a coverage mask, and the mask's offset from the anchor
    point: the same labels, names and numbers come back in every picture of a table."""
    fnt = fonts.font(px, bold)
    left, top, right, bottom = (round(v) for v in fnt.getbbox(text, anchor=anchor))
    mask = Image.new("L", (max(1, right - left), max(1, bottom - top)))
    ImageDraw.Draw(mask).text((-left, -top), text, font=fnt, fill=255, anchor=anchor)
    return mask, left, top


Format = Literal["PNG", "JPEG"]


def render(build: Callable[[], Scene], fmt: Format) -> bytes:
    """Lay out, paint and encode one picture."""
    with _FONT_LOCK:
        img = paint(build())
    return encode(img, fmt)


def encode(img: Image.Image, fmt: Format) -> bytes:
    """PNG for flat, text-heavy images (exact colours); JPEG where it is much smaller/faster.

    JPEG keeps full chroma (no 4:2:0 subsampling) so that red ink on white stays sharp.
    """
    if max(img.size) > MAX_SIDE:  # a safety net: layouts are meant to stay within it
        img = img.copy()
        img.thumbnail((MAX_SIDE, MAX_SIDE), Image.Resampling.LANCZOS)
    buf = io.BytesIO()
    if fmt == "PNG":
        img.save(buf, "PNG", compress_level=1)
    else:
        img.save(buf, "JPEG", quality=JPEG_QUALITY, subsampling=JPEG_SUBSAMPLING)
    return buf.getvalue()
