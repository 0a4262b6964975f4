"""URLs, split by audience: arbiter console, printing, player tablet, hall display, API."""

from django.contrib import admin
from django.urls import include, path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerSplitView

from .web import home, site

urlpatterns = [
    path("", home.home, name="home"),
    path("arbiter/login/", site.LoginView.as_view(), name="login"),
    path("arbiter/logout/", site.LogoutView.as_view(), name="logout"),
    path("favicon.ico", site.favicon, name="favicon"),
    path("arbiter/lexicons/", include("lexicon.urls")),
    path("arbiter/pdf/", include("tournament.printing.urls")),
    path("arbiter/", include("tournament.console.urls")),
    path("tablet/", include("tournament.tablet.urls")),
    path("display/", include("tournament.display.urls")),
    path("training/", include("tournament.training.urls")),
    path("admin/", admin.site.urls),
    path("api/", include("tournament.api.urls")),
    path("api/schema/", SpectacularAPIView.as_view(), name="api-schema"),
    # the split view sends the page's script from ?script, not inline: the Content-Security-Policy allows it
    path("api/docs/", SpectacularSwaggerSplitView.as_view(url_name="api-schema", template_name="api/swagger_ui.html"),
         name="api-docs"),
]

handler400 = "tournament.web.home.bad_request"
handler404 = "tournament.web.home.page_not_found"
handler500 = "tournament.web.home.server_error"
