"""The admin's own titles, worded for Russian in the site's catalogue (locale/ru).

Django's Russian puts a model's name, which is nominative ("партия"), into a sentence
that would need another case ("Просмотреть партия"); the site's catalogue words these
titles so that the nominative fits ("Просмотр: партия").  Its entries take precedence
over Django's (LOCALE_PATHS).  They are marked here only so that `make messages`, which
drops what it does not find in the source, keeps them.
"""

from django.utils.translation import gettext_noop

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
