"""The lobby: game requests, their pages and forms, and the live list."""
