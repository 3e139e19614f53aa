"""The moderators' suspicious games page, with both of its lists full, fits a phone and a
desktop (as tests/e2e/test_page_layout.py measures every page)."""

from __future__ import annotations

import pytest

from .test_page_layout import SIZES, assert_fits

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True), pytest.mark.shared_server]


@pytest.fixture
def listed_pair(make_user):
    """Three rated games of two accounts from one address, each left in round 1."""
    from django.contrib.auth.models import Group

    from accounts.moderators import GROUP_NAME
    from games.lobby import service as requests
    from games.play import service as services

    first = make_user("Konstantin_Konstantinopolsky")
    second = make_user("Aleksandra_Vasilievna_1990")
    for leaver in (first, second, first):
        match = requests.create_request(first, players=2, address="2001:db8:85a3::8a2e:370:7334")
        requests.join_request(second, match.pk, address="2001:db8:85a3::8a2e:370:7334")
        services.leave_game(match.pk, leaver)
    moderator = make_user("moder", is_staff=True)
    moderator.groups.add(Group.objects.get(name=GROUP_NAME))
    return moderator


@pytest.mark.parametrize("size", SIZES)
def test_the_suspicious_page_fits_the_screen(size, listed_pair, browser, daphne_server):
    from tests.e2e.conftest import Person

    person = Person(browser, daphne_server, "moder", SIZES[size])
    try:
        person.log_in_as(listed_pair, daphne_server)
        assert_fits(person.page, "/moderation/suspicious/", size)
        assert person.page.locator("[data-list=shared-address] li").count() == 3
        assert person.page.locator("[data-list=meeting-pairs] li").count() == 1
        assert person.errors == []
    finally:
        person.context.close()
