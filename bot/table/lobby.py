"""The lobby and the seats: who may sit, the table's options (⚙), unseating and closing.

Each change writes in the unit of work's transaction (:mod:`bot.table.work`) and mirrors
itself on the table in memory: the store side first (``unseat``), the memory side after it
(``drop``); a rollback reloads the table, so the two never disagree for long.
"""

from __future__ import annotations

from bot.store import Tx
from bot.table import house, matches, owners, robots
from bot.table.model import (
    BASES,
    MATCHES,
    TIMERS,
    HandRecord,
    MatchStatus,
    Person,
    Place,
    Player,
    Refusal,
    Table,
    TableStatus,
)
from engine.rules import RULE_SETS, RuleSet, table_rules

APART_REFUSED = "apart_refused"  # a refusal told privately, never in the group


async def create(tx: Tx, bot_id: int, place: Place, opener: Person, rules: RuleSet,
                 match_hands: int, standing: bool) -> Table:
    """A new table of ``bot_id`` in its lobby at ``place``, the opener at seat 0, except at a
    ``standing`` table."""
    chat_id, thread_id = place
    table_id = await owners.create_table(tx, bot_id, chat_id, opener.user_id, rules, thread_id,
                                         seated=not standing)
    if not standing:
        await tx.add_seat(table_id, 0, opener.user_id)
    if match_hands != 1 or standing:
        await tx.update_table(table_id, match_hands=match_hands, standing=int(standing))
    players = {} if standing else {0: Player(opener.user_id, opener.name, opener.lang)}
    return Table(table_id, chat_id, opener.user_id, rules.default_base, TableStatus.LOBBY,
                 None, 0, 0, thread_id=thread_id, no=await tx.table_number(table_id),
                 players=players, rules=rules, match_hands=match_hands, standing=standing)


async def create_like(tx: Tx, bot_id: int, place: Place, like: Table) -> Table:
    """满桌开新桌: a standing table at ``place`` with the rules and options of ``like`` (its
    rule set, seats, 局数, 底分, timer, computer level) and its opener, empty."""
    opener = Person(like.opener_id, "", "zh")  # a standing table's opener does not sit
    table = await create(tx, bot_id, place, opener, like.rules, like.match_hands, True)
    await tx.update_table(table.id, base=like.base, timer=like.timer,
                          robot_level=like.robot_level)
    table.base, table.timer, table.robot_level = like.base, like.timer, like.robot_level
    return table


def check_seated(table: Table, user_id: int) -> int:
    """The user's seat, or ``not_seated``."""
    seat = table.seat_of(user_id)
    if seat is None:
        raise Refusal("not_seated")
    return seat


def check_not_playing(table: Table) -> None:
    if table.status == TableStatus.PLAYING:
        raise Refusal("in_play")


def free_seat(table: Table) -> int:
    """The first free seat, or ``table_full``."""
    free = [s for s in table.seats if s not in table.players]
    if not free:
        raise Refusal("table_full")
    return free[0]


def check_apart(table: Table, apart: set[int]) -> None:
    """Refuse a seat next to one the user is kept apart from in the group (/apart), naming
    him: the caller tells the user alone."""
    for player in table.players.values():
        if player.user_id in apart:
            raise Refusal(APART_REFUSED, name=player.name)


def robot_for(table: Table, lang: str) -> tuple[int, str]:
    """(user id, name) of a computer player (named in ``lang``) not seated here yet."""
    picked = robots.pick({p.user_id for p in table.players.values()}, lang)
    assert picked is not None, "fewer names than seats"
    return picked


def seat(table: Table, seat: int, person: Person, now: float) -> None:
    """Memory side of seating ``person`` (written by the caller, ready at a standing table:
    :func:`sits_ready`)."""
    table.players[seat] = Player(person.user_id, person.name, person.lang,
                                 ready=sits_ready(table))
    mark_full(table, now)


def sits_ready(table: Table) -> bool:
    """One who sits down at a standing table has pressed 准备 by sitting (it matters only
    in its lobby after a match, :func:`awaits_ready`)."""
    return table.standing


def mark_full(table: Table, now: float) -> None:
    """Start the countdown of a lobby whose last seat just filled (kept while it stays full;
    someone leaving forgets it, see :func:`drop`). A standing table back in its lobby after
    a match counts down only once everyone seated pressed 准备 (:func:`awaits_ready`)."""
    if not (table.status == TableStatus.LOBBY and table.full) or awaits_ready(table):
        table.full_since = None
    elif table.full_since is None:
        table.full_since = now


def after_match(table: Table) -> bool:
    """The lobby a finished match went back to (until the next match's first deal)."""
    return table.status == TableStatus.LOBBY and table.current is not None \
        and table.current.match_place is not None and table.match is None


def waits_for_begin(table: Table) -> bool:
    """A lobby after a match that deals only when someone seated presses 开局 (a full
    table's countdown starts only when someone sits down again); a standing table's deals
    by itself instead (:func:`awaits_ready`)."""
    return after_match(table) and not table.standing


def awaits_ready(table: Table) -> bool:
    """A standing table back in its lobby after a match with someone seated who has not
    pressed 准备 yet: who has not within ``READY_TIMEOUT`` is unseated, as between hands,
    and the table deals once full of ready players (newcomers sit down ready)."""
    return table.standing and after_match(table) \
        and any(not (p.ready or p.robot) for p in table.players.values())


async def ready_all(tx: Tx, table: Table) -> None:
    """Everyone seated is ready (自动准备), store and memory."""
    for s in unready(table):
        await tx.update_seat(table.id, s, ready=1)
        table.players[s].ready = True


def unready(table: Table) -> tuple[int, ...]:
    """The seats of humans who did not press 再来一局 (between hands) or 准备 (in a standing
    table's lobby after a match)."""
    return tuple(s for s, p in sorted(table.players.items()) if not (p.ready or p.robot))


def everyone_ready(table: Table) -> bool:
    """Every seat pressed 再来一局 (computer players always have)."""
    return table.full and all(p.ready or p.robot for p in table.players.values())


# --- options (⚙) -------------------------------------------------------------------------

def check_configurable(table: Table, user_id: int) -> None:
    if user_id != table.opener_id:
        raise Refusal("only_opener_settings")
    if not table.configurable:
        raise Refusal("settings_closed")


def match_hands(value: str) -> int:
    """The hands a match has, from a ⚙ button; ``bad_option`` if not one of ``MATCHES``."""
    hands = int(value) if value.isdigit() else 0
    if hands not in MATCHES:
        raise Refusal("bad_option")
    return hands


def robot_level(value: str) -> str:
    """A computer level (``robots.LEVELS``), from ⚙ or /addbot; ``bad_option`` if not one."""
    if value not in robots.LEVELS:
        raise Refusal("bad_option")
    return value


def changed_option(table: Table, setting: str, value: str) -> tuple[RuleSet, int, int | None]:
    """(rules, 底分, timer) of ``table`` with one option changed; ``bad_option`` when the
    value is not one offered, ``too_many_seated`` when fewer seats than are taken. A new rule
    set keeps the seat count if it offers it, and brings its own 底分 (a 湖南 底分 multiplies
    囤, a qq one 底数); a new rule set or shape keeps the house rules (房规) it takes too.
    ``house``: a ⚙ house button's code (:mod:`bot.table.house`)."""
    rules, base, timer = table.rules, table.base, table.timer
    try:
        if setting == "rules":
            seats = rules.players if rules.players in RULE_SETS[value].seat_choices else None
            rules = house.kept(rules, table_rules(value, seats))
            base = rules.default_base
        elif setting == "seats":
            rules = house.kept(rules, table_rules(rules.id, int(value)))
        elif setting == "two_seat":
            rules = house.kept(rules, table_rules(rules.id, rules.players, value))
        elif setting == "house":
            rules = house.chosen(rules, value)
        elif setting == "base" and int(value) in BASES:
            base = int(value)
        elif setting == "timer" and int(value) in TIMERS:
            timer = int(value)
        else:
            raise ValueError(f"no option {setting}={value}")
    except (KeyError, ValueError):
        raise Refusal("bad_option") from None
    if len(table.players) > rules.players:
        raise Refusal("too_many_seated", n=str(rules.players), seated=str(len(table.players)))
    return rules, base, timer


def moves_up(table: Table) -> list[tuple[int, int]]:
    """(seat, to): the seated move up to the first seats."""
    return [(s, to) for to, s in enumerate(sorted(table.players)) if s != to]


# --- leaving, stopping -----------------------------------------------------------------

def check_not_xing(table: Table, seat: int) -> None:
    """The hand's 醒家 holds no cards and cannot 逃跑: he leaves once the hand is over."""
    hand = table.hand
    if hand is not None and seat == hand.rules.xing_seat(hand.dealer):
        raise Refusal("xing_stays")


def check_may_stop(table: Table, user_id: int, is_admin: bool) -> None:
    if user_id != table.opener_id and not is_admin:
        raise Refusal("only_opener")


def check_confirmed(table: Table, hand_id: int | None) -> None:
    """During a hand, leaving or stopping needs its confirmation of this very hand; a
    confirmation of a hand no longer running is outdated."""
    running = table.current.id if table.hand is not None and table.current else None
    if hand_id is not None and hand_id != running:
        raise Refusal("stale")
    if running is not None and hand_id is None:
        raise Refusal("unconfirmed")


def running_hand(table: Table) -> HandRecord | None:
    return table.current if table.hand is not None else None


def emptied(table: Table, *leaving: int) -> tuple[int, ...]:
    """The seats that go with ``leaving``: none while a human stays; else, at a standing
    table, its computer players (it waits in its lobby for players), at any other none (it
    closes)."""
    if table.humans_besides(*leaving) or not table.standing:
        return ()
    return tuple(s for s in table.players if s not in leaving)


async def unseat(tx: Tx, table: Table, *seats: int) -> None:
    """Store side of unseating ``seats``: the table goes back to the lobby, or closes.

    Someone leaving starts a new 局: the next dealer is drawn again and the 荒庄 count
    restarts. If the opener leaves, the next seated human opens the table (and may /stop).
    A standing table never closes this way: left by its last human, it waits in its lobby,
    empty, with its rules."""
    for s in seats + emptied(table, *seats):
        await tx.remove_seat(table.id, s)
    if table.match is not None and table.hand is None and seats:  # a 逃跑: in matches.settle
        await matches.end(tx, table.match, MatchStatus.LEFT, table.players[seats[0]].user_id)
    if table.humans_besides(*seats) or table.standing:  # computers alone keep none open
        await tx.update_table(table.id, status=TableStatus.LOBBY, dealer=None, draws_in_row=0,
                              opener_id=next_opener(table, *seats))
    else:
        await tx.close_table(table.id, table.version)


def next_opener(table: Table, *leaving: int) -> int:
    """The opener once ``leaving`` are gone: the same, or the first human left seated (a
    standing table's stays the admin who opened it)."""
    if table.standing or all(table.players[s].user_id != table.opener_id for s in leaving):
        return table.opener_id
    return next(p.user_id for s, p in sorted(table.players.items())
                if s not in leaving and not p.robot)


def drop(table: Table, *seats: int) -> None:
    """Memory side of :func:`unseat`."""
    closes = not (table.humans_besides(*seats) or table.standing)
    if not closes:
        table.opener_id = next_opener(table, *seats)
        table.dealer, table.draws_in_row = None, 0
    if table.match is not None and table.hand is None:  # ended by unseat
        table.ended_match = table.match.id
        table.match = None
    for s in seats + emptied(table, *seats):
        table.players.pop(s)
    table.status = TableStatus.CLOSED if closes else TableStatus.LOBBY
    table.full_since = None
    if not awaits_ready(table):  # else the others' wait for 准备 goes on
        table.between_since = None


async def close(tx: Tx, table: Table) -> None:
    """Close the table; a running match ends (stopped) with the hands it finished."""
    table.version += 1
    await tx.close_table(table.id, table.version)
    if table.match is not None:
        await matches.end(tx, table.match, MatchStatus.STOPPED)
    table.status = TableStatus.CLOSED
    if table.match is not None:  # told of only if it has a 总结算
        table.ended_match = table.match.id if table.match.played else None
        table.match = None


async def unseat_unready(tx: Tx, table: Table, now: float) -> None:
    """Every human who did not press 再来一局 (or, in a standing table's lobby after a
    match, 准备) in time is unseated (no penalty: the hand is over) and the table goes
    back to the lobby, or closes if no human is left (a standing table waits in it)."""
    gone = unready(table)
    table.unseated_from_lobby = table.status == TableStatus.LOBBY
    await unseat(tx, table, *gone)
    table.unseated_names = tuple(table.players[s].name for s in gone)
    drop(table, *gone)
    mark_full(table, now)


async def set_match_or_level(tx: Tx, table: Table, setting: str, value: str) -> bool:
    """Set ``match`` (hands a match has) or ``level`` (the computer players'), the lobby
    options that change neither the rules nor the seats; False for any other setting."""
    if setting == "match":
        hands = match_hands(value)
        await tx.update_table(table.id, match_hands=hands)
        table.match_hands = hands
    elif setting == "level":
        level = robot_level(value)
        await tx.update_table(table.id, robot_level=level)
        table.robot_level = level
    else:
        return False
    return True
