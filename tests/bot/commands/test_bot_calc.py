"""/calc: the typed holding reaches the analyzer intact, and its verdict is put in words."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.commands import calc
from bot.i18n import t
from engine import cards as C
from engine.analyzer import analyze
from engine.melds import CHINESE_NAMES, Group, GroupKind
from engine.rules import QQ, RULE_SETS

K = GroupKind


def _zh(kinds) -> str:
    return C.format_cards(kinds)


def _ascii(kinds) -> str:
    return "".join(C.to_ascii(k) for k in kinds)


def test_chinese_ascii_and_english_words_read_alike() -> None:
    zh = calc.parse("一二三 壹贰叁 碰:五五五 跑:拾拾拾拾 + 九 自摸")
    en = calc.parse("x1x2x3 d1 d2 d3 peng:x5x5x5 PAO:d10d10d10d10 + x9 self")
    assert zh == en == calc.Holding(
        tuple(C.counts(C.parse_cards("一二三壹贰叁"))),
        (Group(K.PENG, (4, 4, 4)), Group(K.PAO, (19, 19, 19, 19))), 8, "self")
    assert calc.parse("一二三 ＋ 九").source == "other"  # full-width plus; another's card
    assert calc.parse("一二三 吃：四五六").melds == (Group(K.CHI, (3, 4, 5)),)
    assert calc.parse("一二三 自摸") == calc.Holding(tuple(C.counts([0, 1, 2])), (), None,
                                                    "self")


@pytest.mark.parametrize(("text", "key", "fields"), [
    ("", "calc_usage", {}),
    ("一二三 abc", "calc_bad_cards", {"text": "abc"}),
    ("跳:五五五", "calc_bad_kind", {"kind": "跳"}),
    ("一 碰:五五六", "calc_bad_meld", {"meld": "碰:五五六"}),
    ("吃:一二四", "calc_bad_meld", {"meld": "吃:一二四"}),
    ("一二三 + 四五", "calc_one_card", {}),
    ("一二三 +", "calc_one_card", {}),
    ("一一一 碰:一一一", "calc_too_many", {"cards": "一"}),
    ("四四 跑:四四四四 + 壹", "calc_too_many", {"cards": "四"}),
])
@pytest.mark.parametrize("lang", ["zh", "en"])
def test_bad_input_is_explained_with_an_example(text, key, fields, lang) -> None:
    reply = calc.answer(text, lang)
    assert reply.startswith(t(lang, key, **fields))
    assert reply.endswith(t(lang, "calc_usage"))  # the right form, with an example
    assert t(lang, "calc_usage").splitlines()[1].split(":", 1)[1].strip().startswith("/calc ")


def test_the_usage_example_is_a_win() -> None:
    for lang in ("zh", "en"):
        example = t(lang, "calc_usage").splitlines()[1]
        text = example.split("/calc", 1)[1]
        assert calc.answer(text, lang).startswith(t(lang, "calc_win", huxi=16))


def test_a_win_in_words() -> None:
    text = "一二三 壹贰叁 四五六 七八九 贰柒拾 十十 碰:五五五 + 拾 自摸"
    assert calc.answer(text, "zh").splitlines() == [
        "✅ 能胡!胡息 16",
        "门子:碰 五五五(1) · 一句话 一二三(3) · 一句话 四五六(0) · 一句话 七八九(0) · "
        "绞 十十拾(0) · 一句话 壹贰叁(6) · 一句话 贰柒拾(6)",
        "名堂:平胡 · 自摸",
        "底 2 · 番 1 · 底分 3:赢家 +12,两家各 −6",  # x = (16 - 12) // 3 + 1 for 自摸
    ]


def test_reasons_for_no_win() -> None:
    # seven 门子 of no 胡息 but the 碰 (1)
    short = calc.answer("四五六 六七八 肆伍陆 柒捌玖 三三叁 九九 碰:五五五 + 玖", "zh")
    assert short == t("zh", "calc_short", huxi=1, need=15)
    # 21 cards that make six 门子 only
    assert calc.answer("一二三 壹贰叁 贰柒拾 四五六 十十 三四九 碰:五五五 + 拾", "en") == \
        t("en", "calc_no_groups", groups=7)


@pytest.mark.parametrize(("text", "key", "n", "expected"), [
    # thirty cards: nine 一句话, a pair and the winning card
    ("一二三 壹贰叁 四五六 七八九 贰柒拾 十十 一二三 四五六 七八九 壹贰叁 + 九",
     "calc_count_many", 30, 21),
    ("一二三 壹贰叁 贰柒拾 四五六 十十 碰:五五五 + 拾", "calc_count_few", 18, 21),
    # a 跑 and a 提 (each 4 cards) with a 将: 22 cards at most; 23 are too many
    ("一二三 壹贰叁 四五六 十十 七七 八 跑:拾拾拾拾 提:九九九九 + 八", "calc_count_many", 23, 22),
])
def test_the_card_count_is_checked(text: str, key: str, n: int, expected: int) -> None:
    for lang in ("zh", "en"):
        assert calc.answer(text, lang).startswith(t(lang, key, n=n, expected=expected))
    assert t("zh", key, n=n, expected=expected).startswith(
        "牌太多了" if key == "calc_count_many" else "牌太少了")


def _examples(text: str) -> list[str]:
    """Every ``/calc`` example in ``text``: what follows ``/calc `` up to the line's end or a
    closing backquote, when it begins with cards, after a rule set id if one comes first
    (``/calc 手牌 …`` is the form, not one)."""
    found = []
    for line in text.splitlines():
        for part in line.split("/calc ")[1:]:
            example = part.split("`")[0].strip()
            words = example.split()
            cards = words[1] if words and words[0] in RULE_SETS and len(words) > 1 else \
                (words or [""])[0]
            try:
                C.parse_cards(cards)
            except (C.CardError, IndexError):
                continue
            found.append(example)
    return found


def test_every_example_in_help_usage_and_readme_works_as_typed() -> None:
    root = Path(__file__).resolve().parents[3]
    pages = [(root / name).read_text(encoding="utf-8")
             for name in ("README.md", "docs/players.md")]
    sources = [*pages, *(t(lang, key) for lang in ("zh", "en")
                         for key in ("help", "calc_usage"))]
    examples = [e for text in sources for e in _examples(text)]
    # README, the players' guide, /help and the usage in both languages; the guide and
    # /help with a four14 example
    assert len(examples) == 9
    assert sum(e.startswith("four14 ") for e in examples) == 3
    for example in examples:
        verdict = calc.reply(example, "zh")
        assert verdict.startswith("✅"), (example, verdict)


# --- every holding reaches the analyzer as typed -------------------------------------------

_SEQS = [(k, k + 1, k + 2) for b in (0, 10) for k in range(b, b + 8)] + [(1, 6, 9), (11, 16, 19)]
_JIAO = [(k, k, k + 10) for k in range(10)] + [(k, k + 10, k + 10) for k in range(10)]


_HAND_SHAPES = [("hand", g) for g in _SEQS + _JIAO] + [("hand", (k,) * 3) for k in range(20)]
_TABLE_SHAPES = [(kind, (k,) * n) for kind, n in ((K.PENG, 3), (K.WEI, 3), (K.PAO, 4), (K.TI, 4))
                 for k in range(20)] + [(K.CHI, g) for g in _SEQS + _JIAO]


@st.composite
def holdings(draw):
    """Seven 门子 (some on the table; the seventh a 将 when a 提/跑 is among them), a card out of
    the hand as the winning card, and at times one card changed: mostly wins, some not.
    Only shapes that keep every kind at four copies or fewer are drawn."""
    melds: list[Group] = []
    hand: list[int] = []
    used = [0] * 20

    def fits(cards) -> bool:
        return all(used[k] + cards.count(k) <= C.COPIES for k in set(cards))

    for i in range(7):
        if i == 6 and any(g.kind in (K.PAO, K.TI) for g in melds):
            pair = draw(st.sampled_from([k for k in range(20) if used[k] <= 2]))
            hand += [pair, pair]
            used[pair] += 2
            break
        shapes = _HAND_SHAPES if i == 0 else _HAND_SHAPES + _TABLE_SHAPES
        if draw(st.booleans()):  # sets half of the time: they carry the 胡息
            shapes = [s for s in shapes if len(set(s[1])) == 1]
        where, cards = draw(st.sampled_from([s for s in shapes if fits(s[1])]))
        for k in cards:
            used[k] += 1
        if where == "hand":
            hand += cards
        else:
            melds.append(Group(where, cards))
    card = hand.pop(draw(st.integers(0, len(hand) - 1)))
    if hand and draw(st.integers(0, 3)) == 0:  # spoil it now and then
        at = draw(st.integers(0, len(hand) - 1))
        used[hand[at]] -= 1
        hand[at] = draw(st.sampled_from([k for k in range(20) if used[k] < C.COPIES]))
    return hand, melds, card, draw(st.sampled_from(["self", "other"]))


_WORDS = {K.PENG: ("碰", "peng"), K.PAO: ("跑", "pao"), K.CHI: ("吃", "chi"), K.WEI: ("偎", "wei"),
          K.TI: ("提", "ti")}


@settings(max_examples=150, deadline=None)
@given(holdings(), st.booleans(), st.sampled_from(["zh", "en"]))
def test_calc_agrees_with_the_analyzer(holding, ascii_, lang) -> None:
    hand, melds, card, source = holding
    fmt = _ascii if ascii_ else _zh
    words = [f"{_WORDS[g.kind][ascii_]}:{fmt(g.cards)}" for g in melds]
    src = {"self": ("自摸", "self"), "other": ("", "other")}[source][ascii_]
    text = f"{fmt(hand)} {' '.join(words)} + {fmt([card])} {src}"
    win = analyze(QQ, C.counts(hand), melds, card, source=source)
    lines = calc.answer(text, lang).splitlines()
    if win is not None:
        assert lines[0] == t(lang, "calc_win", huxi=win.huxi)
        assert lines[1] == t(lang, "calc_groups", groups=" · ".join(
            f"{CHINESE_NAMES[g.kind]} {_zh(g.cards)}({g.huxi})" for g in win.groups))
        assert lines[3] == t(lang, "calc_score", di=win.di, fan=win.fan, base=3,
                             win=win.winner_points, lose=-win.loser_points,
                             losers=t(lang, "calc_losers_2"))
        return
    relaxed = analyze(dataclasses.replace(QQ, min_huxi=0), C.counts(hand), melds, card,
                      source=source)
    if relaxed is not None:
        assert relaxed.huxi < QQ.min_huxi
        assert lines == [t(lang, "calc_short", huxi=relaxed.huxi, need=QQ.min_huxi)]
    elif (total := len(hand) + sum(len(g.cards) for g in melds) + 1) > 21 and \
            lines[0].startswith(t(lang, "calc_count_many", n=total, expected=total - 1)):
        pass  # seven 门子 with a 跑 or 提 but no 将: one card too many for any win
    else:
        assert lines == [t(lang, "calc_no_groups", groups=7)]
