"""Colours and card sizes shared by every image."""

from __future__ import annotations

from dataclasses import dataclass

RGB = tuple[int, int, int]

FELT: RGB = (28, 84, 62)  # table background
FELT_DARK: RGB = (20, 62, 46)  # panels on the felt
FELT_LINE: RGB = (58, 120, 94)
TEXT: RGB = (246, 241, 226)
TEXT_DIM: RGB = (170, 200, 184)
GOLD: RGB = (255, 206, 64)  # 胡息, turn markers
HIGHLIGHT: RGB = (255, 214, 0)  # the card on offer / just drawn
LAST_MOVE: RGB = (255, 140, 40)  # the last move in the table image
DEALER: RGB = (214, 48, 49)
WIN: RGB = (220, 70, 60)
LOSS: RGB = (120, 200, 255)
SHADOW: RGB = (14, 40, 30)

# Card faces.
RED_INK: RGB = (206, 18, 38)
BLACK_INK: RGB = (24, 24, 28)
SMALL_FACE: RGB = (252, 251, 246)  # 小字: white face, slate edge band
SMALL_EDGE: RGB = (120, 130, 150)
SMALL_BAND: RGB = (176, 190, 212)
BIG_FACE: RGB = (246, 226, 170)  # 大字: parchment face, brown frame and band
BIG_EDGE: RGB = (120, 72, 24)
BIG_BAND: RGB = (150, 92, 34)
BACK: RGB = (38, 70, 130)  # card backs
BACK_LINE: RGB = (80, 118, 186)
BACK_EDGE: RGB = (226, 232, 244)
LOCK: RGB = (90, 96, 110)
TING: RGB = (0, 168, 120)  # the 听 badge on a discard that leaves the hand 听
TRUSTEE: RGB = (132, 96, 196)  # the 托管 mark
TRUSTEE_INK: RGB = (206, 186, 255)  # "托管中" on the seat's own picture
GREY: RGB = (120, 134, 128)  # a winning card none of which is left unseen
ROBOT: RGB = (70, 110, 150)  # the 电脑 mark
XING: RGB = (0, 128, 128)  # the 醒家 mark: the seat sitting the hand out (hunan, 4 seats)
XING_BAND: RGB = (24, 72, 56)  # the 醒家's compact band, between FELT and FELT_DARK


@dataclass(frozen=True)
class CardSize:
    """A card's box and how much of it shows when the next card of a column overlaps it."""

    w: int
    h: int
    step: int  # vertical distance between overlapping cards in a column
    radius: int

    @property
    def char_px(self) -> int:
        return round(self.w * 0.64)


HAND = CardSize(72, 100, 56, 9)
MELD = CardSize(50, 70, 40, 7)
TABLE = CardSize(44, 62, 32, 6)  # the group picture: four seats' 提 fit 1000 px
SMALL = CardSize(38, 52, 32, 5)  # discards and 臭 kinds: never overlapped
# The seat's picture (render.hand): its own hand fits 10 point columns in the portrait width,
# the other seats' melds and discards are compact.
OWN = CardSize(66, 92, 50, 8)
MINI = CardSize(38, 52, 28, 5)  # the /replay picture's cards
# The other seats' melds in the seat's picture: 22 px wide and their character 11 px when a
# phone shows the 760 px picture 400 px wide.
PEER = CardSize(42, 58, 30, 5)
DISC = CardSize(36, 48, 48, 5)  # never overlapped
