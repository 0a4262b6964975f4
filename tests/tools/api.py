"""The REST API as a client sees it: arbiter and tablet clients, a hall of 30 players with logged-in tablets."""

from __future__ import annotations

from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

A = "/api/arbiter"
T = "/api/tablet"
P = "/api/public"


def arbiter_client(user) -> APIClient:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {Token.objects.get_or_create(user=user)[0].key}")
    return client


def tablet_client(token: str) -> APIClient:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Tablet {token}")
    return client


def ok(response, status=200):
    assert response.status_code == status, (response.status_code, response.content[:500])
    return response.json()


def error(response, status, code=None):
    assert response.status_code == status, (response.status_code, response.content[:500])
    body = response.json()
    assert isinstance(body["detail"], str) and body["detail"] and body["code"], body
    if code is not None:
        assert body["code"] == code, body
    return body


def slip_body(text: str, **extra) -> dict:
    parts = text.split()
    score = int(parts[-1]) if parts[-1].isdigit() else None
    words = parts[:-1] if score is not None else parts
    coord, word = (words[0], words[1]) if len(words) == 2 else ("", words[0])
    return {"word": word, "coordinates": coord, "score": score, **extra}


class Hall:
    """A tournament of ``players`` players (30 by default), each with a logged-in tablet."""

    def __init__(self, alice, tournament, players: int = 30):
        self.arbiter = arbiter_client(alice)
        self.t = tournament
        self.tables, self.tablets = [], []
        for i in range(players):
            reg = ok(self.arbiter.post(f"{A}/tournaments/{tournament.slug}/registrations/",
                                       {"name": f"Player {i:02d}", "club": "AB"[i % 2], "series": "XYZ"[i % 3]},
                                       format="json"), 201)
            login = ok(APIClient().post(f"{T}/login/", {"code": reg["access_code"]}, format="json"))
            assert (login["table"], login["tournament"]) == (reg["table_number"], tournament.slug)
            self.tables.append(reg["table_number"])
            self.tablets.append(tablet_client(login["token"]))
        self.keys = 0

    def send(self, i: int, text: str, key: str | None = None):
        self.keys += 1
        return self.tablets[i].post(f"{T}/slip/", slip_body(text), format="json",
                                    HTTP_IDEMPOTENCY_KEY=key or f"k{self.keys}")

    def round_action(self, rnd_id: int, action: str, body=None):
        return self.arbiter.post(f"{A}/rounds/{rnd_id}/{action}/", body or {}, format="json")

    def verdicts(self, rnd_id: int) -> dict[int, dict]:
        return {v["table"]: v for v in ok(self.arbiter.get(f"{A}/rounds/{rnd_id}/verdicts/"))}


__all__ = ["A", "P", "T", "Hall", "arbiter_client", "error", "ok", "slip_body", "tablet_client"]
