"""The national standings PDF of a simultaneous game (organisers only), built at once: a few thousand rows."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.utils import translation
from django.views.decorators.http import require_GET

from ..models import Simultaneous
from ..services import simultaneous
from ..web.organiser import organiser_view
from .documents.national import national_document


@organiser_view
@require_GET
def national_pdf(request: HttpRequest, simul: Simultaneous) -> HttpResponse:
    filters = {k: request.GET.get(k, "")[:200] for k in simultaneous.FILTERS if request.GET.get(k)}
    with translation.override(simul.language):
        data = national_document(simul, **filters).build()
    response = HttpResponse(data, content_type="application/pdf")
    response["Content-Disposition"] = f'inline; filename="national-{str(simul.game_id)[:8]}.pdf"'
    return response


__all__ = ["national_pdf"]
