"""The lobby's forms remember a person's last choices (seats, fish, time per turn,
rated, private), per account: kept on their Player when a table is asked for, and the
forms' starting values the next time."""

from __future__ import annotations

from django import forms

# A client seed is the person's fresh randomness for one table (kozel-fair/1): a
# remembered one would deal every next table from the same seed.
# Nor is the token of the server seed drawn for the form (games/lobby/formseeds.py).
NOT_REMEMBERED = {"client_seed", "seed"}


def initial(user, name: str, form_class: type[forms.Form]) -> dict:
    """The ``name`` form's last choices of ``user`` that the form still has fields for."""
    player = getattr(user, "player", None) if user.is_authenticated else None
    terms = (player.table_terms or {}).get(name, {}) if player is not None else {}
    return {key: value for key, value in terms.items() if key in form_class.base_fields and key not in NOT_REMEMBERED}


def remember(user, name: str, form: forms.Form) -> None:
    """Keep the valid ``form``'s choices as ``user``'s last for ``name``."""
    player = getattr(user, "player", None)
    if player is None:
        return
    terms = dict(player.table_terms or {})
    terms[name] = {key: form.cleaned_data[key] for key in form.fields
                   if key not in NOT_REMEMBERED}
    if terms != player.table_terms:
        player.table_terms = terms
        player.save(update_fields=["table_terms"])
