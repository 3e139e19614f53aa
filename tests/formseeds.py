"""Posting a lobby form as a browser does: the page is loaded first, and the form sends
the token of the server seed drawn for it when shown (games/lobby/formseeds.py), whose
commitment the page showed beside the client seed (RECORD.md, kozel-fair/1)."""

import re

FORM_IDS = {"/games/new/": "id_seed", "/games/bots/": "bots_seed"}


def form_token(client, url: str) -> str | None:
    """The seed token of the lobby's form that posts to ``url``, as the page shows it now
    (None for a visitor, who gets no forms)."""
    page = client.get("/").content.decode()
    found = re.search(r'<input type="hidden" name="seed" value="([^"]*)" id="%s"'
                      % FORM_IDS[url], page)
    return found.group(1) if found else None


def post_form(client, url: str, data=None, **kwargs):
    """``client.post(url, data)`` with the seed token of a freshly loaded lobby page."""
    data = dict(data or {})
    token = form_token(client, url)
    if token is not None:
        data.setdefault("seed", token)
    return client.post(url, data, **kwargs)
