"""Every screen of the terminal game as a Rich renderable, drawn from one view.

A screen function takes a :class:`~darkcity.views.View` (what one player, or
a spectator, may know: :func:`darkcity.views.view`) and a
:class:`~darkcity.i18n.Translator`, and returns something
``rich.console.Console.print`` draws. Nothing here reads the game itself, a
terminal or a clock: tests and ``scripts/capture_screens.py`` render screens
without a terminal. What the table agreed before the first night (the deck,
the bots, the seed) comes as a :class:`~darkcity.tui.screens.seats.TableInfo`.

Every screen fits a terminal of :data:`FIT` (120 columns, 40 rows): cards are
compact (one line each when choosing), their powers and the combat panels are
in the help (``?``, two pages), and a night is told in two screens (the
narration, then the journal).

The narration of a night comes with the view (``EventView.text``, in
English); another language passes the same events' texts rendered in its
language (``texts``), which the game loop makes from the same public events.

One concern per module, each drawing on those below it:

- ``words.py``: the game's words (roles, cards, gestures, goals, phases, fates);
- ``seats.py``: what every screen shows of the table (the title line, the settings,
  the circle of seats, the journals) and the terminal they fit;
- ``cards.py``: cards and choices in words (the hand, the viewer's card, a gesture, a
  legal choice, a question's option);
- ``reveal.py`` (Phase 2 revealed: the gestures, the arrows at the viewer),
  ``night.py`` (a night told: the narration, the journal, the recap, the victory) and
  ``rules.py`` (``?``: the cards in play, the combat panels, the phases), which do not
  import each other;
- ``decide.py``: one player's secret decision (the question, its options, the prompt)
  and the hot-seat's hand-overs.

The names below are the screens the game loop draws (``darkcity.tui.loop``).
"""

from __future__ import annotations

from darkcity.tui.screens.cards import choice_label
from darkcity.tui.screens.decide import (
    decision_screen,
    handoff_screen,
    hide_screen,
    prompt_text,
    question_screen,
)
from darkcity.tui.screens.night import (
    night_journal_screen,
    night_screen,
    recap_screen,
    victory_screen,
    zombie_narration,
)
from darkcity.tui.screens.reveal import gestures_list, reveal_screen, threats
from darkcity.tui.screens.rules import RULES_PAGES, rules_screen
from darkcity.tui.screens.seats import (
    FIT,
    TableInfo,
    bots_styles,
    journals_table,
    seat_circle,
    settings_line,
    size_warning,
    title,
)

__all__ = [
    "FIT",
    "RULES_PAGES",
    "TableInfo",
    "bots_styles",
    "choice_label",
    "decision_screen",
    "gestures_list",
    "handoff_screen",
    "hide_screen",
    "journals_table",
    "night_journal_screen",
    "night_screen",
    "prompt_text",
    "question_screen",
    "recap_screen",
    "reveal_screen",
    "rules_screen",
    "seat_circle",
    "settings_line",
    "size_warning",
    "threats",
    "title",
    "victory_screen",
    "zombie_narration",
]
