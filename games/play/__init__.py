"""Play: the one way a running game changes (service), the only code that writes a
match (store), the clock and the bots."""
