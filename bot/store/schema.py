"""The store's schema migrations: ``bot/store/migrations/<dialect>/NNNN_name.sql``.

Each dialect (``sqlite``, ``postgres``) has the same numbered files with the same names: one
schema, written in each database's own SQL (types, triggers, how a constraint is changed).
Each file holds plain SQL statements (comments allowed). A backend applies the files whose
version is not yet recorded in its ``schema_migrations`` table, in version order, and records
each one, so opening a database again applies nothing twice.
"""

from __future__ import annotations

import re
import sqlite3
from dataclasses import dataclass
from pathlib import Path

#: Where the migration files live, one directory per dialect (shipped as package data, see
#: pyproject.toml).
MIGRATIONS = Path(__file__).with_name("migrations")

#: The dialects whose statements are split (SQLite runs one statement per call); the others'
#: files run whole, as one script (PostgreSQL: a function body holds ``;``).
SPLIT = frozenset({"sqlite"})

_FILE = re.compile(r"^(\d{4})_([a-z0-9_]+)\.sql$")


@dataclass(frozen=True, slots=True)
class Migration:
    """One migration file.

    Attributes
    ----------
    version
        The file's number ``NNNN`` (1, 2, ...).
    name
        The rest of the file name, e.g. ``"initial"``.
    statements
        The SQL statements of the file, in order, each complete.
    """

    version: int
    name: str
    statements: tuple[str, ...]


def load_migrations(
    directory: Path | None = None, *, dialect: str = "sqlite"
) -> list[Migration]:
    """Read every ``NNNN_name.sql`` of a dialect's directory, sorted by version.

    Parameters
    ----------
    directory
        Where the files are; default ``migrations/<dialect>``.
    dialect
        ``"sqlite"`` (each file split into statements) or ``"postgres"`` (each file one
        script).

    Raises
    ------
    ValueError
        If a ``.sql`` file is misnamed, two files share a version, the versions do not run
        1, 2, 3 ... without a gap, or a file ends in an incomplete statement.
    """
    directory = MIGRATIONS / dialect if directory is None else directory
    migrations = []
    for path in sorted(directory.glob("*.sql")):
        match = _FILE.match(path.name)
        if match is None:
            raise ValueError(f"migration file {path.name!r} is not named NNNN_name.sql")
        script = path.read_text(encoding="utf-8")
        statements = split_statements(script) if dialect in SPLIT else (script,)
        migrations.append(Migration(int(match[1]), match[2], statements))
    migrations.sort(key=lambda migration: migration.version)
    versions = [migration.version for migration in migrations]
    if versions != list(range(1, len(versions) + 1)):
        raise ValueError(f"migration versions must run 1, 2, 3 ... without gaps: {versions}")
    return migrations


def split_statements(script: str) -> tuple[str, ...]:
    """Split an SQL script into complete statements (``CREATE TRIGGER ... END;`` stays whole).

    Raises
    ------
    ValueError
        If the script ends in an incomplete statement.
    """
    statements = []
    buffer = ""
    for line in script.splitlines(keepends=True):
        buffer += line
        if sqlite3.complete_statement(buffer):
            statements.append(buffer.strip())
            buffer = ""
    leftover = [line for line in buffer.splitlines() if line.strip()]
    if any(not line.lstrip().startswith("--") for line in leftover):
        raise ValueError(f"incomplete SQL statement at the end of the script: {buffer.strip()!r}")
    return tuple(statements)
