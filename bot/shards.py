"""Which Discord shards this process hosts (DESIGN.md §5: several shard processes, one
database).

Discord puts guild ``g`` on shard ``(g >> 22) % shard_count``. A process started with
``--shards 0-3 --of 8`` connects shards 0 to 3 and hosts only the tables of their guilds.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Shards:
    """The shard ids one process hosts, out of ``count``.

    Attributes
    ----------
    ids
        The hosted shard ids, sorted, each in ``0 .. count - 1``, none twice.
    count
        Discord's shard count of the whole bot (>= 1).

    Raises
    ------
    TypeError, ValueError
        If ``count`` is not an int >= 1 or ``ids`` is empty, repeats an id or holds one
        outside ``0 .. count - 1``.
    """

    ids: tuple[int, ...]
    count: int

    def __post_init__(self) -> None:
        if type(self.count) is not int or self.count < 1:
            raise ValueError(f"the shard count must be an int >= 1, got {self.count!r}")
        if not self.ids or any(type(shard) is not int for shard in self.ids):
            raise ValueError(f"shard ids must be a non-empty list of ints, got {self.ids!r}")
        if list(self.ids) != sorted(set(self.ids)):
            raise ValueError(f"shard ids must be sorted, each once, got {list(self.ids)}")
        if not 0 <= self.ids[0] <= self.ids[-1] < self.count:
            raise ValueError(f"shard ids must be in 0..{self.count - 1}, got {list(self.ids)}")

    def hosts(self, guild_id: int) -> bool:
        """Whether the guild's tables belong to this process."""
        return shard_of(guild_id, self.count) in self.ids


def shard_of(guild_id: int, count: int) -> int:
    """The shard Discord puts a guild on: ``(guild_id >> 22) % count``."""
    return (guild_id >> 22) % count


def parse_ids(text: str) -> tuple[int, ...]:
    """Read shard ids written as ``"0-3"``, ``"5"`` or ``"0-1,4,6-7"``, sorted.

    Raises
    ------
    ValueError
        If a part is not a number or a range ``a-b`` with ``a <= b``, or an id repeats.
    """
    ids: list[int] = []
    for part in text.split(","):
        first, dash, last = part.strip().partition("-")
        if not first.isdigit() or (dash and not last.isdigit()):
            raise ValueError(f"shard ids are numbers or ranges like 0-3, got {text!r}")
        low, high = int(first), int(last) if dash else int(first)
        if low > high:
            raise ValueError(f"a shard range runs upwards (like 0-3), got {part.strip()!r}")
        ids.extend(range(low, high + 1))
    if len(ids) != len(set(ids)):
        raise ValueError(f"a shard id is listed twice in {text!r}")
    return tuple(sorted(ids))
