from django.db import migrations


def create_mirror_schema(apps, schema_editor):
    from apps.common.database.schema import ensure_mirror_schema

    ensure_mirror_schema(schema_editor.connection)


class Migration(migrations.Migration):
    initial = True
    dependencies = []
    operations = [migrations.RunPython(create_mirror_schema, migrations.RunPython.noop)]
