"""A big hall made fast: players, registrations and slips bulk-created (no audit rows, no clicking)."""

from __future__ import annotations

from django.utils import timezone

from tournament.models import Player, Registration, Round, Slip, Tournament, secret_hash

CLUBS = ("Київ", "Львів", "Одеса", "Харків", "Полтава")


def bulk_players(tournament: Tournament, n: int, *, first_table: int = 1) -> list[Registration]:
    """``n`` players at tables ``first_table`` … (names "Гравець 0001" …, five clubs), in one go."""
    people = Player.objects.bulk_create(
        [Player(name=f"Гравець {i:04d}", club=CLUBS[i % len(CLUBS)]) for i in range(first_table, first_table + n)],
        batch_size=500)
    Registration.objects.bulk_create(
        [Registration(tournament=tournament, player=p, table_number=first_table + i,
                      access_code_hash=secret_hash(f"BIG{tournament.pk}-{first_table + i}"), access_code_hint="B…")
         for i, p in enumerate(people)], batch_size=500)
    return list(tournament.registrations.select_related("player").order_by("table_number"))


def bulk_slips(rnd: Round, regs: list[Registration], word: str, coordinates: str = "", score: int | None = None,
               ) -> None:
    """One current slip per registration, as if handed in from the tablets now."""
    now = timezone.now()
    Slip.objects.bulk_create(
        [Slip(registration=r, round=rnd, word=word, coordinates=coordinates, announced_score=score, received_at=now,
              idempotency_key=f"bulk-{rnd.pk}-{r.pk}") for r in regs], batch_size=500)
