import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tournament.settings")
django_application = get_wsgi_application()

from tournament.fast_polls import FastVersionPolls  # noqa: E402  (needs the settings loaded above)

#: Django behind the layer that answers unchanged version polls with a 304 at once.
application = FastVersionPolls(django_application)

# Threads waiting for a database answer get the interpreter back sooner when the process is busy
# answering polls (Python's default is 5 ms per switch; a slip makes about ten database round trips).
_switch = os.environ.get("WEB_SWITCH_INTERVAL")
if _switch:
    import sys

    sys.setswitchinterval(float(_switch))
