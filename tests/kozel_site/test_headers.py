"""The headers every page is served with: Content-Security-Policy, Permissions-Policy,
and HSTS with secure cookies when the site is configured for HTTPS.

That the pages work under the policy in a real browser is tests/e2e's part: its
conftest fails a test on any refusal Chromium reports.
"""

import json
import os
import re
import subprocess
import sys

import pytest

from tests.daphne_server import ROOT

PAGES = ["/", "/rules/", "/accounts/login/", "/accounts/signup/", "/accounts/password/reset/", "/no-such-page/"]


def policy(response) -> dict[str, list[str]]:
    directives = [part.split() for part in response.headers["Content-Security-Policy"].split(";")]
    return {name: values for name, *values in directives}


@pytest.mark.parametrize("path", PAGES)
def test_every_page_allows_scripts_and_styles_from_the_site_only(client, db, path):
    directives = policy(client.get(path))
    for kind in ("script-src", "style-src", "default-src", "connect-src", "img-src"):
        assert directives[kind] == ["'self'"], kind
    assert directives["object-src"] == ["'none'"] and directives["frame-ancestors"] == ["'none'"]


def test_the_permissions_policy_turns_off_what_the_site_never_uses(client, db):
    header = client.get("/rules/").headers["Permissions-Policy"]
    features = dict(item.strip().split("=", 1) for item in header.split(","))
    for feature in ("camera", "microphone", "geolocation", "payment", "usb"):
        assert features[feature] == "()", feature
    assert features["fullscreen"] == "(self)"


# What a strict policy refuses in a page: inline scripts and styles, handler attributes,
# and what htmx would run through eval (hx-on, js: values, [filters] in hx-trigger).
INLINE = {
    "inline script": re.compile(r"<script(?![^>]*\bsrc=)[^>]*>", re.I),
    "style element": re.compile(r"<style\b", re.I),
    "style attribute": re.compile(r"\sstyle\s*=", re.I),
    "handler attribute": re.compile(r"\son[a-z]+\s*=", re.I),
    "javascript: address": re.compile(r"javascript:", re.I),
    "htmx eval": re.compile(r"hx-on|hx-vars|hx-vals=['\"]\s*js:|hx-trigger=\"[^\"]*\[", re.I),
}
HTML_SOURCES = (sorted((ROOT / "templates").rglob("*.html"))
                + sorted((ROOT / "games" / "templatetags").glob("*.py"))
                + [ROOT / "games" / "room" / "html.py"])


def test_no_page_source_holds_what_the_policy_refuses():
    found = [f"{source.relative_to(ROOT)}: {kind}: {match.group(0)!r}"
             for source in HTML_SOURCES
             for kind, pattern in INLINE.items()
             for match in pattern.finditer(source.read_text())]
    assert found == []


def test_htmx_injects_no_style_of_its_own(client, db):
    page = client.get("/rules/").content.decode()
    config = re.search(r"<meta name=\"htmx-config\" content='([^']*)'>", page).group(1)
    assert json.loads(config)["includeIndicatorStyles"] is False
    # It must come before htmx, which reads it once, as it loads.
    assert page.index('name="htmx-config"') < page.index("htmx-2")


HTTPS_PROBE = """
import json
import django
django.setup()
from django.conf import settings
from django.test import Client

# The pages name their static files; without DEBUG those come from collectstatic's
# manifest, which a fresh clone has not made. The headers do not depend on it.
settings.STORAGES = dict(settings.STORAGES, staticfiles={
    "BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"})
client = Client()
secure = client.get("/rules/", HTTP_HOST="kozel.example.org", HTTP_X_FORWARDED_PROTO="https")
plain = client.get("/rules/", HTTP_HOST="kozel.example.org")
# The RU/EN switch sets a cookie of its own.
switched = client.post("/i18n/setlang/", {"language": "en", "next": "/rules/"},
                       HTTP_HOST="kozel.example.org", HTTP_X_FORWARDED_PROTO="https")
print(json.dumps({"language_cookie_secure": bool(switched.cookies["django_language"]["secure"]),
                  "hsts": secure.headers.get("Strict-Transport-Security"), "secure_status": secure.status_code,
                  "plain_status": plain.status_code,
                  "cookies_secure": [settings.SESSION_COOKIE_SECURE, settings.CSRF_COOKIE_SECURE]}))
"""


def probe_https(tmp_path, **extra):
    environment = {k: v for k, v in os.environ.items()
                   if k not in ("SECRET_KEY", "SECRET_KEY_FILE", "DEBUG", "HTTPS", "HSTS_SECONDS",
                                "DATABASE_URL", "REDIS_URL")}
    environment.update(DJANGO_SETTINGS_MODULE="kozel_site.settings", SECRET_KEY="a-production-secret-" * 3,
                       ALLOWED_HOSTS="kozel.example.org", SQLITE_PATH=str(tmp_path / "db.sqlite3"), **extra)
    out = subprocess.run([sys.executable, "-c", HTTPS_PROBE], cwd=ROOT, env=environment,
                         capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr[-3000:]
    return json.loads(out.stdout.strip().splitlines()[-1])


def test_with_https_configured_browsers_are_told_to_keep_to_it(tmp_path):
    seen = probe_https(tmp_path, HTTPS="1")
    assert seen["secure_status"] == 200
    assert seen["hsts"] == "max-age=31536000"  # a year: 365 * 24 * 60 * 60 seconds
    assert seen["plain_status"] == 301  # to https
    assert seen["cookies_secure"] == [True, True] and seen["language_cookie_secure"]


def test_without_https_a_forwarded_scheme_is_not_believed(tmp_path):
    # The embedded site on 127.0.0.1 is plain HTTP; a client's X-Forwarded-Proto changes nothing.
    seen = probe_https(tmp_path)
    assert seen["hsts"] is None and seen["plain_status"] == 200
    assert seen["cookies_secure"] == [False, False] and not seen["language_cookie_secure"]
