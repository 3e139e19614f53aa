"""The lobby's forms: a new game request, and a table with bots.

They check what a person typed and give readable errors next to the field; the rules of
who may sit where are games.play.service's to enforce (it refuses with PlayError).
"""

from django import forms
from django.core.exceptions import ValidationError
from django.utils.text import format_lazy
from django.utils.translation import gettext_lazy as _

from games.models import (MAX_SEATS, MAX_TURN_SECONDS, MIN_SEATS, MIN_TURN_SECONDS, BotLevel,
                          Fish, Game)
from games import rules
from games.play import seeds
from games.rules import fair

PLAYER_CHOICES = [(n, str(n)) for n in range(MIN_SEATS, MAX_SEATS + 1)]
DEFAULT_TURN_SECONDS = 30


def _players_field():
    return forms.TypedChoiceField(label=_("Players"), choices=PLAYER_CHOICES, coerce=int,
                                  initial=MAX_SEATS, widget=forms.RadioSelect)


def _game_field():
    # Not required: a post that names no game asks for Kozel, as before there was a choice.
    return forms.ChoiceField(label=_("The game"), choices=Game.choices, initial=Game.KOZEL,
                             required=False, widget=forms.RadioSelect,
                             help_text=_("Sea goat: the round's winner writes down what the "
                                         "others hold; 125 wins. Never rated."))


def _fish_field():
    return forms.ChoiceField(label=_("Fish"), choices=Fish.choices, initial=Fish.ALL,
                             widget=forms.RadioSelect,
                             help_text=_("How a round that ends in fish is scored."))


def _turn_seconds_field():
    return forms.IntegerField(
        label=_("Seconds per turn"), min_value=MIN_TURN_SECONDS, max_value=MAX_TURN_SECONDS,
        initial=DEFAULT_TURN_SECONDS,
        help_text=format_lazy(_("From {low} to {high}. Running out of time ends the game."),
                              low=MIN_TURN_SECONDS, high=MAX_TURN_SECONDS),
        widget=forms.NumberInput(attrs={"inputmode": "numeric"}),
    )


def _pairs_field():
    return forms.BooleanField(
        label=_("Pairs (2 against 2)"), required=False, initial=False,
        help_text=_("Four players only: partners sit opposite each other and score as one."))


class _OneVariant:
    """The choices must make a variant the rules know (games/rules/variant.py).  The fish
    rule is Kozel's alone: another game ignores it; with the fields valid, only pairs at a
    table other than four can fail."""

    def clean(self):
        data = super().clean()
        if "game" in data and not data["game"]:
            data["game"] = Game.KOZEL
        if data.get("game") in rules.GAMES and not rules.GAMES[data["game"]].fish_rule:
            # Not asked of this game (the form hides it): whatever came, the table's
            # column keeps its default.
            self.errors.pop("fish", None)
            data["fish"] = Fish.ALL
        if {"players", "fish", "game"} <= data.keys():
            try:
                variant_of(data)
            except rules.InvalidState:
                self.add_error("pairs", _("Pairs (2 against 2) need a table of four."))
        return data


def variant_of(data: dict) -> rules.Variant:
    """The variant a form's cleaned data chooses: its game, and the fish rule where the
    game has one."""
    game = rules.GAMES[data["game"]]
    return rules.Variant(data["players"], data["fish"] if game.fish_rule else None,
                         bool(data.get("pairs")), game.name)


def _check_client_seed(value):
    if value and not fair.valid_client_seed(value):
        raise ValidationError(seeds.invalid_client_seed_message(), code="client_seed")


def _client_seed_field():
    # Empty without JavaScript (static/js/fair.js fills it): the server then makes one.
    return forms.CharField(
        label=_("Your client seed"), required=False, max_length=fair.MAX_CLIENT_SEED,
        validators=[_check_client_seed],
        widget=forms.TextInput(attrs={"data-client-seed": "", "autocomplete": "off",
                                      "spellcheck": "false", "autocapitalize": "off"}),
    )


def _seed_field():
    # The token of the server seed drawn for this form when it was shown, whose
    # commitment the form shows (games/lobby/formseeds.py); the view takes it.
    return forms.CharField(required=False, max_length=64, widget=forms.HiddenInput)


class RequestForm(_OneVariant, forms.Form):
    """A game request ("заявка"): the table's size and terms."""

    game = _game_field()
    players = _players_field()
    fish = _fish_field()
    pairs = _pairs_field()
    turn_seconds = _turn_seconds_field()
    # An unticked checkbox sends nothing: required=False makes that mean "off".
    rated = forms.BooleanField(label=_("Rated game"), required=False, initial=True)
    private = forms.BooleanField(
        label=_("Private table"), required=False,
        help_text=_("Not listed in the lobby: you get an invitation link to send."),
    )
    client_seed = _client_seed_field()
    seed = _seed_field()


class BotsForm(_OneVariant, forms.Form):
    """A table with the person in seat 0 and bots in the others (never rated)."""

    game = _game_field()
    players = _players_field()
    fish = _fish_field()
    pairs = _pairs_field()
    turn_seconds = _turn_seconds_field()
    # Not required: a post that names no level asks for the club player, the one bot
    # there was before levels.
    level = forms.ChoiceField(label=_("Bots' level"), choices=BotLevel.choices,
                              initial=BotLevel.HEURISTIC, required=False,
                              widget=forms.RadioSelect,
                              help_text=_("A master searches the possible hands before "
                                          "each move."))
    client_seed = _client_seed_field()
    seed = _seed_field()

    def clean_level(self):
        return self.cleaned_data.get("level") or BotLevel.HEURISTIC

    def __init__(self, *args, **kwargs):
        # Both forms share field names on one page: distinct ids keep the labels right.
        kwargs.setdefault("auto_id", "bots_%s")
        super().__init__(*args, **kwargs)
