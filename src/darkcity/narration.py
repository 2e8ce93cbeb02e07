"""The Mayor's words: every sentence the night's narration uses, in one place.

Each :class:`~darkcity.night.Event` names a message key; the templates below
take named parameters (``actor``, ``role``, ``target``, ``target_role``...).
A translation replaces the templates and the role names (gettext style:
the English text is the message id), never the engine.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Final

from darkcity.cast import Gender, Role
from darkcity.night import Event, Night

__all__ = ["MESSAGES", "ROLE_NAMES", "event_params", "render"]


def _(message: str) -> str:
    """Marks a message for extraction; translation happens in :func:`render`."""
    return message


#: Role names as the Mayor says them (Devir edition).
ROLE_NAMES: Final[dict[Role, str]] = {
    Role.DEVIL: _("Devil"),
    Role.VAMPIRE: _("Vampire"),
    Role.WEREWOLF: _("Werewolf"),
    Role.ZOMBIE: _("Zombie"),
    Role.HUNTER: _("Hunter"),
    Role.PRIEST: _("Priest"),
    Role.ANGEL: _("Angel"),
    Role.ALIEN: _("Alien"),
    Role.NECROMANCER: _("Necromancer"),
    Role.CREATURE: _("Creature"),
    Role.MUMMY: _("Mummy"),
    Role.DEMONIAC: _("Demoniac"),
    Role.REPORTER: _("Reporter"),
    Role.VOODOOIST: _("Voodooist"),
    Role.DEATH: _("Death"),
}

GENDER_NAMES: Final[dict[Gender, str]] = {
    Gender.FEMININE: _("feminine"),
    Gender.MASCULINE: _("masculine"),
    Gender.NEUTRAL: _("neutral"),
}

#: Event key -> template. Parameters: actor, role (the actor's real role),
#: target, target_role, other (a third player), shown, kind, seeks, xp.
MESSAGES: Final[dict[str, str]] = {
    "out-no-action": _("The {role} ({actor}) is already out of the night and does not act."),
    "forfeit-withdrawn": _("The {role} ({actor}) attacks {target}, who fled: "
                           "the attack is forfeit."),
    "forfeit-removed": _("The {role} ({actor}) attacks {target}, who is already gone: "
                         "the attack is forfeit."),
    "miss-devil": _("The {role} ({actor}) attacks the Devil ({target}) and misses: "
                    "it was an illusion."),
    "immune-flash": _("The {role} ({actor}) attacks the Reporter ({target}), whose flash "
                      "blinds them: the attack fails."),
    "immune-doll": _("The {role} ({actor}) attacks the Voodooist ({target}), who pierces the "
                     "{role}'s doll: the attack fails."),
    "kill": _("The {role} ({actor}) kills the {target_role} ({target})."),
    "kill-guardian": _("The {role} ({actor}) kills the {target_role} ({target}), "
                       "a fellow guardian."),
    "abduct": _("The {role} ({actor}) abducts the {target_role} ({target})."),
    "hit": _("The {role} ({actor}) strikes the {target_role} ({target})."),
    "no-effect": _("The {role} ({actor}) attacks the {target_role} ({target}), "
                   "to no effect."),
    "wounded": _("The {role} ({actor}) is wounded, but stands."),
    "awakened": _("The {role} ({actor}) awakens from eternal slumber."),
    "tough-killed": _("The {role} ({actor}) takes a second hit and is killed."),
    "tough-abducted": _("The {role} ({actor}) takes a second hit and is abducted."),
    "dies-on-priest": _("The {role} ({actor}) attacks the Priest ({target}) and is "
                        "destroyed by faith."),
    "attacks-hunter": _("The {role} ({actor}) attacks the Hunter ({target}): "
                        "silver-tipped bolts await it."),
    "exorcise": _("The {role} ({actor}) exorcises the Demoniac ({target})."),
    "attacks-zombie": _("The {role} ({actor}) attacks the Zombie ({target})."),
    "devil-reveals": _("The Devil ({actor}) reveals itself: it was showing the {shown}."),
    "damn": _("The Devil ({actor}) drags the {target_role} ({target}) down to Hell."),
    "zombie-switches": _("The Zombie ({actor}) turns from {other} to {target}."),
    "cannibals": _("The Zombies {actor} and {target} sit side by side and devour each other."),
    "arrow-withdrawn": _("The Hunter ({actor}) lowers the bolt aimed at {target}."),
    "reflex": _("The {target_role} ({target}) attacked the Hunter ({actor}) and is killed "
                "by silver."),
    "alien-finds-none": _("The Alien ({actor}) finds no {kind} to abduct."),
    "raise": _("The Necromancer ({actor}) raises the {target_role} ({target}) as an undead "
               "servant."),
    "raise-resisted": _("The Necromancer ({actor}) cannot raise the {target_role} ({target})."),
    "proposal-forfeit": _("The Creature ({actor}) proposes to {target}, who is no longer "
                          "there."),
    "proposal-ignored": _("The {target_role} ({target}) ignores the proposal of the Creature "
                          "({actor})."),
    "marry": _("The Creature ({actor}) marries the {target_role} ({target})."),
    "proposal-wrong-gender": _("The Creature ({actor}) sought a {seeks} spouse; the "
                               "{target_role} ({target}) is not: no wedding."),
    "photo": _("The Reporter ({actor}) brings back a photo of the {target_role} ({target})."),
    "photo-worthless": _("The Reporter's ({actor}) photo of the {target_role} ({target}) is "
                         "worthless."),
    "mummy-awake": _("The Mummy ({actor}) shambles free of the sarcophagus."),
    "mummy-sleeps": _("The Mummy ({actor}) sleeps on."),
    "demoniac-freed": _("The Demoniac ({actor}) has found the death she longed for."),
    "demoniac-dies-exorcised": _("The former Demoniac ({actor}) dies, though she was freed."),
    "death-harvests": _("Death ({actor}) reveals the name {target}, and takes the "
                        "{target_role}."),
    "death-empty": _("Death ({actor}) reveals the name {target}, and leaves empty-handed."),
    "xp": _("{actor} earns {xp} XP as the {role}."),
}


def event_params(
    event: Event, night: Night, translate: Callable[[str], str] = str
) -> dict[str, object]:
    """The template parameters of ``event``, with role names translated."""
    players = night.players
    cards = night.cards
    actor = players[event.actor]
    role = cards[actor].role
    params: dict[str, object] = {"actor": actor, "role": translate(ROLE_NAMES[role])}
    if event.target >= 0:
        target = players[event.target]
        params["target"] = target
        params["target_role"] = translate(ROLE_NAMES[cards[target].role])
    key = event.key
    if key == "devil-reveals":
        params["shown"] = translate(ROLE_NAMES[Role(event.other)])
    elif key == "alien-finds-none":
        params["kind"] = translate(ROLE_NAMES[Role(event.other)]) if event.other >= 0 else "?"
    elif key == "zombie-switches":
        params["other"] = players[event.other]
    elif key == "xp":
        params["xp"] = event.other
    elif key == "proposal-wrong-gender":
        g = night.gestures[actor].seeks
        params["seeks"] = translate(GENDER_NAMES[g]) if g is not None else "?"
    return params


def render(event: Event, night: Night, translate: Callable[[str], str] = str) -> str:
    """The sentence the Mayor reads for ``event``."""
    return translate(MESSAGES[event.key]).format(**event_params(event, night, translate))
