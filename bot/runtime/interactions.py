"""Interactions with a table: clicks, amount modals and the game commands, each answered
exactly once and within Discord's 3 seconds (DESIGN.md §4, cases C02, C04, C06).

:class:`TableInteractions` is the Discord-facing half of :class:`bot.runtime.registry.TableRegistry`
(which inherits it): it turns an interaction into one of the registry's member-level
operations (an amount verb asks for its amount in a modal, unless its button carries a
quick amount in its argument), then answers with the board (``response.edit_message`` when
the click came from the board), the member's updated private view (and a bot-token board
edit), or an ephemeral refusal.
"""

from __future__ import annotations

import re
from collections.abc import Coroutine, Sequence
from typing import Any

import discord

from bot.i18n import Language, Msg
from bot.i18n.choice import Languages
from bot.i18n.language import ascii_digits
from bot.render import common
from bot.replies import answer_failure, received, reply, within_deadline
from bot.runtime.components import AmountModal
from bot.runtime.pictures import Outgoing, attached
from bot.runtime.publisher import BOARD_SCREEN
from bot.runtime.refs import Ref, Refusal
from bot.runtime.spec import Rendered
from bot.runtime.table import Table, TableState

_AMOUNT = re.compile(r"[0-9]+")

AMOUNT_DIGITS = 9
"""Most digits a typed amount may have; a longer one is above any limit and any stack."""


def parse_amount(text: str) -> int:
    """Read a typed amount of chips strictly: decimal digits only, of any script, full-width
    too (:func:`bot.i18n.language.ascii_digits`; ``abc``, ``-3``, ``+3``, ``1e3``, ``0x10``,
    ``1_0``, ``10a`` and ``2.5`` are refused); the game checks the range.

    Raises
    ------
    Refusal
        ``bad_amount`` with a sentence that quotes the input; ``over_limit`` for digits
        only but more than :data:`AMOUNT_DIGITS` of them.
    """
    cleaned = ascii_digits(text.strip())
    if not _AMOUNT.fullmatch(cleaned):
        shown = discord.utils.escape_markdown(common.truncate(cleaned, 20))
        raise Refusal("bad_amount",
                      Msg("refusal.bad_amount", typed=shown or Msg("refusal.nothing")))
    digits = cleaned.lstrip("0") or "0"
    if len(digits) > AMOUNT_DIGITS:
        raise Refusal("over_limit", Msg("refusal.over_any_limit"))
    return int(digits)


class TableInteractions:
    """Interaction handlers of the table registry (mixed into :class:`TableRegistry`)."""

    languages: Languages

    async def on_component(
        self, interaction: discord.Interaction, ref: Ref, values: Sequence[str]
    ) -> None:
        """Answer a click on one of a table's components, exactly once.

        A refused click from a private view also has the board edited: a board that was
        deleted is posted again at the next interaction (not at the next timeout).
        """
        received(interaction)  # its 3 s count from here (bot.replies.within_deadline)
        try:
            await self.languages.observe(interaction)
            await self._on_component(interaction, ref, values)
        except Refusal as refusal:
            table = self.by_id.get(ref.table)
            if (refusal.code == "stale" and table is not None
                    and await self._answer_stale(interaction, table, refusal)):
                return
            await self._refuse(interaction, refusal)
            if table is not None and not self._from_board(interaction, table):
                self.schedule_board_edit(table)
        except Exception as error:  # answer even a bug, then log it
            await self._failed(interaction, ref, error)
        finally:
            self._answered(ref)

    def _answered(self, ref: Ref) -> None:
        """The interaction is answered: its table keeps no render for it (the hand messages
        kept current and the board compare where they were rendered, which needs none)."""
        table = self.by_id.get(ref.table)
        if table is not None:
            table.renders.drop()

    async def on_amount(self, interaction: discord.Interaction, ref: Ref, text: str) -> None:
        """Answer an amount modal (bet, raise, bid …): strict parsing, then the decision."""
        received(interaction)
        try:
            await self.languages.observe(interaction)
            table = self.get(ref.table)
            if await within_deadline(interaction, self.touch(table, interaction.user.id)):
                self.schedule_board_edit(table)  # "is back" (the edit skips an unchanged look)
            amount = parse_amount(text)
            await within_deadline(
                interaction, self.act(table, interaction.user.id, ref, (), amount)
            )
            await self._after_decision(interaction, table)
        except Refusal as refusal:
            await self._refuse(interaction, refusal)
        except Exception as error:
            await self._failed(interaction, ref, error)
        finally:
            self._answered(ref)

    async def _failed(self, interaction: discord.Interaction, ref: Ref, error: Exception) -> None:
        """Answer a failed interaction; then show the table's state on its board with the
        bot's token, in case the failure was the answer that should have shown it (a 503)."""
        await answer_failure(interaction, error)
        table = self.by_id.get(ref.table)
        if table is not None:
            self.schedule_board_edit(table)

    async def _on_component(
        self, interaction: discord.Interaction, ref: Ref, values: Sequence[str]
    ) -> None:
        if ref.verb == "rematch":  # the table is over and forgotten: its board stays
            await self._rematch(interaction, ref)
            return
        table = self.get(ref.table)
        member = interaction.user
        is_manager = bool(interaction.permissions.manage_channels)
        verb = ref.verb
        if await within_deadline(interaction, self.touch(
                table, member.id, come_back=verb not in ("back", "leave"))):
            self.schedule_board_edit(table)  # "is back" (the edit skips an unchanged look)
        if verb == "hand":
            self._require_playing(table)
            seat = table.seat_of(member.id)
            if seat is None:
                raise Refusal("not_seated", Msg("refusal.not_seated"))
            hand = self.shown_hand(table, seat)
            note = self._board_note(interaction, table)
            out = await self.outgoing(table.guild_id, hand.rendered)
            await self._private(interaction, content=note, **out.send())
            self.keep_hand(table, seat, interaction, hand, content=note, picture=out.name)
            if not self._from_board(interaction, table) or table.after_board > BOARD_SCREEN:
                self.schedule_board_edit(table)  # a deleted or scrolled-away board: posted again
            return
        if verb == "verify":
            self._require_playing(table)
            await self._private(interaction, embed=self.render_verify(table, member.id).embed)
            return
        if verb == "leave" and await self._leave_asked(interaction, table, ref):
            return
        operation = self._table_operation(table, ref, member, is_manager)
        if operation is not None:
            await within_deadline(interaction, operation)
            await self._show_board(interaction, table)
            return
        seat = self.decision_seat(table, member.id, ref)
        prompt = self.adapter(table).amount_prompt(table.game, seat, verb)
        if prompt is not None and ref.arg.isdigit():  # a quick amount: shown on the button
            await within_deadline(
                interaction, self.act(table, member.id, ref, (), int(ref.arg)))
            await self._after_decision(interaction, table)
            return
        if prompt is not None:
            lang = self._lang(interaction)
            await interaction.response.send_modal(
                AmountModal(ref, title=lang.t(prompt.title), label=lang.t(prompt.label))
            )
            return
        await within_deadline(interaction, self.act(table, member.id, ref, values))
        drafted = verb in self.adapter(table).draft_verbs  # only the private view changed
        await self._after_decision(interaction, table, board_changed=not drafted)

    async def _leave_asked(
        self, interaction: discord.Interaction, table: Table, ref: Ref
    ) -> bool:
        """Leave where leaving costs the member chips (the stakes policy's
        :meth:`~bot.runtime.stakes.StakesPolicy.forfeit`: a stake mid-game) asks first,
        privately (:func:`bot.render.common.leave_prompt`); its Leave (``arg`` ``sure``)
        leaves and its Stay (``stay``) changes nothing, each answered by editing the
        question. False when the click is an ordinary Leave, done as it always was.

        Raises
        ------
        Refusal
            As :meth:`leave` (a confirm clicked after the game ended or after leaving).
        """
        lang = self._lang(interaction)
        member_id = interaction.user.id
        if ref.arg == "stay":
            await self._edit_clicked(interaction, content=lang.t("table.leave_stays"))
            return True
        cost = self.stakes(table).forfeit(table, member_id)
        if ref.arg != "sure":
            if not cost:
                return False
            content, view = common.leave_prompt(lang, table.id, cost)
            await self._private(interaction, content=content, view=view)
            return True
        await within_deadline(interaction, self.leave(table, member_id))
        text = (lang.t("table.left_forfeit", count=cost, amount=lang.grouped(cost)) if cost
                else lang.t("table.done"))
        await self._edit_clicked(interaction, content=text)
        self.schedule_board_edit(table)
        return True

    async def _edit_clicked(self, interaction: discord.Interaction, *, content: str) -> None:
        """Answer by replacing the clicked private message with ``content`` (no buttons)."""
        if interaction.response.is_done():
            await interaction.edit_original_response(content=content, view=None)
        else:
            await interaction.response.edit_message(content=content, view=None)

    def _table_operation(
        self, table: Table, ref: Ref, member: discord.abc.User, is_manager: bool
    ) -> Coroutine[Any, Any, None] | None:
        """The lobby or table-level operation a verb names, or None for a seat's decision."""
        team = int(ref.arg) if ref.arg.isdigit() else None
        match ref.verb:
            case "join":
                return self.join(table, member.id, member.display_name, team)
            case "leave":
                return self.leave(table, member.id)
            case "add_ai":
                return self.add_ai(table, member.id, is_manager, team)
            case "start":
                return self.start(table, member.id, is_manager)
            case "cancel":
                return self.cancel(table, member.id, is_manager)
            case "next":
                return self.next_deal(table, member.id, ref)
            case "back":
                return self.back(table, member.id)
        return None

    async def _after_decision(
        self, interaction: discord.Interaction, table: Table, *, board_changed: bool = True
    ) -> None:
        """Show the result: the board when the click came from it, else the member's updated
        hand (and, when the table changed, the board edited with the bot token)."""
        if self._from_board(interaction, table):
            await self._show_board(interaction, table)
            return
        seat = table.seat_of(interaction.user.id)
        if seat is None or table.state is not TableState.PLAYING:
            await self._update(interaction, table, self.shown_board(table).rendered)
        else:
            await self._show_hand(interaction, table, seat)
        if board_changed:
            self.schedule_board_edit(table)

    async def _show_hand(
        self, interaction: discord.Interaction, table: Table, seat: int, note: str | None = None
    ) -> None:
        """Answer a click on a private view with the seat's current hand (and ``note``
        above it) in that same message, which becomes the hand kept current."""
        hand = self.shown_hand(table, seat)
        out = await self._update(interaction, table, hand.rendered, content=note)
        self.keep_hand(table, seat, interaction, hand, content=note, picture=out.name)

    async def _answer_stale(
        self, interaction: discord.Interaction, table: Table, refusal: Refusal
    ) -> bool:
        """A click on an old private view whose decision is over: the view itself shows the
        refusal above the member's current hand. False (answer nothing) when the click came
        from the board or the member holds no hand there."""
        seat = table.seat_of(interaction.user.id)
        if (self._from_board(interaction, table) or interaction.message is None
                or seat is None or table.state is not TableState.PLAYING):
            return False
        await self._show_hand(interaction, table, seat, refusal.text(self._lang(interaction)))
        return True

    def _board_note(self, interaction: discord.Interaction, table: Table) -> str | None:
        """A line for the member when the board cannot be shown (missing permissions)."""
        if not table.board_blocked:
            return None
        return self._lang(interaction).t("table.board_blocked")

    def _lang(self, interaction: discord.Interaction) -> Language:
        """The language of the interaction's member (already observed)."""
        return self.languages.private(interaction.user.id)

    async def _refuse(self, interaction: discord.Interaction, refusal: Refusal) -> None:
        """Answer a refusal privately, in the member's language."""
        await self._private(interaction, content=refusal.text(self._lang(interaction)))

    def _from_board(self, interaction: discord.Interaction, table: Table) -> bool:
        message = interaction.message
        return message is not None and message.id == table.board_message_id

    async def _show_board(self, interaction: discord.Interaction, table: Table) -> None:
        """Answer with the board: the clicked board edited, or a private "Done." and a
        bot-token board edit. A board the channel has scrolled away from (more than
        :data:`~bot.runtime.publisher.BOARD_SCREEN` messages after it) is not edited where it
        is: the click is acknowledged and the board's edit posts it at the bottom."""
        if self._from_board(interaction, table) and table.after_board > BOARD_SCREEN:
            if not interaction.response.is_done():
                await interaction.response.defer()
            self.schedule_board_edit(table)
        elif self._from_board(interaction, table):
            table.board_dirty = False  # this answer shows the newest board already
            at = await self.board_at(table)
            board = self.shown_board(table)
            await self._update(interaction, table, board.rendered)
            table.board_shown = at, await self.look(table.guild_id, board)
        else:
            await self._private(interaction, content=self._lang(interaction).t("table.done"))
            self.schedule_board_edit(table)

    async def _update(
        self, interaction: discord.Interaction, table: Table, rendered: Rendered,
        content: str | None = None,
    ) -> Outgoing:
        """Answer by editing the clicked message: ``rendered`` with ``content`` above it (None
        removes an earlier line, such as a refusal), its picture re-uploaded only when it
        changed. Returns what was sent."""
        out = await self.outgoing(table.guild_id, rendered)
        message = {"content": content, **out.edit(attached(interaction.message))}
        if interaction.response.is_done():
            await interaction.edit_original_response(**message)
        else:
            await interaction.response.edit_message(**message)
        if interaction.message is not None and self._from_board(interaction, table):
            out.record(table.pictures, interaction.message.id)
        return out

    async def _private(self, interaction: discord.Interaction, **message: Any) -> None:
        """Send an ephemeral answer (or follow-up when the interaction was deferred)."""
        await reply(interaction, ephemeral=True, **message)

    # ------------------------------------------------------------------ commands

    async def open_command(
        self, interaction: discord.Interaction, game_name: str, options: dict[str, Any],
        buy_in: int, *, thread: bool = False,
    ) -> None:
        """``/<game> start``: open a lobby in the channel and post it as the board (the
        response, or the follow-up completing a public deferral); a refusal (the channel
        already has a table, a thread that cannot be opened) is answered ephemerally.

        With ``thread`` (in a text channel) the table gets a public thread of its own, opened
        on the answer: one line in the channel pointing to the thread, where the lobby is
        posted and the game is played (its commands work there).
        """
        try:
            await self.languages.observe(interaction)
            await self._open_command(interaction, game_name, options, buy_in, thread)
        except Refusal as refusal:
            await self._refuse(interaction, refusal)

    async def _open_command(
        self, interaction: discord.Interaction, game_name: str, options: dict[str, Any],
        buy_in: int, thread: bool,
    ) -> None:
        assert interaction.guild_id is not None and interaction.channel_id is not None
        room = None
        if thread and isinstance(interaction.channel, discord.TextChannel):
            room = await self._open_thread(interaction, game_name)
        table = self.open(
            game_name,
            guild_id=interaction.guild_id,
            channel_id=interaction.channel_id if room is None else room.id,
            host_id=interaction.user.id,
            host_name=interaction.user.display_name,
            options=options,
            buy_in=buy_in,
        )
        await self._post_lobby(interaction, table, room)

    async def _rematch(self, interaction: discord.Interaction, ref: Ref) -> None:
        """**Rematch** on a final board: a new lobby in the channel with the same seats,
        posted as a new board (the answer); a refusal is answered ephemerally."""
        assert interaction.guild_id is not None and interaction.channel_id is not None
        table = await within_deadline(interaction, self.rematch(
            ref.table, guild_id=interaction.guild_id, channel_id=interaction.channel_id,
            member_id=interaction.user.id, name=interaction.user.display_name,
        ), ephemeral=False)
        await self._post_lobby(interaction, table)

    async def _post_lobby(
        self, interaction: discord.Interaction, table: Table, room: Any = None
    ) -> None:
        """Post a new lobby as the interaction's answer (or in the thread ``room``, the
        answer then pointing to it); it becomes the table's board."""
        out = await self.outgoing(table.guild_id, self.render_board(table))
        try:
            if room is None:
                table.board_message_id = await reply(interaction, **out.send())
            else:
                board = await room.send(**out.send())
                table.board_message_id = board.id
                lang = self.languages.public(interaction.guild_id, interaction.channel_id)
                await interaction.edit_original_response(content=lang.t(Msg(
                    "thread.pointer", game=Msg(f"game.{table.game_name}"),
                    thread=room.mention)))
        except BaseException:
            self._forget(table)
            raise
        async with table.lock:
            await self._save_quietly(table)
        table.renders.drop()

    async def _open_thread(self, interaction: discord.Interaction, game_name: str) -> Any:
        """Answer ``/<game> start thread:True`` with a line in the channel and open a public
        thread on it for the table (the line then points to the thread).

        Raises
        ------
        Refusal
            ``no_thread`` when Discord refuses the thread (Create Public Threads missing);
            the line is deleted, so the refusal is private.
        """
        assert isinstance(interaction.channel, discord.TextChannel)
        lang = self.languages.public(interaction.guild_id, interaction.channel.id)
        name = common.truncate(lang.t(Msg("thread.name", game=Msg(f"game.{game_name}"),
                                          host=interaction.user.display_name)), 100)
        line = await reply(interaction, content=name)
        assert line is not None
        try:
            return await interaction.channel.create_thread(name=name, message=discord.Object(line))
        except discord.HTTPException as error:
            await interaction.delete_original_response()
            raise Refusal("no_thread", Msg("thread.cannot")) from error

    async def kick_command(
        self, interaction: discord.Interaction, game_name: str, target: discord.abc.User
    ) -> None:
        """``/<game> kick member``: the host or a Manage Channels member stands a member up."""
        try:
            await self.languages.observe(interaction)
            table = self._channel_table(interaction, game_name)
            is_manager = bool(interaction.permissions.manage_channels)
            later = await within_deadline(
                interaction, self.kick(table, interaction.user.id, is_manager, target.id)
            )
            await self._private(interaction, content=self._lang(interaction).t(
                "table.kicked_after_deal" if later else "table.kicked",
                name=common.short_name(target.display_name)))
            self.schedule_board_edit(table)
        except Refusal as refusal:
            await self._refuse(interaction, refusal)

    def _channel_table(self, interaction: discord.Interaction, game_name: str) -> Table:
        table = self.by_channel.get(interaction.channel_id or 0)
        if table is None or table.game_name != game_name:
            raise Refusal("no_table", Msg("refusal.no_table_here"))
        return table

    async def end_command(
        self, interaction: discord.Interaction, game_name: str, abandon: bool
    ) -> None:
        """``/<game> end [now]``: end the channel's table (host or Manage Channels); a
        refusal is answered ephemerally."""
        try:
            await self.languages.observe(interaction)
            await self._end_command(interaction, game_name, abandon)
        except Refusal as refusal:
            await self._refuse(interaction, refusal)

    async def _end_command(
        self, interaction: discord.Interaction, game_name: str, abandon: bool
    ) -> None:
        table = self._channel_table(interaction, game_name)
        is_manager = bool(interaction.permissions.manage_channels)
        await within_deadline(
            interaction, self.end(table, interaction.user.id, is_manager, abandon)
        )
        if table.state is TableState.OVER:
            key = "table.end_closed"
        elif abandon:
            key = "table.end_abandoned"
        else:
            key = "table.end_after_deal"
        await self._private(interaction, content=self._lang(interaction).t(key))
        self.schedule_board_edit(table)
