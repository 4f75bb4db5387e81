"""Card faces and backs, drawn by code and cached as RGBA sprites.

Small cards 一..十 have a white face with a slate band; big cards 壹..拾 a parchment face with a
brown frame and band, so the two sizes differ at a glance even in a tight column. Red cards
(points 2, 7, 10) have red ink. The character sits near the top, where it stays visible
when the next card of a column overlaps the lower part; a small upside-down copy sits at the
foot, as on real cards. Sprites are drawn at 3x and scaled down for smooth edges.
"""

from __future__ import annotations

from functools import cache

from PIL import Image, ImageDraw

from engine import cards as C
from render import theme as T
from render.fonts import font

SS = 3  # supersampling factor


def _band_h(size: T.CardSize) -> int:
    return max(4, round(size.h * 0.08))


def has_foot(size: T.CardSize) -> bool:
    """Tall enough for the small upside-down copy at the foot? Else the character is centred
    (such sizes are never overlapped in a column)."""
    return size.h - size.step >= 0.4 * size.h


def char_box(size: T.CardSize) -> tuple[int, int, int]:
    """(centre x, centre y, font px) of the big character, in card coordinates."""
    band = _band_h(size)
    if not has_foot(size):
        return size.w // 2, band + (size.h - band) // 2, size.char_px
    px = min(size.char_px, size.step - band - 4)
    return size.w // 2, band + 2 + (size.step - band - 2) // 2, px


def ink(kind: int) -> T.RGB:
    return T.RED_INK if C.is_red(kind) else T.BLACK_INK


def _canvas(size: T.CardSize) -> tuple[Image.Image, ImageDraw.ImageDraw]:
    img = Image.new("RGBA", (size.w * SS, size.h * SS), (0, 0, 0, 0))
    return img, ImageDraw.Draw(img)


def _finish(img: Image.Image, size: T.CardSize) -> Image.Image:
    return img.resize((size.w, size.h), Image.Resampling.LANCZOS)


@cache
def face(kind: int, size: T.CardSize, hidden: bool = False, locked: bool = False) -> Image.Image:
    """The face of ``kind``. ``hidden``: the owner sees it, the others see a back (framed in
    the back colour). ``locked``: part of a 坎 (a padlock in the corner)."""
    big = C.is_big(kind)
    img, d = _canvas(size)
    w, h, r = size.w * SS, size.h * SS, size.radius * SS
    edge_w = (3 if big else 2) * SS
    fill, edge, band_c = (
        (T.BIG_FACE, T.BIG_EDGE, T.BIG_BAND) if big else (T.SMALL_FACE, T.SMALL_EDGE, T.SMALL_BAND)
    )
    d.rounded_rectangle((0, 0, w - 1, h - 1), r, fill=edge)
    d.rounded_rectangle((edge_w, edge_w, w - 1 - edge_w, h - 1 - edge_w), r - edge_w, fill=fill)
    band = _band_h(size) * SS
    d.rounded_rectangle((edge_w, edge_w, w - 1 - edge_w, band), r - edge_w, fill=band_c)
    d.rectangle((edge_w, band - r, w - 1 - edge_w, band), fill=band_c)
    if big:  # inner frame line: the formal face of 大字
        m = edge_w + 3 * SS
        d.rectangle((m, band + 2 * SS, w - 1 - m, h - 1 - m), outline=T.BIG_EDGE, width=SS)
    cx, cy, px = char_box(size)
    ch = C.to_char(kind)
    d.text((cx * SS, cy * SS), ch, font=font(px * SS, bold=True), fill=ink(kind), anchor="mm")
    if has_foot(size):
        foot = Image.new("RGBA", (w, h), (0, 0, 0, 0))
        small_px = max(8, round(px * 0.42))
        ImageDraw.Draw(foot).text(
            (w // 2, band + small_px * SS),
            ch,
            font=font(small_px * SS, bold=True),
            fill=ink(kind),
            anchor="mm",
        )
        img.alpha_composite(foot.rotate(180))
    if hidden:
        hw = max(3, size.w // 14) * SS
        d.rounded_rectangle((0, 0, w - 1, h - 1), r, outline=T.BACK, width=hw)
        tri = size.w // 3 * SS
        d.polygon([(hw, hw + band // 2), (tri, hw + band // 2), (hw, tri + band // 2)], fill=T.BACK)
    if locked:
        _padlock(d, w - edge_w - 2 * SS, band + 2 * SS, max(9, size.w // 6) * SS)
    return _finish(img, size)


def _padlock(d: ImageDraw.ImageDraw, right: int, top: int, s: int) -> None:
    """A small padlock whose top-right corner is at (right, top), ``s`` wide."""
    left = right - s
    body_top = top + s * 5 // 10
    d.arc(
        (left + s // 5, top, right - s // 5, top + s * 8 // 10),
        180,
        360,
        fill=T.LOCK,
        width=max(2, s // 6),
    )
    d.line(
        (left + s // 5, top + s * 4 // 10, left + s // 5, body_top),
        fill=T.LOCK,
        width=max(2, s // 6),
    )
    d.line(
        (right - s // 5, top + s * 4 // 10, right - s // 5, body_top),
        fill=T.LOCK,
        width=max(2, s // 6),
    )
    d.rounded_rectangle((left, body_top, right, body_top + s * 6 // 10), s // 8, fill=T.LOCK)


@cache
def back(size: T.CardSize) -> Image.Image:
    """A face-down card: blue with a light lattice."""
    img, d = _canvas(size)
    w, h, r = size.w * SS, size.h * SS, size.radius * SS
    d.rounded_rectangle((0, 0, w - 1, h - 1), r, fill=T.BACK_EDGE)
    m = 3 * SS
    d.rounded_rectangle((m, m, w - 1 - m, h - 1 - m), r - m, fill=T.BACK)
    inner = Image.new("RGBA", (w, h), (0, 0, 0, 0))
    di = ImageDraw.Draw(inner)
    gap = max(6, size.w // 5) * SS
    for off in range(-h, w + h, gap):
        di.line((off, 0, off + h, h), fill=T.BACK_LINE, width=SS)
        di.line((off + h, 0, off, h), fill=T.BACK_LINE, width=SS)
    mask = Image.new("L", (w, h), 0)
    ImageDraw.Draw(mask).rounded_rectangle(
        (2 * m, 2 * m, w - 1 - 2 * m, h - 1 - 2 * m), r - m, fill=255
    )
    img.paste(inner, (0, 0), Image.composite(inner.getchannel("A"), mask, mask))
    return _finish(img, size)
