"""Finding cards in what the bot shows: messages, embeds, components and log lines.

Cards appear bold or as code spans in embeds (``**10♣**``), as plain names on components and in
text, as card ids in select option values and in some custom_ids (``lead:<id>``), and in the
pictures attached to boards and hands: an embed's image (``attachment://<name>``) or a
message's attachment is looked up in the bot's picture cache, whose description lists the
cards the picture shows (an attachment the cache does not know fails the scan).
Used by the Tripoli session tests to check rules/tripoli.md §2.10 (nobody sees a card they
may not see).
"""

from __future__ import annotations

import re
from typing import Any

import discord

from bot.images.cache import PICTURES
from engine.cards import parse_card

CODE_CARD = re.compile(r"(?:`|\*\*)(10|[2-9JQKA])([♣♦♥♠])\ufe0e?(?:`|\*\*)")
"""A card in an embed: bold (``**10♣**``, ♣/♠ may carry U+FE0E; bot.render.tripoli) or a
code span (older boards)."""
PLAIN_CARD = re.compile(r"(?<![0-9A-Za-z])(10|[2-9JQKA])([♣♦♥♠])")
CARD_ARG = re.compile(r"\bp[lsm]:[0-9a-z]{4,12}:[^:\s]+:[a-z_]+:(\d{1,2})\b")
"""A component custom_id whose argument is a card id (``pl:<table>:<decision>:lead:<id>``)."""


def embed_texts(embeds: list[discord.Embed]) -> list[str]:
    """Every text of the embeds: titles, descriptions, footers, field names and values."""
    texts: list[str] = []
    for embed in embeds:
        texts += [embed.title or "", embed.description or "", embed.footer.text or ""]
        for field in embed.fields:
            texts += [field.name or "", field.value or ""]
    return texts


def component_texts(rows: list[dict[str, Any]]) -> list[str]:
    """Labels, placeholders and option labels of component rows (as dicts)."""
    texts: list[str] = []
    for row in rows:
        for child in row.get("components", []):
            texts += [child.get("label") or "", child.get("placeholder") or ""]
            texts += [option["label"] for option in child.get("options", [])]
    return texts


def picture_cards(name: str) -> set[int]:
    """Card ids the picture attached as ``name`` shows (its description's inputs)."""
    picture = PICTURES.shown(name.rsplit("/", 1)[-1])
    assert picture is not None, f"attachment {name} is no picture the bot drew"
    return set(picture.cards())


def shown_cards(embeds: list[discord.Embed], rows: list[dict[str, Any]]) -> set[int]:
    """Card ids a message shows: code spans in embeds, card names on components and the
    embeds' pictures."""
    found = set()
    for embed in embeds:
        if embed.image.url:
            found |= picture_cards(embed.image.url)
    for text in embed_texts(embeds):
        found |= {int(parse_card(rank + suit)) for rank, suit in CODE_CARD.findall(text)}
    for text in component_texts(rows):
        found |= {int(parse_card(rank + suit)) for rank, suit in PLAIN_CARD.findall(text)}
    for row in rows:
        for child in row.get("components", []):
            found |= {int(option["value"]) for option in child.get("options", [])}
    return found


def named_cards(text: str) -> set[int]:
    """Card ids a plain text (a message's content, a log line) names: card names like
    ``10♣`` and card ids in component custom_ids."""
    found = {int(parse_card(rank + suit)) for rank, suit in PLAIN_CARD.findall(text)}
    return found | {int(card) for card in CARD_ARG.findall(text)}


def message_cards(message: Any) -> set[int]:
    """Every card a simcord message shows: content, embeds and components."""
    rows = [row if isinstance(row, dict) else row.to_dict() for row in message.components]
    found = shown_cards(message.embeds, rows) | named_cards(message.content or "")
    for attachment in message.attachments:
        found |= picture_cards(attachment.filename)
    return found
