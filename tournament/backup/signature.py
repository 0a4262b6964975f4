"""An archive's signature: an HMAC-SHA256 of its manifest with a key derived from this hall's secret key.

The manifest holds the SHA-256 of every other part (and each lexicon's content hash), so its signature covers
the whole archive. Only a machine with the same secret key makes the same signature: a restore can tell an
archive written by this hall from one written elsewhere, or changed since (the two look the same: another
key and a change both give another signature), or written before archives were signed. The key itself never
leaves the machine (Django's ``salted_hmac``: the secret key and a salt of its own).
"""

from __future__ import annotations

import hmac
import json
from collections.abc import Mapping
from enum import Enum
from typing import Any

from django.utils.crypto import salted_hmac

FIELD = "signature"
SALT = "tournament.backup.manifest"


class Signed(Enum):
    HERE = "here"  # by this hall, and unchanged since
    ELSEWHERE = "elsewhere"  # by another hall, or changed since
    UNSIGNED = "unsigned"


def canonical(manifest: Mapping[str, Any]) -> bytes:
    """The manifest without its signature, as the signature reads it (keys sorted, no spaces, UTF-8)."""
    return json.dumps({k: v for k, v in manifest.items() if k != FIELD}, ensure_ascii=False, sort_keys=True,
                      separators=(",", ":")).encode()


def sign(manifest: Mapping[str, Any]) -> str:
    return salted_hmac(SALT, canonical(manifest), algorithm="sha256").hexdigest()


def signed(manifest: Mapping[str, Any]) -> Signed:
    found = manifest.get(FIELD)
    if not isinstance(found, str) or not found:
        return Signed.UNSIGNED
    return Signed.HERE if hmac.compare_digest(sign(manifest), found) else Signed.ELSEWHERE
