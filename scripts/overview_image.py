#!/usr/bin/env python3
"""The README's picture: three phone screens side by side, as a phone shows them.

    python3 scripts/overview_image.py   # after capture_web_screens.py, capture_table_screens.py

It crops the top of three of the captured screens (a 375 x 667 phone's first view) of the
web table and the table companion, in English, and writes ``docs/screens/overview.png``.
Run it after regenerating the screens, so the picture shows the code as it is.
"""

from __future__ import annotations

from pathlib import Path

from PIL import Image

ROOT = Path(__file__).resolve().parent.parent
SCREENS = ROOT / "docs" / "screens"
OUT = SCREENS / "overview.png"
#: (file, how far down the phone's first view starts): the gesture to make, the reveal's
#: arrows before the withdrawal, and the companion's call of a role.
SHOTS = (("web/en-gesture-phone.png", 0), ("web/en-withdrawal-phone.png", 0),
         ("table/10-call.png", 0))
W, H, GAP, GROUND = 375, 667, 24, (11, 11, 16)


def main() -> None:
    sheet = Image.new("RGB", (len(SHOTS) * W + (len(SHOTS) + 1) * GAP, H + 2 * GAP), GROUND)
    for k, (name, top) in enumerate(SHOTS):
        with Image.open(SCREENS / name) as shot:
            view = shot.convert("RGB").crop((0, top, W, top + H))
        sheet.paste(view, (GAP + k * (W + GAP), GAP))
    sheet.save(OUT, optimize=True)
    print(f"{OUT} {sheet.size[0]}x{sheet.size[1]}")


if __name__ == "__main__":
    main()
