"""Login names that look alike: one key for all the names a reader could take for one another.

Login names are unique without regard to case, and without regard to look-alike letters:
"authA" with a Cyrillic "а" reads as "authA" on every page.  The key of a login name is
its confusable skeleton (Unicode TR39, from ICU's spoof checker, the standard's reference
implementation) of the case-folded name, case-folded once more: the skeleton maps digit
"0" to capital "O", and the second folding lets "0leg" meet "oleg".  Two names collide
when their keys are equal.

Accounts that collided before the key existed are all kept (see the data migration
accounts 0003): the earliest keeps the key, each later one gets a "clash key", the key,
CLASH_MARK and its own folded name, which no other name can have.
``manage.py lookalike_logins`` lists them for a moderator to resolve.

A known limit of the standard: case is folded before the skeleton, so capital "I" (read
as "l" in many fonts) counts as "i": "Ilya" and "llya" do not collide.
"""

from __future__ import annotations

import icu

# No skeleton of a valid login name holds it (skeletons of letters and digits are letters
# and digits), so a clash key never equals a key.
CLASH_MARK = "#"
# A letter's skeleton is at most two characters ("m" -> "rn", "ы" -> "ƅi"), and a clash key
# adds the mark and the name itself: 2 * 30 + 1 + 30 = 91.
LOGIN_KEY_MAX_LENGTH = 100

_spoof_checker = icu.SpoofChecker()


def login_key(login: str) -> str:
    """The key of a login name: equal for names that differ only in case or look alike."""
    folded = login.casefold()
    # The first argument (which table to use) has been ignored since ICU 55: always 0.
    return _spoof_checker.getSkeleton(0, folded).casefold()


def clash_key(login: str) -> str:
    """The key an account kept despite a look-alike older one: its own, and no other's."""
    return f"{login_key(login)}{CLASH_MARK}{login.casefold()}"


def keys_of(login: str) -> tuple[str, str]:
    """The two keys an account with this login name may hold."""
    return login_key(login), clash_key(login)
