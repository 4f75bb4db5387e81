"""Every user-facing text, one catalog per language (Chinese first, game terms in Chinese).

``t(lang, key, **fields)`` formats an entry; a missing English entry falls back to Chinese.
An English entry words a count with ``{n} {n:plural:hand:hands}`` (see :class:`_Formatter`).
Private chats follow the user's Telegram ``language_code`` (:func:`lang_of`); groups use the
chat's setting. Names and chat titles go into text through :func:`isolate`.
"""

from __future__ import annotations

import string
import unicodedata

from engine.rules import QQ, RULE_SETS
from render.strings import TITLE_EN, title_label

# Move-log words are game terms: Chinese in both languages.
EVENT_NAMES: dict[str, str] = {
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

ZH: dict[str, str] = {
    # commands and help
    "cmd_new": "开一桌跑胡子",
    "cmd_join": "入座",
    "cmd_leave": "离座(牌局中为逃跑)",
    "cmd_begin": "座位坐满后开局",
    "cmd_stop": "结束本桌(开桌人或管理员)",
    "cmd_help": "帮助",
    "cmd_rules": "规则简介",
    "cmd_start": "开始使用",
    "cmd_lang": "语言:/lang zh 或 /lang en(私聊里设自己的,群里由管理员设本群的)",
    "cmd_rank": "排行榜(各规则分开;/rank hunan、/rank all 看总榜)",
    "cmd_me": "我的战绩",
    "cmd_history": "本群最近的牌局",
    "cmd_calc": "算胡:/calc 手牌 [+ 牌]",
    "cmd_export": "导出上一局记录(可验证)",
    "cmd_timezone": "本群时区(管理员)",
    "cmd_addbot": "加一位电脑玩家(/addbot 弱|中|强 设水平)",
    "cmd_removebot": "请走一位电脑玩家",
    "help": (
        "跑胡子机器人 · {rule_sets}\n"
        "/new 开桌(/new hunan 4:规则和人数;大厅 ⚙ 改设置)\n"
        "/join 入座 · /leave 离座 · /begin 开局 · /stop 结束本桌\n"
        "/addbot 加电脑(一人也能开一桌;/addbot 弱、中、强 设水平)· /removebot\n"
        "/dissolve 提议解散本局 · /replace 电脑接替不出手的人\n"
        "/notify 开桌时私信通知我 · /lang en 切换群语言 · /help club 俱乐部\n"
        "/rank 排行 · /me 战绩 · /history 最近牌局 · /replay 回放\n"
        "/calc 算胡,例:/calc 一二三 壹贰叁 四五六 七八九 贰柒拾 十十 碰:五五五 + 拾\n"
        "六胡抢:/calc four14 一二三 壹贰叁 四五六 贰柒拾 十十 + 拾\n"
        "/export 导出上一局记录(公平性可验证)\n"
        "手牌和按钮在你和机器人的私聊里;第一次玩先私聊机器人按 Start。\n"
        "/rules 规则、计分和细节\n"
        "局数:/new 8局(或 4局、16局)打一场比赛;比赛中逃跑或 /stop 即结束比赛。"
    ),
    "start_private": (
        "你好,{name}!我是跑胡子机器人。\n"
        "把我拉进一个群,在群里发 /new 开桌,大家按「加入」入座(或「加电脑」);"
        "人齐了自动开局,也可以按「开局」立即开始。\n"
        "开局后你的手牌和操作按钮会出现在这里。"
    ),
    "dm_ready": "✅ 已连上,开局后手牌会发到这里。",
    # lobby
    "lobby": (
        "🀄 跑胡子 · 第 {table} 桌\n"
        "开桌人:{opener}(可 /stop 结束本桌)\n"
        "{rules}\n"
        "座位:\n{seats}\n\n"
        "按「加入」入座,{n}人到齐按「开局」。\n"
        "第一次玩?先点「私聊入座」,在私聊里按 Telegram 的 Start 按钮,才能收到手牌。"
    ),
    "seat_line": "{n}. {name}",
    "seat_empty": "{n}. (空)",
    "btn_join": "加入",
    "btn_leave": "离开",
    "btn_begin": "开局",
    "btn_deeplink": "私聊入座",
    "btn_again": "再来一局",
    "btn_takeback": "取消托管",
    "btn_addbot": "加电脑",
    "btn_hint": "💡 提示",
    # toasts and replies
    "joined": "{name} 已入座。",
    "joined_dm": "✅ 你已入座「{chat}」的第 {table} 桌,开局后手牌会发到这里。",
    "left": "{name} 已离座。",
    "ready_timeout": "⌛ {names} 没有按「再来一局」,已离座。",
    "need_dm": "请先私聊机器人并按 Telegram 的 Start 按钮,再入座:{link}",
    "need_dm_toast": "请先点「私聊入座」,在私聊里按 Start。",
    "table_exists": "这里已有一桌(论坛里每个话题可各开一桌),请用 /join 入座。",
    "no_table": "这里还没有牌桌,请用 /new 开桌。",
    "table_full": "座位已满。",
    "already_seated": "你已经在座了。",
    "seated_elsewhere": "你已在另一桌入座,请先离开那一桌。",
    "served_elsewhere": "这里的牌桌是另一个机器人开的,请用它的命令。",
    "not_seated": "你不在这一桌。",
    "in_play": "牌局进行中。",
    "not_your_turn": "现在不是你操作。",
    "stale": "这个按钮已过时,请用最新的按钮。",
    "store_failed": "保存失败,这一步没有算数,请再按一次。",
    "press_failed": "抱歉,暂时没能保存,这次操作没有算数,请稍后再按一次。",
    "command_failed": "抱歉,暂时没能保存,这条命令没有生效,请稍后再发一次。",
    "only_opener": "只有开桌人或群管理员可以结束本桌。",
    "group_only": "请在群里使用这个命令。",
    "stopped": "本桌已结束。",
    "ok": "好的",
    "ready": "已准备",
    "played": "✓ {move}",
    "autoplay_off": "已取消托管,请自己操作。",
    "no_robot": "桌上没有电脑玩家。",
    "hint": "💡 {reason}",
    "unknown_table": "这一桌已经不在了。",
    "unknown_command": "没有这个命令。发 /help 看看怎么玩。",
    "private_hint": "这里是你的手牌和按钮出现的地方。打牌请在群里发 /new 开桌;命令见 /help。",
    "lang_set": "本群语言已设为中文。",
    "lang_usage": "用法:/lang zh 或 /lang en(仅管理员)。",
    "only_admin": "只有群管理员可以修改群设置。",
    "timezone_now": "本群时区:{zone}。管理员可用 /timezone 时区名 修改,例如 {examples}。",
    "timezone_bad": "没有这个时区。请用 IANA 时区名,例如 {examples}。",
    "timezone_set": "本群时区已设为 {zone},现在是 {now}。挑战的截止时间按这个时区显示。",
    # hand DM
    "dm_caption": "第 {table} 桌 · 第 {hand} 局 · 胡息 {huxi}",
    "dm_turn_discard": "请出牌",
    "dm_turn_claim": "请选择",
    "dm_wait": "等待其他玩家",
    "dm_autoplay": "🤖 托管中",
    "dm_over": "本局结束",
    # computer players
    "robot_name": "电脑·{name}",
    "robot_names": "小明 小红 阿强 阿珍 老王 大宝",
    "ping": "⏰ 轮到你了(第 {table} 桌)",
    # group table
    "table_caption": "第 {table} 桌 · 第 {hand} 局 · 庄家 {dealer} · 墩 {stock}",
    # settlement
    "settle_win": "🏆 {winner} 胡牌!胡息 {huxi} · 底 {di} · 番 {fan}",
    "settle_mingtang": "名堂:{items}",
    "settle_plain": "平胡",
    "flag_zimo": "自摸",
    "flag_haidi": "海底胡",
    "flag_tianhu": "天胡",
    "settle_draw": "荒庄,本局不计分。",
    "settle_escape": "🏃 {name} 逃跑,赔每家 {points} 分。",
    "settle_points": "{name}: {points}",
    "settle_ready": "准备:{names}",
    "settle_next": "按「再来一局」继续,全桌都准备后自动开局。",
    "mingtang_item": "{name}{fan}番",
    "name_sep": "、",
    # provably fair deals
    "table_seal": "🔒 {fp}",
    "export_caption": (
        "第 {no} 局的完整记录\n种子 {seed}\nSHA-256 {sha}\n"
        "开局时公布的 🔒 是这个 SHA-256 的前 8 位。验证:python -m engine verify {file}"
    ),
    "export_none": "本群还没有打完的牌局可以导出。",
    "export_usage": "用法:/export 导出上一局的记录;/export 挑战 N 导出已结束的复式挑战 #N。",
    "export_challenge_none": "本群没有复式挑战 #{id}。",
    "export_challenge_open": "复式挑战 #{id} 还没结束:种子要到结束时才公布,结束后再导出。",
    "export_challenge_caption": (
        "⚔️ 复式挑战 #{id} 的完整记录:{players} 人,每人 {hands} 局\n种子 {seeds}\n"
        "SHA-256 {sha}(开赛时卡片上公布的就是它)\n"
        "验证:python -m engine verify {file}(核对种子、每一局、每位玩家的得分和电脑的每一步)"
    ),
    # leaderboards
    "rank_group": "🏅 本群排行榜 · {rules}(前 {n} 名)",
    "rank_global": "🏅 总排行榜 · {rules}(前 {n} 名)",
    "rank_line": "{pos}. {name} · {points} 分 · {title} · {hands} 局 {wins} 胜",
    "rank_empty": "{rules}:还没有打完的牌局。",
    "me_head": "📇 {name}",
    "me_total": "总计:{points} 分 · {hands} 局 · {wins} 胜 · 胜率 {rate}",
    "me_chat": "本群:{points} 分 · {hands} 局 · {wins} 胜 · 胜率 {rate}",
    "me_best": "最佳一手:+{points} 分 · 胡息 {huxi} · 番 {fan} · {items}(#{id})",
    "me_no_best": "最佳一手:还没有胡过牌。",
    # the skill measures (bot.commands.skill, docs/club_scores.md)
    "me_skill": "{rules} 技术评级 {rating}({n} 场;电脑 {computers})",
    "me_skill_none": "{rules} 技术评级:还没有(打完一场后才有;电脑 {computers})",
    "card_skill": "技术评级 · {n} 场 · 电脑 {computers}",
    "card_skill_none": "技术评级:打完一场后才有 · 电脑 {computers}",
    "skill_rank_group": "技术评级 · {rules} · 本群前 {n}",
    "skill_rank_global": "技术评级 · {rules} · 所有群前 {n}",
    "skill_rank_empty": "{rules} 还没有人有技术评级:打完一场(单局一局,或多局的一整场)后才有。",
    "skill_rank_line": "{pos}. {name} {rating}({note})",
    "skill_rank_foot": (
        "竖线是电脑的评级:{computers};细线指向场数够多时大约的评级。评级只看每场的名次和对手多强,"
        "按 μ−3σ 换算,场数越多越准;它不是积分,不能换任何东西。"
    ),
    "skill_matches": "{n} 场",
    "skill_head_player": "玩家 · 场数",
    "skill_head_rating": "评级",
    "tech_title": "技术分 · {season} · {rules}",
    "tech_empty": "本赛季还没有复盘过的牌局。",
    "tech_line": "{pos}. {name} {score}(每步平均少 {loss} 分;复盘 {hands} 局 {decisions} 步)",
    "tech_more": "……还有 {n} 人",
    "tech_foot": (
        "技术分是赛季里每一步跟强电脑比平均少得的分换算的(100 = 跟强电脑一样),"
        "牌运好坏不影响它;弱电脑约 {weak},中电脑约 {medium}。它不是积分,不能换任何东西。"
    ),
    "tech_note": "复盘 {hands} 局 · 每步少 {loss}",
    "tech_head_player": "玩家 · 复盘",
    "tech_head_score": "技术分",
    "history_title": "📜 本群最近 {n} 局 · 回放:/replay 编号",
    "history_win": "{head} 🏆 {winner} 胡 · 胡息 {huxi} · {points}",
    "history_draw": "{head} 荒庄",
    "history_escape": "{head} 🏃 {name} 逃跑 · {points}",
    "history_empty": "本群还没有打完的牌局。",
    "history_hand": "#{no} 第 {table} 桌第 {hand} 局",
    # rule sets apart: names, /rank's choice, /me per rule set, /rules, 打鸟
    "rank_birds": " · 🐦 {birds} 鸟",
    "rank_usage": "用法:/rank [{choices}] [all] [技术](all 为所有群的总榜;技术 为技术评级榜)。各规则分开计分。",
    "me_rules": "【{rules}】等级 {title}",
    "me_birds": "打鸟 {birds} 次(分数已计入)",
    "rules_head": "📖 {rules} · {seats} 人一桌",
    "rules_win": "胡牌:凑满 {groups} 方门子,胡息至少 {min}。",
    "rules_draw_win": "只能胡摸到的牌,别人打出的牌不能胡。",
    "rules_discard_win": "别人打出的牌也能胡(摸牌的人优先,再按下家顺序)。",
    "rules_points": (
        "计分:底数 x = ⌊(胡息 − {offset}) ÷ {divisor}⌋{plus},自摸 {zimo};"
        "每位输家付 x × 番 × 底分。"
    ),
    "rules_fan_add": "名堂:各名堂的番相加。",
    "rules_fan_multiply": "名堂:各名堂的倍数相乘(×2、×3……)。",
    "rules_xing": "醒家:庄家对面的人本局不打牌,向每位输家收醒筹(荒庄时向庄家收)。",
    "rules_birds": "打鸟:没入座的人可在开局前押一只鸟,最后一张墩牌指定它跟哪一家,与那家同输赢。",
    "rules_two_min21": "两人一桌:胡息至少 21。",
    "rules_two_setaside": "两人一桌:抽出 20 张牌不用。",
    "rules_page": "完整规则见附件。超时由机器人托管;牌局中离座算逃跑,要赔分。",
    "rules_no_page": "完整规则页还没有写好。",
    "rules_usage": "用法:/rules [{choices}] [人数] [min21|setaside]",
    "calc_losers_1": "输家",
    "calc_losers_2": "两家",
    "calc_losers_3": "三家",
    "btn_bird": "🐦 打鸟(押末张牌指定的一家)",
    "bird_placed": "🐦 已打鸟:下一局跟最后一张墩牌指定的那一家同输赢。再按一次撤回。",
    "bird_withdrawn": "已撤回你的鸟。",
    "bird_seated": "你已入座,不能打鸟:打鸟是给没入座的人的。",
    "birds_none": "🐦 打鸟(不是加注):没入座的人可押一只鸟,最后一张墩牌定它跟哪一家,同输赢。",
    "birds_waiting": "🐦 下一局的鸟:{names}",
    "birds_followed": "🐦 最后一张牌定鸟跟 {name}:",
    "birds_points": "  🐦 {name} {points}",
    # /calc
    "calc_usage": (
        "用法:/calc [{rule_ids}] 手牌 [门子] [+ 胡的那张牌] [自摸] [房规,如 起胡10](默认 {default_rules} 规则)\n"
        "例:/calc 一二三 壹贰叁 四五六 七八九 贰柒拾 十十 碰:五五五 + 拾\n"
        "门子写成 碰:五五五、跑:拾拾拾拾、吃:七八九、偎:…、提:…;也可写 x1/d1 和 peng/pao/chi/wei/ti。"
    ),
    "calc_bad_cards": "看不懂「{text}」:小字写一至十(或 x1–x10),大字写壹至拾(或 d1–d10)。",
    "calc_bad_kind": "没有「{kind}」这种门子:可以用 碰 跑 吃 偎 提 臭偎。",
    "calc_bad_meld": "「{meld}」不是一个门子:碰/偎是三张相同的牌,跑/提是四张,吃是一句话或绞。",
    "calc_one_card": "「+」后面只能写一张牌(胡的那张)。",
    "calc_too_many": "{cards} 超过四张:每种牌只有四张。",
    "calc_win": "✅ 能胡!胡息 {huxi}",
    "calc_groups": "门子:{groups}",
    "calc_score": "底 {di} · 番 {fan} · 底分 {base}:赢家 +{win},{losers}各 −{lose}",
    "calc_short": "❌ 不能胡:最多只有 {huxi} 胡息,不到 {need}。",
    "calc_no_groups": "❌ 不能胡:凑不成 {groups} 方门子(有提或跑时还要一对将)。",
    # --- presses, lobby, leaving, fairness ---
    "claim_pending": "已选 {move},等待其他玩家",
    "taken_hu": "{name} 胡 了",
    "taken_pao": "{name} 跑 了这张牌",
    "taken_peng": "{name} 碰 了这张牌",
    "taken_chi": "{name} 吃 了这张牌",
    "taken_escape": "{name} 逃跑了,本局结束",
    "need_dm_new": "请先私聊机器人并按 Telegram 的 Start 按钮,再回群里开桌(/new):{link}",
    "lobby_closed": "🀄 跑胡子 · 第 {table} 桌 · 已结束\n发 /new 再开一桌。",
    "settle_seal": "🔒 {fp} · 公平性见下",
    "settle_fairness": (
        "公平性 / Fairness\n本局种子 {seed}\nSHA-256 {sha}\n"
        "开局时公布的 🔒 是这个 SHA-256 的前 8 位;种子决定了洗牌。"
        "/export 下载本局记录,用 python -m engine verify 文件名 验证。"
    ),
    **{f"title_{title}": title_label(title, "zh") for title in TITLE_EN},
    "lobby_full": "人齐了,{seconds} 秒后开始(按「开局」立即开始)。",
    "escape_confirm": "确定逃跑?将赔每家至少 {points} 分(按其他人的全部胡息计,结算时公布)。",
    "stop_confirm": "确定结束本桌?正在打的第 {hand} 局作废,不计分。",
    "btn_confirm_e": "确认逃跑",
    "btn_confirm_s": "确认结束",
    "btn_cancel": "取消",
    "escaped": "你已逃跑。",
    "kept": "已取消,继续打牌。",
    "question_cancelled": "已取消。",
    "escape_asked": "{name}:要不要逃跑,请在你和机器人的私聊里确认。",
    "unconfirmed": "牌局进行中:请先确认。",
    "calc_count_many": "牌太多了:共 {n} 张,胡牌时手牌、门子加胡的那张应为 {expected} 张。",
    "calc_count_few": "牌太少了:共 {n} 张,胡牌时手牌、门子加胡的那张至少 {expected} 张。",
    # seat screen and clock: what a seat reads while it waits, and for how long
    "wait_discard": "等待:{name} 出牌",
    "wait_answers": "等待表态",
    "time_left": "还剩 {seconds} 秒",
    "dm_over_escape": "🏃 {name} 逃跑,本局结束",
    "trustee_note": "🤖 {name} 超时未操作,由电脑托管",
    "trustee_mark": "🤖 托管:{names}",
    # table options: the rules a table plays by, /new arguments, the lobby's ⚙
    "rs_qq": "QQ跑胡子",
    "rs_hunan": "湖南跑胡子",
    "rs_four14": "六胡抢",
    "rules_seats": "{n}人",
    "help_rule_set": "{name} {seats} 人",
    "help_rule_set_sep": ",",
    "two_min21": "21胡起胡",
    "two_setaside": "去20张",
    "timer_seconds": "{seconds}秒",
    "timer_slow": "慢速",
    "lobby_rules": "规则:{rules} · 底分 {base} · 限时 {timer}",
    "need_seats": "要 {n} 人入座才能开局。",
    "new_usage": "用法:/new [规则] [人数],例:/new hunan 4。可选:\n{choices}",
    "new_choice": "{id}({name}):{seats} 人",
    "new_seats": "{name}只有 {seats} 人桌,没有 {n} 人的。{n} 人可以玩:{others}",
    "btn_settings": "⚙ 设置",
    "btn_settings_back": "↩ 返回",
    "settings_base": "底分 {base}",
    "settings_shown": "⚙ 设置",
    "settings_hidden": "↩ 已返回",
    "option_set": "{setting} → {value}",
    "option_rules": "规则",
    "option_seats": "人数",
    "option_two_seat": "两人玩法",
    "option_base": "底分",
    "option_timer": "限时",
    "option_match": "局数",
    "option_level": "电脑",
    "only_opener_settings": "只有开桌人可以修改设置。",
    "settings_closed": "开过局后不能再改设置,请 /stop 后用 /new 重开。",
    "bad_option": "没有这个选项。",
    "too_many_seated": "已有 {seated} 人入座,不能改成 {n} 人桌;请先有人离座。",
    "xing_stays": "本局你是醒家,手里没有牌,不能逃跑;请在本局结束后再离座。",
    "xing_name": "{name}(醒家·醒筹)",
    "settle_win_tun": "🏆 {winner} 胡牌!胡息 {huxi} · {di} 囤 · 名堂 ×{fan}",
    "mingtang_times": "{name}×{fan}",
    "flag_dihu": "地胡",
    "flag_fed": "{name} 点炮",
    # /replay, /rank and /me pictures
    "cmd_replay": "回放:/replay 上一局,/replay N 第 N 局",
    "replay_caption": "🎬 第 {table} 桌第 {hand} 局回放(#{no})· 第 {step}/{total} 步",
    "replay_voided": "⚠️ 本局已被管理员作废(/void),不计分:{reason}",
    "replay_usage": "用法:/replay 回放本群上一局,/replay N 回放本群第 N 局。",
    "replay_dm_usage": "用法:/replay 回放你上一局,/replay N 回放编号 N 的牌局(编号见 /me 或导出文件名)。",
    "replay_none": "本群还没有打完的牌局可以回放。",
    "replay_unknown": "本群没有第 {no} 局。",
    "replay_running": "第 {no} 局还在进行中,打完后才能回放。",
    "replay_aborted": "第 {no} 局被中途结束(作废),没有结果,不能回放。",
    "replay_dm_none": "你还没有打完的牌局可以回放。",
    "replay_dm_unknown": "没有你打过的、编号为 {id} 的已结束牌局。",
    "replay_foreign": "这个回放不属于这里。",
    "replay_step": "第 {step}/{total} 步",
    "cmd_quiet": "不再提醒轮到你(/quiet off 恢复)",
    "quiet_on": "🔕 好的,轮到你时不再发提醒;手牌消息的倒计时和超时托管照常。/quiet off 恢复提醒。",
    "quiet_off": "🔔 已恢复:轮到你且久未操作时会提醒你。",
    "quiet_usage": "用法:/quiet 关闭轮到你的提醒,/quiet off 恢复。",
    "quiet_private": "请在和我的私聊中发送 /quiet。",
    "replay_at_last": "已是最后一步",
    "replay_at_first": "已是第一步",
    "btn_replay_dm": "在私聊中回放",
    # 复盘: one's own review of a finished hand (bot.present.reviews)
    "btn_review": "🔍 复盘",
    "review_coming": "🔍 复盘中,马上就好。",
    "review_coming_dm": "🔍 复盘马上发到你的私聊。",
    "review_busy": "🔍 这一局的复盘正在生成。",
    "review_foreign": "只能复盘你自己打过的牌局。",
    "review_title": "🔍 第 {table} 桌第 {hand} 局复盘(编号 {id})",
    "review_rating": "评分:{rating}/100(100 = 每一步都和强电脑一样好;作参考:随机乱打约 {random},电脑 弱 约 {weak}、中 约 {medium})",
    "review_unrated": "这一局没有需要你选择的时候,没有评分。",
    "review_costliest": "代价最大的几步:",
    "review_moment": "· 第 {step} 步:{played}(应{better}),约少 {loss} 分{how}{pic}",
    "review_played_out": "(推演 {worlds} 局的平均)",
    "review_played_out_one": "(推演 1 局)",
    "review_flawless": "没有一步比强者的选择差。",
    "review_pictures": "下面 {n} 张图(📷),是你当时看到的牌桌:只画少了 {costly} 分以上、放弃胡牌或拆了听的时刻,最多 {most} 张。",
    "review_step": "第 {step} 步",
    "card_name": "{name} · {rules}",
    # votes (解散, replacing an absent seat), /notify and 添加到群组
    "cmd_dissolve": "提议解散本局(其他玩家都同意则不计分)",
    "cmd_replace": "提议由电脑接替连续两局托管的玩家",
    "cmd_notify": "本群开桌或差一人时私信通知我(/notify off 取消)",
    "ev_dissolve": "解散",
    "settle_dissolved": "🤝 本局已解散,不计分。",
    "history_dissolved": "{head} 🤝 解散",
    "dm_over_dissolved": "🤝 本局已解散,不计分",
    # the private result of a hand, the 醒家's table picture, a bird's result, a /stop
    "result_head": "🀄 第 {table} 桌 · 第 {hand} 局结束",
    "result_points": "你本局 {points}",
    "result_xing": "你是本局醒家(不打牌,收醒筹):{points}",
    "xing_caption": "第 {table} 桌 · 本局你是醒家,休息一局,结算时收醒筹",
    "bird_result": "🐦 第 {table} 桌 · 第 {hand} 局:你的鸟跟 {name},{points}",
    "dm_over_voided": "⛔ 本局作废,不计分",
    "voided_dm": "⛔ {name} 用 /stop 结束了第 {table} 桌:第 {hand} 局作废,不计分。",
    "vote_what_dissolve": "解散本局",
    "vote_what_replace": "由电脑接替 {target}(已连续 {hands} 局托管)",
    "vote_what_replace_short": "由电脑接替托管的玩家",
    "vote_open_text": "🗳 {name} 提议{what}(还剩 {seconds} 秒)\n同意:{agreed}\n等待:{waiting}",
    "vote_nobody": "—",
    "btn_vote_yes": "同意",
    "btn_vote_no": "拒绝",
    "vote_passed": "✅ {what}:通过。{names} 同意。",
    "vote_refused": "❌ {what}:未通过,{name} 拒绝。",
    "vote_timed_out": "⌛ {what}:未通过,{seconds} 秒内没有全部同意。",
    "vote_overtaken": "{what}:投票结束,牌桌已有变化。",
    "vote_cancelled_restart": "⚠️ 机器人重启了,{what}的投票已取消,请重新提议。",
    "vote_busy": "这桌已有一个投票在进行,请等它结束。",
    "vote_proposed": "已在群里发起解散投票。",
    "btn_dissolve": "🤝 解散",
    "vote_no_hand": "现在没有进行中的牌局可以解散。",
    "vote_not_voter": "这个投票不需要你表态。",
    "vote_proposer": "你是提议人,请等其他人表态。",
    "vote_already": "你已经表过态了。",
    "vote_agreed": "已同意。",
    "vote_declined": "已拒绝。",
    "replace_none": "没有连续两局托管的玩家可以由电脑接替。",
    "replace_between": "只能在两局之间(结算后)提议由电脑接替。",
    "notify_on": "好的:本群开桌或牌桌差一人时我会私信你(每桌最多一次)。/notify off 取消。",
    "notify_off": "已取消本群的开桌通知。",
    "notify_need_dm": "请先私聊机器人并按 Start,我才能私信通知你:{link}",
    "notify_opened": "🀄 {chat} 开了一桌{rules}({seated}/{seats} 人)。",
    "notify_one_short": "🀄 {chat} 的{rules}牌桌还差一人({seated}/{seats})!",
    "btn_notify_join": "入座",
    "btn_add_to_group": "➕ 添加到群组",
    # matches (局数) and the 总结算
    "new_usage_match": "局数:加 4局、8局 或 16局(或直接 8、16)打一场比赛;单独的 4 是人数。",
    "match_single": "单局",
    "match_hands": "{n}局",
    "lobby_match": "局数:{label}",
    "match_hand": "第 {k}/{n} 局",
    "match_scores": "本场:{scores}",
    "match_score": "{name} {points}",
    "match_caption": "🏁 总结算 · {k}/{n} 局\n冠军:{names}({points})\n{scores}",
    "match_caption_left": "{name} 离座,比赛提前结束。",
    "match_caption_escaped": "{name} 离开(逃跑),比赛提前结束。",
    "match_caption_stopped": "比赛提前结束(/stop 或 解散)。",
    "match_over_next": "上一场比赛已结束(见总结算)。按「开局」开始新的一场;开桌人可按 ⚙ 改设置。",
    # the computer players' level (弱 / 中 / 强), per table
    "level_weak": "弱",
    "level_medium": "中",
    "level_strong": "强",
    "lobby_level": "电脑:{level}",
    "settings_level": "电脑 {level}",
    "addbot_usage": "用法:/addbot [弱|中|强],例:/addbot 中。加一位电脑,并把本桌电脑的水平设为它"
                    "(不写则不变,默认强)。",
    # the club: standing tables (常驻桌), /tables, /apart (docs/club.md)
    "cmd_tables": "本群开着的牌桌,一键入座",
    "cmd_play": "快速加入:坐到本群第一张有空位的常驻桌(/play hunan)",
    "play_usage": "用法:/play [规则] [人数] [局数],例:/play、/play hunan、/play 湖南 4人 8局。"
                  "坐到本群第一张合适的常驻桌;都满了就在新话题里开一张一样的。",
    "play_none": "本群没有合适的常驻桌。管理员可用 /new … 常驻 开一张(例:/new hunan 4 8局 常驻)。",
    "play_all_full": "合适的常驻桌都满了。满桌开新桌要在话题群(Topics)里,并让我有管理话题的权限;"
                     "或等一会儿,或用 /tables 看别的桌。",
    "play_seated": "✅ {name} 已入座第 {table} 桌({rules})。",
    "play_topic": "常驻 · {rules} · {n}",
    "cmd_apart": "管理员:让两位玩家不同桌(/apart @a @b;/apart off @a @b)",
    "cmd_club": "俱乐部设置:自动准备、每天解散次数、杯赛禁止解散(管理员修改)",
    "club_settings": "⚙ 俱乐部设置\n自动准备:{auto_ready}(常驻桌每场结束后,在座的人自动准备好下一场)\n"
                     "解散:{limit}\n杯赛禁止解散:{cup}\n"
                     "管理员修改:/club 自动准备 开 · /club 解散 3(或 不限)· /club 杯赛禁止解散 开",
    "club_on": "开",
    "club_off": "关",
    "club_no_limit": "不限次数",
    "club_limit": "每人每天最多发起 {n} 次",
    "club_usage": "用法:/club 自动准备 开|关 · /club 解散 次数|不限(每人每天,0–99)· "
                  "/club 杯赛禁止解散 开|关。只发 /club 看现在的设置。",
    "club_admin_only": "只有群管理员可以改俱乐部设置。发 /club 可以看现在的设置。",
    "dissolve_limit_reached": "今天你已经发起过 {n} 次解散了(本群每人每天最多 {n} 次),明天再来。",
    "dissolve_cup_forbidden": "本群的杯赛禁止解散(管理员的 /club 设置)。",
    "help_club": (
        "俱乐部:管理员 /new … 常驻 开常驻桌(代开,不必入座;每场结束、人走光或重启后回到大厅,"
        "规则不变,直到 /stop)· /play 快速加入常驻桌(都满了就开新桌)· /tables 看本群的牌桌并入座 · "
        "/apart @a @b 让两人不同桌 · /club 俱乐部设置(自动准备、解散次数、杯赛禁止解散)\n"
        "/season 本赛季排行(/season new 管理员开新赛季,/season 技术 技术分)· /rank 技术 技术评级 · "
        "/stats 今日战绩(week、season)· /timezone 本群时区(管理员)· "
        "/void N 理由 管理员作废一局 · /dispute N 本局玩家申诉(公平性验证和复盘)\n"
        "本机器人只记积分和排名,从不记账:没有上下分、转分、买卖积分、分成、欠账或提现。"
    ),
    "standing_admin_only": "只有群管理员可以开常驻桌(/new … 常驻)。",
    "lobby_admin": "群管理员",
    "new_usage_standing": "常驻桌(管理员):加 常驻,例:/new hunan 4 8局 常驻;单局 为一局一局地打。",
    "lobby_standing": "常驻桌(管理员代开):每场结束、人走光或重启后都回到大厅,规则不变,直到管理员 /stop。",
    "btn_ready": "准备",
    "seat_ready": "{n}. {name} ✓",
    "lobby_await_ready": "上一场结束了(见总结算)。要接着打请按「准备」:{seconds} 秒内没按的离座,"
                         "空位留给新来的人(/play 或「加入」)。人齐且都准备好就自动开局。",
    "lobby_ready_timeout": "⌛ {names} 没有按「准备」,已离座,座位空出来了。",
    "tables_none": "本群现在没有开着的牌桌。发 /new 开一桌。",
    "tables_none_private": "你玩过的群里现在没有开着的牌桌。",
    "tables_head": "本群的牌桌:",
    "tables_head_private": "你玩过的群里的牌桌:",
    "tables_group": "「{chat}」",
    "tables_line": "第 {table} 桌{where} · {rules} · {taken}/{n} 人 · {state}",
    "tables_topic": " · 话题 {topic}",
    "tables_topic_named": " · 话题「{name}」",
    "tables_waiting": "等待中",
    "tables_running": "进行中",
    "tables_standing": " · 常驻",
    "btn_tables_seat": "加入第 {table} 桌",
    "tables_usage": "用法:/tables(不带参数):在群里列出本群开着的牌桌,私聊里列出你玩过的群的牌桌。",
    "apart_usage": ("用法(管理员):/apart @甲 @乙 让两人不同桌;回复甲的消息发 /apart @乙 也行;"
                    "/apart off @甲 @乙 取消;只发 /apart 列出本群的设定。"),
    "apart_admin_only": "只有群管理员可以设定不同桌。",
    "apart_unknown": "还不认识 @{name}:他要先在群里发过一条命令(或私聊过机器人)。",
    "apart_same": "请写两位不同的玩家。",
    "apart_set": "好的:{a} 和 {b} 不会再坐到本群的同一桌。",
    "apart_already": "{a} 和 {b} 已经设为不同桌。",
    "apart_off": "好的:{a} 和 {b} 可以同桌了。",
    "apart_not_set": "{a} 和 {b} 没有设为不同桌。",
    "apart_list_head": "本群不同桌的玩家:",
    "apart_list_none": "本群没有设定不同桌的玩家。",
    "apart_pair": "{a} — {b}",
    "apart_refused": "你不能坐这一桌:群管理员设定你和 {name} 不同桌。",
    # one set of numbers: a seat's points for the hand with their parts (engine.points)
    "points_total": "{points}(累计 {total})",
    "points_parts_total": "{points}(其中 {parts};累计 {total})",
    "part_xing": "醒筹 {points}",
    "part_birds": "打鸟 {points}",
    "part_sep": " · ",
    "settle_draw_xing": "荒庄:庄家 {dealer} 付醒家 {xing} 醒筹 {points}。",
    # /lang zh|en in the private chat: the player's own language
    "lang_set_private": "你的语言已设为中文:私聊、手牌、结果和复盘都用中文(群里的语言由群管理员设)。",
    "lang_usage_private": "用法:/lang zh 或 /lang en,设置你自己的语言(私聊、结果、复盘);群的语言由群管理员在群里设。",
    # 复盘 as coaching: why a moment listed has no picture
    "review_no_pictures": "这几步都只少了不到 {costly} 分,没有配图(只画少了 {costly} 分以上、放弃胡牌或拆了听的时刻)。",
    # 验证: the fairness check of a settlement (bot.present.verify)
    "btn_verify": "🔒 验证",
    "verify_title": "🔒 公平性验证 · 第 {table} 桌第 {hand} 局(编号 {id})",
    "verify_seed_ok": "✅ 种子 {seed} 的 SHA-256 是\n{sha}\n它的前 8 位 {fp} 就是开局时公布的 🔒 {fp}:"
                      "种子在发牌前就定了,没有换过。",
    "verify_seed_bad": "❌ 种子 {seed} 的 SHA-256 是\n{sha}\n它不以开局时公布的 🔒 {fp} 开头。",
    "verify_replay_ok": "✅ 用这个种子洗牌,按记录重放 {steps} 步,结果正是本结算:",
    "verify_replay_bad": "❌ 按记录重放 {steps} 步,结果与本结算不同:",
    "verify_replay_broken": "❌ 记录的 {steps} 步无法按规则重放。",
    "verify_points": "{name} {points}",
    "verify_yourself": "自己验证:在群里 /export 下载记录(或私聊 /replay {id} 逐步看),"
                       "再用 python -m engine verify 文件名。",
    "verify_sent": "验证结果已私聊发给你。",
    "verify_unknown": "没有这一局的记录(编号 {id}),无法验证。",
    # 复式挑战: duplicate challenges (bot.table.challenges, bot.present.screens.challenge)
    "cmd_challenge": "复式挑战:大家打同样的牌比分",
    "challenge_usage": "用法:/challenge [规则] [N局] [期限],例:/challenge hunan 3 4局 2h"
                       "(默认 qq、1局、24h;局数 1–8,期限 10m 到 7d,单位 m/h/d)。"
                       "开挑战的人可用 /challenge end 提前结束。",
    "challenge_exists": "本群已有一个进行中的复式挑战,请等它结束(或开挑战的人 /challenge end)。",
    "challenge_none": "本群没有进行中的复式挑战。",
    "challenge_only_opener": "只有开挑战的人可以提前结束它。",
    "challenge_once": "每人只能打一次这个挑战。",
    "challenge_seated": "你正在一桌牌局中入座,请先离开那一桌再参加挑战。",
    "challenge_busy": "你正在打另一个复式挑战,请先打完或离开。",
    "challenge_over_for_you": "你的这次挑战已经结束。",
    "challenge_closed": "这个复式挑战已经结束。",
    "challenge_not_joined": "你还没有参加这个挑战。",
    "challenge_you": "你",
    "challenge_card_head": "⚔️ 复式挑战 #{id} · {rules} · {hands} 局",
    "challenge_card_rules": "每人在私聊里从同一座位打同样的牌,对手是出牌固定的强电脑:"
                            "同样的选择就是同样的牌局。按总分排名(同分时偏离电脑选择少者在前,再相同则并列)。",
    "challenge_card_seal": "🔒 种子的 SHA-256:{sha}",
    "challenge_card_deadline": "截止:{at}",
    "challenge_card_ended": "已结束({at} 截止)",
    "challenge_standings": "排名:",
    "challenge_nobody": "还没有人参加。按「参加」开始(每人一次)。",
    "challenge_row": "{place}. {name} {points}({played}/{hands} 局,偏离 {offs})",
    "challenge_row_playing": "{place}. {name} {points}({played}/{hands} 局,偏离 {offs},进行中)",
    "challenge_row_left": "{place}. {name} {points}({played}/{hands} 局,偏离 {offs},已离开)",
    "challenge_row_unfinished": "{place}. {name} {points}({played}/{hands} 局,偏离 {offs},未打完)",
    "btn_challenge_join": "参加",
    "btn_challenge_leave": "离开挑战",
    "challenge_joined": "挑战开始:第一局已发到你的私聊。",
    "challenge_left_toast": "已离开:你打完的局照样计分。",
    "challenge_stopped": "(停止)",
    "challenge_final_head": "🏆 复式挑战 #{id} 结束 · 冠军 {name} {points}",
    "challenge_final_nobody": "🏆 复式挑战 #{id} 结束 · 无人参加",
    "challenge_final_seeds": "种子:{seeds}\nSHA-256:{sha}(与挑战开始时公布的一致即可验证)",
    "challenge_same": "🔍 {name}:每一步都和 {best} 一样",
    "challenge_diff": "🔍 {name}:第 {deal} 局第 {n} 次决定起不同:{name} {his},{best} {theirs}",
    "btn_challenge_diff": "🔍 {name}",
    "challenge_diff_sent": "{name} 和第一名第一次不同的那一步:图已私聊发给你。",
    "challenge_diff_caption": "🔍 复式挑战 #{id} · {name} 与 {best} 第 {deal} 局第 {n} 次决定起不同:"
                              "\n{name}:{his}\n{best}:{theirs}",
    "challenge_dm_head": "复式挑战 #{id} · 第 {k}/{n} 局 · 🔒 {fp} · 胡息 {huxi}",
    "challenge_dm_points": "本局 {points} · 累计 {total}",
    "challenge_done": "复式挑战 #{id} 打完:{played}/{hands} 局共 {points} 分。排名见群里的挑战卡。",
    "challenge_left": "复式挑战 #{id}:你打完了 {played}/{hands} 局,共 {points} 分,按此计分。",
    # share cards: inline mode (bot.telegram.inline) and its deep links
    "share_me": "我的战绩(/me)",
    "share_open_me": "在机器人里看",
    "share_match": "我上一场总结算",
    "share_hand": "我上一局的回放",
    "share_hand_head": "第 {table} 桌第 {hand} 局(编号 {id})· 🔒 {fp}",
    "share_open_replay": "🔍 看回放",
    "share_challenge": "群里的复式挑战(可参加)",
    "link_unknown": "这个链接已过期或无效。发 /help 看看能做什么。",
    # club scores: /season, /stats, /void, /dispute (bot/commands/club.py, fairplay.py)
    "cmd_season": "赛季排行(/season new 开新赛季,管理员)",
    "cmd_stats": "本群战绩:/stats 今天|week|season",
    "cmd_void": "作废一局:/void 编号 理由(管理员)",
    "cmd_dispute": "申诉一局:/dispute 编号(该局玩家)",
    "season_label": "第 {no} 赛季{name}",
    "season_name": "「{name}」",
    "season_span_open": "从 #{first} 局起,进行中",
    "season_span_closed": "#{first}–#{last} 局,{at} 结束",
    "season_title": "🏆 {season} · {rules}(前 {n} 名)",
    "season_line": "{pos}. {name} · {points} 分 · {hands} 局 {wins} 胜",
    "season_empty": "本赛季还没有打完的牌局。",
    "season_closed": "🏁 {season}已结束,{next}开始(/rank 的总积分和等级不变)。",
    "season_nothing": "本赛季还没有开过一局,不必结束。",
    "season_unknown": "本群没有第 {no} 赛季(/season 看当前赛季)。",
    "season_usage": "用法:/season [赛季号] [{choices}] [技术](技术:本赛季技术分);/season new [名称]"
                    "(管理员,名称最多 {n} 字)结束本赛季并开始下一个。",
    "stats_today": "今日",
    "stats_week": "近 7 天",
    "stats_title": "📊 本群{period}战绩 · {rules}",
    "stats_line": "{pos}. {name} · {hands} 局 · {points} 分 · 大赢家 {top} · 最大胡 {huxi} · "
                  "自摸 {zimo}",
    "stats_empty": "这段时间还没有打完的牌局。",
    "stats_usage": "用法:/stats [今天|week|season] [{choices}](默认今天)。",
    "club_only_admin": "只有群管理员可以这样做。",
    "club_unknown": "本群没有编号 #{no} 的牌局(见 /history)。",
    "club_running": "#{no} 局还在进行中。",
    "club_aborted": "#{no} 局被 /stop 中止,本来就不计分。",
    "void_usage": "用法:/void 编号 理由(管理员;编号是 /history 的 #N,理由最多 200 字)。",
    "void_done": "⚠️ #{no} 局已由 {by} 作废:{reason}\n"
                 "不再计入 /rank、/season、/me 和 /stats:{points}\n记录保留,/replay {no} 仍可回放。",
    "void_already": "#{no} 局已经作废过了。",
    "history_voided": "{line}\n   ⚠️ 已作废({by}):{reason}",
    "dispute_usage": "用法:/dispute 编号(/history 的 #N;该局的玩家可以申诉)。",
    "dispute_not_seated": "只有 #{no} 局的玩家可以申诉这一局。",
    "dispute_head": "⚖️ 申诉 #{no}(第 {table} 桌第 {hand} 局)· {by} 提出",
    "dispute_seed": "开局公布 🔒 {fp}\n种子 {seed}\nSHA-256 {sha}",
    "dispute_replay": "按种子重放全部 {steps} 步,结算:{points}",
    "dispute_illegal": "按种子重放:记录中有不合规则的一步(共 {steps} 步)",
    "dispute_recorded": "记录的结算:{points}",
    "dispute_same": "✅ 重放与记录一致:发牌和结算都没有被改动。",
    "dispute_differs": "❌ 重放与记录不一致!",
    "dispute_voided": "本局已作废:{reason}",
    "dispute_decide": "请管理员裁决:/void {no} 理由 可作废本局;/replay {no} 回放。",
    "dispute_reviews": "🔍 #{no} 各家复盘",
    "dispute_seat": "{name}:评分 {rating} · 最亏一步 第 {step} 步 {played} → {better}(-{loss})"
                    " · 失误 {n} 处",
    "dispute_seat_flawless": "{name}:评分 {rating} · 没有失误",
    "dispute_seat_unrated": "{name}:没有需要选择的时刻",
    # the store unreachable (an outage): nothing moved, and it heals by itself
    "store_unavailable": "暂时无法保存,这一步没有算数;请稍候再按,牌桌会自动恢复。",
    "command_unavailable": "暂时无法保存,这条命令没有生效;请稍候再发一次。",
    # the group's settlement when 再来一局 is in each seat's private result
    "settle_next_private": "在私聊的结果里按「再来一局」继续,全桌都准备后自动开局。",
    # 群杯: group cups (bot.table.cups, bot.present.screens.cup)
    "cmd_cup": "群杯:报名、抽签、多轮瑞士制",
    "cup_usage": "用法:/cup [规则] [N轮] [N局],例:/cup hunan 3轮 2局(每轮局数 1–8,轮数 1–8)。"
                 "开杯的人用 /cup start 开赛;比赛中 /cup 看排名;开杯的人或管理员 /cup cancel 取消。",
    "cup_no_topics": "机器人无法新建话题:请让它做管理员并允许「管理话题」;或者让每位报名者先私聊"
                     "机器人并按「开始」(牌桌就在私聊里进行),再 /cup start。",
    "cup_exists": "本群已有一个群杯(报名中或进行中),请等它结束。",
    "cup_none": "本群没有报名中或进行中的群杯。",
    "cup_cancel_refused": "只有开杯的人或群管理员可以取消群杯(/cup cancel)。",
    "cup_prefix": "群杯 #{id} · 第 {round} 轮",
    "cup_result_head": "🀄 群杯 #{id} · 第 {round} 轮 · 第 {table} 桌 · 第 {hand} 局结束",
    "cup_wait_head": "🏅 群杯 #{id} · 第 {k}/{n} 轮:你这桌(第 {no} 桌)打完了。",
    "cup_wait_place": "你现在第 {place} 名 · 节分 {jie} · {points}",
    "cup_wait_next": "还有 {left} 桌在打;它们打完后第 {k} 轮自动开始,你的新手牌会发到这里。",
    "cup_wait_last": "这是最后一轮:还有 {left} 桌在打,打完后在群里公布最终排名。",
    "cup_cancelled_head": "⛔ 群杯 #{id} 已取消",
    "cup_cancelled": "在第 {k}/{n} 轮取消(/cup cancel):各桌已打完的局照常计分,正在打的局作废;不颁奖。",
    "cup_cancelled_signup": "报名中取消(/cup cancel),没有开赛。",
    "cup_only_opener": "只有开杯的人可以开赛。",
    "cup_started": "群杯已经开赛,不能再报名。",
    "cup_joined_already": "你已经报名了。",
    "cup_full": "报名已满({n} 人)。",
    "cup_seated": "你正在一桌牌局中入座,请先离开那一桌。",
    "cup_too_few": "人数不够:至少要 {n} 人报名才能开赛。",
    "cup_entrant_seated": "{name} 正在另一桌入座:请他先离开那一桌,再 /cup start。",
    "cup_joined": "报名成功。",
    "btn_cup_join": "报名",
    "cup_head": "🏅 群杯 #{id} · {rules} · {rounds} 轮 · 每轮 {hands} 局",
    "cup_signup": "报名({n}/{max}):{names}",
    "cup_seal": "🔒 抽签种子的 SHA-256:{sha}",
    "cup_how": "按「报名」参加;开杯的人 /cup start 开赛(至少 {seats} 人,最后一桌由电脑补齐)。",
    "cup_round": "第 {k}/{n} 轮进行中(已赛完 {played} 轮)· 节分 3/2/1,同节分比分数,再比对手节分之和,都相同并列:",
    "cup_done": "已结束 · 排名(节分,同节分比分数,再比对手节分之和,都相同并列):",
    "place_tied": "(并列)",
    "cup_row": "{place}. {name} 节分 {jie} · {points}",
    "cup_left": "(已离开,由电脑代打)",
    "cup_topic": "群杯 #{id} · 第 {no} 桌",
    "cup_final_head": "🏆 群杯 #{id} 结束 · 冠军 {name}",
    "cup_final_round": "第 {k} 轮:",
    "cup_final_table": "  第 {no} 桌:{seats}",
    "cup_final_robots": " + {n} 电脑",
    "cup_final_proof": "抽签种子:{seed}\nSHA-256:{sha}(与报名时公布的一致)\n"
                       "验证:Python random.Random({seed}).shuffle([{order}]) 即第 1 轮的座位顺序。",
    "cup_final_swaps": "再按不同桌设定(/apart)对调:{swaps}。",
    "cup_final_rounds": "各轮各桌:得分(节分)",
    "cup_final_swap": "第 {a} 位 {x} ⇄ 第 {b} 位 {y}",
    "cup_apart_one_table": "报名者中有两位被管理员设为不同桌,抽签无法把他们分到两桌:请再多几人报名,"
                           "或请管理员 /apart off,再 /cup start。",
    **EVENT_NAMES,
    # the live seat (Mini App, bot.webapp)
    "webapp_button": "🀄 实时牌桌",
    "webapp_title": "实时牌桌",
    "webapp_stock": "底牌 {n}",
    "webapp_offer": "亮出",
    "webapp_ting": "听",
    "webapp_huxi": "胡息",
    "webapp_trustee": "托管",
    "webapp_robot": "电脑",
    "webapp_dealer": "庄",
    "webapp_seconds": "{s} 秒",
    "webapp_points": "得分",
    "webapp_offline": "连接中断，正在重连…",
    "webapp_not_seated": "你现在没有在牌桌上入座。请先在群里加入一桌。",
    "webapp_bad_move": "这个操作看不懂，没有改变任何东西。",
    "webapp_confirm": "打出 {card}",
    "webapp_ting_after": "打{card} 听",
    "webapp_no_ting": "打{card} 不听",
    "webapp_kan": "坎",
    "webapp_last": "刚才",
    "webapp_pick": "点一张牌选中,再点一次打出",
    "webapp_settlement": "本局结算",
    "webapp_again_in": "{s} 秒内按「再来一局」,否则离座",
    "webapp_total": "累计",
    "webapp_win": "胡",
    "webapp_xing": "醒",
    "webapp_count": "{n} 张",
    "webapp_ready_wait": "已准备,等其他人按「再来一局」…",
    "webapp_expired": "这个页面已失效",
    "webapp_expired_body": "实时牌桌的登录已过期或无效(为了安全,它只在一段时间内有效)。请回到聊天,在牌面图片下重新按「🀄 实时牌桌」。",
    "webapp_not_seated_title": "你不在牌桌上",
    "webapp_over_title": "牌桌已结束",
    "webapp_over_body": "这桌已经散了,或你已离座。回到聊天看结算,或在群里开新的一桌。",
    "webapp_back": "回到聊天",
    "webapp_restarting": "机器人正在重启或连接中断,马上自动重连;你的牌局不会丢。",
    # 群杯 in private chats (a group without topics: bot.table.cup_service)
    "cup_needs_dm": "这个群没有话题,群杯的牌桌在私聊里进行:请先私聊机器人并按「开始」,再报名。",
    # a lone player's pace: the computers' moves since his last (bot.present.screens.seat)
    "dm_moves": "刚才:{moves}",
    # house rules (房规): /new's words, ⚙'s page, the lines that name them (bot.table.house)
    "house_line": "房规:{label}",
    "house_none": "无",
    "btn_house": "🏠 房规:{label}",
    "house_shown": "🏠 房规",
    "option_house": "房规",
    "house_unknown": "「{word}」不是认得的词。可用的房规(顺序不限):{allowed}",
    "house_range": "「{word}」超出范围,可选:{allowed}",
    "house_repeated": "「{word}」说了两次,说一次就好。",
    "house_contradicts": "「{word}」与「{other}」矛盾,只能选一个。",
    "new_usage_house": "房规:加在后面,顺序不限,例:/new hunan 3 起胡10 封顶100 无名堂(/rules 看说明)。",
    "settle_capped": "封顶 {cap}:不封顶本是 {was}",
    "rules_house": "本桌房规:{label}",
    "rules_cap": "封顶 {cap}:一局每家最多输 {cap} 分给胡家。",
    "rules_first_dealer": "首局由开桌人坐庄。",
    "rules_no_stays": "不连庄:庄家胡牌后由下家坐庄。",
    "calc_capped": "封顶 {cap}:不封顶时每家输 {p}",
    "rules_no_mingtang": "无名堂:每一胡都是平胡(番 1)。",
}

EN: dict[str, str] = {
    "cmd_new": "open a 跑胡子 table",
    "cmd_join": "take a seat",
    "cmd_leave": "leave (逃跑 during a hand)",
    "cmd_begin": "start when every seat is taken",
    "cmd_stop": "close the table (opener or admin)",
    "cmd_help": "help",
    "cmd_rules": "the rules in short",
    "cmd_start": "start",
    "cmd_lang": "language: /lang zh or /lang en (privately your own; in a group, admins set the group's)",
    "cmd_rank": "leaderboard per rule set (/rank hunan; /rank all: all groups)",
    "cmd_me": "my record",
    "cmd_history": "this group's last hands",
    "cmd_calc": "judge a hand: /calc cards [+ card]",
    "cmd_export": "the last hand's record (verifiable)",
    "cmd_timezone": "the group's time zone (admins)",
    "cmd_addbot": "add a computer player (/addbot 弱|中|强 sets the level)",
    "cmd_removebot": "remove a computer player",
    "help": (
        "跑胡子 bot · {rule_sets}\n"
        "/new open (/new hunan 4: rules, seats; ⚙ in the lobby)\n"
        "/join sit · /leave leave · /begin deal · /stop close\n"
        "/addbot a computer (play alone; /addbot 弱, 中 or 强 sets their level) · /removebot\n"
        "/dissolve end the hand (解散) · /replace one who does not play\n"
        "/notify new tables · /lang zh · /help club: clubs\n"
        "/rank /me /history /replay: results\n"
        "/calc a hand: /calc 一二三 壹贰叁 四五六 七八九 贰柒拾 十十 碰:五五五 + 拾\n"
        "六胡抢: /calc four14 一二三 壹贰叁 四五六 贰柒拾 十十 + 拾\n"
        "/export last hand's record (verifiable)\n"
        "Cards come privately: open the bot and press Start first.\n"
        "/rules the rules, scoring and details\n"
        "局数 Matches: /new 8局 (or 4局, 16局); 逃跑 or /stop ends the match."
    ),
    "start_private": (
        "Hello, {name}! I deal 跑胡子.\n"
        "Add me to a group and send /new there; everyone presses 加入 Join (or 加电脑 Add "
        "bot). A full table deals on its own, or press 开局 Deal to start at once.\n"
        "Once a hand starts, your cards and buttons appear here."
    ),
    "dm_ready": "✅ Connected: your cards will come here when a hand starts.",
    "lobby": (
        "🀄 跑胡子 · table {table}\n"
        "Opener: {opener} (may /stop the table)\n"
        "{rules}\n"
        "Seats:\n{seats}\n\n"
        "Press 加入 Join to sit; 开局 Deal when {n} are seated.\n"
        "First time? Press “Open bot”, then Start in the private chat, to receive your cards."
    ),
    "seat_line": "{n}. {name}",
    "seat_empty": "{n}. (empty)",
    "btn_join": "加入 Join",
    "btn_leave": "离开 Leave",
    "btn_begin": "开局 Deal",
    "btn_deeplink": "Open bot",
    "btn_again": "再来一局 Again",
    "btn_takeback": "取消托管 Take back",
    "btn_addbot": "加电脑 Add bot",
    "btn_hint": "💡 提示 Hint",
    "joined": "{name} sat down.",
    "joined_dm": "✅ You are seated at table {table} in “{chat}”; your cards come here.",
    "left": "{name} left.",
    "ready_timeout": "⌛ {names} did not press 再来一局 in time and left the table.",
    "need_dm": "Please open a private chat with the bot and press Start first: {link}",
    "need_dm_toast": "Press “Open bot” and then Start in the private chat first.",
    "table_exists": "There is a table here already (in a forum, each topic may have its own): use /join.",
    "no_table": "No table here yet: use /new.",
    "table_full": "The table is full.",
    "already_seated": "You are already seated.",
    "seated_elsewhere": "You are seated at another table: leave it first.",
    "served_elsewhere": "This table here is another bot's: use its commands.",
    "not_seated": "You are not at this table.",
    "in_play": "A hand is being played.",
    "not_your_turn": "It is not your decision now.",
    "stale": "This button is out of date: use the latest one.",
    "store_failed": "Could not save that move; it did not count. Please press again.",
    "press_failed": "Sorry, that could not be saved just now; it did not count. Please press"
                    " again in a moment.",
    "command_failed": "Sorry, that could not be saved just now; the command did nothing. Please"
                      " send it again in a moment.",
    "only_opener": "Only the opener or a group admin can close the table.",
    "group_only": "Please use this command in a group.",
    "stopped": "The table is closed.",
    "ok": "OK",
    "ready": "Ready",
    "played": "✓ {move}",
    "autoplay_off": "托管 is off: you play again.",
    "no_robot": "No computer player sits at this table.",
    "hint": "💡 {reason}",
    "unknown_table": "That table is gone.",
    "unknown_command": "I do not know that. Send /help to see how to play.",
    "private_hint": "Your cards and buttons appear here. To play, send /new in a group; /help lists the commands.",
    "lang_set": "This group's language is now English.",
    "lang_usage": "Usage: /lang zh or /lang en (admins only).",
    "only_admin": "Only group admins can change the group's settings.",
    "timezone_now": "This group's time zone: {zone}. Admins change it with /timezone NAME, "
                    "e.g. {examples}.",
    "timezone_bad": "No such time zone. Use an IANA name, e.g. {examples}.",
    "timezone_set": "This group's time zone is now {zone}; it is {now}. Challenge deadlines "
                    "are shown in it.",
    "dm_caption": "Table {table} · hand {hand} · 胡息 {huxi}",
    "dm_turn_discard": "Your discard",
    "dm_turn_claim": "Your choice",
    "dm_wait": "Waiting for the others",
    "dm_autoplay": "🤖 托管 (the bot plays for you)",
    "dm_over": "Hand over",
    "robot_name": "Bot {name}",
    "robot_names": "Xiaoming Xiaohong Aqiang Azhen Laowang Dabao",
    "ping": "⏰ Your turn (table {table})",
    "table_caption": "Table {table} · hand {hand} · dealer {dealer} · stock {stock}",
    "settle_win": "🏆 {winner} wins! 胡息 {huxi} · 底 {di} · 番 {fan}",
    "settle_mingtang": "名堂: {items}",
    "settle_plain": "平胡",
    "settle_draw": "荒庄: nobody scores.",
    "settle_escape": "🏃 {name} left (逃跑) and pays {points} to each player.",
    "settle_points": "{name}: {points}",
    "settle_ready": "Ready: {names}",
    "settle_next": "Press Again to play on; the next hand starts when everyone at the table is ready.",
    "flag_zimo": "自摸",
    "flag_haidi": "海底胡",
    "flag_tianhu": "天胡",
    "mingtang_item": "{name} {fan}番",
    "name_sep": ", ",
    "table_seal": "🔒 {fp}",
    "export_caption": (
        "Full record of hand {no}\nSeed {seed}\nSHA-256 {sha}\n"
        "The 🔒 shown at the start is this SHA-256's first 8 digits. "
        "Check it: python -m engine verify {file}"
    ),
    "export_none": "No finished hand to export in this group yet.",
    "export_usage": "Usage: /export sends the last hand's record; /export 挑战 N (or "
                    "/export challenge N) an ended 复式挑战 #N.",
    "export_challenge_none": "This group has no 复式挑战 #{id}.",
    "export_challenge_open": "复式挑战 #{id} has not ended: its seeds stay secret until it "
                             "ends. Export it then.",
    "export_challenge_caption": (
        "Full record of ⚔️ 复式挑战 #{id}: {players} players, {hands} hands each\nSeeds {seeds}\n"
        "SHA-256 {sha} (the one its card showed from the start)\n"
        "Check it: python -m engine verify {file} (the seeds, every hand, every player's "
        "points and every computer move)"
    ),
    "rank_group": "🏅 This group's top {n} · {rules}",
    "rank_global": "🏅 Top {n} of all groups · {rules}",
    "rank_line": (
        "{pos}. {name} · {points} {points:plural:pt:pts} · {title} · "
        "{hands} {hands:plural:hand:hands}, {wins} {wins:plural:win:wins}"
    ),
    "rank_empty": "{rules}: no finished hands yet.",
    "me_head": "📇 {name}",
    "me_total": (
        "Overall: {points} {points:plural:pt:pts} · {hands} {hands:plural:hand:hands} · "
        "{wins} {wins:plural:win:wins} · win rate {rate}"
    ),
    "me_chat": (
        "This group: {points} {points:plural:pt:pts} · {hands} {hands:plural:hand:hands} · "
        "{wins} {wins:plural:win:wins} · win rate {rate}"
    ),
    "me_best": "Best hand: +{points} {points:plural:pt:pts} · 胡息 {huxi} · 番 {fan} · {items} (#{id})",
    "me_no_best": "Best hand: no win yet.",
    # the skill measures (bot.commands.skill, docs/club_scores.md)
    "me_skill": "{rules} skill rating (技术评级) {rating} ({n} matches; computers {computers})",
    "me_skill_none": "{rules} skill rating (技术评级): none yet (after a whole match; "
                     "computers {computers})",
    "card_skill": "Skill rating · {n} matches · computers {computers}",
    "card_skill_none": "Skill rating: after a whole match · computers {computers}",
    "skill_rank_group": "Skill rating · {rules} · top {n} here",
    "skill_rank_global": "Skill rating · {rules} · top {n} of all groups",
    "skill_rank_empty": "Nobody has a {rules} skill rating yet: it comes after a whole match "
                        "(a single hand, or every hand of a match).",
    "skill_rank_line": "{pos}. {name} {rating} ({note})",
    "skill_rank_foot": (
        "The upright lines are the computers' ratings: {computers}; a thin line points to "
        "about where a rating settles with more matches. A rating counts only the places of "
        "whole matches and how strong the others were (μ−3σ, scaled), and grows surer with "
        "more matches; it is no score and cannot be exchanged for anything."
    ),
    "skill_matches": "{n} matches",
    "skill_head_player": "Player · matches",
    "skill_head_rating": "Rating",
    "tech_title": "技术分 · {season} · {rules}",
    "tech_empty": "No reviewed hands in this season yet.",
    "tech_line": "{pos}. {name} {score} ({loss} points lost a decision; {hands} hands, "
                 "{decisions} decisions reviewed)",
    "tech_more": "… and {n} more",
    "tech_foot": (
        "技术分 is the season's 复盘 rating: the points lost per decision against the strong "
        "computer (100: as the strong computer), which a bad run of cards does not lower; "
        "the weak computer scores about {weak}, the medium one about {medium}. It is no "
        "score and cannot be exchanged for anything."
    ),
    "tech_note": "{hands} hands · {loss} lost a decision",
    "tech_head_player": "Player · reviewed",
    "tech_head_score": "技术分",
    "history_title": "📜 This group's last {n} {n:plural:hand:hands} · to replay: /replay NUMBER",
    "history_win": "{head} 🏆 {winner} 胡 · 胡息 {huxi} · {points}",
    "history_draw": "{head} 荒庄 (draw)",
    "history_escape": "{head} 🏃 {name} left (逃跑) · {points}",
    "history_empty": "No finished hands in this group yet.",
    "history_hand": "#{no} table {table}, hand {hand}",
    "rank_birds": " · 🐦 {birds} {birds:plural:bird:birds}",
    "rank_usage": (
        "Usage: /rank [{choices}] [all] [skill] (all: every group; skill or 技术: the skill "
        "ratings). Each rule set is scored apart."
    ),
    "me_rules": "[{rules}] 等级 {title}",
    "me_birds": "打鸟 (birds): {birds} (their points are counted)",
    "rules_head": "📖 {rules} · {seats} seats",
    "rules_win": "To win: {groups} 方门子 (melds) and at least {min} 胡息.",
    "rules_draw_win": "Only a drawn card can be won on, never a discard.",
    "rules_discard_win": "A discard can be won on too (the drawer first, then the nearest 下家).",
    "rules_points": (
        "Points: x = ⌊(胡息 − {offset}) ÷ {divisor}⌋{plus}, 自摸 {zimo}; "
        "each loser pays x × 番 × base."
    ),
    "rules_fan_add": "名堂: their 番 add up.",
    "rules_fan_multiply": "名堂: they multiply (×2, ×3…).",
    "rules_xing": (
        "醒家: the dealer's opposite sits the hand out and collects 醒筹 from each loser "
        "(from the dealer after a 荒庄)."
    ),
    "rules_birds": (
        "打鸟 (birds): anyone not seated may place a bird before the deal; the last stock card "
        "names the seat it follows, and it wins or loses with that seat."
    ),
    "rules_two_min21": "Two seats: at least 21 胡息.",
    "rules_two_setaside": "Two seats: 20 cards are set aside unused.",
    "rules_page": (
        "The full rules are in the attached file. If you do not act in time the bot plays for "
        "you (托管); leaving mid-hand is 逃跑 and costs points."
    ),
    "rules_no_page": "The full rule page is not written yet.",
    "rules_usage": "Usage: /rules [{choices}] [seats] [min21|setaside]",
    "calc_losers_1": "the loser",
    "calc_losers_2": "each loser",
    "calc_losers_3": "each loser",
    "btn_bird": "🐦 打鸟 bird: bet on the seat the last card names",
    "bird_placed": (
        "🐦 Bird placed: next hand you win or lose with the seat the last stock card names. "
        "Press again to withdraw."
    ),
    "bird_withdrawn": "Your bird is withdrawn.",
    "bird_seated": "You are seated: 打鸟 is for those who are not.",
    "birds_none": (
        "🐦 打鸟 (not a stake raise): anyone not seated may place a bird; the last stock card "
        "names the seat it follows, win or lose."
    ),
    "birds_waiting": "🐦 Birds on the next hand: {names}",
    "birds_followed": "🐦 The last card sent the birds with {name}:",
    "birds_points": "  🐦 {name} {points}",
    "calc_usage": (
        "Usage: /calc [{rule_ids}] hand [melds] [+ winning card] [self] [house rules, e.g. 起胡10] ({default_rules} by default)\n"
        "Example: /calc 一二三 壹贰叁 四五六 七八九 贰柒拾 十十 碰:五五五 + 拾\n"
        "Melds: 碰:五五五, 跑:拾拾拾拾, 吃:七八九, 偎:…, 提:…; x1/d1 and peng/pao/chi/wei/ti work too."
    ),
    "calc_bad_cards": "I cannot read “{text}”: small cards are 一..十 (or x1–x10), big ones 壹..拾 (or d1–d10).",
    "calc_bad_kind": "“{kind}” is not a meld kind: use 碰 跑 吃 偎 提 臭偎 (or peng pao chi wei ti chouwei).",
    "calc_bad_meld": "“{meld}” is not a meld: 碰/偎 are three equal cards, 跑/提 four, 吃 a 一句话 or 绞.",
    "calc_one_card": "Write exactly one card after “+” (the winning card).",
    "calc_too_many": "More than four of {cards}: there are only four of each card.",
    "calc_win": "✅ A win! 胡息 {huxi}",
    "calc_groups": "Groups: {groups}",
    "calc_score": "底 {di} · 番 {fan} · base {base}: winner +{win}, {losers} −{lose}",
    "calc_short": "❌ Not a win: at most {huxi} 胡息, fewer than {need}.",
    "calc_no_groups": "❌ Not a win: the cards do not make {groups} 方门子 (with a 将 pair when there is a 提 or 跑).",
    # --- presses, lobby, leaving, fairness ---
    "claim_pending": "{move} chosen, waiting for the others",
    "taken_hu": "{name} won (胡)",
    "taken_pao": "{name} took this card (跑)",
    "taken_peng": "{name} took this card (碰)",
    "taken_chi": "{name} took this card (吃)",
    "taken_escape": "{name} left (逃跑): the hand is over",
    "need_dm_new": "Please open a private chat with the bot and press Start there, then open the table here (/new): {link}",
    "lobby_closed": "🀄 跑胡子 · table {table} · closed\nSend /new to open a new one.",
    "settle_seal": "🔒 {fp} · fairness below",
    "settle_fairness": (
        "公平性 / Fairness\nSeed {seed}\nSHA-256 {sha}\n"
        "The 🔒 shown at the start is this SHA-256's first 8 digits; the seed made the shuffle. "
        "/export sends the hand's record: check it with python -m engine verify FILE."
    ),
    **{f"title_{title}": title_label(title, "en") for title in TITLE_EN},
    "lobby_full": "The table is full: the hand starts in {seconds} s (press 开局 Deal to start now).",
    "escape_confirm": "Leave (逃跑)? You would pay each player at least {points} (from their full 胡息, shown at the settlement).",
    "stop_confirm": "Close the table? Hand {hand}, being played, would be void (no scores).",
    "btn_confirm_e": "确认 Leave",
    "btn_confirm_s": "确认 Close",
    "btn_cancel": "取消 Cancel",
    "escaped": "You left (逃跑).",
    "kept": "Cancelled: play on.",
    "question_cancelled": "已取消 Cancelled.",
    "escape_asked": "{name}: confirm leaving (逃跑) in your private chat with the bot.",
    "unconfirmed": "A hand is being played: confirm first.",
    "calc_count_many": "Too many cards: {n}; at a win the hand, the melds and the winning card make {expected}.",
    "calc_count_few": "Too few cards: {n}; at a win the hand, the melds and the winning card make at least {expected}.",
    # seat screen and clock: what a seat reads while it waits, and for how long
    "wait_discard": "Waiting: {name} to discard",
    "wait_answers": "Waiting for answers (表态)",
    "time_left": "{seconds} s left",
    "dm_over_escape": "🏃 {name} left (逃跑): hand over",
    "trustee_note": "🤖 {name} did not act in time: 托管 (the bot plays)",
    "trustee_mark": "🤖 托管: {names}",
    # table options: the rules a table plays by, /new arguments, the lobby's ⚙
    "rs_qq": "QQ跑胡子",
    "rs_hunan": "湖南 Hunan",
    "rs_four14": "六胡抢 four14",
    "rules_seats": "{n} seats",
    "help_rule_set": "{name} {seats} seats",
    "help_rule_set_sep": ", ",
    "two_min21": "21胡起胡 (21胡息 to win)",
    "two_setaside": "去20张 (20 cards out)",
    "timer_seconds": "{seconds} s",
    "timer_slow": "慢速 slow",
    "lobby_rules": "Rules: {rules} · 底分 {base} · timer {timer}",
    "need_seats": "{n} seated players are needed to start.",
    "new_usage": "Usage: /new [rules] [seats], e.g. /new hunan 4. Choices:\n{choices}",
    "new_choice": "{id} ({name}): {seats} seats",
    "new_seats": "{name} has {seats} seats, not {n}. For {n}: {others}",
    "btn_settings": "⚙ 设置 Settings",
    "btn_settings_back": "↩ 返回 Back",
    "settings_base": "底分 {base}",
    "settings_shown": "⚙ Settings",
    "settings_hidden": "↩ Back",
    "option_set": "{setting} → {value}",
    "option_rules": "Rules",
    "option_seats": "Seats",
    "option_two_seat": "Two-player option",
    "option_base": "底分",
    "option_timer": "Timer",
    "option_match": "Hands",
    "option_level": "Computers",
    "only_opener_settings": "Only the opener can change the settings.",
    "settings_closed": "Settings are fixed once a hand was dealt: /stop, then /new.",
    "bad_option": "No such option.",
    "too_many_seated": "{seated} players are seated: the table cannot have {n} seats; someone must leave first.",
    "xing_stays": "You are 醒家 this hand and hold no cards (no 逃跑): leave once the hand is over.",
    "xing_name": "{name} (醒家, 醒筹)",
    "settle_win_tun": "🏆 {winner} wins! 胡息 {huxi} · {di} 囤 · 名堂 ×{fan}",
    "mingtang_times": "{name} ×{fan}",
    "flag_dihu": "地胡",
    "flag_fed": "fed by {name} (点炮)",
    # /replay, /rank and /me pictures
    "cmd_replay": "replay: /replay the last hand, /replay N hand N",
    "replay_caption": "🎬 Replay of table {table}, hand {hand} (#{no}) · step {step}/{total}",
    "replay_voided": "⚠️ An admin voided this hand (/void): it does not count. {reason}",
    "replay_usage": "Usage: /replay replays this group's last hand, /replay N its hand N.",
    "replay_dm_usage": "Usage: /replay replays your last hand, /replay N the hand with id N (as /me and the export file name show it).",
    "replay_none": "No finished hand to replay in this group yet.",
    "replay_unknown": "This group has no hand {no}.",
    "replay_running": "Hand {no} is still being played: it can be replayed once it is over.",
    "replay_aborted": "Hand {no} was stopped before its end (voided): it has no result to replay.",
    "replay_dm_none": "You have no finished hand to replay yet.",
    "replay_dm_unknown": "You sat at no finished hand with id {id}.",
    "replay_foreign": "This replay does not belong here.",
    "replay_step": "Step {step}/{total}",
    "cmd_quiet": "no more your-turn pings (/quiet off: back on)",
    "quiet_on": "🔕 OK: no more pings when it is your turn; the hand message still counts down and a timeout still brings 托管. /quiet off turns them back on.",
    "quiet_off": "🔔 Pings are back on: a decision left open a while reminds you.",
    "quiet_usage": "Usage: /quiet turns your-turn pings off, /quiet off back on.",
    "quiet_private": "Send /quiet in your private chat with me.",
    "replay_at_last": "Already the last step",
    "replay_at_first": "Already the first step",
    "btn_replay_dm": "Replay in private chat",
    "btn_review": "🔍 复盘 Review",
    "review_coming": "🔍 Reviewing the hand: a moment.",
    "review_coming_dm": "🔍 The review goes to your private chat.",
    "review_busy": "🔍 This hand's review is on its way.",
    "review_foreign": "You can only review a hand you sat at.",
    "review_title": "🔍 复盘 of table {table}, hand {hand} (id {id})",
    "review_rating": "Rating: {rating}/100 (100 = every choice as good as the strong computer's; for reference: random play ≈ {random}, computer 弱 weak ≈ {weak}, 中 medium ≈ {medium})",
    "review_unrated": "You had no choice to make in this hand: no rating.",
    "review_costliest": "The costliest moments:",
    "review_moment": "· Step {step}: {played} (better: {better}), about {loss} points lost{how}{pic}",
    "review_played_out": " (on average over {worlds} played-out deals)",
    "review_played_out_one": " (one played-out deal)",
    "review_flawless": "No choice was worse than the strong player's.",
    "review_pictures": "Below, {n} {n:plural:picture:pictures} (📷) of the table as you saw it "
                       "then: only moments that lost {costly} points or more, declined a 胡 or "
                       "broke 听 are drawn, at most {most}.",
    "review_step": "Step {step}",
    "card_name": "{name} · {rules}",
    # votes (解散, replacing an absent seat), /notify and 添加到群组
    "cmd_dissolve": "propose to end (解散) the hand: no points if all others agree",
    "cmd_replace": "propose a computer player for a seat in 托管 two hands running",
    "cmd_notify": "a private note when a table opens here or lacks one (/notify off)",
    "ev_dissolve": "解散",
    "settle_dissolved": "🤝 The hand was ended (解散): no points.",
    "history_dissolved": "{head} 🤝 ended (解散)",
    "dm_over_dissolved": "🤝 Hand ended (解散): no points",
    "result_head": "🀄 Table {table} · hand {hand} is over",
    "result_points": "You this hand: {points}",
    "result_xing": "You were 醒家 this hand (no cards, you collect 醒筹): {points}",
    "xing_caption": "Table {table} · you are 醒家 this hand: you sit it out and collect 醒筹 at the settlement",
    "bird_result": "🐦 Table {table} · hand {hand}: your bird followed {name}: {points}",
    "dm_over_voided": "⛔ Hand void: no points",
    "voided_dm": "⛔ {name} stopped table {table} (/stop): hand {hand} is void and does not count.",
    "vote_what_dissolve": "end this hand (解散)",
    "vote_what_replace": "a computer player for {target} (托管 for {hands} hands)",
    "vote_what_replace_short": "hand a seat in 托管 to a computer player",
    "vote_open_text": "🗳 {name} proposes to {what} ({seconds} s left)\nAgreed: {agreed}\nWaiting: {waiting}",
    "vote_nobody": "—",
    "btn_vote_yes": "同意 Agree",
    "btn_vote_no": "拒绝 Refuse",
    "vote_passed": "✅ {what}: agreed by {names}.",
    "vote_refused": "❌ {what}: refused by {name}.",
    "vote_timed_out": "⌛ {what}: not agreed by everyone within {seconds} s.",
    "vote_overtaken": "{what}: vote over, the table moved on.",
    "vote_cancelled_restart": "⚠️ The bot restarted: the vote to {what} is cancelled; propose it again.",
    "vote_busy": "A vote is already open at this table; wait for it to end.",
    "vote_proposed": "The vote to end the hand (解散) is posted in the group.",
    "btn_dissolve": "🤝 解散 End",
    "vote_no_hand": "No hand is in play to end.",
    "vote_not_voter": "This vote is not yours to answer.",
    "vote_proposer": "You proposed it; wait for the others.",
    "vote_already": "You have answered already.",
    "vote_agreed": "Agreed.",
    "vote_declined": "Refused.",
    "replace_none": "Nobody was in 托管 for two whole hands: no seat to hand to a computer player.",
    "replace_between": "A replacement is proposed between hands (after the settlement).",
    "notify_on": "OK: I will write to you when a table opens here or lacks one player (once a table). /notify off stops it.",
    "notify_off": "No more notes about this group's tables.",
    "notify_need_dm": "Open the bot privately and press Start first, so that I may write to you: {link}",
    "notify_opened": "🀄 A {rules} table opened in {chat} ({seated}/{seats} seated).",
    "notify_one_short": "🀄 The {rules} table in {chat} lacks one player ({seated}/{seats})!",
    "btn_notify_join": "入座 Take a seat",
    "btn_add_to_group": "➕ 添加到群组 Add to a group",
    # matches (局数) and the 总结算
    "new_usage_match": "局数: add 4局, 8局 or 16局 (or just 8, 16) for a match; a bare 4 is "
                       "the seats.",
    "match_single": "single hand",
    "match_hands": "{n}局",
    "lobby_match": "局数 hands: {label}",
    "match_hand": "hand {k}/{n}",
    "match_scores": "Match: {scores}",
    "match_score": "{name} {points}",
    "match_caption": "🏁 总结算 final · hands {k}/{n}\nWinner: {names} ({points})\n{scores}",
    "match_caption_left": "{name} left between hands: the match ended early.",
    "match_caption_escaped": "{name} left (逃跑): the match ended early.",
    "match_caption_stopped": "The match was ended early (/stop or 解散).",
    "match_over_next": "The last match is over (see its 总结算). Press 开局 Deal for a new "
                       "one; the opener may change the settings with ⚙.",
    # the computer players' level (弱 / 中 / 强), per table
    "level_weak": "弱 weak",
    "level_medium": "中 medium",
    "level_strong": "强 strong",
    "lobby_level": "computer players: {level}",
    "settings_level": "电脑 {level}",
    "addbot_usage": "Usage: /addbot [弱|中|强] (or weak, medium, strong), e.g. /addbot medium. "
                    "Adds a computer player and sets every computer player at the table to "
                    "that level (unchanged if none is given; 强 strong by default).",
    # the club: standing tables (常驻桌), /tables, /apart (docs/club.md)
    "cmd_tables": "this group's open tables, a seat in one press",
    "cmd_play": "quick join: a seat at this group's first standing table with room (/play hunan)",
    "play_usage": "Usage: /play [rules] [seats] [hands], e.g. /play, /play hunan, /play 湖南 4人 8局: "
                  "a seat at the group's first fitting standing table; when all are full, a new "
                  "one like them in a new topic.",
    "play_none": "No standing table here fits. An admin opens one with /new … 常驻 (e.g. "
                 "/new hunan 4 8局 常驻).",
    "play_all_full": "Every fitting standing table is full. A new one needs a group with topics "
                     "(a forum) where I may manage topics; or wait a moment, or see /tables.",
    "play_seated": "✅ {name} sits at table {table} ({rules}).",
    "play_topic": "常驻 · {rules} · {n}",
    "cmd_apart": "admins: keep two players apart (/apart @a @b; /apart off @a @b)",
    "cmd_club": "club settings: 自动准备, 解散 votes a day, no 解散 at cups (admins change them)",
    "club_settings": "⚙ Club settings\n自动准备 auto-ready: {auto_ready} (at a standing table, "
                     "whoever is seated when a match ends is ready for the next)\n"
                     "解散: {limit}\n杯赛禁止解散 no 解散 at cups: {cup}\n"
                     "Admins change them: /club autoready on · /club dissolve 3 (or off) · "
                     "/club cupnodissolve on",
    "club_on": "on",
    "club_off": "off",
    "club_no_limit": "no limit",
    "club_limit": "at most {n} votes a member a day",
    "club_usage": "Usage: /club autoready on|off · /club dissolve N|off (votes a member may "
                  "propose a day, 0–99) · /club cupnodissolve on|off (the Chinese words work "
                  "too). /club alone shows the settings.",
    "club_admin_only": "Only the group's admins change the club settings. /club shows them.",
    "dissolve_limit_reached": "You have proposed 解散 {n} times today (this group allows {n} a "
                              "member a day): try again tomorrow.",
    "dissolve_cup_forbidden": "This group's cups allow no 解散 (an admin's /club setting).",
    "help_club": (
        "Club: admins open a standing table with /new … 常驻 (代开: they need not sit; back in "
        "its lobby with its rules after each match, when its last player leaves and after a "
        "restart, until /stop) · /play a seat at a standing table (a new one when all are full) "
        "· /tables this group's tables, sit in one press · /apart @a @b keeps two players "
        "apart · /club the club's settings (自动准备, 解散 votes a day, no 解散 at cups)\n"
        "/season this season's standings (/season new: admins start the next; /season skill: "
        "its 技术分) · /rank skill: the skill ratings · /timezone the group's time zone "
        "(admins) · /stats today's "
        "figures (week, season) · /void N reason: an admin voids a hand · /dispute N: a player "
        "of that hand asks for its fairness check and 复盘\n"
        "The bot keeps standings, never balances: no adjustments, transfers, buying or selling "
        "points, 分成, debts or cash-out."
    ),
    "standing_admin_only": "Only a group admin can open a standing table (/new … 常驻).",
    "lobby_admin": "a group admin",
    "new_usage_standing": "A standing table (admins): add 常驻, e.g. /new hunan 4 8局 常驻; "
                          "单局 for single hands.",
    "lobby_standing": "Standing table (常驻, opened by an admin): back in this lobby with the "
                      "same rules after each match, when its last player leaves and after a "
                      "restart, until an admin sends /stop.",
    "btn_ready": "准备 Ready",
    "seat_ready": "{n}. {name} ✓",
    "lobby_await_ready": "The last match is over (see its 总结算). To play on, press 准备 Ready: "
                         "whoever has not within {seconds} s leaves his seat to newcomers "
                         "(/play or 加入 Join). The match deals once the table is full and "
                         "everyone is ready.",
    "lobby_ready_timeout": "⌛ {names} did not press 准备 Ready in time: their seats are free.",
    "tables_none": "No open table in this group: send /new to open one.",
    "tables_none_private": "No open table in the groups you play in.",
    "tables_head": "This group's tables:",
    "tables_head_private": "Tables in the groups you play in:",
    "tables_group": "“{chat}”",
    "tables_line": "table {table}{where} · {rules} · {taken}/{n} seated · {state}",
    "tables_topic": " · topic {topic}",
    "tables_topic_named": " · topic “{name}”",
    "tables_waiting": "waiting",
    "tables_running": "playing",
    "tables_standing": " · standing",
    "btn_tables_seat": "加入 Sit at table {table}",
    "tables_usage": "Usage: /tables (no arguments): in a group its open tables, privately "
                    "those of the groups you play in.",
    "apart_usage": ("Usage (admins): /apart @a @b keeps the two apart; /apart @b in reply to a's "
                    "message too; /apart off @a @b undoes it; /apart alone lists this group's."),
    "apart_admin_only": "Only a group admin can keep players apart.",
    "apart_unknown": "I do not know @{name} yet: they must have sent a command here (or to me "
                     "privately) first.",
    "apart_same": "Please name two different players.",
    "apart_set": "OK: {a} and {b} will not sit at one table of this group.",
    "apart_already": "{a} and {b} are kept apart already.",
    "apart_off": "OK: {a} and {b} may sit together again.",
    "apart_not_set": "{a} and {b} were not kept apart.",
    "apart_list_head": "Kept apart in this group:",
    "apart_list_none": "Nobody is kept apart in this group.",
    "apart_pair": "{a} — {b}",
    "apart_refused": "You cannot sit at this table: a group admin keeps you apart from {name}.",
    # one set of numbers: a seat's points for the hand with their parts (engine.points)
    "points_total": "{points} (total {total})",
    "points_parts_total": "{points} (of which {parts}; total {total})",
    "part_xing": "醒筹 {points}",
    "part_birds": "birds {points}",
    "part_sep": ", ",
    "settle_draw_xing": "荒庄: the dealer {dealer} pays the 醒家 {xing} {points} (醒筹).",
    # /lang zh|en in the private chat: the player's own language
    "lang_set_private": "Your language is now English: your private chat, hand, results and 复盘 (a group's language is set by its admins).",
    "lang_usage_private": "Usage: /lang zh or /lang en sets your own language (private chat, results, 复盘); a group's admins set the group's in the group.",
    # 复盘 as coaching: why a moment listed has no picture
    "review_no_pictures": "These moments each lost less than {costly} points: no pictures (only moments that lost {costly} or more, declined a 胡 or broke 听 are drawn).",
    # 验证: the fairness check of a settlement (bot.present.verify)
    "btn_verify": "🔒 验证 Verify",
    "verify_title": "🔒 Fairness check · table {table}, hand {hand} (id {id})",
    "verify_seed_ok": "✅ The SHA-256 of seed {seed} is\n{sha}\nIts first 8 digits {fp} are the "
                      "🔒 {fp} shown at the deal: the seed was fixed before the cards were dealt "
                      "and never changed.",
    "verify_seed_bad": "❌ The SHA-256 of seed {seed} is\n{sha}\nIt does not begin with the 🔒 "
                       "{fp} shown at the deal.",
    "verify_replay_ok": "✅ Shuffled with this seed and replayed for the record's {steps} steps, "
                        "the hand ends in exactly this settlement:",
    "verify_replay_bad": "❌ Replayed for the record's {steps} steps, the hand ends otherwise "
                         "than this settlement:",
    "verify_replay_broken": "❌ The record's {steps} steps do not replay under the rules.",
    "verify_points": "{name} {points}",
    "verify_yourself": "Check it yourself: /export in the group sends the record (/replay {id} "
                       "here steps through it); then python -m engine verify FILE.",
    "verify_sent": "The check is in your private chat.",
    "verify_unknown": "No record of hand {id}: nothing to check.",
    # 复式挑战: duplicate challenges (bot.table.challenges, bot.present.screens.challenge)
    "cmd_challenge": "复式挑战: everyone plays the same deals",
    "challenge_usage": "Usage: /challenge [rules] [N局] [deadline], e.g. /challenge hunan 3 4局 2h "
                       "(default qq, 1局, 24h; 1–8 hands, a deadline from 10m to 7d in m/h/d). "
                       "Its opener may end it early with /challenge end.",
    "challenge_exists": "This group has a 复式挑战 open already: wait for its end (or its "
                        "opener's /challenge end).",
    "challenge_none": "This group has no open 复式挑战.",
    "challenge_only_opener": "Only the one who opened the challenge may end it early.",
    "challenge_once": "Everyone plays this challenge once.",
    "challenge_seated": "You are seated at a table: leave it first to join the challenge.",
    "challenge_busy": "You are playing another 复式挑战: finish or leave it first.",
    "challenge_over_for_you": "Your run of this challenge is over.",
    "challenge_closed": "This 复式挑战 is over.",
    "challenge_not_joined": "You have not joined this challenge.",
    "challenge_you": "你 You",
    "challenge_card_head": "⚔️ 复式挑战 #{id} · {rules} · {hands} 局",
    "challenge_card_rules": "Everyone plays the same deals privately, from the same seat, against "
                            "strong computer players that always play the same way: the same "
                            "choices make the same game. Ranked by points (ties: fewer "
                            "decisions off the computer's choice, then a shared place).",
    "challenge_card_seal": "🔒 SHA-256 of the seeds: {sha}",
    "challenge_card_deadline": "Deadline: {at}",
    "challenge_card_ended": "Ended (deadline {at})",
    "challenge_standings": "Standings:",
    "challenge_nobody": "Nobody has joined yet. Press 参加 Join to play (once each).",
    "challenge_row": "{place}. {name} {points} ({played}/{hands} 局, {offs} off)",
    "challenge_row_playing": "{place}. {name} {points} ({played}/{hands} 局, {offs} off, playing)",
    "challenge_row_left": "{place}. {name} {points} ({played}/{hands} 局, {offs} off, left)",
    "challenge_row_unfinished": "{place}. {name} {points} ({played}/{hands} 局, {offs} off, "
                                "unfinished)",
    "btn_challenge_join": "参加 Join",
    "btn_challenge_leave": "离开 Leave the challenge",
    "challenge_joined": "Challenge started: your first deal is in your private chat.",
    "challenge_left_toast": "You left: the hands you finished count.",
    "challenge_stopped": "(stopped)",
    "challenge_final_head": "🏆 复式挑战 #{id} is over · winner {name} {points}",
    "challenge_final_nobody": "🏆 复式挑战 #{id} is over · nobody played",
    "challenge_final_seeds": "Seeds: {seeds}\nSHA-256: {sha} (the one shown when it opened)",
    "challenge_same": "🔍 {name}: every decision as {best}'s",
    "challenge_diff": "🔍 {name}: first differs at hand {deal}, decision {n}: {name} {his}, "
                      "{best} {theirs}",
    "btn_challenge_diff": "🔍 {name}",
    "challenge_diff_sent": "{name} first differed from the winner here: the picture is in your "
                           "private chat.",
    "challenge_diff_caption": "🔍 复式挑战 #{id} · {name} and {best} first differ at hand {deal}, "
                              "decision {n}:\n{name}: {his}\n{best}: {theirs}",
    "challenge_dm_head": "复式挑战 #{id} · hand {k}/{n} · 🔒 {fp} · 胡息 {huxi}",
    "challenge_dm_points": "This hand {points} · total {total}",
    "challenge_done": "复式挑战 #{id} done: {played}/{hands} hands, {points} points. The "
                      "standings are on the group's card.",
    "challenge_left": "复式挑战 #{id}: you finished {played}/{hands} hands, {points} points; "
                      "they count.",
    # share cards: inline mode (bot.telegram.inline) and its deep links
    "share_me": "My record (/me)",
    "share_open_me": "Open in the bot",
    "share_match": "My last 总结算",
    "share_hand": "Replay of my last hand",
    "share_hand_head": "Table {table}, hand {hand} (id {id}) · 🔒 {fp}",
    "share_open_replay": "🔍 Watch the replay",
    "share_challenge": "A 复式挑战 of my group (open to join)",
    "link_unknown": "This link has expired or is not valid. Send /help to see what I can do.",
    # club scores: /season, /stats, /void, /dispute (bot/commands/club.py, fairplay.py)
    "cmd_season": "season standings (/season new: next season, admins)",
    "cmd_stats": "club stats: /stats today|week|season",
    "cmd_void": "void a hand: /void N reason (admins)",
    "cmd_dispute": "dispute a hand: /dispute N (its players)",
    "season_label": "Season {no}{name}",
    "season_name": " “{name}”",
    "season_span_open": "from hand #{first} on, running",
    "season_span_closed": "hands #{first}–#{last}, ended {at}",
    "season_title": "🏆 {season} · {rules} (top {n})",
    "season_line": (
        "{pos}. {name} · {points} {points:plural:pt:pts} · "
        "{hands} {hands:plural:hand:hands}, {wins} {wins:plural:win:wins}"
    ),
    "season_empty": "No finished hands in this season yet.",
    "season_closed": "🏁 {season} is over; {next} begins (/rank's all-time points and 等级 "
                     "stay as they are).",
    "season_nothing": "No hand was dealt in this season yet: nothing to close.",
    "season_unknown": "This group has no season {no} (/season shows the current one).",
    "season_usage": "Usage: /season [season number] [{choices}] [skill] (skill or 技术: the "
                    "season's 技术分); /season new [name] (admins, a name of at most {n} "
                    "characters) ends this season and starts the next.",
    "stats_today": "today",
    "stats_week": "the last 7 days",
    "stats_title": "📊 This group's stats, {period} · {rules}",
    "stats_line": "{pos}. {name} · {hands} {hands:plural:hand:hands} · {points} · 大赢家 {top} · "
                  "best 胡 {huxi} · 自摸 {zimo}",
    "stats_empty": "No finished hands in this span yet.",
    "stats_usage": "Usage: /stats [today|week|season] [{choices}] (today by default).",
    "club_only_admin": "Only group admins can do this.",
    "club_unknown": "This group has no hand #{no} (see /history).",
    "club_running": "Hand #{no} is still being played.",
    "club_aborted": "Hand #{no} was ended by /stop: it never counted.",
    "void_usage": "Usage: /void N reason (admins; N is the #N of /history, a reason of at "
                  "most 200 characters).",
    "void_done": "⚠️ Hand #{no} was voided by {by}: {reason}\n"
                 "It no longer counts in /rank, /season, /me or /stats: {points}\n"
                 "Its record stays: /replay {no} still shows it.",
    "void_already": "Hand #{no} is void already.",
    "history_voided": "{line}\n   ⚠️ voided ({by}): {reason}",
    "dispute_usage": "Usage: /dispute N (the #N of /history; a player of that hand may ask).",
    "dispute_not_seated": "Only the players of hand #{no} may dispute it.",
    "dispute_head": "⚖️ Dispute of #{no} (table {table}, hand {hand}) · asked by {by}",
    "dispute_seed": "🔒 shown at the deal {fp}\nseed {seed}\nSHA-256 {sha}",
    "dispute_replay": "Replaying all {steps} moves from the seed settles: {points}",
    "dispute_illegal": "Replaying from the seed: the record holds an illegal move ({steps} "
                       "moves)",
    "dispute_recorded": "Settlement recorded: {points}",
    "dispute_same": "✅ The replay matches the record: neither the deal nor the settlement was "
                    "changed.",
    "dispute_differs": "❌ The replay does not match the record!",
    "dispute_voided": "This hand is void: {reason}",
    "dispute_decide": "For the admins to decide: /void {no} reason voids it; /replay {no} "
                      "replays it.",
    "dispute_reviews": "🔍 #{no}: each seat's 复盘",
    "dispute_seat": "{name}: rating {rating} · costliest: step {step} {played} → {better} "
                    "(-{loss}) · {n} {n:plural:slip:slips}",
    "dispute_seat_flawless": "{name}: rating {rating} · no slip",
    "dispute_seat_unrated": "{name}: no decision to rate",
    # the store unreachable (an outage): nothing moved, and it heals by itself
    "store_unavailable": "Cannot save right now; that did not count. Please press again in a "
                         "moment: the table resumes by itself.",
    "command_unavailable": "Cannot save right now; the command did nothing. Please send it "
                           "again in a moment.",
    # the group's settlement when 再来一局 is in each seat's private result
    "settle_next_private": "Press 再来一局 Again under your result in your private chat; the "
                           "next hand starts when everyone at the table is ready.",
    # 群杯: group cups (bot.table.cups, bot.present.screens.cup)
    "cmd_cup": "群杯 group cup: sign up, fair draw, Swiss rounds",
    "cup_usage": "Usage: /cup [rules] [N轮] [N局], e.g. /cup hunan 3轮 2局 (1–8 rounds, 1–8 "
                 "hands a round). Its opener starts it with /cup start; /cup during a cup shows "
                 "its standings; its opener or an admin cancels it with /cup cancel.",
    "cup_no_topics": "The bot cannot create topics: make it an admin allowed to manage topics, "
                     "or have everyone who signed up open the bot privately and press Start "
                     "(the tables then play in private chats), then /cup start again.",
    "cup_exists": "This group has a 群杯 already (signing up or in play): wait for its end.",
    "cup_none": "This group has no 群杯 signing up or in play.",
    "cup_cancel_refused": "Only the cup's opener or a group admin may cancel it (/cup cancel).",
    "cup_prefix": "群杯 #{id} · round {round}",
    "cup_result_head": "🀄 群杯 #{id} · round {round} · table {table} · hand {hand} is over",
    "cup_wait_head": "🏅 群杯 #{id} · round {k}/{n}: your table (table {no}) is done.",
    "cup_wait_place": "You are {place}. now · 节分 {jie} · {points}",
    "cup_wait_next": "{left} table(s) still play; once they are done round {k} starts by "
                     "itself, and your new hand comes here.",
    "cup_wait_last": "This was the last round: {left} table(s) still play, then the final "
                     "standings are posted in the group.",
    "cup_cancelled_head": "⛔ 群杯 #{id} was cancelled",
    "cup_cancelled": "Cancelled in round {k}/{n} (/cup cancel): every table's finished hands "
                     "count, a hand in play was voided; no medals.",
    "cup_cancelled_signup": "Cancelled during sign-up (/cup cancel): nothing was played.",
    "cup_only_opener": "Only the one who opened the cup may start it.",
    "cup_started": "The 群杯 has started: sign-up is closed.",
    "cup_joined_already": "You have signed up already.",
    "cup_full": "The cup is full ({n} players).",
    "cup_seated": "You are seated at a table: leave it first.",
    "cup_too_few": "Too few players: a cup starts with at least {n} signed up.",
    "cup_entrant_seated": "{name} is seated at another table: once he has left it, /cup start "
                          "again.",
    "cup_joined": "Signed up.",
    "btn_cup_join": "报名 Sign up",
    "cup_head": "🏅 群杯 #{id} · {rules} · {rounds} rounds · {hands} 局 a round",
    "cup_signup": "Signed up ({n}/{max}): {names}",
    "cup_seal": "🔒 SHA-256 of the draw's seed: {sha}",
    "cup_how": "Press 报名 to join; its opener starts it with /cup start (at least {seats} "
               "players; computer players fill the last table).",
    "cup_round": "Round {k}/{n} in play ({played} played) · 节分 3/2/1, then points, then the "
                 "节分 of one's opponents; equal in all share a place:",
    "cup_done": "Over · standings (节分, then points, then the 节分 of one's opponents; equal in "
                "all share a place):",
    "place_tied": " (tied)",
    "cup_row": "{place}. {name} 节分 {jie} · {points}",
    "cup_left": " (left: a computer player plays for him)",
    "cup_topic": "群杯 #{id} · table {no}",
    "cup_final_head": "🏆 群杯 #{id} is over · champion {name}",
    "cup_final_round": "Round {k}:",
    "cup_final_table": "  Table {no}: {seats}",
    "cup_final_robots": " + {n} computer",
    "cup_final_proof": "Draw seed: {seed}\nSHA-256: {sha} (the one shown at sign-up)\n"
                       "Check: Python random.Random({seed}).shuffle([{order}]) is round 1's "
                       "seating order.",
    "cup_final_swaps": "Then, for players kept apart (/apart), swapped: {swaps}.",
    "cup_final_rounds": "Each round's tables: points (节分)",
    "cup_final_swap": "#{a} {x} ⇄ #{b} {y}",
    "cup_apart_one_table": "Two who signed up are kept apart by an admin and the draw cannot put "
                           "them at two tables: have more sign up, or an admin /apart off, then "
                           "/cup start again.",
    **EVENT_NAMES,
    # the live seat (Mini App, bot.webapp)
    "webapp_button": "🀄 实时牌桌 Live table",
    "webapp_title": "实时牌桌 Live table",
    "webapp_stock": "底牌 stock {n}",
    "webapp_offer": "Offered",
    "webapp_ting": "听 waits",
    "webapp_huxi": "胡息 huxi",
    "webapp_trustee": "托管",
    "webapp_robot": "电脑",
    "webapp_dealer": "庄",
    "webapp_seconds": "{s} s",
    "webapp_points": "Points",
    "webapp_offline": "Connection lost, reconnecting…",
    "webapp_not_seated": "You are not seated at a table now. Join one in a group first.",
    "webapp_bad_move": "That request was not understood; nothing changed.",
    "webapp_confirm": "Play {card}",
    "webapp_ting_after": "Play {card} → 听",
    "webapp_no_ting": "Play {card}: no 听",
    "webapp_kan": "坎",
    "webapp_last": "Last",
    "webapp_pick": "Tap a card to pick it, tap again to play it",
    "webapp_settlement": "Settlement",
    "webapp_again_in": "Press 再来一局 within {s} s or you leave the table",
    "webapp_total": "total",
    "webapp_win": "胡",
    "webapp_xing": "醒",
    "webapp_count": "{n} cards",
    "webapp_ready_wait": "Ready: waiting for the others to press 再来一局…",
    "webapp_expired": "This page is no longer valid",
    "webapp_expired_body": "For safety the live table's sign-in lasts a limited time. Go back to the chat and press 🀄 Live table under your hand's picture again.",
    "webapp_not_seated_title": "You are not seated",
    "webapp_over_title": "The table is over",
    "webapp_over_body": "The table has closed or you left it. The chat has the settlement; open a new table in the group.",
    "webapp_back": "Back to the chat",
    "webapp_restarting": "The bot is restarting or the connection dropped; reconnecting by itself — your hand is kept.",
    # 群杯 in private chats (a group without topics: bot.table.cup_service)
    "cup_needs_dm": "This group has no topics, so the 群杯's tables play in private chats: "
                    "open the bot privately and press Start first, then sign up.",
    # a lone player's pace: the computers' moves since his last (bot.present.screens.seat)
    "dm_moves": "Just now: {moves}",
    # house rules (房规): /new's words, ⚙'s page, the lines that name them (bot.table.house)
    "house_line": "House rules (房规): {label}",
    "house_none": "none",
    "btn_house": "🏠 House rules: {label}",
    "house_shown": "🏠 House rules",
    "option_house": "House rules",
    "house_unknown": "“{word}” is not a word I know. House rules (房规, in any order): {allowed}",
    "house_range": "“{word}” is out of range; choose {allowed}",
    "house_repeated": "“{word}” was said twice; once is enough.",
    "house_contradicts": "“{word}” contradicts “{other}”: choose one.",
    "new_usage_house": "House rules (房规): add them after, in any order, e.g. "
                       "/new hunan 3 起胡10 封顶100 无名堂 (/rules explains them).",
    "settle_capped": "封顶 {cap} applied; uncapped it was {was}",
    "rules_house": "This table's house rules (房规): {label}",
    "rules_cap": "封顶 {cap}: nobody pays the winner more than {cap} points in one hand.",
    "rules_first_dealer": "The opener deals the first hand.",
    "rules_no_stays": "不连庄: a dealer who wins passes the deal to the next seat.",
    "calc_capped": "封顶 {cap}: uncapped, each loser would pay {p}",
    "rules_no_mingtang": "无名堂: every win is a 平胡 (番 1).",
}

CATALOGS: dict[str, dict[str, str]] = {"zh": ZH, "en": EN}


class _Formatter(string.Formatter):
    """``str.format`` plus plural forms: ``{n:plural:hand:hands}`` is the word for the number
    ``n`` (English: one for ±1, else the other). Chinese has no plural and never uses it."""

    def format_field(self, value: object, format_spec: str) -> str:
        if format_spec.startswith("plural:"):
            one, other = format_spec.split(":")[1:]
            return one if isinstance(value, int) and abs(value) == 1 else other
        return super().format_field(value, format_spec)


_FORMATTER = _Formatter()


def t(lang: str, key: str, **fields: object) -> str:
    """The text ``key`` in ``lang`` (Chinese when missing), formatted with ``fields``."""
    text = CATALOGS.get(lang, ZH).get(key) or ZH[key]
    return _FORMATTER.format(text, **fields) if fields else text


def rule_set_name(rule_id: str, lang: str) -> str:
    """A rule set's display name (``rs_<id>``), or its id for a rule set not named yet."""
    return t(lang, f"rs_{rule_id}") if f"rs_{rule_id}" in ZH else rule_id


# Texts that list the rule sets: their names, seats and ids are written in from
# engine.rules.RULE_SETS, so a new rule set shows there with only its ``rs_`` name added.
RULE_SET_TEXTS = ("help", "calc_usage")


def _seat_range(choices: tuple[int, ...]) -> str:
    low, high = min(choices), max(choices)
    return str(low) if low == high else f"{low}–{high}"


def _fill_rule_sets() -> None:
    for lang, catalog in CATALOGS.items():
        names = t(lang, "help_rule_set_sep").join(
            t(lang, "help_rule_set", name=rule_set_name(rid, lang),
              seats=_seat_range(rules.seat_choices)) for rid, rules in RULE_SETS.items())
        for key in RULE_SET_TEXTS:
            catalog[key] = catalog[key].format(rule_sets=names, rule_ids="|".join(RULE_SETS),
                                               default_rules=QQ.id)


_fill_rule_sets()


FSI, PDI = "\u2068", "\u2069"  # Unicode's first strong isolate and pop directional isolate
_ISOLATE_MARKS = dict.fromkeys(map(ord, "\u2066\u2067\u2068\u2069"))  # LRI RLI FSI PDI
# Bidi classes that can turn a left-to-right line around: right-to-left letters, Arabic
# digits, and the explicit embeddings, overrides and isolates.
_TURNING = frozenset({"R", "AL", "AN", "LRE", "RLE", "LRO", "RLO", "PDF", "LRI", "RLI", "FSI",
                      "PDI"})


def isolate(name: str) -> str:
    """``name`` (a user's or a chat's) safe inside a line of text: wrapped in FSI … PDI when
    it holds right-to-left letters or direction marks, so that an override (U+202E) in it
    cannot reverse the rest of the line, nor an Arabic or Hebrew name reorder the figures
    after it. The name's own isolate marks are dropped first: an unmatched PDI would end the
    wrapping early. A name without such characters cannot turn our left-to-right catalogs
    around and is left as typed (no invisible characters in what users copy)."""
    if not any(unicodedata.bidirectional(ch) in _TURNING for ch in name):
        return name
    return f"{FSI}{name.translate(_ISOLATE_MARKS)}{PDI}"


def lang_of(language_code: str | None, default: str) -> str:
    """A Telegram ``language_code`` mapped to a catalog: zh* → zh, any other → en."""
    if not language_code:
        return default
    return "zh" if language_code.lower().startswith("zh") else "en"
