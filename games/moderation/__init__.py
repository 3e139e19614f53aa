"""Moderation: what moderators do to games and people, with a reason, and its pages."""
