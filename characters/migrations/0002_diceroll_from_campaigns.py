"""DiceRoll moves from campaigns to characters (campaigns imports no other app; a roll belongs
to a character). No row is copied: the model is declared here with the old table, then the
table is renamed from campaigns_diceroll to characters_diceroll, keeping every row, its id, its
indexes and the ledger's links to it. campaigns.0005 then forgets the model in campaigns.
Reversible: backwards renames the table back."""

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('campaigns', '0004_removal'),
        ('characters', '0001_initial'),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.CreateModel(
                    name='DiceRoll',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('label', models.CharField(help_text="What was rolled: 'Blaster', 'Strength'.", max_length=120)),
                        ('code', models.CharField(help_text='The code on the sheet, e.g. 5D+1.', max_length=20)),
                        ('pool', models.CharField(help_text='The pool actually rolled after penalties.', max_length=20)),
                        ('dice', models.JSONField(help_text='rules.Roll.to_json(): every die, Wild Die, CP dice.')),
                        ('total', models.IntegerField()),
                        ('difficulty', models.PositiveIntegerField(blank=True, null=True)),
                        ('cp_spent', models.PositiveSmallIntegerField(default=0)),
                        ('force_point', models.BooleanField(default=False)),
                        ('hidden', models.BooleanField(default=False, help_text='Seen by the GMs only.')),
                        ('created_at', models.DateTimeField(auto_now_add=True)),
                        ('actor', models.ForeignKey(null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to=settings.AUTH_USER_MODEL)),
                        ('campaign', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='rolls', to='campaigns.campaign')),
                        ('character', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='rolls', to='characters.character')),
                    ],
                    options={
                        'ordering': ['-created_at', '-pk'],
                        'indexes': [models.Index(fields=['campaign', '-created_at'], name='roll_campaign_recent')],
                        # Still the old table: nothing in the database changes yet.
                        'db_table': 'campaigns_diceroll',
                    },
                ),
                migrations.AlterField(
                    model_name='ledgerentry',
                    name='roll',
                    field=models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to='characters.diceroll'),
                ),
            ],
            database_operations=[],
        ),
        # The one change in the database: the table takes this app's name (ALTER TABLE ...
        # RENAME TO; rows, ids, indexes and foreign keys stay as they are).
        migrations.AlterModelTable(name='diceroll', table=None),
    ]
