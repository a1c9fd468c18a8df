"""Settings read from the environment and ``.env`` (DESIGN.md §5); ``.env.example`` documents each.

Every setting but ``DISCORD_TOKEN`` is named ``PARLOUR_<FIELD>`` (``PARLOUR_SYNC`` is the
``sync`` field), except the ``database`` field's ``PARLOUR_DATABASE_URL``. Tests and the
playground build :class:`Settings` directly with keyword arguments, which win over the
environment.
"""

from __future__ import annotations

import os
from pathlib import PurePath
from typing import Annotated, Literal

from pydantic import (
    AliasChoices,
    Field,
    SecretStr,
    ValidationError,
    ValidationInfo,
    field_validator,
)
from pydantic_settings import BaseSettings, NoDecode, SettingsConfigDict

from bot.shards import Shards, parse_ids

LogLevel = Literal["DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL"]


class ConfigError(ValueError):
    """The settings are invalid; the message names each bad variable and why, one per line."""


def default_picture_workers() -> int:
    """``PARLOUR_PICTURE_WORKERS`` when unset: 1 if this process may run on more than one
    core (one worker draws while the bot's process plays), else 0 (drawing in a thread)."""
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    return 1 if (cores or 1) > 1 else 0


class Settings(BaseSettings):
    """Parlour's settings.

    Attributes
    ----------
    discord_token
        ``DISCORD_TOKEN``: the bot token from the Discord developer portal; None when unset
        (then ``python -m bot`` explains how to get one, or to use the playground).
    database
        ``PARLOUR_DATABASE_URL``: where chips and tables are kept: ``postgresql://...`` for
        PostgreSQL (several shard processes share it), else SQLite: a file's path or
        ``sqlite:///path`` (the default, ``data/parlour.db``). ``PARLOUR_DATABASE``, its
        older name, is still read.
    database_pool
        ``PARLOUR_DATABASE_POOL``: the most connections this process opens to PostgreSQL
        (1 to 1000, default 10); each shard process has its own, so the server must accept
        the sum. SQLite has one connection and ignores it.
    sync
        ``PARLOUR_SYNC``: where slash commands are registered at start-up: ``"global"`` (every
        server; Discord may take a while to show changes), ``"off"`` (do not sync), or a guild id
        (int; instant, for development in one test server).
    starting_chips
        ``PARLOUR_STARTING_CHIPS``: chips granted when a member's account is created (>= 0).
    daily_chips
        ``PARLOUR_DAILY_CHIPS``: chips granted by ``/chips daily``, once per 24 hours (>= 1).
    daily_streak_bonus
        ``PARLOUR_DAILY_STREAK_BONUS``: chips added to a daily claim per day of the member's
        streak after the first (a claim within 48 h of the last continues it; >= 0).
    daily_streak_cap
        ``PARLOUR_DAILY_STREAK_CAP``: the most chips the streak bonus adds to one claim (>= 0).
    buy_in
        ``PARLOUR_BUY_IN``: default buy-in, each seat's starting stack, in chips (>= 1).
    ai_delay
        ``PARLOUR_AI_DELAY``: seconds between AI moves, so people can follow them (0 to 60).
    board_edit_interval
        ``PARLOUR_BOARD_EDIT_INTERVAL``: seconds that background board edits are debounced by
        (0 to 60).
    board_edit_budget
        ``PARLOUR_BOARD_EDIT_BUDGET``: bot-token REST calls per second that board edits and
        DM hand views may make, for all tables of the whole bot together (1 to 50; Discord
        allows a bot about 50, whatever its processes); a shard process takes its shards'
        share (:attr:`process_edit_budget`).
    log_level
        ``PARLOUR_LOG_LEVEL``: ``DEBUG``, ``INFO``, ``WARNING``, ``ERROR`` or ``CRITICAL``
        (any case).
    shard_count
        ``PARLOUR_SHARD_COUNT``: Discord shards of the whole bot (>= 1), when it runs as
        shard processes over one database; None (default): one process, no sharding.
    shards
        ``PARLOUR_SHARDS``: the shard ids this process connects and hosts the tables of,
        e.g. ``0-3`` or ``0,2,4-5`` (each below ``shard_count``); default every shard.
        ``python -m bot --shards 0-3 --of 8`` sets both.
    picture_workers
        ``PARLOUR_PICTURE_WORKERS``: worker processes drawing the card pictures (>= 0), so
        drawing takes no CPU of the bot's own process; 0 draws them in a thread of it. Blank
        or unset: 1 when the machine has more than one core, else 0
        (:func:`default_picture_workers`).
    """

    model_config = SettingsConfigDict(
        env_prefix="PARLOUR_",
        env_file=".env",
        env_file_encoding="utf-8",
        extra="ignore",
        populate_by_name=True,
        frozen=True,
    )

    discord_token: SecretStr | None = Field(
        default=None, validation_alias=AliasChoices("DISCORD_TOKEN", "discord_token")
    )
    database: str = Field(
        default="data/parlour.db",
        validation_alias=AliasChoices(
            "PARLOUR_DATABASE_URL", "PARLOUR_DATABASE", "database_url", "database"
        ),
    )
    database_pool: int = Field(default=10, ge=1, le=1000)
    sync: Literal["global", "off"] | int = "global"
    starting_chips: int = Field(default=1000, ge=0)
    daily_chips: int = Field(default=100, ge=1)
    daily_streak_bonus: int = Field(default=10, ge=0)
    daily_streak_cap: int = Field(default=60, ge=0)
    buy_in: int = Field(default=100, ge=1)
    ai_delay: float = Field(default=1.0, ge=0, le=60, allow_inf_nan=False)
    board_edit_interval: float = Field(default=1.0, ge=0, le=60, allow_inf_nan=False)
    board_edit_budget: int = Field(default=45, ge=1, le=50)
    log_level: LogLevel = "INFO"
    shard_count: int | None = Field(default=None, ge=1)
    shards: Annotated[tuple[int, ...] | None, NoDecode] = None
    picture_workers: int = Field(default_factory=default_picture_workers, ge=0)

    @field_validator("discord_token", mode="before")
    @classmethod
    def _blank_token_is_none(cls, value: object) -> object:
        if isinstance(value, str) and not value.strip():
            return None
        return value.strip() if isinstance(value, str) else value

    @field_validator("database", mode="before")
    @classmethod
    def _path_is_text(cls, value: object) -> object:
        if isinstance(value, PurePath):
            return str(value)
        if isinstance(value, str) and not value.strip():
            raise ValueError("must be a file's path or a postgresql:// URL, not blank")
        return value.strip() if isinstance(value, str) else value

    @field_validator("sync", mode="before")
    @classmethod
    def _parse_sync(cls, value: object) -> object:
        if isinstance(value, int) and not isinstance(value, bool):
            return _guild_id(value, value)
        if not isinstance(value, str):
            raise ValueError(f"must be 'global', 'off' or a guild id, got {value!r}")
        text = value.strip().lower()
        if text in ("global", "off"):
            return text
        if text.isdigit():
            return _guild_id(int(text), value)
        raise ValueError(f"must be 'global', 'off' or a guild id (a number), got {value!r}")

    @field_validator("shard_count", mode="before")
    @classmethod
    def _blank_count_is_none(cls, value: object) -> object:
        return None if isinstance(value, str) and not value.strip() else value

    @field_validator("picture_workers", mode="before")
    @classmethod
    def _blank_workers_is_default(cls, value: object) -> object:
        if isinstance(value, str) and not value.strip():
            return default_picture_workers()
        return value

    @field_validator("shards", mode="before")
    @classmethod
    def _parse_shards(cls, value: object) -> object:
        if isinstance(value, str):
            return parse_ids(value) if value.strip() else None
        if isinstance(value, int) and not isinstance(value, bool):
            return (value,)
        return value

    @field_validator("shards")
    @classmethod
    def _shards_of_the_count(
        cls, value: tuple[int, ...] | None, info: ValidationInfo
    ) -> tuple[int, ...] | None:
        if value is None:
            return None
        count = info.data.get("shard_count")
        if count is None:
            raise ValueError("needs PARLOUR_SHARD_COUNT, the shard count of the whole bot")
        return Shards(tuple(sorted(set(value))), count).ids  # refuses ids out of range

    @property
    def hosted_shards(self) -> Shards | None:
        """The shards this process hosts, or None when the bot is not sharded."""
        if self.shard_count is None:
            return None
        ids = tuple(range(self.shard_count)) if self.shards is None else self.shards
        return Shards(tuple(sorted(ids)), self.shard_count)

    @property
    def process_edit_budget(self) -> int:
        """This process's share of ``board_edit_budget`` (calls per second, at least 1):
        all of it unsharded, else in proportion to the shards it hosts, so the processes of
        one bot together keep within Discord's limit of the bot token (four processes of two
        shards out of 8 with the default 45: 11 each)."""
        shards = self.hosted_shards
        if shards is None:
            return self.board_edit_budget
        return max(1, self.board_edit_budget * len(shards.ids) // shards.count)

    @field_validator("log_level", mode="before")
    @classmethod
    def _upper_log_level(cls, value: object) -> object:
        return value.strip().upper() if isinstance(value, str) else value

    @property
    def sync_guild_id(self) -> int | None:
        """The guild id commands are synced to, or None for ``global`` and ``off``."""
        return self.sync if isinstance(self.sync, int) else None


def _guild_id(number: int, shown: object) -> int:
    if number <= 0:
        raise ValueError(f"a guild id is a positive number, got {shown!r}")
    return number


def env_name(field: str) -> str:
    """The environment variable that sets ``field`` (``"sync"`` -> ``"PARLOUR_SYNC"``,
    ``"database"`` -> ``"PARLOUR_DATABASE_URL"``)."""
    if field == "discord_token":
        return "DISCORD_TOKEN"
    return "PARLOUR_DATABASE_URL" if field == "database" else f"PARLOUR_{field.upper()}"


def load_settings(**overrides: object) -> Settings:
    """Read the settings from the environment and ``.env``; keyword overrides win.

    Returns
    -------
    Settings

    Raises
    ------
    ConfigError
        With one line per invalid variable, named as the user writes it (``PARLOUR_SYNC: ...``).
    """
    try:
        return Settings(**overrides)
    except ValidationError as error:
        lines = []
        for problem in error.errors(include_url=False):
            field = str(problem["loc"][0]) if problem["loc"] else "?"
            message = problem["msg"].removeprefix("Value error, ")
            if problem["type"] != "value_error":  # our own messages already quote the value
                message += f" (got {problem.get('input')!r})"
            lines.append(f"{env_name(field)}: {message}")
        raise ConfigError("\n".join(lines)) from error
