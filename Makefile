# Two commands for a newcomer:  make run   and   make test
# Both create .venv and install requirements.txt (again only when it changes);
# make test also sees to a Chromium for the browser tests.

PYTHON ?= $(shell command -v python3.11 2>/dev/null || command -v python3)
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/requirements.stamp
HOST ?= 127.0.0.1
PORT ?= 8000
PYTEST_ARGS ?=

.PHONY: run dev test bench bench-ladder bench-load bench-render migrate messages

$(PY):
	$(PYTHON) -m venv $(VENV)

$(STAMP): requirements.txt | $(PY)
	$(PY) -m pip install --disable-pip-version-check -q -r requirements.txt
	touch $(STAMP)

migrate: $(STAMP)
	$(PY) manage.py migrate --noinput

# Serve the site with daphne on http://$(HOST):$(PORT) (HTTP and WebSocket) as players see
# it: DEBUG off (unless DEBUG=1), with a secret key made once and kept in SECRET_KEY_FILE
# (git-ignored, readable by its owner only). A SECRET_KEY in the environment wins.
run: export SECRET_KEY_FILE ?= $(CURDIR)/.secret_key
run: migrate
	$(PY) manage.py collectstatic --noinput -v 0
	$(VENV)/bin/daphne -b $(HOST) -p $(PORT) kozel_site.asgi:application

# The same with the developer's pages (DEBUG on): tracebacks, the URL list on a 404.
dev: export DEBUG = 1
dev: run

# The whole pytest suite, one worker process per core (pytest-xdist); pytest-django builds
# each worker its own test database. First a Chromium for the browser tests
# (bin/ensure-browser says how it finds one).
# Extra arguments: make test PYTEST_ARGS="-k accounts -x"; one process: PYTEST_WORKERS=0
PYTEST_WORKERS ?= auto
test: $(STAMP)
	bin/ensure-browser
	$(PY) -m pytest -n $(PYTEST_WORKERS) $(PYTEST_ARGS)

bench: $(STAMP)
	$(PY) bench/rules.py

# Needs PostgreSQL (a kozel_bench database is built once and kept); see docs/ratings-and-moderation.md.
bench-ladder: $(STAMP)
	$(PY) bench/ladder.py

# Starts its own daphne processes; SETUP=scaled needs PostgreSQL and Redis (docs/performance.md).
SETUP ?= embedded
bench-load: $(STAMP)
	$(PY) bench/load.py --setup $(SETUP)


# The game room's frames with the parts kept across versions, against them built afresh.
bench-render: $(STAMP)
	$(PY) bench/render.py



# For translators: refresh locale/ru from the code and templates, then compile.
# Needs gettext; the compiled .mo files are committed, so nothing else does.
messages: $(STAMP)
	$(PY) manage.py makemessages -l ru --no-obsolete --ignore=.venv --ignore=staticfiles --ignore=bench --ignore=tests
	$(PY) manage.py compilemessages -l ru --ignore=.venv
