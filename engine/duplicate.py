"""复式挑战 (a duplicate challenge) as a record anyone can check.

A challenge is a rule set and a few deals' seeds, whose SHA-256 (of the seeds written
``s1,s2,…``: :func:`seeds_commitment`) is published before anyone plays. Every participant
plays seat :data:`HUMAN` of every deal; the other seats are the strong computer player
(``engine.player.choose``) with an rng fixed by the deal's seed, the seat and the number of
actions so far (:func:`robot_rng`), so a computer's move is a function of the position
alone: two participants who make the same choices see the same game.

:func:`export_challenge` writes the whole challenge (format :data:`FORMAT`): the seeds and
their commitment, and each participant's deals as ordinary hand records
(``engine.record.export_hand``). :func:`verify_challenge` (``python -m engine verify`` on
such a file) checks that the seeds are the committed ones, that each deal is the shuffle of
its seed with the dealer the challenge gives it, that every record replays (moves legal,
result as recorded), that each participant's points are his deals' sum, and that every
computer move is the strong player's choice at that position — so no participant met
computers that played differently against him.
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Sequence
from typing import Any

from engine import player
from engine.record import Verdict, export_hand
from engine.record import verify as verify_hand
from engine.rules import RuleSet, get_rule_set
from engine.state import Hand, IllegalAction

FORMAT = "paohuzi-challenge/1"
HUMAN = 0  # every participant plays this seat of every deal
LEVEL = "strong"  # the computer seats' level


def seeds_commitment(seeds: Sequence[int]) -> str:
    """The SHA-256 shown on the challenge's card: of the seeds written ``s1,s2,…``."""
    return hashlib.sha256(",".join(map(str, seeds)).encode()).hexdigest()


def dealer_of(rules: RuleSet, deal: int) -> int:
    """The dealer of deal ``deal``: the seats in turn, skipping any that would make the
    participant a 醒家 (who sits the hand out)."""
    dealers = [d for d in range(rules.players) if rules.xing_seat(d) != HUMAN]
    return dealers[deal % len(dealers)]


def robot_rng(seed: int, seat: int, step: int) -> random.Random:
    """The rng of a computer decision (it only breaks the policy's exact ties): fixed by the
    deal, the seat and the number of actions so far."""
    return random.Random(f"{seed}:{seat}:{step}")


def strong_choice(hand: Hand, seed: int, seat: int) -> str:
    """The strong player's move for ``seat`` now, from what that seat may know."""
    public = [e for e in hand.history if e.visible_to is None]
    return player.choose(hand.private_view(seat), public, robot_rng(seed, seat, len(hand.log)),
                         level=LEVEL)


def export_challenge(challenge_id: int, rules: RuleSet, seeds: Sequence[int],
                     players: Sequence[tuple[str, Sequence[Hand]]]) -> dict[str, Any]:
    """The challenge's full record: ``players`` are (name, his deals so far) in standing
    order; a deal he did not finish is recorded as far as he played it (no result)."""
    return {
        "format": FORMAT,
        "challenge": challenge_id,
        "rules": rules.key,
        "seeds": list(seeds),
        "seeds_sha256": seeds_commitment(seeds),
        "human_seat": HUMAN,
        "players": [{
            "name": name,
            "points": sum(h.outcome.points[HUMAN] for h in hands if h.outcome is not None),
            "hands": [export_hand(h) for h in hands],
        } for name, hands in players],
    }


def _seeds(doc: dict[str, Any]) -> list[int]:
    seeds = doc.get("seeds")
    if not isinstance(seeds, list) or not seeds:
        raise ValueError("the record has no seeds")
    if not all(isinstance(s, int) and not isinstance(s, bool) for s in seeds):
        raise ValueError("seeds must be integers")
    return seeds


def _robots_strong(hand_doc: dict[str, Any], seed: int, rules: RuleSet,
                   memo: dict[tuple[Any, ...], str]) -> str | None:
    """Replay the deal as the challenge played it; the first computer move that was not the
    strong player's choice, described, or None. ``memo`` shares the positions participants
    reached alike (they saw the same game up to their first different choice)."""
    dealer = hand_doc.get("dealer", 0)
    hand = Hand.new(rules, seed=seed, dealer=dealer, base=hand_doc.get("base"))
    log = [tuple(entry) for entry in hand_doc.get("log", [])]
    for step, (seat, action) in enumerate(log):
        if seat != HUMAN:
            key = (seed, dealer, tuple(log[:step]), seat)
            if key not in memo:
                memo[key] = strong_choice(hand, seed, seat)
            if memo[key] != action:
                return f"move {step + 1}: seat {seat} played {action}, the strong player {memo[key]}"
        hand.apply(seat, action)
    return None


def verify_challenge(doc: Any) -> Verdict:
    """Check a challenge record (see the module docstring); ``ValueError`` if it is none."""
    if not isinstance(doc, dict) or doc.get("format") != FORMAT:
        raise ValueError(f'not a challenge record (expected "format": "{FORMAT}")')
    seeds = _seeds(doc)
    rules = get_rule_set(str(doc.get("rules", "qq")))
    v = Verdict(ok=True)
    if doc.get("seeds_sha256") == seeds_commitment(seeds):
        v.checks.append("seeds match the SHA-256 shown when the challenge opened")
    else:
        v.problems.append("seeds do not match the published SHA-256")
    players = doc.get("players")
    if not isinstance(players, list):
        raise ValueError("the record has no players")
    memo: dict[tuple[Any, ...], str] = {}
    deals, robots_ok = 0, True
    for p in players:
        name = p.get("name", "?")
        hands = p.get("hands", [])
        if len(hands) > len(seeds):
            v.problems.append(f"{name}: more deals than seeds")
            continue
        points = 0
        for k, hand_doc in enumerate(hands):
            where = f"{name}, deal {k + 1}"
            if hand_doc.get("rules") != rules.key or hand_doc.get("seed") != seeds[k] \
                    or hand_doc.get("dealer") != dealer_of(rules, k):
                v.problems.append(f"{where}: not the challenge's deal (rules, seed or dealer)")
                continue
            hand_verdict = verify_hand(hand_doc)
            v.problems += [f"{where}: {problem}" for problem in hand_verdict.problems]
            if not hand_verdict.ok:
                continue
            try:
                wrong = _robots_strong(hand_doc, seeds[k], rules, memo)
            except IllegalAction as e:  # verify_hand replayed it: cannot happen for a valid one
                wrong = str(e)
            if wrong is not None:
                robots_ok = False
                v.problems.append(f"{where}: a computer did not play the strong choice ({wrong})")
            result = hand_doc.get("result")
            if result is not None:
                points += result["points"][HUMAN]
            deals += 1
        if p.get("points") != points:
            v.problems.append(f"{name}: points {p.get('points')} are not his deals' sum {points}")
    if deals:
        v.checks.append(f"all {deals} deals of {len(players)} players replay from their seeds,"
                        " with the recorded results")
        if robots_ok:
            v.checks.append("every computer move is the strong player's choice")
    v.ok = not v.problems
    return v


def verify_any(doc: Any) -> Verdict:
    """A hand's record (``engine.record.verify``) or a challenge's: by its format."""
    if isinstance(doc, dict) and doc.get("format") == FORMAT:
        return verify_challenge(doc)
    return verify_hand(doc)
