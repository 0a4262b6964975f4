"""Issue 34, defect 1 on paper: the board diagram's row letters are drawn apart from the digits (each in a box, as
on the screens), so that a row З is never read as 3, О as 0, Б as 6; the column numbers stay plain."""

from __future__ import annotations

from typing import Any

import pytest

from tournament import labels
from tournament.printing.documents.board import BoardDiagram
from tournament.printing.layout import register_fonts

ROWS = "АБВГДЕЖЗИКЛМНОП"


class Canvas:
    """Records what a flowable draws: (method, arguments)."""

    def __init__(self) -> None:
        self.calls: list[tuple[str, tuple[Any, ...]]] = []

    def __getattr__(self, name: str) -> Any:
        return lambda *args, **kwargs: self.calls.append((name, args))


def drawn(convention: str, script: str) -> tuple[list[tuple[float, float, str]], list[tuple[float, float, float, float]]]:
    """The labels of an empty board as drawn: (x, baseline, text) of each string, (x, y, w, h) of each rounded box."""
    diagram = BoardDiagram("uk", "", width=300, fonts=register_fonts(),
                           style=labels.script_style(convention, script))
    canvas = Canvas()
    diagram.canv = canvas
    diagram.draw()
    texts = [(a[0], a[1], a[2]) for name, a in canvas.calls if name == "drawCentredString"]
    boxes = [(a[0], a[1], a[2], a[3]) for name, a in canvas.calls if name == "roundRect"]
    return texts, boxes


def boxed(text: tuple[float, float, str], boxes: list[tuple[float, float, float, float]]) -> bool:
    x, baseline, _ = text
    return any(bx < x < bx + w and by < baseline < by + h for bx, by, w, h in boxes)


@pytest.mark.parametrize("script, rows", [("cyrillic", ROWS), ("latin", "ABCDEFGHIJKLMNO")])
def test_every_row_letter_is_boxed_and_no_column_number(script: str, rows: str) -> None:
    texts, boxes = drawn("duplicate", script)
    letters = [t for t in texts if not t[2].isdigit() and t[2] not in ("★", "×2", "×3", "2", "3")]
    numbers = [t for t in texts if t[2].isdigit() and 1 <= int(t[2]) <= 15 and t[1] > 280]  # the top line
    assert "".join(t[2] for t in letters) == rows
    assert all(boxed(t, boxes) for t in letters)
    assert [t[2] for t in numbers] == [str(n) for n in range(1, 16)] and not any(boxed(t, boxes) for t in numbers)


def test_the_english_convention_boxes_its_column_letters() -> None:
    texts, boxes = drawn("english", "latin")
    letters = [t for t in texts if t[2] in "ABCDEFGHIJKLMNO" and len(t[2]) == 1]
    assert "".join(t[2] for t in letters) == "ABCDEFGHIJKLMNO" and all(boxed(t, boxes) for t in letters)
