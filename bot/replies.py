"""The one answer to an interaction that failed: a kind, private sentence, and a log line.

Used by the slash-command tree (:class:`bot.app.ParlourBot`) and by the table runtime
(:mod:`bot.table_ui`), so every failure anywhere reads the same and is answered exactly once
(DESIGN.md §4, case C06). It imports nothing of the bot but the store's error, so both can
use it without an import cycle.
"""

from __future__ import annotations

import logging

import discord
from discord import app_commands

from bot.store import StoreError

log = logging.getLogger("parlour.replies")

GENERIC_FAILURE = (
    "Sorry, something went wrong on Parlour's side. Please try again; "
    "if it keeps happening, tell a server admin."
)
STORE_FAILURE = "The chip bank did not answer in time; nothing was changed. Please try again."


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
    text = failure_text(cause)
    if text is None:
        log.error("interaction %s failed", describe(interaction), exc_info=cause)
        text = GENERIC_FAILURE
    else:
        log.debug("interaction %s refused: %s", describe(interaction), cause)
    try:
        if interaction.response.is_done():
            await interaction.followup.send(text, ephemeral=True)
        else:
            await interaction.response.send_message(text, ephemeral=True)
    except discord.HTTPException as failure:  # expired token, or answered meanwhile
        log.warning("could not answer interaction %s: %s", describe(interaction), failure)


def failure_text(error: BaseException) -> str | None:
    """The sentence shown for an expected failure, or None for a bug (generic answer)."""
    match error:
        case StoreError():
            return STORE_FAILURE
        case app_commands.NoPrivateMessage():
            return "This command works in a server channel, not in direct messages."
        case app_commands.MissingPermissions(missing_permissions=missing):
            names = ", ".join(name.replace("_", " ").title() for name in missing)
            return f"You need the {names} permission for that."
        case app_commands.CommandOnCooldown(retry_after=seconds):
            return f"Slow down a little: try again in {seconds:.0f} s."
        case app_commands.TransformerError(value=value):
            return f"I could not understand `{value}` for that option."
        case app_commands.CheckFailure():
            return "You can't use this command here."
    return None


def describe(interaction: discord.Interaction) -> str:
    """``'chips give' by 42 in channel 7`` or ``component by 42 in channel 7``: who did
    what, for a log line, without custom_ids or chosen values."""
    command = interaction.command.qualified_name if interaction.command else None
    what = repr(command) if command else interaction.type.name
    return f"{what} by {interaction.user.id} in channel {interaction.channel_id}"
