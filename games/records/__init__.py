"""Records: a game's log as its record (RECORD.md), the pages of games that are over, and
the replay viewer."""
