"""Arena tournaments (RULES.md 12): joining, pausing, seating, standings, pages."""
