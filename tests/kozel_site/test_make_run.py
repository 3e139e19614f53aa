"""`make run` serves the site as players see it: DEBUG off, its own kept secret key, the
static files served. Started here the way a newcomer starts it, with `make run` itself,
on a fresh SQLite file and another port, in a folder of links to the project's files (so
that the secret key file it makes there is this test's, not the developer's).
"""

import os
import re
import signal
import stat
import subprocess
import time
import urllib.error
import urllib.request

import pytest

from kozel_site import env
from tests.daphne_server import ROOT, free_port

DEBUG_PAGE_MARKS = ["Using the URLconf defined in", "technical_404", "You’re seeing this error because",
                    "Local vars", "Request information", "SECRET_KEY", "Traceback"]


def fetch(url, data=None, headers=None):
    try:
        with urllib.request.urlopen(urllib.request.Request(url, data=data, headers=headers or {}),
                                    timeout=30) as response:
            return response.status, response.read().decode()
    except urllib.error.HTTPError as error:
        return error.code, error.read().decode()


def project_copy(folder):
    """``folder`` made a stand-in for the project: a link to each of its files and folders,
    but no secret key file, database or collected static files of its own."""
    folder.mkdir()
    for entry in ROOT.iterdir():
        if entry.name not in (".secret_key", "db.sqlite3", "staticfiles"):
            (folder / entry.name).symlink_to(entry)
    return folder


class MakeRun:
    """`make run` in a subprocess (its own process group: make, and daphne under it)."""

    def __init__(self, project, tmp_path):
        self.port = free_port()
        self.log = tmp_path / f"make-run-{self.port}.log"
        environment = {k: v for k, v in os.environ.items()
                       if k not in ("SECRET_KEY", "SECRET_KEY_FILE", "DEBUG", "DATABASE_URL", "REDIS_URL",
                                    "SQLITE_PATH", "DJANGO_SETTINGS_MODULE", "MAKEFLAGS", "MAKELEVEL")}
        environment.update(SQLITE_PATH=str(tmp_path / "db.sqlite3"), PORT=str(self.port))
        with open(self.log, "wb") as log:
            # -o: the virtual env is taken as installed (this very test runs in it).
            self.process = subprocess.Popen(["make", "-o", ".venv/requirements.stamp", "run"],
                                            cwd=project, env=environment, stdout=log,
                                            stderr=subprocess.STDOUT, start_new_session=True)
        self.url = f"http://127.0.0.1:{self.port}"

    def wait_until_serving(self, timeout=240.0):
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                break
            try:
                urllib.request.urlopen(self.url + "/rules/", timeout=2).close()
                return
            except (urllib.error.URLError, ConnectionError, TimeoutError):
                time.sleep(0.5)
        raise AssertionError(f"make run did not serve:\n{self.log.read_text()[-3000:]}")

    def stop(self):
        if self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGTERM)
            try:
                self.process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                os.killpg(self.process.pid, signal.SIGKILL)
                self.process.wait()


@pytest.fixture
def make_run(tmp_path):
    started = []

    project = project_copy(tmp_path / "kozel")

    def start():
        server = MakeRun(project, tmp_path)
        started.append(server)
        server.wait_until_serving()
        return server

    yield start
    for server in started:
        server.stop()


def test_make_run_serves_no_debug_pages_and_keeps_its_secret_key(make_run, tmp_path):
    server = make_run()

    status, page = fetch(server.url + "/no-such-page/")
    assert status == 404
    assert not [mark for mark in DEBUG_PAGE_MARKS if mark in page], page[:2000]
    assert "Козёл" in page  # the site's own 404 page

    # A 10 MB form post that passes the CSRF check, so that the site reads it: refused as
    # too big, without the debug page's settings and local variables.
    with urllib.request.urlopen(server.url + "/accounts/login/", timeout=10) as login:
        token = re.search(r"csrftoken=([^;]+)", login.headers["Set-Cookie"]).group(1)
    status, page = fetch(server.url + "/accounts/login/", data=b"username=" + b"x" * 10_000_000,
                         headers={"Cookie": f"csrftoken={token}", "X-CSRFToken": token})
    assert status == 400
    assert not [mark for mark in DEBUG_PAGE_MARKS if mark in page], page[:2000]

    # The static files are served, under the hashed names collectstatic gave them.
    status, page = fetch(server.url + "/rules/")
    stylesheet = re.search(r'href="(/static/css/site\.[0-9a-f]{12}\.css)"', page).group(1)
    assert fetch(server.url + stylesheet)[0] == 200

    # The key was made in the project's folder: long, random, readable by its owner only.
    key_file = tmp_path / "kozel" / ".secret_key"
    key = key_file.read_text().strip()
    assert len(key) >= 50 and key != env.DEV_SECRET_KEY
    assert stat.S_IMODE(key_file.stat().st_mode) == 0o600
    server.stop()

    # Started again, it keeps the same key (sessions and reset links stay valid).
    make_run()
    assert key_file.read_text().strip() == key
