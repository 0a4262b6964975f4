import os

from django.core.wsgi import get_wsgi_application
from django.urls import get_resolver

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tournament.settings")
django_application = get_wsgi_application()
# The URL configuration (every view and what it imports) loaded with the application, not by the first request:
# gunicorn loads this module once (--preload) and forks its workers from it, so none pays for it again.
_url_patterns = get_resolver().url_patterns

from tournament.live.wsgi import FastVersionPolls  # noqa: E402  (needs the settings loaded above)

#: Django behind the layer that answers the version polls (304, or 200 with the new version) from memory.
application = FastVersionPolls(django_application)
