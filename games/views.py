from django.shortcuts import render


def lobby(request):
    """The home page; the lobby of open tables takes its place with the play issue."""
    return render(request, "games/lobby.html")


def rules(request):
    """The rules for players (RULES.md), in the page's language."""
    return render(request, "games/rules.html")
