"""Property test: ``analyze`` agrees with a brute-force oracle written from docs/rules/qq.md.

The oracle enumerates every partition of the player's free cards (hand + winning card) into
groups of a legal shape, lets the winning card also join a table meld, then keeps the
partitions that obey its 胡牌与名堂 and scores each one with ``settle``. Hands are built
from random groups and then perturbed, so that wins are common but not certain.
"""

from __future__ import annotations

import random
from collections import Counter
from itertools import combinations

from hypothesis import given, settings
from hypothesis import strategies as st

from engine import cards as C
from engine.analyzer import analyze
from engine.melds import Group, GroupKind, is_jiao, is_sequence
from engine.rules import QQ
from engine.scoring import settle

K = GroupKind
HAND, WIN = 0, 1  # tags of the oracle's cards: from the hand, or the winning card


def _shape(items: tuple[tuple[int, int], ...]) -> bool:
    kinds = tuple(k for k, _ in items)
    if len(set(kinds)) == 1:
        return len(kinds) in (2, 3, 4)
    return len(kinds) == 3 and (is_sequence(kinds) or is_jiao(kinds))


def _partitions(items: tuple[tuple[int, int], ...]):
    """Every partition of ``items`` into legal shapes (each once: partners by position set)."""
    if not items:
        yield []
        return
    first, rest = items[0], items[1:]
    seen = set()
    for size in (1, 2, 3):
        for idxs in combinations(range(len(rest)), size):
            group = (first, *(rest[i] for i in idxs))
            if group in seen or not _shape(group):
                continue
            seen.add(group)
            remaining = tuple(r for i, r in enumerate(rest) if i not in idxs)
            for tail in _partitions(remaining):
                yield [group, *tail]


def _kind_of(group: tuple[tuple[int, int], ...], source: str | None) -> K:
    kinds = [k for k, _ in group]
    has_win = any(tag == WIN for _, tag in group)
    if len(set(kinds)) == 1 and len(kinds) >= 3:
        if not has_win:
            return K.TI if len(kinds) == 4 else K.KAN
        if len(kinds) == 4:
            return K.TI if source == "self" else K.PAO
        return K.WEI if source == "self" else K.PENG
    if len(kinds) == 2:
        return K.PAIR
    return K.SEQ if is_sequence(tuple(kinds)) else K.JIAO


def oracle(hand, melds, card, source, *, haidi=False, tianhu=False, base=3):
    items = sorted(
        [(k, HAND) for k in C.expand(hand)] + ([(card, WIN)] if card is not None else [])
    )
    in_hand = Counter(C.expand(hand))
    tables = [list(melds)]  # the card stays free, or joins a table 碰/偎/臭偎 of its kind
    if card is not None:
        for i, g in enumerate(melds):
            if g.kind in (K.PENG, K.WEI, K.CHOUWEI) and g.cards[0] == card:
                grown = K.TI if source == "self" and g.kind != K.PENG else K.PAO
                tables.append([*melds[:i], Group(grown, (card,) * 4), *melds[i + 1 :]])
    best = None
    for table in tables:
        card_joined_table = table is not tables[0]
        table_set = any(g.kind in (K.PENG, K.WEI, K.CHOUWEI) and g.cards[0] == card for g in melds)
        free_items = [it for it in items if not (card_joined_table and it[1] == WIN)]
        for part in _partitions(tuple(free_items)):
            groups = [*table, *(Group(_kind_of(g, source), tuple(k for k, _ in g)) for g in part)]
            if len(groups) != QQ.groups_to_win:
                continue
            # 坎 and dealt 4-of-a-kind are never split.
            whole = {k for k, n in in_hand.items() if n >= 3}
            if any(
                sum(1 for kk, tag in g if kk == k and tag == HAND) not in (0, in_hand[k])
                for g in part
                for k in whole
            ):
                continue
            if card is not None and not card_joined_table:
                if table_set:  # joining a table set is forced
                    continue
                win_group = next(g for g in part if (card, WIN) in g)
                size = len([1 for k, _ in win_group if k == card])
                if in_hand[card] == 3 and size != 4:
                    continue
                if source == "self" and in_hand[card] == 2 and size != 3:
                    continue
            fours = any(g.kind in (K.TI, K.PAO) for g in groups)
            n_pairs = sum(1 for g in groups if g.kind == K.PAIR)
            if n_pairs != (1 if fours else 0):
                continue
            if sum(g.huxi for g in groups) < QQ.min_huxi:
                continue
            win = settle(
                QQ,
                groups,
                [k for g in groups for k in g.cards],
                zimo=source == "self",
                haidi=haidi,
                tianhu=tianhu,
                base=base,
            )
            if best is None or (win.winner_points, win.huxi) > (best.winner_points, best.huxi):
                best = win
    return best


# --- near-winning hands --------------------------------------------------------------------


def _random_group(rng: random.Random, kind: str) -> tuple[int, ...]:
    k = rng.randrange(C.KINDS)
    if kind in ("kan", "peng", "wei", "chouwei"):
        return (k,) * 3
    if kind in ("ti", "pao"):
        return (k,) * 4
    if kind == "pair":
        return (k, k)
    base = rng.choice((0, 10))
    if kind == "jiao":
        p = rng.randrange(10)
        return (p, p, p + 10) if rng.random() < 0.5 else (p, p + 10, p + 10)
    roll = rng.random()
    if roll < 0.3:
        return (base, base + 1, base + 2)
    if roll < 0.55:
        return (base + 1, base + 6, base + 9)
    start = base + rng.randrange(8)
    return (start, start + 1, start + 2)


def near_winning(seed: int):
    """(hand counts, melds, card, source) built from 7 random groups, then perturbed."""
    rng = random.Random(seed)
    while True:
        n_table = rng.choice((0, 0, 1, 2, 3, 4))
        table_kinds = [
            rng.choice(("chi", "peng", "wei", "chouwei", "ti", "pao")) for _ in range(n_table)
        ]
        hand_kinds = [rng.choice(("kan", "seq", "seq", "seq", "jiao")) for _ in range(7 - n_table)]
        if rng.random() < 0.05 and hand_kinds:
            hand_kinds[0] = "ti"  # a dealt 4-of-a-kind
        if any(k in ("ti", "pao") for k in table_kinds + hand_kinds):
            if len(hand_kinds) < 2:
                continue
            hand_kinds[-1] = "pair"
        melds = [Group(K(k), _random_group(rng, k)) for k in table_kinds]
        hand_cards = [c for k in hand_kinds for c in _random_group(rng, k)]
        total = Counter(hand_cards) + Counter(c for g in melds for c in g.cards)
        if max(total.values()) > 4:
            continue
        card = None
        mode = rng.random()
        if mode < 0.6:
            card = hand_cards.pop(rng.randrange(len(hand_cards)))
        elif mode < 0.75:
            sets = [g for g in melds if g.kind in (K.PENG, K.WEI, K.CHOUWEI)]
            if sets:
                card = rng.choice(sets).cards[0]
                if total[card] >= 4:
                    card = None
        if rng.random() < 0.35 and hand_cards:
            hand_cards.pop(rng.randrange(len(hand_cards)))
            hand_cards.append(rng.randrange(C.KINDS))
        total = Counter(hand_cards) + Counter(c for g in melds for c in g.cards)
        if card is not None:
            total[card] += 1
        if max(total.values()) > 4:
            continue
        source = rng.choice(("self", "other")) if card is not None else rng.choice((None, "self"))
        return C.counts(hand_cards), melds, card, source


@settings(max_examples=300, deadline=None)
@given(st.integers(0, 2**32), st.booleans(), st.booleans())
def test_analyze_agrees_with_brute_force(seed, haidi, tianhu):
    hand, melds, card, source = near_winning(seed)
    got = analyze(QQ, hand, melds, card, source=source, haidi=haidi, tianhu=tianhu)
    want = oracle(hand, melds, card, source, haidi=haidi, tianhu=tianhu)
    assert (got is None) == (want is None), (hand, melds, card, source, got, want)
    if got is None:
        return
    assert (got.winner_points, got.huxi) == (want.winner_points, want.huxi)
    all_cards = Counter(C.expand(hand)) + Counter(c for g in melds for c in g.cards)
    if card is not None:
        all_cards[card] += 1
    assert Counter(c for g in got.groups for c in g.cards) == all_cards
    assert len(got.groups) == QQ.groups_to_win


def test_generator_makes_wins_and_non_wins():
    """The property above is only meaningful if both outcomes are common."""
    results = [analyze(QQ, *near_winning(s)[:3], source=near_winning(s)[3]) for s in range(300)]
    wins = sum(r is not None for r in results)
    assert 60 <= wins <= 240, wins
