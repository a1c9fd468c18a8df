"""Stops the test session's PostgreSQL server if the session dies without stopping it.

Usage: ``python postgres_watchdog.py SESSION_PID HOME``. The server's data directory is
``HOME/data``. While the session process lives and the data directory exists, it waits;
when the session is gone (killed by a timeout, say) with the server still there, it stops
the server (a fast shutdown, SIGINT to the postmaster) and removes ``HOME``. A session that
ends normally stops its server itself (``conftest.postgres_server``) and the watchdog
simply exits.
"""

from __future__ import annotations

import os
import shutil
import signal
import sys
import time
from pathlib import Path

import psutil  # a dependency of pgserver

POLL = 1.0
"""Seconds between two looks at the session."""


def main(session: int, home: Path) -> None:
    data = home / "data"
    while psutil.pid_exists(session) and data.exists():
        time.sleep(POLL)
    if not data.exists():
        return
    pidfile = data / "postmaster.pid"
    if pidfile.exists():
        postmaster = int(pidfile.read_text().split()[0])
        if psutil.pid_exists(postmaster):
            os.kill(postmaster, signal.SIGINT)
            psutil.wait_procs([psutil.Process(postmaster)], timeout=30)
    shutil.rmtree(home, ignore_errors=True)


if __name__ == "__main__":
    main(int(sys.argv[1]), Path(sys.argv[2]))
