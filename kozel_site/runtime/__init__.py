"""Every patch of a third-party library, and the hook on SQLite connections: sendnow
(Twisted), socketcycles (daphne), layers (channels' layers), sqlite (a Unicode lower())."""
