"""The hand analyzer: the best winning arrangement of a player's cards (docs/rules/qq.md,
胡牌与名堂 · Winning; the other pages' 胡牌 · Winning sections for their numbers).

How a hand is read (the one place that states "best of all arrangements"):

* Table melds are fixed groups and keep their kind and 胡息.
* The winning card first joins what the rules make it join (a 坎, 偎 or 碰 → 提 / 跑; a hand
  pair and one's own draw → 偎); another player's card matching a hand pair gives two
  alternatives, a 碰-scored triple or a free card.
* Hand cards of one kind: 4 → 提 (only a dealt hand before auto-提), 3 → 坎 (never split).
* The remaining *free* cards (at most 3 of a kind) must split exactly into 一句话 / 绞 and,
  when the player has a 提 or 跑, exactly one 将 pair.

The free split is a memoised search over a packed count vector (2 bits per kind), always
covering the lowest kind left, so each arrangement is met once. Only four 一句话 score
(一二三 3, 二七十 3, 壹贰叁 6, 贰柒拾 6), so a cheap bound on attainable 胡息 rejects most
hands before any search. 名堂 other than 对对胡 depend only on the cards, not on the
arrangement, and an arrangement is 对对胡 only when no free card is left but the pair, so the
highest-胡息 split of each alternative is also its highest-scoring one.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from functools import cache
from typing import Literal, get_args

from engine import cards as C
from engine.melds import FOUR_KINDS, TABLE_KINDS, Group, GroupKind, is_jiao, is_sequence
from engine.rules import RuleSet
from engine.scoring import settle
from engine.views import Win

# Who produced the winning card: the winner himself (his draw: 自摸), another seat's draw, or
# another seat's discard (four14 only: a discard there can be won on, and a 碰 never 跑s it).
Source = Literal["self", "other", "discard"]
SOURCES: tuple[Source, ...] = get_args(Source)

_K = GroupKind
_SETS_ON_TABLE = (_K.PENG, _K.WEI, _K.CHOUWEI)  # the table sets a face-up card may grow
_SETS_ON_TABLE_DISCARD = (_K.WEI, _K.CHOUWEI)  # ... when it is a discard
_MEMO_LIMIT = 200_000  # entries of the split memo (bounded: a bot runs for weeks)
_RESULT_LIMIT = 50_000  # per-hand results kept per rule set


# --- the free split ----------------------------------------------------------------------


# (amount to subtract, checks (shift, minimum count), 胡息, cards)
_Option = tuple[int, tuple[tuple[int, int], ...], int, tuple[int, ...]]


def _build_options() -> tuple[tuple[_Option, ...], ...]:
    """Per kind k: the non-pair groups whose lowest card is k.

    A count at shift ``s`` of the packed vector is ``(x >> s) & 3``.
    """
    table: list[tuple[_Option, ...]] = []
    for k in range(C.KINDS):
        s, pt, big = 2 * k, k % 10 + 1, k >= 10
        opts: list[_Option] = []
        if pt <= 8:
            hx = (6 if big else 3) if pt == 1 else 0
            opts.append((21 << s, ((s + 2, 1), (s + 4, 1)), hx, (k, k + 1, k + 2)))
        if pt == 2:  # 二七十 / 贰柒拾
            sub = (1 << s) | (1 << (s + 10)) | (1 << (s + 16))
            opts.append((sub, ((s + 10, 1), (s + 16, 1)), 6 if big else 3, (k, k + 5, k + 8)))
        if not big:  # 绞: both sizes of one point; the small one is always the lower kind
            b = s + 20
            opts.append(((2 << s) | (1 << b), ((s, 2), (b, 1)), 0, (k, k, k + 10)))
            opts.append(((1 << s) | (2 << b), ((b, 2),), 0, (k, k + 10, k + 10)))
        table.append(tuple(opts))
    return tuple(table)


_OPTIONS = _build_options()
# Groups are interned, so each shape computes its 胡息 once.
_group = cache(Group)
_memo: dict[int, int] = {}


def _pack(free: Sequence[int]) -> int:
    x = 0
    for k in range(C.KINDS - 1, -1, -1):
        x = (x << 2) | free[k]
    return x


def _best(x: int, pairs: int) -> int:
    """Highest 胡息 of a split of packed ``x`` with exactly ``pairs`` 将, or -1 if none."""
    if x == 0:
        return 0 if pairs == 0 else -1
    key = (x << 1) | pairs
    got = _memo.get(key)
    if got is not None:
        return got
    s = (x & -x).bit_length() - 1
    s -= s & 1
    best = -1
    if pairs and (x >> s) & 3 >= 2:
        best = _best(x - (2 << s), 0)
    for sub, checks, hx, _ in _OPTIONS[s >> 1]:
        for shift, need in checks:
            if (x >> shift) & 3 < need:
                break
        else:
            r = _best(x - sub, pairs)
            if r >= 0 and r + hx > best:
                best = r + hx
    if len(_memo) >= _MEMO_LIMIT:
        _memo.clear()
    _memo[key] = best
    return best


def _split(x: int, pairs: int) -> list[Group]:
    """The groups of a best split (``_best(x, pairs) >= 0`` must hold); the 将 comes last."""
    groups: list[Group] = []
    pair: Group | None = None
    while x:
        target = _best(x, pairs)
        s = (x & -x).bit_length() - 1
        s -= s & 1
        k = s >> 1
        if pairs and (x >> s) & 3 >= 2 and _best(x - (2 << s), 0) == target:
            pair = _group(_K.PAIR, (k, k))
            x, pairs = x - (2 << s), 0
            continue
        for sub, checks, hx, cards in _OPTIONS[k]:
            if all((x >> shift) & 3 >= need for shift, need in checks):
                r = _best(x - sub, pairs)
                if r >= 0 and r + hx == target:
                    groups.append(_group(_K.JIAO if is_jiao(cards) else _K.SEQ, cards))
                    x -= sub
                    break
    if pair is not None:
        groups.append(pair)
    return groups


def _scoring_runs(free: Sequence[int]) -> list[tuple[tuple[int, ...], int]]:
    """The most 胡息 a partial arrangement can take from free cards: (sequence, how many).

    Only 一二三 and 二七十 (and their big forms) score; both need the 二, so with ``a`` of
    一三 and ``b`` of 七十 the best is min(二, a + b) of them, 一二三 first.
    """
    runs: list[tuple[tuple[int, ...], int]] = []
    for base in (0, 10):
        n123 = min(free[base], free[base + 1], free[base + 2])
        n2710 = min(free[base + 1] - n123, free[base + 6], free[base + 9])
        runs.append(((base, base + 1, base + 2), n123))
        runs.append(((base + 1, base + 6, base + 9), n2710))
    return runs


def _partial_huxi(free: Sequence[int]) -> int:
    """The 胡息 of :func:`_scoring_runs`, computed directly (it bounds every split: hot path)."""
    small = min(free[1], min(free[0], free[2]) + min(free[6], free[9]))
    big = min(free[11], min(free[10], free[12]) + min(free[16], free[19]))
    return 3 * small + 6 * big


# --- validation ----------------------------------------------------------------------------

_SHAPES = {
    _K.PENG: 3,
    _K.WEI: 3,
    _K.CHOUWEI: 3,
    _K.TI: 4,
    _K.PAO: 4,
}


def check_meld(group: Group) -> None:
    """Raise ValueError unless ``group`` is a well-formed table meld."""
    if group.kind not in TABLE_KINDS:
        raise ValueError(f"{group.kind} is not a table meld kind")
    if any(not isinstance(k, int) or not 0 <= k < C.KINDS for k in group.cards):
        raise ValueError(f"bad card in meld {group.cards!r}")
    if group.kind == _K.CHI:
        if not (is_sequence(group.cards) or is_jiao(group.cards)):
            raise ValueError(f"吃 meld {group.text()} is not a 一句话 or 绞")
    elif len(group.cards) != _SHAPES[group.kind] or len(set(group.cards)) != 1:
        raise ValueError(
            f"{group.kind} meld {group.text()} needs {_SHAPES[group.kind]} identical cards"
        )


def check_cards(hand: Sequence[int], melds: Sequence[Group], card: int | None = None) -> None:
    """Raise ValueError unless hand (count vector), melds and card are a possible holding."""
    if len(hand) != C.KINDS or any(not isinstance(n, int) or n < 0 for n in hand):
        raise ValueError(f"hand must be {C.KINDS} card counts, got {list(hand)!r}")
    total = list(hand)
    for g in melds:
        check_meld(g)
        for k in g.cards:
            total[k] += 1
    if card is not None:
        if not isinstance(card, int) or not 0 <= card < C.KINDS:
            raise ValueError(f"bad winning card {card!r}")
        total[card] += 1
    over = [C.to_char(k) for k, n in enumerate(total) if n > C.COPIES]
    if over:
        raise ValueError(f"more than {C.COPIES} of {''.join(over)}")


# --- analysis ------------------------------------------------------------------------------


# A reading of the cards before the free split: (table melds, hand groups, free counts).
_Reading = tuple[list[Group], list[Group], list[int]]


def _with_card(
    melds: list[Group], sets: list[Group], free: list[int], card: int, source: Source
) -> list[_Reading]:
    """The readings the winning card allows; the card's own group comes first.

    It joins a 坎, 偎 or 碰 of its kind (docs/rules/qq.md, 胡牌与名堂 · Winning), except that
    a 碰 never takes a discarded card (docs/rules/four14.md, 胡牌 · Winning): that card stays
    free, to be used in a 一句话 or 绞.
    """
    joins = _SETS_ON_TABLE if source != "discard" else _SETS_ON_TABLE_DISCARD
    at = next((i for i, g in enumerate(melds) if g.kind in joins and g.cards[0] == card), None)
    own = source == "self"
    kan = next((g for g in sets if g.cards[0] == card), None)
    if kan is not None:  # a 坎 (never a dealt 4: that would be a fifth copy)
        others = [g for g in sets if g is not kan]
        return [(melds, [_group(_K.TI if own else _K.PAO, (card,) * 4), *others], free)]
    if at is not None:
        table = list(melds)
        table[at] = _group(_K.TI if own and melds[at].kind != _K.PENG else _K.PAO, (card,) * 4)
        return [(table, sets, free)]
    plus_card = list(free)
    plus_card[card] += 1
    if free[card] != 2:
        return [(melds, sets, plus_card)]
    minus_pair = list(free)
    minus_pair[card] = 0
    if own:  # one's own draw on a pair is 偎-ed first
        return [(melds, [_group(_K.WEI, (card,) * 3), *sets], minus_pair)]
    return [(melds, [_group(_K.PENG, (card,) * 3), *sets], minus_pair), (melds, sets, plus_card)]


def _hand_sets(hand: Sequence[int]) -> tuple[list[Group], list[int]]:
    """Split a hand into its forced sets (4 → 提, 3 → 坎) and the free counts."""
    sets: list[Group] = []
    free = list(hand)
    for k, n in enumerate(hand):
        if n >= 3:
            sets.append(_group(_K.TI if n == 4 else _K.KAN, (k,) * n))
            free[k] = 0
    sets.sort(key=lambda g: (g.kind != _K.TI, g.cards[0]))
    return sets, free


def _analyze(
    rules: RuleSet,
    hand: tuple[int, ...],
    melds: tuple[Group, ...],
    card: int | None,
    source: Source | None,
    haidi: bool,
    tianhu: bool,
    base: int,
    dihu: bool,
) -> Win | None:
    sets, free_hand = _hand_sets(hand)
    if card is None or source is None:
        readings: list[_Reading] = [(list(melds), sets, free_hand)]
    else:
        readings = _with_card(list(melds), sets, free_hand, card, source)
    best: Win | None = None
    for fixed, x, pairs in _winning_readings(rules, readings):
        groups = [*fixed, *_split(x, pairs)]
        win = settle(
            rules,
            groups,
            [k for g in groups for k in g.cards],
            zimo=source == "self",
            haidi=haidi,
            tianhu=tianhu,
            base=base,
            dihu=dihu,
        )
        if best is None or (win.winner_points, win.huxi) > (best.winner_points, best.huxi):
            best = win
    return best


def can_win(
    rules: RuleSet, hand: Sequence[int], melds: Sequence[Group], card: int, source: Source
) -> bool:
    """Whether :func:`analyze` would find a win, without scoring it (for 听: many questions).

    Unchecked and uncached: the caller passes a valid holding and memoises what it needs.
    """
    sets, free_hand = _hand_sets(hand)
    readings = _with_card(list(melds), sets, free_hand, card, source)
    return next(_winning_readings(rules, readings), None) is not None


def _winning_readings(
    rules: RuleSet, readings: Iterable[_Reading]
) -> Iterator[tuple[list[Group], int, int]]:
    """(fixed groups, packed free cards, pairs) of each reading that makes enough 门子 and
    胡息; the free cards split into groups by :func:`_split`."""
    for table, hand_groups, free in readings:
        fixed = [*table, *hand_groups]
        pairs = 1 if any(g.kind in FOUR_KINDS for g in fixed) else 0
        need = rules.groups_to_win - len(fixed) - pairs
        if need < 0 or sum(free) != 3 * need + 2 * pairs:
            continue
        fixed_huxi = sum(g.huxi for g in fixed)
        if fixed_huxi + _partial_huxi(free) < rules.min_huxi:
            continue
        x = _pack(free)
        free_huxi = _best(x, pairs)
        if free_huxi >= 0 and fixed_huxi + free_huxi >= rules.min_huxi:
            yield fixed, x, pairs


_caches: dict[int, tuple[RuleSet, dict[tuple, Win | None]]] = {}


def _cache_for(rules: RuleSet) -> dict[tuple, Win | None]:
    """One result cache per rule-set object (kept alive, so its id is never reused)."""
    entry = _caches.get(id(rules))
    if entry is None or entry[0] is not rules:
        entry = (rules, {})
        _caches[id(rules)] = entry
    return entry[1]


def clear_caches(*, splits: bool = True) -> None:
    """Forget memoised results: per-hand results, and also the split memo if ``splits``."""
    if splits:
        _memo.clear()
    _caches.clear()


def analyze(
    rules: RuleSet,
    hand: Sequence[int],
    melds: Sequence[Group],
    card: int | None = None,
    *,
    source: Source | None = None,
    haidi: bool = False,
    tianhu: bool = False,
    base: int = 3,
    checked: bool = True,
    dihu: bool = False,
) -> Win | None:
    """The best winning arrangement (most points, then most 胡息), or None if no win.

    ``hand`` is the player's count vector (20 kinds, 坎 included), ``melds`` his table area,
    ``card`` the card he would win on and ``source`` who produced it: ``"self"`` (his own
    draw: 自摸), ``"other"`` (another seat's draw, or the 亮张) or ``"discard"`` (another
    seat's discard, where the rules let one be won on: a 碰 does not take it). With ``card=None`` the cards are judged as they stand (a
    dealer's 21 cards, a hand right after a 提/偎); pass ``source="self"`` then for 自摸.
    Raises ValueError for an impossible holding (over 4 of a kind, a malformed meld).

    ``Win.groups`` come in a stable order: the table melds as given (one the card grew into a
    提/跑 stays in place), the card's new group from the hand, 提 and 坎 by kind, then
    一句话 and 绞 by lowest card (small cards before big), the 将 last. Results are memoised
    per rule-set object on the full argument tuple. ``checked=False`` skips validating the
    holding: for the engine, whose holdings are valid by construction. ``dihu`` scores the
    win as a 地胡 (four14: the 天胡 底数, ``Win.dihu``).
    """
    if (source is not None and source not in SOURCES) or (card is not None and source is None):
        raise ValueError(f"source must be one of {', '.join(SOURCES)} with a card, got {source!r}")
    key = (tuple(hand), tuple(melds), card, source, haidi, tianhu, base, dihu)
    cache = _cache_for(rules)
    try:
        return cache[key]
    except KeyError:
        pass
    if checked:
        check_cards(hand, melds, card)
    result = _analyze(rules, *key)
    if len(cache) >= _RESULT_LIMIT:
        cache.clear()
    cache[key] = result
    return result


def best_huxi(rules: RuleSet, hand: Sequence[int], melds: Sequence[Group]) -> int:
    """The most 胡息 a player can arrange without winning (for the 逃跑 penalty).

    Table melds, 坎 and 4-of-a-kind (as 提), plus the best partial arrangement of the other
    hand cards; cards left over count nothing.
    """
    sets, free = _hand_sets(hand)
    return sum(g.huxi for g in melds) + sum(g.huxi for g in sets) + _partial_huxi(free)


def forced_tianhu(rules: RuleSet, hand: Sequence[int]) -> bool:
    """必需天胡: enough 4-of-a-kind, or enough 坎 and 4-of-a-kind together, in dealt cards."""
    fours = sum(1 for n in hand if n == 4)
    return (
        fours >= rules.forced_tianhu_ti or sum(1 for n in hand if n >= 3) >= rules.forced_tianhu_kan
    )


def forced_tianhu_win(
    rules: RuleSet, hand: Sequence[int], *, zimo: bool, base: int, dihu: bool = False
) -> Win:
    """Score a forced 天胡 (no meld structure needed, no minimum 胡息); a non-dealer's is a
    地胡 where the rules have one (``dihu``).

    胡息 = 提 and 坎 plus the best partial arrangement of the rest; 名堂 over all cards. When
    every other card is in a pair, the all-pairs reading (对对胡) is weighed against the
    highest-胡息 one and the better score wins, as in :func:`analyze`.
    """
    sets, free = _hand_sets(hand)
    runs = [_group(_K.SEQ, seq) for seq, n in _scoring_runs(free) for _ in range(n)]
    readings = [[*sets, *runs]]
    if all(n in (0, 2) for n in free):
        readings.append([*sets, *(_group(_K.PAIR, (k, k)) for k, n in enumerate(free) if n)])
    all_cards = C.expand(hand)
    wins = [
        settle(rules, g, all_cards, zimo=zimo, haidi=False, tianhu=not dihu, base=base, dihu=dihu)
        for g in readings
    ]
    return max(wins, key=lambda w: (w.winner_points, w.huxi))
