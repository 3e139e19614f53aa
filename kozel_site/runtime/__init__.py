"""What the site hooks into its libraries: each module here names the library and why.

daphne: a coroutine started with the server, on its loop (the embedded setup's clock).
memory_layer: channels' in-memory layer, sweeping for expired messages once a second.
redis_layer: which Redis the channel layer uses, and that server's run id.
sqlite: a Unicode-aware lower() on every SQLite connection."""
