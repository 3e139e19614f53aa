"""The real-server fixture (tests/daphne_server.py): daphne in a subprocess, serving the
test's own database, that a test can kill and start again."""

import os
import urllib.error
import urllib.request
from datetime import timedelta

import pytest
from django.utils import timezone

from tests import seeding
from tests.daphne_server import FAST_PLAY, DaphneServer, live_server_env
from tests.games.conftest import wait_for

pytestmark = pytest.mark.django_db(transaction=True)


def get(url):
    with urllib.request.urlopen(url, timeout=10) as response:
        return response.status, response.read().decode()


def test_the_server_serves_the_tests_database(daphne_server, make_user):
    make_user("сервер")  # committed: the test is transactional
    status, page = get(f"{daphne_server.url}/players/%D1%81%D0%B5%D1%80%D0%B2%D0%B5%D1%80/")
    assert status == 200 and "сервер" in page


def test_the_server_gets_quick_play_settings():
    env = live_server_env(KOZEL_ROUND_PAUSE="1")
    assert env["KOZEL_CLOCK_IN_SERVER"] == "1" and env["KOZEL_BOT_DELAY"] == FAST_PLAY["KOZEL_BOT_DELAY"]
    assert env["KOZEL_ROUND_PAUSE"] == "1"
    assert ("SQLITE_PATH" in env) != ("DATABASE_URL" in env)


@pytest.mark.slow
def test_a_killed_server_starts_again_on_the_same_port(daphne_server, make_user):
    port = daphne_server.port
    daphne_server.kill()
    assert not daphne_server.running
    with pytest.raises(urllib.error.URLError):
        get(f"{daphne_server.url}/rules/")
    make_user("after-crash")  # written while the server was down, seen once it is back
    daphne_server.start()
    assert daphne_server.port == port
    assert get(f"{daphne_server.url}/players/after-crash/")[0] == 200


def test_a_server_that_cannot_start_says_why(tmp_path):
    broken = DaphneServer(env=live_server_env(KOZEL_BOT_DELAY="never"), log_dir=tmp_path)
    with pytest.raises(RuntimeError, match="KOZEL_BOT_DELAY"):
        broken.start()
    assert not broken.running


def test_the_server_deals_from_the_tests_seed(daphne_server):
    """So a failing browser test's games can be dealt again (tests/seeding.py)."""
    from games import rules
    from games.models import Match, MatchStatus, Move

    seed = int(os.environ[seeding.SEED_VARIABLE])  # this test's, set for its servers too
    # A table whose first round is due: the server's own clock deals it.
    match = Match.objects.create(seats_count=3, status=MatchStatus.PLAYING,
                                 state=rules.new_game(3).to_json(),
                                 deadline=timezone.now() - timedelta(seconds=1))
    assert wait_for(lambda: Move.objects.filter(match=match, number=1).exists()), \
        daphne_server.log_tail()
    dealt = Move.objects.get(match=match, number=1).payload
    server_deals = seeding.deal_generator(seed, seeding.server_stream("daphne"))
    assert dealt == rules.random_deal(3, server_deals).to_json()
