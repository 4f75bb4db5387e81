"""The 复盘's text as a player reads it (``bot.present.screens.review.review_text``): the
rating with its anchor, each costly moment as coaching, counted from 1, 📷 on those that get
a picture, and why the others get none."""

from __future__ import annotations

from support.review import RULES, played

from bot.i18n import t
from bot.present.reviews import record_of
from bot.present.screens.review import MAX_PICTURES, pictured, review_text
from bot.store import PlayedHand
from engine import actions as A
from engine.review import COSTLY_LOSS, RATING_ANCHORS, Review, review_hand
from engine.state import Hand


def as_played(h: Hand) -> PlayedHand:
    return PlayedHand(9, 4, h.rules.key, h.seed, h.dealer, h.base, None, tuple(h.log),
                      tuple(range(h.players)), ("A", "B", "C", "D")[:h.players],
                      (0,) * h.players, 5, 2, table_number=1)


def reviews() -> list[tuple[Review, PlayedHand, int]]:
    """Each rated seat's own 复盘 of 12 hands a rule set, as the bot makes it (one seat's,
    bot.present.reviews): test_review.py holds it equal to that seat's part of the whole
    hand's review."""
    out = []
    for rules in RULES[:2]:
        for seed in range(12):
            p = as_played(played(rules, seed))
            record = record_of(p)
            for seat in range(rules.players):
                review = review_hand(record, seat=seat)
                if review.seat(seat).rating is not None:
                    out.append((review, p, seat))
    return out


def test_the_review_reads_as_coaching_with_an_anchored_rating() -> None:
    seen_pictures = seen_none = False
    worlds_seen: set[str] = set()
    for review, p, seat in reviews():
        text = review_text(review, seat, p, "zh")
        mine = review.seat(seat)
        lines = text.splitlines()
        assert lines[1] == t("zh", "review_rating", rating=mine.rating, **RATING_ANCHORS)
        assert all(str(v) in lines[1] for v in RATING_ANCHORS.values())
        drawn = pictured(review, seat)
        for d in mine.costliest():
            coaching = f"· 第 {d.move_no} 步:{A.label(d.played)}(应{A.label(d.best)}),约少 "
            line = next(x for x in lines if x.startswith(coaching))
            assert line.endswith(" 📷") == (d.step in drawn)
            # a loss off the strong choice is an average over played-out deals, and says so
            worded = "(推演 1 局)" if d.worlds == 1 else f"(推演 {d.worlds} 局的平均)"
            assert (worded in line) == bool(d.worlds)  # one deal is no average
            worlds_seen.add("none" if not d.worlds else "one" if d.worlds == 1 else "many")
        costly = f"{COSTLY_LOSS:g}"
        if drawn:
            seen_pictures = True
            assert lines[-1] == t("zh", "review_pictures", n=len(drawn), costly=costly,
                                  most=MAX_PICTURES)
        elif mine.costliest():
            seen_none = True
            assert lines[-1] == t("zh", "review_no_pictures", costly=costly)
    assert seen_pictures and seen_none and worlds_seen == {"none", "one", "many"}
