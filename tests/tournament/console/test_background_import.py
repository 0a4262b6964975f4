"""Issue 35 item 6: a CSV import of many players runs in the background in short transactions with a
progress page; the file is checked whole first; limits on size and rows; a small file is imported at once."""

from __future__ import annotations

import re

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from tournament.models import AuditLog, Player
from tournament.services import playerimport

pytestmark = [pytest.mark.django_db]


def csv_of(n: int, start: int = 0) -> str:
    return "name;club\n" + "".join(f"Player {i:05d};Club {i % 40}\n" for i in range(start, start + n))


def test_a_large_file_is_imported_by_the_worker_in_batches(client, alice, tournament, eager, settings, tmp_path,
                                                          monkeypatch):
    settings.VAR_DIR = tmp_path
    batches: list[int] = []
    real = playerimport.register_batch
    monkeypatch.setattr(playerimport, "register_batch",
                        lambda actor, t, rows: batches.append(len(rows)) or real(actor, t, rows))
    client.force_login(alice)
    url = reverse("arbiter:import", args=[tournament.slug])
    with eager(execute=True):
        answer = client.post(url, {"file": SimpleUploadedFile("players.csv", csv_of(1_201).encode())})
    assert answer.status_code == 302 and "?job=" in answer["Location"]
    job = answer["Location"].split("?job=")[1]
    assert batches == [200] * 6 + [1]  # one transaction each
    assert tournament.registrations.count() == 1_201
    assert sorted(tournament.registrations.values_list("table_number", flat=True)) == list(range(1, 1_202))
    status = client.get(reverse("arbiter:import_status", args=[tournament.slug, job])).json()
    assert status["progress"] == 100 and status["done"] is True
    page = client.get(answer["Location"]).content.decode()
    assert 'id="import-done"' in page and "1201" in page.replace("\u00a0", "").replace(",", "")
    assert AuditLog.objects.filter(action="player.import").count() == 7
    # the codes to hand out: every imported player has his sealed code
    assert not tournament.registrations.filter(access_code_sealed="").exists()
    assert not list((tmp_path / "imports").glob("*.rows.json"))  # the rows are removed once imported


def test_a_running_import_shows_a_polling_progress_bar(client, alice, tournament, settings, tmp_path, bob):
    settings.VAR_DIR = tmp_path
    rows = [{"name": f"P{i}", "club": "", "category": "", "series": "", "licence": ""} for i in range(800)]
    job = playerimport.start(alice, tournament, rows)  # not run: no worker in this test
    client.force_login(alice)
    page = client.get(reverse("arbiter:import", args=[tournament.slug]) + f"?job={job}").content.decode()
    assert 'id="build-progress"' in page and 'value="0"' in page and "progress.js" in page
    assert reverse("arbiter:import_status", args=[tournament.slug, job]) in page
    playerimport.run(job)
    assert client.get(reverse("arbiter:import_status", args=[tournament.slug, job])).json()["done"] is True
    assert playerimport.run(job)["done"] == 800 and Player.objects.count() == 800  # run again: nothing twice
    assert client.get(reverse("arbiter:import_status", args=[tournament.slug, "0" * 32])).status_code == 404
    assert client.get(f"/arbiter/t/{tournament.slug}/players/import/..%2F..%2Fx/").status_code == 404
    client.force_login(bob)  # another tournament's arbiter
    assert client.get(reverse("arbiter:import_status", args=[tournament.slug, job])).status_code == 404


def test_limits_and_errors_of_the_whole_file_at_once(client, alice, tournament, settings, tmp_path):
    settings.VAR_DIR = tmp_path
    client.force_login(alice)
    url = reverse("arbiter:import", args=[tournament.slug])
    form = client.get(url).content.decode()
    assert "4 MB" in form.replace("\u00a0", " ") or "4 МБ" in form.replace("\u00a0", " ")
    big = SimpleUploadedFile("big.csv", b"x" * (playerimport.MAX_BYTES + 1))
    answer = client.post(url, {"file": big})
    assert answer.status_code == 200 and answer.context["form"].errors and Player.objects.count() == 0
    text = csv_of(900) + ";no name\nA;B;C;D;E;F\n"
    answer = client.post(url, {"text": text})
    assert [p.line for p in answer.context["problems"]] == [902, 903] and Player.objects.count() == 0
    assert not (tmp_path / "imports").exists() or not list((tmp_path / "imports").iterdir())


def test_too_many_rows_are_refused(client, alice, tournament, settings, tmp_path, monkeypatch):
    settings.VAR_DIR = tmp_path
    monkeypatch.setattr(playerimport, "MAX_ROWS", 600)
    client.force_login(alice)
    answer = client.post(reverse("arbiter:import", args=[tournament.slug]), {"text": csv_of(601)}, follow=True)
    said = " ".join(str(m) for m in answer.context["messages"])
    assert re.search(r"601", said) and "600" in said and Player.objects.count() == 0
