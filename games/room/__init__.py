"""The game room: its consumer, the hub (fan-out to the sockets), the cache of a match's
state per version, what a seat sees (present), the frames (html) and the pages."""
