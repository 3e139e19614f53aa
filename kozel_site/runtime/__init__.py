"""What the site hooks into its libraries: each module here names the library and why.

daphne: a coroutine started with the server, on its loop (the embedded setup's clock);
  what a send on a closing WebSocket raises.
interpreter: a server process's interpreter lock switch interval and garbage collector.
memory_layer: channels' in-memory layer, sweeping for expired messages once a second.
redis_cache: Django's Redis cache with one client (one set of connections) per process.
serving: what a daphne process tunes before it serves (interpreter, twisted_write,
  socket_cycles).
sqlite: a Unicode-aware lower() on every SQLite connection.
socket_cycles: a closed daphne WebSocket freed as it closes, not left in cycles.
twisted_write: daphne's TCP connections write a frame at once, not on the loop's next turn.
axes_wording: django-axes' admin titles and status column in the active language.

A module that patches a library's private parts checks, with ``require_version``, that
the installed version is the one it was written for, and refuses to load otherwise."""


def require_version(patch: str, library: str, installed: str, written_for: str,
                    look_at: str) -> None:
    """Fail loudly unless ``installed`` starts with ``written_for`` (e.g. "26.")."""
    if not installed.startswith(written_for):
        raise ImportError(f"kozel_site.runtime.{patch} was written for {library} "
                          f"{written_for}x, not {installed}: check {look_at}")
