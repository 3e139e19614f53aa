"""The form that creates an arena, with RULES.md 12's settings."""

from __future__ import annotations

from datetime import timedelta

from django import forms
from django.utils import timezone
from django.utils.text import format_lazy
from django.utils.translation import gettext_lazy as _

from games.models import (ARENA_MAX_DAYS_AHEAD, ARENA_MAX_MINUTES, ARENA_MIN_MINUTES,
                          MAX_TURN_SECONDS, MIN_TURN_SECONDS, Fish)

TABLE_CHOICES = [("2", "2"), ("3", "3"), ("4", "4"), ("pairs", _("pairs (2 against 2)"))]


class ArenaForm(forms.Form):
    name = forms.CharField(label=_("Name"), max_length=80)
    start_now = forms.BooleanField(label=_("Start now"), required=False, initial=True)
    starts_at = forms.DateTimeField(
        label=_("Or start at"), required=False,
        help_text=format_lazy(_("Up to {days} days ahead."), days=ARENA_MAX_DAYS_AHEAD),
        widget=forms.DateTimeInput(attrs={"type": "datetime-local"}))
    minutes = forms.IntegerField(
        label=_("Duration, minutes"), min_value=ARENA_MIN_MINUTES, max_value=ARENA_MAX_MINUTES,
        initial=30, widget=forms.NumberInput(attrs={"inputmode": "numeric"}),
        help_text=format_lazy(_("From {low} to {high}."), low=ARENA_MIN_MINUTES,
                              high=ARENA_MAX_MINUTES))
    table = forms.ChoiceField(label=_("Players at a table"), choices=TABLE_CHOICES,
                              initial="3", widget=forms.RadioSelect)
    fish = forms.ChoiceField(label=_("Fish"), choices=Fish.choices, initial=Fish.ALL,
                             widget=forms.RadioSelect)
    turn_seconds = forms.IntegerField(label=_("Seconds per turn"), min_value=MIN_TURN_SECONDS,
                                      max_value=MAX_TURN_SECONDS, initial=20,
                                      widget=forms.NumberInput(attrs={"inputmode": "numeric"}))
    rated = forms.BooleanField(label=_("Rated"), required=False, initial=True)
    private = forms.BooleanField(label=_("Private"), required=False,
                                 help_text=_("Not listed: reached by its link only."))

    def clean(self):
        data = super().clean()
        now = timezone.now()
        if data.get("start_now") or not data.get("starts_at"):
            data["starts_at"] = now
        elif data["starts_at"] < now - timedelta(minutes=1):
            self.add_error("starts_at", _("That time has passed."))
        elif data["starts_at"] > now + timedelta(days=ARENA_MAX_DAYS_AHEAD):
            self.add_error("starts_at", format_lazy(_("At most {days} days ahead."),
                                                    days=ARENA_MAX_DAYS_AHEAD))
        return data

    def settings(self) -> dict:
        """The Arena fields of the cleaned form."""
        data = self.cleaned_data
        table = data["table"]
        starts = data["starts_at"]
        return {"name": data["name"], "starts_at": starts,
                "ends_at": starts + timedelta(minutes=data["minutes"]),
                "seats_count": 4 if table == "pairs" else int(table),
                "pairs": table == "pairs", "fish": data["fish"],
                "turn_seconds": data["turn_seconds"], "rated": data["rated"],
                "private": data["private"]}
