"""bin/ensure-browser, which `make test` runs before pytest: Debian's Chromium if it is
there, else apt-get as root, else Playwright's download, else one line saying what to
install. Each step is reached by pointing the script's variables at stand-ins: a
Chromium path that exists or not, and apt-get and Playwright commands that are absent,
fail, or succeed and write down how they were called."""

import os
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "bin" / "ensure-browser"
MISSING_LINE = ("make test needs Chromium for its browser tests: apt-get install -y chromium "
                "(as root), or .venv/bin/python -m playwright install chromium")
as_root_only = pytest.mark.skipif(os.geteuid() != 0, reason="apt-get is only tried as root")


def stand_in(path: Path, log: Path, status: int = 0, creates: Path | None = None) -> str:
    """A command that appends its name and arguments to ``log`` and exits with ``status``
    (making the file ``creates`` first, as apt-get install makes /usr/bin/chromium). One
    that fails says why on its stderr, as the real ones do."""
    make = f'touch "{creates}"; chmod +x "{creates}"\n' if creates else ""
    complain = f'echo "{path.name}: no network" >&2\n' if status else ""
    path.write_text(f'#!/bin/sh\necho "{path.name} $* DEBIAN_FRONTEND=${{DEBIAN_FRONTEND:-}}" '
                    f'>> "{log}"\n{make}{complain}exit {status}\n')
    path.chmod(0o755)
    return str(path)


def ensure(chromium, apt_get, playwright):
    env = dict(os.environ, KOZEL_CHROMIUM=str(chromium), KOZEL_APT_GET=apt_get,
               KOZEL_PLAYWRIGHT=playwright)
    env.pop("DEBIAN_FRONTEND", None)  # the script must set it itself
    return subprocess.run([str(SCRIPT)], env=env, capture_output=True, text=True, timeout=60)


def calls(log: Path) -> list[str]:
    return log.read_text().splitlines() if log.exists() else []


def test_debians_chromium_present_is_used_and_nothing_is_installed(tmp_path):
    chromium = tmp_path / "chromium"
    chromium.write_text("#!/bin/sh\n")
    chromium.chmod(0o755)
    log = tmp_path / "calls"
    done = ensure(chromium, stand_in(tmp_path / "apt-get", log),
                  stand_in(tmp_path / "playwright", log))
    assert (done.returncode, done.stderr) == (0, "")
    assert calls(log) == []


@as_root_only
def test_as_root_debians_chromium_is_installed_with_apt_get(tmp_path):
    chromium = tmp_path / "chromium"
    log = tmp_path / "calls"
    done = ensure(chromium, stand_in(tmp_path / "apt-get", log, creates=chromium),
                  stand_in(tmp_path / "playwright", log))
    assert (done.returncode, done.stderr) == (0, ""), done.stdout
    # Non-interactive both times; Playwright is not needed once Chromium is there.
    assert calls(log) == [
        "apt-get update -qq DEBIAN_FRONTEND=noninteractive",
        "apt-get install -y -qq --no-install-recommends chromium DEBIAN_FRONTEND=noninteractive",
    ]


def test_without_apt_get_playwrights_chromium_is_downloaded(tmp_path):
    log = tmp_path / "calls"
    done = ensure(tmp_path / "no-chromium", str(tmp_path / "no-apt-get"),
                  stand_in(tmp_path / "playwright", log))
    assert (done.returncode, done.stderr) == (0, ""), done.stdout
    assert [c.split(" DEBIAN")[0] for c in calls(log)] == ["playwright install chromium"]


@as_root_only
def test_when_apt_get_fails_playwrights_chromium_is_downloaded(tmp_path):
    log = tmp_path / "calls"
    done = ensure(tmp_path / "no-chromium", stand_in(tmp_path / "apt-get", log, 100),
                  stand_in(tmp_path / "playwright", log))
    assert (done.returncode, done.stderr) == (0, ""), done.stdout
    # The failed update stops apt-get's turn: no install is tried after it.
    assert [c.split(" DEBIAN")[0] for c in calls(log)] == [
        "apt-get update -qq", "playwright install chromium"]


@pytest.mark.parametrize("apt_get_fails", [False, True], ids=["no apt-get", "apt-get fails"])
def test_with_no_way_to_a_browser_one_line_says_what_to_install(tmp_path, apt_get_fails):
    log = tmp_path / "calls"
    apt_get = (stand_in(tmp_path / "apt-get", log, 100) if apt_get_fails
               else str(tmp_path / "no-apt-get"))
    done = ensure(tmp_path / "no-chromium", apt_get,
                  stand_in(tmp_path / "playwright", log, 1))
    assert done.returncode != 0
    assert done.stderr.splitlines() == [MISSING_LINE]  # the tools' complaints went to stdout
    assert "playwright install chromium" in log.read_text()  # it was tried first


def test_make_test_stops_before_pytest_when_there_is_no_browser(tmp_path):
    """The real Makefile: with no way to a browser, `make test` ends with the one line,
    before pytest starts. (`-o` leaves the installed requirements alone; PYTEST_ARGS would
    make pytest print its version, should it be reached.)"""
    env = dict(os.environ, KOZEL_CHROMIUM=str(tmp_path / "no-chromium"),
               KOZEL_APT_GET=str(tmp_path / "no-apt-get"), KOZEL_PLAYWRIGHT="false")
    done = subprocess.run(["make", "--no-print-directory", "-o", ".venv/requirements.stamp",
                           "test", "PYTEST_ARGS=--version"],
                          cwd=ROOT, env=env, capture_output=True, text=True, timeout=60)
    assert done.returncode != 0
    assert done.stderr.splitlines()[0] == MISSING_LINE  # then make's own "Error 1"
    assert "pytest" not in done.stdout + done.stderr.replace(MISSING_LINE, "")
