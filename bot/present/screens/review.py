"""The 复盘 screens of a private chat: the 🔍 复盘 button, and what the review sends.

The button carries only the hand (:class:`bot.callbacks.Review`): pressed, it sends the
presser's own seat's review, never another's (``bot.telegram.review``). It is on each human
seat's private result of the hand (``bot.present.screens.result.result_keyboard``) and
under the /replay stepper (:func:`review_row`). The review is a text — the rating and the
costliest moments (:data:`engine.review.TOP`) — and one picture per flagged moment, at most
:data:`MAX_PICTURES` (:func:`pictured`), each from the seat's own view then
(``render.review.render_moment``) with its flags' texts as its caption.
"""

from __future__ import annotations

from telegram import InlineKeyboardButton

from bot import callbacks as cb
from bot.i18n import t
from bot.store import PlayedHand
from engine import actions as A
from engine.review import COSTLY_LOSS, RATING_ANCHORS, TOP, Review

MAX_PICTURES = 3  # flagged moments drawn: the costliest, shown in the order played


def review_button(hand_id: int, lang: str) -> InlineKeyboardButton:
    return InlineKeyboardButton(t(lang, "btn_review"), callback_data=cb.Review(hand_id).pack())


def review_row(hand_id: int, lang: str) -> list[tuple[str, str]]:
    """The button as a row of (label, callback data), for keyboards built from such rows."""
    return [(t(lang, "btn_review"), cb.Review(hand_id).pack())]


def pictured(review: Review, seat: int) -> tuple[int, ...]:
    """The steps of the seat's flagged moments to draw: the :data:`MAX_PICTURES` that lost
    most (ties: the earlier), in log order."""
    steps = sorted({f.step for f in review.flags_of(seat)})
    loss = {step: review.decision(seat, step).loss for step in steps}
    costliest = sorted(steps, key=lambda step: (-loss[step], step))[:MAX_PICTURES]
    return tuple(sorted(costliest))


def review_text(review: Review, seat: int, played: PlayedHand, lang: str) -> str:
    """The review's text, worded as coaching: the hand, the seat's rating with what random
    play and each computer level score (:data:`~engine.review.RATING_ANCHORS`), its
    :data:`~engine.review.TOP` costliest moments (counted from 1 as on the pictures and in
    /replay: the move played, the one it should have been, the points it cost and, where they
    were measured in played-out deals, over how many; 📷 where a picture follows), and which moments get a picture and why the others do not."""
    mine = review.seat(seat)
    title = t(lang, "review_title", table=played.table_number, hand=played.table_no, id=played.id)
    lines = [title]
    if mine.rating is None:
        lines.append(t(lang, "review_unrated"))
        return "\n".join(lines)
    lines.append(t(lang, "review_rating", rating=mine.rating, **RATING_ANCHORS))
    costliest = mine.costliest(TOP)
    drawn = pictured(review, seat)
    if not costliest:
        lines.append(t(lang, "review_flawless"))
    else:
        lines.append(t(lang, "review_costliest"))
        lines += [t(lang, "review_moment", step=d.move_no, played=A.label(d.played, lang),
                    better=A.label(d.best, lang), loss=f"{d.loss:.1f}",
                    how=(t(lang, "review_played_out_one") if d.worlds == 1 else
                         t(lang, "review_played_out", worlds=d.worlds)) if d.worlds else "",
                    pic=" 📷" if d.step in drawn else "") for d in costliest]
    costly = f"{COSTLY_LOSS:g}"
    if drawn:
        lines.append(t(lang, "review_pictures", n=len(drawn), costly=costly, most=MAX_PICTURES))
    elif costliest:
        lines.append(t(lang, "review_no_pictures", costly=costly))
    return "\n".join(lines)


def moment_caption(review: Review, seat: int, step: int, lang: str) -> str:
    """A flagged moment's picture caption: its move's number and its flags' texts (as drawn
    on it, for search and screen readers)."""
    texts = [f.text for f in review.flags_of(seat) if f.step == step]
    move_no = review.decision(seat, step).move_no
    return "\n".join([t(lang, "review_step", step=move_no), *texts])
