"""Printing (PDF) for arbiters. Included by tournament/urls.py as
``path("arbiter/pdf/", include("tournament.printing.urls"))``."""

from django.urls import path

from . import views as v
from .national import national_pdf

app_name = "pdf"

urlpatterns = [
    path("t/<slug:slug>/", v.index, name="index"),
    path("t/<slug:slug>/request/", v.request_document, name="request"),
    path("t/<slug:slug>/jobs/<str:job>/", v.job_page, name="job"),
    path("t/<slug:slug>/jobs/<str:job>/status.json", v.job_status, name="status"),
    path("t/<slug:slug>/jobs/<str:job>/file/", v.download, name="download"),
    path("simultaneous/<uuid:game>/national.pdf", national_pdf, name="national"),
]
