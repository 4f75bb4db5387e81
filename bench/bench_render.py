"""Median time and size of each picture, encoding included, on one core.

    python bench/bench_render.py [--runs 200] [--jpeg]

Targets: the seat's picture (the whole table seen from one seat) <= 20 ms and
<= 150 KiB at 3 and 4 seats; the table <= 40 ms; the leaderboard and the player
card <= 30 ms, a replay step <= 20 ms. Positions come from fixed-seed
engine hands (render.demo; 2- and 4-seat tables are reshaped 3-seat positions until such rule
sets exist); sprite and text caches are warmed by one untimed run, as in a running bot.
``--jpeg`` also prints the encoder settings side by side (size, time, PSNR) for the 4-seat
picture: the basis of ``render.scene.JPEG_QUALITY`` / ``JPEG_SUBSAMPLING``.
"""

from __future__ import annotations

import argparse
import io
import math
import os
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from PIL import Image, ImageChops, ImageStat  # noqa: E402

from engine.standings import places  # noqa: E402
from engine.views import OutcomeKind, PrivateView  # noqa: E402
from render import render_hand, render_settlement, render_table  # noqa: E402
from render.demo import (  # noqa: E402
    BIRDS,
    NAMES,
    TOTALS,
    TOTALS4,
    ended,
    play,
    reseated,
    rich_private,
    rich_public,
    ruleset_positions,
    sample_ting,
    with_birds,
)
from render.demo_pages import NAMES as PAGE_NAMES  # noqa: E402
from render.demo_pages import frame_at, sample_card, sample_rows, won_hand  # noqa: E402
from render.hand import layout_hand  # noqa: E402
from render.leaderboard import render_leaderboard  # noqa: E402
from render.match import render_match, sample_summary  # noqa: E402
from render.player_card import render_player_card  # noqa: E402
from render.replay import render_replay_step  # noqa: E402
from render.scene import paint  # noqa: E402

SEAT_MS, SEAT_KIB = 20, 150
BOARD_MS, CARD_MS, REPLAY_MS = 30, 30, 20  # leaderboard, player card, replay step
MATCH_MS = 30  # the 总结算 picture


def median_ms(fn: Callable[[], bytes], runs: int) -> tuple[float, int]:
    size = len(fn())  # warm caches
    times = []
    for _ in range(runs):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return statistics.median(times) * 1000, size


def page_cases(runs: int) -> None:
    """The statistics pictures: the leaderboard (ten rows), the player card (80 hands charted)
    and a replay step half way through a won hand — the frame replayed outside the timed call
    (the picture's own cost), then replay and picture together (a ▶ press with no cache)."""
    rows, card, hand = sample_rows(), sample_card(), won_hand(7)
    placed = places([r.points for r in rows])
    half = len(hand.log) // 2
    frame = frame_at(hand, half)
    cases: dict[str, tuple[Callable[[], bytes], str]] = {
        "leaderboard": (lambda: render_leaderboard(rows, title="本群排行", places=placed),
                        f"<= {BOARD_MS} ms"),
        "player card": (lambda: render_player_card(card), f"<= {CARD_MS} ms"),
        "replay step": (lambda: render_replay_step(frame, PAGE_NAMES), f"<= {REPLAY_MS} ms"),
        "replay+step": (lambda: render_replay_step(frame_at(hand, half), PAGE_NAMES), ""),
    }
    for name, (fn, target) in cases.items():
        ms, size = median_ms(fn, runs)
        goal = f"  (target {target})" if target else ""
        print(f"{name:<11} median {ms:6.2f} ms  {size / 1024:6.1f} KiB{goal}")


def match_case(runs: int) -> None:
    """The 总结算 picture at its largest: 4 players, 16 hands (target: <= MATCH_MS)."""
    summary = sample_summary(4, 16)
    ms, size = median_ms(lambda: render_match(summary), runs)
    print(f"{'总结算 4×16':<11} median {ms:6.2f} ms  {size / 1024:6.1f} KiB  "
          f"(target <= {MATCH_MS} ms)")


def seat_picture(view: PrivateView, n: int) -> Callable[[], bytes]:
    """The seat's picture at an ``n``-seat table, one seat in 托管 and one computer player."""
    seated, ting = reseated(view, n), sample_ting(view)
    marks = {"trustee": frozenset({1}), "robots": frozenset({n - 1})}
    return lambda: render_hand(seated, NAMES, **marks, ting=ting)


def largest_seat_kib(n: int, seeds: range) -> float:
    """The largest 4-seat picture over the last positions of several random hands."""
    sizes = []
    for seed in seeds:
        positions = list(play(seed))
        h = positions[-2]  # the last position before the end: the fullest table
        sizes.append(len(seat_picture(h.private_view(0), n)()))
    return max(sizes) / 1024


Cases = dict[str, tuple[Callable[[], bytes], str]]


def ruleset_cases() -> Cases:
    """The pictures of the other rule sets (hunan, four14), from their own engine hands: a hunan/4
    table and seat with a 醒家 (one compact band), four14 (four full bands), a hunan/2 seat,
    and a hunan settlement with two birds."""
    p = ruleset_positions()
    birds = with_birds(p.hunan4_won, BIRDS)
    seat = f"<= {SEAT_MS} ms, <= {SEAT_KIB} KiB"
    return {
        "hunan4 seat": (lambda: render_hand(p.hunan4_seat, NAMES), seat),
        "four14 seat": (lambda: render_hand(p.four14_seat, NAMES), seat),
        "hunan2 seat": (lambda: render_hand(p.hunan2_seat, NAMES), ""),
        "hunan table": (lambda: render_table(p.hunan4_table, NAMES), "<= 40 ms"),
        "bird settle": (lambda: render_settlement(p.hunan4_won, NAMES, TOTALS4, birds=birds), ""),
    }


def psnr(a: Image.Image, b: Image.Image) -> float:
    rms = ImageStat.Stat(ImageChops.difference(a, b)).rms
    mse = sum(v * v for v in rms) / len(rms)
    return 10 * math.log10(255 * 255 / mse)


def jpeg_settings(view: PrivateView, runs: int) -> None:
    """Size, encode time and PSNR of the 4-seat picture for each candidate encoder setting."""
    seated = reseated(view, 4)
    img = paint(layout_hand(seated, NAMES, ting=sample_ting(view)))
    print("\nJPEG settings, 4-seat picture (size, median encode time, PSNR vs the painted image):")
    for quality in (75, 80, 85, 88, 92):
        for sub, sub_name in ((0, "4:4:4"), (1, "4:2:2"), (2, "4:2:0")):
            for optimize in (False, True):

                def encode(q: int = quality, s: int = sub, o: bool = optimize) -> bytes:
                    buf = io.BytesIO()
                    img.save(buf, "JPEG", quality=q, subsampling=s, optimize=o)
                    return buf.getvalue()

                ms, size = median_ms(encode, max(5, runs // 10))
                decoded = Image.open(io.BytesIO(encode())).convert("RGB")
                print(
                    f"  q={quality} {sub_name} optimize={optimize!s:<5} {size / 1024:6.1f} KiB"
                    f"  {ms:5.2f} ms  PSNR {psnr(img, decoded):5.2f} dB"
                )


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=200)
    parser.add_argument("--jpeg", action="store_true", help="compare JPEG encoder settings")
    args = parser.parse_args()
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})
    private, public = rich_private(), rich_public()
    settled = ended(7, OutcomeKind.WIN)
    cases: Cases = {
        "seat 3": (seat_picture(private, 3), f"<= {SEAT_MS} ms, <= {SEAT_KIB} KiB"),
        "seat 4": (seat_picture(private, 4), f"<= {SEAT_MS} ms, <= {SEAT_KIB} KiB"),
        "seat 2": (seat_picture(private, 2), ""),
        "table": (lambda: render_table(public, NAMES), "<= 40 ms"),
        "settlement": (lambda: render_settlement(settled, NAMES, TOTALS), ""),
        **ruleset_cases(),
    }
    for name, (fn, target) in cases.items():
        ms, size = median_ms(fn, args.runs)
        goal = f"  (target {target})" if target else ""
        print(f"{name:<11} median {ms:6.2f} ms  {size / 1024:6.1f} KiB{goal}")
    page_cases(args.runs)
    match_case(args.runs)
    kib = largest_seat_kib(4, range(20))
    print(f"seat 4 largest of 20 late positions: {kib:.1f} KiB (target <= {SEAT_KIB} KiB)")
    if args.jpeg:
        jpeg_settings(private, args.runs)


if __name__ == "__main__":
    main()
