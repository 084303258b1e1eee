from django.apps import AppConfig


class SchedulesConfig(AppConfig):
    name = "apps.schedules"
    label = "schedules"
