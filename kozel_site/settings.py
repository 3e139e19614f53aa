"""Settings of the Kozel site.

Everything that differs between a developer's laptop and a real deployment comes from the
environment (see kozel_site/env.py and the README): with nothing set, the site runs
embedded -- SQLite in WAL mode, the in-memory channel layer, one daphne process.
"""

import json
import os
from pathlib import Path

from csp.constants import NONE, SELF
from django.utils.translation import gettext_lazy as _

from kozel_site import env as config

BASE_DIR = Path(__file__).resolve().parent.parent
ENV = os.environ

SECRET_KEY, DEBUG = config.secret_and_debug(ENV)
ALLOWED_HOSTS = config.env_list(ENV, "ALLOWED_HOSTS", ["127.0.0.1", "localhost", "[::1]"])
CSRF_TRUSTED_ORIGINS = config.env_list(ENV, "CSRF_TRUSTED_ORIGINS", [])

# Behind a proxy that terminates TLS: cookies only over HTTPS (the session's, the CSRF
# token's, the RU/EN switch's; the messages' follow the session's), and trust its scheme
# header.  Off for the embedded site on 127.0.0.1, which is plain HTTP.
HTTPS = config.env_bool(ENV, "HTTPS", default=False)
SESSION_COOKIE_SECURE = CSRF_COOKIE_SECURE = LANGUAGE_COOKIE_SECURE = HTTPS
if HTTPS:
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    SECURE_SSL_REDIRECT = True
    # Strict-Transport-Security: browsers then use HTTPS only, for this long (a year
    # unless HSTS_SECONDS says otherwise; 0 sends none).
    SECURE_HSTS_SECONDS = config.env_int(ENV, "HSTS_SECONDS", 365 * 24 * 60 * 60)

# Content-Security-Policy (django-csp): everything from the site itself, and no inline
# script, style or handler anywhere (templates/ keep theirs in static/; htmx's own inline
# style and eval are turned off in base.html). 'self' covers the site's WebSockets too.
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": [SELF],
        "script-src": [SELF],
        "style-src": [SELF],
        "img-src": [SELF],
        "font-src": [SELF],
        "connect-src": [SELF],
        "object-src": [NONE],
        "base-uri": [NONE],
        "form-action": [SELF],
        "frame-ancestors": [NONE],
    },
}
# Permissions-Policy (django-permissions-policy): nothing the site has no use for; the
# fullscreen and keeping the screen on that a game on a phone may want later, for the
# site itself only. (Vibration and notifications are not governed by this header.)
PERMISSIONS_POLICY = {
    "camera": [], "microphone": [], "geolocation": [], "payment": [], "usb": [],
    "display-capture": [], "browsing-topics": [],
    "fullscreen": ["self"], "screen-wake-lock": ["self"],
}

INSTALLED_APPS = [
    # daphne first: its runserver replaces Django's, so even `runserver` speaks ASGI.
    "daphne",
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "channels",
    "django_htmx",
    "csp",
    "kozel_site.admin_wording.AxesConfig",  # django-axes, its admin worded (admin_wording.py)
    "django_ratelimit",
    "accounts",
    "games",
    "ratings",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    # Before anything reads the path, the query or the form (kozel_site/text.py).
    "kozel_site.text.InvalidTextMiddleware",
    "csp.middleware.CSPMiddleware",
    "django_permissions_policy.PermissionsPolicyMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    # Last, as django-axes asks: it turns a refused log-in into the "locked" page.
    "axes.middleware.AxesMiddleware",
]

ROOT_URLCONF = "kozel_site.urls"
ASGI_APPLICATION = "kozel_site.asgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.template.context_processors.i18n",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
    {
        # The game room's frames only (games/room/html.py asks for it by name): rendered
        # for every seat on every move, where Jinja2's compiled templates are the faster
        # engine (games/room/jinja2_env.py).  Compiled templates are kept (with DEBUG on, a
        # changed file is compiled again).
        "BACKEND": "django.template.backends.jinja2.Jinja2",
        "NAME": "jinja2",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": False,
        "OPTIONS": {
            "environment": "games.room.jinja2_env.environment",
            # A block tag's line leaves nothing behind: readable templates, compact frames.
            "trim_blocks": True,
            "lstrip_blocks": True,
        },
    },
]

DATABASES = {"default": config.database(ENV, BASE_DIR)}
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"
CHANNEL_LAYERS = config.channel_layers(ENV)
CACHES = config.caches(ENV)

# Accounts
AUTH_USER_MODEL = "accounts.User"
AUTHENTICATION_BACKENDS = [
    # Refuses log-ins for a login name + address that failed too often (django-axes).
    "axes.backends.AxesStandaloneBackend",
    "django.contrib.auth.backends.ModelBackend",
]
AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
LOGIN_URL = "accounts:login"
LOGIN_REDIRECT_URL = "/"
LOGOUT_REDIRECT_URL = "/"

# The client's address every limit below counts by: the socket's, or behind
# TRUSTED_PROXIES proxies of our own the one in X-Forwarded-For they vouch for.
TRUSTED_PROXIES = config.trusted_proxies(ENV)

# The log-in throttle (django-axes). Failures are counted in the database, so the lock
# holds across every server process in both setups. A login name is locked on an
# address, and a whole address at a higher count (accounts/throttle.py).
AXES_FAILURE_LIMIT, AXES_COOLOFF_TIME = config.login_lock(ENV)
LOGIN_ADDRESS_FAILURE_LIMIT = config.login_address_limit(ENV)
AXES_HANDLER = "accounts.throttle.NameAndAddressHandler"
AXES_CLIENT_IP_CALLABLE = "kozel_site.clientaddress.client_address"
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
AXES_USERNAME_CALLABLE = "accounts.throttle.login_name"
AXES_LOCKOUT_CALLABLE = "accounts.throttle.locked_out"
AXES_RESET_ON_SUCCESS = True
# A lock lasts AXES_COOLOFF_TIME from the failure that caused it, whatever is tried meanwhile.
AXES_RESET_COOL_OFF_ON_FAILURE_DURING_LOCKOUT = False
AXES_VERBOSE = False

# Sign-ups and password-reset mails (django-ratelimit): counted in the cache, which is
# Redis, shared by every process, when REDIS_URL is set, and the one process's memory in
# the embedded setup (where that one process is the whole site).
RATELIMIT_USE_CACHE = "default"
RATELIMIT_IP_META_KEY = "kozel_site.clientaddress.client_address"
# New accounts from one client address.
KOZEL_SIGNUP_RATE = config.rate(ENV, "SIGNUP_RATE", "5/h")
# Reset mails to one e-mail address, and to one account.
KOZEL_PASSWORD_RESET_RATE = config.rate(ENV, "PASSWORD_RESET_RATE", "3/h")
# Reset requests from one client address, whatever addresses they name.
KOZEL_PASSWORD_RESET_CLIENT_RATE = config.rate(ENV, "PASSWORD_RESET_CLIENT_RATE", "10/h")
# Follows, unfollows, blocks and unblocks of one account, and its direct challenges.
KOZEL_FRIENDS_RATE = config.rate(ENV, "FRIENDS_RATE", "60/h")
if not ENV.get("REDIS_URL", "").strip():
    # django-ratelimit calls the in-process cache unfit because several processes would
    # each count apart; the embedded setup is one process.
    SILENCED_SYSTEM_CHECKS = ["django_ratelimit.E003", "django_ratelimit.W001"]
else:
    # It knows django-redis' backend, not Django's own, which increments atomically too.
    SILENCED_SYSTEM_CHECKS = ["django_ratelimit.W001"]

# E-mail: printed to the console unless an SMTP server is configured.
EMAIL_HOST = ENV.get("EMAIL_HOST", "")
if EMAIL_HOST:
    EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
    EMAIL_PORT = config.env_int(ENV, "EMAIL_PORT", 587)
    EMAIL_HOST_USER = ENV.get("EMAIL_HOST_USER", "")
    EMAIL_HOST_PASSWORD = ENV.get("EMAIL_HOST_PASSWORD", "")
    EMAIL_USE_TLS = config.env_bool(ENV, "EMAIL_USE_TLS", default=True)
else:
    EMAIL_BACKEND = "django.core.mail.backends.console.EmailBackend"
DEFAULT_FROM_EMAIL = ENV.get("DEFAULT_FROM_EMAIL", "kozel@localhost")

# Languages: Russian first, English second.
LANGUAGE_CODE = "ru"
LANGUAGES = [("ru", _("Russian")), ("en", _("English"))]
LOCALE_PATHS = [BASE_DIR / "locale"]
USE_I18N = True
TIME_ZONE = ENV.get("TIME_ZONE", "Europe/Moscow")
USE_TZ = True

# Static files: served by the site itself through WhiteNoise, no CDN anywhere.
STATIC_URL = "static/"
STATIC_ROOT = BASE_DIR / "staticfiles"
STATICFILES_DIRS = [BASE_DIR / "static"]
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        # In production, hashed names (cache forever) and compressed copies; these need
        # `collectstatic`, which `make run` does.
        "BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"
        if DEBUG
        else "whitenoise.storage.CompressedManifestStaticFilesStorage",
    },
}
# While developing, serve straight from the source folders and notice edits.
WHITENOISE_USE_FINDERS = DEBUG
WHITENOISE_AUTOREFRESH = DEBUG

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": ENV.get("LOG_LEVEL", "INFO")},
}

# -- Play (games.play.service, games.play.clock) ---------------------------------------
# The pause between rounds, when everyone sees the round's summary (no clock runs).
KOZEL_ROUND_PAUSE = float(ENV.get("KOZEL_ROUND_PAUSE", "6"))
# A bot thinks for a random time in this range (seconds), like a person would.
KOZEL_BOT_DELAY = config.env_seconds_range(ENV, "KOZEL_BOT_DELAY", (0.8, 2.0))
# Seconds a master bot (games.bots.master) searches for a move, on top of that delay (at
# most 1 s), when it thinks alone: it searches in the clock's pool of worker processes
# (games/play/workers.py), and once the pool has other work each search gets a share
# (games/play/thinking.py ``share``: seconds x workers / (2 x pieces of work + 1)).
BOT_MASTER_SECONDS = float(ENV.get("BOT_MASTER_SECONDS", "0.5"))
# The worker processes of that pool, where masters think and analyses are made (in each
# process that runs the clock): the machine's cores but one, left to the servers.
KOZEL_WORKERS = config.env_int(ENV, "KOZEL_WORKERS", max(1, (os.cpu_count() or 2) - 1))
# Messages a second one game-room connection may keep up, and its burst; beyond, it is
# a flood and the connection is closed (nobody clicks tiles faster than this).
# Tests that drive a real server with quick test players raise it: KOZEL_WS_FLOOD="rate,burst".
KOZEL_WS_FLOOD = config.env_seconds_range(ENV, "KOZEL_WS_FLOOD", (8.0, 16.0))
# A table's chat: lines one account may write, in django-ratelimit's notation (counted in
# the cache, shared by every process when REDIS_URL is set).
KOZEL_CHAT_RATE = ENV.get("KOZEL_CHAT_RATE", "5/10s")
# The clock's sweep inside the daphne process: on in the embedded setup; when scaled out
# (REDIS_URL set) run `manage.py clock` beside the servers instead (DESIGN.md, Time).
KOZEL_CLOCK_IN_SERVER = config.env_bool(ENV, "KOZEL_CLOCK_IN_SERVER",
                                        default=not ENV.get("REDIS_URL", "").strip())
# Seconds between the clock's sweeps: how late a bot's move or a timeout may be at most.
KOZEL_CLOCK_INTERVAL = float(ENV.get("KOZEL_CLOCK_INTERVAL", "0.25"))
# Seconds without a sweep of any clock after which the site counts as having been down:
# a turn whose time ran out meanwhile gets its full time again (RULES.md 9).  Several
# ticks, so that a slow sweep on a busy machine is not taken for an outage.
KOZEL_CLOCK_OUTAGE = float(ENV.get("KOZEL_CLOCK_OUTAGE", "3"))
# The same for a clock's first sweep after its process started: a beat older than this
# means no other clock kept time while it started (a restart of the only server, which
# takes longer than this), so the turns running get their full time again too.
KOZEL_CLOCK_RESTART = float(ENV.get("KOZEL_CLOCK_RESTART", "1"))
# Seconds a lobby form's server seed (its deal's commitment, shown with the form) may
# wait for the form to be sent (games/lobby/formseeds.py).
KOZEL_FORM_SEED_SECONDS = float(ENV.get("KOZEL_FORM_SEED_SECONDS", str(6 * 3600)))

# One more game after a game (games/lobby/rematch.py): seconds its people have to accept
# it, and seconds one of them may be away from the game's page (no socket open to its
# room) before the offer is withdrawn.
KOZEL_REMATCH_SECONDS = float(ENV.get("KOZEL_REMATCH_SECONDS", "60"))
KOZEL_REMATCH_AWAY = float(ENV.get("KOZEL_REMATCH_AWAY", "30"))

# -- Arenas (RULES.md 12, games/arena/) ----------------------------------------------
# Seconds the first of k waiting players waits before a table is seated without 2k
# waiting (more to choose from gives closer ranks; RULES.md 12 allows at most 10), and
# seconds a seated table's browsers have to give their client seeds before the game
# starts with the empty seed for the rest (RULES.md 12: 10).
KOZEL_ARENA_GATHER = float(ENV.get("KOZEL_ARENA_GATHER", "2"))
KOZEL_ARENA_SEED_SECONDS = float(ENV.get("KOZEL_ARENA_SEED_SECONDS", "10"))
# The site's own open arenas, made by the clock's sweep (games/arena/schedule.py): each
# slot is announced ``announce_hours`` before it starts.  ``every``: "hour" (at minute
# ``minute``) or "day" (at ``time``, the site's TIME_ZONE).  ``table``: 2, 3, 4 or "pairs".
# A site's admin changes this list, not the code (or sets KOZEL_ARENA_SCHEDULE in the
# environment to the list as JSON; "[]": no scheduled arenas).
KOZEL_ARENA_SCHEDULE = [
    {"key": "hourly", "name": "Часовая арена", "every": "hour", "minute": 0, "minutes": 30,
     "table": 3, "fish": "all", "turn_seconds": 20, "rated": True, "announce_hours": 1},
    {"key": "daily-pairs", "name": "Вечерняя арена пар", "every": "day", "time": "20:00",
     "minutes": 120, "table": "pairs", "fish": "one", "turn_seconds": 30, "rated": True,
     "announce_hours": 24},
]
if "KOZEL_ARENA_SCHEDULE" in ENV:
    KOZEL_ARENA_SCHEDULE = json.loads(ENV["KOZEL_ARENA_SCHEDULE"])

# -- The analysis after a game (games/records/analysis.py, games/bots/analysis.py) ------
# Analyses are made a decision at a time in the clock's pool of worker processes
# (KOZEL_WORKERS, games/records/analysing.py), beside the masters' searches; `manage.py
# analyse` workers (any number) may take them from the database as well.
# The master's budget for each decision judged: worlds (each plays every choice out
# once; the same analysis every time), at most seconds (only a loaded machine reaches
# it; 0: no cap).  A whole 4-player game has some 70 to 320 decisions (bench/analysis.py).
KOZEL_ANALYSIS_PLAYOUTS = config.env_int(ENV, "KOZEL_ANALYSIS_PLAYOUTS", 256) or None
KOZEL_ANALYSIS_SECONDS = float(ENV.get("KOZEL_ANALYSIS_SECONDS", "0.15")) or None
# Seconds without a sign of work after which a running analysis is queued again (its
# worker died, the site restarted), and how often one is tried before it fails.
KOZEL_ANALYSIS_STALE = float(ENV.get("KOZEL_ANALYSIS_STALE", "30"))
KOZEL_ANALYSIS_ATTEMPTS = config.env_int(ENV, "KOZEL_ANALYSIS_ATTEMPTS", 3)

# -- WebSocket caps across sockets (games/live/caps.py) ----------------------------
# Counted in the cache (Redis, shared by every server process, when REDIS_URL is set).
# Messages and new connections one account (an anonymous visitor: one address) may make
# over all its sockets together, in django-ratelimit's notation: reconnecting does not
# start afresh, as KOZEL_WS_FLOOD's per-socket count does.
KOZEL_WS_ACCOUNT_RATE = config.rate(ENV, "KOZEL_WS_ACCOUNT_RATE", "300/m")
# Open sockets of one account (an anonymous visitor: one address) to one game's room.
KOZEL_WS_SOCKETS_PER_GAME = config.env_int(ENV, "KOZEL_WS_SOCKETS_PER_GAME", 5)
# Open lobby sockets from one client address (a family or a school may share one).
KOZEL_WS_LOBBY_SOCKETS_PER_ADDRESS = config.env_int(ENV, "KOZEL_WS_LOBBY_SOCKETS_PER_ADDRESS", 20)
# Seconds a socket's slot lives in the cache unless its socket renews it (every third of
# this): a server process that dies leaves no slot taken for longer.
KOZEL_WS_SLOT_TTL = config.env_int(ENV, "KOZEL_WS_SLOT_TTL", 60)

# -- Moderation: the suspicious games page (games/moderation/suspicious.py) -------------
# The rated games it looks at: those created within this many days.
KOZEL_SUSPICIOUS_DAYS = config.env_int(ENV, "KOZEL_SUSPICIOUS_DAYS", 90)
# Rated games two accounts must have sat at together to be listed as a pair.
KOZEL_SUSPICIOUS_MIN_GAMES = config.env_int(ENV, "KOZEL_SUSPICIOUS_MIN_GAMES", 3)
# ... and pairs whose game was played unrated this many times or more for having played
# 3 rated games together that day already (RULES.md 10).
KOZEL_SUSPICIOUS_LIMIT_HITS = config.env_int(ENV, "KOZEL_SUSPICIOUS_LIMIT_HITS", 2)
