"""Every user-visible string of the images, one small table per language.

Game terms (胡息, 坎, 庄, 名堂 …) stay Chinese in both languages. ``scripts/make_font.py`` reads
these tables to decide which characters the bundled font subset must hold.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

LANGS = ("zh", "en")

ZH: Mapping[str, str] = {
    "my_huxi": "我的胡息 {n}",
    "shown_huxi": "明胡息 {n}",
    "your_turn": "轮到你了",
    "in_trustee": "托管中",
    "waiting": "等待表态",
    "trustee": "托管",
    "robot": "电脑",
    "next_seat": "下家",
    "prev_seat": "上家",
    "across_seat": "对家",
    "ting_now": "听：",
    "ting_after": "打{card} 听",
    "to_act": "轮到：{names}",
    "name_sep": "、",
    "no_melds": "暂无门子",
    "hidden": "暗",
    "kan": "坎",
    "chou": "臭牌",
    "offer": "待定牌",
    "just_drawn": "刚摸到",
    "how_liang": "{name} 亮张",
    "how_draw": "{name} 摸出",
    "how_discard": "{name} 打出",
    "stock": "剩余 {n} 张",
    "hand_count": "手牌 {n} 张",
    "dealer": "庄",
    "turn": "轮到",
    "liang": "亮张",
    "discards": "出牌",
    "last": "上一步：{desc}",
    "ev_deal": "{name} 发牌",
    "ev_liang": "{name} 亮张 {cards}",
    "ev_tianhu": "{name} 天胡",
    "ev_ti": "{name} 提 {cards}",
    "ev_wei": "{name} 偎",
    "ev_chouwei": "{name} 臭偎 {cards}",
    "ev_draw": "{name} 摸出 {cards}",
    "ev_discard": "{name} 打出 {cards}",
    "ev_chi": "{name} 吃 {cards}",
    "ev_peng": "{name} 碰 {cards}",
    "ev_pao": "{name} 跑 {cards}",
    "ev_pass": "{name} 过",
    "ev_hu": "{name} 胡",
    "ev_to_row": "{cards} 无人要，入 {name} 出牌区",
    "ev_huangzhuang": "荒庄",
    "ev_escape": "{name} 逃跑",
    "win_title": "胡牌：{name}",
    "draw_title": "荒庄",
    "draw_note": "牌墩摸完，无人胡牌，本局不计分",
    "escape_title": "逃跑：{name}",
    "escape_note": "逃跑者输掉本局，赔给另外两家各 {p} 分",
    "group_huxi": "{n} 胡息",
    "total_huxi": "胡息合计 {n}",
    "di": "底 {n}",
    "fan_item": "{name} {n}番",
    "plain_win": "平胡 1番",
    "fan_total": "番 {n}",
    "formula": "底 {x} × 番 {f} × 底分 {d}",
    "zimo": "自摸",
    "haidi": "海底",
    "tianhu": "天胡",
    # Rule sets, 醒家 and 打鸟 (docs/rules/hunan.md, four14.md): the rules label, hunan's 囤 × 名堂, four14's 点炮.
    "rules_qq": "QQ跑胡子",
    "rules_hunan": "湖南跑胡子",
    "rules_four14": "六胡抢",
    "rules_seats": "{n}人",
    "rules_min21": "21胡起胡",
    "rules_setaside": "去20张",
    "rules_sep": " · ",
    "xing": "醒家",
    "xing_note": "本局休息，收醒筹",
    "xing_chips": "醒筹",
    "birds_part": "含鸟 {p}",
    "tun": "{n}囤",
    "tun_zimo": "含自摸 +{n}囤",
    "mult_item": "{name} ×{n}",
    "plain_mult": "平胡 ×1",
    "mult_total": "名堂 ×{n}",
    "formula_tun": "{x}囤 × {f} × 底分 {d}",
    "each_pays": "= 每家输 {p}",
    "capped": "{word}：每家输 {was} → {p}",
    "draw_note_xing": "荒庄：庄家赔醒家醒筹 {p} 分",
    "escape_note_one": "逃跑者输掉本局，赔给对家 {p} 分",
    "escape_note_many": "逃跑者输掉本局，赔给其余{n}家各 {p} 分",
    # 解散: a hand ended by the seats' vote (the Bold subset lacks 解散 itself)
    "dissolved_title": "本局不计分",
    "dissolved_note": "各家通过，本局无输赢",
    "ev_dissolve": "{name} 提出，各家通过",
    "birds_title": "打鸟（押注：跟随鸟牌所指座位输赢）",
    "bird_card": "鸟牌",
    "bird_follows": "→ {role} {name}",
    "dealer_seat": "庄家",
    "dihu": "地胡",
    "fed_by": "点炮",
    "col_seat": "玩家",
    "col_hand": "本局",
    "col_total": "累计",
    "winner": "胡",
    "escaper": "逃",
}

EN: Mapping[str, str] = {
    "my_huxi": "My 胡息 {n}",
    "shown_huxi": "Shown 胡息 {n}",
    "your_turn": "Your turn",
    "in_trustee": "托管中 (auto-play)",
    "waiting": "Waiting for answers",
    "trustee": "托管",
    "robot": "Bot",
    "next_seat": "下家",
    "prev_seat": "上家",
    "across_seat": "对家",
    "ting_now": "听: ",
    "ting_after": "打 {card} → 听",
    "to_act": "To act: {names}",
    "name_sep": ", ",
    "no_melds": "No melds yet",
    "hidden": "暗",
    "kan": "坎",
    "chou": "臭 barred",
    "offer": "On offer",
    "just_drawn": "Just drawn",
    "how_liang": "{name} 亮张",
    "how_draw": "{name} drew",
    "how_discard": "{name} discarded",
    "stock": "Stock {n}",
    "hand_count": "{n} in hand",
    "dealer": "庄",
    "turn": "Turn",
    "liang": "亮张",
    "discards": "Discards",
    "last": "Last: {desc}",
    "ev_deal": "{name} deals",
    "ev_liang": "{name} 亮张 {cards}",
    "ev_tianhu": "{name} 天胡",
    "ev_ti": "{name} 提 {cards}",
    "ev_wei": "{name} 偎",
    "ev_chouwei": "{name} 臭偎 {cards}",
    "ev_draw": "{name} drew {cards}",
    "ev_discard": "{name} discarded {cards}",
    "ev_chi": "{name} 吃 {cards}",
    "ev_peng": "{name} 碰 {cards}",
    "ev_pao": "{name} 跑 {cards}",
    "ev_pass": "{name} passed",
    "ev_hu": "{name} 胡",
    "ev_to_row": "nobody took {cards}: to {name}'s discards",
    "ev_huangzhuang": "荒庄",
    "ev_escape": "{name} left (逃跑)",
    "win_title": "胡 win: {name}",
    "draw_title": "荒庄 draw",
    "draw_note": "Stock exhausted, nobody won: no points this hand",
    "escape_title": "逃跑: {name}",
    "escape_note": "The leaver loses and pays {p} to each of the others",
    "group_huxi": "{n} 胡息",
    "total_huxi": "Total 胡息 {n}",
    "di": "底 {n}",
    "fan_item": "{name} {n}番",
    "plain_win": "平胡 1番",
    "fan_total": "番 {n}",
    "formula": "底 {x} × 番 {f} × base {d}",
    "zimo": "自摸",
    "haidi": "海底",
    "tianhu": "天胡",
    # Rule sets, 醒家 and 打鸟 (docs/rules/hunan.md, four14.md): the rules label, hunan's 囤 × 名堂, four14's 点炮.
    "rules_qq": "QQ跑胡子",
    "rules_hunan": "湖南 Hunan",
    "rules_four14": "六胡抢 four14",
    "rules_seats": "{n} seats",
    "rules_min21": "21胡息 to win",
    "rules_setaside": "20 cards out",
    "rules_sep": " · ",
    "xing": "醒家",
    "xing_note": "sits out, collects 醒筹",
    "xing_chips": "醒筹",
    "birds_part": "birds {p}",
    "tun": "{n} 囤",
    "tun_zimo": "自摸 +{n} 囤 included",
    "mult_item": "{name} ×{n}",
    "plain_mult": "平胡 ×1",
    "mult_total": "名堂 ×{n}",
    "formula_tun": "{x} 囤 × {f} × base {d}",
    "each_pays": "= {p} from each loser",
    "capped": "{word}: {was} → {p}",
    "draw_note_xing": "荒庄: the dealer pays the 醒家 {p} (醒筹)",
    "escape_note_one": "The leaver loses and pays {p} to the other player",
    "escape_note_many": "The leaver loses and pays {p} to each of the other {n}",
    "dissolved_title": "Ended: no score",
    "dissolved_note": "All agreed to end it (no points)",
    "ev_dissolve": "{name} proposed it; all agreed to end",
    "birds_title": "打鸟 (side bets: win or lose with the seat the 鸟牌 names)",
    "bird_card": "鸟牌",
    "bird_follows": "→ {role} {name}",
    "dealer_seat": "庄家",
    "dihu": "地胡",
    "fed_by": "点炮 fed",
    "col_seat": "Player",
    "col_hand": "This hand",
    "col_total": "Total",
    "winner": "胡",
    "escaper": "逃",
}

TABLES: Mapping[str, Mapping[str, str]] = {"zh": ZH, "en": EN}


def table(lang: str) -> Mapping[str, str]:
    """The string table of ``lang``; unknown languages are an error, not a silent fallback."""
    return in_lang(TABLES, lang)


def in_lang(tables: Mapping[str, Mapping[str, str]], lang: str) -> Mapping[str, str]:
    """``tables[lang]``, or a ``ValueError`` naming the languages there are."""
    try:
        return tables[lang]
    except KeyError:
        raise ValueError(f"unknown language {lang!r}; known: {', '.join(LANGS)}") from None


def all_text() -> Iterable[str]:
    """Every template of every language (placeholders included, which are ASCII anyway)."""
    for strings in TABLES.values():
        yield from strings.values()


# ----- The leaderboard, the player card and the replay step -------------------------------
# Their own tables, kept apart from ``TABLES`` so that the Bold subset needs no rebuild: these
# pictures draw their fixed words with the Regular font, which holds the common hanzi
# (tests/test_render_leaderboard.py checks the coverage). Game terms stay Chinese.

PAGES_ZH: Mapping[str, str] = {
    "col_rank": "名次",
    "col_player": "玩家",
    "col_level": "等级",
    "col_points": "积分",
    "col_hands": "局数",
    "col_rate": "胜率",
    "col_recent": "近20局",
    "board_empty": "还没有人打完一局，快来开一桌",
    "card_level": "等级",
    "card_next": "距 {title} 还差 {n} 分",
    "card_top": "已是最高等级",
    "card_chart": "积分走势",
    "card_chart_n": "积分走势（{n} 局）",
    "card_no_chart": "打完一局后显示积分走势",
    "card_hands": "局数",
    "card_wins": "胜局",
    "card_rate": "胜率",
    "card_zimo": "自摸",
    "card_best": "最大胡息",
    "card_mingtang": "最常名堂",
    "card_mingtang_n": "{name} ×{n}",
    "card_none": "无",
    "replay_step": "第 {k}/{n} 步",
    "replay_start": "发牌后",
    "replay_hand": "手牌",
    "replay_melds": "门子",
    "replay_xing": "醒家",
    "col_top": "大赢家",
    "col_huxi": "最大胡",
    "col_zimo": "自摸",
    "stats_empty": "这段时间还没有打完的牌局",
    "stats_more": "还有 {n} 人，见文字",
}

PAGES_EN: Mapping[str, str] = {
    "col_rank": "#",
    "col_player": "Player",
    "col_level": "等级",
    "col_points": "Points",
    "col_hands": "Hands",
    "col_rate": "Win %",
    "col_recent": "Last 20",
    "board_empty": "Nobody has finished a hand yet: open a table",
    "card_level": "等级",
    "card_next": "{n} points to {title}",
    "card_top": "Highest 等级 reached",
    "card_chart": "Points over time",
    "card_chart_n": "Points over time · hands: {n}",
    "card_no_chart": "The chart appears after a first hand",
    "card_hands": "Hands",
    "card_wins": "Wins",
    "card_rate": "Win rate",
    "card_zimo": "自摸",
    "card_best": "Best 胡息",
    "card_mingtang": "Top 名堂",
    "card_mingtang_n": "{name} ×{n}",
    "card_none": "none",
    "replay_step": "Step {k}/{n}",
    "replay_start": "After the deal",
    "replay_hand": "Hand",
    "replay_melds": "Melds",
    "replay_xing": "醒家",
    "col_top": "大赢家",
    "col_huxi": "Best 胡",
    "col_zimo": "自摸",
    "stats_empty": "No finished hands in this span yet",
    "stats_more": "{n} more in the text",
}

# The 等级 titles in English, shown beside the Chinese one (in pictures and in the bot's texts).
TITLE_EN: Mapping[str, str] = {
    "帝王": "Emperor", "丞相": "Chancellor", "巡抚": "Provincial governor", "总督": "Viceroy",
    "知府": "Prefect", "通判": "Vice-prefect", "知县": "County magistrate",
    "大地主": "Great landlord", "小地主": "Small landlord", "大财主": "Rich man",
    "小财主": "Well-off man", "衙役": "Yamen runner", "商人": "Merchant", "掌柜": "Shopkeeper",
    "富农": "Rich peasant", "中农": "Middle peasant", "猎人": "Hunter", "渔夫": "Fisherman",
    "贫农": "Poor peasant", "佃户": "Tenant farmer", "长工": "Farmhand", "短工": "Day labourer",
    "包身工": "Bonded labourer",
}

PAGES: Mapping[str, Mapping[str, str]] = {"zh": PAGES_ZH, "en": PAGES_EN}


def pages(lang: str) -> Mapping[str, str]:
    """The leaderboard / player card / replay strings of ``lang`` (an error if unknown)."""
    return in_lang(PAGES, lang)


def title_label(title: str, lang: str) -> str:
    """An 等级 title as shown: Chinese, with its English beside it in English."""
    return f"{title} {TITLE_EN[title]}" if lang == "en" else title


# ----- The 总结算 picture of a match (render/match.py) ------------------------------------
# Drawn with the Regular font, like the pages above; game terms stay Chinese.

MATCH_ZH: Mapping[str, str] = {
    "title": "总结算 · {k}/{n} 局",
    "hand": "第 {k} 局",
    "total": "总分",
    "wins": "胡牌局数",
    "zimo": "自摸",
    "champion": "冠军",
    "left": "离开",
    "escaped": "逃跑",
    "win_mark": "胡",
    "zimo_mark": "自摸",
    "escape_mark": "逃",
    "best": "最大胡 · 第 {k} 局 · {huxi} 胡息 · 名堂: {mingtang}",
    "best_none": "本场无人胡牌",
    "plain": "平胡",
    "none": "本场未打完一局",
}

MATCH_EN: Mapping[str, str] = {
    "title": "总结算 · final · hands {k}/{n}",
    "hand": "Hand {k}",
    "total": "Total",
    "wins": "Won",
    "zimo": "自摸",
    "champion": "Winner",
    "left": "left",
    "escaped": "逃跑 left",
    "win_mark": "胡",
    "zimo_mark": "自摸",
    "escape_mark": "逃",
    "best": "Biggest 胡 · hand {k} · {huxi} 胡息 · 名堂: {mingtang}",
    "best_none": "Nobody won a hand",
    "plain": "平胡",
    "none": "No hand finished",
}


def match_pages(lang: str) -> Mapping[str, str]:
    """The 总结算 strings of ``lang`` (an error if unknown)."""
    return in_lang({"zh": MATCH_ZH, "en": MATCH_EN}, lang)
