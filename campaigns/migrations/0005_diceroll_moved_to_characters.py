"""DiceRoll now lives in characters (characters.0002 took over its table, rows included):
campaigns forgets the model. Nothing changes in the database."""

from django.db import migrations


class Migration(migrations.Migration):

    dependencies = [
        ('campaigns', '0004_removal'),
        ('characters', '0002_diceroll_from_campaigns'),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[migrations.DeleteModel(name='DiceRoll')],
            database_operations=[],
        ),
    ]
