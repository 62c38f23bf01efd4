# Two commands: `make run` serves the API on the embedded defaults,
# `make test` runs the test suite. Both set up everything they need.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
HOST ?= 127.0.0.1
PORT ?= 8000
# Every core runs tests (pytest-xdist), one file per worker at a time, each worker on its own
# embedded PostgreSQL (tests/settings.py); at most 4 workers. PYTEST_ARGS= runs them in one process.
PYTEST_ARGS ?= --numprocesses=auto --maxprocesses=4 --dist=loadfile

.PHONY: run test setup browser-deps ocr-deps worker bench fuzz clean-data docker-config lock audit context-check

# Installs only what requirements/dev.txt locks (every transitive pin, each with its sha256):
# pip refuses any file whose hash is not in the lock. --no-deps: the lock already holds every
# dependency, so pip resolves nothing (its resolver chased a newer release for a dependency's
# extra, `CacheControl[filecache]>=0.13.0`, and refused it as unpinned); `pip check` then proves
# the installed set consistent.
$(VENV)/.installed: requirements/dev.txt
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	@echo "installing requirements/dev.txt: $$(grep -c '^[a-zA-Z].*==' requirements/dev.txt) locked packages, --require-hashes"
	$(PY) -m pip install --quiet --disable-pip-version-check --require-hashes --no-deps -r requirements/dev.txt
	$(PY) -m pip check
	touch $@

setup: $(VENV)/.installed

run: setup ocr-deps
	$(PY) manage.py serve --host $(HOST) --port $(PORT)

# Debian's Chromium drives the widget's browser test (never `playwright install`).
browser-deps:
	@command -v chromium >/dev/null 2>&1 || { apt-get update -qq && apt-get install -y -qq chromium fonts-dejavu-core; }

# Debian's Tesseract with its Indonesian and English models reads scanned PDF pages at ingestion
# (retrieval/parsing/ocr.py); without it scans are refused with a clear reason.
ocr-deps:
	@command -v tesseract >/dev/null 2>&1 && tesseract --list-langs 2>/dev/null | grep -qx ind || \
	  { apt-get update -qq && apt-get install -y -qq tesseract-ocr tesseract-ocr-ind tesseract-ocr-eng; }

test: setup browser-deps ocr-deps
	$(PY) -m pytest $(PYTEST_ARGS)

# Re-lock after editing a requirements/*.in file: base (runtime, the image), eval (base + the
# evaluation libraries), dev (eval + tests and tools). Pins already in a lock are kept unless
# UPGRADE=--upgrade is given; tests/test_locks.py fails while a lock is stale against its input.
UPGRADE ?=
lock: setup
	for set in base eval dev; do \
	  $(VENV)/bin/uv pip compile requirements/$$set.in --python-version 3.11 --generate-hashes \
	    --custom-compile-command "make lock" --quiet $(UPGRADE) -o requirements/$$set.txt || exit 1; \
	done

# Known vulnerabilities in the locked sets (PyPI's advisory data); an accepted finding is listed
# with its reason in requirements/audit-allow.txt.
audit: setup
	$(PY) scripts/audit.py requirements/base.txt requirements/dev.txt

# What `docker build` would send: fails if the context holds state (.git, .venv, var, …).
context-check: setup
	$(PY) scripts/docker_context.py

worker: setup
	$(VENV)/bin/celery -A acehrag worker --loglevel=INFO --concurrency=1

bench: setup
	$(PY) bench/ingest.py && $(PY) bench/search.py

# Schemathesis over /openapi.json against a server it starts (var/fuzz): fails on any 5xx.
fuzz: setup
	$(PY) scripts/fuzz.py

# Renders docker/compose.yaml (Compose validates it) and checks what it would run
# (scripts/check_compose.py), then the image's build context and Dockerfile.
docker-config: setup
	@command -v docker-compose >/dev/null 2>&1 || { apt-get update -qq && apt-get install -y -qq docker-compose; }
	POSTGRES_PASSWORD=check MINIO_ROOT_PASSWORD=check DJANGO_SECRET_KEY=check ACEH_RAG_API__KEYS=check \
	  docker-compose -f docker/compose.yaml config | $(PY) scripts/check_compose.py docker/compose.yaml
	@grep -q 'manage.py collectstatic --noinput' docker/Dockerfile || { echo 'docker/Dockerfile must run collectstatic (whitenoise serves STATIC_ROOT)'; exit 1; }
	@grep -q -- '--require-hashes' docker/Dockerfile || { echo 'docker/Dockerfile must install the lock with --require-hashes'; exit 1; }
	@grep -q '^USER ' docker/Dockerfile || { echo 'docker/Dockerfile must run as a non-root user'; exit 1; }
	$(PY) scripts/docker_context.py

clean-data:
	-$(PY) manage.py embedded_db stop
	rm -rf var
