#!/usr/bin/env python3
"""Draw ``docs/pocket-app-qr.svg``: the QR code of the pocket app's published address
(``[project.urls] "Pocket app"`` in ``pyproject.toml``), shown in the README's first
lines. Drawn by the server's own QR code maker (``darkcity.server.qr``, segno).

    python3 scripts/readme_qr.py           # write it
    python3 scripts/readme_qr.py --check   # exit 1 when it is not the address's code

``tests/test_publish.py`` runs the check: change the address in ``pyproject.toml``, then
run this script.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "scripts"))

from build_pages import published_address  # noqa: E402

QR = ROOT / "docs" / "pocket-app-qr.svg"


def drawn() -> bytes:
    """The QR code of the published address, as the README shows it."""
    from darkcity.server.qr import qr_svg

    url = published_address()
    if url is None:
        raise SystemExit("readme_qr: pyproject.toml has no [project.urls] \"Pocket app\"")
    return qr_svg(url, f"The pocket app: {url}")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--check", action="store_true", help="only check the file")
    args = ap.parse_args(argv)
    svg = drawn()
    if args.check:
        if not QR.is_file() or QR.read_bytes() != svg:
            print(f"readme_qr: {QR.relative_to(ROOT)} is not the code of "
                  f"{published_address()}: run python3 scripts/readme_qr.py", file=sys.stderr)
            return 1
        return 0
    QR.write_bytes(svg)
    print(f"wrote {QR.relative_to(ROOT)} ({len(svg)} bytes): {published_address()}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
