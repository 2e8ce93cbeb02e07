"""The Mayor's words: every sentence the night's narration uses, in one place.

Each :class:`~darkcity.night.Event` names a message key; the templates below
take named parameters (``actor``, ``role``, ``target``, ``target_role``...).
The English template is the gettext message id; the catalogs in
``locale/`` translate it (``docs/i18n.md``). Role parameters are
:class:`~darkcity.i18n.Term` values, so a translation names them with the
article and contraction its grammar needs (``{target_role:de}``), never the
engine. :func:`event_message` is the language-neutral form a server sends to
each reader; :func:`render` is its text in one language.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Final

from darkcity.cast import Role
from darkcity.i18n import Message, Term, Translator, _, as_translator
from darkcity.night import Event, Night
from darkcity.terms import GENDER_NAMES, ROLE_TERMS, role_term

__all__ = [
    "GENDER_NAMES", "MESSAGES", "ROLE_NAMES", "WHY_KEYS", "event_message", "event_params",
    "messages", "render", "render_all",
]

#: Role names as the Mayor says them (Devir edition): the message ids of
#: :data:`darkcity.terms.ROLE_TERMS`.
ROLE_NAMES: Final[dict[Role, str]] = {r: t.name for r, t in ROLE_TERMS.items()}

_UNKNOWN: Final = Term("?", "?")  # not a message: shown as is

#: Event key -> template. Parameters: actor, role (the actor's real role),
#: target, target_role, other (a third player), shown, kind, seeks, xp.
MESSAGES: Final[dict[str, str]] = {
    "out-no-action": _("{role:The} ({actor}) is already out of the night and does not act."),
    "forfeit-withdrawn": _("{role:The} ({actor}) attacks {target}, who fled: "
                           "the attack is forfeit."),
    "forfeit-removed": _("{role:The} ({actor}) attacks {target}, who is already gone: "
                         "the attack is forfeit."),
    "miss-devil": _("{role:The} ({actor}) attacks the Devil ({target}) and misses: "
                    "it was an illusion."),
    "immune-flash": _("{role:The} ({actor}) attacks the Reporter ({target}), whose flash "
                      "blinds them: the attack fails."),
    "immune-doll": _("{role:The} ({actor}) attacks the Voodooist ({target}), who pierces the "
                     "{role}'s doll: the attack fails."),
    "kill": _("{role:The} ({actor}) kills {target_role:the} ({target})."),
    "kill-guardian": _("{role:The} ({actor}) kills {target_role:the} ({target}), "
                       "a fellow guardian."),
    "abduct": _("{role:The} ({actor}) abducts {target_role:the} ({target})."),
    "hit": _("{role:The} ({actor}) strikes {target_role:the} ({target})."),
    "no-effect": _("{role:The} ({actor}) attacks {target_role:the} ({target}), "
                   "to no effect."),
    "wounded": _("{role:The} ({actor}) is wounded, but stands."),
    "awakened": _("{role:The} ({actor}) awakens from eternal slumber."),
    "tough-killed": _("{role:The} ({actor}) takes a second hit and is killed."),
    "tough-abducted": _("{role:The} ({actor}) takes a second hit and is abducted."),
    "dies-on-priest": _("{role:The} ({actor}) attacks the Priest ({target}) and is "
                        "destroyed by faith."),
    "attacks-hunter": _("{role:The} ({actor}) attacks the Hunter ({target}): "
                        "silver-tipped bolts await it."),
    "exorcise": _("{role:The} ({actor}) exorcises the Demoniac ({target})."),
    "attacks-zombie": _("{role:The} ({actor}) attacks the Zombie ({target})."),
    "devil-reveals": _("The Devil ({actor}) reveals itself: it was showing {shown:the}."),
    "damn": _("The Devil ({actor}) drags {target_role:the} ({target}) down to Hell."),
    "zombie-switches": _("The Zombie ({actor}) turns from {other} to {target}."),
    "cannibals": _("The Zombies {actor} and {target} sit side by side and devour each other."),
    "arrow-withdrawn": _("The Hunter ({actor}) lowers the bolt aimed at {target}."),
    # a Hunter's second bolt at the player of the first (R-33: two attacks, told once)
    "second-bolt": _("The Hunter ({actor}) looses the second bolt at {target} too."),
    "reflex": _("{target_role:The} ({target}) attacked the Hunter ({actor}) and is killed "
                "by silver."),
    "alien-finds-none": _("The Alien ({actor}) finds no {kind} to abduct."),
    "raise": _("The Necromancer ({actor}) raises {target_role:the} ({target}) as an undead "
               "servant."),
    "raise-resisted": _("The Necromancer ({actor}) cannot raise {target_role:the} ({target})."),
    "proposal-forfeit": _("The Creature ({actor}) proposes to {target}, who is no longer "
                          "there."),
    "proposal-ignored": _("{target_role:The} ({target}) ignores the proposal of the Creature "
                          "({actor})."),
    "proposal": _("The Creature ({actor}) proposes to {target}, who reveals "
                  "{target_role:the}."),
    "marry": _("The Creature ({actor}) marries {target_role:the} ({target})."),
    "proposal-wrong-gender": _("The Creature ({actor}) sought a {seeks} spouse; "
                               "{target_role:the} ({target}) is not: no wedding."),
    "photo": _("The Reporter ({actor}) brings back a photo of {target_role:the} ({target})."),
    "photo-worthless": _("The Reporter's ({actor}) photo of {target_role:the} ({target}) is "
                         "worthless."),
    "mummy-awake": _("The Mummy ({actor}) shambles free of the sarcophagus."),
    "mummy-sleeps": _("The Mummy ({actor}) sleeps on."),
    "demoniac-freed": _("The Demoniac ({actor}) has found the death she longed for."),
    "demoniac-dies-exorcised": _("The former Demoniac ({actor}) dies, though she was freed."),
    "death-harvests": _("Death ({actor}) reveals the name {target}, and takes "
                        "{target_role:the}."),
    "death-empty": _("Death ({actor}) reveals the name {target}, and leaves empty-handed."),
    "xp": _("{actor} earns {xp} XP as {role:the}."),
    # Phase 5 for a player who scores nothing: the rule's reason, as the role's goal
    # function in darkcity.night decides it (the rulings cited there).
    "why-withdrew": _("{actor} earns no XP: whoever withdraws earns nothing."),
    "why-killed-early": _("{actor} earns no XP: {role:the} was killed before its turn "
                          "came."),
    "why-abducted-early": _("{actor} earns no XP: {role:the} was abducted before its turn "
                            "came."),
    "why-killed": _("{actor} earns no XP: {role:the} had to survive the night, and was "
                    "killed."),
    "why-damned": _("{actor} earns no XP: {role:the} had to survive the night, and was "
                    "dragged to Hell."),
    "why-abducted": _("{actor} earns no XP: {role:the} had to survive the night, and was "
                      "abducted."),
    "why-target-fled": _("{actor} earns no XP: {target} withdrew, and the attack was "
                         "forfeit."),
    "why-target-gone": _("{actor} earns no XP: {target} was already out of the night; "
                         "someone got there first."),
    "why-target-devil": _("{actor} earns no XP: {target} was the Devil, whom only the "
                          "Werewolf or the Angel can kill."),
    "why-immune-flash": _("{actor} earns no XP: the Reporter ({target}) was aiming at "
                          "{role:the}, and is immune to his own targets."),
    "why-immune-doll": _("{actor} earns no XP: the Voodooist ({target}) had chosen the doll "
                         "of {role:the}, and is immune to its attack."),
    "why-not-on-list": _("{actor} earns no XP: {target_role:the} ({target}) is not one "
                         "{role:the} can kill."),
    "why-first-hit": _("{actor} earns no XP: {target_role:the} ({target}) took only a first "
                       "hit, and stands."),
    "why-two-hits-at-once": _("{actor} earns no XP: {target_role:the} ({target}) took two "
                              "hits at once; only killing one already hit counts."),
    "why-attacked-priest": _("{actor} earns no XP: {role:the} attacked a Priest ({target})."),
    "why-attacked-hunter": _("{actor} earns no XP: {role:the} attacked a Hunter ({target})."),
    "why-hunter-guardian": _("{actor} earns no XP: {role:the} killed a guardian, "
                             "{target_role:the} ({target})."),
    "why-no-kill": _("{actor} earns no XP: {role:the} killed nobody."),
    "why-no-bolt": _("{actor} earns no XP: neither bolt killed a player the Hunter scores "
                     "for."),
    "why-no-kill-many": _("{actor} earns no XP: no attack of {role:the} killed a player "
                          "it scores for."),
    "why-alien-none": _("{actor} earns no XP: no {kind} was in play to abduct."),
    "why-devil-nobody-withdrew": _("{actor} earns no XP: nobody withdrew, and the Devil "
                                   "scores only when someone it fooled flees."),
    "why-devil-not-fooled": _("{actor} earns no XP: nobody who withdrew had been fooled by "
                              "the Devil showing {shown:the}."),
    "why-devil-basic-damn": _("{actor} earns no XP: only the advanced Devil scores for "
                              "damning a soul, and nobody it fooled withdrew."),
    "why-raise-resisted": _("{actor} earns no XP: {target_role:the} ({target}) resisted the "
                            "spell, and no servant rose."),
    "why-no-corpse": _("{actor} earns no XP: neither neighbour left a corpse the Necromancer "
                       "could raise."),
    "why-proposal-gone": _("{actor} earns no XP: {target} was no longer there to marry."),
    "why-proposal-immune": _("{actor} earns no XP: {target_role:the} ({target}) is immune to "
                             "the Creature's proposal."),
    "why-wrong-gender": _("{actor} earns no XP: the Creature sought a {seeks} spouse, and "
                          "{target_role:the} ({target}) is not one."),
    "why-mummy-sleeps": _("{actor} earns no XP: nobody struck the Mummy, who needed one hit, "
                          "and only one."),
    "why-mummy-two-hits": _("{actor} earns no XP: the Mummy took a second hit; it needed one, "
                            "and only one."),
    "why-demoniac-lived": _("{actor} earns no XP: the Demoniac longed for death, and lived."),
    "why-demoniac-damned": _("{actor} earns no XP: the Devil dragged the Demoniac to Hell, "
                             "which earns her nothing."),
    "why-demoniac-exorcised": _("{actor} earns no XP: once exorcised, she had to survive, and "
                                "was killed."),
    "why-photo-worthless": _("{actor} earns no XP: neither photo shows a living monster "
                             "(not the Devil) or an undead servant."),
    "why-death-spared": _("{actor} earns no XP: {target}, the name Death wrote, came through "
                          "the night."),
    "why-death-fled": _("{actor} earns no XP: {target}, the name Death wrote, withdrew."),
    "why-death-damned": _("{actor} earns no XP: {target} was dragged to Hell, which Death "
                          "does not count."),
    "why-death-raised": _("{actor} earns no XP: {target} was raised as an undead servant, "
                          "which Death does not count."),
}

#: The keys of Phase 5's "no XP" lines, each the reason its role's goal was unmet.
WHY_KEYS: Final = frozenset(k for k in MESSAGES if k.startswith("why-"))


def event_params(
    event: Event, night: Night, translate: Callable[[str], str] | None = None
) -> dict[str, object]:
    """The template parameters of ``event``: player names, numbers and role terms.

    ``translate`` is accepted for compatibility and unused: role names are
    :class:`~darkcity.i18n.Term` values, named by whoever renders.
    """
    players = night.players
    cards = night.cards
    return _params(event, night, players, [role_term(cards[p].role) for p in players])


def _params(event: Event, night: Night, players: tuple[str, ...], terms: list[Term]
            ) -> dict[str, object]:
    a = event.actor
    x = event.target
    if x >= 0:
        params: dict[str, object] = {"actor": players[a], "role": terms[a],
                                     "target": players[x], "target_role": terms[x]}
    else:
        params = {"actor": players[a], "role": terms[a]}
    key = event.key
    if key == "devil-reveals" or key == "why-devil-not-fooled":
        params["shown"] = role_term(Role(event.other))
    elif key == "alien-finds-none" or key == "why-alien-none":
        params["kind"] = role_term(Role(event.other)) if event.other >= 0 else _UNKNOWN
    elif key == "zombie-switches":
        params["other"] = players[event.other]
    elif key == "xp":
        params["xp"] = event.other
    elif key == "proposal-wrong-gender" or key == "why-wrong-gender":
        g = night.gestures[players[a]].seeks
        params["seeks"] = Message(GENDER_NAMES[g]) if g is not None else Message("?")
    return params


def event_message(event: Event, night: Night) -> Message:
    """What the Mayor says for ``event``, as a message any reader renders."""
    return Message(MESSAGES[event.key], event_params(event, night))


def render(event: Event, night: Night, translate: Callable[[str], str] | None = None) -> str:
    """The sentence the Mayor reads for ``event``, in ``translate``'s language.

    ``translate`` is a :class:`~darkcity.i18n.Translator` (from
    :func:`darkcity.i18n.translator`); ``None`` or ``str`` is English.
    """
    return as_translator(translate).format(MESSAGES[event.key], event_params(event, night))


def _second_bolt(events: Sequence[Event], i: int, night: Night) -> bool:
    """Whether ``events[i]`` is a Hunter's second bolt with the first's outcome on the
    same player (the event just before it): a Mayor says "the second bolt too", not
    the first's sentence again. The event stays in the night (R-33: two attacks)."""
    if i == 0:
        return False
    e, before = events[i], events[i - 1]
    return (e.target >= 0 and e.key == before.key and e.actor == before.actor
            and e.target == before.target and e.step == before.step
            and e.key in _BOLT_OUTCOMES
            and night.cards[night.players[e.actor]].role is Role.HUNTER)


#: What a bolt can do that a second bolt on the same player would only repeat.
_BOLT_OUTCOMES: Final = frozenset({
    "kill", "kill-guardian", "miss-devil", "immune-flash", "immune-doll", "no-effect",
    "forfeit-withdrawn", "forfeit-removed"})


def _second_bolt_message(e: Event, night: Night) -> Message:
    players = night.players
    return Message(MESSAGES["second-bolt"], {"actor": players[e.actor],
                                             "target": players[e.target]})


def messages(events: Sequence[Event], night: Night) -> list[Message]:
    """What the Mayor says for each of a night's ``events`` (in order, one per event),
    as messages any reader renders: :func:`event_message`, but a Hunter's second bolt
    on the player of the first is said as such."""
    return [_second_bolt_message(e, night) if _second_bolt(events, i, night)
            else event_message(e, night) for i, e in enumerate(events)]


def render_all(
    events: Sequence[Event], night: Night, translate: Callable[[str], str] | None = None
) -> list[str]:
    """The sentences of a night's events, in order, one per event: :func:`render` for
    each, faster; a Hunter's second bolt on the player of the first is said as such
    (:func:`messages`). Every face tells a night through this or :func:`messages`."""
    t = as_translator(translate)
    players = night.players
    cards = night.cards
    roles = [cards[p].role for p in players]
    memo = _SENTENCES
    out = []
    for i, e in enumerate(events):
        key = e.key
        if key in _BOLT_OUTCOMES and _second_bolt(events, i, night):
            out.append(t.render(_second_bolt_message(e, night)))
            continue
        if key == "proposal-wrong-gender" or key == "why-wrong-gender":  # reads the gesture
            terms = [role_term(r) for r in roles]
            out.append(t.format(MESSAGES[key], _params(e, night, players, terms)))
            continue
        x = e.target
        other = e.other
        third = ""
        if key == "zombie-switches":
            third = players[other]
            other = -1
        target_role = roles[x] if x >= 0 else None
        k = (t, key, roles[e.actor], target_role, other)
        parts = memo.get(k)
        if parts is None:
            if len(memo) >= 1 << 16:
                memo.clear()
            parts = memo[k] = _sentence(t, key, roles[e.actor], target_role, other)
        names = (players[e.actor], players[x] if x >= 0 else "", third)
        text = parts[0]
        for i in range(1, len(parts), 2):
            text += names[int(parts[i])] + parts[i + 1]
        out.append(text)
    return out


# Stand-ins for the names while a sentence is memoized (no message holds them).
_ACTOR, _TARGET, _OTHER = "\x1a0\x1a", "\x1a1\x1a", "\x1a2\x1a"
#: (translator, event key, role, target's role, other) -> the sentence's parts.
_SENTENCES: Final[dict[tuple[Translator, str, Role, Role | None, int], list[str]]] = {}


def _sentence(t: Translator, key: str, role: Role, target_role: Role | None,
              other: int) -> list[str]:
    """The sentence of an event between roles, cut where the names go: text, name
    index (0 the actor, 1 the target, 2 a third player), text, name index... text.

    A pure function of the roles, memoized by :func:`render_all`: a night's names
    change from table to table, but the sentences between roles are few. The names
    are put in last, and nothing in them is read.
    """
    params: dict[str, object] = {"actor": _ACTOR, "role": role_term(role)}
    if target_role is not None:
        params["target"] = _TARGET
        params["target_role"] = role_term(target_role)
    if key == "devil-reveals" or key == "why-devil-not-fooled":
        params["shown"] = role_term(Role(other))
    elif key == "alien-finds-none" or key == "why-alien-none":
        params["kind"] = role_term(Role(other)) if other != -1 else _UNKNOWN
    elif key == "zombie-switches":
        params["other"] = _OTHER
    elif key == "xp":
        params["xp"] = other
    return t.format(MESSAGES[key], params).split("\x1a")
