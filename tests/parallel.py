"""The suite runs on every core (pytest-xdist, ``make test``): each worker process gets a
Redis database of its own, so that one worker's ``cache.clear()`` (tests/conftest.py) or
its matches' groups never reach another's.  The test databases are apart already:
pytest-django gives each worker its own.

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
