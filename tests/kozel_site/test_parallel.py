"""The suite's workers (tests/parallel.py) each get a Redis database of their own."""

from tests.parallel import worker_redis_url


def test_each_worker_gets_its_own_redis_database():
    url = "redis://127.0.0.1:6379/0"
    assert worker_redis_url(url, "gw0") == url
    assert worker_redis_url(url, "gw1") == "redis://127.0.0.1:6379/1"
    assert worker_redis_url("redis://127.0.0.1:6379/6", "gw3") == "redis://127.0.0.1:6379/9"
    assert worker_redis_url("redis://:secret@cache:6380", "gw2") == "redis://:secret@cache:6380/2"
