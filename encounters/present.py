"""What the encounter pages show, read from the engine's state: one row per combatant (the GM
sees every number; a player sees his own combatant whole and of the others only what the table
knows: name, side, wounds, actions declared), the status line (round, whose action is due, the
attack waiting for a reaction) and the recent steps as the log reads them.

Nothing here queries the database: a view reads the encounter row and its recent steps (two
queries) and everything else is computed, so the dashboard costs the same with 5 combatants or
50 (``encounters/tests/test_queries.py``)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from characters.craft_damage import WEAPON_RESULTS
from rules import RuleSet
from rules.combat import RangeBand, range_difficulty
from rules.dice import DiceError, DieCode, rollable_pool
from rules.encounter import Combatant, EncounterState, next_to_act, penalty_dice
from rules.encounter.craft_aboard import aboard, combined, crew_code, dodge_skill, reaction_code
from rules.encounter.points import force_point_active
from rules.injuries import WoundLevel, injury_penalty_dice
from rules.odds import success_chance

__all__ = ["Row", "Status", "attack_odds", "log_entries", "rows", "status"]

BANDS = (RangeBand.point_blank, RangeBand.short, RangeBand.medium, RangeBand.long)


def _signed_dice(n: int) -> str:
    return f"−{n}D" if n else ""


@dataclass(frozen=True)
class Row:
    """One combatant as a viewer sees him."""

    id: str
    name: str
    side: str
    npc: bool
    known: bool
    """The viewer may see his numbers (the GM; a player for his own combatant)."""
    own: bool
    wound: str
    wound_key: str
    injury_penalty: int
    penalty: int
    declared: int | None
    extra: int
    used: int
    left: int
    reactions: list[tuple[str, int | None, bool]]
    flags: list[str]
    out: bool
    due: bool
    in_pending: str
    codes: str = ""
    weapon: str = ""
    initiative: int | None = None
    mortal_rounds: int = 0
    can_declare: bool = False
    can_act: bool = False
    position: str = ""
    notes: str = ""
    aiming: str = ""
    stun: str = ""
    extra_data: dict[str, Any] = field(default_factory=dict)


def _stun(c: Combatant, now: int) -> str:
    """Stuns in force: each costs 1D this round and the next (combat.md §11)."""
    active = [s for s in c.wounds.stuns if s.round <= now <= s.round + 1]
    if not active:
        return ""
    points = sum(s.points for s in active)
    last = max(s.round for s in active) + 1
    return f"stunned ×{points}, −{points}D to the end of round {last}"


def _has(state: EncounterState, cid: str) -> bool:
    return any(c.id == cid for c in state.combatants)


def _position(c: Combatant) -> str:
    parts = []
    if c.range_band:
        parts.append(f"{c.range_band.replace('_', '-')} range")
    if c.distance_m is not None:
        parts.append(f"{c.distance_m} m")
    if c.cover:
        parts.append(c.cover.replace("_", " "))
    return " · ".join(parts)


def _codes(c: Combatant) -> str:
    parts = [f"Per {c.perception}", f"Dex {c.dexterity}", f"Str {c.strength}"]
    parts += [f"{name} {code}" for name, code in c.skills]
    return " · ".join(parts)


def _weapon(c: Combatant) -> str:
    if c.weapon is None:
        return "unarmed (Strength)"
    w = c.weapon
    ranges = f", {w.ranges}" if w.ranges else ""
    stun = ", stun" if w.stun else ""
    return f"{w.name} {w.damage} ({w.skill}{ranges}{stun})"


def rows(
    state: EncounterState,
    *,
    ruleset: RuleSet,
    gm: bool,
    own: set[str],
    only: set[str] | None = None,
) -> list[Row]:
    """The combatants in acting order (the order of joining before initiative), or just
    ``only``."""
    ordered = [state.combatant(cid) for cid in state.order] if state.order else []
    seen = {c.id for c in ordered}
    ordered += [c for c in state.combatants if c.id not in seen]
    due = next_to_act(state) if state.phase == "round" else None
    pending = state.pending
    result = []
    for c in ordered:
        if only is not None and c.id not in only:
            continue
        known = gm or c.id in own
        actions = c.actions
        flags = []
        if c.knocked_out and c.craft is None:  # a craft is out when destroyed (its row says so)
            flags.append("unconscious")
        if c.prone and c.craft is None:
            flags.append("prone")
        if c.lost_actions and not c.out_of_fight:
            flags.append("no more actions this round")
        if c.lose_next_round:
            flags.append("loses next round")
        if c.stabilised:
            flags.append("stabilised")
        if c.surprised:
            flags.append("surprised")
        flags.extend(f"critical: {k.name}" for k in getattr(c, "criticals", ()))
        role = ""
        if pending is not None:
            role = (
                "attacker"
                if c.id == pending.attacker
                else "target"
                if c.id == pending.target
                else ""
            )
            if c.id in getattr(pending, "others", ()):
                role = "attacker"
        reactions = [
            (r.skill, r.total if known or not c.npc else None, r.full) for r in c.reactions
        ]
        result.append(
            Row(
                id=c.id,
                name=c.name,
                side=c.side,
                npc=c.npc,
                known=known,
                own=c.id in own,
                wound=c.wounds.level.label,
                wound_key=c.wounds.level.value,
                injury_penalty=injury_penalty_dice(
                    c.wounds, now_round=state.round, ruleset=ruleset
                ),
                penalty=penalty_dice(c, now_round=state.round, ruleset=ruleset),
                declared=actions.total if actions else None,
                extra=actions.extra if actions else 0,
                used=actions.used if actions else 0,
                left=actions.remaining if actions else 0,
                reactions=reactions,
                flags=flags,
                out=c.out_of_fight,
                due=due is not None and due[0] == c.id,
                in_pending=role,
                codes=_codes(c) if known else "",
                weapon=_weapon(c) if known else (c.weapon.name if c.weapon else "unarmed"),
                initiative=c.initiative,
                mortal_rounds=c.mortal_rounds
                if c.wounds.level is WoundLevel.mortally_wounded and not c.stabilised
                else 0,
                stun=_stun(c, state.round),
                position=_position(c),
                notes=c.notes if gm else "",
                aiming=state.combatant(c.aim_target).name
                if known and c.aim_target and _has(state, c.aim_target)
                else "",
                can_declare=state.phase == "round"
                and (c.craft is None or not c.craft.crewed)
                and actions is None
                and not c.out_of_fight
                and not c.lost_actions,
                can_act=state.phase == "round"
                and bool(actions and actions.remaining)
                and not c.out_of_fight
                and not c.lost_actions,
                extra_data={"craft": craft_info(c, state, ruleset=ruleset)} if c.craft else {},
            )
        )
    return result


@dataclass(frozen=True)
class Status:
    round: int
    segment: int
    phase: str
    due_name: str
    due_action: int
    pending_text: str
    pending_target: str
    pending_attacker: str
    pending_reacted: bool
    winner: str
    sides: list[str]
    rc: bool


def status(state: EncounterState, *, ruleset: RuleSet) -> Status:
    due = next_to_act(state) if state.phase == "round" else None
    pending = state.pending
    text = target = attacker = ""
    reacted = False
    if pending is not None:
        a, t = state.combatant(pending.attacker), state.combatant(pending.target)
        others = getattr(pending, "others", ()) or ()
        supporters = getattr(pending, "supporters", ()) or ()
        who = a.name
        if others:
            who += f" and {len(others)} more"
        if supporters:
            who += f" with {len(supporters)} combining"
        verb = "attack" if others else "attacks"
        text = f"{who} {verb} {t.name} ({pending.skill}, difficulty {pending.base})"
        ship = aboard(state, a) if pending.gun is not None else None
        if ship is not None and ship.craft is not None and pending.gun < len(ship.craft.guns):
            gun = ship.craft.guns[pending.gun].name
            text = f"{who} fires {gun} at {t.name} (difficulty {pending.base})"
        target, attacker = t.id, a.id
        if t.craft is not None and t.craft.holder("pilot"):
            target = t.craft.holder("pilot") or t.id  # its pilot dodges for it
        reactor = state.combatant(target)
        skill = dodge_skill(t.craft) if t.craft is not None else None
        reacted = any(skill is None or r.skill == skill for r in reactor.reactions)
    sides = []
    for c in state.combatants:
        if c.side not in sides:
            sides.append(c.side)
    return Status(
        round=state.round,
        segment=state.segment,
        phase=state.phase,
        due_name=state.combatant(due[0]).name if due else "",
        due_action=due[1] if due else 0,
        pending_text=text,
        pending_target=target,
        pending_attacker=attacker,
        pending_reacted=reacted,
        winner=state.initiative_winner or "",
        sides=sides,
        rc=ruleset.combat_round == "rc_haste",
    )


def attack_odds(
    c: Combatant, *, state: EncounterState, ruleset: RuleSet, gun: int | None = None
) -> list[dict[str, Any]]:
    """The chance to hit at each range band's standard difficulty with the combatant's weapon
    skill, or with ``gun`` of his craft (his gunnery plus its fire control, as the attack rolls
    it), and his penalties now (one more action taken into account when he has not declared:
    the odds of a single declared attack)."""
    ship = aboard(state, c) if gun is not None else None
    try:
        if ship is not None and ship.craft is not None and gun is not None:
            part = ship.craft
            code = combined(
                crew_code(ship, c, part.gunnery),
                part.code("fire_control", ruleset=ruleset, gun=gun),
            )
        else:
            code = c.code(c.weapon.skill if c.weapon else "brawling")
    except Exception:  # an unlisted skill with no kept attribute: no odds to show
        return []
    penalty = penalty_dice(c, now_round=state.round, ruleset=ruleset)
    doubled = force_point_active(c, state.round)
    try:
        pool = rollable_pool(code, penalty_dice=penalty, force_point=doubled, ruleset=ruleset)
    except DiceError:
        return []
    out = []
    for band in BANDS:
        level = range_difficulty(band, ruleset=ruleset)
        out.append(
            {
                "band": band.value,
                "label": band.value.replace("_", "-"),
                "level": str(level.level),
                "difficulty": level.high,
                "chance": success_chance(pool, level.high, ruleset=ruleset),
            }
        )
    return out


def reaction_odds(
    c: Combatant, skill: str, difficulty: int, *, state: EncounterState, ruleset: RuleSet
) -> dict[str, Any] | None:
    """The chance that a reaction roll (one more action: the penalty rises first) beats the
    attack's base difficulty, which is when it helps."""
    try:
        code = reaction_code(state, c, skill, ruleset=ruleset)
    except Exception:
        return None
    extra = c.actions.penalty_dice(ruleset=ruleset) if c.actions else 0
    if c.actions is not None:
        extra = c.actions.react(use_declared=False).penalty_dice(ruleset=ruleset)
    penalty = extra + injury_penalty_dice(c.wounds, now_round=state.round, ruleset=ruleset)
    doubled = force_point_active(c, state.round)
    try:
        pool = rollable_pool(code, penalty_dice=penalty, force_point=doubled, ruleset=ruleset)
    except DiceError:
        return None
    return {
        "skill": skill,
        "code": str(code),
        "pool": str(pool),
        "difficulty": difficulty,
        "chance": success_chance(pool, difficulty + 1, ruleset=ruleset),
    }


def dice_text(name: str, roll: dict[str, Any]) -> str:
    """One stored roll as the log shows it, every die accounted for: "attack 4D+1: 4 2 4 ·
    W 6+3 · CP 6 = 25", the Wild Die's chain marked W, Character Point dice CP, dice a Wild
    Die 1 took away and a complication named."""
    parts = [" ".join(str(f) for f in roll.get("normal", []))]
    if roll.get("wild"):
        parts.append("W " + "+".join(str(f) for f in roll["wild"]))
    for chain in roll.get("cp", []):
        parts.append("CP " + "+".join(str(f) for f in chain))
    if roll.get("removed"):
        parts.append("removed " + " ".join(str(f) for f in roll["removed"]))
    text = " · ".join(p for p in parts if p)
    pool = roll.get("pool") or roll.get("code") or ""
    out = f"{name} {pool}: {text} = {roll.get('total')}"
    if roll.get("complication"):
        out += " (Wild Die 1: complication)"
    return out


def log_entries(steps: list[Any], *, gm: bool, npc_ids: set[str]) -> list[dict[str, Any]]:
    """The stored steps as the log reads them, newest first: each event's sentence, and its
    dice for the GM or for a combatant who is not an NPC."""
    out = []
    for step in steps:
        lines = []
        for e in step.events:
            show_dice = gm or e.get("combatant") not in npc_ids
            dice = []
            if show_dice:
                dice = [dice_text(name, roll) for name, roll in e.get("rolls", [])]
            lines.append(
                {"text": e.get("text", ""), "dice": "; ".join(dice), "kind": e.get("kind")}
            )
        out.append({"number": step.number, "type": step.command.get("type"), "lines": lines})
    return out


def pool_after(code: DieCode, penalty: int, *, ruleset: RuleSet) -> str:
    try:
        return str(rollable_pool(code, penalty_dice=penalty, ruleset=ruleset))
    except DiceError:
        return "too few dice"


def craft_info(c: Combatant, state: EncounterState, *, ruleset: RuleSet) -> dict[str, Any] | None:
    """What a craft's row shows: its damage, its codes as damage leaves them, its guns with
    their arcs and who holds each station; None for a character."""
    part = c.craft
    if part is None:
        return None
    names = {x.id: x.name for x in state.combatants}
    words = {
        "none": "undamaged",
        "lightly": "lightly damaged",
        "heavily": "heavily damaged",
        "severely": "severely damaged",
        "destroyed": "destroyed",
    }
    limits = []
    d = part.damage
    if d.maneuverability_lost:
        limits.append(f"−{d.maneuverability_lost}D maneuverability")
    if d.shield_dice_lost:
        limits.append(f"−{d.shield_dice_lost}D shields")
    if d.moves_lost:
        limits.append(f"−{d.moves_lost} Move")
    if d.controls_ionized:
        limits.append(f"controls ionized −{d.controls_ionized}D")
    if d.dead_controls:
        limits.append("dead controls")
    limits += [WEAPON_RESULTS.get(w, (w.replace("_", " "),))[0] for w in d.weapon_damage]
    pilot = part.holder("pilot") or (c.id if not part.crewed else None)
    return {
        "damage": words.get(d.damage, d.damage),
        "damage_key": d.damage,
        "limits": limits,
        "maneuverability": str(part.code("maneuverability", ruleset=ruleset)),
        "hull": str(part.code("hull", ruleset=ruleset)),
        "shields": str(part.code("shields", ruleset=ruleset)) if part.shields else "",
        "shield_arcs": ", ".join(part.shield_arcs),
        "guns": [
            {
                "index": i,
                "name": g.name,
                "arc": g.arc_text,
                "code": str(part.code("fire_control", ruleset=ruleset, gun=i)),
                "damage": str(part.code("damage", ruleset=ruleset, gun=i)),
                "gunner": names.get(part.gunner_of(i) or "", ""),
            }
            for i, g in enumerate(part.guns)
        ],
        "crew": [(_station_words(s), names.get(w, w)) for s, w in part.crew],
        "crewed": part.crewed,
        "pilot_id": pilot,
        "dodge_skill": dodge_skill(part),
    }


def _station_words(station: str) -> str:
    """``gunner:0`` as the page says it: "gunner, gun 1"."""
    head, _, index = station.partition(":")
    return f"gunner, gun {int(index) + 1}" if head == "gunner" and index.isdecimal() else station


def aboard_text(c: Combatant, state: EncounterState) -> str:
    """Where a character serves: "Aboard Stellar Envoy: pilot, gunner, gun 2 (Rear laser)"."""
    ship = aboard(state, c)
    if ship is None or ship.craft is None or ship.id == c.id:
        return ""
    part = ship.craft
    said = []
    for station in part.stations_of(c.id):
        words = _station_words(station)
        head, _, index = station.partition(":")
        if head == "gunner" and index.isdecimal() and int(index) < len(part.guns):
            words += f" ({part.guns[int(index)].name})"
        said.append(words)
    return f"Aboard {ship.name}: {', '.join(said)}" if said else ""


def guns_for(c: Combatant, state: EncounterState) -> list[dict[str, Any]]:
    """The guns ``c`` may fire: those of his stations, or as pilot those nobody mans (a
    craft flown by its unnamed crew fires all of its own)."""
    ship = aboard(state, c)
    if ship is None or ship.craft is None:
        return []
    part = ship.craft
    out = []
    for i, g in enumerate(part.guns):
        gunner = part.gunner_of(i)
        if gunner == c.id or (gunner is None and c.id in (part.holder("pilot"), ship.id)):
            out.append({"index": i, "name": g.name, "label": f"{g.name} ({g.arc_text})"})
    return out
