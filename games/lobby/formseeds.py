"""The server seed of a table made by a lobby form, drawn when the form is shown
(RECORD.md, kozel-fair/1: every person's client seed is given after they were shown the
commitment -- the creator's too, bots' tables included).

The lobby page draws a seed for each of its forms (``draw``) and shows its commitment
beside the client seed; the form carries the seed's token, a random name that says
nothing of the seed.  The post that creates the table takes the seed by that token
(``take``), inside the transaction that creates the table: a token that is missing, was
never drawn (or for another person or form), is older than KOZEL_FORM_SEED_SECONDS or
was taken already is refused, and nothing is created.  The clock's sweep forgets the
seeds nobody used (``sweep``).
"""

from __future__ import annotations

import secrets
from datetime import timedelta

from django.conf import settings
from django.utils import timezone
from django.utils.translation import gettext as _

from games.models import FormSeed
from games.play import seeds
from games.play.errors import PlayError
from games.rules import fair

REQUEST, BOTS = "request", "bots"


def draw(user, form: str) -> FormSeed:
    """A new server seed for ``form`` (REQUEST or BOTS) shown to ``user``."""
    fields = seeds.seed_fields()
    return FormSeed.objects.create(token=secrets.token_urlsafe(32), user=user, form=form,
                                   server_seed=fields["server_seed"],
                                   commitment=fields["commitment"])


def _max_age() -> timedelta:
    return timedelta(seconds=settings.KOZEL_FORM_SEED_SECONDS)


def refused_message() -> str:
    return _("The deal's commitment of this form is missing, expired or used already: "
             "look at the new one and send the form again.")


def take(user, form: str, token: object) -> bytes:
    """The server seed drawn for ``user``'s ``form`` under ``token``, taken for good (call
    it inside the transaction that creates the table); PlayError("seed") if there is none
    to take."""
    if not isinstance(token, str) or not token or len(token) > 64:
        raise PlayError(refused_message(), "seed")
    drawn = (FormSeed.objects.select_for_update()
             .filter(token=token, user=user, form=form).first())
    if drawn is None:
        raise PlayError(refused_message(), "seed")
    drawn.delete()
    if drawn.created_at < timezone.now() - _max_age():
        raise PlayError(refused_message(), "seed")
    seed = bytes(drawn.server_seed)
    assert fair.commitment(seed) == drawn.commitment
    return seed


def sweep(now=None) -> int:
    """Forget the seeds drawn for forms that were never sent in time (the clock)."""
    now = now or timezone.now()
    deleted, _rows = FormSeed.objects.filter(created_at__lt=now - _max_age()).delete()
    return deleted
