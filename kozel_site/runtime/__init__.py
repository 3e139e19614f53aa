"""Every patch of a third-party library, and the hook on SQLite connections: layers
(channels' layers), sqlite (a Unicode lower())."""
