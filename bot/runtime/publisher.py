"""Showing a table: the board message and the members' DM hand views (DESIGN.md §4).

Updates with no interaction behind them (timers, AI moves, a decision made from a private
view) edit the board with the bot's own token, never an interaction token (case C01), without
parsing the edited message Discord returns (:meth:`bot.app.ParlourBot.edit_message`): through
the bot's one :class:`~bot.runtime.edits.EditQueue`, debounced by ``board_edit_interval``,
within this process's share of ``board_edit_budget`` REST calls per second
(``Settings.process_edit_budget``) for all its tables together, each table
published with its latest state and not at all when its board would look the same. A board
that was deleted (10008) or is too old to edit (30046) is posted again; a failure on
Discord's side (5xx) or a rate limit (429) is tried again with growing waits; a board the
bot may not edit (50001 Missing Access, 50013 Missing Permissions) is logged once for the
admin, naming the permission, and the table goes on from "My hand". When the channel has
moved on by more than a screen (:data:`BOARD_SCREEN` messages after the board, counted by
the bot's ``on_message`` listener), the board's next update posts it again at the bottom and
turns the old one into a line with a link to it (deleting the line an earlier move left, so
no line points to a line). Members who turned DM
hand views on get one DM per deal, edited as their hand changes; closed DMs (50007) are
noted on the board without cards.

:class:`Publisher` is mixed into :class:`bot.runtime.registry.TableRegistry`.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Hashable
from typing import Any

import discord

from bot.i18n import Msg
from bot.i18n.choice import Languages
from bot.render import common
from bot.runtime.edits import EditQueue, RestBudget
from bot.runtime.pictures import Outgoing
from bot.runtime.renders import Shown, language_key
from bot.runtime.table import Table, TableState

log = logging.getLogger("parlour.tables")

DM_SETTING = "dm"
"""Key of a member's DM hand views setting (scope ``user:<id>``, JSON ``true``/``false``)."""

DM_CLOSED = 50007
"""Discord's error code for "Cannot send messages to this user" (closed DMs)."""

REPOST_CODES = frozenset({10008, 10003, 30046})
"""Board edit errors answered by posting a new board: unknown message (deleted), unknown
channel message thread, too many edits of an old message."""

FORBIDDEN_CODES = frozenset({50001, 50013})
"""Board edit errors that no retry mends: Missing Access, Missing Permissions."""

BOARD_SCREEN = 20
"""Messages after the board past which the channel has moved on by more than a screen: the
board's next update posts it again at the bottom."""

BOARD_RETRIES = 5
"""Times a board edit that failed on Discord's side (5xx) or was rate limited is tried
again."""

BOARD_RETRY_WAIT = 2.0
"""Seconds before the first retry of a failed board edit; each further retry waits twice as
long (or the edit interval, if longer)."""


class Publisher:
    """Board edits and DM hand views of the table registry (see the module docstring)."""

    bot: Any
    languages: Languages
    by_channel: dict[int, Table]
    edits: EditQueue
    budget: RestBudget

    def _start_publishing(self) -> None:
        """Create the bot's edit queue and REST budget (called by the registry)."""
        settings = self.bot.settings
        self.budget = RestBudget(settings.process_edit_budget, sleep=self.bot.sleep)
        self.edits = EditQueue(self._publish, lambda: self.bot.settings.board_edit_interval,
                               self.budget, sleep=self.bot.sleep)

    def publishing(self) -> bool:
        """True while some table's update waits in the queue or is being sent."""
        return self.edits.busy

    def shown_board(self, table: Table) -> Shown:  # provided by the registry
        raise NotImplementedError

    def shown_hand(self, table: Table, seat: int) -> Shown:  # provided by the registry
        raise NotImplementedError

    async def board_at(self, table: Table) -> Hashable:
        """Where the board's next render is: the table's version, the channel's language
        and whether the server shows pictures (read before rendering, so that a change made
        meanwhile makes it older than the render, never newer)."""
        version = table.renders.version
        lang = language_key(self.languages.public(table.guild_id, table.channel_id))
        return version, lang, await self.images_on(table.guild_id)  # type: ignore[attr-defined]

    async def _save_quietly(self, table: Table) -> None:  # provided by the registry
        raise NotImplementedError

    async def _update_hands(self, table: Table) -> None:  # provided by the hand keeper
        raise NotImplementedError

    def schedule_board_edit(self, table: Table) -> None:
        """Edit the board soon with the bot's token (never an interaction token, C01).

        Edits asked for within ``board_edit_interval`` seconds become one edit (the
        table's state when its turn comes).
        """
        table.board_dirty = True
        self._schedule_publish(table)

    def _schedule_publish(self, table: Table) -> None:
        self.edits.want(table.id, table)

    async def _publish(self, table: Table) -> float | None:
        """The table's turn in the queue: the board, then the members' DM hand views and
        their hand messages kept current (:mod:`bot.runtime.hands`).

        An edit that failed on Discord's side is tried again :data:`BOARD_RETRIES` times at
        most, waiting :data:`BOARD_RETRY_WAIT` seconds and then twice as long each time
        (the table's state does not depend on it).

        Returns
        -------
        float or None
            Seconds after which to publish again (a retry), else None.
        """
        again = None
        if table.board_dirty:
            table.board_dirty = False
            if await self._edit_board(table):
                table.board_failures = 0
            else:
                table.board_failures += 1
                if table.board_failures <= BOARD_RETRIES:
                    table.board_dirty = True
                    again = max(self.bot.settings.board_edit_interval,
                                BOARD_RETRY_WAIT * 2 ** (table.board_failures - 1))
        if table.dms_dirty:
            table.dms_dirty = False
            await self._update_dms(table)
            await self._update_hands(table)
        table.renders.drop()  # published: not needed again before the next change
        return again

    async def wants_dm(self, member_id: int) -> bool:
        """True when the member turned DM hand views on (setting ``user:<id>`` / ``dm``,
        JSON ``true``; written by ``/settings dm on|off``)."""
        text = await self.bot.store.get_setting(f"user:{member_id}", DM_SETTING)
        return text is not None and json.loads(text) is True

    async def set_dm(self, member_id: int, on: bool) -> list[Table]:
        """Turn a member's DM hand views on or off (``/settings dm``) and apply it at once.

        Turning them on sends the member's DM hand view of every deal they are playing now
        (and tries again where their DMs were found closed); turning them off stops editing
        the DMs already sent.

        Returns
        -------
        list[Table]
            The live tables where the member holds a hand now.

        Raises
        ------
        StoreError
            When the setting cannot be saved; nothing changed then.
        """
        await self.bot.store.set_setting(f"user:{member_id}", DM_SETTING, json.dumps(on))
        playing = [table for table in self.by_id.values()  # type: ignore[attr-defined]
                   if table.state is TableState.PLAYING and table.seat_of(member_id) is not None]
        for table in playing:
            seat = table.seat_of(member_id)
            if on:
                table.dm_closed.pop(seat, None)
                table.saved = None
            table.dms_dirty = True
            self._schedule_publish(table)
        return playing

    async def _update_dms(self, table: Table) -> None:
        """Keep one DM hand view per member and deal up to date (DESIGN.md §4); a member
        whose DMs are closed (50007) is told on the board, without cards, to use My hand."""
        if table.state is not TableState.PLAYING:
            return
        deal = table.game.deal_number
        for seat in table.active_seats():
            entry = table.seats[seat]
            if entry.member_id is None or table.dm_closed.get(seat) == deal:
                continue
            if not await self.wants_dm(entry.member_id):
                continue
            out = await self.outgoing(table.guild_id, self.shown_hand(table, seat).rendered)
            known = table.dm_messages.get(seat)
            try:
                await self.budget.acquire()
                if known is not None and known[0] == deal:
                    await self.bot.edit_message(known[1], known[2],
                                                **out.edit(table.pictures.get(known[2])))
                    out.record(table.pictures, known[2])
                else:
                    dm = await self.bot.create_dm(discord.Object(id=entry.member_id))
                    await self.budget.acquire()
                    message = await dm.send(**out.send())
                    async with table.lock:  # after a change in flight, whose commit lacks it
                        table.dm_messages[seat] = (deal, dm.id, message.id)
                        table.saved = None  # not committed: the next change's undo keeps it
                    out.record(table.pictures, message.id)
            except discord.HTTPException as error:
                if error.code != DM_CLOSED:
                    log.warning("table %s: DM hand view of seat %d failed: %s",
                                table.id, seat, error)
                    continue
                async with table.lock:  # as above
                    table.dm_closed[seat] = deal
                    table.saved = None
                    table.note("note.dms_closed", name=common.short_name(entry.name))
                self.schedule_board_edit(table)

    async def on_channel_message(self, message: discord.Message) -> None:
        """Count a message posted after a table's board in its channel (the bot's
        ``on_message`` listener; ephemeral messages never arrive there)."""
        table = self.by_channel.get(message.channel.id)
        board = None if table is None else table.board_message_id
        if table is not None and board is not None and message.id > board:
            table.after_board += 1

    async def _edit_board(self, table: Table) -> bool:
        """Show the table's state on its board: re-posting a board that is gone, and moving
        a board the channel has scrolled away from (more than :data:`BOARD_SCREEN` messages
        after it) to the bottom.

        Returns False when the edit failed in a way worth retrying (Discord's side, a rate
        limit); True when it worked or no retry can mend it (missing permissions: logged
        once for the admin, the table goes on from "My hand").
        """
        if table.board_message_id is None:
            return True
        at = await self.board_at(table)
        last = table.board_shown
        moved = table.after_board > BOARD_SCREEN
        if last is not None and last[0] == at and not moved:
            return True  # shown already
        board = self.shown_board(table)
        shown = at, await self.look(table.guild_id, board)  # type: ignore[attr-defined]
        if last is not None and last[1] == shown[1] and not moved:
            table.board_shown = shown
            return True  # it would look the same
        out = await self.outgoing(table.guild_id, board.rendered)
        if table.after_board > BOARD_SCREEN:
            return await self._move_board(table, self._channel(table), out, shown)
        await self.budget.acquire()
        try:
            await self.bot.edit_message(table.channel_id, table.board_message_id,
                                        **out.edit(table.pictures.get(table.board_message_id)))
            out.record(table.pictures, table.board_message_id)
        except discord.HTTPException as error:
            if error.code in FORBIDDEN_CODES:
                self._cannot_show(table, error)
                return True
            if error.code not in REPOST_CODES:
                log.warning("table %s: board edit failed: %s", table.id, error)
                return not _retryable(error)
            log.info("table %s: board message gone (%s); posting a new one", table.id, error)
            return await self._post_board(table, self._channel(table), out, shown)
        table.board_blocked = False
        table.board_shown = shown
        return True

    def _channel(self, table: Table) -> discord.PartialMessageable:
        """The table's channel, to post the board in."""
        return self.bot.get_partial_messageable(table.channel_id, guild_id=table.guild_id)

    async def _post_board(
        self, table: Table, channel: discord.PartialMessageable, out: Outgoing,
        shown: tuple[Hashable, int],
    ) -> bool:
        """Post the board as a new message at the bottom of the channel and save its id
        (returns as :meth:`_edit_board`)."""
        await self.budget.acquire()
        try:
            message = await channel.send(**out.send())
        except discord.HTTPException as failure:
            log.warning("table %s: board could not be posted again: %s", table.id, failure)
            if failure.code in FORBIDDEN_CODES:
                self._cannot_show(table, failure)
                return True
            return not _retryable(failure)
        out.record(table.pictures, message.id)
        async with table.lock:
            table.board_message_id = message.id
            table.after_board = 0
            table.board_blocked = False
            table.board_shown = shown
            await self._save_quietly(table)
        return True

    async def _move_board(
        self, table: Table, channel: discord.PartialMessageable, out: Outgoing,
        shown: tuple[Hashable, int],
    ) -> bool:
        """Post the board again at the bottom; the old board becomes one line with a link to
        the new one, without buttons or picture (issue 10 item 4), and the line an earlier
        move left is deleted: the one line left always points to the live board."""
        old = table.board_message_id
        assert old is not None
        done = await self._post_board(table, channel, out, shown)
        if table.board_message_id == old:
            return done
        lang = self.languages.public(table.guild_id, table.channel_id)
        link = channel.get_partial_message(table.board_message_id).jump_url
        text = lang.t(Msg("board.moved", game=Msg(f"game.{table.game_name}"), link=link))
        await self.budget.acquire()
        try:
            await self.bot.edit_message(table.channel_id, old, content=text, embed=None,
                                        view=None, attachments=[])
            table.pictures.pop(old, None)
        except discord.HTTPException as error:  # the new board is up; the old one stays
            log.info("table %s: the old board could not point to the new one: %s",
                     table.id, error)
            return True
        stub, table.board_stub_id = table.board_stub_id, old
        if stub is not None:
            await self.budget.acquire()
            try:
                await channel.get_partial_message(stub).delete()
            except discord.HTTPException as error:  # already deleted, or out of reach
                log.info("table %s: the earlier board line stays: %s", table.id, error)
        return True

    def _cannot_show(self, table: Table, error: discord.HTTPException) -> None:
        """The bot may not edit or post the board: tell the admin once (the log names the
        permission) and the members on their next interaction."""
        if not table.board_blocked:
            log.error("table %s: the board in channel %d cannot be shown (%s): give Parlour "
                      "the View Channel, Send Messages and Embed Links permissions there",
                      table.id, table.channel_id, error)
        table.board_blocked = True


def _retryable(error: discord.HTTPException) -> bool:
    return error.status >= 500 or error.status == 429
