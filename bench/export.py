"""A campaign's backup, exported and imported: a campaign of 50 characters (eight skills and two
items each) and 100,000 rolls, one in a hundred spending a Character Point through the ledger.
On a throwaway SQLite database unless DATABASE_URL is set; no server needed.

    python bench/export.py [--characters 50] [--rolls 100000] [--small 10000]

Prints:

* ``export: S s, P MB peak``: seconds to write the backup (``campaigns.backup.export_campaign``,
  the generator the download and ``manage.py export_campaign`` stream) to a file, and the
  peak of Python memory while doing it (tracemalloc; timed in a separate run without it);
* ``export streams: peak P1 MB at 10,000 rolls, P2 MB at 100,000 rolls, ratio R``: the same
  export's peak for a campaign with a tenth of the rolls. The export reads ``CHUNK`` rows at a
  time and writes a chunk of records at a time, so the ratio stays near 1 whatever the number
  of rolls (what grows is the refs it remembers: the characters' and skills', and the rolls
  the ledger names, one in a hundred here);
* ``import: S s (read R, check C, write W), P MB peak``: seconds to read the file and restore
  it as a new campaign (``read_backup`` + ``restore_campaign``: the whole document parsed,
  each record checked once, then everything written in one transaction, 2,000 prepared rows
  at a time: a COPY on PostgreSQL, an ``executemany`` on SQLite), split into its three stages
  (the write includes the commit, where PostgreSQL checks the foreign keys), and the growth
  of the process's peak resident memory while doing it. An import holds the parsed document
  and the checked records, so its memory follows the file's size.

The site's restore runs the same import in a Celery task (``campaigns.backup_jobs``); these
figures are the task's work, without the queue.
"""

import argparse
import json
import os
import random
import sys
import tempfile
import time
import tracemalloc
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
os.environ.setdefault("REQUEST_LOGGING", "false")
os.environ["DEBUG"] = "false"  # DEBUG keeps every query in memory
if "DATABASE_URL" not in os.environ:
    os.environ["DATABASE_URL"] = f"sqlite:///{tempfile.mkdtemp()}/bench.sqlite3"

import django  # noqa: E402

django.setup()

from django.contrib.auth import get_user_model  # noqa: E402
from django.core.management import call_command  # noqa: E402
from django.db import connection, connections, reset_queries  # noqa: E402

SKILLS = [
    ("blaster", "dexterity"),
    ("dodge", "dexterity"),
    ("brawling parry", "dexterity"),
    ("streetwise", "knowledge"),
    ("space transports", "mechanical"),
    ("search", "perception"),
    ("sneak", "perception"),
    ("stamina", "strength"),
]
STARTING_CP = 2000


def build(name: str, characters: int, rolls: int):
    """A campaign of ``characters`` PCs, each with eight skills, two items and 2,000 CP (one
    ledger entry), and ``rolls`` rolls of their skills spread over them, bulk-created, one in a
    hundred spending a Character Point (its ledger entry names the roll)."""
    from campaigns.models import Campaign, Membership
    from characters.models import Character, DiceRoll, Item, LedgerEntry, Skill
    from rules import DieCode, RuleSet, SeededDice, roll

    user_model = get_user_model()
    gm = user_model.objects.create_user(f"{name}-gm", password="bench-password-123")
    campaign = Campaign.objects.create(name=f"Bench {name}", created_by=gm)
    Membership.objects.create(campaign=campaign, user=gm, role="gm")
    players = user_model.objects.bulk_create(
        user_model(username=f"{name}-player-{i}") for i in range(characters)
    )
    Membership.objects.bulk_create(
        Membership(campaign=campaign, user=u, role="player") for u in players
    )
    people = Character.objects.bulk_create(
        Character(
            campaign=campaign,
            owner=players[i],
            name=f"Hero {i}",
            dexterity="3D",
            knowledge="2D+1",
            mechanical="2D+2",
            perception="3D+1",
            strength="3D",
            technical="2D",
        )
        for i in range(characters)
    )
    rng = random.Random(name)
    skills = Skill.objects.bulk_create(
        Skill(character=c, name=s, attribute=a, code=f"{rng.randint(3, 6)}D+{rng.randint(0, 2)}")
        for c in people
        for s, a in SKILLS
    )
    Item.objects.bulk_create(
        Item(character=c, kind=k, name=n, damage="4D" if k == "weapon" else None)
        for c in people
        for k, n in (("weapon", "Blaster pistol"), ("gear", "Medpac"))
    )
    LedgerEntry.objects.bulk_create(
        LedgerEntry(
            character=c, currency="cp", delta=STARTING_CP, balance_after=STARTING_CP, reason="Start"
        )
        for c in people
    )
    ruleset, dice = RuleSet(), SeededDice(7)
    held = {c.pk: STARTING_CP for c in people}
    owner = {c.pk: c.owner_id for c in people}
    batch, spends = [], []
    for n in range(rolls):
        skill = skills[n % len(skills)]
        cp = 1 if n % 100 == 0 else 0
        result = roll(DieCode.parse(str(skill.code)), ruleset=ruleset, rng=dice, cp_dice=cp)
        batch.append(
            DiceRoll(
                campaign=campaign,
                character_id=skill.character_id,
                actor_id=owner[skill.character_id],
                label=skill.name,
                code=str(skill.code),
                pool=str(result.pool),
                dice={
                    **result.to_json(),
                    "actions": 1,
                    "wound_penalty": 0,
                    "trait": f"skill:{skill.pk}",
                },
                total=result.total,
                cp_spent=cp,
            )
        )
        if len(batch) == 5000 or n == rolls - 1:
            made = DiceRoll.objects.bulk_create(batch)
            for record in made:
                if record.cp_spent:
                    held[record.character_id] -= 1
                    spends.append(
                        LedgerEntry(
                            character_id=record.character_id,
                            currency="cp",
                            delta=-1,
                            balance_after=held[record.character_id],
                            reason=f"Spent on {record.label} roll",
                            roll=record,
                        )
                    )
            batch = []
    LedgerEntry.objects.bulk_create(spends)
    for character in people:
        character.character_points = held[character.pk]
    Character.objects.bulk_update(people, ["character_points"])
    return campaign


def export_to(campaign, path: Path) -> float:
    from campaigns.backup import export_campaign

    started = time.perf_counter()
    with path.open("w", encoding="utf-8") as file:
        for chunk in export_campaign(campaign):
            file.write(chunk)
    return time.perf_counter() - started


def export_peak_mb(campaign, path: Path) -> float:
    """Peak Python memory (tracemalloc) of one export to ``path``."""
    reset_queries()
    tracemalloc.start()
    try:
        tracemalloc.reset_peak()
        before = tracemalloc.get_traced_memory()[0]
        export_to(campaign, path)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    return (peak - before) / 1e6


def _status_mb(key: str) -> float:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith(f"{key}:"):
            return int(line.split()[1]) / 1024  # kB
    raise RuntimeError(f"no {key} in /proc/self/status")


def import_in_child(path: Path, importer_id: int) -> tuple[float, list[float], float, int]:
    """Seconds and peak memory of reading ``path`` and restoring it, in a forked process (so
    the peak is the import's alone: the kernel starts the child's high-water mark at its
    resident set when forked): (seconds, seconds of each stage (read, check, write), growth
    of the peak resident set in MB, rolls made)."""
    from campaigns.backup import read_backup, restore_campaign

    connections.close_all()  # each process opens its own connection
    reader, writer = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child
        os.close(reader)
        code = 1
        try:
            base = _status_mb("VmRSS")
            started = time.perf_counter()
            marks: dict[str, float] = {}
            importer = get_user_model().objects.get(pk=importer_id)
            restored = restore_campaign(
                read_backup(path.read_bytes()),
                importer=importer,
                progress=lambda stage, done, total: marks.setdefault(stage, time.perf_counter()),
            )
            ended = time.perf_counter()
            seconds = ended - started
            stages = [marks["checking"] - started, marks["writing"] - marks["checking"]]
            stages.append(ended - marks["writing"])
            grown = _status_mb("VmHWM") - base
            answer = [seconds, stages, grown, restored.counts["rolls"]]
            os.write(writer, json.dumps(answer).encode())
            code = 0
        finally:
            os._exit(code)
    os.close(writer)
    with os.fdopen(reader) as answer:
        data = answer.read()
    _, status = os.waitpid(pid, 0)
    if status != 0 or not data:
        raise SystemExit("the import failed in the child process")
    seconds, stages, grown, rolls = json.loads(data)
    return seconds, stages, grown, rolls


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--characters", type=int, default=50)
    parser.add_argument("--rolls", type=int, default=100_000)
    parser.add_argument("--small", type=int, default=10_000)
    args = parser.parse_args()
    call_command("migrate", verbosity=0)

    started = time.perf_counter()
    small = build("small", args.characters, args.small)
    large = build("large", args.characters, args.rolls)
    print(
        f"built {args.characters} characters with {args.small:,} and with {args.rolls:,} rolls "
        f"in {time.perf_counter() - started:.0f} s; database: {connection.vendor}"
    )
    folder = Path(tempfile.mkdtemp())
    path = folder / "large.json"
    seconds = export_to(large, path)
    size = path.stat().st_size
    small_peak = export_peak_mb(small, folder / "small.json")
    large_peak = export_peak_mb(large, path)
    print(f"file: {size / 1e6:.1f} MB for {args.rolls:,} rolls")
    print(f"export: {seconds:.1f} s, {large_peak:.1f} MB peak")
    print(
        f"export streams: peak {small_peak:.1f} MB at {args.small:,} rolls, "
        f"{large_peak:.1f} MB at {args.rolls:,} rolls, ratio {large_peak / small_peak:.2f}"
    )

    seconds, (read, check, write), grown, rolls = import_in_child(path, large.created_by_id)
    assert rolls == args.rolls, rolls
    print(
        f"import: {seconds:.1f} s (read {read:.1f}, check {check:.1f}, write {write:.1f}), "
        f"{grown:.0f} MB peak (growth of the resident set)"
    )


if __name__ == "__main__":
    main()
