"""Improvement quotes: what improving a piece of gear or a craft would cost under the
campaign's rules, before anything is spent (droids-and-equipment.md §3, §6, §9).

A quote is one or more :class:`rules.equipment.ProjectState` values, each priced by the
engine's :func:`rules.equipment.validate_project` from a :class:`rules.equipment.ProjectRequest`
built here from a sheet item (a weapon's damage, an armour's protection, a weapon added to
armour) or a craft's stat block (maneuverability, hull, shields, speed, Move, Space,
hyperdrive, a weapon's fire control or damage, a weapon added). The campaign's option
``equipment_improvement`` picks the Rules Companion's skill points or the Rules Upgrade's
percentages; ``upg_improve_cost`` and ``rc_weapon_install`` are read by the engine.

Nothing is stored and nothing is spent: the requests (``Quote.requests``) are what a project
will start from. A refusal is a :class:`QuoteRefused` with the reason in the game's words.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

from characters.craft_models import Craft
from characters.craft_services import catalogue
from characters.models import Item
from rules import DieCode, RulesError
from rules.craft import CraftStats
from rules.equipment import (
    MINUTES_PER_DAY,
    ProjectRequest,
    ProjectState,
    rc_weapon_install,
    validate_project,
)
from rules.ruleset import RuleSet

__all__ = [
    "CRAFT_STATS",
    "ITEM_STATS",
    "Quote",
    "QuotePart",
    "QuoteRefused",
    "quote_craft",
    "quote_item",
]

Labour = Literal["self", "hired"]

ITEM_STATS: dict[str, str] = {
    "damage": "Damage",
    "armour_physical": "Armour against physical attacks",
    "armour_energy": "Armour against energy attacks",
    "add_weapon": "Add a weapon to the armour",
}
"""What a sheet item's quote can improve, in words."""

CRAFT_STATS: dict[str, str] = {
    "maneuverability": "Maneuverability",
    "hull": "Hull",
    "shields": "Shields",
    "speed": "Speed code",
    "move": "Move",
    "space": "Space",
    "hyperdrive": "Hyperdrive",
    "fire_control": "A weapon's fire control",
    "damage": "A weapon's damage",
    "add_weapon": "Add a weapon",
}
"""What a craft's quote can improve, in words."""

_CRAFT_FIELD = {"speed": "speed_code"}  # the stat block's name where it differs
_NUMBER_STATS = frozenset({"move", "space"})
_RC_ONLY = {
    "armor": "armour",
    "hull": "a hull",
    "speed": "a speed code",
}
_UPG_ONLY = {"move": "Move", "space": "Space"}
_MAX_PIPS = 90  # 30D: the sheet's limit for a code


class QuoteRefused(ValueError):
    """The improvement cannot be quoted as asked; ``str()`` says why, for the player."""


@dataclass(frozen=True)
class QuotePart:
    """One die code's work: its label and the engine's priced project."""

    label: str
    state: ProjectState

    @property
    def steps(self):
        return self.state.steps


@dataclass(frozen=True)
class Quote:
    """What the improvement costs, step by step, under ``system`` ("rc" or "upg")."""

    subject: str
    system: str
    parts: tuple[QuotePart, ...]
    labour: Labour = "self"
    hired_multiplier: int = 1
    install_options: tuple[tuple[int, int], ...] = ()
    notes: tuple[str, ...] = field(default=())

    @property
    def skill_points(self) -> int:
        return sum(p.state.skill_points_planned for p in self.parts)

    @property
    def credits(self) -> int:
        return sum(p.state.credits_planned for p in self.parts)

    @property
    def rolls(self) -> int:
        return sum(len(p.steps) for p in self.parts)

    @property
    def days(self) -> int:
        """Days of work, every step one after the other (Rules Upgrade: a roll a month)."""
        minutes = sum(s.minutes for p in self.parts for s in p.steps)
        return -(-minutes // MINUTES_PER_DAY)

    @property
    def warnings(self) -> tuple[str, ...]:
        seen: dict[str, None] = {}
        for part in self.parts:
            seen.update(dict.fromkeys(part.state.warnings))
        return tuple(seen)

    @property
    def requests(self) -> list[dict[str, Any]]:
        """The requests a project starts from (``ProjectRequest.to_json()``)."""
        return [p.state.request.to_json() for p in self.parts]


# ---------------------------------------------------------------------------------------------
# Reading what the player typed
# ---------------------------------------------------------------------------------------------
def _code(value: object, what: str) -> DieCode:
    try:
        code = value if isinstance(value, DieCode) else DieCode.parse(str(value))
    except RulesError:
        raise QuoteRefused(f"{what}: “{value}” is not a die code like 4D+1.") from None
    if code.total_pips < 0:
        raise QuoteRefused(f"{what}: {code} is negative; a die code is 0D or more.")
    if code.total_pips > _MAX_PIPS:
        raise QuoteRefused(f"{what}: {code} is beyond any gear in the rules (30D at most).")
    return code


def _target(current: DieCode, target: object, add: object, what: str) -> DieCode:
    """The code asked for: ``target`` as written, or ``current`` plus ``add`` (pips round up
    into dice: 1D+2 plus 2D+1 is 4D)."""
    if add not in (None, ""):
        more = _code(add, f"{what}, amount to add").total_pips
        return _code(DieCode.from_pips(current.total_pips + more), what)
    if target in (None, ""):
        raise QuoteRefused(f"Say what {what.lower()} should become, or how much to add.")
    return _code(target, what)


def _number(value: object, what: str) -> int:
    if isinstance(value, int) and not isinstance(value, bool):
        return value
    try:
        return int(str(value).strip())
    except ValueError:
        raise QuoteRefused(f"{what}: “{value}” is not a whole number.") from None


def _labour(labour: str, hired_multiplier: int, ruleset: RuleSet) -> tuple[Labour, int]:
    if labour not in ("self", "hired"):
        raise QuoteRefused("Choose own work or hired labour.")
    if labour == "self":
        return "self", 1
    if ruleset.equipment_improvement == "rc_skill_points":
        return "hired", 2  # [RC] NPC labour doubles the credits
    if hired_multiplier not in (2, 3):
        raise QuoteRefused("Hired labour costs double or triple: choose 2 or 3.")
    return "hired", hired_multiplier


def _validated(request: ProjectRequest, ruleset: RuleSet) -> ProjectState:
    try:
        return validate_project(request, ruleset=ruleset)
    except RulesError as exc:
        raise QuoteRefused(_sentence(str(exc))) from None


def _sentence(text: str) -> str:
    text = text.strip()
    text = text[:1].upper() + text[1:]
    return text if text.endswith((".", "!", "?")) else f"{text}."


def _rc(ruleset: RuleSet) -> bool:
    return ruleset.equipment_improvement == "rc_skill_points"


def _check_system(stat: str, ruleset: RuleSet) -> None:
    if not _rc(ruleset) and stat in _RC_ONLY:
        raise QuoteRefused(
            f"The Rules Upgrade has no table for improving {_RC_ONLY[stat]}; it improves "
            "vehicles, vessels and weapons. The campaign's rules would have to use the Rules "
            "Companion's skill points."
        )
    if _rc(ruleset) and stat in _UPG_ONLY:
        raise QuoteRefused(
            f"{_UPG_ONLY[stat]} is not a die code: the Rules Companion improves die codes "
            "(improve the speed code instead)."
        )


def _item_value(value: object, what: str) -> int:
    if value in (None, ""):
        raise QuoteRefused(
            f"The Rules Upgrade prices an improvement as a share of {what}'s original value: "
            "give it in credits."
        )
    number = _number(value, "Original value")
    if number < 0:
        raise QuoteRefused("An original value cannot be negative.")
    return number


# ---------------------------------------------------------------------------------------------
# Sheet items
# ---------------------------------------------------------------------------------------------
def quote_item(
    item: Item,
    stat: str,
    *,
    ruleset: RuleSet,
    target: object = None,
    add: object = None,
    original: object = None,
    erase_dexterity: bool = False,
    labour: str = "self",
    hired_multiplier: int = 2,
    item_value: object = None,
    purchased_price: object = None,
    install_method: str | None = None,
) -> Quote:
    """What improving ``stat`` of a sheet item costs: a weapon's ``damage``, an armour's
    ``armour_physical`` or ``armour_energy`` (with ``erase_dexterity``: the Dexterity
    enhancements that cancel its penalty [RC]), or ``add_weapon`` to armour [RC].

    ``original`` is the code as bought (default: the code now); the [RC] pip of improvement,
    hence the technology roll, counts from it (Erisson's blaster, E1)."""
    if stat not in ITEM_STATS:
        raise QuoteRefused(f"Choose what to improve: {', '.join(ITEM_STATS.values()).lower()}.")
    labour_kind, multiplier = _labour(labour, hired_multiplier, ruleset)
    if stat == "add_weapon":
        if item.kind != Item.Kind.ARMOUR:
            raise QuoteRefused("Weapons are added to armour, a speeder or a ship, not to this.")
        return _add_weapon(
            item.name,
            "character",
            ruleset=ruleset,
            labour=labour_kind,
            purchased_price=purchased_price,
            install_method=install_method,
        )
    if stat == "damage":
        if item.kind != Item.Kind.WEAPON or item.damage is None:
            raise QuoteRefused(f"{item.name} has no damage code to improve.")
        current, engine_stat, label = item.damage, "damage", "Damage"
    else:
        if item.kind != Item.Kind.ARMOUR:
            raise QuoteRefused(f"{item.name} is not armour.")
        current = getattr(item, stat)
        kind = "physical" if stat == "armour_physical" else "energy"
        if current is None:
            raise QuoteRefused(f"{item.name} gives no {kind} protection to improve.")
        engine_stat, label = "armor", f"Armour ({kind})"
    _check_system(engine_stat, ruleset)
    current = _code(current, label)
    goal = _target(current, target, add, label)
    stock = current if original in (None, "") else _code(original, "Original code")
    common = {
        "kind": "improve",
        "scale": "character",
        "labour": labour_kind,
        "hired_multiplier": multiplier if labour_kind == "hired" else 2,
    }
    if _rc(ruleset):
        parts = [
            QuotePart(
                label,
                _validated(
                    ProjectRequest(
                        stat=engine_stat, stock=stock, current=current, target=goal, **common
                    ),
                    ruleset,
                ),
            )
        ]
        if erase_dexterity and engine_stat == "armor":
            pips = goal.total_pips - current.total_pips
            enhancement = ProjectRequest(
                stat="armor_dexterity",
                stock=DieCode.from_pips(-pips),
                current=DieCode(),
                target=DieCode.from_pips(pips),
                **common,
            )
            parts.append(QuotePart("Dexterity enhancement", _validated(enhancement, ruleset)))
        return Quote(f"{item.name}: {label.lower()}", "rc", tuple(parts), labour_kind, multiplier)
    request = ProjectRequest(
        stat=engine_stat,
        stock=stock,
        current=current,
        target=goal,
        item_value=_item_value(item_value, "the weapon"),
        **common,
    )
    part = QuotePart(label, _validated(request, ruleset))
    return Quote(f"{item.name}: {label.lower()}", "upg", (part,), labour_kind, multiplier)


# ---------------------------------------------------------------------------------------------
# Craft
# ---------------------------------------------------------------------------------------------
def _stock_block(craft: Craft) -> CraftStats | None:
    """The catalogue's stat block the craft was made from (its stock values), if any."""
    return catalogue().get(craft.catalogue_name) if craft.catalogue_name else None


def _hyperdrive(value: float | None) -> str:
    if value is None:
        return ""
    return "x1/2" if value == 0.5 else f"x{int(value)}" if value == int(value) else f"x{value}"


def _weapon(block: CraftStats, index: object):
    if index in (None, ""):
        raise QuoteRefused("Choose which weapon to improve.")
    number = _number(index, "Weapon")
    if not 0 <= number < len(block.weapons):
        raise QuoteRefused("That craft has no such weapon.")
    return number, block.weapons[number]


def quote_craft(
    craft: Craft,
    stat: str,
    *,
    ruleset: RuleSet,
    weapon: object = None,
    target: object = None,
    add: object = None,
    original: object = None,
    labour: str = "self",
    hired_multiplier: int = 2,
    item_value: object = None,
    purchased_price: object = None,
    install_method: str | None = None,
) -> Quote:
    """What improving ``stat`` of a craft costs (see :data:`CRAFT_STATS`).

    The stock value (for the Rules Upgrade's +1D+2 cap and the Rules Companion's pip count) is
    ``original`` if given, else the catalogue's value when the craft came from the catalogue,
    else the value now. The Rules Upgrade prices a share of ``item_value``: the craft's
    original value, or the weapon's cost for a weapon's fire control or damage."""
    if stat not in CRAFT_STATS:
        raise QuoteRefused(f"Choose what to improve: {', '.join(CRAFT_STATS.values()).lower()}.")
    block = craft.stat_block
    scale = block.scale.key
    labour_kind, multiplier = _labour(labour, hired_multiplier, ruleset)
    if stat == "add_weapon":
        return _add_weapon(
            craft.name,
            scale,
            ruleset=ruleset,
            labour=labour_kind,
            purchased_price=purchased_price,
            install_method=install_method,
        )
    _check_system(stat, ruleset)
    stock_block = _stock_block(craft)
    label = CRAFT_STATS[stat]
    if stat in ("fire_control", "damage"):
        index, gun = _weapon(block, weapon)
        current = getattr(gun, stat)
        stock_gun = (
            stock_block.weapons[index]
            if stock_block is not None and index < len(stock_block.weapons)
            else None
        )
        stock = getattr(stock_gun, stat) if stock_gun is not None else None
        label = f"{gun.name}: {'fire control' if stat == 'fire_control' else 'damage'}"
        what = "the weapon"
    else:
        name = _CRAFT_FIELD.get(stat, stat)
        current = getattr(block, name)
        stock = getattr(stock_block, name) if stock_block is not None else None
        what = "the craft"
    if current is None:
        raise QuoteRefused(f"{craft.name} has no {label.lower()} to improve.")
    if stat == "hyperdrive":
        current, stock = _hyperdrive(current), _hyperdrive(stock)
        goal: object = target
        if goal in (None, ""):
            raise QuoteRefused("Say which multiplier the hyperdrive should reach (x1, x1/2).")
        base: object = current if original in (None, "") else original
    elif stat in _NUMBER_STATS:
        goal = _number(add, label) + current if add not in (None, "") else target
        if goal in (None, ""):
            raise QuoteRefused(f"Say what {label} should become, or how much to add.")
        goal = _number(goal, label)
        base = stock if original in (None, "") else _number(original, "Original value")
        base = current if base is None else base
    else:
        goal = _target(current, target, add, label)
        base = stock if original in (None, "") else _code(original, "Original code")
        base = current if base is None else base
    request = ProjectRequest(
        kind="improve",
        stat=stat,
        stock=base,
        current=current,
        target=goal,
        scale=scale,
        labour=labour_kind,
        hired_multiplier=multiplier if labour_kind == "hired" else 2,
        item_value=None if _rc(ruleset) else _item_value(item_value, what),
    )
    part = QuotePart(label, _validated(request, ruleset))
    system = "rc" if _rc(ruleset) else "upg"
    return Quote(f"{craft.name}: {label.lower()}", system, (part,), labour_kind, multiplier)


# ---------------------------------------------------------------------------------------------
# Adding a weapon [RC]
# ---------------------------------------------------------------------------------------------
def _add_weapon(
    name: str,
    scale: str,
    *,
    ruleset: RuleSet,
    labour: Labour,
    purchased_price: object,
    install_method: str | None,
) -> Quote:
    """[RC] a new weapon (1D fire control, 1D damage: 9 skill points) or a bought one installed
    (price + fee + 9 skill points; or fee or skill points with ``rc_weapon_install``)."""
    price = None if purchased_price in (None, "") else _number(purchased_price, "Weapon's price")
    if price is not None and price < 0:
        raise QuoteRefused("A weapon's price cannot be negative.")
    method = install_method or None
    options: tuple[tuple[int, int], ...] = ()
    if price is not None and ruleset.rc_weapon_install == "fee_or_sp":
        try:
            options = rc_weapon_install(scale, purchased_price=price, ruleset=ruleset).options
        except RulesError as exc:
            raise QuoteRefused(_sentence(str(exc))) from None
        method = method or "fee"
    elif price is None:
        method = None
    request = ProjectRequest(
        kind="add_weapon",
        stat="weapon",
        scale=scale,
        labour=labour,
        purchased_price=price,
        install_method=method,  # type: ignore[arg-type]
    )
    label = "Install a bought weapon" if price is not None else "Build a new weapon (1D/1D)"
    part = QuotePart(label, _validated(request, ruleset))
    notes = ()
    if options:
        notes = (
            f"Or install it {'yourself' if method == 'fee' else 'by paying the fee'}: "
            f"{_option_words(options[1] if method == 'fee' else options[0])}.",
        )
    return Quote(
        f"{name}: {label.lower()}",
        "rc",
        (part,),
        labour,
        2 if labour == "hired" else 1,
        install_options=options,
        notes=notes,
    )


def _option_words(option: tuple[int, int]) -> str:
    skill_points, credits = option
    words = [f"{credits:,} credits"]
    if skill_points:
        words.append(f"{skill_points} skill points")
    return " and ".join(words)
