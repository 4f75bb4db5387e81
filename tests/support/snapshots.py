"""Pictures compared with reference PNGs in ``tests/snapshots/``.

A snapshot passes when the size is equal, the mean absolute difference per channel is at most
``MEAN_TOLERANCE`` (anti-aliasing may differ slightly between FreeType builds) and at most
``STRONG_SHARE`` of the pixels differ strongly (so that one wrong digit still fails). After an
intended change of the pictures, regenerate and look at them::

    UPDATE_SNAPSHOTS=1 .venv/bin/pytest tests/render
"""

from __future__ import annotations

import os
from pathlib import Path

from PIL import Image, ImageChops, ImageStat

from render.scene import Scene, Text

SNAPSHOTS = Path(__file__).parents[1] / "snapshots"
MEAN_TOLERANCE = 0.5  # mean absolute difference per channel, 0..255
STRONG = 48  # a pixel "differs strongly" when some channel differs by more than this
STRONG_SHARE = 0.0001  # of all pixels


def assert_snapshot(name: str, img: Image.Image) -> None:
    """``img`` looks like the stored ``snapshots/<name>.png`` (rewritten, to be looked at,
    when UPDATE_SNAPSHOTS=1)."""
    path = SNAPSHOTS / f"{name}.png"
    if os.environ.get("UPDATE_SNAPSHOTS") == "1":
        SNAPSHOTS.mkdir(exist_ok=True)
        img.save(path, optimize=True)
    assert path.exists(), f"missing {path}: run with UPDATE_SNAPSHOTS=1 and look at it"
    ref = Image.open(path).convert("RGB")
    assert ref.size == img.size
    assert similar(ref, img), f"{name} differs from {path}"


def texts(scene: Scene) -> list[str]:
    """The words a scene draws, in drawing order."""
    return [t.text for t in scene.items if isinstance(t, Text)]


def similar(a: Image.Image, b: Image.Image) -> bool:
    diff = ImageChops.difference(a, b)
    mean = max(ImageStat.Stat(diff).mean)
    strong = diff.point(lambda v: 255 if v > STRONG else 0).convert("L")
    share = strong.point(lambda v: 255 if v else 0).histogram()[255] / (a.width * a.height)
    return mean <= MEAN_TOLERANCE and share <= STRONG_SHARE
