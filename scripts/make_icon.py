#!/usr/bin/env python3
"""Draw darkcity's icon as a PNG: ``static/favicon.svg``'s moon and city, at 512 px.

    python3 scripts/make_icon.py   # writes src/darkcity/server/static/icon-512.png

The PNG is what an SVG cannot be: the picture a chat app shows beside a pasted invite
link (Open Graph's ``og:image``) and the icon of the page saved to a phone's home screen
(``apple-touch-icon``). It is drawn from the favicon's own shapes (a 64-unit square) with
Pillow, four times larger and then scaled down, so its edges are smooth. Pillow comes
with the test extra (matplotlib); the server only serves the file.
"""

from __future__ import annotations

from pathlib import Path

from PIL import Image, ImageDraw

OUT = Path(__file__).resolve().parent.parent / "src/darkcity/server/static/icon-512.png"
SIZE = 512
SCALE = 4  # drawn at 2048 px, then scaled down
NIGHT, MOON, CITY = "#14121a", "#e0b44c", "#c33d5a"
# favicon.svg: <path d="M8 56V34h8v-8h6v8h6V22h10v12h6v-6h6v6h6v22z"/>
SKYLINE = [(8, 56), (8, 34), (16, 34), (16, 26), (22, 26), (22, 34), (28, 34), (28, 22),
           (38, 22), (38, 34), (44, 34), (44, 28), (50, 28), (50, 34), (56, 34), (56, 56)]


def draw() -> Image.Image:
    px = SIZE * SCALE
    u = px / 64  # one unit of the favicon's 64-unit square
    img = Image.new("RGB", (px, px), NIGHT)
    d = ImageDraw.Draw(img)

    def circle(cx: float, cy: float, r: float, fill: str) -> None:
        d.ellipse([(cx - r) * u, (cy - r) * u, (cx + r) * u, (cy + r) * u], fill=fill)

    circle(44, 20, 10, MOON)
    circle(48, 17, 9, NIGHT)  # the crescent: a disc of night over the moon
    d.polygon([(x * u, y * u) for x, y in SKYLINE], fill=CITY)
    return img.resize((SIZE, SIZE), Image.Resampling.LANCZOS)


if __name__ == "__main__":
    draw().save(OUT, optimize=True)
    print(f"{OUT} ({OUT.stat().st_size} bytes)")
