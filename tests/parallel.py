"""The suite runs on every core (pytest-xdist, ``make test``): each worker process gets a
Redis database of its own, so that one worker's ``cache.clear()`` (tests/conftest.py) or
its matches' groups never reach another's.  The test databases are apart already:
pytest-django gives each worker its own.  The tests are handed out a few at a time in the
suite's order, the slow ones first (``pytest_xdist_make_scheduler`` below).

Loaded with ``-p`` (pytest.ini), so that it runs before Django reads its settings; xdist
names the worker in the environment before that.
"""

import os
from urllib.parse import urlsplit, urlunsplit


def worker_redis_url(url: str, worker: str) -> str:
    """``url`` with its database number moved on by the worker's number (gw0 keeps it)."""
    parts = urlsplit(url)
    number = int(parts.path.strip("/") or 0) + int(worker.removeprefix("gw"))
    return urlunsplit(parts._replace(path=f"/{number}"))


_worker = os.environ.get("PYTEST_XDIST_WORKER")
if _worker and os.environ.get("REDIS_URL"):
    os.environ["REDIS_URL"] = worker_redis_url(os.environ["REDIS_URL"], _worker)


BROWSER_TESTS = "tests/e2e/"


def pytest_xdist_make_scheduler(config, log):
    """xdist's scheduling by scope (``--dist loadscope``), with every test its own scope
    but for the browser tests, whose module is one: its tests run on one worker, one
    after the other, and share the module's browser (and server, if it is marked
    ``shared_server``; tests/conftest.py).  A worker is given the next scope whenever it
    has at most two tests left, in the suite's order -- the slow tests first
    (tests/conftest.py) -- so that the short ones at the end even the workers out.

    (xdist's ``--dist loadgroup`` would group by a mark, but with pytest 9.2 it silently
    does not: pytest-xdist issue 1386.)  Another ``--dist`` given keeps xdist's own."""
    if config.getvalue("dist") != "load":
        return None
    from xdist.scheduler import LoadScopeScheduling

    class BrowserModulesWhole(LoadScopeScheduling):
        def _split_scope(self, nodeid: str) -> str:
            module = nodeid.split("::", 1)[0]
            return module if module.startswith(BROWSER_TESTS) else nodeid

    config.option.loadscopereorder = False  # the suite's order, not the largest scope first
    return BrowserModulesWhole(config, log)
