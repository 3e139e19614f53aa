"""SQLite needs one fix to behave like PostgreSQL for this site.

SQLite's built-in lower() folds only ASCII letters, so "Маша" and "МАША" would not
collide under the case-insensitive unique constraint on login names. Each new SQLite
connection gets a Unicode-aware lower() in its place (deterministic, so it may back an
index). PostgreSQL's lower() already folds Cyrillic.
"""

from django.db.backends.signals import connection_created


def _lower(value):
    return value.lower() if isinstance(value, str) else value


def _install_unicode_lower(sender, connection, **kwargs):
    if connection.vendor == "sqlite":
        connection.connection.create_function("lower", 1, _lower, deterministic=True)


def connect():
    connection_created.connect(_install_unicode_lower, dispatch_uid="kozel-sqlite-lower")
