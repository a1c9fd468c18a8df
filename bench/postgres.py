"""A throwaway PostgreSQL server for the benches, started with ``pgserver``.

``pgserver`` (a test dependency, ``pip install -e '.[test]'``) ships the server's binaries;
as root it runs the server as its own ``pgserver`` system user. The server is configured as
the SQLite store is (WAL, ``synchronous = NORMAL``): a commit does not wait for its WAL to
reach the disk (``synchronous_commit = off``), checkpoints still do. The server's processes
are not the bench's: :func:`cpu_seconds` reads their CPU time. Each run's empty database
comes from the tests' ``databases.fresh_database``.
"""

from __future__ import annotations

import shutil
import tempfile
import warnings
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any


@contextmanager
def server() -> Iterator[Any]:
    """Start a server in a fresh temporary directory; stop it and delete its data after.

    Yields
    ------
    pgserver.PostgresServer
        The running server (``get_uri()`` gives its ``postgresql://`` URL).

    Raises
    ------
    SystemExit
        If ``pgserver`` is not installed.
    """
    # platformdirs says so each time pgserver asks for a runtime directory (/tmp is used)
    warnings.filterwarnings("ignore", message="XDG_RUNTIME_DIR is not set")
    try:
        import pgserver
    except ImportError as error:
        raise SystemExit("--database pgserver needs pgserver: pip install -e '.[test]'") from error
    home = Path(tempfile.mkdtemp(prefix="parlour-bench-postgres-"))
    running = pgserver.get_server(home / "data", cleanup_mode="delete")
    try:
        running.psql("ALTER SYSTEM SET synchronous_commit = off;")
        running.psql("SELECT pg_reload_conf();")
        yield running
    finally:
        running.cleanup()
        shutil.rmtree(home, ignore_errors=True)


def cpu_seconds(running: Any) -> float:
    """CPU seconds (user and system) the server's processes have used so far: the
    postmaster, its live children (a backend per connection, the background workers) and
    the children it has reaped; counted in the kernel's clock ticks (10 ms)."""
    import psutil  # a dependency of pgserver, as the server is

    postmaster = psutil.Process(running.get_pid())
    used = postmaster.cpu_times()
    seconds = used.user + used.system + used.children_user + used.children_system
    for child in postmaster.children(recursive=True):
        try:
            times = child.cpu_times()
        except psutil.NoSuchProcess:
            continue
        seconds += times.user + times.system
    return seconds
