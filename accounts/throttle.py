"""Hooks for django-axes, which refuses log-ins after too many failures.

Two locks, both for AXES_COOLOFF_TIME:

- a login name on one address (AXES_LOCKOUT_PARAMETERS) after AXES_FAILURE_LIMIT failures
  in a row: someone guessing one player's password;
- a whole address after LOGIN_ADDRESS_FAILURE_LIMIT failures across any names: someone
  trying a few passwords on many names. The limit is higher, as one address may be a
  family or a school behind one router.

django-axes 8.3 has one failure limit for all its lockout parameters (it takes the
largest count among them), so the address-wide lock is added by a handler of our own
instead of listing "ip_address" there, which would lock an address at the lower limit and
let a log-in on the attacker's own account clear the address's count.
"""

import math

from axes.handlers.database import AxesDatabaseHandler
from axes.models import AccessAttempt
from django.conf import settings
from django.db.models import Sum
from django.shortcuts import render
from django.utils import timezone


def login_name(request, credentials=None):
    """The login name tried, folded to lower case: "Masha" and "masha" count together."""
    source = credentials if credentials else getattr(request, "POST", {})
    name = source.get("username") or ""
    return name.strip().lower()


def address_failures(ip_address: str) -> int:
    """Failed log-ins from this address, under any name, within the lock's period."""
    since = timezone.now() - settings.AXES_COOLOFF_TIME
    failures = AccessAttempt.objects.filter(ip_address=ip_address, attempt_time__gte=since)
    return failures.aggregate(total=Sum("failures_since_start"))["total"] or 0


def address_locked(ip_address: str) -> bool:
    return address_failures(ip_address) >= settings.LOGIN_ADDRESS_FAILURE_LIMIT


class NameAndAddressHandler(AxesDatabaseHandler):
    """django-axes' database handler, also locking an address that failed too often."""

    def is_locked(self, request, credentials=None) -> bool:
        return super().is_locked(request, credentials) or address_locked(request.axes_ip_address)


def locked_out(request, original_response=None, credentials=None):
    """The page a refused log-in gets: HTTP 429, what is locked and how long to wait."""
    minutes = max(1, math.ceil(settings.AXES_COOLOFF_TIME.total_seconds() / 60))
    return render(
        request,
        "accounts/locked_out.html",
        {"minutes": minutes, "failure_limit": settings.AXES_FAILURE_LIMIT,
         "whole_address": address_locked(request.axes_ip_address)},
        status=429,
    )
