"""Difficulty levels and numbers, and the core rules built on them (dice-and-core.md §3).

* the Rule of Thumb: a roll equal to or higher than the difficulty number succeeds;
* difficulty levels (Very Easy … Heroic, Heroic+10 …) and their numbers on the campaign's scale
  (2E: Very Easy 1–5 … Heroic 31+; Rules Companion: Very Easy 3–5 … Very Difficult 21–30);
* moving a difficulty by levels, the Rules Upgrade lifting table, random difficulties;
* modifiers: the [WIKI] advantage guidelines and numbers or dice added to a difficulty;
* what each level means (the [WIKI]/[UPG] descriptions and the [RC] Difficulty Number Chart).

Opposed rolls, uncertainty dice, preparing and rushing are in :mod:`rules.tasks`. Dice rolled
here are GM-side rolls: they never use a Wild Die (dice-and-core.md A6).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import timedelta
from typing import Literal

from rules.dice import DiceSource, DieCode
from rules.errors import RulesError
from rules.ruleset import RuleSet
from rules.time import ROUND

__all__ = [
    "DIFFICULT",
    "EASY",
    "HEROIC",
    "MODERATE",
    "ROUND",
    "RULE_OF_THUMB",
    "VERY_DIFFICULT",
    "VERY_EASY",
    "DifficultyError",
    "DifficultyLevel",
    "ModifiedDifficulty",
    "RandomDifficulty",
    "add_to_difficulty",
    "advantage_for",
    "chart_range",
    "describe",
    "heroic_plus",
    "legacy_number",
    "level_for",
    "lifting_difficulty",
    "lifting_time_levels",
    "margin",
    "modifier_range",
    "number_range",
    "parse_level",
    "random_dice",
    "random_difficulty",
    "shift",
    "standard_levels",
    "succeeds",
]

RULE_OF_THUMB = (
    "Pick a difficulty number. If the character's skill roll is equal or higher, he succeeds."
)
"""The Star Wars Rule of Thumb [UPG] (001 l.11); [WIKI]: "tie with or beat"."""


class DifficultyError(RulesError):
    """A difficulty question the rules cannot answer, with a message a player understands."""


# ---------------------------------------------------------------------------------------------
# Levels
# ---------------------------------------------------------------------------------------------
_NAMES = ("Very Easy", "Easy", "Moderate", "Difficult", "Very Difficult", "Heroic")
_HEROIC = 5
_VERY_DIFFICULT = 4


@dataclass(frozen=True, slots=True, order=True)
class DifficultyLevel:
    """A difficulty level as an ordinal (dice-and-core.md §3.5): Very Easy 0 … Heroic 5,
    Heroic+10 6, Heroic+20 7 and so on. ``str()`` is the display name."""

    ordinal: int

    def __post_init__(self) -> None:
        if isinstance(self.ordinal, bool) or not isinstance(self.ordinal, int):
            raise DifficultyError(f"a difficulty level is a whole number, not {self.ordinal!r}")
        if self.ordinal < 0:
            raise DifficultyError("there is no difficulty level below Very Easy")

    @property
    def heroic_plus(self) -> int | None:
        """N in Heroic+N (0 for plain Heroic); None below Heroic."""
        if self.ordinal < _HEROIC:
            return None
        return (self.ordinal - _HEROIC) * 10

    def __str__(self) -> str:
        if self.ordinal <= _HEROIC:
            return _NAMES[self.ordinal]
        return f"Heroic+{self.heroic_plus}"

    def __repr__(self) -> str:
        return f"DifficultyLevel('{self}')"

    @classmethod
    def parse(cls, text: str | DifficultyLevel) -> DifficultyLevel:
        """Parse a level name: ``Very Easy``, ``very-easy``, ``VD``, ``Heroic+10``, ``H +20``."""
        return parse_level(text)

    @classmethod
    def from_number(cls, number: int, *, ruleset: RuleSet) -> DifficultyLevel:
        """The level a difficulty number falls in on the campaign's scale (:func:`level_for`)."""
        return level_for(number, ruleset=ruleset)

    @classmethod
    def coerce(cls, value: DifficultyLevel | str | int, *, ruleset: RuleSet) -> DifficultyLevel:
        """A level from what a caller holds: a level, its name (``"Moderate"``) or a difficulty
        number (15 → Moderate on the campaign's scale)."""
        if isinstance(value, DifficultyLevel):
            return value
        if isinstance(value, int) and not isinstance(value, bool):
            return level_for(value, ruleset=ruleset)
        if isinstance(value, str):
            return parse_level(value)
        raise DifficultyError(f"a difficulty is a level, its name or a number, not {value!r}")

    def raised_by(self, levels: int) -> DifficultyLevel:
        """Raise (positive) or lower (negative) by whole levels on the open ladder, never below
        Very Easy: Heroic raised by 1 is Heroic+10. Use :func:`shift` where the campaign's
        scale applies (the Rules Companion's stops at Very Difficult)."""
        if isinstance(levels, bool) or not isinstance(levels, int):
            raise DifficultyError(f"a difficulty moves by whole levels, not {levels!r}")
        return DifficultyLevel(max(0, self.ordinal + levels))

    def numbers(self, *, ruleset: RuleSet) -> tuple[int, int]:
        """The difficulty numbers of this level, lowest and highest (:func:`number_range`)."""
        return number_range(self, ruleset=ruleset)

    def to_json(self) -> dict[str, str]:
        """``{"level": "Heroic+10"}``: the display name, which :meth:`from_json` parses back."""
        return {"level": str(self)}

    @classmethod
    def from_json(cls, data: object) -> DifficultyLevel:
        """The level stored by :meth:`to_json`; a :class:`DifficultyError` for anything else."""
        if not isinstance(data, dict) or set(data) != {"level"}:
            raise DifficultyError(f'a stored difficulty level is {{"level": name}}, not {data!r}')
        return parse_level(data["level"])


VERY_EASY = DifficultyLevel(0)
EASY = DifficultyLevel(1)
MODERATE = DifficultyLevel(2)
DIFFICULT = DifficultyLevel(3)
VERY_DIFFICULT = DifficultyLevel(4)
HEROIC = DifficultyLevel(5)


def heroic_plus(n: int) -> DifficultyLevel:
    """Heroic+N [UPG]: N is 10, 20, 30 … (``heroic_plus(0)`` is plain Heroic)."""
    if isinstance(n, bool) or not isinstance(n, int) or n < 0 or n % 10:
        raise DifficultyError(
            f"Heroic+{n} is not a difficulty; Heroic goes up in steps of 10 (Heroic+10, +20 …)"
        )
    return DifficultyLevel(_HEROIC + n // 10)


_ALIASES = {
    "very easy": 0,
    "ve": 0,
    "easy": 1,
    "e": 1,
    "moderate": 2,
    "m": 2,
    "difficult": 3,
    "d": 3,
    "very difficult": 4,
    "vd": 4,
    "heroic": 5,
    "h": 5,
}
_LEVEL_TEXT = re.compile(r"^(?P<name>[a-z ]+?)\s*(?:\+\s*(?P<plus>\d+))?$")


def parse_level(text: str | DifficultyLevel) -> DifficultyLevel:
    """Parse ``"Moderate"``, ``"very difficult"``, ``"VE"``, ``"Heroic+10"``, ``"Heroic +20"``."""
    if isinstance(text, DifficultyLevel):
        return text
    if not isinstance(text, str):
        raise DifficultyError(f"a difficulty level must be text, not {type(text).__name__}")
    cleaned = re.sub(r"[\s_-]+", " ", text.strip().lower())
    m = _LEVEL_TEXT.match(cleaned)
    if not m or m["name"] not in _ALIASES:
        raise DifficultyError(
            f"{text!r} is not a difficulty level; use Very Easy, Easy, Moderate, Difficult, "
            "Very Difficult, Heroic or Heroic+10"
        )
    ordinal = _ALIASES[m["name"]]
    if m["plus"] is None:
        return DifficultyLevel(ordinal)
    if ordinal != _HEROIC:
        raise DifficultyError(f"{text!r}: only Heroic takes a +N (Heroic+10, Heroic+20 …)")
    return heroic_plus(int(m["plus"]))


# ---------------------------------------------------------------------------------------------
# Numbers on the campaign's scale
# ---------------------------------------------------------------------------------------------
# [WIKI] 003 l.7-12; Heroic 31-40 once Heroic+N is in use (derived from [UPG] 001 l.264).
_RANGES_2E = ((1, 5), (6, 10), (11, 15), (16, 20), (21, 30), (31, 40))
# [RC] "Difficulty Number Scale", 000 l.209-214: no Heroic level.
_RANGES_RC = ((3, 5), (6, 10), (11, 15), (16, 20), (21, 30))
# [RC] "Revised Force Powers", 000 l.4417-4423: First Edition fixed numbers per level.
_LEGACY_NUMBERS = (5, 10, 15, 20, 30)


def _check_on_scale(level: DifficultyLevel, ruleset: RuleSet) -> None:
    if ruleset.difficulty_scale == "rc" and level.ordinal > _VERY_DIFFICULT:
        raise DifficultyError(
            f"the Rules Companion's scale stops at Very Difficult (21-30); it has no {level}"
        )


def number_range(level: DifficultyLevel | str, *, ruleset: RuleSet) -> tuple[int, int]:
    """The difficulty numbers of a level, lowest and highest.

    2E [WIKI]/[UPG]: Very Easy 1–5 … Very Difficult 21–30, Heroic 31–40 (the [WIKI] prints
    "31+"; with Heroic+N in use plain Heroic ends at 40, derived), Heroic+N (31+N)–(40+N).
    [RC]: Very Easy 3–5 … Very Difficult 21–30 and no Heroic."""
    level = parse_level(level)
    _check_on_scale(level, ruleset)
    if ruleset.difficulty_scale == "rc":
        return _RANGES_RC[level.ordinal]
    if level.ordinal <= _HEROIC:
        return _RANGES_2E[level.ordinal]
    n = level.heroic_plus or 0
    return (31 + n, 40 + n)


def level_for(number: int, *, ruleset: RuleSet) -> DifficultyLevel:
    """The level a difficulty number falls in: 14 is Moderate, 45 is Heroic+10 (2E).

    Numbers below the scale count as Very Easy (A13: clamp at Very Easy). On the [RC] scale,
    which has no Heroic, anything above 30 is still Very Difficult."""
    if isinstance(number, bool) or not isinstance(number, int):
        raise DifficultyError(f"a difficulty number is a whole number, not {number!r}")
    ranges = _RANGES_RC if ruleset.difficulty_scale == "rc" else _RANGES_2E
    for ordinal, (_, high) in enumerate(ranges):
        if number <= high:
            return DifficultyLevel(ordinal)
    if ruleset.difficulty_scale == "rc":
        return VERY_DIFFICULT
    return DifficultyLevel(_HEROIC + (number - 31) // 10)


def standard_levels(*, ruleset: RuleSet) -> tuple[DifficultyLevel, ...]:
    """The levels of the campaign's scale, easiest first: Very Easy to Heroic (2E), Very Easy
    to Very Difficult ([RC], which has no Heroic)."""
    top = _VERY_DIFFICULT if ruleset.difficulty_scale == "rc" else _HEROIC
    return tuple(DifficultyLevel(ordinal) for ordinal in range(top + 1))


def legacy_number(level: DifficultyLevel | str) -> int:
    """The First Edition fixed difficulty number that maps onto a level [RC] (000 l.4417):
    5 Very Easy, 10 Easy, 15 Moderate, 20 Difficult, 30 Very Difficult."""
    level = parse_level(level)
    if level.ordinal > _VERY_DIFFICULT:
        raise DifficultyError(f"First Edition difficulty numbers stop at 30; there is no {level}")
    return _LEGACY_NUMBERS[level.ordinal]


def succeeds(total: int, difficulty: int) -> bool:
    """The Rule of Thumb [UPG] [WIKI]: a roll equal to or higher than the difficulty succeeds."""
    return total >= difficulty


def margin(total: int, difficulty: int) -> int:
    """How far a roll beat (positive), met (0) or missed (negative) the difficulty."""
    return total - difficulty


# ---------------------------------------------------------------------------------------------
# Moving a difficulty by levels (§3.5) and the lifting table [UPG]
# ---------------------------------------------------------------------------------------------
def shift(level: DifficultyLevel | str, levels: int, *, ruleset: RuleSet) -> DifficultyLevel:
    """Raise (positive) or lower (negative) a difficulty by whole levels (§3.5).

    Never below Very Easy (A13). 2E: each level above Heroic adds +10 (Heroic → Heroic+10),
    as in the [UPG] lifting table. [RC]: the scale tops out at Very Difficult."""
    level = parse_level(level)
    if isinstance(levels, bool) or not isinstance(levels, int):
        raise DifficultyError(f"a difficulty moves by whole levels, not {levels!r}")
    _check_on_scale(level, ruleset)
    ordinal = max(0, level.ordinal + levels)
    if ruleset.difficulty_scale == "rc":
        ordinal = min(ordinal, _VERY_DIFFICULT)
    return DifficultyLevel(ordinal)


# [UPG] LIFTING, 001 l.112-119: heaviest weight (kg) of each row, lightest first.
LIFTING_TABLE: tuple[tuple[float, DifficultyLevel], ...] = (
    (10, VERY_EASY),
    (50, EASY),
    (100, MODERATE),
    (200, DIFFICULT),
    (500, VERY_DIFFICULT),
    (750, HEROIC),
    (1000, heroic_plus(10)),
    (1500, heroic_plus(20)),
    (2000, heroic_plus(30)),
    (2500, heroic_plus(40)),
    (3000, heroic_plus(50)),
)
# [UPG] 001 l.121-128: time held -> extra levels. "1-6 rounds" (002: "up to 30 seconds").
LIFTING_TIME: tuple[tuple[timedelta, int], ...] = (
    (ROUND * 6, 0),
    (timedelta(minutes=3), 1),
    (timedelta(minutes=10), 2),
    (timedelta(minutes=30), 3),
    (timedelta(hours=1), 4),
)


def lifting_time_levels(held: timedelta) -> int:
    """Extra difficulty levels for holding a weight this long [UPG]: up to 6 rounds none,
    to 3 minutes +1, to 10 minutes +2, to 30 minutes +3, to an hour +4. After the first hour
    the character rolls again every hour at the one-hour difficulty (+4)."""
    if held <= timedelta(0):
        raise DifficultyError("a weight must be held for some time")
    for limit, levels in LIFTING_TIME:
        if held <= limit:
            return levels
    return LIFTING_TIME[-1][1]


def lifting_difficulty(kg: float, held: timedelta = ROUND) -> DifficultyLevel:
    """The lifting (Strength) difficulty for a weight held for a time [UPG]: 100 kg Moderate,
    750 kg Heroic, 1 metric ton Heroic+10, 3 t Heroic+50, plus the time-held levels.

    A weight between two rows takes the heavier row's difficulty (reading: the table gives
    the most each difficulty allows). Over 3 t the table stops: the GM decides."""
    if isinstance(kg, bool) or not isinstance(kg, int | float) or kg <= 0:
        raise DifficultyError(f"a weight to lift must be a positive number of kg, not {kg!r}")
    for heaviest, level in LIFTING_TABLE:
        if kg <= heaviest:
            return level.raised_by(lifting_time_levels(held))
    raise DifficultyError(f"{kg} kg is beyond the lifting table (3 metric tons); the GM decides")


# ---------------------------------------------------------------------------------------------
# Random difficulties (§3.4) [WIKI] 003 l.32-39
# ---------------------------------------------------------------------------------------------
_RANDOM_DICE: tuple[tuple[int, int | None], ...] = (
    (1, 1),  # Very Easy 1D
    (2, 2),  # Easy 2D
    (3, 4),  # Moderate 3D-4D
    (5, 6),  # Difficult 5D-6D
    (7, 8),  # Very Difficult 7D-8D
    (9, None),  # Heroic 9D+
)


def random_dice(level: DifficultyLevel | str) -> tuple[int, int | None]:
    """The fewest and most dice rolled for a random difficulty of this level [WIKI]
    (None: no upper limit, Heroic's "9D+"). Heroic+N has no entry in the sources."""
    level = parse_level(level)
    if level.ordinal > _HEROIC:
        raise DifficultyError(f"the random difficulty table stops at Heroic (9D+); not {level}")
    return _RANDOM_DICE[level.ordinal]


@dataclass(frozen=True, slots=True)
class RandomDifficulty:
    """A difficulty number rolled for a level; ``dice`` keeps every die."""

    level: DifficultyLevel
    dice: tuple[int, ...]

    @property
    def number(self) -> int:
        return sum(self.dice)


def random_difficulty(
    level: DifficultyLevel | str,
    *,
    ruleset: RuleSet,
    rng: DiceSource,
    dice: int | None = None,
) -> RandomDifficulty:
    """Roll a difficulty number for a level [WIKI]: Very Easy 1D, Easy 2D, Moderate 3D or 4D,
    Difficult 5D or 6D, Very Difficult 7D or 8D, Heroic 9D or more.

    ``dice`` is the GM's pick where the table gives a span (default: the fewest). No Wild Die
    (A6). A Heroic number above 40 is kept as rolled and stays Heroic (A13)."""
    level = parse_level(level)
    _check_on_scale(level, ruleset)
    low, high = random_dice(level)
    count = low if dice is None else dice
    if isinstance(count, bool) or not isinstance(count, int):
        raise DifficultyError(f"roll a whole number of dice, not {count!r}")
    if count < low or (high is not None and count > high):
        allowed = (
            f"{low}D or more"
            if high is None
            else " or ".join(f"{n}D" for n in range(low, high + 1))
        )
        raise DifficultyError(f"a random {level} difficulty is rolled on {allowed}, not {count}D")
    return RandomDifficulty(level, tuple(rng.d6() for _ in range(count)))


# ---------------------------------------------------------------------------------------------
# Modifiers (§3.6, §3.7)
# ---------------------------------------------------------------------------------------------
# [WIKI] "Modifier Guidelines", 003 l.50-54.
MODIFIER_GUIDELINES: tuple[tuple[int, int | None, str], ...] = (
    (1, 5, "slight"),
    (6, 10, "good"),
    (11, 15, "decisive"),
    (16, None, "overpowering"),
)


def advantage_for(modifier: int) -> str:
    """How big an advantage a bonus modifier stands for [WIKI]: +1–5 slight, +6–10 good,
    +11–15 decisive, +16 and up overpowering. It goes to the side with the advantage."""
    if isinstance(modifier, bool) or not isinstance(modifier, int) or modifier < 1:
        raise DifficultyError(
            f"a modifier goes to the side with the advantage as +1 or more, not {modifier!r}"
        )
    return next(name for _, high, name in MODIFIER_GUIDELINES if high is None or modifier <= high)


def modifier_range(advantage: str) -> tuple[int, int | None]:
    """The [WIKI] modifier span for an advantage: ``"good"`` → (6, 10); None: no upper limit."""
    wanted = advantage.strip().lower() if isinstance(advantage, str) else advantage
    for low, high, name in MODIFIER_GUIDELINES:
        if name == wanted:
            return (low, high)
    names = ", ".join(name for _, _, name in MODIFIER_GUIDELINES)
    raise DifficultyError(f"{advantage!r} is not an advantage; use one of {names}")


@dataclass(frozen=True, slots=True)
class ModifiedDifficulty:
    """A difficulty number after a modifier: ``dice`` are the GM's dice, if any were rolled."""

    base: int
    modifier: DieCode
    dice: tuple[int, ...]
    number: int


def add_to_difficulty(
    number: int,
    modifier: DieCode | str | int,
    *,
    ruleset: RuleSet,
    rng: DiceSource,
) -> ModifiedDifficulty:
    """Add a modifier to a difficulty number already chosen (§3.7): ``+10``, ``+2`` or ``+1D``.

    Numbers and pips are added as they are. Dice (called shots, cover, missiles at moving
    ships) are rolled by the GM side and added, without a Wild Die (A17, A6); with
    ``ruleset.difficulty_dice == "fixed"`` each die adds 3 instead. Negative dice are rolled
    and subtracted. The result is never below 0."""
    if isinstance(number, bool) or not isinstance(number, int):
        raise DifficultyError(f"a difficulty number is a whole number, not {number!r}")
    if isinstance(modifier, bool):
        raise DifficultyError("a difficulty modifier is a number or a die code like +1D")
    code = DieCode(0, modifier) if isinstance(modifier, int) else DieCode.parse(modifier)
    sign = -1 if code.dice < 0 else 1
    if ruleset.difficulty_dice == "fixed" or code.dice == 0:
        dice: tuple[int, ...] = ()
        added = code.total_pips
    else:
        dice = tuple(rng.d6() for _ in range(abs(code.dice)))
        added = sign * sum(dice) + code.pips
    return ModifiedDifficulty(number, code, dice, max(0, number + added))


# ---------------------------------------------------------------------------------------------
# Descriptions (§3.3)
# ---------------------------------------------------------------------------------------------
Scale = Literal["task", "combat", "knowledge", "general_knowledge", "medpac"]

# [WIKI] 003 l.16-26 (summarised).
_TASK_2E = (
    "Almost anyone can do this most of the time.",
    "Most characters can do this most of the time; failure is still possible.",
    "Needs skill, effort and concentration; an average character may well fail.",
    '"Normal" characters succeed only now and then.',
    "Only the most talented (Luke, Han, Leia) succeed with any regularity.",
    'Almost impossible; even "heroes" have a tough time.',
)
_COMBAT_2E = (
    "Blaster at point-blank range.",
    "Blaster at short range.",
    "Blaster at medium range.",
    "Blaster at long range.",
    "Blaster at long range against a target mostly behind cover.",
    "A proton torpedo into a small exhaust port without a targeting computer.",
)
# [UPG] Knowledge skills, 001 l.45-55.
_KNOWLEDGE_2E = (
    "General, common knowledge that almost anyone would know.",
    "Most people would know this.",
    "Professional level; an average person interested in the subject would know this much.",
    "Professionals know it; the average person would be hard-pressed.",
    "Detailed, comprehensive knowledge; professionals and scholars would probably research it.",
    "Only a very small number of people would know it.",
)
# [RC] Difficulty Number Chart, 000 l.6545-6575 (Very Easy ... Very Difficult; None: no entry).
_RC_CHART: dict[str, tuple[str | None, ...]] = {
    "task": _NAMES[:5],
    "combat": ("Point-Blank Range", "Short Range", "Medium Range", "Long Range", None),
    "knowledge": (
        "Everyone Knows",
        "Common Knowledge",
        "No Secret, But Not Widely Known",
        "Specialized Knowledge",
        "Expert Knowledge",
    ),
    "general_knowledge": (
        "Pretty Ignorant",
        "Knows a Little",
        "Broad General Knowledge",
        "Specific, Detailed Knowledge",
        "Truly Comprehensive Knowledge",
    ),
    "medpac": (None, "Wounded", "Incapacitated", "Mortally Wounded", None),
}
_2E_DESCRIPTIONS = {"task": _TASK_2E, "combat": _COMBAT_2E, "knowledge": _KNOWLEDGE_2E}


def describe(level: DifficultyLevel | str, *, ruleset: RuleSet, scale: Scale = "task") -> str:
    """What a level means, for the campaign's scale.

    2E: ``task`` ([WIKI] who succeeds), ``combat`` ([WIKI] example), ``knowledge`` ([UPG]);
    Heroic+N reads as Heroic. [RC] chart: ``task``, ``combat``, ``knowledge``,
    ``general_knowledge``, ``medpac``."""
    level = parse_level(level)
    _check_on_scale(level, ruleset)
    table = _RC_CHART if ruleset.difficulty_scale == "rc" else _2E_DESCRIPTIONS
    if scale not in table:
        raise DifficultyError(
            f"{scale!r} is not a difficulty scale here; use one of {', '.join(table)}"
        )
    entry = table[scale][min(level.ordinal, _HEROIC)]
    if entry is None:
        raise DifficultyError(f"the Rules Companion's {scale} scale has no {level} entry")
    return entry


def chart_range(scale: Scale, entry: str) -> tuple[int, int]:
    """The numbers of a row of the [RC] Difficulty Number Chart: ``("medpac", "Wounded")`` →
    (6, 10), ``("combat", "Short Range")`` → (6, 10)."""
    if scale not in _RC_CHART:
        raise DifficultyError(f"{scale!r} is not a scale; use one of {', '.join(_RC_CHART)}")
    wanted = entry.strip().lower()
    for ordinal, label in enumerate(_RC_CHART[scale]):
        if label is not None and label.lower() == wanted:
            return _RANGES_RC[ordinal]
    raise DifficultyError(f"{entry!r} is not on the Rules Companion's {scale} scale")
