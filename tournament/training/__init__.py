"""Training: a finished game played again by a player on a tablet or a laptop (pages and their services)."""
