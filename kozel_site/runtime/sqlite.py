"""SQLite needs one fix to behave like PostgreSQL for this site.

SQLite's built-in lower() folds only ASCII letters, so a search for login names starting
with "маш" would miss "Маша". Each new SQLite connection gets a Unicode-aware lower() in
its place. PostgreSQL's lower() already folds Cyrillic.

No index may use it: a stock sqlite3 (the command-line shell, a backup tool) checks and
updates indexes with SQLite's own lower(), and reports such an index broken.  Login names
are kept unique by their key column instead (accounts.logins).
"""

from django.db.backends.signals import connection_created


def _lower(value):
    return value.lower() if isinstance(value, str) else value


def _install_unicode_lower(sender, connection, **kwargs):
    if connection.vendor == "sqlite":
        connection.connection.create_function("lower", 1, _lower, deterministic=True)


def connect():
    connection_created.connect(_install_unicode_lower, dispatch_uid="kozel-sqlite-lower")
