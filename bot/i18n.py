"""Every user-facing text, one catalog per language (Chinese first, game terms in Chinese).

``t(lang, key, **fields)`` formats an entry; a missing English entry falls back to Chinese.
Private chats follow the user's Telegram ``language_code`` (:func:`lang_of`); groups use the
chat's setting.
"""

from __future__ import annotations

ZH: dict[str, str] = {
    # commands and help
    "cmd_new": "开一桌跑胡子",
    "cmd_join": "入座",
    "cmd_leave": "离座(牌局中为逃跑)",
    "cmd_begin": "三人到齐后开局",
    "cmd_stop": "结束本桌(开桌人或管理员)",
    "cmd_help": "帮助",
    "cmd_rules": "规则简介",
    "cmd_start": "开始使用",
    "cmd_lang": "群语言:/lang zh 或 /lang en(管理员)",
    "help": (
        "跑胡子机器人 · 三人一桌\n"
        "/new 开桌 · /join 入座 · /leave 离座 · /begin 开局 · /stop 结束本桌\n"
        "/rules 规则简介 · /lang en 切换群语言\n"
        "手牌和操作按钮在各自与机器人的私聊里;群里只显示牌桌。\n"
        "第一次玩的人请先私聊机器人并按「开始」(Start),否则机器人无法给你发牌。"
    ),
    "rules": (
        "跑胡子(qq 规则):80 张字牌,小字一至十、大字壹至拾各四张。\n"
        "庄家 21 张(最后一张为亮张),闲家各 20 张,余下 19 张为墩。\n"
        "吃、碰、偎、提、跑组成门子;凑满 7 方门子且胡息 ≥ 15 即可胡牌。\n"
        "胡 > 跑 > 碰 > 吃;过牌会「臭」;出的牌不能被胡。\n"
        "结算:底数 x = (胡息 − 12) ÷ 3 取整,自摸加 1;番数为名堂之和;"
        "赢家 +2·x·番·底分,两家各 −x·番·底分。\n"
        "超时不操作由机器人托管;牌局中离座算逃跑,要赔分。"
    ),
    "start_private": (
        "你好,{name}!我是跑胡子机器人。\n"
        "把我拉进一个群,在群里发 /new 开桌,三人 /join 入座后 /begin 开局。\n"
        "开局后你的手牌和操作按钮会出现在这里。"
    ),
    "dm_ready": "✅ 已连上,开局后手牌会发到这里。",
    # lobby
    "lobby": (
        "🀄 跑胡子 · 第 {table} 桌\n"
        "开桌:{opener}\n"
        "座位:\n{seats}\n\n"
        "按「加入」入座,三人到齐按「开始」。\n"
        "第一次玩?先点「私聊入座」并在私聊里按「开始」(Start),才能收到手牌。"
    ),
    "seat_line": "{n}. {name}",
    "seat_empty": "{n}. (空)",
    "btn_join": "加入",
    "btn_leave": "离开",
    "btn_begin": "开始",
    "btn_deeplink": "私聊入座",
    "btn_again": "再来一局",
    "btn_takeback": "取消托管",
    # toasts and replies
    "joined": "{name} 已入座。",
    "joined_dm": "✅ 你已入座「{chat}」的第 {table} 桌,开局后手牌会发到这里。",
    "left": "{name} 已离座。",
    "need_dm": "请先私聊机器人并按「开始」(Start),再入座:{link}",
    "need_dm_toast": "请先点「私聊入座」,在私聊里按「开始」。",
    "table_exists": "本群已有一桌,请用 /join 入座。",
    "no_table": "本群还没有牌桌,请用 /new 开桌。",
    "table_full": "座位已满。",
    "already_seated": "你已经在座了。",
    "seated_elsewhere": "你已在另一桌入座,请先离开那一桌。",
    "not_seated": "你不在这一桌。",
    "need_three": "要三人入座才能开局。",
    "in_play": "牌局进行中。",
    "not_your_turn": "现在不是你操作。",
    "stale": "这个按钮已过期,请用最新的按钮。",
    "only_opener": "只有开桌人或群管理员可以结束本桌。",
    "group_only": "请在群里使用这个命令。",
    "stopped": "本桌已结束。",
    "ok": "好的",
    "ready": "已准备",
    "autoplay_off": "已取消托管,请自己操作。",
    "unknown_table": "这一桌已经不在了。",
    "unknown_command": "没有这个命令。发 /help 看看怎么玩。",
    "lang_set": "本群语言已设为中文。",
    "lang_usage": "用法:/lang zh 或 /lang en(仅管理员)。",
    "only_admin": "只有群管理员可以修改群设置。",
    # hand DM
    "dm_caption": "第 {table} 桌 · 第 {hand} 局 · 胡息 {huxi}",
    "dm_turn_discard": "请出牌",
    "dm_turn_claim": "请选择",
    "dm_wait": "等待其他玩家",
    "dm_autoplay": "🤖 托管中",
    "dm_over": "本局结束",
    "ping": "⏰ 轮到你了(第 {table} 桌)",
    # group table
    "table_caption": "第 {hand} 局 · 庄家 {dealer} · 墩 {stock}",
    "waiting_for": "等待:{names}",
    # settlement
    "settle_win": "🏆 {winner} 胡牌!胡息 {huxi} · 底 {di} · 番 {fan}",
    "settle_mingtang": "名堂:{items}",
    "settle_plain": "平胡",
    "flag_zimo": "自摸",
    "flag_haidi": "海底胡",
    "flag_tianhu": "天胡",
    "settle_draw": "荒庄,本局不计分。",
    "settle_escape": "🏃 {name} 逃跑,赔每家 {points} 分。",
    "settle_points": "{name}: {points:+d}(累计 {total:+d})",
    "settle_ready": "准备:{names}",
    "settle_next": "按「再来一局」继续,三人都准备后自动开局。",
    # events in the move log
    "ev_deal": "发牌",
    "ev_pass": "过",
    "ev_to_row": "弃",
    "ev_liang": "亮张",
    "ev_tianhu": "天胡",
    "ev_ti": "提",
    "ev_wei": "偎",
    "ev_chouwei": "臭偎",
    "ev_draw": "摸",
    "ev_discard": "出",
    "ev_chi": "吃",
    "ev_peng": "碰",
    "ev_pao": "跑",
    "ev_hu": "胡",
    "ev_huangzhuang": "荒庄",
    "ev_escape": "逃跑",
}

EN: dict[str, str] = {
    "cmd_new": "open a 跑胡子 table",
    "cmd_join": "take a seat",
    "cmd_leave": "leave (逃跑 during a hand)",
    "cmd_begin": "start when three are seated",
    "cmd_stop": "close the table (opener or admin)",
    "cmd_help": "help",
    "cmd_rules": "the rules in short",
    "cmd_start": "start",
    "cmd_lang": "group language: /lang zh or /lang en (admins)",
    "help": (
        "跑胡子 bot · three players a table\n"
        "/new open · /join sit · /leave leave · /begin start · /stop close the table\n"
        "/rules the rules in short · /lang zh switches the group's language\n"
        "Your cards and buttons come in your private chat with the bot; the group sees the table.\n"
        "First time? Open a private chat with the bot and press Start, or it cannot deal to you."
    ),
    "rules": (
        "跑胡子 (rule set qq): 80 cards, small 一..十 and big 壹..拾, four of each.\n"
        "The dealer gets 21 (the last is the 亮张), the others 20; 19 form the stock.\n"
        "吃 碰 偎 提 跑 make melds; 7 melds with 胡息 ≥ 15 win.\n"
        "胡 > 跑 > 碰 > 吃; passing makes a card 臭; a discard can never be won on.\n"
        "Settlement: x = (胡息 − 12) ÷ 3 rounded down, +1 for 自摸; 番 = sum of 名堂; "
        "winner +2·x·番·base, each loser −x·番·base.\n"
        "If you do not act in time the bot plays for you (托管); leaving mid-hand is 逃跑 and costs points."
    ),
    "start_private": (
        "Hello, {name}! I deal 跑胡子.\n"
        "Add me to a group, send /new there, three players /join, then /begin.\n"
        "Once a hand starts, your cards and buttons appear here."
    ),
    "dm_ready": "✅ Connected: your cards will come here when a hand starts.",
    "lobby": (
        "🀄 跑胡子 · table {table}\n"
        "Opened by {opener}\n"
        "Seats:\n{seats}\n\n"
        "Press Join to sit; Start when three are seated.\n"
        "First time? Press “Open bot”, then Start in the private chat, to receive your cards."
    ),
    "seat_line": "{n}. {name}",
    "seat_empty": "{n}. (empty)",
    "btn_join": "加入 Join",
    "btn_leave": "离开 Leave",
    "btn_begin": "开始 Start",
    "btn_deeplink": "Open bot",
    "btn_again": "再来一局 Again",
    "btn_takeback": "取消托管 Take back",
    "joined": "{name} sat down.",
    "joined_dm": "✅ You are seated at table {table} in “{chat}”; your cards come here.",
    "left": "{name} left.",
    "need_dm": "Please open a private chat with the bot and press Start first: {link}",
    "need_dm_toast": "Press “Open bot” and then Start in the private chat first.",
    "table_exists": "This group already has a table: use /join.",
    "no_table": "No table here yet: use /new.",
    "table_full": "The table is full.",
    "already_seated": "You are already seated.",
    "seated_elsewhere": "You are seated at another table: leave it first.",
    "not_seated": "You are not at this table.",
    "need_three": "Three seated players are needed to start.",
    "in_play": "A hand is being played.",
    "not_your_turn": "It is not your decision now.",
    "stale": "This button is out of date: use the latest one.",
    "only_opener": "Only the opener or a group admin can close the table.",
    "group_only": "Please use this command in a group.",
    "stopped": "The table is closed.",
    "ok": "OK",
    "ready": "Ready",
    "autoplay_off": "托管 is off: you play again.",
    "unknown_table": "That table is gone.",
    "unknown_command": "I do not know that. Send /help to see how to play.",
    "lang_set": "This group's language is now English.",
    "lang_usage": "Usage: /lang zh or /lang en (admins only).",
    "only_admin": "Only group admins can change the group's settings.",
    "dm_caption": "Table {table} · hand {hand} · 胡息 {huxi}",
    "dm_turn_discard": "Your discard",
    "dm_turn_claim": "Your choice",
    "dm_wait": "Waiting for the others",
    "dm_autoplay": "🤖 托管 (the bot plays for you)",
    "dm_over": "Hand over",
    "ping": "⏰ Your turn (table {table})",
    "table_caption": "Hand {hand} · dealer {dealer} · stock {stock}",
    "waiting_for": "Waiting for: {names}",
    "settle_win": "🏆 {winner} wins! 胡息 {huxi} · 底 {di} · 番 {fan}",
    "settle_mingtang": "名堂: {items}",
    "settle_plain": "平胡",
    "settle_draw": "荒庄: nobody scores.",
    "settle_escape": "🏃 {name} left (逃跑) and pays {points} to each player.",
    "settle_points": "{name}: {points:+d} (total {total:+d})",
    "settle_ready": "Ready: {names}",
    "settle_next": "Press Again to play on; the next hand starts when all three are ready.",
}

CATALOGS: dict[str, dict[str, str]] = {"zh": ZH, "en": EN}


def t(lang: str, key: str, **fields: object) -> str:
    """The text ``key`` in ``lang`` (Chinese when missing), formatted with ``fields``."""
    text = CATALOGS.get(lang, ZH).get(key) or ZH[key]
    return text.format(**fields) if fields else text


def lang_of(language_code: str | None, default: str) -> str:
    """A Telegram ``language_code`` mapped to a catalog: zh* → zh, any other → en."""
    if not language_code:
        return default
    return "zh" if language_code.lower().startswith("zh") else "en"
