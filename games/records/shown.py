"""The analysis of a game (games/records/analysis.py) as its pages show it: the game's
page (a summary per player, the costly moves) and the replay viewer (at a move, every
choice its player had, the better one first)."""

from __future__ import annotations

from django.utils.translation import gettext as _

from games.bots.analysis import INACCURACY, MISTAKE
from games.models import Analysis, AnalysisStatus, Match, MoveKind

MARKS = {MISTAKE: "mistake", INACCURACY: "inaccuracy"}


def mark_word(mark: str | None) -> str:
    return {MISTAKE: _("mistake"), INACCURACY: _("inaccuracy")}.get(mark, "")


def move_words(move: dict) -> str:
    """A play as the page says it: "6-6", "6-6 on the left"."""
    end = move.get("end")
    if end == "left":
        return _("%(tile)s on the left") % {"tile": move["play"]}
    if end == "right":
        return _("%(tile)s on the right") % {"tile": move["play"]}
    return move["play"]


def steps_of(match: Match) -> dict[tuple[int, int], int]:
    """(round, the move's place in its round) -> its number in the move log (the replay
    viewer's step that shows it)."""
    steps, round_number, index = {}, 0, 0
    for number, kind in match.moves.order_by("number").values_list("number", "kind"):
        if kind == MoveKind.DEAL:
            round_number, index = round_number + 1, 0
        elif kind in (MoveKind.PLAY, MoveKind.DRAW, MoveKind.KNOCK):
            steps[round_number, index] = number
            index += 1
    return steps


def decision_shown(decision: dict, names: dict, step: int | None) -> dict:
    return {
        "round": decision["round"], "move": decision["index"] + 1, "step": step,
        "seat": decision["seat"], "name": names.get(decision["seat"], "?"),
        "played": move_words(decision["played"]), "best": move_words(decision["best"]),
        "loss": decision["loss"], "mark": decision["mark"], "mark_word": mark_word(decision["mark"]),
        "choices": [{"words": move_words(c["move"]), "value": c["value"],
                     "played": c["move"] == decision["played"],
                     "best": c["move"] == decision["best"]} for c in decision["choices"]],
    }


def for_game_page(match: Match, analysis: Analysis | None, names: dict) -> dict:
    """Template context of the game page's analysis part."""
    context = {"match": match, "analysis": analysis,
               "polling": analysis is not None and analysis.status in
               (AnalysisStatus.QUEUED, AnalysisStatus.RUNNING)}
    if analysis is not None and analysis.status == AnalysisStatus.DONE:
        result = analysis.result
        steps = steps_of(match)
        context["players"] = [dict(p, name=names.get(p["seat"], "?")) for p in result["players"]]
        context["marked"] = [decision_shown(d, names, steps.get((d["round"], d["index"])))
                             for d in result["decisions"] if d["mark"]]
    return context


def at_step(match: Match, analysis: Analysis | None, names: dict, number: int) -> dict | None:
    """The judged decision made by the log's move ``number``, if there is one."""
    if analysis is None or analysis.status != AnalysisStatus.DONE:
        return None
    where = {step: key for key, step in steps_of(match).items()}.get(number)
    if where is None:
        return None
    for decision in analysis.result["decisions"]:
        if (decision["round"], decision["index"]) == where:
            return decision_shown(decision, names, number)
    return None
