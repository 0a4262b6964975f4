"""The files of a simultaneous game read alone: shape, totals, signature over the canonical form."""

from __future__ import annotations

import copy
import json

import pytest
from django.utils import translation

from tests.tournament.simultaneous.rows import ROUNDS
from tournament.errors import ServiceError
from tournament.services import simulfiles

KEY = "k" * 64
RESULTS = {"format": simulfiles.RESULTS_FORMAT, "version": 1, "game": "g", "hall": "paris", "lexicon_hash": "h",
           "variant": "classic", "rounds": ROUNDS, "finished": True, "players": [
               {"name": "Анна", "club": "", "series": "A", "category": "", "scores": [20, 28], "warnings": 1,
                "solos": 10, "penalties": 5, "total": 53}]}


def refused(data) -> str:
    with pytest.raises(ServiceError) as exc:
        simulfiles.read_results(data)
    return exc.value.code


def test_the_signature_is_over_the_canonical_form_whatever_the_layout():
    signed = simulfiles.signed_results(RESULTS, KEY)
    compact = json.dumps(signed, ensure_ascii=True)  # another layout, escapes: the same results
    results, signature = simulfiles.read_results(compact)
    simulfiles.verify(results, signature, KEY)
    simulfiles.verify(*simulfiles.read_results(simulfiles.dumps(signed)), KEY)
    assert simulfiles.digest(results) == simulfiles.digest(RESULTS)
    with pytest.raises(ServiceError) as exc:
        simulfiles.verify(results, signature, "j" * 64)
    assert exc.value.code == "simul_signature"


def test_a_file_of_the_wrong_shape_is_refused_with_the_reason():
    assert refused(b"\xff\xfe") == "simul_bad_file"
    assert refused("[1, 2]") == "simul_bad_file"
    assert refused(json.dumps({"results": RESULTS})) == "simul_signature"  # no signature at all
    for change in ({"scores": [20]}, {"scores": [20, "28"]}, {"name": None}):
        doc = copy.deepcopy(RESULTS)
        doc["players"][0].update(change)
        assert refused(simulfiles.signed_results(doc, KEY)) == "simul_bad_file", change
    doc = copy.deepcopy(RESULTS)
    doc["rounds"][1]["round"] = 3
    assert refused(simulfiles.signed_results(doc, KEY)) == "simul_bad_file"
    with pytest.raises(ServiceError) as exc:
        simulfiles.read_package(simulfiles.signed_results(RESULTS, KEY))
    assert exc.value.code == "simul_bad_file"


def test_a_total_that_does_not_add_up_is_named_after_the_signature_is_checked():
    signed = simulfiles.signed_results(RESULTS, KEY)
    signed["results"]["players"][0]["total"] = 54  # changed after signing
    results, signature = simulfiles.read_results(signed)  # the shape is right
    with pytest.raises(ServiceError) as exc:
        simulfiles.verify(results, signature, KEY)
    assert exc.value.code == "simul_changed" and "Анна" in exc.value.message
    with translation.override("en"):
        assert exc.value.hint == "The results file was changed after it was signed."
    resigned = simulfiles.signed_results(results, KEY)  # signed so by the hall's own server
    simulfiles.verify(*simulfiles.read_results(resigned), KEY)
    with pytest.raises(ServiceError) as exc:
        simulfiles.check_totals(resigned["results"])
    assert exc.value.code == "simul_totals"
