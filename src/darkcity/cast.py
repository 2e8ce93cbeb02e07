"""The cast of Dark City as data: roles, editions, genders, gestures, goals and
the combat panels.

Everything the rulebooks print on a card lives here, and nowhere else: the
resolution in :mod:`darkcity.night` only asks these tables. Rule ids (R-xx)
refer to ``rulings.md`` and ``docs/rulings.md``; "PT" is the Portuguese
manual, the authority where the editions differ.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from types import MappingProxyType
from typing import Final

__all__ = [
    "ALIASES",
    "CAST",
    "MAIN_CAST",
    "NO_DISGUISE",
    "SPECIAL_CAST",
    "STEPS",
    "Class",
    "Edition",
    "Effect",
    "Gender",
    "GestureShape",
    "Line",
    "Reach",
    "Role",
    "RoleSpec",
    "effect",
    "parse_role",
]


class Role(enum.IntEnum):
    """A role, as named by the Devir English edition (the canonical names)."""

    # hashed as its number (C code), which it equals; Enum's ``__hash__`` (a Python
    # call, of the name) shows up wherever a card or a journal row is a key
    __hash__ = int.__hash__

    DEVIL = 0
    VAMPIRE = 1
    WEREWOLF = 2
    ZOMBIE = 3
    HUNTER = 4
    PRIEST = 5
    ANGEL = 6
    ALIEN = 7
    NECROMANCER = 8
    CREATURE = 9
    MUMMY = 10
    DEMONIAC = 11
    REPORTER = 12
    VOODOOIST = 13
    DEATH = 14

    @property
    def key(self) -> str:
        """The role's name in the round notation (``"devil"``...)."""
        return _KEYS[self]

    def __str__(self) -> str:
        return _KEYS[self]


_KEYS: Final = tuple(r.name.lower() for r in Role)


class _FastHash(enum.Enum):
    """An Enum hashed by identity: members are singletons compared by identity,
    and Enum's own ``__hash__`` (a Python call) shows up in profiles of the
    resolver and the validator."""

    __hash__ = object.__hash__


class Class(_FastHash):
    """A role's class, printed on the card."""

    MONSTER = "monster"
    GUARDIAN = "guardian"
    NEITHER = "neither"  # Death


class Edition(_FastHash):
    """Main-cast cards come in a basic and an advanced edition (R-15)."""

    BASIC = "basic"
    ADVANCED = "advanced"


class Gender(_FastHash):
    """The gender identity drawn on a card (R-65, R-90)."""

    FEMININE = "feminine"
    MASCULINE = "masculine"
    NEUTRAL = "neutral"


class Reach(_FastHash):
    """Whom a gesture may point at."""

    NOBODY = "nobody"  # Priest, Mummy, Demoniac
    ANYONE = "anyone"  # Vampire, Werewolf, Angel, Hunter, Reporter
    NEIGHBOUR = "neighbour"  # Zombie, Creature: the left or the right neighbour
    BOTH_NEIGHBOURS = "both neighbours"  # Necromancer: always both
    KIND = "kind"  # Alien, Voodooist: a role, not a player
    NAME = "name"  # Death: a name written down


@dataclass(frozen=True, slots=True)
class GestureShape:
    """How a role's Phase-2 gesture is aimed (spec: ``gestures``)."""

    reach: Reach
    targets: int = 0  # how many players are pointed at
    distinct: bool = True  # must the targets differ (the advanced Hunter may double)
    seeks: bool = False  # the Creature's sought gender

    @property
    def attacks(self) -> bool:
        """Does a player showing this role make a gesture that must be written down?"""
        return self.reach is not Reach.NOBODY


# Steps of Phase 4, in order. ``end`` is the end of the night.
STEPS: Final = ("1+", "1", "2", "3", "4", "5", "6", "7", "8")


@dataclass(frozen=True, slots=True)
class Line:
    """One line of a card's text that holds only where it says (for help screens).

    ``edition``: printed only on that edition's card (the advanced Devil's extra
    goal, the advanced Hunter's double aim, R-15); ``needs``: meaningful only when
    that role is in the game (the Angel's exorcism needs the Demoniac).
    """

    text: str
    edition: Edition | None = None
    needs: Role | None = None


@dataclass(frozen=True, slots=True)
class RoleSpec:
    """Everything printed on one role's cards."""

    role: Role
    cls: Class
    special: bool  # special cast (6+ players, R-93)
    step: str | None  # initiative; None for the asterisk roles, never called
    genders: tuple[Gender, ...]  # the identities of its cards
    gesture: GestureShape
    tough: bool = False  # two hits to kill: Mummy and Creature
    max_cards: int = 1  # copies in the whole box for one round (spec: cards)
    goals: str = ""  # the goals, in the card's words (for help screens)
    goal_lines: tuple[Line, ...] = ()  # the goals line by line (``goals`` as one line)
    powers: tuple[Line, ...] = ()  # what it does besides its gesture and combat panel

    @property
    def key(self) -> str:
        return self.role.key

    @property
    def monster(self) -> bool:
        return self.cls is Class.MONSTER

    @property
    def guardian(self) -> bool:
        return self.cls is Class.GUARDIAN


_FM = (Gender.FEMININE, Gender.MASCULINE)
_M = (Gender.MASCULINE,)
_F = (Gender.FEMININE,)
_N = (Gender.NEUTRAL,)

_ONE = GestureShape(Reach.ANYONE, 1)
_NONE = GestureShape(Reach.NOBODY)


def _spec(
    role: Role,
    cls: Class,
    step: str | None,
    genders: tuple[Gender, ...],
    gesture: GestureShape,
    goals: str,
    *,
    special: bool = True,
    tough: bool = False,
    max_cards: int = 1,
    lines: tuple[Line, ...] = (),
    powers: tuple[Line, ...] = (),
) -> RoleSpec:
    return RoleSpec(role, cls, special, step, genders, gesture, tough, max_cards, goals,
                    lines or (Line(goals),), powers)


_ADV = Edition.ADVANCED


M, G = Class.MONSTER, Class.GUARDIAN


def _(message: str) -> str:
    """Marks the goals for translation (Babel extracts ``_("...")``); the faces
    translate ``RoleSpec.goals`` when they show it."""
    return message

#: The fifteen roles (PT "Papéis"; "Elenco especial").
CAST: Final[MappingProxyType[Role, RoleSpec]] = MappingProxyType(
    {
        s.role: s
        for s in (
            _spec(Role.DEVIL, M, "1", _FM, _NONE, _("Survive and make a monster or guardian "
                  "withdraw; advanced: survive and damn a soul to Hell."), special=False,
                  max_cards=2,
                  lines=(Line(_("Survive and make a monster or guardian withdraw.")),
                         Line(_("Or survive and damn a soul to Hell."), _ADV))),
            _spec(Role.VAMPIRE, M, "2", _FM, _ONE, _("Survive and kill a monster or guardian."),
                  special=False, max_cards=2),
            _spec(Role.WEREWOLF, M, "3", _FM, _ONE, _("Survive and kill a monster or guardian."),
                  special=False, max_cards=2),
            _spec(Role.ZOMBIE, M, "4", _FM, GestureShape(Reach.NEIGHBOUR, 1),
                  _("Survive and kill a monster or guardian."), special=False, max_cards=2,
                  powers=(Line(_("At step 4, knowing steps 1+ to 3, it keeps its target or "
                                 "turns to its other neighbour, once and for all.")),
                          Line(_("Two Zombies side by side both die at step 4 (the cannibal "
                                 "rule), unless one withdrew or fell before.")))),
            _spec(Role.HUNTER, G, "5", _FM, GestureShape(Reach.ANYONE, 2),
                  _("Survive and kill at least one monster (no XP if it kills a guardian)."),
                  special=False, max_cards=2,
                  powers=(Line(_("At the withdrawal it may lower one of its two bolts and "
                                 "stay in the night.")),
                          Line(_("It may aim both bolts at the same player."), _ADV))),
            _spec(Role.PRIEST, G, None, _FM, _NONE, _("Survive."), special=False, max_cards=2),
            _spec(Role.ANGEL, G, "1+", _N, _ONE,
                  _("Survive and kill a monster, or survive and exorcise the Demoniac."),
                  lines=(Line(_("Survive and kill a monster.")),
                         Line(_("Or survive and exorcise the Demoniac."),
                              needs=Role.DEMONIAC))),
            _spec(Role.ALIEN, M, "6", _N, GestureShape(Reach.KIND),
                  _("Survive and abduct one or two monsters or guardians (1 XP each).")),
            _spec(Role.NECROMANCER, M, "7", _M, GestureShape(Reach.BOTH_NEIGHBOURS, 2),
                  _("Survive and create an undead servant.")),
            _spec(Role.CREATURE, M, "8", _FM, GestureShape(Reach.NEIGHBOUR, 1, seeks=True),
                  _("Survive and marry a monster or guardian of the chosen gender."),
                  tough=True, max_cards=2,
                  powers=(Line(_("The player it proposes to may not withdraw from the "
                                 "night.")),)),
            _spec(Role.MUMMY, M, None, _M, _NONE, _("Survive and awaken: one hit, and only one."),
                  tough=True),
            _spec(Role.DEMONIAC, G, None, _F, _NONE,
                  _("Get killed by a monster or Hunter; or survive after being exorcised."),
                  lines=(Line(_("Get killed by a monster or Hunter.")),
                         Line(_("Or survive after being exorcised."), needs=Role.ANGEL))),
            _spec(Role.REPORTER, G, None, _M, GestureShape(Reach.ANYONE, 2),
                  _("Survive and take a picture of at least one living monster."),
                  powers=(Line(_("Its flash: the attacks of its own two targets on it "
                                 "fail.")),)),
            _spec(Role.VOODOOIST, G, None, _F, GestureShape(Reach.KIND), _("Survive."),
                  powers=(Line(_("Its doll: every attack on it by a player of the kind it "
                                 "names fails.")),)),
            _spec(Role.DEATH, Class.NEITHER, None, _N, GestureShape(Reach.NAME),
                  _("Name a player whose monster or guardian is killed or abducted tonight.")),
        )
    }
)

MAIN_CAST: Final = tuple(r for r in Role if not CAST[r].special)
SPECIAL_CAST: Final = tuple(r for r in Role if CAST[r].special)
#: The roles a Devil never shows (R-20): itself, and the gestures no Devil can fake.
NO_DISGUISE: Final = frozenset((Role.DEVIL, Role.NECROMANCER, Role.CREATURE, Role.DEATH))


class Effect(_FastHash):
    """What one attack does to its target, by real roles (rulings, appendix)."""

    NOTHING = "nothing"  # no effect (Hunter on Hunter, Angel on a guardian...)
    MISS = "miss"  # the Devil's illusion: aimed at, but it misses
    KILL = "kill"  # killed, credited to the attacker
    KILL_NO_XP = "kill-no-xp"  # killed; the Hunter forfeits its XP
    HIT = "hit"  # one hit on a Mummy or Creature
    EXORCISE = "exorcise"  # the Angel frees the Demoniac
    DAMN = "damn"  # the Devil drags the Angel or Demoniac to Hell
    ATTACKER_DIES = "attacker-dies"  # a Vampire on a Priest
    REFLEX = "reflex"  # a Werewolf on a Hunter: silver at step 5
    ABDUCT = "abduct"  # the Alien
    CANNIBAL = "cannibal"  # Zombie on Zombie: the cannibal rule decides


def _row(default: Effect, **special: Effect) -> dict[Role, Effect]:
    row = dict.fromkeys(Role, default)
    for name, eff in special.items():
        row[Role[name]] = eff
    row[Role.DEATH] = Effect.NOTHING  # never a target
    return row


K, K0, N, X, H = Effect.KILL, Effect.KILL_NO_XP, Effect.NOTHING, Effect.MISS, Effect.HIT

#: The combat panels: attacker's real role -> target's real role -> effect.
#: One table decides every interaction, whatever the cards' editions (R-15).
_PANEL: Final[dict[Role, dict[Role, Effect]]] = {
    # monsters are fair game, guardians untouched, the Demoniac exorcised.
    Role.ANGEL: _row(K, HUNTER=N, PRIEST=N, REPORTER=N, VOODOOIST=N, ANGEL=N,
                     CREATURE=H, MUMMY=H, DEMONIAC=Effect.EXORCISE),
    # an illusion; it damns the Angel and the (unexorcised) Demoniac.
    Role.DEVIL: _row(N, ANGEL=Effect.DAMN, DEMONIAC=Effect.DAMN),
    #
    Role.VAMPIRE: _row(K, DEVIL=X, PRIEST=Effect.ATTACKER_DIES, CREATURE=H, MUMMY=H),
    #
    Role.WEREWOLF: _row(K, HUNTER=Effect.REFLEX, CREATURE=H, MUMMY=H),
    #
    Role.ZOMBIE: _row(K, DEVIL=X, NECROMANCER=N, ZOMBIE=Effect.CANNIBAL, CREATURE=H, MUMMY=H),
    #
    Role.HUNTER: _row(K, DEVIL=X, HUNTER=N, ANGEL=N, PRIEST=K0, DEMONIAC=K0, REPORTER=K0,
                      VOODOOIST=K0, CREATURE=H, MUMMY=H),
    # R-44 .. R-46
    Role.ALIEN: _row(Effect.ABDUCT, DEVIL=X, ANGEL=N, ALIEN=N, CREATURE=H, MUMMY=H),
}
PANEL: Final = MappingProxyType({k: MappingProxyType(v) for k, v in _PANEL.items()})


def effect(attacker: Role, target: Role) -> Effect:
    """The combat-panel effect of an attack by ``attacker`` on ``target`` (real roles)."""
    return _PANEL[attacker][target]


#: Names accepted in documents besides the canonical ones: the other English
#: translation and the Portuguese original (spec: "aliases").
ALIASES: Final[MappingProxyType[str, Role]] = MappingProxyType(
    {
        "demon": Role.DEVIL,
        "possessed": Role.DEMONIAC,
        "demônio": Role.DEVIL,
        "demonio": Role.DEVIL,
        "vampiro": Role.VAMPIRE,
        "lobisomem": Role.WEREWOLF,
        "zumbi": Role.ZOMBIE,
        "caçador": Role.HUNTER,
        "cacador": Role.HUNTER,
        "sacerdote": Role.PRIEST,
        "anjo": Role.ANGEL,
        "alienígena": Role.ALIEN,
        "alienigena": Role.ALIEN,
        "necromante": Role.NECROMANCER,
        "criatura": Role.CREATURE,
        "múmia": Role.MUMMY,
        "mumia": Role.MUMMY,
        "possuída": Role.DEMONIAC,
        "possuida": Role.DEMONIAC,
        "repórter": Role.REPORTER,
        "reporter": Role.REPORTER,
        "voduísta": Role.VOODOOIST,
        "voduista": Role.VOODOOIST,
        "morte": Role.DEATH,
    }
)

_BY_NAME: Final = {r.key: r for r in Role} | dict(ALIASES)


def parse_role(name: str) -> Role | None:
    """The role a document names (canonical name or alias, any case), or None."""
    return _BY_NAME.get(name.strip().lower())
