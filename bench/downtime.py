"""Advancing game time with downtime jobs of mixed kinds: a campaign of 500 characters with
1,000 active jobs (trainings, improvement projects, healing with some in a bacta tank, House
schools, droid repairs) advanced 30 days.

    python bench/downtime.py [--characters 500] [--jobs 1000] [--days 30] [--quick]

The same harness as bench/advance.py (bench/_harness.py: PostgreSQL and Redis from
scripts/services.sh, Celery worker processes with --pool=solo). Prints the mix (kind → count),
then:

* ``one worker: S``: seconds from the GM's click to the advance done, one worker process;
* ``two workers: S``: two campaigns of half the size (and half the jobs each) clicked at
  once, two worker processes. One campaign's advance is sequential by design (a day is one
  transaction, applied whole before the next: bench/advance.py says why), so workers share
  the load campaign by campaign;
* ``queries per character-day: N``: the queries of the advance (``run_advance``, counted in
  this process) over characters x days, with 1,000 jobs; and the same for half the jobs, to
  show whether the figure follows the number of jobs. Then each handler's own queries: per
  character-day, per report line, and per pending job-day (a handler whose queries grow with
  the jobs pending, one query or more per job per day even when nothing of the job falls due,
  shows a steady figure there; one that pays only for what falls due shows a small one).

The campaign plays the House rules (schools are House only). The jobs are started through the
services a player or GM uses: trainings asked for by the GM (``request_advancement``),
projects started from a quote on a blaster (``start_project``; the House rules improve
equipment by the Rules Upgrade's percentages, 35 days a pip, so a project of the mix works on
through the window), wounded characters (the sheet's wound level set, as after a fight;
every fifth put in a bacta tank with ``start_bacta``), enrolments in schools of 5 to 30 days
(``enrol_character``), damaged droids repaired by a hired technician
(``start_droid_repair``). ``--quick``: 100 characters, 200 jobs, 10 days.
"""

import argparse
import time
from collections import Counter

import _harness  # bench/ is on the path: this file's folder

_harness.setup()

from _harness import (  # noqa: E402
    add_trainings,
    build_party,
    counted_advance,
    print_worker_times,
)

WOUNDS = ["wounded", "wounded_twice", "incapacitated"]
PROJECT_TARGETS = ["3D+1", "3D+2", "4D"]
KIND_OF_HANDLER = {
    "complete_due": "training",
    "projects_due": "project",
    "heal_due": "healing",
    "schools_due": "school",
    "repairs_due": "repair",
    "post_pending_cp": "pending CP",
}


def hurt(characters, **fields) -> None:
    """Wound ``characters`` in turn wounded, wounded twice, incapacitated (as after a fight),
    setting ``fields`` too."""
    from characters.models import Character

    for k, level in enumerate(WOUNDS):
        Character.objects.filter(pk__in=[c.pk for c in characters[k :: len(WOUNDS)]]).update(
            wound_level=level, **fields
        )


# --- Schools and repairs (characters/schools.py, characters/repair_jobs.py) ------------------
def add_schools(campaign, gm, people, count: int) -> None:
    """``count`` characters (the first ones) enrolled, each paying the price, in one of six
    schools of the House example's bonuses, 1 to 6 weeks long (5 to 30 days)."""
    if not count:
        return
    from characters.schools import enrol_character, save_school
    from rules.advancement.schools import NCO_LEADERSHIP_I

    schools = [
        save_school(
            campaign.pk,
            actor=gm,
            name=f"School of {weeks} weeks",
            weeks=weeks,
            cp_cost=5,
            bonuses=NCO_LEADERSHIP_I.bonuses,
        )
        for weeks in range(1, 7)
    ]
    for k, character in enumerate(people[:count]):
        school = schools[k % len(schools)]
        enrol_character(campaign.pk, school.pk, character.pk, actor=gm, pay=5)


def add_repairs(campaign, gm, people, count: int) -> None:
    """``count`` characters after the students made damaged droids (wounded to incapacitated),
    each repaired by a hired technician with 4D."""
    if not count:
        return
    from characters.repair_jobs import start_droid_repair

    droids = people[len(people) // 2 : len(people) // 2 + count]
    hurt(droids, nature="droid")
    for droid in droids:
        start_droid_repair(campaign.pk, droid.pk, actor=gm, hired_code="4D")


# --- The mix -----------------------------------------------------------------------------------
def mix(jobs: int, characters: int) -> dict[str, int]:
    """How many jobs of each kind: a quarter projects, a quarter healing (one course per
    character at most), a twentieth each schools and repairs when they exist, the rest
    trainings."""
    school = jobs // 20
    repair = jobs // 20
    healing = min(jobs // 4, characters // 2 - repair)  # the last ones: not the droids
    project = jobs // 4
    return {
        "training": jobs - healing - project - school - repair,
        "project": project,
        "healing": healing,
        "school": school,
        "repair": repair,
    }


def add_projects(campaign, gm, people, count: int) -> None:
    """``count`` projects, each on a new blaster (3D damage) of a character, to 3D+1, 3D+2 or
    4D, the character working on it with 4D."""
    from characters.models import Item
    from characters.projects import start_project
    from characters.projects_quote import quote_item
    from rules import DieCode

    ruleset = campaign.ruleset
    blasters = Item.objects.bulk_create(
        Item(character=people[k % len(people)], kind="weapon", name=f"blaster {k}", damage="3D")
        for k in range(count)
    )
    for k, blaster in enumerate(blasters):
        target = PROJECT_TARGETS[k % len(PROJECT_TARGETS)]
        quote = quote_item(blaster, "damage", ruleset=ruleset, target=target, item_value=500)
        start_project(
            campaign.pk,
            actor=blaster.character.owner,
            worker_id=blaster.character_id,
            quote=quote,
            stat="damage",
            skill=DieCode(4),
            item_id=blaster.pk,
        )


def add_wounded(campaign, gm, people, count: int) -> int:
    """``count`` wounded characters (the last ones), every fifth in a bacta tank (a medic's
    (A) Medicine 5D); returns how many are in a tank."""
    from characters.healing import start_bacta
    from rules import DieCode

    wounded = people[len(people) - count :]
    hurt(wounded)
    tanks = wounded[::5]
    for character in tanks:
        start_bacta(campaign.pk, character.pk, actor=gm, medicine=True, code=DieCode(5))
    return len(tanks)


def build(name: str, characters: int, jobs: int, window: int, idle: int = 0):
    """A campaign of ``characters`` characters with the mix of ``jobs`` jobs started on day 0,
    and ``idle`` more trainings due after the window. Returns the campaign and the mix (with
    "bacta": how many heal in a tank)."""
    counts = mix(jobs, characters)
    from rules import RuleSet

    campaign, gm, people = build_party(
        name, characters, ruleset=RuleSet.preset("house"), credits=10_000
    )
    add_trainings(campaign, gm, people, counts["training"] + idle, window, later=idle)
    add_projects(campaign, gm, people, counts["project"])
    bacta = add_wounded(campaign, gm, people, counts["healing"])
    add_schools(campaign, gm, people, counts["school"])
    add_repairs(campaign, gm, people, counts["repair"])
    return campaign, {**counts, "bacta": bacta}


def print_mix(counts: dict[str, int], characters: int, days: int) -> None:
    notes = {
        "training": f"due on days spread over 1..{days}, one in five an attribute",
        "project": "a blaster's damage, Rules Upgrade: 35 days a pip",
        "healing": f"wounded to incapacitated; {counts['bacta']} of them in a bacta tank",
        "school": "House schools of 5 to 30 days, the price paid",
        "repair": "damaged droids, a hired technician's 4D",
    }
    total = sum(counts[k] for k in notes)
    print(f"jobs of mixed kinds ({characters} characters, {days} days):")
    print(f"  {'kind':<10} {'count':>6}")
    for kind, note in notes.items():
        print(f"  {kind:<10} {counts[kind]:>6}  {note}")
    print(f"  {'total':<10} {total:>6}")


def count_queries(name: str, characters: int, jobs: int, days: int, idle: int = 0):
    """The counted advance of a fresh campaign with ``jobs`` jobs (and ``idle`` trainings due
    after the window): total queries, each handler's, the mix and the report lines by kind."""
    campaign, counts = build(name, characters, jobs, days, idle)
    per_handler: Counter = Counter()
    queries, advance = counted_advance(campaign, days, per_handler=per_handler)
    lines = Counter(str(line.get("kind")) for line in advance.report)
    lines["training"] = sum(1 for line in advance.report if "advancement" in line)
    return queries, per_handler, counts, lines


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--characters", type=int, default=500)
    parser.add_argument("--jobs", type=int, default=1000)
    parser.add_argument("--days", type=int, default=30)
    parser.add_argument("--quick", action="store_true", help="100 characters, 200 jobs, 10 days")
    args = parser.parse_args()
    n, jobs, days = args.characters, args.jobs, args.days
    if args.quick:
        n, jobs, days = 100, 200, 10

    started = time.perf_counter()
    one, counts = build("one", n, jobs, days)
    halves = [build(f"half-{i}", n // 2, jobs // 2, days)[0] for i in range(2)]
    print_mix(counts, n, days)
    print(
        f"built in {time.perf_counter() - started:.0f} s (and twice half of that); PostgreSQL, "
        "Redis, worker processes with --pool=solo"
    )
    print_worker_times(one, halves, days)

    rows = [count_queries(f"count-{j}", n, j, days) for j in (jobs // 2, jobs)]
    idle = count_queries("count-idle", n, jobs, days, idle=jobs)
    print(f"queries per character-day: {rows[1][0] / (n * days):.2f}")
    print(
        f"  the same {jobs:,} jobs with {jobs:,} more trainings pending (due after the window): "
        f"{idle[0] / (n * days):.2f} per character-day ({idle[0]:,} queries): pending work "
        "that does not fall due costs nothing; what grows with the jobs is the work done"
    )
    for queries, per_handler, counts, lines in rows:
        print(
            f"  {sum(counts[k] for k in ('training', 'project', 'healing', 'school', 'repair')):,}"
            f" jobs: {queries / (n * days):.2f} per character-day ({queries:,} queries)"
        )
        for handler, spent in per_handler.most_common():
            kind = KIND_OF_HANDLER.get(handler, handler)
            pending = counts.get(kind, 0)
            made = lines[kind]
            print(
                f"    {handler:<16} {spent / (n * days):6.2f} per character-day, "
                + (f"{spent / made:5.1f} per report line ({made:,}), " if made else "no lines, ")
                + (f"{spent / (pending * days):5.2f} per pending job-day" if pending else "")
            )


if __name__ == "__main__":
    main()
