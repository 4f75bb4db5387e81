"""Card images for the bot: pure functions from engine views to PNG/JPEG bytes.

    render_hand(view: PrivateView, names, lang="zh", *, trustee=frozenset(),
                robots=frozenset(), ting=None) -> bytes   # a seat's private chat: the table
    render_table(view: PublicView, names, lang="zh", *, trustee=frozenset(),
                 robots=frozenset()) -> bytes             # the group
    render_settlement(view: PublicView, names, totals=None, lang="zh", *,
                      birds=()) -> bytes                  # hand over

``names[i]`` is seat i's display name (any text: it is cleaned and cut to fit). ``lang`` is
"zh" or "en". ``trustee``: seats shown in 托管; ``robots``: computer players (电脑); ``ting``:
the seat's 听 (``engine.ting``); ``birds``: each bird's (name, points) at a table with 打鸟.
Every picture names the rules in force (``PublicView.rule_set``) and draws a 醒家
(``PublicView.xing``) as one short band with no cards. Only the bundled font subsets in
``render/fonts/`` are read.
"""

from render.hand import render_hand
from render.settlement import render_settlement
from render.table import render_table

__all__ = ["render_hand", "render_settlement", "render_table"]
