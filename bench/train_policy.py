"""Fit the strong level's correction (bench/learned_player.json) to the search's verdicts.

Reads the JSON lines of ``bench/make_search_data.py``. Per rule set and kind of decision
(discard, claim), every searched move but the strong choice gives one equation: the gain the
search measured over the strong choice ≈ w · (its features − the strong choice's features)
(bench/learned_player.py). w is fitted by ridge regression on standardised features,
its strength chosen by five-fold cross-validation over whole hands' decisions, with the
margin by which another move's predicted gain must pass the strong choice's for the fit to
prefer it. The same folds say what the fit is worth: on the decisions held out, the mean gain
the search measured for the move the fit would take (0 for the strong choice), printed per
rule set and kind. A fit that gains nothing held out is not written.

Run: ``python bench/train_policy.py data/*.jsonl`` (needs numpy: ``pip install numpy``).
"""

from __future__ import annotations

import argparse
import json
from collections import defaultdict
from pathlib import Path

import numpy as np
from learned_player import MODEL_FILE, NAMES

RIDGE = (1.0, 10.0, 100.0, 1000.0, 10000.0)  # strengths tried, per decision of data
MARGINS = (0.0, 0.5, 1.0, 2.0, 4.0)  # predicted gains (in points) a move must pass
FOLDS = 5


def load(paths: list[str]) -> dict[tuple[str, str], list[dict]]:
    """Decisions by (rule set, kind)."""
    out: dict[tuple[str, str], list[dict]] = defaultdict(list)
    for path in paths:
        with open(path, encoding="utf-8") as f:
            for line in f:
                row = json.loads(line)
                out[row["rules"], row["kind"]].append(row)
    return out


def equations(rows: list[dict]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(X, y, decision index) over every searched move but the strong choice."""
    xs, ys, ids = [], [], []
    for i, row in enumerate(rows):
        first = np.array(row["moves"][0]["features"])
        for move in row["moves"][1:]:
            xs.append(np.array(move["features"]) - first)
            ys.append(move["gain"])
            ids.append(i)
    return np.array(xs), np.array(ys), np.array(ids)


def fit(x: np.ndarray, y: np.ndarray, ridge: float) -> np.ndarray:
    """Ridge regression through 0 on features scaled to unit spread; w in the raw units."""
    scale = np.sqrt((x * x).mean(axis=0))
    scale[scale == 0] = 1.0
    z = x / scale
    w = np.linalg.solve(z.T @ z + ridge * len(z) / 1000 * np.eye(z.shape[1]), z.T @ y)
    return w / scale


def gained(w: np.ndarray, rows: list[dict], margin: float) -> float:
    """Mean gain the search measured for the move w prefers (the strong choice's is 0),
    when another move must be predicted to gain more than ``margin`` to be preferred."""
    total = 0.0
    for row in rows:
        first = np.array(row["moves"][0]["features"])
        best, pick = margin, 0.0
        for move in row["moves"][1:]:
            pred = float(w @ (np.array(move["features"]) - first))
            if pred > best:
                best, pick = pred, move["gain"]
        total += pick
    return total / max(1, len(rows))


def cross_validate(rows: list[dict], ridge: float) -> dict[float, float]:
    """Mean held-out gain a decision over ``FOLDS`` folds, per margin (decisions in file
    order: a hand's decisions are neighbours, so a fold holds whole stretches of hands)."""
    n = len(rows)
    total = dict.fromkeys(MARGINS, 0.0)
    for k in range(FOLDS):
        lo, hi = n * k // FOLDS, n * (k + 1) // FOLDS
        x, y, _ = equations(rows[:lo] + rows[hi:])
        if len(x) == 0:
            continue
        w = fit(x, y, ridge)
        for m in MARGINS:
            total[m] += gained(w, rows[lo:hi], m) * (hi - lo)
    return {m: t / max(1, n) for m, t in total.items()}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("data", nargs="+", help="JSON lines of bench/make_search_data.py")
    ap.add_argument("--out", default=str(MODEL_FILE))
    args = ap.parse_args()
    weights: dict[str, dict[str, list[float]]] = defaultdict(dict)
    margins: dict[str, dict[str, float]] = defaultdict(dict)
    measured: dict[str, dict[str, dict]] = defaultdict(dict)
    for (rules, kind), rows in sorted(load(args.data).items()):
        scores = {(r, m): g for r in RIDGE for m, g in cross_validate(rows, r).items()}
        ridge, margin = max(scores, key=lambda k: scores[k])
        x, y, _ = equations(rows)
        w = fit(x, y, ridge)
        print(f"{rules:8} {kind:8} {len(rows):6} decisions  held-out gain "
              f"{scores[ridge, margin]:+.3f} points a decision (ridge {ridge:g}, margin "
              f"{margin:g}; at margin 0: "
              + ", ".join(f"{r:g} {scores[r, 0.0]:+.3f}" for r in RIDGE) + ")")
        print("    " + "  ".join(f"{n} {v:+.3g}" for n, v in zip(NAMES[kind], w, strict=True)))
        if scores[ridge, margin] > 0:
            weights[rules][kind] = [round(float(v), 6) for v in w]
            margins[rules][kind] = margin
            measured[rules][kind] = {"decisions": len(rows), "ridge": ridge,
                                     "held_out_gain": round(scores[ridge, margin], 4)}
    Path(args.out).write_text(json.dumps({"names": NAMES, "weights": weights,
                                          "margins": margins, "measured": measured}, indent=1) + "\n",
                              encoding="utf-8")
    print(f"written {args.out}")


if __name__ == "__main__":
    main()
