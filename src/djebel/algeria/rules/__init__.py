"""The rules, grouped by the rulebook's structure; importing this registers every step."""

from djebel.algeria.rules import (  # noqa: F401
    combat,
    deployment,
    events,
    interphase,
    missions_fln,
    missions_gov,
    operations,
    reinforcement,
    setup,
    special,
)
