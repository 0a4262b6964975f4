"""The audit log of a tournament: every change, who made it, before and after."""

from __future__ import annotations

from django.core.paginator import Paginator
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET

from ..models import AuditLog, Tournament
from ..web.access import arbiter_view
from .tournaments import context

PAGE_SIZE = 50


@arbiter_view
@require_GET
def audit_log(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    qs = AuditLog.objects.filter(tournament=tournament).select_related("actor")
    action = request.GET.get("action", "")
    if action:
        qs = qs.filter(action__startswith=action)
    page = Paginator(qs, PAGE_SIZE).get_page(request.GET.get("page"))
    actions = sorted({a.split(".")[0] for a in AuditLog.objects.filter(tournament=tournament)
                      .values_list("action", flat=True).distinct()})
    return render(request, "arbiter/audit.html", context(tournament, "audit", page=page, action=action,
                                                         actions=actions))
