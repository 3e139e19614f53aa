"""games.play.workers: the pool's processes run below the servers' priority, and end
with the process that started them, even one killed outright."""

import os
import subprocess
import sys
import time
from pathlib import Path

from games.play import workers

ROOT = Path(__file__).resolve().parents[3]

STARTER = """
import os, sys, time
import django
django.setup()
from games.play import workers
workers.start(1)
print(workers.submit(os.getpid).result(), workers.submit(os.getpriority, os.PRIO_PROCESS, 0).result(), flush=True)
time.sleep(120)
"""


def ended(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/status").read_text()
    except FileNotFoundError:
        return True
    return "\nState:\tZ" in state  # a zombie nobody has reaped yet: it has ended


def test_the_workers_end_with_a_starter_killed_outright():
    env = dict(os.environ, DJANGO_SETTINGS_MODULE="kozel_site.settings")
    starter = subprocess.Popen([sys.executable, "-c", STARTER], cwd=ROOT, env=env,
                               stdout=subprocess.PIPE, text=True)
    try:
        worker, niceness = map(int, starter.stdout.readline().split())
        assert worker != starter.pid and not ended(worker)
        assert niceness >= workers.NICE
    finally:
        starter.kill()
        starter.wait()
    deadline = time.monotonic() + 10 * workers.PARENT_LOOK_EVERY
    while not ended(worker) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert ended(worker), "the worker outlived the process that started it"
