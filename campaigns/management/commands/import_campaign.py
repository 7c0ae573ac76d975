import sys

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError

from campaigns.backup import BackupRefused, read_backup, restore_campaign


class Command(BaseCommand):
    help = (
        "Create a new campaign from a backup file (manage.py import_campaign file.json; - reads "
        "standard input). The file is checked whole first: on any problem nothing is written, "
        "each problem is printed with its place, and the command exits with status 1."
    )

    def add_arguments(self, parser):
        parser.add_argument("file", help="The backup file (- for standard input).")
        parser.add_argument(
            "--owner",
            metavar="USERNAME",
            help="Who imports it: they become its game master and take over the player "
            "characters of users with no account here. By default the file's game master, "
            "if they have an account here.",
        )
        parser.add_argument("--name", default="", help="A new name for the campaign.")

    def handle(self, *args, file, owner=None, name="", **options):
        try:
            if file == "-":
                data = sys.stdin.buffer.read()
            else:
                with open(file, "rb") as handle:
                    data = handle.read()
        except OSError as exc:
            raise CommandError(f"cannot read {file}: {exc.strerror}") from None
        try:
            document = read_backup(data)
            importer = self._importer(document, owner)
            restored = restore_campaign(document, importer=importer, name=name)
        except BackupRefused as refused:
            for line in refused.lines():
                self.stderr.write(line)
            raise CommandError("the backup was refused; nothing was imported") from None
        campaign = restored.campaign
        made = ", ".join(f"{n} {part}" for part, n in restored.counts.items() if n)
        self.stdout.write(
            self.style.SUCCESS(
                f"Restored “{campaign.name}” as campaign {campaign.pk} ({made}); "
                f"{importer.username} is its game master."
            )
        )
        for note in restored.notes:
            self.stdout.write(self.style.WARNING(note))

    def _importer(self, document, owner):
        users = get_user_model().objects
        if owner:
            user = users.filter(username=owner).first()
            if user is None:
                raise CommandError(f"--owner: there is no user {owner!r}")
            return user
        parts = document.get("parts") if isinstance(document, dict) else None
        members = parts.get("members") if isinstance(parts, dict) else None
        for member in members if isinstance(members, list) else []:
            if isinstance(member, dict) and member.get("role") == "gm":
                user = users.filter(username=str(member.get("user"))).first()
                if user is not None:
                    return user
        raise CommandError(
            "the file's game master has no account here: say who imports it with --owner USERNAME"
        )
