"""Player names for pictures that must keep every name inside its box."""

from __future__ import annotations

# Names of many scripts and lengths: CJK, long Latin, Arabic and Hebrew (right to left),
# emoji ZWJ sequences and flags, combining marks, Cyrillic, kana, an empty-looking name.
NAMES = (
    "小明",
    "Bartholomew Fitzwilliam Montgomery-Smythe III",
    "محمد بن عبد الله",
    "שלמה המלך",
    "老王🀄‍🔥👨‍👩‍👧‍👦",
    "Zoë Ångström",
    "Дмитрий Иванович",
    "さくら🌸",
    "🇨🇳🇬🇧",
    "e\u0301\u0302 combining",
    "the eleventh, not shown",
)
