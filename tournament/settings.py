"""Settings, from environment variables with safe defaults.

With nothing set the system runs embedded: SQLite in ``var/`` and a Celery
broker in a SQLite file of its own (``tournament/broker.py``; no server). Production sets ``DATABASE_URL``
(PostgreSQL) and ``CELERY_BROKER_URL`` (Redis). See docs/en/operator/settings.md.
"""

from __future__ import annotations

import os
import secrets
from pathlib import Path

import dj_database_url
from django.core.exceptions import ImproperlyConfigured
from django.utils.translation import gettext_lazy as _

from tournament.web.hosts import MachineHosts

BASE_DIR = Path(__file__).resolve().parent.parent
VAR_DIR = Path(os.environ.get("DUPLICATE_VAR_DIR", BASE_DIR / "var")).resolve()
VAR_DIR.mkdir(parents=True, exist_ok=True)


def env_bool(name: str, default: bool = False) -> bool:
    value = os.environ.get(name)
    if value is None:
        return default
    return value.strip().lower() in {"1", "true", "yes", "on"}


def env_list(name: str, default: str = "") -> list[str]:
    return [item.strip() for item in os.environ.get(name, default).split(",") if item.strip()]


def _secret_key() -> str:
    """From DJANGO_SECRET_KEY; otherwise one generated once for this installation (var/secret_key).

    The generated key is only for the embedded set-up: in production (``DJANGO_ENV=production`` or
    ``DJANGO_HTTPS=1``) a missing DJANGO_SECRET_KEY stops the start with a clear message.
    """
    key = os.environ.get("DJANGO_SECRET_KEY")
    if key:
        return key
    if os.environ.get("DJANGO_ENV", "").strip().lower() == "production" or env_bool("DJANGO_HTTPS", False):
        raise ImproperlyConfigured(
            "DJANGO_SECRET_KEY is not set: in production (DJANGO_ENV=production or DJANGO_HTTPS=1) the secret "
            "key comes only from the environment. Set DJANGO_SECRET_KEY to a long random value (50+ characters)."
        )
    path = VAR_DIR / "secret_key"
    if not path.exists():
        tmp = path.with_suffix(".tmp")
        tmp.write_text(secrets.token_urlsafe(50))
        tmp.chmod(0o600)
        os.replace(tmp, path)
    return path.read_text().strip()


SECRET_KEY = _secret_key()
DEBUG = env_bool("DJANGO_DEBUG", False)
#: DJANGO_ALLOWED_HOSTS names the hosts exactly; unset, this machine by any of its names and current addresses,
#: the hall's network included (the address on the cards' QR codes): tournament/web/hosts.py.
ALLOWED_HOSTS: list[str] = (env_list("DJANGO_ALLOWED_HOSTS") if os.environ.get("DJANGO_ALLOWED_HOSTS")
                            else MachineHosts(["localhost", "127.0.0.1", "[::1]", "testserver"]))
CSRF_TRUSTED_ORIGINS = env_list("DJANGO_CSRF_TRUSTED_ORIGINS")
#: Reverse proxies whose X-Forwarded-For is believed (addresses or networks): tournament/web/client.py.
TRUSTED_PROXIES = env_list("DJANGO_TRUSTED_PROXIES")

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "rest_framework",
    "rest_framework.authtoken",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "lexicon",
    "tournament",
]

MIDDLEWARE = [
    "tournament.web.client.ForwardedScheme",  # X-Forwarded-Proto believed from a trusted proxy only
    "django.middleware.security.SecurityMiddleware",
    "tournament.web.csp.ContentSecurityPolicy",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "tournament.web.client.ClientAddress",
    "django.contrib.messages.middleware.MessageMiddleware",
    "tournament.web.timezone.TournamentTimeZone",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "tournament.web.unavailable.DatabaseUnavailable",  # 503 + Retry-After while the database does not answer
]

ROOT_URLCONF = "tournament.urls"
WSGI_APPLICATION = "tournament.wsgi.application"

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
]

# -- database -----------------------------------------------------------------
#: SQLite's ``synchronous`` levels the embedded database may run with (DUPLICATE_SQLITE_SYNCHRONOUS).
SQLITE_SYNCHRONOUS_LEVELS = ("FULL", "NORMAL", "EXTRA")


def sqlite_synchronous() -> str:
    """SQLite's ``synchronous`` level: FULL unless DUPLICATE_SQLITE_SYNCHRONOUS says otherwise.

    A measurement knob (``python -m tests.load --embedded --sqlite-synchronous``): NORMAL trades the last
    commits before a power cut for a cheaper commit. Anything but FULL, NORMAL or EXTRA stops the start.
    """
    level = (os.environ.get("DUPLICATE_SQLITE_SYNCHRONOUS") or "FULL").strip().upper()
    if level not in SQLITE_SYNCHRONOUS_LEVELS:
        raise ImproperlyConfigured(
            f"DUPLICATE_SQLITE_SYNCHRONOUS={level!r}: expected one of {', '.join(SQLITE_SYNCHRONOUS_LEVELS)}."
        )
    return level


DATABASE_URL = os.environ.get("DATABASE_URL", f"sqlite:///{VAR_DIR / 'db.sqlite3'}")
DATABASES = {"default": dj_database_url.parse(DATABASE_URL, conn_max_age=int(os.environ.get("DB_CONN_MAX_AGE", "60")))}
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    DATABASES["default"]["CONN_MAX_AGE"] = 0
    DATABASES["default"]["OPTIONS"] = {
        "timeout": 30,
        "transaction_mode": "IMMEDIATE",
        # FULL: a committed transaction (a slip whose receipt a tablet holds) survives a power cut; NORMAL in
        # WAL mode may roll the last ones back (SQLite's documentation, "synchronous").
        "init_command": f"PRAGMA journal_mode=WAL; PRAGMA synchronous={sqlite_synchronous()};",
    }
    DATABASES["default"]["TEST"] = {"NAME": str(VAR_DIR / "test-db.sqlite3")}
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# -- cache (rate limits, idempotency, PDF cache) ----------------------------------
REDIS_URL = os.environ.get("REDIS_URL")
#: The pages open a stream (/live/stream/<slug>/, Server-Sent Events) for their changes and poll only as a
#: fallback: on when the server runs the ASGI application (manage.py serve --push, docs/en/developer/realtime.md).
LIVE_PUSH = env_bool("LIVE_PUSH", False)
#: The ASGI application takes the tablets' slips itself and writes them in batches (tournament/live/slipdoor.py);
#: off (``DUPLICATE_SLIP_BATCHES=0``), every slip goes through Django's view, one transaction each.
SLIP_BATCHES = env_bool("DUPLICATE_SLIP_BATCHES", True)
if REDIS_URL:
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.redis.RedisCache", "LOCATION": REDIS_URL}}
else:
    CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.filebased.FileBasedCache",
            "LOCATION": str(VAR_DIR / "cache"),
        }
    }

# -- Celery -------------------------------------------------------------------
#: The embedded broker (tournament/broker.py): a SQLite file of its own, a message written in one transaction,
#: a claimed message given back when its worker is gone. Production: CELERY_BROKER_URL=redis://…
CELERY_BROKER_URL = os.environ.get("CELERY_BROKER_URL", f"sqlite:///{VAR_DIR / 'broker.sqlite3'}")
if CELERY_BROKER_URL.startswith("sqlite://"):
    CELERY_BROKER_TRANSPORT = "tournament.broker:Transport"
elif CELERY_BROKER_URL.startswith("filesystem://"):
    # kombu's file-system transport, for the broker benchmark's comparison only (python -m tests.load.broker_bench):
    # a worker may read a message file before it is written whole and stop (kombu #1551)
    _broker_dir = VAR_DIR / "broker"
    for sub in ("queue", "processed", "control"):
        (_broker_dir / sub).mkdir(parents=True, exist_ok=True)
    CELERY_BROKER_TRANSPORT_OPTIONS = {
        "data_folder_in": str(_broker_dir / "queue"),
        "data_folder_out": str(_broker_dir / "queue"),
        "processed_folder": str(_broker_dir / "processed"),
        "control_folder": str(_broker_dir / "control"),
        "store_processed": False,
        "polling_interval": 0.2,
    }
elif CELERY_BROKER_URL.startswith("redis"):
    CELERY_BROKER_TRANSPORT_OPTIONS = {"visibility_timeout": 300}
CELERY_RESULT_BACKEND = None
CELERY_TASK_IGNORE_RESULT = True
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
#: A pool process whose peak memory passed this (KiB; env WORKER_MAX_MEMORY_MB, default 400) is replaced after its
#: task: the player sheets of 1,000 players are built in memory and would otherwise keep a process at 500–700 MB
#: for the rest of the day (python -m tests.load --day); a new process opens the lexicon again in milliseconds.
CELERY_WORKER_MAX_MEMORY_PER_CHILD = int(os.environ.get("WORKER_MAX_MEMORY_MB", "400")) * 1024
CELERY_TASK_SERIALIZER = "json"
CELERY_ACCEPT_CONTENT = ["json"]
CELERY_TASK_ALWAYS_EAGER = env_bool("CELERY_TASK_ALWAYS_EAGER", False)
CELERY_TASK_EAGER_PROPAGATES = True
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
# Recovery sweep (closes overdue rounds, judges closed ones, re-solves lost racks) every few seconds;
# `serve` runs beat inside its worker (-B). With several workers run exactly one `celery beat`.
CELERY_BEAT_SCHEDULE = {
    "sweep-rounds": {"task": "tournament.sweep_rounds", "schedule": float(os.environ.get("SWEEP_SECONDS", "5"))},
}
CELERY_BEAT_SCHEDULE_FILENAME = str(VAR_DIR / "celerybeat-schedule")

# -- backups (docs/en/operator/backups.md) -------------------------------------------------------------------
#: Where the automatic backups go: a second disk (a USB stick) is best; the default is on the database's disk.
BACKUP_DIR = Path(os.environ.get("BACKUP_DIR", VAR_DIR / "backups")).resolve()
#: Seconds between two automatic backups of a tournament being played (0: no automatic backups).
BACKUP_SECONDS = int(os.environ.get("BACKUP_SECONDS", "180"))
#: Archives kept per tournament in BACKUP_DIR (the oldest are deleted).
BACKUP_KEEP = int(os.environ.get("BACKUP_KEEP", "20"))
if BACKUP_SECONDS > 0:
    CELERY_BEAT_SCHEDULE["backup-tournaments"] = {"task": "tournament.backup_tournaments",
                                                  "schedule": float(BACKUP_SECONDS)}

# -- lexicons -------------------------------------------------------------------
LEXICON_DIR = Path(os.environ.get("LEXICON_DIR", VAR_DIR / "lexicons")).resolve()
LEXICON_DIR.mkdir(parents=True, exist_ok=True)
#: The console around the lexicon pages (the tournament the arbiter comes from): see lexicon/pages.py.
LEXICON_ARBITER_PAGE = "tournament.web.lexicon_pages.arbiter_page"

# -- i18n -----------------------------------------------------------------------
LANGUAGE_CODE = os.environ.get("DJANGO_LANGUAGE_CODE", "ru")
LANGUAGES = [
    ("ru", _("Russian")),
    ("uk", _("Ukrainian")),
    ("pl", _("Polish")),
    ("en", _("English")),
    ("fr", _("French")),
]
LOCALE_PATHS = [BASE_DIR / "locale"]
TIME_ZONE = os.environ.get("DJANGO_TIME_ZONE", "Europe/Warsaw")
USE_I18N = True
USE_TZ = True

STATIC_URL = "/static/"
STATIC_ROOT = VAR_DIR / "static"
STATIC_ROOT.mkdir(parents=True, exist_ok=True)
STATICFILES_DIRS = [BASE_DIR / "static"]
WHITENOISE_USE_FINDERS = True  # serve static files without collectstatic in the embedded set-up
MEDIA_ROOT = VAR_DIR / "media"
MEDIA_URL = "/media/"

#: Django's password check, with wrong passwords limited per account and per address (tournament/web/passwords.py).
AUTHENTICATION_BACKENDS = ["tournament.web.passwords.LimitedModelBackend"]
AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
]
LOGIN_URL = "/arbiter/login/"
LOGIN_REDIRECT_URL = "/arbiter/"

REST_FRAMEWORK = {
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "rest_framework.authentication.SessionAuthentication",
        "rest_framework.authentication.TokenAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticated"],
    # Bodies are JSON only (a form or multipart body: 415), within limits of size (1 MB), depth (64) and integer
    # digits (40): tournament/safejson.py. No API view takes an uploaded file: the uploads are console pages.
    "DEFAULT_PARSER_CLASSES": ["tournament.api.parsers.LimitedJSONParser"],
}
SPECTACULAR_SETTINGS = {
    "TITLE": "Duplicate tournament API",
    "DESCRIPTION": "Arbiter, player tablet and public display endpoints of the duplicate-Scrabble tournament system.",
    "VERSION": "0.1.0",
    "SERVE_PERMISSIONS": ["rest_framework.permissions.AllowAny"],
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    # What a generated client needs (tests/tournament/api/test_generated_client.py): a request body's component
    # apart from its answer's ("…Request": no read-only field asked for on input, no write-only one in answers),
    # the schema's own endpoint left out; each operationId is given by its view (extend_schema(operation_id=…)).
    "COMPONENT_SPLIT_REQUEST": True,
    "SERVE_INCLUDE_SCHEMA": False,
}

# -- production hardening (active when DEBUG is off) ------------------------------
#: The Content-Security-Policy of every answer (tournament/web/csp.py): scripts, styles, fonts, fetches and images
#: from this site only (images also as data: URLs, which the admin's and the Swagger UI's styles use), nothing
#: inline, no plug-in, no framing by another site, forms posted here only. Django >= 6.0 reads the same setting.
SECURE_CSP = {
    "default-src": ["'self'"],
    "script-src": ["'self'"],
    "style-src": ["'self'"],
    "img-src": ["'self'", "data:"],
    "font-src": ["'self'"],
    "connect-src": ["'self'"],
    "object-src": ["'none'"],
    "base-uri": ["'none'"],
    "frame-ancestors": ["'none'"],
    "form-action": ["'self'"],
}
#: Narrower exceptions by path prefix (directives replaced), e.g. {"/api/docs/": {"style-src": ["'self'", …]}}: none.
SECURE_CSP_EXCEPTIONS: dict[str, dict[str, list[str]]] = {}
SECURE_CONTENT_TYPE_NOSNIFF = True
X_FRAME_OPTIONS = "DENY"
SESSION_COOKIE_HTTPONLY = True
if env_bool("DJANGO_HTTPS", False):
    SECURE_SSL_REDIRECT = True
    SESSION_COOKIE_SECURE = True
    CSRF_COOKIE_SECURE = True
    SECURE_HSTS_SECONDS = int(os.environ.get("DJANGO_HSTS_SECONDS", "31536000"))
    SECURE_HSTS_INCLUDE_SUBDOMAINS = True
    SECURE_HSTS_PRELOAD = True
    # X-Forwarded-Proto: https counts only from a trusted proxy (DJANGO_TRUSTED_PROXIES): ForwardedScheme
    # (tournament/web/client.py) turns it into this key, which no client can send (tournament/proxies.py).
    SECURE_PROXY_SSL_HEADER = ("HALL_FORWARDED_HTTPS", "https")

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {"timed": {"format": "%(asctime)s %(levelname)s %(name)s: %(message)s"}},
    "handlers": {"console": {"class": "logging.StreamHandler", "formatter": "timed"}},
    "root": {"handlers": ["console"], "level": os.environ.get("LOG_LEVEL", "INFO")},
    "loggers": {"django.db.backends": {"level": "INFO"}},
}
