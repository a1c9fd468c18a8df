"""Answering an interaction exactly once and in time, and the one answer to a failure.

:func:`within_deadline` runs slow work (the store may take seconds) and defers the
interaction first when the work is not done within :data:`ACK_BUDGET`, so Discord's 3 seconds
are always kept (case C04); :func:`reply` then sends the one answer, as the response or as the
follow-up that completes the deferral. :func:`answer_failure` gives a kind, private sentence
and a log line for a failure (case C06). Used by the slash commands (``cogs``), the
command tree (:class:`bot.app.ParlourBot`) and the table runtime
(:mod:`bot.runtime.interactions`). It
imports nothing of the bot but the store's error and the catalogs, so all can use it without
an import cycle. Failures are told in the member's language (their ``/settings language`` if
already read, else their Discord client's).

Visibility after a deferral: a command whose answer is private defers privately. A command
whose success is public (``/chips give``, ``/leaderboard``, ``/tripoli start``) defers
publicly, so its result completes the public "thinking…" message, posted by the member's
command like any answer; a refusal found after such a deferral (rare: the store was slow
and the gift too large, or the channel got a table meanwhile) closes that message with "…",
deletes it and is sent as a private follow-up, so the channel sees nothing of the refusal
(DESIGN.md §4 "Every refusal is ephemeral").
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable
from typing import Any, TypeVar

import discord
from discord import app_commands

from bot.i18n import ENGLISH, Language, language
from bot.store import StoreError

T = TypeVar("T")

log = logging.getLogger("parlour.replies")

ACK_BUDGET = 2.0
"""Seconds a handler may work before it defers its interaction (Discord allows 3)."""

GENERIC_FAILURE = ENGLISH.t("failure.generic")
"""The answer to a bug, in English (tests)."""


async def answer_failure(interaction: discord.Interaction, error: BaseException) -> None:
    """Tell the member privately why their interaction failed, and log the cause.

    Expected refusals (checks, cooldowns, unreadable options) are logged at DEBUG; anything
    else with its traceback at ERROR. An interaction not yet acknowledged gets an ephemeral
    response; a deferred (or already answered) one gets an ephemeral follow-up, so a
    "thinking…" answer never stays forever. The log line names the command or the kind of
    interaction, the member and the channel, never a component's custom_id or values (they
    can name cards of a private hand).

    Parameters
    ----------
    interaction
        The interaction that failed.
    error
        What was raised (an ``AppCommandError`` wrapping the cause, or the cause itself).
    """
    cause = error.original if isinstance(error, app_commands.CommandInvokeError) else error
    lang = member_language(interaction)
    text = failure_text(cause, lang)
    if text is None:
        log.error("interaction %s failed", describe(interaction), exc_info=cause)
        text = lang.t("failure.generic")
    else:
        log.debug("interaction %s refused: %s", describe(interaction), cause)
    try:
        await reply(interaction, ephemeral=True, content=text)
    except discord.HTTPException as failure:  # expired token, or answered meanwhile
        log.warning("could not answer interaction %s: %s", describe(interaction), failure)


RECEIVED = "parlour.received"
"""The key of :attr:`discord.Interaction.extras` under which :func:`received` keeps when the
bot began handling the interaction."""


def received(interaction: discord.Interaction) -> float:
    """The event loop's time (seconds) when the bot began handling ``interaction``: the
    first time this is asked for it (the runtime asks as a click or an amount modal comes in;
    else the first :func:`within_deadline` of it asks)."""
    return interaction.extras.setdefault(RECEIVED, asyncio.get_running_loop().time())


def budget_left(interaction: discord.Interaction) -> float:
    """Seconds left of :data:`ACK_BUDGET` since the interaction was :func:`received`
    (0 when it is used up)."""
    spent = asyncio.get_running_loop().time() - received(interaction)
    return max(0.0, ACK_BUDGET - spent)


async def within_deadline(
    interaction: discord.Interaction, work: Awaitable[T], *, ephemeral: bool = True
) -> T:
    """Run ``work``; if it is not done within :data:`ACK_BUDGET` seconds of the interaction
    being :func:`received` (each call counts from there, not from its own start), defer the
    interaction first, so it is acknowledged within Discord's 3 seconds (case C04).

    A click gets a "deferred update" (its answer edits the clicked message); a command gets
    a "thinking…" answer, private or public as ``ephemeral`` says (the visibility its answer
    will have; see the module's note). The work runs once whether or not it defers.

    Parameters
    ----------
    interaction
        The interaction being answered (not yet acknowledged, or nothing happens to it).
    work
        The slow part (store reads and writes); awaited exactly once.
    ephemeral
        For a command: whether its answer is private (a refusal may still be private
        after a public deferral, see :func:`reply`).

    Returns
    -------
    T
        What ``work`` returns; what it raises is raised.
    """
    task = asyncio.ensure_future(work)
    done, _ = await asyncio.wait({task}, timeout=budget_left(interaction))
    if not done and not interaction.response.is_done():
        command = interaction.type is discord.InteractionType.application_command
        await interaction.response.defer(ephemeral=command and ephemeral, thinking=command)
    return await task


async def reply(
    interaction: discord.Interaction, *, ephemeral: bool = False, **message: Any
) -> int | None:
    """Send the interaction's one answer: its response, or after a deferral the follow-up
    that completes the "thinking…" message.

    A private answer after a public deferral first closes and deletes the public
    "thinking…" message (Discord keeps a deferral's visibility for the follow-up that
    completes it), so only a bare "…" shows in the channel for a moment.

    Parameters
    ----------
    interaction
        The interaction to answer.
    ephemeral
        Whether only the member sees the answer.
    **message
        ``content``, ``embed``, ``view`` … as for ``send_message`` (None values are left out).

    Returns
    -------
    int | None
        The id of the message that holds the answer (None if Discord did not say).

    Raises
    ------
    discord.HTTPException
        When Discord refuses the answer.
    """
    message = {key: value for key, value in message.items() if value is not None}
    if not interaction.response.is_done():
        callback = await interaction.response.send_message(ephemeral=ephemeral, **message)
        return callback.message_id
    if (ephemeral and interaction.response.type
            is discord.InteractionResponseType.deferred_channel_message
            and not (await interaction.original_response()).flags.ephemeral):
        # the next follow-up would complete the public "thinking…" message, which keeps its
        # visibility: complete it with a bare ellipsis and delete it, so the answer is new
        await interaction.edit_original_response(content="…")
        await interaction.delete_original_response()
    sent = await interaction.followup.send(ephemeral=ephemeral, wait=True, **message)
    return sent.id


def member_language(interaction: discord.Interaction) -> Language:
    """The language to tell ``interaction``'s member privately: their chosen one when the
    bot has read it, else their Discord client's; the commands named as their client lists
    them."""
    tables = getattr(interaction.client, "tables", None)
    chosen = tables.languages.chosen(f"user:{interaction.user.id}") if tables else None
    return language(chosen or str(interaction.locale)).for_client(interaction.locale)


def failure_text(error: BaseException, lang: Language = ENGLISH) -> str | None:
    """The sentence shown for an expected failure, or None for a bug (generic answer)."""
    match error:
        case StoreError():
            return lang.t("failure.store")
        case app_commands.NoPrivateMessage():
            return lang.t("failure.no_dm")
        case app_commands.MissingPermissions(missing_permissions=missing):
            names = ", ".join(name.replace("_", " ").title() for name in missing)
            return lang.t("failure.permission", names=names)
        case app_commands.CommandOnCooldown(retry_after=seconds):
            return lang.t("failure.cooldown", seconds=round(seconds))
        case app_commands.TransformerError(value=value):
            return lang.t("failure.option", value=str(value))
        case app_commands.CheckFailure():
            return lang.t("failure.check")
    return None


def describe(interaction: discord.Interaction) -> str:
    """``'chips give' by 42 in channel 7`` or ``component by 42 in channel 7``: who did
    what, for a log line, without custom_ids or chosen values."""
    command = interaction.command.qualified_name if interaction.command else None
    what = repr(command) if command else interaction.type.name
    return f"{what} by {interaction.user.id} in channel {interaction.channel_id}"
