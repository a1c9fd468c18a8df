"""One table's state: its seats, game, board message, deadlines, and its saved form.

A :class:`Table` is plain data plus its lock; :class:`bot.runtime.registry.TableRegistry`
changes it. :meth:`Table.snapshot` / :meth:`Table.from_snapshot` are the JSON saved after
every change (``store.commit_table``, together with the chips the change moved) and read
back at start-up. Snapshots carry their own version and the game's schema version; a table
saved by an earlier release (version 1, 2 or 3) still restores.

What a commit writes does not grow with the length of the game: the snapshot leaves out
the game's log, whose new events each commit appends to the table's saved log instead
(:meth:`Table.write`), and the game's rules when they are the ones the game's adapter
builds from the table's options (they are built again at load).
"""

from __future__ import annotations

import asyncio
import json
import random
import secrets
import zlib
from collections.abc import Hashable, Iterable, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import TYPE_CHECKING, Any

from bot.i18n import ENGLISH, Language, Msg
from bot.runtime import pace
from bot.runtime.renders import Renders
from bot.runtime.spec import GameAdapter, GameSpec, Note, SeatInfo, TableInfo
from bot.store import ChipMove, GameResult, TableWrite

if TYPE_CHECKING:
    from bot.render.summary import RatingNote
    from bot.runtime.hands import HandLink

SNAPSHOT_VERSION = 4
"""Version of :meth:`Table.snapshot`'s JSON: the game without its log (saved apart) and,
when ``"rules"`` is ``"options"``, without its rules. Versions 3 (the game with its rules and
log), 2 (the game's JSON as an escaped string) and 1 (no ``ranked``, no game schema, no
teams) are read too; a table saved by a newer version is not restored."""


@dataclass(frozen=True, slots=True)
class Saved:
    """A table as the store holds it after a commit: the undo point of the next change.

    Attributes
    ----------
    packed
        Its :meth:`Table.snapshot`, compressed (zlib): every live table keeps one, and it is
        read back only when a change must be undone.
    log
        Its game's log then (not in the snapshot; empty in the lobby).
    """

    packed: bytes
    log: tuple[Any, ...] = ()

    @classmethod
    def of(cls, text: str, log: tuple[Any, ...] = ()) -> Saved:
        """The undo point of the snapshot ``text`` and the game's ``log``."""
        return cls(zlib.compress(text.encode(), 1), log)

    @property
    def text(self) -> str:
        """The :meth:`Table.snapshot` saved."""
        return zlib.decompress(self.packed).decode()


AI_RANDOM = random.Random(secrets.randbits(64))
"""Where the AI seats' random choices come from, one generator for every table (seeded
from the system's entropy; a table may be given its own, as tests do)."""


class Notes(list[Note]):
    """A table's last :data:`NOTES_KEPT` lobby and seat events, oldest first: a list that
    forgets its oldest entries (a list of four weighs a tenth of a ``deque(maxlen=4)``'s
    64-slot block, and every live table keeps one)."""

    __slots__ = ()

    def append(self, note: Note) -> None:
        super().append(note)
        del self[:-NOTES_KEPT]

    def extend(self, notes: Iterable[Note]) -> None:
        super().extend(notes)
        del self[:-NOTES_KEPT]


NOTES_KEPT = 4
"""Lobby and seat events a table's board shows."""


class TableState(StrEnum):
    """Where a table is in its life."""

    LOBBY = "lobby"
    PLAYING = "playing"
    OVER = "over"


@dataclass(slots=True)
class Seat:
    """One seat at a table, in the order players sat down (the engine's seat number).

    Attributes
    ----------
    member_id
        The Discord member, or None for an AI seat of a casual table.
    name
        Display name at the time of sitting down.
    ai
        True when the AI decides for this seat (always for AI seats).
    left
        The member left; the engine skips the seat; its stack was settled.
    leaving
        The member leaves at the end of the current deal.
    team
        The team the member chose in a partners lobby (an index into the game's teams).
    kicked
        The member leaves because the host (or a moderator) stood them up, not by their own
        Leave, which "I'm back" takes back.
    """

    member_id: int | None
    name: str
    ai: bool = False
    left: bool = False
    leaving: bool = False
    team: int | None = None
    kicked: bool = False

    def dump(self) -> dict[str, Any]:
        """The seat's fields by name, as :meth:`Table.snapshot` saves them (``Seat(**dump)``
        reads them back): all plain values, so no copy is made (``dataclasses.asdict``
        deep-copies each)."""
        return {name: getattr(self, name) for name in self.__slots__}

    def info(self) -> SeatInfo:
        """The frozen form the renderers see."""
        return SeatInfo(self.member_id, self.name, self.ai, self.left, self.leaving, self.team,
                        self.kicked)


@dataclass(eq=False, slots=True)
class Table:
    """One live game in one channel.

    Attributes
    ----------
    id
        Short table id (6 base-36 characters), in every custom_id of its components.
    game_name
        Key of its adapter in :data:`bot.games.GAMES`.
    guild_id, channel_id, host_id
        Where it is played and who opened it.
    buy_in
        Each seat's starting stack, in chips.
    options
        The game's table options (e.g. ``{"ante": 1, "bet_limit": 10}``).
    seats
        Seat ``i`` is the engine's seat ``i``.
    game
        The engine game once started.
    seed
        The session seed of the provably-fair shuffle (revealed when the session is over).
    board_message_id
        The public board message (the lobby message becomes the board).
    ending
        ``/… end`` was asked: no more deals after the current one.
    notes
        The last few lobby and seat events, shown on the board among the game's events
        (each records where in the game's log it was made).
    deadlines
        Seat -> (decision id, POSIX seconds): when that member's pending decision times out.
    timeouts
        Seat -> consecutive timeouts; at :data:`TIMEOUTS_TO_AI` the AI plays the seat until
        its member presses "I'm back".
    idle_deadline
        POSIX seconds at which an untouched lobby closes itself, or a started table that
        nobody dealt again on since the last deal's end ends its session.
    dm_messages
        Seat -> (deal number, DM channel id, message id) of that member's DM hand view.
    dm_closed
        Seat -> deal number in which sending the member a DM failed (closed DMs).
    ranked
        Members only: fixed at the start (a ranked table's stakes are real chips).
    substituted
        The AI took over a seat whose member left: the result is not rated.
    contested
        A deal ended with two members or more present at it (seated, staying, and playing
        their own seats or interacting lately): until then the game was not played among
        members, and its result is not rated (a session every member left or went away from
        during its first deal).
    staked
        Chips of stakes the table's escrow holds (the ``"stake"`` policy's pot: each
        member's stake at Start and the stake of each member who took an AI seat since);
        0 at other tables.
    moves
        The chip movements of the change in progress (not saved): committed with the
        table's next snapshot, in the same transaction.
    result
        The finished game's record, committed with the change that finished it.
    declined
        ``(seat, decision)`` of optional decisions the AI let lapse (not saved).
    drafts
        Seat -> (decision id, draft data): a multi-step choice under construction (a meld),
        private to the seat; dropped when the seat's decision changes.
    rating
        How the finished game counted for the ratings (read after its last commit, for the
        final board; not saved).
    board_dirty, dms_dirty
        The board / the DM hand views wait for an update (not saved).
    board_shown
        Where the board was last shown at, ``(version, language, pictures on)``, and the hash
        of how it looked (:meth:`bot.runtime.pictures.Pictures.look`; not saved): an edit
        at the same place is not even rendered, one that would look the same is skipped.
    renders
        The table's version and the renders of it (:mod:`bot.runtime.renders`; not saved).
    board_failures
        Board edits in a row that failed on Discord's side (not saved).
    spec_cache
        The options and the game's declaration built for them (not saved; see
        :meth:`bot.runtime.registry.TableRegistry.spec`).
    due_tracked
        The earliest of :attr:`deadlines` and :attr:`idle_deadline` as the scheduler's heap
        knows it (not saved).
    board_blocked
        The bot may not edit or post the board (missing permissions; not saved): members
        are told so when they interact, and play on from "My hand".
    hand_links
        Seat -> the member's latest private hand message, kept current while its interaction
        token lives (:mod:`bot.runtime.hands`; not saved: a restart forgets the tokens).
    hand_turns
        The seats that had a decision at the last hand update (not saved): a seat not among
        them whose turn comes is nudged.
    after_board
        Messages posted in the channel after the board (not saved): past a screen's worth the
        board is posted again at the bottom (:mod:`bot.runtime.publisher`).
    board_stub_id
        The old board left as a line linking to the board when it moved to the bottom (not
        saved): the next move deletes it, so the one line left points to the live board.
    pictures
        Message id -> name of the picture attached to it (the board, DM hand views; not
        saved: after a restart the next edit attaches the picture again).
    seen
        Member id -> POSIX seconds of their last interaction with the table (any click,
        modal or table command): a member silent for :data:`bot.runtime.pace.AWAY_SILENCE`
        may be marked away; a session never ends by itself within
        :data:`bot.runtime.pace.ACTIVE_WINDOW` of a member's interaction.
    started_at
        POSIX seconds of the Start (the ``minutes`` option counts from it), None in the lobby.
    saved
        The table as the store holds it (set when it is restored and by each commit; not
        saved): a change whose commit fails is undone to it. None before the first commit,
        or when something changed outside a change since (a DM hand view sent, a save that
        failed): the next change then takes its own undo point (:meth:`undo_point`).
    log_saved
        ``(game, count)``: the store holds the log of this game object up to its
        ``count``-th logged event (not saved); None when it holds none of the current
        game's (the next commit saves its whole log).
    rules_cache
        The options and the rules the game's adapter builds for them (not saved; see
        :meth:`bot.runtime.registry.TableRegistry.rules`).
    kicked
        Members the host (or a moderator) stood up, in the lobby or once the game had
        started: they may not take a seat at this table again, even after the AI took
        theirs over (a new table, a rematch, does not inherit it).
    forfeits
        Chips each member who left a staked game forfeited to the pot
        (:class:`bot.runtime.stakes.Stake`): theirs again if nobody is left to win it.
    """

    id: str
    game_name: str
    guild_id: int
    channel_id: int
    host_id: int
    buy_in: int
    options: dict[str, Any]
    seats: list[Seat] = field(default_factory=list)
    state: TableState = TableState.LOBBY
    game: Any = None
    seed: bytes = b""
    board_message_id: int | None = None
    ending: bool = False
    notes: Notes = field(default_factory=Notes)
    lock: asyncio.Lock = field(default_factory=asyncio.Lock, repr=False)
    rng: random.Random = field(default=AI_RANDOM, repr=False)
    ai_task: asyncio.Task[None] | None = field(default=None, repr=False)
    board_dirty: bool = False
    board_shown: tuple[Hashable, int] | None = field(default=None, repr=False)
    renders: Renders = field(default_factory=Renders, repr=False)
    board_failures: int = field(default=0, repr=False)
    spec_cache: tuple[dict[str, Any], GameSpec] | None = field(default=None, repr=False)
    due_tracked: float | None = field(default=None, repr=False)
    board_blocked: bool = False
    deadlines: dict[int, tuple[int, float]] = field(default_factory=dict)
    timeouts: dict[int, int] = field(default_factory=dict)
    idle_deadline: float | None = None
    dm_messages: dict[int, tuple[int, int, int]] = field(default_factory=dict)
    dm_closed: dict[int, int] = field(default_factory=dict)
    dms_dirty: bool = False
    ranked: bool = True
    substituted: bool = False
    contested: bool = False
    staked: int = 0
    moves: list[ChipMove] = field(default_factory=list, repr=False)
    result: GameResult | None = field(default=None, repr=False)
    declined: set[tuple[int, int]] = field(default_factory=set, repr=False)
    drafts: dict[int, tuple[int, Any]] = field(default_factory=dict)
    hand_links: dict[int, HandLink] = field(default_factory=dict, repr=False)
    hand_turns: set[int] = field(default_factory=set, repr=False)
    after_board: int = 0
    board_stub_id: int | None = field(default=None, repr=False)
    pictures: dict[int, str] = field(default_factory=dict, repr=False)
    rating: RatingNote | None = field(default=None, repr=False)
    seen: dict[int, float] = field(default_factory=dict)
    started_at: float | None = None
    saved: Saved | None = field(default=None, repr=False)
    log_saved: tuple[Any, int] | None = field(default=None, repr=False)
    rules_cache: tuple[dict[str, Any], Any] | None = field(default=None, repr=False)
    kicked: set[int] = field(default_factory=set)
    forfeits: dict[int, int] = field(default_factory=dict)

    def seat_members(self) -> None:
        """Recompute :attr:`ranked` from the lobby's seats (members only = ranked)."""
        self.ranked = all(seat.member_id is not None for seat in self.seats)

    def info(self, spec: GameSpec, lang: Language = ENGLISH) -> TableInfo:
        """The frozen picture the renderers receive, to render in ``lang`` (the seed only
        once the game is over)."""
        over = self.game is not None and self.game.is_over
        return TableInfo(
            id=self.id,
            spec=spec,
            seats=tuple(seat.info() for seat in self.seats),
            host_id=self.host_id,
            ranked=self.ranked,
            buy_in=self.buy_in,
            notes=tuple(self.notes),
            logged=0 if self.game is None else self.game.logged,
            deadlines={seat: when for seat, (_decision, when) in self.deadlines.items()},
            seed=self.seed if over else b"",
            lang=lang,
            pace=pace.describe(self.options, spec.counts_deals),
            substituted=self.substituted,
            deals=self.options.get("deals") or None,
        )

    def seat_of(self, member_id: int) -> int | None:
        """The seat of ``member_id`` if they are seated (and have not left), else None."""
        for index, seat in enumerate(self.seats):
            if seat.member_id == member_id and not seat.left:
                return index
        return None

    def active_seats(self) -> list[int]:
        """Seats that have not left, in seat order."""
        return [i for i, seat in enumerate(self.seats) if not seat.left]

    def note(self, key: str, /, *, after: int | None = None, **params: Any) -> None:
        """Add a line to the board's short runtime log: message ``key`` of the catalogs and
        its values (shown in each board's language), after the game's ``after``-th logged
        event (default: the events logged so far; note a cause before applying what it
        causes); the boards show a new version."""
        if after is None and self.game is not None:
            after = self.game.logged
        self.notes.append(Note(Msg(key, **params), after))
        self.renders.changed()

    def snapshot(self, rules: Any = None) -> str:
        """Everything needed to bring the table back after a restart but its game's log,
        as JSON text (the game's own JSON is its ``"game"`` member, an object).

        Parameters
        ----------
        rules
            The rules the game's adapter builds from the table's options (None: not known):
            when they are the game's, the game's JSON leaves them out (``"rules"`` is
            ``"options"``).
        """
        derived = self.game is not None and rules is not None and (
            self.game.rules is rules or self.game.rules == rules)  # shared rules: no compare
        meta = json.dumps({
            "version": SNAPSHOT_VERSION,
            "id": self.id,
            "game_name": self.game_name,
            "guild_id": self.guild_id,
            "channel_id": self.channel_id,
            "host_id": self.host_id,
            "buy_in": self.buy_in,
            "options": self.options,
            "seats": [seat.dump() for seat in self.seats],
            "state": self.state.value,
            "seed": self.seed.hex(),
            "board_message_id": self.board_message_id,
            "ending": self.ending,
            "notes": [note.dump() for note in self.notes],
            "deadlines": [[seat, *due] for seat, due in self.deadlines.items()],
            "timeouts": list(self.timeouts.items()),
            "idle_deadline": self.idle_deadline,
            "dm_messages": [[seat, *where] for seat, where in self.dm_messages.items()],
            "dm_closed": list(self.dm_closed.items()),
            "drafts": [[seat, decision, data] for seat, (decision, data) in self.drafts.items()],
            "ranked": self.ranked,
            "substituted": self.substituted,
            "contested": self.contested,
            "staked": self.staked,
            "seen": list(self.seen.items()),
            "started_at": self.started_at,
            "kicked": sorted(self.kicked),
            "forfeits": sorted(self.forfeits.items()),
            "game_schema": None if self.game is None else self.game.SCHEMA_VERSION,
            "rules": "options" if derived else "game",
        })
        left_out = {"log", "rules"} if derived else {"log"}
        game = "null" if self.game is None else self.game.model_dump_json(exclude=left_out)
        return f'{meta[:-1]}, "game": {game}}}'  # the game's JSON as it is, not re-escaped

    def undo_point(self, rules: Any = None) -> Saved:
        """The table as it is now, to undo a change to (:meth:`restore`)."""
        return Saved.of(self.snapshot(rules), () if self.game is None else tuple(self.game.log))

    def write(self, rules: Any = None) -> tuple[TableWrite, Saved | None]:
        """The commit of the change in progress (:attr:`moves`, :attr:`result`) and what the
        store then holds (None once the table is over: its saved state goes).

        The log's events that the store does not hold yet are the write's ``log``: those
        since the last commit, or the game's whole log (replacing the saved one) for a game
        whose log the store does not hold (:attr:`log_saved`) or that logged more since than
        it keeps. ``rules`` as :meth:`snapshot`.
        """
        moves, result = tuple(self.moves), self.result
        if self.state is TableState.OVER:
            return TableWrite(self.id, self.guild_id, self.channel_id, None, moves, result), None
        game, log, logged, reset = self.game, None, 0, False
        if game is not None:
            logged = game.logged
            mark = self.log_saved
            new = (logged - mark[1]) if mark is not None and mark[0] is game else -1
            reset = not 0 <= new <= len(game.log)
            events = game.log if reset else game.log[len(game.log) - new:]
            if events:
                log = "[" + ",".join(event.model_dump_json() for event in events) + "]"
        text = self.snapshot(rules)
        write = TableWrite(self.id, self.guild_id, self.channel_id, text, moves, result,
                           log, logged, reset)
        return write, Saved.of(text, () if game is None else tuple(game.log))

    def committed(self, saved: Saved | None) -> None:
        """Note that the store holds what :meth:`write` said it would."""
        self.saved = saved
        self.log_saved = None if self.game is None else (self.game, self.game.logged)

    def restore(self, saved: Saved, games: dict[str, GameAdapter]) -> None:
        """Put back the state ``saved`` holds, in place (undoing a change that could not be
        saved); the lock and the running tasks stay. The store's hold of the log
        (:attr:`log_saved`) passes to the game put back (the change changed the game in
        place; it did not replace it)."""
        held = self.log_saved
        kept = held is not None and held[0] is self.game
        table = Table.from_snapshot(saved.text, games)
        for name in _SAVED_FIELDS:
            setattr(self, name, getattr(table, name))
        if self.game is not None:
            self.game.log = list(saved.log)
        self.saved = saved
        self.log_saved = (self.game, held[1]) if kept and held is not None else None

    @classmethod
    def from_snapshot(
        cls, text: str, games: dict[str, GameAdapter], log: Sequence[str] = ()
    ) -> Table:
        """Rebuild a table from :meth:`snapshot` and its saved ``log`` (the JSON arrays of
        :meth:`write`'s logs, oldest first: version 4; older versions hold the log inside).

        Raises
        ------
        ValueError
            For a newer snapshot version, an unknown game, a game schema it cannot read, or
            rules its options no longer make.
        """
        data = json.loads(text)
        version = data.get("version")
        if version not in (1, 2, 3, SNAPSHOT_VERSION) or data["game_name"] not in games:
            raise ValueError(f"cannot restore table {data.get('id')!r}")
        adapter = games[data["game_name"]]
        game = data["game"]
        rules = adapter.rules(data["options"]) if data.get("rules") == "options" else None
        if isinstance(game, dict):  # version 3 on: an object; version 4: its log apart
            if version == SNAPSHOT_VERSION:
                game["log"] = [event for events in log for event in json.loads(events)]
            game = json.dumps(game)
        seats = [Seat(**seat) for seat in data["seats"]]
        table = cls(
            id=data["id"],
            game_name=data["game_name"],
            guild_id=data["guild_id"],
            channel_id=data["channel_id"],
            host_id=data["host_id"],
            buy_in=data["buy_in"],
            options=data["options"],
            seats=seats,
            state=TableState(data["state"]),
            game=None if game is None else adapter.load_game(game, data.get("game_schema", 1),
                                                             rules),
            seed=bytes.fromhex(data["seed"]),
            board_message_id=data["board_message_id"],
            ending=data["ending"],
            deadlines={seat: (decision, when) for seat, decision, when in data["deadlines"]},
            timeouts=dict(data["timeouts"]),
            idle_deadline=data["idle_deadline"],
            dm_messages={seat: (deal, channel, message)
                         for seat, deal, channel, message in data["dm_messages"]},
            dm_closed=dict(data["dm_closed"]),
            ranked=data.get("ranked", all(seat.member_id is not None for seat in seats)),
            substituted=data.get("substituted", False),
            contested=data.get("contested", True),  # saved before it was kept: rated as then
            staked=data.get("staked", _staked_before(data, seats)),
            drafts={seat: (decision, draft) for seat, decision, draft in data.get("drafts", [])},
            seen={member: when for member, when in data.get("seen", [])},
            started_at=data.get("started_at"),
            kicked=set(data.get("kicked", ())) | {seat.member_id for seat in seats
                                                  if seat.kicked and seat.member_id is not None},
            forfeits=dict(data.get("forfeits", ())),
        )
        table.notes.extend(Note.load(note) for note in data["notes"])
        table.saved = Saved.of(text, () if table.game is None else tuple(table.game.log))
        if table.game is not None and version == SNAPSHOT_VERSION:
            table.log_saved = (table.game, table.game.logged)
        return table


def _staked_before(data: dict[str, Any], seats: list[Seat]) -> int:
    """``staked`` of a snapshot saved before it was kept: a started ranked table's seats
    then each staked once (nobody could take an AI seat for a stake)."""
    ranked = data.get("ranked", all(seat.member_id is not None for seat in seats))
    started = data["state"] != TableState.LOBBY.value
    return data["buy_in"] * len(seats) if ranked and started else 0


_SAVED_FIELDS = (
    "seats", "state", "game", "seed", "board_message_id", "ending", "notes", "deadlines",
    "timeouts", "idle_deadline", "dm_messages", "dm_closed", "host_id", "ranked", "substituted",
    "contested", "staked", "drafts", "started_at", "seen", "kicked", "forfeits",
)
"""The fields :meth:`Table.snapshot` saves that a change may alter (not the ids)."""
