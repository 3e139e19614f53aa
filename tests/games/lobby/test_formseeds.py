"""Issue 39, point 4 (RECORD.md, kozel-fair/1): the creator of a table gives their client
seed after being shown the commitment -- the lobby's forms show the commitment of a
server seed drawn for them, and the post that creates the table uses exactly that seed:
refused, creating nothing, if the seed is missing, forged, another person's or form's,
expired, or used already.  Hostile: a bots' table made with a client seed sent before any
commitment was shown (the old way, one post) is refused."""

import re
from datetime import timedelta

import pytest
from django.utils import timezone

from games.lobby import formseeds
from games.models import FormSeed, Match
from games.play import clock
from games.rules import fair
from tests.formseeds import form_token

pytestmark = pytest.mark.django_db

CREATE, BOTS = "/games/new/", "/games/bots/"
TERMS = {"players": "2", "fish": "all", "turn_seconds": "30", "client_seed": "mine"}
REFUSED = "Обязательство раздачи этой формы отсутствует, устарело или уже использовано"


def shown_commitments(page: str) -> list[str]:
    return re.findall(r'data-form-commitment>([0-9a-f]{64})<', page)


@pytest.mark.parametrize("url", [CREATE, BOTS])
def test_each_form_shows_the_commitment_of_its_own_seed_and_the_table_gets_that_seed(
        client, user, url):
    client.force_login(user)
    page = client.get("/").content.decode()
    create_commitment, bots_commitment = shown_commitments(page)
    assert create_commitment != bots_commitment
    token = form_token(client, url)  # (a second page: two more seeds drawn)
    drawn = FormSeed.objects.get(token=token)
    assert fair.commitment(bytes(drawn.server_seed)) == drawn.commitment
    # The token names the seed and says nothing of it.
    assert drawn.commitment not in token and bytes(drawn.server_seed).hex() not in token
    client.post(url, dict(TERMS, seed=token))
    match = Match.objects.get()
    assert bytes(match.server_seed) == bytes(drawn.server_seed)
    assert match.commitment == drawn.commitment
    assert match.seats.get(number=0).client_seed == "mine"
    assert not FormSeed.objects.filter(token=token).exists()  # taken for good


@pytest.mark.parametrize("url", [CREATE, BOTS])
def test_a_post_without_a_drawn_seed_is_refused_and_makes_nothing(client, user, url):
    """The old way, the hostile pass's: the client seed arrives in the post that would
    draw the server seed, so no commitment was ever shown before it."""
    client.force_login(user)
    response = client.post(url, TERMS, follow=True)
    assert REFUSED in response.content.decode()
    assert not Match.objects.exists()


def test_a_forged_or_someone_elses_or_the_other_forms_seed_is_refused(client, user, make_user):
    client.force_login(user)
    assert REFUSED in client.post(CREATE, dict(TERMS, seed="x" * 43), follow=True) \
        .content.decode()
    others = formseeds.draw(make_user("alex"), formseeds.REQUEST)
    assert REFUSED in client.post(CREATE, dict(TERMS, seed=others.token), follow=True) \
        .content.decode()
    bots_token = form_token(client, BOTS)
    assert REFUSED in client.post(CREATE, dict(TERMS, seed=bots_token), follow=True) \
        .content.decode()
    assert not Match.objects.exists()


def test_a_seed_is_used_once(client, user):
    client.force_login(user)
    token = form_token(client, BOTS)
    client.post(BOTS, dict(TERMS, seed=token))
    match = Match.objects.get()
    from games.play import service as services
    services.leave_game(match.pk, user)
    tables = Match.objects.count()  # (the game, and the table of its offer of one more)
    response = client.post(BOTS, dict(TERMS, seed=token), follow=True)
    assert REFUSED in response.content.decode()
    assert Match.objects.count() == tables


def test_an_expired_seed_is_refused_and_the_clock_forgets_it(client, user, settings):
    client.force_login(user)
    token = form_token(client, CREATE)
    old = timezone.now() - timedelta(seconds=settings.KOZEL_FORM_SEED_SECONDS + 1)
    FormSeed.objects.filter(token=token).update(created_at=old)
    assert REFUSED in client.post(CREATE, dict(TERMS, seed=token), follow=True) \
        .content.decode()
    assert not Match.objects.exists()
    stale = formseeds.draw(user, formseeds.BOTS)
    FormSeed.objects.filter(pk=stale.pk).update(created_at=old)
    clock.sweep_once()
    assert not FormSeed.objects.filter(pk=stale.pk).exists()
    assert FormSeed.objects.exists()  # the fresh ones stay


def test_a_form_sent_back_with_errors_shows_a_new_commitment_and_it_works(client, user):
    client.force_login(user)
    token = form_token(client, CREATE)
    response = client.post(CREATE, dict(TERMS, turn_seconds="5", seed=token))
    assert response.status_code == 200 and not Match.objects.exists()
    page = response.content.decode()
    again = re.search(r'name="seed" value="([^"]+)" id="id_seed"', page).group(1)
    assert again != token
    drawn = FormSeed.objects.get(token=again)
    assert drawn.commitment in shown_commitments(page)
    client.post(CREATE, dict(TERMS, seed=again))
    assert Match.objects.get().commitment == drawn.commitment


def test_a_refused_create_keeps_its_seed_untaken(client, user):
    """A table the lobby refuses (here: the person sits at one already) takes nothing:
    the seed is taken in the transaction that makes the table."""
    client.force_login(user)
    client.post(BOTS, dict(TERMS, seed=form_token(client, BOTS)))
    token = form_token(client, CREATE)
    response = client.post(CREATE, dict(TERMS, seed=token), follow=True)
    assert "Вы уже сидите за столом" in response.content.decode()
    assert FormSeed.objects.filter(token=token).exists()
