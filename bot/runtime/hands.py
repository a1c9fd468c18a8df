"""Private hand messages kept current: each member's latest hand is edited as the game moves
(DESIGN.md §4 "Private hands", issue 10 item 2).

A member's hand message is ephemeral; only the interaction that posted it (My hand) or last
updated it (a click on its controls, an amount modal sent from it) can edit it, through that
interaction's webhook token — not the bot token, so these edits cost nothing of the bot's
rate limits — and only while the token lives (Discord: 15 minutes). The runtime keeps one
:class:`HandLink` per seat (in memory: a restart forgets them, and the member's next My hand
makes a new one), edits the message when the seat's view changed (coalesced: the latest
state is rendered when the edit is made; an unchanged view is not sent again) and stops
:data:`TOKEN_MARGIN` seconds before the token runs out. A failed edit (the member dismissed
the message, the token expired early) drops the link and changes nothing else; the member's
next My hand posts a fresh hand. A link belongs to a member and a seat: when the seat
changes hands the link is dropped, so no message ever shows another seat's cards.

The member whose turn it is: an edit notifies nobody, so when the turn passes to a member
who has not touched their hand for :data:`NUDGE_QUIET` seconds, a one-line ephemeral
follow-up (:data:`NUDGE`, in the member's language) is sent through their hand's token,
below their hand; it is deleted once their turn is over, so at most one such line exists per
member, seen by them alone, and nothing is added to the channel.

:class:`HandKeeper` is mixed into :class:`bot.runtime.registry.TableRegistry`.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Hashable
from dataclasses import dataclass
from typing import Any

import discord

from bot.i18n import Msg
from bot.i18n.choice import Languages
from bot.runtime.renders import Shown
from bot.runtime.table import Table, TableState
from engine.core import SYSTEM

log = logging.getLogger("parlour.tables")

TOKEN_SECONDS = 15 * 60.0
"""Seconds an interaction token may edit its messages (Discord's limit)."""

TOKEN_MARGIN = 60.0
"""Seconds before the token's end at which the runtime stops editing a hand message (the
bot's clock and Discord's may differ a little)."""

NUDGE_QUIET = 30.0
"""Seconds a member must have left their hand untouched before the turn passing to them sends
them a nudge (a member who just clicked is looking at it)."""

NUDGE = Msg("hand.nudge")
"""The one line a member gets when the turn passes to them (see the module docstring)."""


@dataclass
class HandLink:
    """Where a seat's latest hand message is and how it can be edited.

    Attributes
    ----------
    member_id
        The member the message was shown to; the link serves only while they hold the seat.
    interaction
        The interaction whose webhook token edits the message: its original response (a My
        hand answer, or the hand message a click came from).
    since
        Bot-clock POSIX seconds of ``interaction``: its token edits until
        ``since + TOKEN_SECONDS - TOKEN_MARGIN``; also when the member last touched their hand.
    shown
        A hash of the fingerprint of what the message shows now
        (:meth:`bot.runtime.renders.Shown.digest`).
    picture
        The name of the picture attached to the message, None for none
        (:mod:`bot.runtime.pictures`).
    nudge
        The interaction and id of the member's latest "your turn" follow-up, if any.
    at
        Where what the message shows was rendered (:attr:`bot.runtime.renders.Shown.at`;
        None with a line above it): a table at the same place needs no edit, nor a render.
    """

    member_id: int
    interaction: discord.Interaction
    since: float
    shown: int
    picture: str | None = None
    nudge: tuple[discord.Interaction, int] | None = None
    at: Hashable = None

    def live(self, now: float) -> bool:
        """Whether the token may still edit the message at ``now`` (with the margin)."""
        return now < self.since + TOKEN_SECONDS - TOKEN_MARGIN


class HandKeeper:
    """Hand messages kept current (mixed into the table registry; see the module docstring)."""

    bot: Any
    languages: Languages

    def shown_hand(self, table: Table, seat: int) -> Shown:  # provided by the registry
        raise NotImplementedError

    def _now(self) -> float:  # provided by the registry
        raise NotImplementedError

    def keep_hand(
        self, table: Table, seat: int, interaction: discord.Interaction, shown: Shown,
        *, content: str | None = None, picture: str | None = None,
    ) -> None:
        """Remember that ``interaction`` just showed ``shown`` as ``seat``'s hand (with the
        attachment ``picture``, if any): from now on that message is the one kept current (a
        previous nudge is carried over). A DM hand view is not linked: the DM hand views keep
        it (:mod:`bot.runtime.publisher`)."""
        if interaction.guild_id is None:
            return
        old = table.hand_links.get(seat)
        table.hand_links[seat] = HandLink(
            member_id=interaction.user.id,
            interaction=interaction,
            since=self._now(),
            shown=shown.digest(content),
            picture=picture,
            nudge=old.nudge if old is not None and old.member_id == interaction.user.id else None,
            at=shown.at if content is None else None,
        )

    async def _update_hands(self, table: Table) -> None:
        """Edit every live hand message whose view changed; nudge members the turn passed to
        (and delete the nudge of a member whose turn is over).

        Links that expired, whose seat changed hands, or whose edit failed are dropped. When
        the table is over, each live hand shows its final state once and the links go.
        """
        now = self._now()
        to_act = set()
        if table.state is TableState.PLAYING:
            to_act = {seat for seat in table.game.to_act if seat != SYSTEM}
        passed = to_act - table.hand_turns
        table.hand_turns = to_act
        edits = []
        for seat, link in list(table.hand_links.items()):
            entry = table.seats[seat] if seat < len(table.seats) else None
            if (entry is None or entry.member_id != link.member_id or entry.left
                    or not link.live(now) or table.game is None):
                del table.hand_links[seat]
                continue
            nudge = seat in passed and not entry.ai and now - link.since >= NUDGE_QUIET
            edits.append(self._edit_hand(table, seat, link, nudge=nudge,
                                         turn_over=seat not in to_act))
        await asyncio.gather(*edits)
        if table.state is TableState.OVER:
            table.hand_links.clear()

    async def _edit_hand(
        self, table: Table, seat: int, link: HandLink, *, nudge: bool, turn_over: bool
    ) -> None:
        lang = self.languages.private(link.member_id)
        try:
            if link.at is None or link.at != table.renders.at("hand", seat, lang):
                hand = self.shown_hand(table, seat)
                if hand.digest() != link.shown:
                    out = await self.outgoing(table.guild_id, hand.rendered)  # type: ignore[attr-defined]
                    await link.interaction.edit_original_response(content=None,
                                                                  **out.edit(link.picture))
                    link.shown, link.picture = hand.digest(), out.name
                link.at = hand.at
            if nudge or turn_over:
                await self._drop_nudge(link)
            if nudge:
                await self._nudge(link)
        except discord.HTTPException as error:
            log.info("table %s: the hand message of seat %d is no longer kept current: %s",
                     table.id, seat, error)
            if table.hand_links.get(seat) is link:
                del table.hand_links[seat]

    async def _drop_nudge(self, link: HandLink) -> None:
        """Delete the member's "your turn" line, if any."""
        if link.nudge is not None:
            interaction, message_id = link.nudge
            link.nudge = None
            # dismissed by the member, or its token ran out: it is gone from view either way
            with contextlib.suppress(discord.HTTPException):
                await interaction.followup.delete_message(message_id)

    async def _nudge(self, link: HandLink) -> None:
        """Send the member the "your turn" line below their hand."""
        sent = await link.interaction.followup.send(
            self.languages.private(link.member_id).t(NUDGE), ephemeral=True, wait=True,
            allowed_mentions=discord.AllowedMentions.none(),
        )
        link.nudge = (link.interaction, sent.id)
