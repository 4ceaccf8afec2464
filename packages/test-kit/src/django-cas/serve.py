"""Migrates, allows EduPass's service addresses (single logout on, every attribute released), serves.

Usage: CAS_DB=… CAS_TEST_USER=… CAS_TEST_PASSWORD=… CAS_TEST_ATTRIBUTES='{…}' python3 serve.py <port>
"""
import os
import sys

sys.dont_write_bytecode = True  # nothing written into the repository
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "settings")

import django  # noqa: E402
from django.core.management import call_command  # noqa: E402

django.setup()
call_command("migrate", verbosity=0)

from cas_server.models import ReplaceAttributName, ServicePattern  # noqa: E402

pattern, _ = ServicePattern.objects.get_or_create(
    pos=1,
    name="EduPass",
    pattern=r"^http://(127\.0\.0\.1|localhost):[0-9]+/edu/school-sign-in/.*$",
    defaults={"single_log_out": True},
)
ReplaceAttributName.objects.get_or_create(name="*", replace="", service_pattern=pattern)
call_command("runserver", f"127.0.0.1:{sys.argv[1]}", use_reloader=False, use_threading=True)
