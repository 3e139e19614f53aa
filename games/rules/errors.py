"""Typed errors of the rules service.  Every message is meant to be read by a player."""


class RulesError(ValueError):
    """Base of everything the rules service refuses."""


class MalformedAction(RulesError):
    """The input is not an action at all: wrong shape, wrong types, unknown tile or end."""


class IllegalAction(RulesError):
    """A well-formed action that the rules forbid in this state.

    ``code`` names the refusal and ``params`` its details (a tile, an end), so that the
    site can say it in the player's language; the message is the English wording.
    """

    def __init__(self, message: str, rule: str = "", code: str = "", **params) -> None:
        super().__init__(message)
        self.rule = rule  # the RULES.md section it breaks, e.g. "5.1"
        self.code = code
        self.params = params


class InvalidDeal(RulesError):
    """Hands and bazaar that are not a lawful deal (RULES.md 3)."""


class InvalidState(RulesError):
    """A serialized state that does not describe a possible game."""


class InvalidRecord(RulesError):
    """A game record that breaks RECORD.md or the rules; the message names round, move and rule."""
