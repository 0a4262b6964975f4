"""Issue 35 item 9: a word list too large is refused before it is built — its size before reading, its word
count and the estimated edges of its graph while reading — with the limits in the message, in seconds and
with little memory (a 200 MB list of random words); a real list passes."""

from __future__ import annotations

import random
import time
import tracemalloc

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse
from django.utils import translation

from lexicon import limits, services
from lexicon.models import Lexicon, LexiconError
from tests.paths import ROOT

pytestmark = [pytest.mark.django_db, pytest.mark.one_backend]  # reading limits: no query of note
LETTERS = bytes(range(ord("a"), ord("z") + 1))


def random_bytes(size: int, rng: random.Random) -> bytes:
    """Random letters with a line break for one byte value in twelve: words of 11 letters on average."""
    table = bytes(10 if i % 12 == 0 else LETTERS[i % 26] for i in range(240)) * 2
    return rng.randbytes(size).translate(table[:256])


def random_list(path, megabytes: float, seed: int = 1) -> None:
    """Random words, written 4 MB at a time (C speed: bytes.translate)."""
    rng = random.Random(seed)
    left = int(megabytes * 1024 * 1024)
    with open(path, "wb") as out:
        while left > 0:
            block = random_bytes(min(left, 4 * 1024 * 1024), rng)
            out.write(block)
            left -= len(block)



@pytest.fixture
def never_built(monkeypatch):
    def build(*args, **kwargs):
        raise AssertionError("the graph builder was reached")

    monkeypatch.setattr(services, "build", build)


@translation.override("en")
def test_a_200_mb_random_list_is_refused_in_seconds_with_little_memory(tmp_path, lexdir, never_built):
    path = tmp_path / "random.txt"
    random_list(path, 200)
    tracemalloc.start()
    started = time.perf_counter()
    with pytest.raises(LexiconError, match=r"200 MB\. A word list may have at most 100 MB, 6,000,000 words"):
        services.import_wordlist("random", "en", path)
    seconds = time.perf_counter() - started
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    print(f"\n200 MB random list refused in {seconds:.3f} s, Python peak {peak / 1e6:.1f} MB")
    assert peak < 20e6  # refused by its size before reading (the time is printed: a figure, not a test)
    assert not Lexicon.objects.exists()


@translation.override("en")
def test_random_words_under_the_size_limit_are_refused_while_reading(tmp_path, lexdir, never_built):
    path = tmp_path / "random.txt"
    random_list(path, 30, seed=2)  # about 3.3 M words: under 100 MB and 6 M words, over the edges
    tracemalloc.start()
    started = time.perf_counter()
    with pytest.raises(LexiconError, match=r"would need about [\d,]+ edges\. .*16,777,216 edges") as refused:
        services.import_wordlist("random", "en", path)
    seconds = time.perf_counter() - started
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    print(f"\n30 MB random list refused in {seconds:.3f} s, Python peak {peak / 1e6:.1f} MB: {refused.value}")
    first = int(str(refused.value).split("first ")[1].split(" words")[0].replace(",", ""))
    assert first < 1_500_000  # refused on the way, not at the end of the file
    assert peak < 60e6  # the time is printed for docs/en/developer/performance.md (a figure of a loaded machine, not a test)


@translation.override("en")
def test_too_many_words_are_refused_while_reading(tmp_path):
    path = tmp_path / "many.txt"
    path.write_bytes(b"ab\n" * (limits.MAX_WORDS + 1))
    with pytest.raises(limits.ListTooLarge, match="more than 6,000,000 words"):
        limits.check_file(path)


def test_real_lists_pass_with_their_figures():
    figures = limits.check_file(ROOT / "fixtures" / "lexicons" / "sim-pl.txt")
    assert figures.lines > 1000 and 0 < figures.edges < limits.MAX_EDGES
    assert limits.new_letters([s.encode() for s in ("кот", "кота")]) == limits.new_letters([b"kot", b"kota"]) == 2.0  # letters, not bytes
    lines = [b"kot", b"kota", b"kotem", b"kotami", b"kotach", b"koty", b"k", b"x" * 16]  # k, xxx…: not words
    assert limits.new_letters(lines) == pytest.approx((3 + 1 + 2 + 2 + 2 + 1) / 6)  # kot kota kotach kotami …


def test_the_upload_page_refuses_it_before_storing_it_in_the_pages_language(client, lexdir, django_user_model,
                                                                              never_built):
    staff = django_user_model.objects.create_user("chief", password="x", is_staff=True)
    client.force_login(staff)
    letters = random.Random(3).randbytes(12 * 400_000).translate(bytes(LETTERS[i % 26] for i in range(256)))
    words = b"\n".join(letters[i:i + 12] for i in range(0, len(letters), 12))  # 400,000 random words of 12
    upload = SimpleUploadedFile("random.txt", words)
    response = client.post(reverse("lexicon:upload") + "?lang=ru", {"name": "rnd", "ruleset": "en", "file": upload},
                           HTTP_ACCEPT_LANGUAGE="ru")
    assert response.status_code == 200
    page = response.content.decode()
    assert "16\u00a0777\u00a0216" in page and "МБ" in page and "would need" not in page
    assert not Lexicon.objects.exists() and not (lexdir / "uploads").exists()
    form = client.get(reverse("lexicon:upload") + "?lang=en").content.decode()
    assert "6\u00a0000\u00a0000 слов" in form and "100 МБ" in form  # the limits are said under the file field
