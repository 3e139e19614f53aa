from django.shortcuts import render


def rules(request):
    """The rules for players (RULES.md), in the page's language."""
    return render(request, "games/rules.html")
