"""The site as bench/load.py serves it with ``--without``: the server process's changes
(kozel_site/runtime/serving.py ``PARTS``) named in ``KOZEL_BENCH_WITHOUT`` left out, so
that a run measures what each buys.  The site itself never loads this module."""

import os

from kozel_site.runtime import serving

_without = [name.strip() for name in os.environ.get("KOZEL_BENCH_WITHOUT", "").split(",")
            if name.strip()]
_unknown = sorted(set(_without) - set(serving.PARTS))
if _unknown:
    raise SystemExit(f"--without: unknown {', '.join(_unknown)} (known: {', '.join(serving.PARTS)})")
for _name in _without:
    del serving.PARTS[_name]

from bench.echo import application  # noqa: E402,F401  (loads the site, tuned as left)
