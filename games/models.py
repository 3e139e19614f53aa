"""Matches, who sits at them, the move log and the per-round scores.

The move log is the game record and the source of truth; `Match.state` is a snapshot of
the rules service's state after the last move, kept for speed (DESIGN.md).
"""

import secrets

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils import timezone
from django.utils.functional import cached_property, lazy
from django.utils.translation import gettext, gettext_lazy as _

from accounts.moderators import is_moderator
from games import rules
from kozel_site.appendonly import AppendOnlyModel

MIN_SEATS, MAX_SEATS = 2, 4
MIN_TURN_SECONDS, MAX_TURN_SECONDS = 10, 120


def new_invite_token():
    return secrets.token_urlsafe(16)


class Fish(models.TextChoices):
    """How a round that ends in fish is scored (RULES.md 7.4)."""

    ALL = "all", _("fish for all")
    ONE = "one", _("fish for one")


class BotLevel(models.TextChoices):
    """How well a bot plays (games/bots/levels.py, weakest first)."""

    BEGINNER = "beginner", _("beginner")
    HEURISTIC = "heuristic", _("club player")
    MASTER = "master", _("master")


# The levels' words untranslated (BotLevel's labels' msgids), for what translates them
# only when it renders: the room's table, worked out once for every language.
BOT_LEVEL_WORDS = {"beginner": "beginner", "heuristic": "club player", "master": "master"}


class Game(models.TextChoices):
    """Which game a table plays (games/rules/variant.py)."""

    KOZEL = "kozel", _("Kozel")
    SEA_GOAT = "sea-goat", _("Sea goat")


class MatchStatus(models.TextChoices):
    WAITING = "waiting", _("waiting for players")
    PLAYING = "playing", _("playing")
    FINISHED = "finished", _("finished")
    INTERRUPTED = "interrupted", _("interrupted")
    ABORTED = "aborted", _("aborted")


class UnratedWhy(models.TextChoices):
    """Why a table asked for as rated was played unrated."""

    SAME_PEOPLE = "same-people", _("the same people again")


# A running game can still change (games/play); every other one is over.
RUNNING = (MatchStatus.WAITING, MatchStatus.PLAYING)
OVER = (MatchStatus.FINISHED, MatchStatus.INTERRUPTED, MatchStatus.ABORTED)


def match_number(text: str) -> int | None:
    """The game number a person typed ("209", "#209"), or None: ASCII digits only, and
    short enough for the id column ("²" passes ``str.isdigit`` but not ``int``)."""
    number = text.strip().lstrip("#")
    if number.isascii() and number.isdigit() and len(number) <= 12:
        return int(number)
    return None


class Match(models.Model):
    # The game and its options make the table's variant (``variant``), what the rules,
    # the room and the ratings ask about the kind of game.
    game = models.CharField(_("game"), max_length=16, choices=Game.choices, default=Game.KOZEL)
    seats_count = models.PositiveSmallIntegerField(_("number of seats"), default=MAX_SEATS)
    fish = models.CharField(_("fish"), max_length=3, choices=Fish.choices, default=Fish.ALL)
    # Two pairs, seats 0 and 2 against 1 and 3 (RULES.md 11); only a table of four.
    pairs = models.BooleanField(_("pairs (2 against 2)"), default=False)
    turn_seconds = models.PositiveSmallIntegerField(_("seconds per turn"), default=30)
    rated = models.BooleanField(_("rated"), default=True)
    # Why a table asked for as rated is played unrated (RULES.md 10), decided as it starts.
    unrated_why = models.CharField(_("why unrated"), max_length=16, blank=True, default="",
                                   choices=UnratedWhy.choices)
    private = models.BooleanField(_("private"), default=False)
    # The secret part of a private table's invitation link.
    invite_token = models.CharField(_("invitation token"), max_length=32, unique=True, default=new_invite_token, editable=False)
    status = models.CharField(
        _("status"), max_length=11, choices=MatchStatus.choices, default=MatchStatus.WAITING
    )
    # The rules service's state, as it serializes it; null until the first deal.
    state = models.JSONField(_("game state"), null=True, blank=True)
    # Bumped with every change of `state`: clients send the version they acted on.
    version = models.PositiveIntegerField(_("state version"), default=0)
    # When the player to move runs out of time; null while nobody is on the clock.
    deadline = models.DateTimeField(_("turn deadline"), null=True, blank=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="created_matches",
        verbose_name=_("created by"),
    )
    created_at = models.DateTimeField(_("created"), default=timezone.now)
    started_at = models.DateTimeField(_("started"), null=True, blank=True)
    ended_at = models.DateTimeField(_("ended"), null=True, blank=True)
    # How it ended: {"goats": [seat...], "interrupted_by": seat or null, "reason": str,
    # "rating_points": [points per seat] or null}.
    result = models.JSONField(_("result"), null=True, blank=True)
    # The verifiable deal (RECORD.md, kozel-fair/1): the secret seed every round is dealt
    # from, drawn with the request, and its SHA-256, public from then on.  The seed is
    # shown to nobody until the game is over (games.records.fair).  A match without one
    # (made before seeds existed) deals from the system's randomness.
    server_seed = models.BinaryField(_("server seed"), null=True, blank=True, editable=False)
    commitment = models.CharField(_("commitment"), max_length=64, blank=True, default="",
                                  editable=False)

    class Meta:
        verbose_name = _("match")
        verbose_name_plural = _("matches")
        constraints = [
            models.CheckConstraint(
                condition=Q(seats_count__gte=MIN_SEATS, seats_count__lte=MAX_SEATS),
                name="match_seats_2_to_4",
            ),
            models.CheckConstraint(
                condition=Q(turn_seconds__gte=MIN_TURN_SECONDS, turn_seconds__lte=MAX_TURN_SECONDS),
                name="match_turn_seconds_10_to_120",
            ),
            models.CheckConstraint(condition=Q(fish__in=Fish.values), name="match_fish_valid"),
            models.CheckConstraint(condition=Q(pairs=False) | Q(seats_count=MAX_SEATS),
                                   name="match_pairs_need_4_seats"),
            models.CheckConstraint(condition=Q(status__in=MatchStatus.values), name="match_status_valid"),
            models.CheckConstraint(condition=Q(game__in=Game.values), name="match_game_valid"),
            # Only Kozel has a rating ladder (RULES.md 13: sea goat games are unrated).
            models.CheckConstraint(condition=Q(game=Game.KOZEL) | Q(rated=False),
                                   name="match_only_kozel_rated"),
        ]
        indexes = [
            # The clock's sweep: running matches whose deadline has passed.  The status
            # is a column, not part of the condition: SQLite chooses a plan before the
            # query's parameters are bound, so it cannot tell that its "status = ?" is
            # "playing" and would not use an index of playing matches only.  Only a
            # running game has a deadline, so the index still holds only those.
            models.Index(
                fields=["status", "deadline"],
                condition=Q(deadline__isnull=False),
                name="match_due_deadline_idx",
            ),
            # The lobby: open and running tables, newest first.
            models.Index(fields=["status", "-created_at"], name="match_status_created_idx"),
        ]

    def __str__(self):
        return _("Match #%(id)s") % {"id": self.pk}

    def hidden_from(self, user, seat: int | None) -> bool:
        """A private table shows itself (its room, its page) to its players and to
        moderators only; ``seat`` is the user's seat here, if any.  (It may read the
        user's permissions from the database.)"""
        return self.private and seat is None and not is_moderator(user)

    @property
    def variant(self) -> rules.Variant:
        """What kind of game this table plays (games/rules/variant.py)."""
        return rules.Variant(self.seats_count, self.fish if self.game == Game.KOZEL else None,
                             self.pairs, self.game)

    @property
    def is_over(self) -> bool:
        return self.status in OVER

    @cached_property
    def client_seeds(self) -> list[str]:
        """Every seat's client seed, in seat order (fixed once the table is full)."""
        return list(self.seats.order_by("number").values_list("client_seed", flat=True))

    @cached_property
    def _seating(self) -> list[tuple[int, int | None, str]]:
        # One query for both of the clock's questions about a bot's turn.
        return list(self.seats.values_list("number", "user_id", "bot_level"))

    @cached_property
    def seat_users(self) -> dict[int, int | None]:
        """Seat number -> the user sitting there (None for a bot)."""
        return {number: user for number, user, _level in self._seating}

    @cached_property
    def bot_levels(self) -> dict[int, str]:
        """Seat number -> its bot's level (games/bots/levels.py), for the bots' seats."""
        return {number: level for number, user, level in self._seating if user is None}


# The names the lobby gives bots (games/lobby/service.py), as Seat.bot_name keeps them:
# shown in the viewer's language, each saying that it is a bot (so no "bot" mark beside it).
BOT_NAMES = {
    "Бот Гоша": _("Bot Gosha"),
    "Бот Петрович": _("Bot Petrovich"),
    "Бот Люба": _("Bot Lyuba"),
    "Бот Семёныч": _("Bot Semyonych"),
}


def shown_bot_name(kept: str):
    """A bot's name as kept, in the active language when shown (lazy: str() it to join or
    encode it); a name the site does not give stays as it is."""
    return BOT_NAMES.get(kept, kept)


class Seat(models.Model):
    """Who sits at seat `number` of a match: a registered user, or a bot."""

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="seats",
                              verbose_name=_("match"))
    number = models.PositiveSmallIntegerField(_("seat"))
    # PROTECT: a person who has played is deactivated, never deleted, so records stay whole.
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="seats",
        verbose_name=_("user"),
    )
    bot_name = models.CharField(_("bot"), max_length=40, blank=True, default="")
    # A bot's level (empty for a person, and for bots seated before levels: they play as
    # a club player, the one bot there was).
    bot_level = models.CharField(_("bot's level"), max_length=16, blank=True, default="",
                                 choices=BotLevel.choices)
    # The seat's part of the verifiable deal (RECORD.md, kozel-fair/1): up to 64
    # printable ASCII characters, the person's choice; a bot's is its seat number.
    client_seed = models.CharField(_("client seed"), max_length=64, blank=True, default="")
    joined_at = models.DateTimeField(_("joined"), default=timezone.now)

    class Meta:
        verbose_name = _("seat")
        verbose_name_plural = _("seats")
        ordering = ["match", "number"]
        constraints = [
            models.UniqueConstraint(fields=["match", "number"], name="seat_unique_number"),
            models.UniqueConstraint(
                fields=["match", "user"], condition=Q(user__isnull=False), name="seat_one_per_player"
            ),
            models.CheckConstraint(condition=Q(number__lte=MAX_SEATS - 1), name="seat_number_0_to_3"),
            models.CheckConstraint(
                condition=(Q(user__isnull=False) & Q(bot_name=""))
                | (Q(user__isnull=True) & ~Q(bot_name="")),
                name="seat_person_xor_bot",
            ),
        ]

    @property
    def is_bot(self):
        return self.user_id is None

    @property
    def name(self):
        """What the table calls this seat: the person's login, or the bot's name with its
        level, in the viewer's language (lazy: str() it to join or encode it)."""
        if not self.is_bot:
            return self.user.username
        return _bot_shown(self.bot_name, self.bot_level)

    @property
    def plain_name(self):
        """The person's login, or the bot's name without its level, in the viewer's
        language (lazy): the room says a bot's level beside its name."""
        return shown_bot_name(self.bot_name) if self.is_bot else self.user.username

    @property
    def kept_name(self) -> str:
        """The login, or the bot's name as kept: what a game record and a notice carry."""
        return self.bot_name if self.is_bot else self.user.username

    def __str__(self):
        who = self.bot_name if self.is_bot else self.user
        return _("#%(match)s, seat %(seat)s: %(who)s") % {"match": self.match_id, "seat": self.number, "who": who}


def _with_level(name, level: str) -> str:
    return gettext("%(name)s (%(level)s)") % {"name": str(name),
                                              "level": str(BotLevel(level).label)}


_with_level_lazy = lazy(_with_level, str)


def _bot_shown(name: str, level: str):
    """A bot's name with its level, in the language active when shown."""
    if level in BotLevel.values:
        return _with_level_lazy(shown_bot_name(name), level)
    return shown_bot_name(name)



class SeatAddress(models.Model):
    """The client address a person took a seat from (creating or joining a request), for
    the moderators' look at rated games between accounts of one address
    (games/moderation/suspicious.py).  Apart from Seat, so that nothing that shows a seat
    can show its address: only the moderation pages read this model."""

    seat = models.OneToOneField(Seat, on_delete=models.CASCADE, primary_key=True,
                                related_name="address", verbose_name=_("seat"))
    address = models.GenericIPAddressField(_("client address"))
    recorded_at = models.DateTimeField(_("recorded"), default=timezone.now)

    class Meta:
        verbose_name = _("seat's client address")
        verbose_name_plural = _("seats' client addresses")
        indexes = [models.Index(fields=["address"], name="seataddress_address_idx")]

    def __str__(self):
        return f"seat {self.seat_id} address"


class RematchStatus(models.TextChoices):
    OPEN = "open", _("open")
    STARTED = "started", _("started")
    WITHDRAWN = "withdrawn", _("withdrawn")


class RematchWithdrawal(models.TextChoices):
    """Why an offer of one more game was withdrawn."""

    DECLINED = "declined", _("declined")
    AWAY = "away", _("away from the game's page")
    ELSEWHERE = "elsewhere", _("sat down at another table")
    EXPIRED = "expired", _("not answered in time")
    LEFT = "left", _("left the game")


class Rematch(models.Model):
    """One more game ("Ещё партию"), offered to the people of a game that ended: a new
    table with the same settings, everyone one seat on, which starts once all of them
    accept (games/lobby/rematch.py)."""

    game = models.OneToOneField(Match, on_delete=models.CASCADE, primary_key=True,
                                related_name="rematch", verbose_name=_("ended game"))
    # The new game: a waiting table without seats while the offer is open (its server
    # seed drawn with the offer, so that its commitment is public before anyone gives a
    # client seed); playing once everyone accepted; deleted, never dealt, if withdrawn.
    table = models.OneToOneField(Match, on_delete=models.SET_NULL, null=True, blank=True,
                                 related_name="rematch_of", verbose_name=_("new game"))
    status = models.CharField(_("status"), max_length=9, choices=RematchStatus.choices,
                              default=RematchStatus.OPEN)
    # Who has accepted: a person's user id (as text) -> {"client_seed", "address"}, the
    # seed they gave and the address they gave it from (for their seat at the start).
    # Bots accept by themselves.  Never shown: the room shows who, not what.
    accepted = models.JSONField(_("accepted"), default=dict, blank=True, editable=False)
    reason = models.CharField(_("why withdrawn"), max_length=9, blank=True, default="",
                              choices=RematchWithdrawal.choices)
    withdrawn_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL,
                                     null=True, blank=True, related_name="+",
                                     verbose_name=_("withdrawn by"))
    expires_at = models.DateTimeField(_("answer by"))
    created_at = models.DateTimeField(_("offered"), default=timezone.now)

    class Meta:
        verbose_name = _("offer of one more game")
        verbose_name_plural = _("offers of one more game")
        constraints = [
            models.CheckConstraint(condition=Q(status__in=RematchStatus.values),
                                   name="rematch_status_valid"),
        ]
        indexes = [
            # The clock's sweep: the open offers (the status a column, as for the due
            # matches above: SQLite plans before it sees the status's value).
            models.Index(fields=["status", "expires_at"], name="rematch_open_idx"),
        ]

    def __str__(self):
        return _("One more game after #%(match)s") % {"match": self.game_id}


class MoveKind(models.TextChoices):
    DEAL = "deal", _("deal")
    PLAY = "play", _("play")
    DRAW = "draw", _("draw")
    KNOCK = "knock", _("knock")
    TIMEOUT = "timeout", _("timeout")
    LEAVE = "leave", _("leave")
    ABORT = "abort", _("abort")


class Move(AppendOnlyModel):
    """One action of the move log: numbered from 1 within its match, never changed."""

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="moves",
                              verbose_name=_("match"))
    number = models.PositiveIntegerField(_("number"))
    # The acting seat; null for what no seat does (a deal).
    seat = models.PositiveSmallIntegerField(_("seat"), null=True, blank=True)
    kind = models.CharField(_("kind"), max_length=16, choices=MoveKind.choices)
    payload = models.JSONField(_("payload"), default=dict, blank=True)
    created_at = models.DateTimeField(_("time"), default=timezone.now)

    class Meta:
        verbose_name = _("move")
        verbose_name_plural = _("moves")
        ordering = ["match", "number"]
        constraints = [
            models.UniqueConstraint(fields=["match", "number"], name="move_unique_number"),
            models.CheckConstraint(condition=Q(number__gte=1), name="move_number_from_1"),
            models.CheckConstraint(condition=Q(seat__lte=MAX_SEATS - 1), name="move_seat_0_to_3"),
        ]

    def __str__(self):
        return f"#{self.match_id}.{self.number} {self.get_kind_display()}"


class RoundResult(models.TextChoices):
    OUT = "out", _("out")
    FISH = "fish", _("fish")


class RoundScore(AppendOnlyModel):
    """One seat's scoring of one ended round (RULES.md 7), written when the round ends."""

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="round_scores",
                              verbose_name=_("match"))
    round_number = models.PositiveSmallIntegerField(_("round"))
    seat = models.PositiveSmallIntegerField(_("seat"))
    points = models.PositiveIntegerField(_("round points"))
    credited = models.PositiveIntegerField(_("credited"))
    score_after = models.PositiveIntegerField(_("score after"))
    remembered_after = models.PositiveIntegerField(_("remembered after"))
    opened = models.BooleanField(_("opened"))
    # How the round ended, and who went out or placed the fish.
    result = models.CharField(_("round end"), max_length=4, choices=RoundResult.choices)
    result_seat = models.PositiveSmallIntegerField(_("out or fisherman"))
    bank_after = models.PositiveIntegerField(_("fish bank after"), default=0)
    created_at = models.DateTimeField(_("time"), default=timezone.now)

    class Meta:
        verbose_name = _("round score")
        verbose_name_plural = _("round scores")
        ordering = ["match", "round_number", "seat"]
        constraints = [
            models.UniqueConstraint(
                fields=["match", "round_number", "seat"], name="roundscore_unique_seat_round"
            ),
            models.CheckConstraint(condition=Q(round_number__gte=1), name="roundscore_round_from_1"),
            models.CheckConstraint(
                condition=Q(seat__lte=MAX_SEATS - 1, result_seat__lte=MAX_SEATS - 1),
                name="roundscore_seats_0_to_3",
            ),
            models.CheckConstraint(
                condition=Q(result__in=RoundResult.values), name="roundscore_result_valid"
            ),
        ]

    def __str__(self):
        return _("#%(match)s, round %(round)s, seat %(seat)s") % {
            "match": self.match_id, "round": self.round_number, "seat": self.seat}


class ClockBeat(models.Model):
    """When a turn clock last swept (DESIGN.md, Time): one row, written by every clock
    process on every sweep, so it holds the latest beat of any of them.  A clock that
    finds it older than KOZEL_CLOCK_OUTAGE (or missing: no clock has ever run) knows that
    no clock ran meanwhile, and gives the turns that ran out then their time again
    (RULES.md 9, the site's own downtime)."""

    beat_at = models.DateTimeField(_("last sweep"), null=True, blank=True)

    class Meta:
        verbose_name = _("clock heartbeat")
        verbose_name_plural = _("clock heartbeats")

    def __str__(self):
        return _("clock beat at %(when)s") % {"when": self.beat_at}



class ChatRoom(models.TextChoices):
    """Which of a table's two chats a line is in: its players talk apart from the people
    watching, so that a spectator cannot tell a player what the others hold."""

    PLAYERS = "players", _("players' chat")
    SPECTATORS = "spectators", _("spectators' chat")


CHAT_TEXT_MAX = 200


class ChatMessage(models.Model):
    """One line of a table's chat.  Never a move: it does not touch the match or its
    version.  A moderator's deletion hides it and keeps it for the log."""

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="chat_messages",
                              verbose_name=_("game"))
    author = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT,
                               related_name="chat_messages", verbose_name=_("author"))
    room = models.CharField(_("chat"), max_length=10, choices=ChatRoom.choices)
    text = models.CharField(_("text"), max_length=CHAT_TEXT_MAX)
    created_at = models.DateTimeField(_("time"), default=timezone.now)
    deleted_at = models.DateTimeField(_("deleted"), null=True, blank=True)

    class Meta:
        verbose_name = _("chat message")
        verbose_name_plural = _("chat messages")
        ordering = ["match", "created_at", "id"]
        indexes = [models.Index(fields=["match", "room", "created_at"], name="chat_match_room_idx")]
        constraints = [
            models.CheckConstraint(condition=Q(room__in=ChatRoom.values), name="chat_room_valid"),
        ]

    def __str__(self):
        return f"#{self.match_id} {self.author_id}: {self.text[:30]}"


class ChatReport(models.Model):
    """A person's report of a chat line, for the moderators (once per person and line)."""

    message = models.ForeignKey(ChatMessage, on_delete=models.CASCADE, related_name="reports",
                                verbose_name=_("chat message"))
    reporter = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                                 related_name="chat_reports", verbose_name=_("reporting account"))
    created_at = models.DateTimeField(_("time"), default=timezone.now)

    class Meta:
        verbose_name = _("chat report")
        verbose_name_plural = _("chat reports")
        constraints = [models.UniqueConstraint(fields=["message", "reporter"],
                                               name="chatreport_once_per_person")]


class ChatMute(models.Model):
    """``owner`` no longer sees what ``muted`` writes: a choice of the owner's account."""

    owner = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                              related_name="chat_mutes", verbose_name=_("account that hides"))
    muted = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                              related_name="+", verbose_name=_("hidden account"))
    created_at = models.DateTimeField(_("time"), default=timezone.now)

    class Meta:
        verbose_name = _("muted in chat")
        verbose_name_plural = _("muted in chat")
        constraints = [models.UniqueConstraint(fields=["owner", "muted"], name="chatmute_once")]


class ChatSilence(models.Model):
    """A moderator's mute of an account in every chat until ``until`` (the reason is in
    the moderation log)."""

    person = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                               related_name="chat_silences", verbose_name=_("account"))
    until = models.DateTimeField(_("muted until"))
    created_at = models.DateTimeField(_("time"), default=timezone.now)

    class Meta:
        verbose_name = _("chat mute by a moderator")
        verbose_name_plural = _("chat mutes by moderators")
        indexes = [models.Index(fields=["person", "-until"], name="chatsilence_person_idx")]


class FormSeed(models.Model):
    """The server seed drawn for one lobby form (a request, a bots' table) when the form
    is shown, so that its commitment is on the page before the person gives a client
    seed (RECORD.md, kozel-fair/1).  The form's post takes it by its token, once
    (games/lobby/formseeds.py); then it is the table's, and this row is gone."""

    token = models.CharField(_("token"), max_length=43, unique=True)
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                             related_name="+", verbose_name=_("user"))
    form = models.CharField(_("form"), max_length=8)
    server_seed = models.BinaryField(_("server seed"), editable=False)
    commitment = models.CharField(_("commitment"), max_length=64, editable=False)
    created_at = models.DateTimeField(_("drawn"), default=timezone.now)

    class Meta:
        verbose_name = _("seed drawn for a form")
        verbose_name_plural = _("seeds drawn for forms")
        indexes = [models.Index(fields=["created_at"], name="formseed_created_idx")]

    def __str__(self):
        return f"{self.form} {self.commitment[:12]}"


# -- arenas (RULES.md 12, games/arena/) ------------------------------------------------------

ARENA_MIN_MINUTES, ARENA_MAX_MINUTES = 20, 240
ARENA_MAX_DAYS_AHEAD = 7


class Arena(models.Model):
    """An arena tournament: its settings (every game in it has them), its time, and
    whether it was cancelled.  Its players and games are ArenaPlayer and ArenaGame; its
    standings are computed from its games' results (games/arena/standings.py)."""

    name = models.CharField(_("name"), max_length=80)
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL,
                                   null=True, blank=True, related_name="created_arenas",
                                   verbose_name=_("created by"))
    starts_at = models.DateTimeField(_("starts"))
    ends_at = models.DateTimeField(_("ends"))
    seats_count = models.PositiveSmallIntegerField(_("players at a table"), default=3)
    pairs = models.BooleanField(_("pairs (2 against 2)"), default=False)
    fish = models.CharField(_("fish"), max_length=3, choices=Fish.choices, default=Fish.ALL)
    turn_seconds = models.PositiveSmallIntegerField(_("seconds per turn"), default=20)
    rated = models.BooleanField(_("rated"), default=True)
    private = models.BooleanField(_("private"), default=False)
    invite_token = models.CharField(_("invitation token"), max_length=32, unique=True,
                                    default=new_invite_token, editable=False)
    # Bumped with every change its page shows (games/arena/groups.py): the pages' beats
    # compare it with the one they show.
    version = models.PositiveIntegerField(_("version"), default=0)
    # Set once its time is up and its last game has ended (the seating sweep sees to it).
    over_at = models.DateTimeField(_("over"), null=True, blank=True)
    # A moderator's cancellation (the reason is in the moderation log as well).
    cancelled_at = models.DateTimeField(_("cancelled"), null=True, blank=True)
    cancel_reason = models.CharField(_("why cancelled"), max_length=500, blank=True, default="")
    # The site's schedule (settings.KOZEL_ARENA_SCHEDULE): which of its slots this arena
    # is, so that any number of clocks make each slot once.
    schedule_key = models.CharField(_("schedule slot"), max_length=80, null=True, blank=True,
                                    unique=True, editable=False)
    created_at = models.DateTimeField(_("created"), default=timezone.now)

    class Meta:
        verbose_name = _("arena")
        verbose_name_plural = _("arenas")
        constraints = [
            models.CheckConstraint(condition=Q(seats_count__gte=MIN_SEATS, seats_count__lte=MAX_SEATS),
                                   name="arena_seats_2_to_4"),
            models.CheckConstraint(condition=Q(pairs=False) | Q(seats_count=MAX_SEATS),
                                   name="arena_pairs_need_4_seats"),
            models.CheckConstraint(
                condition=Q(turn_seconds__gte=MIN_TURN_SECONDS, turn_seconds__lte=MAX_TURN_SECONDS),
                name="arena_turn_seconds_10_to_120"),
            models.CheckConstraint(condition=Q(fish__in=Fish.values), name="arena_fish_valid"),
            models.CheckConstraint(condition=Q(ends_at__gt=models.F("starts_at")),
                                   name="arena_ends_after_start"),
        ]
        indexes = [models.Index(fields=["over_at", "starts_at"], name="arena_open_idx")]

    def __str__(self):
        return self.name

    @property
    def variant(self) -> rules.Variant:
        return rules.Variant(self.seats_count, self.fish, self.pairs)

    @property
    def table_size(self) -> int:
        """``k`` of RULES.md 12: the players a table seats (4 for pairs)."""
        return self.seats_count

    @property
    def minutes(self) -> int:
        return int((self.ends_at - self.starts_at).total_seconds() // 60)

    def phase(self, now=None) -> str:
        """"cancelled", "upcoming", "running", "ending" (time up, games still running)
        or "over"."""
        now = now or timezone.now()
        if self.cancelled_at is not None:
            return "cancelled"
        if self.over_at is not None:
            return "over"
        if now < self.starts_at:
            return "upcoming"
        return "running" if now < self.ends_at else "ending"


class ArenaPlayer(models.Model):
    """A person in an arena: when they joined, and whether they are paused, waiting (since
    when) or at one of its tables.  Seating takes a player with a compare-and-swap on
    ``table`` (games/arena/seating.py), so that two clocks never seat one twice."""

    arena = models.ForeignKey(Arena, on_delete=models.CASCADE, related_name="players",
                              verbose_name=_("arena"))
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT,
                             related_name="arena_entries", verbose_name=_("player"))
    joined_at = models.DateTimeField(_("joined"), default=timezone.now)
    paused = models.BooleanField(_("paused"), default=False)
    # Since when they wait to be seated; null while paused or at a table.
    waiting_since = models.DateTimeField(_("waiting since"), null=True, blank=True)
    table = models.ForeignKey(Match, on_delete=models.SET_NULL, null=True, blank=True,
                              related_name="+", verbose_name=_("at table"))

    class Meta:
        verbose_name = _("arena player")
        verbose_name_plural = _("arena players")
        ordering = ["arena", "joined_at", "id"]
        constraints = [
            models.UniqueConstraint(fields=["arena", "user"], name="arenaplayer_once"),
        ]
        indexes = [models.Index(fields=["arena", "waiting_since"], name="arenaplayer_waiting_idx")]

    def __str__(self):
        return f"{self.arena_id}: {self.user_id}"


class ArenaGame(models.Model):
    """A table an arena seated: its match (an ordinary game), and the client seeds its
    players' browsers gave after they were shown its commitment (kozel-fair/1).  The game
    starts when every seat gave one, or at ``seeds_due`` with the empty seed for the
    others (RULES.md 12)."""

    arena = models.ForeignKey(Arena, on_delete=models.CASCADE, related_name="games",
                              verbose_name=_("arena"))
    match = models.OneToOneField(Match, on_delete=models.CASCADE, related_name="arena_game",
                                 verbose_name=_("game"))
    seated_at = models.DateTimeField(_("seated"), default=timezone.now)
    seeds_due = models.DateTimeField(_("client seeds due"))
    # Seat number (as text) -> the client seed its browser gave.  Never shown.
    seeds = models.JSONField(_("client seeds given"), default=dict, blank=True, editable=False)
    # Set by the game's end (games/arena/scoring.py), in the transaction that ends it.
    ended = models.BooleanField(_("ended"), default=False)

    class Meta:
        verbose_name = _("arena game")
        verbose_name_plural = _("arena games")
        ordering = ["arena", "seated_at", "id"]
        indexes = [models.Index(fields=["arena", "ended"], name="arenagame_running_idx")]

    def __str__(self):
        return f"{self.arena_id}: #{self.match_id}"


# -- the analysis after a game (games/bots/analysis.py, games/records/analysis.py) -----------

class AnalysisStatus(models.TextChoices):
    QUEUED = "queued", _("queued")
    RUNNING = "running", _("running")
    DONE = "done", _("done")
    FAILED = "failed", _("failed")


class Analysis(models.Model):
    """The analysis of a game that is over: made once, on request, outside the server
    processes (games/records/analysis.py), and stored.  A worker claims a queued one by a
    compare-and-swap on ``status`` and beats ``heartbeat`` as it goes; a running one whose
    beat is old (its worker died, the site restarted) is queued again by the clock's
    sweep."""

    match = models.OneToOneField(Match, on_delete=models.CASCADE, related_name="analysis",
                                 verbose_name=_("game"))
    status = models.CharField(_("status"), max_length=7, choices=AnalysisStatus.choices,
                              default=AnalysisStatus.QUEUED)
    done = models.PositiveIntegerField(_("decisions judged"), default=0)
    total = models.PositiveIntegerField(_("decisions"), default=0)
    # kozel-analysis/1 (games/bots/analysis.py ``analyse``) once done.
    result = models.JSONField(_("result"), null=True, blank=True)
    error = models.CharField(_("error"), max_length=500, blank=True, default="")
    attempts = models.PositiveSmallIntegerField(_("attempts"), default=0)
    worker = models.CharField(_("worker"), max_length=100, blank=True, default="")
    heartbeat = models.DateTimeField(_("last sign of work"), null=True, blank=True)
    created_at = models.DateTimeField(_("asked for"), default=timezone.now)
    started_at = models.DateTimeField(_("started"), null=True, blank=True)
    finished_at = models.DateTimeField(_("finished"), null=True, blank=True)

    class Meta:
        verbose_name = _("analysis")
        verbose_name_plural = _("analyses")
        constraints = [
            models.CheckConstraint(condition=Q(status__in=AnalysisStatus.values),
                                   name="analysis_status_valid"),
        ]
        indexes = [models.Index(fields=["status", "created_at"], name="analysis_status_idx")]

    def __str__(self):
        return _("Analysis of #%(match)s") % {"match": self.match_id}
