"""The Celery app: broker and result backend from settings (Redis, or in-memory and eager)."""

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

app = Celery("datapad")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
