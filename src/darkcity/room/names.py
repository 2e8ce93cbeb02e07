"""Display names: normalized, refused when they draw nothing, compared by look.

A room checks every name it is given (:func:`clean_name`) and refuses a second
name that looks like one already seated (:func:`name_key`: the Unicode
confusables table, as ``confusable-homoglyphs`` ships it). Pure: the server's
limits (:mod:`darkcity.server.limits`) and a room with no server share it.
"""

from __future__ import annotations

import functools
import json
import re
import unicodedata
from importlib import resources
from typing import Final

from darkcity.i18n import Message, msg

__all__ = ["NAME_MAX", "BadName", "clean_name", "draws_nothing", "name_key", "prototypes_json",
           "warm"]

NAME_MAX: Final = 24
#: Combining marks allowed on one base character (Vietnamese needs two; "Zalgo" 20+).
MARKS_PER_CHARACTER: Final = 2


class BadName(ValueError):
    """A display name refused: :attr:`message` says why, in the reader's language."""

    def __init__(self, message: Message) -> None:
        super().__init__(message.msgid)
        self.message = message


#: Characters that draw nothing though Unicode does not call them spaces: the default-
#: ignorable letters and marks (Hangul fillers, Khmer inherent vowels, the combining
#: grapheme joiner), the Braille blank, zero-width and invisible format characters, and
#: the musical symbols that only format (null note head, beams, ties, slurs, phrases).
_BLANK: Final = frozenset(
    "\u115f\u1160\u3164\uffa0\u2800\u17b4\u17b5\u180e\u034f\u061c\u2061\u2062\u2063\u2064"
    "\U0001d159\U0001d173\U0001d174\U0001d175\U0001d176\U0001d177\U0001d178\U0001d179"
    "\U0001d17a\u200b\u200c\u200d\u2060\ufeff\u00ad")
_VARIATION: Final = re.compile("[\ufe00-\ufe0f\U000e0100-\U000e01ef]")
#: The accents of the Latin, Greek and Cyrillic scripts once a name is decomposed (NFD):
#: the blocks of combining diacritical marks. A key drops them ("Aná" is "Ana"); the
#: marks of other scripts (Devanagari's vowel signs, Arabic's harakat) stay.
_ACCENTS: Final = re.compile("[\u0300-\u036f\u1ab0-\u1aff\u1dc0-\u1dff\u20d0-\u20ff"
                             "\ufe20-\ufe2f]")
_SPACES: Final = re.compile(r"\s+")


def _visible(ch: str) -> bool:
    return ch not in _BLANK and unicodedata.category(ch)[0] in "LNPS"


def draws_nothing(name: str) -> bool:
    """Whether ``name`` would look blank on a page: no letter, digit, punctuation or
    symbol that has a glyph (spaces, marks, fillers and format characters only)."""
    return not any(_visible(ch) for ch in unicodedata.normalize("NFKC", name))


def clean_name(raw: str, max_length: int = NAME_MAX) -> str:
    """A display name as it will be shown: NFKC-normalized (fullwidth and compatibility
    forms become plain letters), spaces collapsed, 1..``max_length`` characters.

    Raises :class:`BadName` for a name that draws nothing, that holds control, format
    or line-separator characters, or that stacks more than two combining marks on a
    character.
    """
    name = _SPACES.sub(" ", unicodedata.normalize("NFKC", raw)).strip()
    if not 1 <= len(name) <= max_length:
        raise BadName(msg("A name has 1 to {n} characters.", n=max_length))
    marks = 0
    for ch in name:
        category = unicodedata.category(ch)
        if category[0] == "C" or category in ("Zl", "Zp") or \
                (ch in _BLANK and category[0] != "M"):
            raise BadName(msg("A name cannot hold control or invisible characters."))
        marks = marks + 1 if category[0] == "M" and not _VARIATION.match(ch) else 0
        if marks > MARKS_PER_CHARACTER:
            raise BadName(msg("A name cannot stack more than two accents on a letter."))
    if draws_nothing(name):
        raise BadName(msg("A name needs at least one visible letter, digit or symbol."))
    return name


@functools.cache
def _prototypes() -> dict[str, str]:
    """Each confusable character mapped to one representative of its look-alike group
    (the lowest code point): the Unicode confusables data (UTS #39) of
    ``confusable-homoglyphs``, single characters only, groups closed transitively.
    The pocket app's wheel carries this table computed (``confusables.json`` beside
    this module, :func:`prototypes_json`), as the phone has no ``confusable-homoglyphs``."""
    shipped = resources.files("darkcity.room").joinpath("confusables.json")
    if shipped.is_file():
        table: dict[str, str] = json.loads(shipped.read_text(encoding="utf-8"))
        return table
    data = json.loads(resources.files("confusable_homoglyphs")
                      .joinpath("confusables.json").read_text(encoding="utf-8"))
    parent: dict[str, str] = {}

    def find(x: str) -> str:
        root = x
        while parent.get(root, root) != root:
            root = parent[root]
        while parent.get(x, x) != root:  # path compression
            parent[x], x = root, parent[x]
        return root

    for char, homoglyphs in data.items():
        if len(char) != 1:
            continue
        for h in homoglyphs:
            other = h["c"]
            if len(other) != 1:
                continue
            a, b = find(char), find(other)
            if a != b:
                parent[max(a, b)] = min(a, b)
    return {ch: root for ch in parent if (root := find(ch)) != ch}


def warm() -> None:
    """Build the look-alike table now (a server's start-up) rather than at the first
    name a player gives: 34 ms of the event loop's time on the development machine."""
    _prototypes()


def _skeleton(text: str) -> str:
    table = _prototypes()
    return "".join(table.get(ch, ch) for ch in text)


def name_key(name: str) -> str:
    """The key two names of one room are compared by: equal keys look (or sound) alike.

    NFKC, variation selectors and invisible characters dropped, spaces collapsed,
    accents dropped (decomposed, NFD, then the combining diacritical marks removed),
    then every character replaced by its look-alike group's representative and the
    case folded (``Ana``, ``Аna`` in Cyrillic, ``Ａｎａ``, ``ANA``, ``Aná`` and ``Ana``
    followed by a combining acute share a key; so do ``Il`` and ``ll``, and ``José``
    and ``Jose``: at a table two names that differ only by an accent are one name read
    aloud, and a bystander cannot tell them apart in the story).
    """
    text = _VARIATION.sub("", unicodedata.normalize("NFKC", name))
    text = "".join(ch for ch in text if ch not in _BLANK)
    text = _SPACES.sub(" ", text).strip()
    text = _ACCENTS.sub("", unicodedata.normalize("NFD", text))
    return _skeleton(_skeleton(text).casefold())


def prototypes_json() -> bytes:
    """The look-alike table as the pocket app's wheel ships it (``confusables.json``)."""
    return json.dumps(_prototypes(), ensure_ascii=False, sort_keys=True,
                      separators=(",", ":")).encode()
