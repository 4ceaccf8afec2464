"""django-cas-server (Debian's python3-django-cas-server) as a school's CAS server for EduPass tests.

One test person (cas_server.auth.TestAuthUser) whose name, password and attributes come from the
environment; its SQLite database in CAS_DB.
"""
import json
import os

SECRET_KEY = os.environ.get("CAS_SECRET", "edupass-test-only")
DEBUG = False
ALLOWED_HOSTS = ["127.0.0.1", "localhost"]
INSTALLED_APPS = [
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "cas_server",
]
MIDDLEWARE = [
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.locale.LocaleMiddleware",
]
ROOT_URLCONF = "urls"
TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ]
        },
    }
]
DATABASES = {"default": {"ENGINE": "django.db.backends.sqlite3", "NAME": os.environ["CAS_DB"]}}
DEFAULT_AUTO_FIELD = "django.db.models.AutoField"
STATIC_URL = "/static/"
USE_TZ = True
CAS_AUTH_CLASS = "cas_server.auth.TestAuthUser"
CAS_TEST_USER = os.environ["CAS_TEST_USER"]
CAS_TEST_PASSWORD = os.environ["CAS_TEST_PASSWORD"]
CAS_TEST_ATTRIBUTES = json.loads(os.environ["CAS_TEST_ATTRIBUTES"])
CAS_NEW_VERSION_HTML_WARNING = False
CAS_NEW_VERSION_EMAIL_WARNING = False
CAS_SHOW_SERVICE_MESSAGES = False
