"""The login key's migrations (accounts 0003 and 0004), run by Django's
migration executor on accounts registered before the key, and the database they leave."""

import os
import sqlite3
import subprocess
import sys
from datetime import timedelta
from pathlib import Path

import pytest
from django.db import IntegrityError, connection, transaction
from django.db.migrations.executor import MigrationExecutor
from django.utils import timezone

BEFORE = [("accounts", "0002_player_active_moderatoraction")]
FILLED = [("accounts", "0003_user_login_key")]
UNIQUE = [("accounts", "0004_login_key_unique")]
ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def executor(transactional_db):
    """A database migrated back to before the key; forward to the latest afterwards."""
    executor = MigrationExecutor(connection)
    executor.migrate(BEFORE)
    yield executor
    executor.loader.build_graph()
    executor.migrate(executor.loader.graph.leaf_nodes())


def migrate(executor, target):
    executor.loader.build_graph()   # the executor's graph is of the state it last saw
    executor.migrate(target)
    return executor.loader.project_state(target).apps


def test_every_account_is_kept_and_lookalikes_are_reported(executor, capsys):
    OldUser = executor.loader.project_state(BEFORE).apps.get_model("accounts", "User")
    joined = timezone.now() - timedelta(days=30)
    # Oldest first.  "аuthA" begins with a Cyrillic "а"; "rnasha" reads as "masha".
    names = ["authA", "masha", "аuthA", "rnasha", "Ёжик", "Olya"]
    for days, name in enumerate(names):
        OldUser.objects.create(username=name, date_joined=joined + timedelta(days=days))

    User = migrate(executor, FILLED).get_model("accounts", "User")
    keys = dict(User.objects.values_list("username", "login_key"))
    assert sorted(keys) == sorted(names)
    # By hand: the skeleton of "autha" is itself; Cyrillic "а" -> "a"; "m" -> "rn".
    # The older account keeps the key, the later one gets key + "#" + its folded name.
    assert keys["authA"] == "autha" and keys["аuthA"] == "autha#аutha"
    assert keys["masha"] == "rnasha" and keys["rnasha"] == "rnasha#rnasha"
    assert keys["Olya"] == "olya" and "#" not in keys["Ёжик"]
    report = capsys.readouterr().out
    assert "Look-alike login names (2)" in report
    assert "'аuthA' looks like 'authA'" in report and "'rnasha' looks like 'masha'" in report

    User = migrate(executor, UNIQUE).get_model("accounts", "User")
    with pytest.raises(IntegrityError), transaction.atomic():
        User.objects.create(username="AUTHA-copy", login_key="autha")


def test_a_database_without_lookalikes_reports_nothing(executor, capsys):
    OldUser = executor.loader.project_state(BEFORE).apps.get_model("accounts", "User")
    OldUser.objects.create(username="masha")
    migrate(executor, UNIQUE)
    assert "Look-alike" not in capsys.readouterr().out


def test_after_the_migration_both_lookalikes_are_found_by_their_own_names(executor):
    OldUser = executor.loader.project_state(BEFORE).apps.get_model("accounts", "User")
    OldUser.objects.create(username="authA", date_joined=timezone.now() - timedelta(days=2))
    OldUser.objects.create(username="аuthA", date_joined=timezone.now() - timedelta(days=1))
    migrate(executor, executor.loader.graph.leaf_nodes())

    from accounts.models import User

    assert User.objects.by_login("AUTHA").get().username == "authA"
    assert User.objects.by_login("аUTHA").get().username == "аuthA"


@pytest.mark.slow
def test_a_stock_sqlite3_finds_the_migrated_database_sound(tmp_path):
    """The site's Unicode lower() (kozel_site/runtime/sqlite.py) once built an index that Python's
    own sqlite3, with SQLite's ASCII-only lower(), reported broken for Cyrillic names."""
    path = tmp_path / "site.sqlite3"
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "REDIS_URL")}
    env["SQLITE_PATH"] = str(path)
    manage = [sys.executable, str(ROOT / "manage.py")]
    subprocess.run([*manage, "migrate", "--noinput", "-v", "0"], env=env, cwd=ROOT, check=True)
    make_users = ("from accounts.models import User\n"
                  "for name in ('Маша', 'ЁЖИК', 'Olya'): User.objects.create_user(name, password='x')")
    subprocess.run([*manage, "shell", "-c", make_users], env=env, cwd=ROOT, check=True)
    with sqlite3.connect(path) as stock:
        assert stock.execute("PRAGMA integrity_check").fetchall() == [("ok",)]
        assert stock.execute("SELECT count(*) FROM accounts_user").fetchone() == (3,)
