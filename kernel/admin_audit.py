"""The audit trail of administrators' changes: Django's own ``LogEntry``, also for actions and custom views.

The admin's add, change and delete pages record a ``LogEntry`` by themselves
(who, when, which object, which fields; never field values, so a secret typed
into a form is not copied into the log). Bulk actions and custom views do
not; they call ``admin_change_logged`` so disabling a chunk or revoking a key
leaves the same trace, shown in the object's History and the admin's log.
"""
from __future__ import annotations

from django.contrib.admin.models import CHANGE, LogEntry
from django.db.models import QuerySet
from django.http import HttpRequest


def admin_change_logged(request: HttpRequest, objects: QuerySet, message: str) -> None:
    """One CHANGE entry per object in ``objects``, by the request's administrator, with ``message``."""
    LogEntry.objects.log_actions(user_id=request.user.pk, queryset=objects, action_flag=CHANGE,
                                 change_message=message)
