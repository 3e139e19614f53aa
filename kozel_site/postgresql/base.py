"""Django's PostgreSQL backend, with a health check that costs no round trip when the
connection is plainly alive.

With ``CONN_MAX_AGE`` a connection outlives a database call, and Django checks it with a
``SELECT 1`` before it is used again (``conn_health_checks``): channels resets that check
around every ``database_sync_to_async`` call, so every move and every room's load on
PostgreSQL began with a round trip of its own (docs/performance.md, seventh round).

A connection the server has closed -- PostgreSQL restarted, the backend terminated, a
proxy or the network cut it -- has something to read on its socket: the server's last
message or the end of the stream.  Between two of our calls, with no query under way, an
alive connection has nothing to read.  So a connection whose socket is quiet, known to
be idle and in good status is taken as usable without asking; anything else gets
Django's own ``SELECT 1``, as before.  (A connection that went silent without a word,
such as a cable pulled, fooled the ``SELECT 1`` too: it hangs until TCP gives up.)
"""

import select

from django.db.backends.postgresql import base
from psycopg import pq

Database = base.Database


class DatabaseWrapper(base.DatabaseWrapper):
    def close_if_health_check_failed(self):
        if (self.connection is not None and self.health_check_enabled
                and not self.health_check_done and not self.pool and self._plainly_alive()):
            self.health_check_done = True
            return
        super().close_if_health_check_failed()

    def _plainly_alive(self) -> bool:
        pgconn = self.connection.pgconn
        try:
            if pgconn.status != pq.ConnStatus.OK \
                    or pgconn.transaction_status != pq.TransactionStatus.IDLE:
                return False
            poll = select.poll()
            poll.register(pgconn.socket, select.POLLIN | select.POLLPRI)
            return not poll.poll(0)  # nothing to read: no goodbye, no end of stream
        except Exception:  # a closed or broken connection: let Django's check decide
            return False
