# Two commands: `make run` serves the API on the embedded defaults,
# `make test` runs the test suite. Both set up everything they need.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
HOST ?= 127.0.0.1
PORT ?= 8000
PYTEST_ARGS ?=

.PHONY: run test setup browser-deps worker bench fuzz clean-data docker-config

$(VENV)/.installed: requirements/base.txt requirements/dev.txt
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --disable-pip-version-check -r requirements/dev.txt
	touch $@

setup: $(VENV)/.installed

run: setup
	$(PY) manage.py serve --host $(HOST) --port $(PORT)

# Debian's Chromium drives the widget's browser test (never `playwright install`).
browser-deps:
	@command -v chromium >/dev/null 2>&1 || { apt-get update -qq && apt-get install -y -qq chromium fonts-dejavu-core; }

test: setup browser-deps
	$(PY) -m pytest $(PYTEST_ARGS)

worker: setup
	$(VENV)/bin/celery -A acehrag worker --loglevel=INFO --concurrency=1

bench: setup
	$(PY) bench/ingest.py && $(PY) bench/search.py

# Schemathesis over /openapi.json against a server it starts (var/fuzz): fails on any 5xx.
fuzz: setup
	$(PY) scripts/fuzz.py

docker-config:
	@command -v docker-compose >/dev/null 2>&1 || { apt-get update -qq && apt-get install -y -qq docker-compose; }
	POSTGRES_PASSWORD=check DJANGO_SECRET_KEY=check ACEH_RAG_API__KEYS=check docker-compose -f docker/compose.yaml config --quiet
	@grep -q 'manage.py collectstatic --noinput' docker/Dockerfile || { echo 'docker/Dockerfile must run collectstatic (whitenoise serves STATIC_ROOT)'; exit 1; }

clean-data:
	-$(PY) manage.py embedded_db stop
	rm -rf var
