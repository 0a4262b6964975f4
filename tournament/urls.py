"""URLs, split by audience: arbiter console, player tablet, public display, API."""

from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.urls import include, path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerView

from . import views_home

urlpatterns = [
    path("", views_home.home, name="home"),
    path("arbiter/login/", auth_views.LoginView.as_view(), name="login"),
    path("arbiter/logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("arbiter/lexicons/", include("lexicon.urls")),
    path("arbiter/pdf/", include("tournament.pdf_urls")),
    path("arbiter/", include("tournament.arbiter_urls")),
    path("tablet/", include("tournament.tablet_urls")),
    path("display/", include("tournament.display_urls")),
    path("admin/", admin.site.urls),
    path("api/", include("tournament.api.urls")),
    path("api/schema/", SpectacularAPIView.as_view(), name="api-schema"),
    path("api/docs/", SpectacularSwaggerView.as_view(url_name="api-schema"), name="api-docs"),
]

handler400 = "tournament.views_home.bad_request"
handler404 = "tournament.views_home.page_not_found"
handler500 = "tournament.views_home.server_error"
