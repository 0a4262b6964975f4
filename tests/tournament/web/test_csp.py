"""Issue 15: a strict Content-Security-Policy on every page, and nothing inline it would refuse.

Every page of a played Ukrainian hall (the hall of ``test_hall_language``: console, lexicon, print, tablet, display,
home, logins, an error page) and the pages of the tools around it (Django's admin, the API's browsable pages, the
Swagger UI) carries the policy, and its HTML holds no ``<style>`` block, no ``style`` attribute, no ``on…=``
handler, no ``javascript:`` link and no inline script (a ``<script type="application/json">`` data block is data:
it is never run). The templates and the Python that writes HTML are read for the same. The browser's side —
nothing refused, the pages still look right — is ``test_csp_browser.py``.
"""

from __future__ import annotations

import json
import re
from html.parser import HTMLParser
from pathlib import Path

import pytest
from django.conf import settings
from django.http import HttpResponse
from django.test import Client
from django.urls import reverse

from tests.paths import ROOT
from tests.tournament.web.test_hall_language import console_pages, lexicon_pages, played_hall
from tournament import services
from tournament.models import Round, Verdict
from tournament.web import csp

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("local_cache")]

#: The policy, as the pages send it.
POLICY = ("default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; font-src 'self'; "
          "connect-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'; form-action 'self'")
HANDLER = re.compile(r"^on[a-z]+$")


class _Inline(HTMLParser):
    """What the policy would refuse in a page: style blocks and attributes, handlers, inline scripts."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.found: list[str] = []
        self._data: list[str] | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = dict(attrs)
        where = self.getpos()[0]
        if tag == "style":
            self.found.append(f"line {where}: <style> block")
        for name, value in attrs:
            if name == "style" or HANDLER.match(name):
                self.found.append(f"line {where}: <{tag} {name}=…>")
            if (value or "").strip().lower().startswith("javascript:"):
                self.found.append(f"line {where}: <{tag} {name}={value!r}>")
        if tag == "script" and "src" not in a:
            if a.get("type") == "application/json":
                self._data = []
            else:
                self.found.append(f"line {where}: inline <script {a}>")
        href = (a.get("href") or "").strip()  # blank in a template: a variable, read on the rendered pages
        if tag == "link" and "stylesheet" in (a.get("rel") or "") and href and not href.startswith("/static/"):
            self.found.append(f"line {where}: a style sheet from elsewhere: {href}")

    def handle_data(self, data: str) -> None:
        if self._data is not None:
            self._data.append(data)

    def handle_endtag(self, tag: str) -> None:
        if tag == "script" and self._data is not None:
            json.loads("".join(self._data))  # a data block holds data only
            self._data = None


def inline(html: str) -> list[str]:
    parser = _Inline()
    parser.feed(html)
    parser.close()
    return parser.found


def check(client: Client, url: str, found: list[str], *, status: int = 200, **headers: str) -> str:
    response = client.get(url, **headers)
    assert response.status_code == status, url
    assert response.get(csp.HEADER) == POLICY, url
    html = response.content.decode()
    found += [f"{url} {problem}" for problem in inline(html)]
    return html


def test_every_page_of_a_played_hall_has_the_policy_and_nothing_inline(client, alice, monkeypatch, eager):
    t, regs, code = played_hall("uk", alice, monkeypatch, eager)
    alice.is_staff = alice.is_superuser = True  # the lexicon upload page and the admin too
    alice.save()
    client.force_login(alice)
    job = client.post(reverse("pdf:request", args=[t.slug]), {"kind": "standings"})
    rnd = Round.objects.get(game__tournament=t, number=1)
    verdict = Verdict.objects.filter(round=rnd).first()
    assert job.status_code == 302 and verdict is not None
    pages = console_pages(t) + lexicon_pages() + [
        job.url, reverse("home"), reverse("arbiter:standings", args=[t.slug]) + "?by=club",
        reverse("display:index"), reverse("display:display", args=[t.slug])]
    admin = ["/admin/", "/admin/lexicon/lexicon/", f"/admin/lexicon/lexicon/{t.lexicon_id}/change/", "/admin/auth/user/",
             f"/admin/auth/user/{alice.pk}/change/", "/admin/auth/user/add/", "/admin/password_change/"]
    api = [reverse("api:arbiter-tournaments"), reverse("api:arbiter-tournament", args=[t.slug]),
           reverse("api:arbiter-games", args=[t.slug]), reverse("api:arbiter-round", args=[rnd.pk]),
           reverse("api:public-standings", args=[t.slug])]
    found: list[str] = []
    for url in pages + admin:
        check(client, url, found)
    for url in api:  # the browsable pages, as a browser asks for them
        check(client, url, found, HTTP_ACCEPT="text/html")
    # a POST-only endpoint: its page says 405 and shows the form to post
    check(client, reverse("api:arbiter-verdict-override", args=[verdict.pk]), found, status=405, HTTP_ACCEPT="text/html")
    docs = check(client, reverse("api-docs"), found)
    script = re.search(r'<script src="([^"]*\?[^"]*script=[^"]*)"', docs)
    assert script, "the Swagger UI's own script comes from a URL, not inline"
    answer = client.get(script.group(1).replace("&amp;", "&"))
    assert answer.status_code == 200 and answer["Content-Type"].startswith("application/javascript")
    assert client.get(reverse("api:arbiter-tournaments"))[csp.HEADER] == POLICY  # JSON answers too

    check(client, "/no-such-page/", found, status=404)
    anonymous = Client()
    anonymous.cookies["django_language"] = "uk"
    for url in (reverse("login"), reverse("tablet:login"), reverse("home")):
        check(anonymous, url, found)
    _reg, token = services.players.login(code)
    anonymous.cookies["tablet_token"] = token
    app = check(anonymous, reverse("tablet:app"), found)
    assert 'id="tablet-config" type="application/json"' in app  # its data, as a data block
    assert not found, "\n".join(found)


def test_the_templates_and_the_html_written_in_python_hold_nothing_inline():
    assert len(inline('<p style="x" onclick="y"><style>p {}</style><script>go()</script><a href="javascript:go()">'
                      '<link rel="stylesheet" href="https://cdn.example/x.css">')) == 6
    assert inline('<script id="d" type="application/json">{"a": 1}</script><script src="/static/js/x.js"></script>'
                  '<details open><progress max="100" value="5"></progress></details>') == []
    found = []
    for path in sorted((ROOT / "templates").rglob("*.html")):
        text = path.read_text(encoding="utf-8")
        # template tags may stand where attributes go: read the page with them blanked out (comments dropped)
        text = re.sub(r"\{% comment %\}.*?\{% endcomment %\}", "", text, flags=re.S)
        text = re.sub(r"\{% static .*?%\}", "/static/file", text)
        page = re.sub(r"\{%.*?%\}|\{\{.*?\}\}", " ", text, flags=re.S)
        found += [f"{path.relative_to(ROOT)} {problem}" for problem in inline(page)]
    pattern = re.compile(r"""<style|<script>|\sstyle=\\?["']|\son[a-z]+=\\?["']|javascript:""")
    for room in ("tournament", "lexicon"):
        for path in sorted(Path(ROOT / room).rglob("*.py")):
            if path.name == "csp.py" or "migrations" in path.parts:
                continue
            found += [f"{path.relative_to(ROOT)}: {m.group(0)!r}" for m in pattern.finditer(path.read_text("utf-8"))]
    assert not found, "\n".join(found)


def test_the_policy_its_exceptions_and_the_pdfs(rf, settings):
    assert csp.header_value(settings.SECURE_CSP) == POLICY
    assert settings.MIDDLEWARE.index("tournament.web.csp.ContentSecurityPolicy") < settings.MIDDLEWARE.index(
        "whitenoise.middleware.WhiteNoiseMiddleware")  # the static files carry it too

    def answer(content_type: str = "text/html", **headers: str):
        def get_response(request):
            response = HttpResponse(b"x", content_type=content_type)
            for name, value in headers.items():
                response[name] = value
            return response
        return get_response

    page = csp.ContentSecurityPolicy(answer())
    assert page(rf.get("/arbiter/"))[csp.HEADER] == POLICY
    pdf = csp.ContentSecurityPolicy(answer("application/pdf"))
    assert csp.HEADER not in pdf(rf.get("/arbiter/pdf/t/x/jobs/1/download/"))  # the browser's viewer is its own page
    settings.DEBUG = True  # a developer's error pages (inline styles and scripts) are left alone; pages are not
    failed = csp.ContentSecurityPolicy(lambda request: HttpResponse(b"x", status=500))
    assert csp.HEADER not in failed(rf.get("/x/")) and page(rf.get("/x/"))[csp.HEADER] == POLICY
    settings.DEBUG = False
    own = csp.ContentSecurityPolicy(answer(**{csp.HEADER: "default-src 'none'"}))
    assert own(rf.get("/x/"))[csp.HEADER] == "default-src 'none'"  # a view's own policy is kept

    settings.SECURE_CSP_EXCEPTIONS = {"/api/docs/": {"style-src": ["'self'", "'unsafe-inline'"]},
                                      "/api/docs/deeper/": {"style-src": "'none'"}}
    narrower = csp.ContentSecurityPolicy(answer())
    assert narrower(rf.get("/api/docs/"))[csp.HEADER] == POLICY.replace(
        "style-src 'self'", "style-src 'self' 'unsafe-inline'")
    assert "style-src 'none';" in narrower(rf.get("/api/docs/deeper/x"))[csp.HEADER]
    assert narrower(rf.get("/arbiter/"))[csp.HEADER] == POLICY


def test_static_files_carry_the_policy(client):
    response = client.get(settings.STATIC_URL + "css/console.css")
    assert response.status_code == 200 and response[csp.HEADER] == POLICY
