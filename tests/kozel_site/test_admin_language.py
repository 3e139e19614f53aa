"""The admin and the moderation pages speak Russian first: every field and model of the
site's apps has a translated name, the admin's titles put a model's name where Russian
can take it as it is ("Просмотр: партия", not "Просмотреть партия"), and no English
label or sentence is left on the staff pages."""

import re

import pytest
from django.apps import apps
from django.contrib import admin
from django.utils import translation
from django.utils.functional import Promise

from .test_admin import admin_client, change, changelist, finished_match, moderator_client  # noqa: F401

SITE_APPS = ("accounts", "games", "ratings")
LATIN = re.compile(r"[A-Za-z]")
# English found on these pages by a new moderator, and the admin's wrong case.
NEVER = ("Invite token", "Invitation token", ">State<", ">Version<", "Created by", ">Payload<",
         "The account is open.", "Просмотреть партия", ">Мест<", "Login key", "Clock heartbeat")


def field_names():
    for model in apps.get_models():
        if model._meta.app_label not in SITE_APPS:
            continue
        yield model.__name__, "model", model._meta.verbose_name
        yield model.__name__, "models", model._meta.verbose_name_plural
        for field in model._meta.get_fields():
            if getattr(field, "concrete", False) and not field.auto_created:
                yield model.__name__, field.name, field.verbose_name


def test_every_model_and_field_of_the_site_has_a_russian_name():
    untranslated = []
    with translation.override("ru"):
        for model, field, name in field_names():
            if not isinstance(name, Promise) or LATIN.search(str(name)):
                untranslated.append(f"{model}.{field}: {name}")
    assert untranslated == []


@pytest.mark.django_db
def test_the_admin_pages_have_no_english_left(admin_client, finished_match):
    from accounts.models import User

    pages = [changelist(model) for model in admin.site._registry
             if model._meta.app_label in SITE_APPS]
    pages += [change(finished_match), change(finished_match.seats.first()),
              change(finished_match.moves.first()), change(User.objects.get(username="masha"))]
    with translation.override("ru"):
        for url in pages:
            page = admin_client.get(url, HTTP_ACCEPT_LANGUAGE="ru").content.decode()
            found = [text for text in NEVER if text in page]
            assert found == [], (url, found)
        page = admin_client.get(change(finished_match)).content.decode()
    assert "Просмотр: партия" in page and "Число мест" in page and "Ключ приглашения" in page


@pytest.mark.django_db
def test_the_moderation_player_page_is_in_russian(moderator_client, finished_match):
    page = moderator_client.get("/moderation/players/masha/").content.decode()
    assert "Учётная запись открыта." in page
    assert not [text for text in NEVER if text in page]
