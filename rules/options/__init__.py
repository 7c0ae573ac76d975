"""What each rule option of :class:`rules.ruleset.RuleSet` means, in words, with its source
and the values the rules allow. The values themselves (and their defaults) live on ``RuleSet``.

* ``option``: :class:`Option` (one option's words, source, choices and range), ``SOURCES``;
* ``core``: dice and difficulties, characters, points and advancement, the Force;
* ``combat``: combat, injuries and healing;
* ``gear``: droids, equipment and vehicles, movement, chases and falling.

``OPTIONS`` maps every option name to its :class:`Option`.
"""

from rules.options import combat, core, gear
from rules.options.option import OFF, SOURCES, Option, option

__all__ = ["OFF", "OPTIONS", "SOURCES", "Option", "option"]

OPTIONS: dict[str, Option] = {**core.OPTIONS, **combat.OPTIONS, **gear.OPTIONS}
