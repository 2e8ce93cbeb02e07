"""The ``app`` command group: the pocket app, a static site (``app build``)."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated

import typer

from darkcity.cli.base import LangOption, LocalizedGroup, fail, reader
from darkcity.i18n import _, msg

__all__ = ["build", "commands", "groups"]

#: ``darkcity app ...``: the pocket app's commands.
pocket = typer.Typer(
    name="app", cls=LocalizedGroup, no_args_is_help=True,
    help=_("The pocket app: the table companion as a static site that runs on a phone, "
           "offline, with no server."))

#: This module's commands and groups (:mod:`darkcity.cli` registers them on its app).
commands = typer.Typer()
groups = (pocket,)


@pocket.command("build", help=_("Write the pocket app's static site into a folder, for any static "
                       "host (needs npm once, for the pinned Pyodide)."))
def build(
    out: Annotated[Path, typer.Option("--out", help=_("The folder to write the site into "
                                                      "(emptied first when it holds an "
                                                      "earlier build)."))],
    base: Annotated[str, typer.Option("--base", help=_(
        "The path the site is served from, ending in '/' (default: './', any path)."))]
        = "./",
    lang: LangOption = None,
) -> None:
    """Write the pocket app's static site into a folder."""
    t = reader(lang)
    from darkcity.pocket.build import BuildError, build_site

    try:
        site = build_site(out, base=base)
    except BuildError as e:
        raise fail(t, msg("the pocket app could not be built: {error}", error=str(e))) from None
    except OSError as e:
        where = Path(e.filename) if e.filename else out
        if where.resolve().is_relative_to(out.resolve()):
            raise fail(t, msg("cannot write {path}: {error}", path=str(where),
                              error=e.strerror or str(e))) from None
        # a file of the package itself is missing: an install that did not ship it
        raise fail(t, msg("the pocket app could not be built: {error}",
                          error=f"{e.strerror or e}: {where}")) from None
    sizes = site.sizes()
    raw = sum(n for _, n, _ in sizes)
    packed = sum(z for _, _, z in sizes)
    sys.stdout.write(t.render(msg(
        "Built the pocket app in {path} (version {version}): {files} files, {raw} MB raw, "
        "{packed} MB compressed. Serve the folder over HTTPS (or on localhost) for the "
        "phone to keep it offline and install it; see docs/pocket.md.",
        path=str(site.out), version=site.version, files=len(site.files),
        raw=f"{raw / 1e6:.1f}", packed=f"{packed / 1e6:.1f}")) + "\n")
