"""Play Dark City in the terminal (issues #5, #16): against bots, or hot-seat.

* :mod:`darkcity.tui.screens` — every screen as a Rich renderable, drawn from
  one player's :class:`~darkcity.views.View` (no terminal needed: tests and
  ``scripts/capture_screens.py`` render them directly);
* :mod:`darkcity.tui.choices` — the legal choices of a view as a short series
  of questions (the Devil's disguise, then the targets by seat, the kind, the
  gender), and the parsing of keystrokes with the "allowed: ..." message;
* :mod:`darkcity.tui.loop` — the game loop: humans answer prompts, bots answer
  through :func:`darkcity.tui.loop.bot_decision`; the record is saved after
  every night, at the end, on Ctrl-C and on end of input, and resumed with
  :func:`darkcity.tui.loop.resume`;
* :mod:`darkcity.tui.records` — where records are saved: a new file per game,
  never an overwrite without asking, the latest unfinished game for ``--resume``;
* :mod:`darkcity.tui.table` — the table companion in the terminal (``darkcity
  table``): :class:`~darkcity.tui.table.TerminalTable`, one Mayor's session.
"""

from __future__ import annotations

__all__: list[str] = []
