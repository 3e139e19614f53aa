"""What a seat, or a spectator, may see of a game: the only data that leaves the server.

A view holds the seat's own hand and legal actions, every seat's tile count, the
bazaar's size, the chain, the scores, the remembered points, whose turn it is and the
bank; in sea goat also who is writing, who leads for a hundred, and the winners.  It never holds another seat's tile, nor a tile of the bazaar or its order.  Once a
round is over its summary shows what was left in every hand (RULES.md 7.1 scores them
openly); the bazaar stays hidden even then.
"""

from __future__ import annotations

from .engine import legal_actions
from .state import PLAY, GameState
from .tiles import names_of

SPECTATOR = None


def view_for(state: GameState, seat: int | None) -> dict:
    """The view of ``seat`` (0..n-1), or the spectator view for ``None``."""
    own = seat_view(state, seat) if seat is not None else {"hand": None, "legal": []}
    view = {
        "seat": seat,
        "variant": state.variant.name,
        "seats": state.seats,
        "fish": state.fish,
        "pairs": state.pairs,  # partners are seats 0 and 2, 1 and 3 (RULES.md 11)
        "phase": state.phase,
        "round": state.round,
        "hand": own["hand"],
        "hand_counts": [h.bit_count() for h in state.hands],
        "bazaar": len(state.bazaar),
        "chain": [list(pair) for pair in state.chain],
        "ends": [state.left, state.right] if state.chain else None,
        "turn": state.turn if state.phase == PLAY else None,
        "legal": own["legal"],
        "scores": list(state.scores),
        "remembered": list(state.remembered),
        "opened": list(state.opened),
        "bank": state.bank,
        # Shown between rounds and at the end; during play it would name tiles that were
        # reshuffled into the new deal, so it is left out then.
        "last_round": state.last_round if state.phase != PLAY else None,
        "goats": list(state.goats),
        "interrupted_by": state.interrupted_by,
        "interrupt_reason": state.interrupt_reason,
        # The round's actions so far, as record moves (a draw never names its tile).
        "moves": [action.to_json() for action in state.moves],
    }
    if state.board.own_rules is not None:  # what only that game has: sea goat's writing
        view.update(state.board.own_rules.public(state))
    return view


def seat_view(state: GameState, seat: int) -> dict:
    """What only ``seat`` sees: its hand, and its legal actions on its turn.  The rest of
    its view is the spectator's (a room that shows every seat works that out once)."""
    if type(seat) is not int or not 0 <= seat < state.seats:
        raise ValueError("no such seat at this table")
    mine = state.phase == PLAY and state.turn == seat
    return {"hand": names_of(state.hands[seat]),
            "legal": [a.to_json() for a in legal_actions(state)] if mine else []}


def spectator_view(state: GameState) -> dict:
    return view_for(state, SPECTATOR)
