"""django-axes' admin pages in the active language, for the moderators who open them to
lift a log-in lock.

django-axes 8 titles its records with English f-strings (``AccessLog.__str__``: "Access
Log for masha @ ..."), which no catalogue can translate, and its access attempts' status
column has no description, so the admin titles it "Status" from the method's name.  The
titles are replaced by ones worded in the site's catalogue, and the column is given a
translatable description.  The patch touches django-axes' models and admin class: it is
checked against the version it was written for.
"""

from __future__ import annotations

import axes
from django.utils.translation import gettext, gettext_lazy

from kozel_site.runtime import require_version

WRITTEN_FOR = "8."


def install() -> None:
    """Word django-axes' record titles and status column (once the apps are loaded)."""
    from axes.admin import AccessAttemptAdmin
    from axes.models import AccessAttempt, AccessFailureLog, AccessLog

    require_version("axes_wording", "django-axes", axes.__version__, WRITTEN_FOR,
                    "its models' __str__ and AccessAttemptAdmin.status")
    AccessLog.__str__ = lambda log: gettext("Log-in of %(login)s at %(time)s") % {
        "login": log.username, "time": _when(log.attempt_time)}
    AccessAttempt.__str__ = lambda attempt: gettext(
        "Failed log-ins of %(login)s, the last at %(time)s") % {
        "login": attempt.username, "time": _when(attempt.attempt_time)}
    AccessFailureLog.__str__ = lambda failure: gettext(
        "Failed log-in of %(login)s at %(time)s") % {
        "login": failure.username, "time": _when(failure.attempt_time)}
    AccessAttemptAdmin.status.short_description = gettext_lazy("Status")


def _when(moment) -> str:
    from django.utils import formats, timezone

    if moment is None:
        return "—"
    return formats.date_format(timezone.localtime(moment), "DATETIME_FORMAT")
