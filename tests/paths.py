"""Where things are, for every test: the checkout, its fixtures and the shared bench and records."""

from __future__ import annotations

import os
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = ROOT / "fixtures"
LEXICONS = FIXTURES / "lexicons"
LOCALE = ROOT / "locale"
SHARED = Path(os.environ.get("SHARED_DIR", ROOT.parent / "shared"))
BENCH = SHARED / "bench"
RECORDS = SHARED / "records"
