"""Command-line tools over the engine: JSON lines in, JSON lines out (no state kept)."""

from __future__ import annotations

import argparse
import json
from collections.abc import Iterable
from typing import IO, Any

from engine import cards as C
from engine.analyzer import analyze, check_cards
from engine.melds import TABLE_KINDS, Group, GroupKind
from engine.rules import QQ, RuleSet, get_rule_set, table_rules, with_house_rules
from engine.views import Win

_FIELDS = {"hand", "melds", "card", "source", "haidi", "tianhu", "base", "rules"}
_MELD_KINDS = ", ".join(sorted(TABLE_KINDS))


class RequestError(ValueError):
    """An input line that cannot be analysed; the message says why."""


def _flag(obj: dict[str, Any], name: str) -> bool:
    value = obj.get(name, False)
    if not isinstance(value, bool):
        raise RequestError(f'"{name}" must be true or false, got {value!r}')
    return value


def _cards(text: Any, what: str) -> list[int]:
    if not isinstance(text, str):
        raise RequestError(f"{what} must be a string of cards, got {text!r}")
    try:
        return C.parse_cards(text)
    except C.CardError as e:
        raise RequestError(f"{what}: {e}") from None


def _meld(item: Any) -> Group:
    if not (isinstance(item, list) and len(item) == 2 and isinstance(item[0], str)):
        raise RequestError(f'a meld must be ["kind", "cards"], got {item!r}')
    if item[0] not in TABLE_KINDS:
        raise RequestError(f"unknown meld kind {item[0]!r}; known: {_MELD_KINDS}")
    return Group(GroupKind(item[0]), tuple(_cards(item[1], f"{item[0]} meld")))


def _rules(obj: dict[str, Any], default: RuleSet) -> RuleSet:
    """The line's ``"rules"`` key (``qq``, ``hunan/4``…), else ``default``."""
    if "rules" not in obj:
        return default
    key = obj["rules"]
    if not isinstance(key, str):
        raise RequestError(f'"rules" must be a rules key such as "hunan/4", got {key!r}')
    try:
        return get_rule_set(key)
    except ValueError as e:
        raise RequestError(str(e)) from None


def parse_request(line: str, default: RuleSet = QQ) -> dict[str, Any]:
    """Arguments for :func:`engine.analyzer.analyze` from one JSON input line: ``rules`` (the
    line's ``"rules"`` key, else ``default``) and the keyword arguments."""
    try:
        obj = json.loads(line)
    except json.JSONDecodeError as e:
        raise RequestError(f"not JSON: {e}") from None
    if not isinstance(obj, dict):
        raise RequestError("each line must be a JSON object")
    unknown = sorted(set(obj) - _FIELDS)
    if unknown:
        raise RequestError(f"unknown field(s): {', '.join(unknown)}")
    if "hand" not in obj:
        raise RequestError('missing "hand"')
    melds_in = obj.get("melds", [])
    if not isinstance(melds_in, list):
        raise RequestError('"melds" must be a list of ["kind", "cards"]')
    card_text = obj.get("card")
    card = None if card_text is None else _one_card(card_text)
    source = obj.get("source", "other" if card is not None else None)
    if source not in ("self", "other", None):
        raise RequestError(f'"source" must be "self" or "other", got {source!r}')
    base = obj.get("base", 3)
    if isinstance(base, bool) or not isinstance(base, int) or base < 1:
        raise RequestError(f'"base" must be a positive integer, got {base!r}')
    request: dict[str, Any] = {
        "rules": _rules(obj, default),
        "hand": C.counts(_cards(obj["hand"], '"hand"')),
        "melds": [_meld(m) for m in melds_in],
        "card": card,
        "source": source,
        "haidi": _flag(obj, "haidi"),
        "tianhu": _flag(obj, "tianhu"),
        "base": base,
    }
    try:
        check_cards(request["hand"], request["melds"], card)
    except ValueError as e:
        raise RequestError(str(e)) from None
    return request


def _one_card(text: Any) -> int:
    kinds = _cards(text, '"card"')
    if len(kinds) != 1:
        raise RequestError(f'"card" must be exactly one card, got {text!r}')
    return kinds[0]


def win_json(win: Win | None) -> dict[str, Any]:
    """The output object for one analysis."""
    if win is None:
        return {"hu": False}
    return {
        "hu": True,
        "huxi": win.huxi,
        "groups": [[str(g.kind), g.text(), g.huxi] for g in win.groups],
        "mingtang": [[name, fan] for name, fan in win.mingtang],
        "fan": win.fan,
        "di": win.di,
        "points": {"winner": win.winner_points, "loser": win.loser_points},
    } | ({"uncapped_loser_points": win.uncapped_loser_points} if win.capped else {})


def analyze_lines(lines: Iterable[str], out: IO[str], rules: RuleSet = QQ) -> int:
    """Answer each input line with one output line, in order; 2 if any line was bad, else 0."""
    status = 0
    for line in lines:
        try:
            r = parse_request(line, rules)
            result = win_json(
                analyze(r.pop("rules"), r.pop("hand"), r.pop("melds"), r.pop("card"), **r)
            )
        except ValueError as e:  # RequestError, or a holding the analyzer refuses
            result, status = {"error": str(e)}, 2
        out.write(json.dumps(result, ensure_ascii=False) + "\n")
        out.flush()
    return status


def cmd_analyze(args: argparse.Namespace, stdin: IO[str], stdout: IO[str]) -> int:
    return analyze_lines((line.rstrip("\r\n") for line in stdin), stdout)


def simulated_rules(rules: str, players: int | None) -> RuleSet:
    """``--rules KEY`` (``hunan/4``, ``hunan/3+起胡10``), or ``--rules ID --players N``
    (``hunan`` and 4; house words may follow the id: ``hunan+封顶100``)."""
    if players is None:
        return get_rule_set(rules)
    rule_id, *words = rules.split("+")
    if "/" in rule_id:
        raise ValueError(f"--players goes with a rule set id such as 'hunan', not {rules!r}")
    return with_house_rules(table_rules(rule_id, players), words)


def cmd_simulate(args: argparse.Namespace, stdin: IO[str], stdout: IO[str]) -> int:
    from engine.simulate import run  # lazy: simulation pulls in the whole hand engine

    try:
        rules = simulated_rules(args.rules, args.players)
    except ValueError as e:
        stdout.write(json.dumps({"error": str(e)}, ensure_ascii=False) + "\n")
        return 2
    stdout.write(json.dumps(run(args.hands, args.seed, rules), ensure_ascii=False) + "\n")
    return 0


def simulate_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--hands", type=int, default=100, help="how many hands to play")
    parser.add_argument("--seed", type=int, default=0, help="seed of the whole run")
    parser.add_argument("--rules", default="qq", help="rules key (qq, hunan/4, hunan/2/setaside…)"
                        " or, with --players, a rule set id")
    parser.add_argument("--players", type=int, help="seats at the table (with a rule set id)")


def review_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("file", help="the hand record, as /export gives it")
    parser.add_argument("--seat", type=int, help="review only this seat (default: every seat)")
    parser.add_argument("--lang", choices=("zh", "en"), default="zh", help="language of the texts")


def cmd_review(args: argparse.Namespace, stdin: IO[str], stdout: IO[str]) -> int:
    """``python -m engine review FILE``: the 复盘 as one JSON object; 2 when the file is not a
    finished hand's record."""
    from engine.review import review_hand, review_json  # lazy: pulls in the strong player

    try:
        with open(args.file, encoding="utf-8") as f:
            review = review_hand(json.load(f), seat=args.seat, lang=args.lang)
    except (OSError, ValueError) as e:  # IllegalAction and JSONDecodeError are ValueErrors
        stdout.write(json.dumps({"error": str(e)}, ensure_ascii=False) + "\n")
        return 2
    stdout.write(review_json(review) + "\n")
    return 0
