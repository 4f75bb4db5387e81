"""House rules for property tests: random consistent house words for a table shape."""

from __future__ import annotations

from hypothesis import strategies as st

from engine.rules import CAP_RANGE, QIHU_RANGE, get_rule_set

BASE_KEYS = ("qq", "hunan/4", "hunan/3", "hunan/2/min21", "hunan/2/setaside", "four14")


def house_words(rules_key: str, cap_high: int = CAP_RANGE[1]) -> st.SearchStrategy[list[str]]:
    """Consistent house words for the shape ``rules_key``, default words among them (the
    caller shuffles them if order matters). ``cap_high`` keeps 封顶 low enough to apply."""
    rules = get_rule_set(rules_key)
    low, high = QIHU_RANGE[rules.id]
    names = [m.name for m in rules.mingtang]
    mingtang = st.one_of(  # with 无名堂 nothing else of 名堂 or 海底 may be said
        st.just(["有名堂"]), st.just([]),
        st.lists(st.sampled_from(names), unique=True).map(lambda ns: [f"无{n}" for n in ns]),
    )
    one = st.sampled_from
    haidi = one([[], ["无海底"], ["有海底"]]) if rules.haidi_plain_bonus else st.just([])
    zimo = "自摸加囤" if rules.mingtang_multiply else "自摸加底"
    parts = st.tuples(
        st.one_of(st.just([]), st.integers(low, high).map(lambda n: [f"起胡{n}"])),
        st.one_of(st.just([]), st.just(["不封顶"]),
                  st.integers(CAP_RANGE[0], cap_high).map(lambda n: [f"封顶{n}"])),
        st.one_of(st.just(["无名堂"]), st.tuples(mingtang, haidi).map(lambda p: p[0] + p[1])),
        one([[], [zimo], ["自摸翻倍"], ["自摸不加"]]),
        one([[], ["庄随机"], ["开桌人庄"]]),
        one([[], ["连庄"], ["不连庄"]]),
    )
    return parts.map(lambda ps: [w for p in ps for w in p])
