"""What the site hooks into its libraries: each module here names the library and why.

daphne: a coroutine started with the server, on its loop (the embedded setup's clock).
interpreter: a server process's interpreter lock switch interval and garbage collector.
memory_layer: channels' in-memory layer, sweeping for expired messages once a second.
redis_layer: which Redis the channel layer uses, and that server's run id.
serving: what a daphne process tunes before it serves (interpreter, twisted_write).
sqlite: a Unicode-aware lower() on every SQLite connection.
twisted_write: daphne's TCP connections write a frame at once, not on the loop's next turn."""
