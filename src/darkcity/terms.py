"""The game's vocabulary as translatable terms: role names, genders, editions.

English follows the Devir edition; Portuguese the original manual (Demônio,
Vampiro, ..., a Possuída, a Morte). A role name is the name on the card, with
the grammatical gender of that name ("o Vampiro" whatever the card's gender,
as the manual itself says, p. 8). Templates choose the form with a format
spec (see :mod:`darkcity.i18n`): ``{role}``, ``{role:the}``, ``{role:The}``,
and in Portuguese ``{role:de}`` -> "do Vampiro".

The article forms are in the message context ``"article"``
(:data:`darkcity.i18n.ARTICLE`), written out as a literal below because Babel
only extracts literals.
"""

from __future__ import annotations

from types import MappingProxyType
from typing import Final

from darkcity.cast import Edition, Gender, Role
from darkcity.i18n import C_, Term, _

__all__ = ["EDITION_NAMES", "GENDER_NAMES", "GESTURES", "ROLE_TERMS", "role_term"]

#: Every role's name, bare and with its article.
ROLE_TERMS: Final[MappingProxyType[Role, Term]] = MappingProxyType({
    Role.DEVIL: Term(_("Devil"), C_("article", "the Devil")),
    Role.VAMPIRE: Term(_("Vampire"), C_("article", "the Vampire")),
    Role.WEREWOLF: Term(_("Werewolf"), C_("article", "the Werewolf")),
    Role.ZOMBIE: Term(_("Zombie"), C_("article", "the Zombie")),
    Role.HUNTER: Term(_("Hunter"), C_("article", "the Hunter")),
    Role.PRIEST: Term(_("Priest"), C_("article", "the Priest")),
    Role.ANGEL: Term(_("Angel"), C_("article", "the Angel")),
    Role.ALIEN: Term(_("Alien"), C_("article", "the Alien")),
    Role.NECROMANCER: Term(_("Necromancer"), C_("article", "the Necromancer")),
    Role.CREATURE: Term(_("Creature"), C_("article", "the Creature")),
    Role.MUMMY: Term(_("Mummy"), C_("article", "the Mummy")),
    Role.DEMONIAC: Term(_("Demoniac"), C_("article", "the Demoniac")),
    Role.REPORTER: Term(_("Reporter"), C_("article", "the Reporter")),
    Role.VOODOOIST: Term(_("Voodooist"), C_("article", "the Voodooist")),
    Role.DEATH: Term(_("Death"), C_("article", "Death")),
})

#: A card's gender identity, as an adjective ("a feminine spouse").
GENDER_NAMES: Final[MappingProxyType[Gender, str]] = MappingProxyType({
    Gender.FEMININE: _("feminine"),
    Gender.MASCULINE: _("masculine"),
    Gender.NEUTRAL: _("neutral"),
})

#: A card's edition, as an adjective ("the other Vampire (basic)").
EDITION_NAMES: Final[MappingProxyType[Edition, str]] = MappingProxyType({
    Edition.BASIC: _("basic"),
    Edition.ADVANCED: _("advanced"),
})

_TERMS: Final = tuple(ROLE_TERMS[r] for r in Role)


def role_term(role: Role) -> Term:
    """The translatable name of ``role``."""
    return _TERMS[role]


#: How each role's gesture is made, in a sentence, for the rules of a card (every
#: face's help: the web table, the table companion).
GESTURES: Final[MappingProxyType[Role, str]] = MappingProxyType({
    Role.DEVIL: _("Shows the gesture of another role in play (a disguise)."),
    Role.VAMPIRE: _("Points at one player."),
    Role.WEREWOLF: _("Points at one player."),
    Role.ZOMBIE: _("Points at the left or the right neighbour."),
    Role.HUNTER: _("Points two arrows at two players (advanced: may aim both at one)."),
    Role.PRIEST: _("Prays: no target."),
    Role.ANGEL: _("Points at one player."),
    Role.ALIEN: _("Names a kind of role: every player of that role is abducted."),
    Role.NECROMANCER: _("Points at both neighbours."),
    Role.CREATURE: _("Proposes to the left or the right neighbour, seeking a gender."),
    Role.MUMMY: _("Sleeps: no target."),
    Role.DEMONIAC: _("No target."),
    Role.REPORTER: _("Photographs two players."),
    Role.VOODOOIST: _("Names a kind of role with a doll."),
    Role.DEATH: _("Writes down a player's name at the draft."),
})
