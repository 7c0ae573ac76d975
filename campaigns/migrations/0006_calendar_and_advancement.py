import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("campaigns", "0005_diceroll_moved_to_characters"),
    ]

    operations = [
        migrations.AddField(
            model_name="campaign",
            name="approve_advancement",
            field=models.BooleanField(
                db_default=False,
                default=False,
                help_text="Players' advancement requests wait for a GM's approval before training.",
            ),
        ),
        migrations.AddField(
            model_name="campaign",
            name="era",
            field=models.CharField(
                blank=True,
                db_default="",
                help_text='How the GM names the era, e.g. "8 BBY".',
                max_length=40,
            ),
        ),
        migrations.AddField(
            model_name="campaign",
            name="game_day",
            field=models.PositiveIntegerField(
                db_default=0,
                default=0,
                help_text="The campaign's date: days since its start (day 0).",
            ),
        ),
        migrations.CreateModel(
            name="Adventure",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("name", models.CharField(max_length=120)),
                ("start_day", models.PositiveIntegerField()),
                ("end_day", models.PositiveIntegerField(blank=True, null=True)),
                ("created_at", models.DateTimeField(auto_now_add=True)),
                (
                    "campaign",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="adventures",
                        to="campaigns.campaign",
                    ),
                ),
            ],
            options={
                "ordering": ["-start_day", "-pk"],
                "constraints": [
                    models.UniqueConstraint(
                        condition=models.Q(("end_day__isnull", True)),
                        fields=("campaign",),
                        name="one_running_adventure_per_campaign",
                    ),
                    models.CheckConstraint(
                        condition=models.Q(
                            ("end_day__isnull", True),
                            ("end_day__gte", models.F("start_day")),
                            _connector="OR",
                        ),
                        name="adventure_ends_after_it_starts",
                    ),
                ],
            },
        ),
    ]
