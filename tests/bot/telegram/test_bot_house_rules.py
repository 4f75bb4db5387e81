"""House rules (房规) at the table, through the real bot and a fake Telegram: /new's words,
the refusals of words it does not take, ⚙'s 房规 page, a standing table keeping them across a
restart, the lobby, caption and settlement naming them, /rules, /calc, a cup's and a
challenge's cards, and the leaderboards that keep hands of other points apart
(docs/club_scores.md)."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from support.e2e import make_config, running_bot, services
from support.fakebot import FakeTelegram
from support.forum import command
from support.posted import lobby_id, settlement_id
from support.service import PEOPLE, Clock, Observer

from bot.commands import rulebook, stats
from bot.commands.calc import reply as calc_reply
from bot.i18n import t
from bot.present.fairness import export_file
from bot.present.reviews import review_of
from bot.present.screens.group import settlement_text, table_screen
from bot.present.screens.lobby import HOUSE_ROW, house_keyboard
from bot.store import Span, Store, Tx, board_of
from bot.store.boards import board_keys
from bot.table import HandRecord, Refusal, Table, TableService, house
from bot.telegram.lobby import house_refusal, rules_from_args
from engine.points import signed
from engine.record import verify
from engine.rules import RULE_SETS, HouseRuleError, get_rule_set, house_options, table_rules
from engine.simulate import play_random
from engine.state import Hand
from render import render_settlement
from render.settlement import score_lines
from render.strings import table as strings_table

KEY = "hunan/3+起胡10+封顶100+无名堂"
LABEL = "起胡10 · 封顶100 · 无名堂"


# --- /new's words ----------------------------------------------------------------------

@pytest.mark.parametrize(("args", "key"), [
    (["hunan", "3", "起胡10", "封顶100", "无名堂"], KEY),
    (["无名堂", "封顶100", "3", "起胡10", "湖南"], KEY),  # any order
    (["起胡15", "qq"], "qq"),  # a word at its default says nothing
    (["开桌人庄", "不连庄"], "qq+开桌人庄+不连庄"),
    (["four14", "起胡9"], "four14+起胡9"),
])
def test_new_takes_house_words_in_any_order(args: list[str], key: str) -> None:
    rules = rules_from_args(args)
    assert rules.key == key and get_rule_set(key) == rules


@pytest.mark.parametrize(("args", "code", "fields"), [
    (["hunan", "起胡30"], "house_range", {"word": "起胡30", "allowed": "起胡6–21"}),
    (["four14", "起胡18"], "house_range", {"word": "起胡18", "allowed": "起胡6–15"}),
    (["封顶10", "不封顶"], "house_contradicts", {"word": "不封顶", "other": "封顶10"}),
    (["无名堂", "无红胡"], "house_contradicts", {"word": "无红胡", "other": "无名堂"}),
    (["起胡10", "起胡10"], "house_repeated", {"word": "起胡10"}),
])
def test_a_house_word_it_does_not_take_is_answered_with_what_is_allowed(
        args: list[str], code: str, fields: dict[str, str]) -> None:
    with pytest.raises(HouseRuleError) as refused:
        rules_from_args(args)
    said = house_refusal(refused.value, args)
    assert (said.code, said.fields) == (code, fields)


def test_an_unknown_word_lists_every_house_word_of_the_rule_set() -> None:
    with pytest.raises(HouseRuleError) as refused:
        rules_from_args(["hunan", "mahjong"])
    said = house_refusal(refused.value, ["hunan", "mahjong"])
    assert said.code == "house_unknown" and said.fields["word"] == "mahjong"
    assert "起胡6–21" in said.fields["allowed"] and "无名堂" in said.fields["allowed"]
    text = t("zh", said.code, **said.fields)
    assert text.startswith("「mahjong」") and "起胡6–21" in text
    assert t("en", said.code, **said.fields).startswith("“mahjong” is not a word")


# --- ⚙'s 房规 page -----------------------------------------------------------------------

@pytest.mark.parametrize("key", ["qq", "hunan/4", "hunan/3", "hunan/2/min21", "four14"])
def test_every_house_choice_has_a_button_that_sets_it(key: str) -> None:
    """Each option's every choice has a code (ASCII, as callback data must be) that names it
    back, and pressing it puts that choice in force and ticks it."""
    rules = get_rule_set(key)
    for option in house_options(rules):
        assert option.name in house.LETTERS
        for word in option.choices:
            code = house.option_code(option, word)
            assert code.isascii() and house.word_of(rules, code) == word
            chosen = house.chosen(rules, code)
            assert next(o for o in house_options(chosen) if o.name == option.name).current == word
    with pytest.raises(Refusal, match="bad_option"):
        house.word_of(rules, "q99")


def test_the_house_page_ticks_what_is_in_force() -> None:
    table = Table(1, -100, 10, 1, "lobby", None, 0, 0, rules=get_rule_set(KEY))
    rows = [[b.text for b in row] for row in house_keyboard(table, 0, "zh").inline_keyboard]
    flat = [text for row in rows for text in row]
    assert {"✓ 起胡10", "✓ 封顶100", "✓ 无名堂", "✓ 庄随机", "✓ 连庄"} <= set(flat)
    assert "起胡15" in flat and "不封顶" in flat and rows[-1] == ["↩ 返回"]
    assert all(len(row) <= HOUSE_ROW for row in rows)


def test_another_rule_set_keeps_the_house_words_it_takes() -> None:
    """⚙'s rule set or seats: the house words go along where the new rules take them."""
    old = get_rule_set("hunan/4+起胡18+封顶50+无红乌")
    assert house.kept(old, table_rules("hunan", 3)).key == "hunan/3+起胡18+封顶50+无红乌"
    # four14's 起胡 stops at 15 and it has no 红乌 (its 红乌 is a name of its own)
    assert house.kept(old, table_rules("four14")).key in ("four14+封顶50", "four14+封顶50+无红乌")
    assert house.kept(old, table_rules("qq")).key.startswith("qq+起胡18+封顶50")


# --- the table: service level -----------------------------------------------------------

@pytest.fixture
async def service(tmp_path: Path):
    store = await Store.open(tmp_path / "db.sqlite3")
    for p in PEOPLE:
        await store.upsert_user(p.user_id, p.name, None, p.lang, dm_ok=True)
    clock = Clock()

    def make(seed: int = 3) -> TableService:
        return TableService(store, Observer(tmp_path / "db.sqlite3"), action_timeout=60,
                            autoplay_delay=1.5, clock=clock, rng=random.Random(seed))
    yield make
    await store.close()


async def test_house_options_are_set_before_the_first_deal_and_kept(service) -> None:
    first: TableService = service()
    a, b, _ = PEOPLE
    table = await first.open(-100, a, get_rule_set("hunan/3"))
    await first.join(table.id, b)
    with pytest.raises(Refusal, match="only_opener_settings"):
        await first.configure(table.id, b.user_id, "house", "q10")
    for code in ("q11", "c7", "x1", "m9"):
        with pytest.raises(Refusal, match="bad_option"):
            await first.configure(table.id, a.user_id, "house", code)
    for code in ("q10", "c100", "m1"):
        await first.configure(table.id, a.user_id, "house", code)
    assert table.rules.key == KEY
    await first.configure(table.id, a.user_id, "seats", "4")  # the shape changes, not the words
    assert table.rules.key == "hunan/4+起胡10+封顶100+无名堂"
    await first.configure(table.id, a.user_id, "house", "c0")  # 不封顶
    assert table.rules.key == "hunan/4+起胡10+无名堂"
    second: TableService = service()
    [again] = await second.load()
    assert again.rules.key == "hunan/4+起胡10+无名堂"
    await second.add_robot(again.id, a.user_id, "zh")
    await second.add_robot(again.id, a.user_id, "zh")
    await second.begin(again.id, a.user_id)
    assert again.current.hand.rules.key == "hunan/4+起胡10+无名堂"
    with pytest.raises(Refusal, match="settings_closed"):
        await second.configure(again.id, a.user_id, "house", "q6")


async def _dealers(service, key: str, seeds: range) -> set[int]:  # type: ignore[no-untyped-def]
    """The first dealer of a table of ``key`` whose opener sits at seat 1, over ``seeds``."""
    found = set()
    for seed in seeds:
        svc: TableService = service(seed)
        a, b, _ = PEOPLE
        table = await svc.open(-100 - seed, a, get_rule_set(key))
        await svc.join(table.id, b)
        await svc.leave(table.id, a.user_id)  # Bob opens it now, at seat 1
        await svc.join(table.id, a)
        await svc.add_robot(table.id, b.user_id, "zh")
        assert table.opener_id == b.user_id and table.seat_of(b.user_id) == 1
        await svc.begin(table.id, b.user_id)
        found.add(table.current.hand.dealer)
        await svc.stop(table.id, b.user_id, True, table.current.id)
    return found


async def test_the_opener_deals_first_under_kaizhuoren_zhuang(service) -> None:
    assert len(await _dealers(service, "qq", range(8))) > 1  # drawn at random
    assert await _dealers(service, "qq+开桌人庄", range(8)) == {1}


@pytest.mark.parametrize("key", [KEY, "qq+起胡6+封顶10+开桌人庄+不连庄", "four14+无海底+自摸翻倍"])
async def test_a_house_table_deals_restarts_settles_and_exports(service, key: str) -> None:
    """Computers and 托管 play by the table's rules (its key goes with every hand), a restart
    replays it, it settles zero-sum, and /export's record verifies under the same key."""
    first: TableService = service()
    rules = get_rule_set(key)
    table = await first.open(-100, PEOPLE[0], rules)
    for _ in range(rules.players - 1):
        await first.add_robot(table.id, PEOPLE[0].user_id, "zh")
    await first.begin(table.id, PEOPLE[0].user_id)
    clock = first.clock
    for _ in range(6):
        clock.now += 100  # type: ignore[operator]
        await first.play_due(table.id)
    second: TableService = service()
    [table] = await second.load()
    hand = table.current.hand
    assert hand.rules is rules or hand.rules == rules
    hinted = ""
    while table.status == "playing":
        decision = table.decisions.get(0)
        if not hinted and decision is not None and decision.legal:  # 提示 reads the key too
            hinted = await second.hint(table.id, PEOPLE[0].user_id, "zh")
        clock.now += 100  # type: ignore[operator]
        await second.play_due(table.id)
    assert sum(hand.outcome.points) == 0
    if hand.outcome.win is not None:
        assert hand.outcome.win.huxi >= rules.min_huxi
    [played] = await second.store.finished_hands(-100, 1)
    assert played.rule_set == key
    _, data, _ = export_file(played)
    doc = json.loads(data)
    assert doc["rules"] == key and verify(doc).ok
    assert review_of(played, 0, "zh").rules == key  # the 复盘 of his seat, by the same rules


# --- what the table shows ---------------------------------------------------------------

def _capped(key: str) -> Hand:
    for seed in range(3000):
        hand = play_random(Hand.new(get_rule_set(key), seed=seed, dealer=seed % 3),
                           random.Random(seed))
        if hand.outcome.uncapped_points is not None:
            return hand
    raise AssertionError(f"no capped {key} hand")


def test_the_caption_and_settlement_name_the_house_rules_and_the_cap() -> None:
    hand = _capped("qq+封顶5")
    outcome = hand.outcome
    names = ("A", "B", "C")
    record = HandRecord(1, 1, hand, (1, 2, 3), names)
    text = settlement_text(None, record, {}, "zh", live=False)  # type: ignore[arg-type]
    assert "房规:封顶5" in text
    capped = [f"{names[s]} {signed(p)}" for s, p in enumerate(outcome.uncapped_points)
              if p != outcome.points[s]]
    line = next(line for line in text.splitlines() if line.startswith("封顶 5"))
    assert capped and all(c in line for c in capped) and -min(outcome.points) <= 5
    assert "封顶 5 applied" in settlement_text(None, record, {}, "en", live=False)  # type: ignore[arg-type]
    plain = HandRecord(1, 1, play_random(Hand.new(get_rule_set("qq"), seed=1, dealer=0),
                                         random.Random(1)), (1, 2, 3), names)
    assert "房规" not in settlement_text(None, plain, {}, "zh", live=False)  # type: ignore[arg-type]
    live = Hand.new(get_rule_set("qq+封顶5+无名堂"), seed=2, dealer=0)
    table = Table(1, -100, 10, 3, "playing", 0, 0, 0, rules=live.rules)
    _, caption = table_screen(table, HandRecord(2, 2, live, (1, 2, 3), names), (), "zh")
    assert caption.splitlines()[1] == "房规:封顶5 · 无名堂"


def test_rules_answers_the_tables_own_rules() -> None:
    rules = get_rule_set(KEY)
    assert rulebook.asked_rules([], rules) is rules
    text = rulebook.summary(rules, "zh")
    assert f"本桌房规:{LABEL}" in text and "胡息至少 10" in text and "封顶 100" in text
    assert t("zh", "rules_no_mingtang") in text and "相乘" not in text
    assert rulebook.asked_rules(["hunan", "3", "起胡10", "封顶100", "无名堂"], rules) == rules
    assert rulebook.asked_rules(["hunan", "起胡30"], rules) is None
    assert "房规" not in rulebook.summary(get_rule_set("hunan/3"), "zh")


def test_calc_takes_the_same_words() -> None:
    cards = "一二三 壹贰叁 四五六 七八九 贰柒拾 十十 碰:五五五 + 拾"  # 16 胡息
    assert calc_reply(cards, "zh").startswith("✅")
    assert not calc_reply(f"{cards} 起胡18", "zh").startswith("✅")
    assert "18" in calc_reply(f"起胡18 {cards}", "zh")
    assert calc_reply(f"{cards} 起胡30", "zh") == t("zh", "house_range", word="起胡30",
                                                     allowed="起胡6–21")
    assert calc_reply(f"hunan {cards} 起胡10", "zh").startswith("✅")
    under = calc_reply(f"{cards} 封顶5", "zh")  # 底 1 × 番 1 × 底分 3 = 3: under the cap
    assert under.startswith("✅") and "封顶" not in under
    doubled = calc_reply(f"{cards} 自摸 自摸翻倍 封顶5", "zh")  # 3, doubled: 6 > 5
    assert "两家各 −5" in doubled and t("zh", "calc_capped", cap=5, p=6) in doubled


def test_the_settlement_picture_says_the_cap() -> None:
    hand = _capped("qq+封顶5")
    win = hand.outcome.win
    lines = [line.text for line in score_lines(win, hand.rules, strings_table("zh"))]
    assert f"封顶5：每家输 {-win.uncapped_loser_points} → 5" in lines
    assert render_settlement(hand.public_view(), ("A", "B", "C"), lang="zh")[:4] == b"\x89PNG"
    plain = play_random(Hand.new(get_rule_set("qq"), seed=1, dealer=0), random.Random(1))
    if plain.outcome.win is not None:
        assert not any("→" in line.text for line in score_lines(plain.outcome.win, plain.rules,
                                                                 strings_table("zh")))


# --- leaderboards -----------------------------------------------------------------------

def test_boards_keep_apart_what_changes_points() -> None:
    assert board_of("hunan/3") == board_of("hunan/4+开桌人庄+不连庄") == "hunan"
    assert board_of(KEY) == "hunan+起胡10+封顶100+无名堂"
    assert "hunan/4+开桌人庄" in board_keys("hunan") and KEY not in board_keys("hunan")
    assert KEY in board_keys(board_of(KEY))
    for key in ("qq+自摸翻倍", "qq+无海底", "four14+封顶20", "hunan/2/min21+起胡15"):
        assert board_of(key) != board_of(key.split("+")[0])
        assert key in board_keys(board_of(key))
    assert stats.rules_name(board_of(KEY), "zh") == f"湖南跑胡子 · {LABEL}"
    # /rank's words: a rule set and house words; house words alone are the table's rule set's
    assert stats.rank_query(["起胡10"], False, "hunan").rule_set == "hunan+起胡10"
    assert stats.rank_query(["qq", "封顶100"], False, "hunan").rule_set == "qq+封顶100"
    assert stats.rank_query([], False, "hunan+起胡10").rule_set == "hunan+起胡10"
    assert stats.rank_query(["起胡99"], False, "hunan") is None


USERS = [p.user_id for p in PEOPLE]


async def _finished(tx: Tx, table: int, no: int, key: str, points: tuple[int, ...]) -> None:
    hand = await tx.create_hand(table, no, no, key, 7, 0)
    await tx.finish_hand(hand, -100, USERS, list(points), 0, huxi=20)


async def test_the_ranking_keeps_each_boards_hands(tmp_path: Path) -> None:
    store = await Store.open(tmp_path / "db.sqlite3")
    try:
        for p in PEOPLE:
            await store.upsert_user(p.user_id, p.name, None, p.lang, dm_ok=True)
        async with store.transaction() as tx:
            table = await tx.create_table(-100, USERS[0], 1, "hunan/3")
            await _finished(tx, table, 1, "hunan/3", (6, -3, -3))
            await _finished(tx, table, 2, "hunan/3+开桌人庄", (4, -2, -2))
            await _finished(tx, table, 3, KEY, (100, -50, -50))
        first = USERS[0]
        plain = await store.ranking(-100, 10, rule_set="hunan")
        assert [(r.user_id, r.points, r.hands) for r in plain][0] == (first, 10, 2)
        housed = await store.ranking(-100, 10, rule_set=board_of(KEY))
        assert [(r.user_id, r.points, r.hands) for r in housed][0] == (first, 100, 1)
        assert (await store.recent_points([first], "hunan", -100))[first] == [6, 4]
        best = await store.best_hand(first, board_of(KEY))
        assert best is not None and best.rule_set == KEY
        assert (await store.scores(first)).keys() == {"hunan", board_of(KEY)}
        season = await store.season_ranking(-100, Span(), board_of(KEY), 10)
        assert [(r.user_id, r.points) for r in season][0] == (first, 100)
        club = {r.user_id: r for r in await store.club_stats(-100, Span(), "hunan")}
        assert club[first].hands == 2
    finally:
        await store.close()


# --- through the real bot ---------------------------------------------------------------

async def test_new_with_house_rules_and_the_refusals_open_nothing(tg: FakeTelegram,
                                                                  tmp_path: Path) -> None:
    async with running_bot(make_config(tg, tmp_path / "db.sqlite3")) as app:
        alice = tg.user("Alice", language_code="zh-hans")
        group = tg.group("牌友群", members=(alice,))
        tg.start_private(alice)
        svc = services(app).service
        for words, said in (("起胡30", t("zh", "house_range", word="起胡30", allowed="起胡6–21")),
                            ("封顶100 不封顶", t("zh", "house_contradicts", word="不封顶",
                                                 other="封顶100"))):
            reply = await tg.wait_reply(await tg.send_text(group, alice, f"/new hunan 3 {words}"))
            assert reply.text == said
            assert svc.in_chat(group.id) is None
        reply = await tg.wait_reply(await tg.send_text(group, alice, "/new hunan 3 mahjong"))
        assert reply.text.startswith("「mahjong」") and "/new hunan 4" in reply.text
        assert svc.in_chat(group.id) is None
        lobby = await tg.wait_reply(await tg.send_text(
            group, alice, "/new hunan 3 无名堂 封顶100 起胡10 8局"))
        table = svc.in_chat(group.id)
        assert table is not None and table.rules.key == KEY and table.match_hands == 8
        assert f"房规:{LABEL}" in lobby.text


async def test_the_house_page_of_settings_through_the_lobby(tg: FakeTelegram,
                                                            tmp_path: Path) -> None:
    """⚙ → 🏠 房规: the opener presses 起胡10, 封顶50 and 开桌人庄 (Bob may not), each said in
    its toast, ticked, and named in the lobby once back."""
    alice, bob = tg.user("Alice", language_code="zh-hans"), tg.user("Bob")
    group = tg.group("牌友群", members=(alice, bob))
    tg.start_private(alice)
    async with running_bot(make_config(tg, tmp_path / "db.sqlite3")) as app:
        lobby = await tg.wait_reply(await tg.send_text(group, alice, "/new hunan 3"))
        assert "房规" not in lobby.text
        table = services(app).service.in_chat(group.id)

        def shown() -> list[str]:
            return [text for row in tg.message(group, lobby.message_id).keyboard
                    for text, _ in row]
        await tg.press_button(lobby, alice, "⚙ 设置")
        await tg.wait_for(lambda: "🏠 房规:无" in shown())
        assert (await tg.press_button(lobby, alice, "🏠 房规:无")).text == t("zh", "house_shown")
        await tg.wait_for(lambda: "✓ 起胡15" in shown())
        assert (await tg.press_button(lobby, bob, "起胡10")).text == \
            t("zh", "only_opener_settings")
        for word in ("起胡10", "封顶50", "开桌人庄"):
            assert (await tg.press_button(lobby, alice, word)).text == f"房规 → {word}"
            await tg.wait_for(lambda word=word: f"✓ {word}" in shown())
        assert table.rules.key == "hunan/3+起胡10+封顶50+开桌人庄"
        await tg.press_button(lobby, alice, "↩ 返回")  # back to ⚙
        await tg.wait_for(lambda: "🏠 房规:起胡10 · 封顶50 · 开桌人庄" in shown())
        await tg.press_button(lobby, alice, "↩ 返回")
        await tg.wait_for(lambda: "加电脑" in shown())
        assert "房规:起胡10 · 封顶50 · 开桌人庄" in tg.message(group, lobby.message_id).text


async def test_a_standing_table_keeps_its_house_rules_across_a_restart(
        tg: FakeTelegram, tmp_path: Path) -> None:
    """An admin's standing table with house rules: its hand is dealt and settled by them
    (the settlement names them), and after a restart the table still has them; /rules in
    the group answers them."""
    config = make_config(tg, tmp_path / "db.sqlite3", action_timeout=0.2, full_start_delay=0.0)
    olga, alice = tg.user("Olga"), tg.user("Alice")
    tg.start_private(alice)
    group = tg.group("俱乐部", members=(alice,), owner=olga)
    async with running_bot(config) as app:
        svc = services(app)
        await command(tg, group, olga, "/new qq 常驻 封顶5 起胡10", None)
        table = svc.service.in_chat(group.id)
        assert table is not None and table.standing and table.rules.key == "qq+起胡10+封顶5"
        await svc.presenter.idle()
        assert "房规:起胡10 · 封顶5" in tg.message(group, lobby_id(app, table)).text
        await tg.send_text(group, alice, "/join")
        await tg.wait_for(lambda: table.seat_of(alice.id) is not None)
        for _ in range(2):
            await tg.send_text(group, alice, "/addbot")
        await tg.wait_for(lambda: table.status == "between", timeout=60)  # Alice in 托管
        await svc.presenter.idle()
        record = table.current
        assert record.hand.rules.key == "qq+起胡10+封顶5"
        settled = tg.message(group, settlement_id(app, table, record)).caption
        assert "房规:起胡10 · 封顶5" in settled
        assert ("封顶 5:" in settled) == (record.hand.outcome.uncapped_points is not None)
    async with running_bot(config) as app:  # a restart
        svc = services(app)
        table = svc.service.in_chat(group.id)
        assert table is not None and table.rules.key == "qq+起胡10+封顶5"
        sent = await tg.send_text(group, alice, "/rules")
        doc = await tg.wait_reply(sent)
        assert "本桌房规:起胡10 · 封顶5" in doc.caption and "胡息至少 10" in doc.caption


async def test_calc_cup_and_challenge_take_house_words(tg: FakeTelegram, tmp_path: Path) -> None:
    ann, bob = (tg.user(n, language_code="zh-hans") for n in ("Ann", "Bob"))
    forum = tg.forum("杯群", members=(ann, bob))
    for user in (ann, bob):
        tg.start_private(user)
    async with running_bot(make_config(tg, tmp_path / "db.sqlite3")) as app:
        svc = services(app)
        cards = "一二三 壹贰叁 四五六 七八九 贰柒拾 十十 碰:五五五 + 拾"
        said = await tg.wait_reply(await tg.send_text(forum, ann, f"/calc {cards} 起胡18"))
        assert said.text == t("zh", "calc_short", huxi=16, need=18)
        refused = await tg.wait_reply(await tg.send_text(forum, ann, "/challenge hunan 起胡99"))
        assert refused.text == t("zh", "house_range", word="起胡99", allowed="起胡6–21")
        assert await svc.store.open_challenge(forum.id) is None
        await tg.send_text(forum, ann, "/challenge hunan 3 2局 起胡10 封顶100")
        card = await tg.wait_for(lambda: next((m for m in tg.messages(forum)
                                               if (m.text or "").startswith("⚔️")), None))
        row = await svc.store.open_challenge(forum.id)
        assert row is not None and row.rules == "hunan/3+起胡10+封顶100"
        assert "湖南跑胡子 · 3人 · 起胡10 · 封顶100" in card.text
        refused = await tg.wait_reply(await tg.send_text(forum, bob, "/cup 2局 无名堂 无红胡"))
        assert refused.text == t("zh", "house_contradicts", word="无红胡", other="无名堂")
        await tg.send_text(forum, bob, "/cup hunan 3 1轮 封顶50")
        cup = await tg.wait_for(lambda: next((m for m in tg.messages(forum)
                                              if (m.text or "").startswith("🏅")), None),
                                timeout=30)
        assert "湖南跑胡子 · 3人 · 封顶50" in cup.text


def test_every_rule_set_offers_options_with_letters() -> None:
    for rid, base in RULE_SETS.items():
        for seats in base.seat_choices:
            for option in house_options(table_rules(rid, seats)):
                assert option.name in house.LETTERS
