from django.shortcuts import render


def rules(request):
    """The rules for players (RULES.md), in the page's language."""
    return render(request, "games/rules.html")


def fair_deals(request):
    """How a game's deals follow from its seeds (RECORD.md, kozel-fair/1), for players who
    want to check them, in the page's language."""
    return render(request, "games/fair.html")
