"""The project's URLs plus the tablet and display pages (see :mod:`tests.load.screens_settings`)."""

from django.urls import include, path

from tournament.urls import urlpatterns as project

routed = {str(p.pattern) for p in project}
urlpatterns = [
    *([path("tablet/", include("tournament.tablet_urls"))] if "tablet/" not in routed else []),
    *([path("display/", include("tournament.display_urls"))] if "display/" not in routed else []),
    *project,
]
