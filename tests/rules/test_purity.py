"""The rules service is pure Python: nothing under games/rules imports Django, the
database or the other apps (DESIGN.md); the rating formulas are pure as well."""

import pathlib
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parents[2]


def test_importing_every_rules_module_loads_no_django_and_no_database():
    modules = sorted(p.stem for p in (ROOT / "games" / "rules").glob("*.py") if p.stem != "__init__")
    code = (
        "import sys\n"
        + "".join(f"import games.rules.{m}\n" for m in modules)
        + "import ratings.formulas\n"
        + "bad = sorted(m for m in sys.modules if m.split('.')[0] in "
          "('django', 'channels', 'psycopg', 'redis', 'daphne') or m in "
          "('games.models', 'ratings.models', 'sqlite3'))\n"
        + "print(','.join(bad))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True,
                         check=True)
    assert out.stdout.strip() == "", f"games.rules pulled in: {out.stdout}"
    assert len(modules) >= 8


def test_the_rules_import_nothing_from_the_other_apps():
    # The replay command joins the rules and the rating formulas (RECORD.md): the rules
    # themselves do not reach for them, nor for anything else of the site.
    modules = sorted(p.stem for p in (ROOT / "games" / "rules").glob("*.py"))
    code = (
        "import sys\n"
        + "".join(f"import games.rules.{m}\n" for m in modules if m != "__init__")
        + "import games.rules\n"
        + "print(','.join(sorted(m for m in sys.modules if m.split('.')[0] in "
          "('ratings', 'accounts', 'kozel_site') or (m.startswith('games.') and not "
          "m.startswith('games.rules')))))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True,
                         check=True)
    assert out.stdout.strip() == "", f"games.rules pulled in: {out.stdout}"
