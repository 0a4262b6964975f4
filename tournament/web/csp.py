"""The Content-Security-Policy of every answer (issue 15): scripts, styles, fonts, images and fetches come from this
site's own files only; no inline script, no ``<style>`` block, no ``style`` attribute, no ``on…=`` handler is run or
applied, no plug-in is loaded, no other site may frame a page, and forms post to this site only.

The policy is the setting ``SECURE_CSP`` (directive → sources, the setting and shape of Django ≥ 6.0, whose
``django.middleware.csp.ContentSecurityPolicyMiddleware`` could take over then, less the PDF and debug rules below). A path may get a narrower exception
in ``SECURE_CSP_EXCEPTIONS`` (path prefix → directives replaced); none is needed today: the console, the tablet,
the display, Django's admin, the API's browsable pages and the Swagger UI all run under the strict policy
(``tests/tournament/web/test_csp_browser.py``).

Data for the scripts travels in ``data-*`` attributes and ``<script type="application/json">`` blocks
(``json_script``): a data block is never run, so ``script-src`` does not concern it (no nonce needed). A value
that changes per element is an element's own (a ``<progress>``'s value) or a class; a script may also set a style
through the CSSOM (``element.style.x = …``), which the policy allows — never a ``style`` attribute.

With ``DJANGO_DEBUG=1`` an error answer (status 400 and over) goes without the policy too: Django's technical error
pages are made of inline styles and scripts, and a developer reads them; production never sends them.

A PDF is sent without the policy: the browser shows it in a viewer page of its own, whose inline styles and
embedded plug-in a page policy may refuse (Chromium has shown such a PDF blank or cut off, crbug.com/271452); a
PDF runs none of our scripts, so the policy would protect nothing there.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

from django.conf import settings
from django.http import HttpRequest, HttpResponseBase

HEADER = "Content-Security-Policy"
#: Answers whose content type starts so are sent without a policy (see the module's docstring).
WITHOUT_POLICY = ("application/pdf",)


def header_value(directives: Mapping[str, Sequence[str] | str]) -> str:
    """``{"default-src": ["'self'"], "img-src": ["'self'", "data:"]}`` → ``default-src 'self'; img-src 'self' data:``."""
    parts = []
    for name, sources in directives.items():
        values = [sources] if isinstance(sources, str) else list(sources)
        parts.append(" ".join([name, *values]).strip())
    return "; ".join(parts)


class ContentSecurityPolicy:
    """Middleware: adds ``SECURE_CSP`` (or a path's exception) to every answer that has no policy of its own."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponseBase]):
        self.get_response = get_response
        base = dict(getattr(settings, "SECURE_CSP", {}))
        self.policy = header_value(base)
        exceptions: Mapping[str, Mapping[str, Sequence[str]]] = getattr(settings, "SECURE_CSP_EXCEPTIONS", {})
        # the longest prefix first: a deeper path's exception wins over its parent's
        self.exceptions = sorted(((prefix, header_value({**base, **changes})) for prefix, changes in exceptions.items()),
                                 key=lambda item: len(item[0]), reverse=True)

    def policy_for(self, path: str) -> str:
        return next((value for prefix, value in self.exceptions if path.startswith(prefix)), self.policy)

    def __call__(self, request: HttpRequest) -> HttpResponseBase:
        response = self.get_response(request)
        if (self.policy and HEADER not in response
                and not response.get("Content-Type", "").startswith(WITHOUT_POLICY)
                and not (settings.DEBUG and response.status_code >= 400)):
            response[HEADER] = self.policy_for(request.path_info)
        return response
