"""``python -m bot``: run Parlour on Discord; ``python -m bot playground``: run it locally.

``python -m bot --shards 0-3 --of 8`` runs one of several shard processes (they share one
PostgreSQL database, ``PARLOUR_DATABASE_URL``): it connects shards 0 to 3 of 8 and hosts the
tables of their servers only.

With no ``DISCORD_TOKEN`` it explains how to create one and invite the bot; then, in a terminal
with the playground installed, it starts the playground, and otherwise (a server, CI) it exits
with status 1.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import sys
from pathlib import Path

import discord

from bot.app import create_bot
from bot.config import ConfigError, Settings, load_settings
from bot.i18n.language import CODES
from bot.logs import configure_logging  # the one logging setup (no secret in any log)

#: What the bot needs in a channel: see the board, post it, embed it with its card picture
#: (an attachment), read button messages, and play a table in a thread of its own
#: (``thread:True``: create it, post in it). It deletes and edits only its own messages, so
#: it needs no Manage Messages.
PERMISSIONS = discord.Permissions(
    view_channel=True, send_messages=True, embed_links=True, attach_files=True,
    read_message_history=True, create_public_threads=True, send_messages_in_threads=True,
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
     View Channel, Send Messages, Embed Links, Attach Files, Read Message History,
     Create Public Threads and Send Messages in Threads.

No token yet, or just trying Parlour? Run the real bot locally in your browser, no token needed:
  make run                            (in a terminal: it starts the playground by itself)
  .venv/bin/python -m bot playground
"""


def invite_url(application_id: int | str = "APPLICATION_ID") -> str:
    """The OAuth2 URL that adds the bot to a server with the scopes and permissions it needs."""
    return discord.utils.oauth_url(
        application_id, permissions=PERMISSIONS, scopes=("bot", "applications.commands")
    )


def run(settings: Settings) -> int:
    """Run the bot on Discord until it is stopped; return the process exit status."""
    bot = create_bot(settings)
    configure_logging(settings.log_level)
    try:
        bot.run(settings.discord_token.get_secret_value(), log_handler=None)
    except discord.LoginFailure:
        print(
            "Discord refused DISCORD_TOKEN. Copy a fresh token from the Bot page of your "
            "application at https://discord.com/developers/applications into .env.",
            file=sys.stderr,
        )
        return 1
    return 0


def playground(settings: Settings, members: str, port: int, browser: bool,
               language: str | None = None) -> int:
    """Run the playground until Ctrl+C (in ``language``; None: English); return the process
    exit status."""
    from bot.playground import PlaygroundUnavailable, member_names, serve

    try:
        names = member_names(members)
    except ValueError as error:
        print(f"--members: {error}", file=sys.stderr)
        return 2
    configure_logging(settings.log_level)
    try:
        with contextlib.suppress(KeyboardInterrupt):
            asyncio.run(serve(settings, names, port, browser, language))
    except PlaygroundUnavailable as error:
        print(error, file=sys.stderr)
        return 1
    return 0


def parse(argv: list[str] | None) -> argparse.Namespace:
    """Read the command line (``argv`` without the program name; None: ``sys.argv``).

    Raises
    ------
    SystemExit
        From :mod:`argparse`, after printing the usage, for ``--help`` or bad arguments.
    """
    from bot.playground import DEFAULT_DATABASE, DEFAULT_MEMBERS, DEFAULT_PORT

    parser = argparse.ArgumentParser(
        prog="python -m bot", description="Parlour: card-table games for Discord."
    )
    parser.add_argument(
        "--shards", metavar="IDS",
        help="the shard ids this process runs, e.g. 0-3 or 0,2 (PARLOUR_SHARDS)",
    )
    parser.add_argument(
        "--of", dest="shard_count", metavar="COUNT", type=int,
        help="the shard count of the whole bot (PARLOUR_SHARD_COUNT)",
    )
    commands = parser.add_subparsers(dest="command", metavar="{playground}")
    local = commands.add_parser(
        "playground",
        help="run the real bot locally in your browser, no Discord token needed",
        description="Run the real bot inside a simulated Discord server shown in your browser.",
    )
    local.add_argument(
        "--port",
        type=int,
        default=DEFAULT_PORT,
        help=f"port of the page on 127.0.0.1 (default {DEFAULT_PORT}; 0 picks a free one)",
    )
    local.add_argument(
        "--members",
        default=",".join(DEFAULT_MEMBERS),
        help="comma-separated member names (default %(default)s)",
    )
    local.add_argument(
        "--database",
        type=Path,
        default=DEFAULT_DATABASE,
        help="SQLite file for the playground's chips (default %(default)s)",
    )
    local.add_argument(
        "--language", choices=CODES, default=None,
        help="the language of #tables and its members (default: English)",
    )
    local.add_argument(
        "--no-browser", dest="browser", action="store_false", help="only print the page's URL"
    )
    return parser.parse_args(argv)


def main(argv: list[str] | None = None) -> int:
    """Entry point of ``python -m bot``; returns the exit status."""
    arguments = parse(argv)
    sharding = {name: value for name in ("shards", "shard_count")
                if (value := getattr(arguments, name)) is not None}
    try:
        settings = load_settings(**sharding)
    except ConfigError as error:
        print(f"Parlour's settings are invalid (see .env.example):\n{error}", file=sys.stderr)
        return 1
    if arguments.command is None:
        if settings.discord_token is not None:
            return run(settings)
        print(NO_TOKEN.format(invite=invite_url()), file=sys.stderr)
        if not (sys.stdin.isatty() and sys.stdout.isatty()):
            return 1
        print("No token: starting the playground now.\n", file=sys.stderr)
        arguments = parse(["playground"])
    local = settings.model_copy(update={"database": arguments.database, "sync": "global"})
    return playground(local, arguments.members, arguments.port, arguments.browser,
                      arguments.language)


if __name__ == "__main__":
    sys.exit(main())
