"""darkcity: the rules of Dark City (Gustavo Barreto, 2018), exactly.

The public API::

    from darkcity import adjudicate, read_round, resolve
    result = adjudicate(document)  # darkcity-round/1 in, darkcity-result/1 out
"""

from darkcity.cast import CAST, Edition, Gender, Role
from darkcity.night import (
    Card,
    Event,
    Fate,
    Gesture,
    Mark,
    Night,
    NightResult,
    RoundError,
    resolve,
)
from darkcity.notation import adjudicate, read_round, result_document, write_round
from darkcity.validation import validate

__all__ = [
    "CAST",
    "Card",
    "Edition",
    "Event",
    "Fate",
    "Gender",
    "Gesture",
    "Mark",
    "Night",
    "NightResult",
    "Role",
    "RoundError",
    "adjudicate",
    "compiled",
    "read_round",
    "resolve",
    "result_document",
    "validate",
    "write_round",
]

#: darkcity's version, written here only (pyproject.toml reads it; CHANGELOG.md says
#: what each version brought).
__version__ = "0.1.0"


def compiled() -> bool:
    """Does the engine run as C extensions compiled by mypyc (a regular install, see
    ``setup.py``), rather than as its pure-Python modules (an editable install)?"""
    from darkcity import night

    return not night.__file__.endswith(".py")
