"""Capital ship tactics in the Rules Companion ([RC] 000 l.3010-3706; capital-ships.md):
counter-battery fire and starfighter swarms, command budgets and declaration order, facing
and rerouted shield power, template boxes and ramming. Attacks, damage and the template's
state are :mod:`rules.craft.capital`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Literal

from rules.craft._common import CraftError
from rules.dice import DieCode
from rules.difficulty import DIFFICULT, MODERATE

__all__ = [
    "FACINGS",
    "OFFICERS",
    "TACTICS_DIFFICULTY",
    "CommandBudget",
    "ShieldReroute",
    "command_budget",
    "counter_battery",
    "declaration_order",
    "facing_change_cost",
    "gun_status",
    "ram_damage_code",
    "ram_hits",
    "reroute_shield_power",
    "subordinate_bonus",
    "swarm_fighter_status",
    "template_boxes",
]


# ---------------------------------------------------------------------------------------------
# Counter-battery fire and starfighter swarms (000 l.3570-3590, 3676-3706)
# ---------------------------------------------------------------------------------------------
def counter_battery(damage_pips: int, guns_firing: int, targets: int) -> tuple[int, ...]:
    """Damage total = damage pips × guns firing, spread as evenly as possible over the targeted
    weapons (or swarming starfighters); CS-15: 1 pip × 12 guns over 4 guns -> 3 each."""
    if guns_firing < 1 or targets < 1:
        raise CraftError("counter-battery fire needs guns firing and at least one target")
    if damage_pips < 0:
        raise CraftError("damage cannot be negative")
    each, extra = divmod(damage_pips * guns_firing, targets)
    return tuple(each + (1 if i < extra else 0) for i in range(targets))


def gun_status(points: int) -> Literal["ok", "wounded", "incapacitated", "destroyed"]:
    """A targeted weapon: 1 point wounded (fires at -1D fire control), 2 incapacitated (useless
    until repaired), 3 destroyed; points accumulate (ambiguity 9)."""
    if points < 0:
        raise CraftError("damage points cannot be negative")
    return ("ok", "wounded", "incapacitated", "destroyed")[min(points, 3)]


def swarm_fighter_status(points: int) -> Literal["undamaged", "heavily", "severely", "destroyed"]:
    """A starfighter in a swarm: 1 point heavily damaged, 2 severely damaged, 3 destroyed
    (CS-14)."""
    if points < 0:
        raise CraftError("damage points cannot be negative")
    return ("undamaged", "heavily", "severely", "destroyed")[min(points, 3)]


# ---------------------------------------------------------------------------------------------
# Command, tactics and declaration (000 l.3262-3432)
# ---------------------------------------------------------------------------------------------
OFFICERS = ("pilot", "gunnery", "shields")
#: Starship tactics actions and their difficulty levels [RC].
TACTICS_DIFFICULTY = {"anticipate_enemy": MODERATE, "deceive_enemy": DIFFICULT}


@dataclass(frozen=True, slots=True)
class CommandBudget:
    """A commander's round: ``after_uses`` is the command code left after haste orders,
    coordinations and bonuses; each officer in ``commanded`` took 1D of it; officers in
    ``uncommanded`` act at -1D; ``left_over`` is what remains."""

    after_uses: DieCode
    commanded: tuple[str, ...]
    uncommanded: tuple[str, ...]
    left_over: DieCode


def command_budget(
    command: DieCode,
    *,
    haste_orders: int = 0,
    coordinations: int = 0,
    bonuses: int = 0,
    officers: Sequence[str] = OFFICERS,
) -> CommandBudget:
    """Ambiguity 3's reading: 1D of command per haste order beyond the ship's basic haste (any
    level, CS-5), per coordination action and per bonus action; then 1D to each major combat
    officer in the order given. Command cannot be driven below zero by skill uses."""
    if min(haste_orders, coordinations, bonuses) < 0:
        raise CraftError("orders cannot be negative")
    if sorted(officers) != sorted(OFFICERS):
        raise CraftError("list each of pilot, gunnery and shields once")
    uses = haste_orders + coordinations + bonuses
    if uses > command.dice:
        raise CraftError(f"a {command} command code allows only {command.dice} such orders")
    after = command.minus_dice(uses)
    commanded = tuple(officers[: after.dice])
    uncommanded = tuple(officers[after.dice :])
    return CommandBudget(after, commanded, uncommanded, after.minus_dice(len(commanded)))


def subordinate_bonus(code: DieCode, bonus_actions: int) -> DieCode:
    """Each bonus action from a superior adds one pip to the officer's roll (or, from an
    officer, to the crew code) [RC]."""
    if bonus_actions < 0:
        raise CraftError("bonus actions cannot be negative")
    return code.pool_add(DieCode(0, bonus_actions))


def declaration_order(
    commanders: Sequence[tuple[str, DieCode, bool]],
) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """(action order, reaction order) for (name, command code, is a player character). Actions
    are declared lowest command first, reactions highest first; on a tie the NPC declares
    first both times [RC]."""
    actions = sorted(commanders, key=lambda c: (c[1].total_pips, c[2]))
    reactions = sorted(commanders, key=lambda c: (-c[1].total_pips, c[2]))
    return tuple(c[0] for c in actions), tuple(c[0] for c in reactions)


# ---------------------------------------------------------------------------------------------
# Facing and shields (000 l.3010-3050, 3432-3518)
# ---------------------------------------------------------------------------------------------
FACINGS = ("top", "bottom", "left", "right", "forward", "rear")
_OPPOSITE = {
    "top": "bottom",
    "bottom": "top",
    "left": "right",
    "right": "left",
    "forward": "rear",
    "rear": "forward",
}


def _facing(name: str) -> str:
    if name not in FACINGS:
        raise CraftError(f"unknown facing {name!r}; choose one of {', '.join(FACINGS)}")
    return name


def facing_change_cost(current: str, new: str) -> int:
    """Reserved speed actions to move to a facing: 0 to stay, 2 to the opposite one, 1 to any
    other (CS-4)."""
    if _facing(current) == _facing(new):
        return 0
    return 2 if _OPPOSITE[current] == new else 1


@dataclass(frozen=True, slots=True)
class ShieldReroute:
    """Shields by facing after power is rerouted; the boost lasts one round and every other
    shielding roll that round is ``other_shielding_penalty`` lower."""

    shields: Mapping[str, DieCode | None]
    other_shielding_penalty: DieCode


def reroute_shield_power(
    shields: Mapping[str, DieCode | None], donor: str, receiver: str
) -> ShieldReroute:
    """Increase power to one facing's shields (Difficult shields roll): the receiver's code is
    doubled for a round and the donor facing burns out. Not possible with only one shielded
    facing left (CS-18: right 3D -> 6D, rear shut down, other shielding rolls -1D)."""
    _facing(donor), _facing(receiver)
    if donor == receiver:
        raise CraftError("power must come from another facing")
    live = {f for f, code in shields.items() if code is not None and code.total_pips > 0}
    if len(live) < 2:
        raise CraftError("with only one shield facing left, power cannot be rerouted")
    if donor not in live or receiver not in live:
        raise CraftError("both facings need working shields")
    new = dict(shields)
    new[receiver] = shields[receiver].doubled()  # type: ignore[union-attr]
    new[donor] = None
    return ShieldReroute(new, DieCode(1))


def template_boxes(code: DieCode, columns: int = 4) -> tuple[int, int]:
    """(open, blacked-out) boxes for a code on a template with ``columns`` dice of three boxes
    (CS-3: fire control 2D+2 on a 4D row -> 8 open, 4 blacked out)."""
    boxes = columns * 3
    if not 0 <= code.total_pips <= boxes:
        raise CraftError(f"{code} does not fit a row of {columns}D")
    return code.total_pips, boxes - code.total_pips


# ---------------------------------------------------------------------------------------------
# Ramming (000 l.3654-3671)
# ---------------------------------------------------------------------------------------------
def ram_hits(piloting_roll: int, evasion_roll: int) -> bool:
    """A ram connects only if the rammer's piloting roll is greater than the defender's
    evasion roll [RC]."""
    return piloting_roll > evasion_roll


def ram_damage_code(hull: DieCode, speed_actions: int) -> DieCode:
    """Each ship's ram damage: its own hull code + 1D per speed action it took this round;
    each resists with hull + any applicable shielding, read on the Damage Summary (CS-21)."""
    if speed_actions < 0:
        raise CraftError("speed actions cannot be negative")
    return hull.pool_add(DieCode(speed_actions))
