"""House rules (房规) at a table: the words after /new's rule set, the ⚙ buttons that set
them, and the refusal a word the engine does not take gets.

The rules themselves are the engine's (``engine.rules.with_house_rules``, the "House rules"
section of each docs/rules page); here they are read from what users type and press.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from bot.table.model import Refusal, Table
from engine.rules import (
    QQ,
    HouseOption,
    HouseRuleError,
    RuleSet,
    house_options,
    with_house_choice,
    with_house_rules,
)

# a ⚙ house button's code (``bot.callbacks``: ASCII only): the option's letter, then the
# value for a counted option (起胡, 封顶; 0: 不封顶), else the index of the word among the
# option's choices. The options are the engine's, named as it names them, by a letter each.
CODE = "u"  # the letter of a house button's code, before the option's
_OPTIONS = house_options(QQ)  # every option a table may offer (qq offers each of them)
LETTERS = dict(zip((o.name for o in _OPTIONS), "qcmhzdsabefgijklnoprtvwxy", strict=False))
NUMBERED = frozenset(o.name for o in _OPTIONS if any(w[-1].isdigit() for w in o.choices))
_NUMBER = re.compile(r"(\D*)(\d+)")
_CODE = re.compile(r"([a-z])(\d{1,4})")


def counted(word: str) -> bool:
    """Is ``word`` a counted option's (``起胡30``), whatever its count?"""
    found = _NUMBER.fullmatch(word)
    return found is not None and found[1] in NUMBERED


def option_code(option: HouseOption, word: str) -> str:
    """The ⚙ button code of ``word``, one of ``option``'s choices."""
    if option.name in NUMBERED:
        found = _NUMBER.fullmatch(word)
        return LETTERS[option.name] + (found[2] if found else "0")
    return LETTERS[option.name] + str(option.choices.index(word))


def word_of(rules: RuleSet, code: str) -> str:
    """The house word a ⚙ button code names at a table of ``rules``; ``bad_option`` when it
    names none of the choices offered there."""
    found = _CODE.fullmatch(code)
    if found is not None:
        letter, value = found[1], found[2]
        for option in house_options(rules):
            if LETTERS.get(option.name) != letter:
                continue
            for word in option.choices:
                if option_code(option, word) == letter + value:
                    return word
    raise Refusal("bad_option")


def chosen(rules: RuleSet, code: str) -> RuleSet:
    """``rules`` with the house option a ⚙ button names set (the other options kept)."""
    try:
        return with_house_choice(rules, word_of(rules, code))
    except HouseRuleError:
        raise Refusal("bad_option") from None


def kept(old: RuleSet, new: RuleSet) -> RuleSet:
    """The rules ``new`` (another rule set or table shape chosen in ⚙) with each of ``old``'s
    house words that it takes too; one it does not (起胡18 at a table whose 起胡 stops at 15,
    a 名堂 it lacks) is dropped."""
    words: list[str] = []
    for word in old.house:
        try:
            with_house_rules(new, [*words, word])
        except HouseRuleError:
            continue
        words.append(word)
    return with_house_rules(new, words) if words else new


def refusal(error: HouseRuleError, words: Sequence[str]) -> Refusal:
    """The polite answer to house ``words`` the engine refused with ``error``: the word said
    twice, the two that contradict each other, the value out of range, or the unknown word,
    each with what may be said instead."""
    word = error.word or ""
    allowed = " · ".join(error.allowed)
    if list(words).count(word) > 1:
        return Refusal("house_repeated", word=word)
    other = next((a for a in error.allowed if a in words and a != word), None)
    if other is not None:
        return Refusal("house_contradicts", word=word, other=other)
    if counted(word):
        return Refusal("house_range", word=word, allowed=allowed)
    return Refusal("house_unknown", word=word, allowed=allowed)


def first_dealer(table: Table, drawn: int) -> int:
    """Who deals a new 局's first hand: the opener's seat under 开桌人庄 when he sits at the
    table (a standing table's admin need not), else ``drawn`` (at random)."""
    if table.rules.first_dealer == "opener":
        seat = table.seat_of(table.opener_id)
        if seat is not None:
            return seat
    return drawn

