"""The hall display (the projector page): public, no login; it follows the rounds by itself through
the version poll and its state (:mod:`tournament.live.display`)."""
