"""/rules: the rules of a table in a few lines, and the rule set's full page as a document.

The summary is read from the :class:`~engine.rules.RuleSet` (seats, 门子, 胡息, 底数, how 名堂
combine, 醒家, 打鸟, the two-seat option, the house rules), so a new rule set is summarised without new code;
only its name is a catalog entry. The full pages are ``docs/rules/<id>.md`` in the source tree
(found there by a checkout and by ``pip install -e``), installed by a wheel under
``<prefix>/share/paohuzi-bot/rules`` (``[tool.setuptools.data-files]`` in pyproject.toml).
"""

from __future__ import annotations

import sysconfig
from collections.abc import Sequence
from pathlib import Path

from bot.commands.stats import rules_name
from bot.i18n import t
from engine.rules import RULE_SETS, RuleSet, table_rules, with_house_rules

SOURCE_PAGES = Path(__file__).resolve().parents[2] / "docs" / "rules"
INSTALLED_PAGES = Path("share") / "paohuzi-bot" / "rules"  # under sysconfig's "data" path


def pages_dir() -> Path:
    """Where the rule pages are: the source tree's, else the installed copy."""
    if SOURCE_PAGES.is_dir():
        return SOURCE_PAGES
    return Path(sysconfig.get_path("data")) / INSTALLED_PAGES


def page(rule_id: str) -> tuple[str, bytes] | None:
    """(file name, contents) of a rule set's full page, None when it is not written yet."""
    path = pages_dir() / f"{rule_id}.md"
    return (path.name, path.read_bytes()) if path.is_file() else None


def asked_rules(args: Sequence[str], current: RuleSet) -> RuleSet | None:
    """/rules' arguments: none for ``current`` (the chat's table's, with its house rules),
    else a rule set id, optionally a seat count and a two-seat option (``hunan 2 setaside``)
    and house rules (``hunan 3 起胡10 封顶100``); None when they name no rules offered."""
    if not args:
        return current
    rule_id, *rest = args
    if rule_id.lower() not in RULE_SETS:
        return None
    base = RULE_SETS[rule_id.lower()]
    seats = [int(a) for a in rest if a.isdigit()]
    two_seat = [a.lower() for a in rest if a.lower() in base.two_seat_choices]
    words = [a for a in rest if not a.isdigit() and a.lower() not in base.two_seat_choices]
    if len(seats) > 1 or len(two_seat) > 1:
        return None
    try:
        rules = table_rules(rule_id.lower(), seats[0] if seats else None,
                            two_seat[0] if two_seat else None)
        return with_house_rules(rules, words) if words else rules
    except ValueError:  # a HouseRuleError too
        return None


def summary(rules: RuleSet, lang: str) -> str:
    """The rules in a few lines: name and seats, how to win, how points are counted, and
    what this shape of table adds (醒家, 打鸟, the two-seat option)."""
    lines = [t(lang, "rules_head", rules=rules_name(rules.id, lang), seats=rules.players),
             t(lang, "rules_win", groups=rules.groups_to_win, min=rules.min_huxi),
             t(lang, "rules_discard_win" if rules.win_on_discard else "rules_draw_win"),
             t(lang, "rules_points", offset=rules.di_offset, divisor=rules.di_divisor,
               plus=f" + {rules.di_plus}" if rules.di_plus else "", zimo="×2" if rules.zimo_double else f"+{rules.zimo_bonus}"),
             t(lang, "rules_no_mingtang" if not rules.mingtang
               else "rules_fan_multiply" if rules.mingtang_multiply else "rules_fan_add")]
    if rules.sits_out:
        lines.append(t(lang, "rules_xing"))
    if rules.birds:
        lines.append(t(lang, "rules_birds"))
    if rules.two_seat is not None:
        lines.append(t(lang, f"rules_two_{rules.two_seat}"))
    if rules.house:  # the 起胡 and 自摸 lines above read them already
        lines.append(t(lang, "rules_house", label=rules.house_label))
        if rules.cap:
            lines.append(t(lang, "rules_cap", cap=rules.cap))
        if rules.first_dealer == "opener":
            lines.append(t(lang, "rules_first_dealer"))
        if not rules.dealer_stays:
            lines.append(t(lang, "rules_no_stays"))
    return "\n".join(lines)


def usage(lang: str) -> str:
    return t(lang, "rules_usage", choices="|".join(RULE_SETS))
