"""``python -m bot``: run Parlour on Discord with ``DISCORD_TOKEN``.

With no token it explains how to create one and invite the bot, and exits with status 1.
"""

from __future__ import annotations

import logging
import sys

import discord

from bot.app import create_bot
from bot.config import ConfigError, Settings, load_settings

#: What the bot needs in a channel: see the board, post it, embed it, read button messages.
PERMISSIONS = discord.Permissions(
    view_channel=True, send_messages=True, embed_links=True, read_message_history=True
)

NO_TOKEN = """\
Parlour needs a Discord bot token, and DISCORD_TOKEN is not set.

To get one:
  1. Open https://discord.com/developers/applications and click "New Application".
  2. On the "Bot" page, click "Reset Token" and copy the token.
     Parlour needs no privileged gateway intents.
  3. Put it in a file named .env in this folder:   DISCORD_TOKEN=<your token>
     (.env.example documents every setting.)
  4. Invite the bot to your server: open this URL with your Application ID
     (on the "General Information" page) in place of APPLICATION_ID:
     {invite}
     It asks for the scopes bot and applications.commands and the permissions
     View Channel, Send Messages, Embed Links and Read Message History.

No token yet, or just trying Parlour? Run the real bot locally in your browser, no token needed:
  python -m bot playground
"""


def invite_url(application_id: int | str = "APPLICATION_ID") -> str:
    """The OAuth2 URL that adds the bot to a server with the scopes and permissions it needs."""
    return discord.utils.oauth_url(
        application_id, permissions=PERMISSIONS, scopes=("bot", "applications.commands")
    )


def run(settings: Settings) -> int:
    """Run the bot on Discord until it is stopped; return the process exit status."""
    if settings.discord_token is None:
        print(NO_TOKEN.format(invite=invite_url()), file=sys.stderr)
        return 1
    bot = create_bot(settings)
    try:
        bot.run(
            settings.discord_token.get_secret_value(),
            log_level=logging.getLevelName(settings.log_level),
            root_logger=True,
        )
    except discord.LoginFailure:
        print(
            "Discord refused DISCORD_TOKEN. Copy a fresh token from the Bot page of your "
            "application at https://discord.com/developers/applications into .env.",
            file=sys.stderr,
        )
        return 1
    return 0


def main() -> int:
    """Entry point of ``python -m bot``; returns the exit status."""
    try:
        settings = load_settings()
    except ConfigError as error:
        print(f"Parlour's settings are invalid (see .env.example):\n{error}", file=sys.stderr)
        return 1
    return run(settings)


if __name__ == "__main__":
    sys.exit(main())
