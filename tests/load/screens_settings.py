"""Settings of a load run while ``tournament/urls.py`` doesn't route the tablet and display pages yet.

Same settings, plus the URL conf :mod:`tests.load.screens_urls` (the project's URLs + ``/tablet/`` +
``/display/``) so that the load test can poll the tablet's state version (ETag / 304) as the tablet page does.
``manage.py loadtest --settings-module tests.load.screens_settings``.
"""

from tournament.settings import *  # noqa: F401,F403

ROOT_URLCONF = "tests.load.screens_urls"
