"""What the site hooks into its libraries: each module here names the library and why.
sqlite: a Unicode-aware lower() on every SQLite connection."""
