"""Moments in the viewer's own time zone: ``{{ when|local_time }}``
writes a <time data-local="..."> that static/js/localtime.js rewrites in the browser's
zone; without JavaScript it shows the site's time (settings.TIME_ZONE), its zone named
whenever a time of day is shown.

Forms: "datetime" (the default: 6 December, 21:14), "short" (06.12.2026 21:14), "date"
(6 December 2026), "shortdate" (06.12.2026), "time" (21:14), "daytime" (6 December, 21:14).
"""

from django import template
from django.utils import dateformat, formats, timezone
from django.utils.html import format_html

register = template.Library()

# Each form's text for the site's time (a format setting's name or a format of its own).
FORMS = {
    "datetime": "DATETIME_FORMAT", "short": "SHORT_DATETIME_FORMAT", "date": "DATE_FORMAT",
    "shortdate": "SHORT_DATE_FORMAT", "time": "H:i", "daytime": "j E, H:i",
}
DATE_ONLY = {"date", "shortdate"}


@register.filter
def local_time(when, form: str = "datetime"):
    """``when`` (an aware datetime) as a <time> in the viewer's zone; "" for none."""
    if not when:
        return ""
    form = form if form in FORMS else "datetime"
    local = timezone.localtime(when)
    text = formats.date_format(local, FORMS[form])
    if form not in DATE_ONLY:
        text = f"{text} {dateformat.format(local, 'T')}".strip()
    return format_html('<time datetime="{}" data-local="{}">{}</time>',
                       local.isoformat(), form, text)
