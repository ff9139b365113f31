"""Rules of Insurgent Commander as functions over the game state, by rulebook section."""
