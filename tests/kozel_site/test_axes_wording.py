"""django-axes' records are titled in the active language (kozel_site/runtime/axes_wording.py)."""

from datetime import datetime, timezone

import pytest
from axes.admin import AccessAttemptAdmin
from axes.models import AccessAttempt, AccessFailureLog, AccessLog
from django.utils import translation

from kozel_site.runtime import axes_wording

WHEN = datetime(2026, 12, 3, 9, 5, tzinfo=timezone.utc)


def test_the_version_it_was_written_for_is_the_one_installed():
    import axes

    assert axes.__version__.startswith(axes_wording.WRITTEN_FOR)


@pytest.mark.parametrize("language, log, attempt, failure, status", [
    ("ru", "Вход: masha, ", "Неудачные входы: masha, последний — ", "Неудачный вход: masha, ",
     "Состояние"),
    ("en", "Log-in of masha at ", "Failed log-ins of masha, the last at ",
     "Failed log-in of masha at ", "Status"),
])
def test_records_are_titled_in_the_active_language(language, log, attempt, failure, status):
    with translation.override(language):
        assert str(AccessLog(username="masha", attempt_time=WHEN)).startswith(log)
        assert str(AccessAttempt(username="masha", attempt_time=WHEN)).startswith(attempt)
        assert str(AccessFailureLog(username="masha", attempt_time=WHEN)).startswith(failure)
        assert str(AccessAttemptAdmin.status.short_description) == status
        assert "2026" in str(AccessLog(username="masha", attempt_time=WHEN))
