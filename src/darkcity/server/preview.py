"""The invite link's preview: what a chat app shows under a pasted ``/r/CODE`` link.

Ana pastes her room's link into a group chat; the app fetches the page and shows its
title and description (Open Graph and Twitter meta tags, which crawlers read without
running the page's script). So the page the server sends carries, in the room's
language, who invites, to what (players, deck) and what to do with the link, or that
a game is under way or over, and the game's icon as the picture (``static/icon-512.png``,
drawn by ``scripts/make_icon.py``; a crawler needs its absolute URL, so it is built on
the address friends reach the server at, ``server/share.py``).
Every value is HTML-escaped: a player's name is theirs to choose. A room that is not
there gets the general description (the page itself then says the room is not there).
"""

from __future__ import annotations

import html
from typing import TYPE_CHECKING

from darkcity.i18n import Message, msg, translator
from darkcity.room.text import WORDS

if TYPE_CHECKING:
    from darkcity.room import Room

__all__ = ["with_preview"]

_GENERAL = (msg("Dark City"),
            msg("The party game of monsters and guardians, online with friends: draft a "
                "secret role, show your gesture on \"1, 2, 3, now!\", and let the app be "
                "the Mayor."))


def _texts(room: Room | None) -> tuple[str, str, str]:
    """``(language, title, description)`` of the preview."""
    if room is None:
        t = translator()
        return "en", t.render(_GENERAL[0]), t.render(_GENERAL[1])
    c = room.config
    t = translator(c.lang)
    host = room.members.get(room.host) if room.host is not None else None
    deck = (msg("Custom cast") if c.deck == "custom"
            else Message(WORDS["presets"].get(c.deck, c.deck)))
    what = msg("{n} players · deck: {deck}", n=c.players, deck=deck)
    title = (msg("{host} invites you to a table of Dark City", host=host.name)
             if host is not None else msg("A table of Dark City"))
    if room.status == "lobby":
        todo = msg("Open the link, type your name and take a seat (or watch).")
    elif room.status == "over":
        todo = msg("The game is over: open the link to see who won.")
    else:
        todo = msg("A game is under way: open the link to watch it, or your seat link "
                   "to come back to your seat.")
    return c.lang, t.render(title), f"{t.render(what)}. {t.render(todo)}"


_ICON_ALT = msg("Dark City: a crescent moon over a city")

#: The preview's picture, under ``/static/`` (square: a chat app shows it as a thumbnail).
ICON = "icon-512.png"
ICON_PX = 512


def with_preview(page: str, room: Room | None, base_url: str) -> str:
    """``page`` (the app's ``index.html``) with the preview's meta tags in its head;
    ``base_url`` is the site's address as friends reach it (``http://host``)."""
    lang, title, description = (html.escape(x, quote=True) for x in _texts(room))
    locale = "pt_BR" if lang == "pt_BR" else "en_US"
    image = html.escape(f"{base_url.rstrip('/')}/static/{ICON}", quote=True)
    alt = html.escape(translator(lang).render(_ICON_ALT), quote=True)
    tags = "\n".join((
        f'<meta name="description" content="{description}">',
        '<meta property="og:type" content="website">',
        '<meta property="og:site_name" content="Dark City">',
        f'<meta property="og:locale" content="{locale}">',
        f'<meta property="og:title" content="{title}">',
        f'<meta property="og:description" content="{description}">',
        f'<meta property="og:image" content="{image}">',
        '<meta property="og:image:type" content="image/png">',
        f'<meta property="og:image:width" content="{ICON_PX}">',
        f'<meta property="og:image:height" content="{ICON_PX}">',
        f'<meta property="og:image:alt" content="{alt}">',
        '<meta name="twitter:card" content="summary">',
        f'<meta name="twitter:image" content="{image}">',
        f'<meta name="twitter:title" content="{title}">',
        f'<meta name="twitter:description" content="{description}">',
    ))
    return page.replace("</head>", f"{tags}\n</head>", 1)
