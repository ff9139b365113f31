"""Batch simulation and tournaments over the game protocol."""
