"""The admin's own titles, worded for Russian in the site's catalogue (locale/ru).

Django's Russian puts a model's name, which is nominative ("партия"), into a sentence
that would need another case ("Просмотреть партия"); the site's catalogue words these
titles so that the nominative fits ("Просмотр: партия").  Its entries take precedence
over Django's (LOCALE_PATHS).  They are marked here only so that `make messages`, which
drops what it does not find in the source, keeps them.
"""

from axes.apps import AppConfig as AxesAppConfig
from django.utils.translation import gettext_lazy, gettext_noop

ADMIN_TITLES = (
    gettext_noop("Add %s"),
    gettext_noop("Change %s"),
    gettext_noop("View %s"),
    gettext_noop("Add %(name)s"),
    gettext_noop("Add another %(verbose_name)s"),
    gettext_noop("Select %s"),
    gettext_noop("Select %s to change"),
    gettext_noop("Select %s to view"),
)


# django-axes (the log-in throttle, whose lists moderators open to unlock an account)
# names its app "Axes" and leaves labels untranslated; the site's catalogue words them
# (locale/ru).  Its records' titles: kozel_site/runtime/axes_wording.py.
AXES_LABELS = (
    gettext_noop("Locked Out"),
    gettext_noop("User Agent"),
    gettext_noop("HTTP Accept"),
    gettext_noop("IP Address"),
    gettext_noop("Access Attempt"),
    gettext_noop("Attempt Remaining"),
    gettext_noop("Clean up expired attempts"),
    gettext_noop("Expires At"),
    gettext_noop("Not set"),
    gettext_noop("Session key hash (sha256)"),
    gettext_noop("The time when access attempt expires and is no longer valid."),
    gettext_noop("access attempt expiration"),
    gettext_noop("access attempt expirations"),
)


class AxesConfig(AxesAppConfig):
    """django-axes under a name a moderator reads, its records titled in the active
    language (INSTALLED_APPS names this instead of "axes"; the label stays "axes")."""

    verbose_name = gettext_lazy("Log-in protection")

    def ready(self):
        super().ready()
        from kozel_site.runtime import axes_wording

        axes_wording.install()
