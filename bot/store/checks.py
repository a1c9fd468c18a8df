"""Argument checks shared by every store backend: bad input is refused before anything moves.

Each check returns the value it accepted, so a backend writes ``amount = chips(amount)``.
Types are checked strictly: ``True`` is an ``int`` to Python but never a chip amount or an id.
"""

from __future__ import annotations

#: The most chips one operation may move (far above any real balance, far below SQLite's
#: 64-bit integers, so sums of balances cannot overflow).
MAX_CHIPS = 10**12

#: Discord snowflakes are unsigned 64-bit; SQLite integers are signed 64-bit.
MAX_SNOWFLAKE = 2**63 - 1

#: Longest table id, setting scope, setting key or ledger reason accepted.
MAX_NAME = 64


def chips(amount: object, *, allow_zero: bool = False, what: str = "amount") -> int:
    """Accept a whole number of chips.

    Parameters
    ----------
    amount
        The chips asked for.
    allow_zero
        Whether 0 is acceptable (a settlement of an empty stack); otherwise it must be > 0.
    what
        The argument's name, for the error message.

    Returns
    -------
    int
        ``amount`` unchanged.

    Raises
    ------
    TypeError
        If ``amount`` is not an ``int`` (a ``bool``, ``float`` or ``str`` is refused).
    ValueError
        If ``amount`` is negative, 0 when ``allow_zero`` is false, or above :data:`MAX_CHIPS`.
    """
    if type(amount) is not int:
        raise TypeError(f"{what} must be a whole number of chips (int), not {amount!r}")
    least = 0 if allow_zero else 1
    if amount < least:
        raise ValueError(f"{what} must be at least {least} chips, got {amount}")
    if amount > MAX_CHIPS:
        raise ValueError(f"{what} must be at most {MAX_CHIPS} chips, got {amount}")
    return amount


def snowflake(value: object, what: str) -> int:
    """Accept a Discord id (guild, user or channel): an ``int`` in ``0 .. 2**63 - 1``.

    Raises
    ------
    TypeError
        If ``value`` is not an ``int`` (``bool`` refused).
    ValueError
        If ``value`` is negative or does not fit a signed 64-bit integer.
    """
    if type(value) is not int:
        raise TypeError(f"{what} must be an int (a Discord id), not {value!r}")
    if not 0 <= value <= MAX_SNOWFLAKE:
        raise ValueError(f"{what} must be in 0..{MAX_SNOWFLAKE}, got {value}")
    return value


def name(value: object, what: str) -> str:
    """Accept a short non-empty name (table id, setting scope or key, ledger reason).

    Raises
    ------
    TypeError
        If ``value`` is not a ``str``.
    ValueError
        If ``value`` is empty, only whitespace, or longer than :data:`MAX_NAME` characters.
    """
    if not isinstance(value, str):
        raise TypeError(f"{what} must be a str, not {value!r}")
    if not value.strip() or len(value) > MAX_NAME:
        raise ValueError(f"{what} must be 1..{MAX_NAME} characters and not blank, got {value!r}")
    return value


def text(value: object, what: str) -> str:
    """Accept a str of any length (saved table JSON, a setting's value).

    Raises
    ------
    TypeError
        If ``value`` is not a ``str``.
    """
    if not isinstance(value, str):
        raise TypeError(f"{what} must be a str, not {value!r}")
    return value
