import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tournament.settings")
django_application = get_wsgi_application()

from tournament.live.wsgi import FastVersionPolls  # noqa: E402  (needs the settings loaded above)

#: Django behind the layer that answers the version polls (304, or 200 with the new version) from memory.
application = FastVersionPolls(django_application)

