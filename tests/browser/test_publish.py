"""The site the project publishes passes the pocket app's offline test (issue #49).

``scripts/build_pages.py`` is what ``.github/workflows/pages.yml`` runs before it deploys
to GitHub Pages; the session's ``published_site`` is its output. The pocket app's own
test of a whole night on one phone, offline with its server stopped
(``tests/browser/test_pocket_app.py``), runs here on that site: its ``site`` fixture is
this module's, its helpers and its ``static`` server are that module's own.
"""

from __future__ import annotations

from typing import Any

import pytest

pytest.importorskip("playwright")

from .test_pocket_app import static  # noqa: F401  (the pocket test's static server)
from .test_pocket_app import (
    test_a_night_on_one_phone_offline_saved_exported_and_imported as _offline_night,
)

pytestmark = [pytest.mark.services, pytest.mark.slow]  # (npm fetches Pyodide once)


@pytest.fixture(scope="module")
def site(published_site: Any) -> Any:
    return published_site


def test_the_published_site_has_what_a_static_host_serves(published_site: Any) -> None:
    for name in ("index.html", "sw.js", "manifest.webmanifest", "worker.js", "version.json"):
        assert (published_site.out / name).is_file(), name
    assert not [p for p in published_site.files if p.startswith(".") or "/." in p]


test_the_published_site_plays_a_night_offline = _offline_night
