"""/calc: a holding typed as text, judged by the analyzer and explained in words.

``/calc 一二三 壹贰叁 … 碰:五五五 跑:x10x10x10x10 + 九 自摸`` — hand cards, optional table
melds (``kind:cards``; kinds in Chinese 碰 跑 吃 偎 提 臭偎, or peng pao chi wei ti chouwei),
and after ``+`` the winning card; 自摸 / self makes it one's own draw (default: another
player's card). A rule set id may come first (``/calc four14 …``; default qq), house rules
anywhere (``起胡10``, ``无名堂``: :mod:`bot.table.house`): the holding is judged and scored by
those rules. No Telegram here: :func:`reply` maps the text to the answer.
"""

from __future__ import annotations

import dataclasses
import re

from bot.i18n import t
from bot.present.screens.words import refusal_text
from bot.table import house
from engine import cards as C
from engine.analyzer import analyze, check_meld
from engine.melds import CHINESE_NAMES, Group, GroupKind
from engine.rules import QQ, RULE_SETS, HouseRuleError, RuleSet, with_house_rules
from engine.views import Win

MELD_WORDS: dict[str, GroupKind] = {
    "碰": GroupKind.PENG, "peng": GroupKind.PENG,
    "跑": GroupKind.PAO, "pao": GroupKind.PAO,
    "吃": GroupKind.CHI, "chi": GroupKind.CHI,
    "偎": GroupKind.WEI, "wei": GroupKind.WEI,
    "提": GroupKind.TI, "ti": GroupKind.TI,
    "臭偎": GroupKind.CHOUWEI, "chouwei": GroupKind.CHOUWEI,
}
SELF_WORDS = frozenset({"自摸", "self", "zimo"})
OTHER_WORDS = frozenset({"点炮", "别人", "other"})
_SPACE = re.compile(r"[\s\u3000]+")
_WIDE = str.maketrans("＋：", "+:")  # full-width forms typed by Chinese keyboards


class CalcError(ValueError):
    """Input that cannot be judged: ``key`` is an i18n key, ``fields`` its values."""

    def __init__(self, key: str, **fields: object) -> None:
        super().__init__(key)
        self.key = key
        self.fields = fields


@dataclasses.dataclass(frozen=True)
class Holding:
    hand: tuple[int, ...]  # count vector
    melds: tuple[Group, ...]
    card: int | None
    source: str | None  # "self" / "other" (None: judged as the cards stand)


def _cards(text: str) -> list[int]:
    try:
        return C.parse_cards(text)
    except C.CardError:
        raise CalcError("calc_bad_cards", text=text) from None


def parse(text: str) -> Holding:
    """The holding typed after /calc; :class:`CalcError` says what is wrong."""
    text = text.translate(_WIDE)
    left, plus, right = text.partition("+")
    source: str | None = None
    hand: list[int] = []
    melds: list[Group] = []
    for token in _SPACE.split(left.strip()):
        if not token:
            continue
        if token.lower() in SELF_WORDS | OTHER_WORDS:
            source = "self" if token.lower() in SELF_WORDS else "other"
        elif ":" in token:
            word, _, cards = token.partition(":")
            kind = MELD_WORDS.get(word.lower())
            if kind is None:
                raise CalcError("calc_bad_kind", kind=word)
            meld = Group(kind, tuple(_cards(cards)))
            try:
                check_meld(meld)
            except ValueError:
                raise CalcError("calc_bad_meld", meld=token) from None
            melds.append(meld)
        else:
            hand += _cards(token)
    card: int | None = None
    if plus:
        rest = []
        for token in _SPACE.split(right.strip()):
            if token.lower() in SELF_WORDS | OTHER_WORDS:
                source = "self" if token.lower() in SELF_WORDS else "other"
            elif token:
                rest += _cards(token)
        if len(rest) != 1:
            raise CalcError("calc_one_card")
        card = rest[0]
        source = source or "other"
    if not hand and not melds:
        raise CalcError("calc_usage")
    total = C.counts(hand + [k for g in melds for k in g.cards] + ([card] if card is not None
                                                                  else []))
    over = [C.to_char(k) for k, n in enumerate(total) if n > C.COPIES]
    if over:
        raise CalcError("calc_too_many", cards="".join(over))
    return Holding(tuple(C.counts(hand)), tuple(melds), card, source)


def check_count(holding: Holding, rules: RuleSet = QQ) -> None:
    """A win holds ``3 · groups_to_win`` cards (hand, melds and the winning card), one more
    for each 提 or 跑 beyond the first (whose group makes room for the 将 pair). Kinds held
    four times bound the 提 and 跑; :class:`CalcError` when the count cannot be a win."""
    cards = [k for g in holding.melds for k in g.cards]
    cards += [holding.card] if holding.card is not None else []
    total = [n + cards.count(k) for k, n in enumerate(holding.hand)]
    n, least = sum(total), 3 * rules.groups_to_win
    most = least + max(0, total.count(C.COPIES) - 1)
    if n > most:
        raise CalcError("calc_count_many", n=n, expected=most)
    if n < least:
        raise CalcError("calc_count_few", n=n, expected=least)


def judge(holding: Holding, rules: RuleSet = QQ) -> tuple[Win | None, Win | None]:
    """(the win, None) — or (None, the best arrangement below the 胡息 minimum, if any)."""
    args = (holding.hand, holding.melds, holding.card)
    win = analyze(rules, *args, source=holding.source)  # type: ignore[arg-type]
    if win is not None:
        return win, None
    short = analyze(_relaxed(rules), *args, source=holding.source)  # type: ignore[arg-type]
    return None, short


_RELAXED: dict[RuleSet, RuleSet] = {}


def _relaxed(rules: RuleSet) -> RuleSet:
    """The same rules without a 胡息 minimum (one object per rule set: the analyzer caches
    per rule-set object)."""
    if rules not in _RELAXED:
        _RELAXED[rules] = dataclasses.replace(rules, min_huxi=0)
    return _RELAXED[rules]


def group_text(group: Group) -> str:
    return f"{CHINESE_NAMES[group.kind]} {C.format_cards(group.cards)}({group.huxi})"


def reply(text: str, lang: str) -> str:
    """The reply to ``/calc text``: a rule set id may come first (qq when none does), house
    rules anywhere (``起胡10``, as /new takes them)."""
    word, rest = _first_word(text)
    rules = QQ
    if word.lower() in RULE_SETS:
        rules, text = RULE_SETS[word.lower()], rest
    text, words = house_words(text, rules)
    if words:
        try:
            rules = with_house_rules(rules, words)
        except HouseRuleError as refused:
            return refusal_text(house.refusal(refused, words), lang)
    return answer(text, lang, rules)


def house_words(text: str, rules: RuleSet) -> tuple[str, list[str]]:
    """(the text without its house words, the house words): a word the rules take as one
    (``起胡10``, ``无名堂``), or a 起胡/封顶 count out of range (answered as such)."""
    kept, words = [], []
    for token in _SPACE.split(text.strip()):
        if house.counted(token) or _takes(rules, token):
            words.append(token)
        else:
            kept.append(token)
    return " ".join(kept), words


def _takes(rules: RuleSet, word: str) -> bool:
    try:
        with_house_rules(rules, [word])
    except HouseRuleError:
        return False
    return True


def _first_word(text: str) -> tuple[str, str]:
    parts = _SPACE.split(text.strip(), maxsplit=1)
    return parts[0], parts[1] if len(parts) > 1 else ""


def losers(rules: RuleSet) -> int:
    """How many seats pay a win: all but the winner and a 醒家 sitting the hand out."""
    return rules.players - 1 - int(rules.sits_out)


def answer(text: str, lang: str, rules: RuleSet = QQ) -> str:
    """The reply to ``/calc text``: the verdict, or what is wrong with the input and an example."""
    try:
        holding = parse(text)
        check_count(holding, rules)
    except CalcError as e:
        head = t(lang, e.key, **e.fields)
        return head if e.key == "calc_usage" else f"{head}\n{t(lang, 'calc_usage')}"
    win, short = judge(holding, rules)
    if win is None:
        if short is not None:
            return t(lang, "calc_short", huxi=short.huxi, need=rules.min_huxi)
        return t(lang, "calc_no_groups", groups=rules.groups_to_win)
    items = " ".join(t(lang, "mingtang_item", name=name, fan=fan) for name, fan in win.mingtang) \
        or t(lang, "settle_plain")
    flags = [t(lang, f) for f, on in (("flag_tianhu", win.tianhu), ("flag_zimo", win.zimo),
                                       ("flag_haidi", win.haidi)) if on]
    capped = [] if win.uncapped_loser_points is None else [  # 封顶 cut what each loser pays
        t(lang, "calc_capped", cap=rules.cap, p=-win.uncapped_loser_points)]
    return "\n".join([
        t(lang, "calc_win", huxi=win.huxi),
        t(lang, "calc_groups", groups=" · ".join(group_text(g) for g in win.groups)),
        " · ".join([t(lang, "settle_mingtang", items=items), *flags]),
        t(lang, "calc_score", di=win.di, fan=win.fan, base=win.base, win=win.winner_points,
          lose=-win.loser_points, losers=t(lang, f"calc_losers_{losers(rules)}")),
        *capped,
    ])
