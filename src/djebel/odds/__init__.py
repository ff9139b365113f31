"""Exact odds for both games, computed with icepool (never by sampling)."""
