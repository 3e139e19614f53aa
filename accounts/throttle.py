"""Hooks for django-axes, which refuses log-ins after too many failures.

A login name is locked on one address (AXES_LOCKOUT_PARAMETERS) for AXES_COOLOFF_TIME
after AXES_FAILURE_LIMIT failures in a row; both come from the environment.
"""

import math

from django.conf import settings
from django.shortcuts import render


def login_name(request, credentials=None):
    """The login name tried, folded to lower case: "Masha" and "masha" count together."""
    source = credentials if credentials else getattr(request, "POST", {})
    name = source.get("username") or ""
    return name.strip().lower()


def locked_out(request, original_response=None, credentials=None):
    """The page a refused log-in gets: HTTP 429 and how long to wait."""
    minutes = max(1, math.ceil(settings.AXES_COOLOFF_TIME.total_seconds() / 60))
    return render(
        request,
        "accounts/locked_out.html",
        {"minutes": minutes, "failure_limit": settings.AXES_FAILURE_LIMIT},
        status=429,
    )
