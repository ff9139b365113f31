"""djebel: counterinsurgency wargames with every rule enforced.

Two games share one protocol (see :mod:`djebel.core.protocol`):
``djebel.algeria`` (the operational board game) and ``djebel.skirmish``
(Insurgent Commander, tactical battles on a continuous table).
"""

__version__ = "0.1.0"
