"""[HOUSE] creation rules: skill caps, starting Character Points and party limits
(004 l.94-104)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Final

from rules.dice import DieCode
from rules.ruleset import RuleSet

__all__ = [
    "HOUSE_MAX_MOVED_PIPS",
    "HOUSE_MAX_SPECIALIZATIONS",
    "HOUSE_SKILL_CAP",
    "HOUSE_SPECIALIZATION_CAP",
    "HOUSE_TIMELINE_BONUS",
    "HouseStartingPoints",
    "check_party",
    "house_skill_cap_problem",
    "house_starting_points",
]

HOUSE_SKILL_CAP: Final = DieCode(6)  # [HOUSE] creation item 7
HOUSE_SPECIALIZATION_CAP: Final = DieCode(8)
HOUSE_MAX_MOVED_PIPS: Final = 3  # [HOUSE] creation item 8
HOUSE_MAX_SPECIALIZATIONS: Final = 3

HOUSE_TIMELINE_BONUS: Final = {"5 BBY": 800}
"""[HOUSE] creation item 3: extra CP for PCs joining later (new PCs from 3/27/16 = 5 BBY)."""


def house_skill_cap_problem(
    name: str, code: DieCode | str, specialization: bool = False
) -> str | None:
    """[HOUSE] creation item 7: no skill above 6D at the start; specializations and Talents up
    to 8D."""
    c = DieCode.parse(code)
    cap = HOUSE_SPECIALIZATION_CAP if specialization else HOUSE_SKILL_CAP
    if c > cap:
        what = "specialization" if specialization else "skill"
        return f"{name} {c} is above the House starting limit of {cap} for a {what}"
    return None


@dataclass(frozen=True, slots=True)
class HouseStartingPoints:
    total: int
    cp_slot: int
    extra_cp_slot: int
    problems: tuple[str, ...] = ()


def house_starting_points(
    background_cp: int = 0,
    dark_side_points: int = 0,
    cyber_points: int = 0,
    timeline_bonus: int = 0,
    *,
    ruleset: RuleSet,
) -> HouseStartingPoints:
    """[HOUSE] creation items 3-6 summed as A-C9 suggests: 10 free + ``house_extra_cp`` (20) +
    background (5-20) + 10 per Dark Side Point (at most 5) + 5 per Cyber Point + the timeline
    bonus. At most 20 go in the Character Point slot; the rest in the Extra slot."""
    problems = []
    if background_cp and not 5 <= background_cp <= 20:
        problems.append(f"a background is worth 5 to 20 CP, not {background_cp}")
    if not 0 <= dark_side_points <= 5:
        problems.append(
            f"{dark_side_points} Dark Side Points taken; at most 5 may be taken at creation"
        )
    if cyber_points < 0 or timeline_bonus < 0:
        problems.append("Cyber Points and timeline bonuses cannot be negative")
    total = (
        10
        + ruleset.house_extra_cp
        + background_cp
        + 10 * min(max(dark_side_points, 0), 5)
        + 5 * max(cyber_points, 0)
        + max(timeline_bonus, 0)
    )
    slot = min(total, 20)
    return HouseStartingPoints(total, slot, total - slot, tuple(problems))


# ---------------------------------------------------------------------------------------------
# Party limits
# ---------------------------------------------------------------------------------------------
_HOUSE_BANNED = {
    "dark_side": "Dark Side characters are not allowed (rare exceptions by the GM)",
    "time_lord": "Time Lords are not allowed",
    "superhero": "comic-book super heroes are not allowed",
    "immortal_mandalorian": "Immortal Mandalorians are not allowed",
}
_HOUSE_PARTY_LIMITS = {"jedi": 2, "force_sensitive": 1, "space_marine": 1, "immortal": 1}
_PARTY_WORDS = {
    "jedi": "Jedi",
    "force_sensitive": "Force Sensitive",
    "space_marine": "Space Marine",
    "immortal": "Immortal",
}


def check_party(
    character_types: Iterable[str],
    campaign_started: bool = False,
    *,
    ruleset: RuleSet,
) -> list[str]:
    """[HOUSE] party limits at the start of a campaign: at most two Jedi, one Force Sensitive on
    top of them, one Space Marine and one Immortal; any number of Force Attuned. Some types are
    never allowed. Returns the problems (empty when the party is fine)."""
    if ruleset.creation_rules != "house":
        return []
    counts = Counter(t.strip().lower().replace(" ", "_") for t in character_types)
    problems = [text for key, text in _HOUSE_BANNED.items() if counts[key]]
    if campaign_started:
        return problems
    for key, limit in _HOUSE_PARTY_LIMITS.items():
        if counts[key] > limit:
            problems.append(
                f"{counts[key]} {_PARTY_WORDS[key]} characters; at most {limit} at the start "
                "of a campaign"
            )
    return problems
