"""The end of a moderator's mute, as a refused line says it: without JavaScript in the
site's zone, named; with it, a <time> that the page rewrites in the viewer's zone."""

from __future__ import annotations

from datetime import timedelta

from django.utils import timezone

from games.room import chat


def test_the_end_of_a_mute_names_the_sites_zone_and_carries_the_moment():
    until = timezone.now() + timedelta(days=1)
    refusal = chat.ChatRefused("until %(time)s.", until=until)
    site = timezone.localtime(until).strftime("%d.%m.%Y %H:%M MSK")
    html = chat.refusal_html(refusal)
    assert html.startswith("until <time ") and html.endswith(f">{site}</time>.")
    assert 'data-local' in html and f'datetime="{timezone.localtime(until).isoformat()}"' in html


def test_a_refusal_is_escaped():
    assert chat.refusal_html(chat.ChatRefused("<b>no</b>")) == "&lt;b&gt;no&lt;/b&gt;"
