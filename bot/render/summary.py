"""Deal and end-of-game summaries on the board, the same for every game.

Between deals the board gets the game's :class:`~bot.runtime.spec.DealSummary` (who took what,
each player's or team's change), as one field near its top (:func:`add_deal`). The final
board gets the standings of the engine's :class:`~engine.core.Outcome` (places, scores in the
game's :attr:`~bot.runtime.spec.GameSpec.score_noun`, chips won or lost), how the game counted
for the ratings (:class:`RatingNote`: each member's conservative rating ``mu - 3 sigma``
before and after, or why it was not rated) and two buttons (:func:`final`): **Rematch** (a
:func:`~bot.runtime.components.table_button`, answered by the table runtime) and **My record**
(custom_id :func:`record_id`, answered by the ``/stats`` cog). Both work after a restart:
their custom_ids hold what they need. Every text is the table's language's
(``summary.*`` messages of the catalogs); the deal summary's lines are the game's.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

import discord

from bot.render.common import FIELD_VALUE_MAX, fit, seat_label, team_name, truncate
from bot.runtime.components import table_button
from bot.runtime.refs import Ref
from bot.runtime.spec import DealSummary, GameAdapter, Rendered, TableInfo
from engine.core import Game, Outcome

RECORD_TEMPLATE = r"st:(?P<game>[a-z]{1,16})"
"""The custom_id pattern of the final board's **My record** button."""

Unrated = Literal["casual", "substituted", "unplayed", "incomplete", "sides", "unknown"]
"""Why a finished game did not change the ratings (catalog ``summary.unrated.<why>``)."""


@dataclass(frozen=True)
class RatingNote:
    """How a finished game counted for the ratings (read from the store after its commit).

    Attributes
    ----------
    changes
        ``(seat, before, after)`` of each rated member: conservative ratings ``mu - 3 sigma``
        in rating points (:mod:`bot.ratings`), in seat order. Empty when not rated.
    unrated
        Why the game was not rated, None when it was.
    """

    changes: tuple[tuple[int, float, float], ...] = ()
    unrated: Unrated | None = None


def record_id(game: str) -> str:
    """The custom_id of the **My record** button of ``game`` (:data:`RECORD_TEMPLATE`)."""
    return f"st:{game}"


def board(adapter: GameAdapter, table: TableInfo, game: Game, note: RatingNote | None) -> Rendered:
    """A started table's board as the runtime shows it: the game's own board (and its
    picture), with its last deal's summary between deals and at the end, and once the game
    is over the final standings, the ratings (``note``; None: not known) and the end
    buttons. The game's board comes fitted (:meth:`GameAdapter.board`): it is fitted again
    only when a summary was added."""
    rendered = adapter.board(table, game)
    dealt = adapter.deal_summary(table, game) if game.between_deals or game.is_over else None
    if dealt is not None:
        add_deal(table, rendered.embed, dealt)
    if game.is_over and game.outcome is not None:
        ended = final(table, rendered.embed, game.outcome, note or RatingNote(unrated="unknown"))
        return Rendered(ended.embed, ended.view, rendered.describe)
    if dealt is None:
        return rendered
    return Rendered(fit(rendered.embed, table.lang), rendered.view, rendered.describe)


def _at_top(embed: discord.Embed, index: int, name: str, value: str) -> None:
    embed.insert_field_at(min(index, len(embed.fields)), name=name,
                          value=truncate(value, FIELD_VALUE_MAX), inline=False)


def add_deal(table: TableInfo, embed: discord.Embed, summary: DealSummary) -> None:
    """Add the deal's summary to a board, as its second field (after the game's first, the
    spaces or the players), so that trimming a long board drops the log first."""
    lang = table.lang
    changes = lang.join((lang.join([who, f"**{lang.grouped(delta, signed=True)}**"], " ")
                         for who, delta in summary.deltas), " · ")
    lines = [*summary.lines,
             lang.t(f"summary.changes.{table.spec.deal_noun}.{summary.unit}",
                    changes=changes or "–")]
    _at_top(embed, 1, summary.title, "\n".join(lines))


def standings(table: TableInfo, outcome: Outcome) -> str:
    """The places, best first: a team's seats together (teams tied at a place, as in a game
    ended before anyone scored, each on a line of that place); the score in the game's
    ``score_noun``; the chips won or lost when the game keeps them; who won (or that nobody
    did)."""
    t = table.lang.t
    lines, first = [], ""
    for place, shared in enumerate(outcome.places, start=1):
        groups = _by_team(shared, outcome.teams)
        for group in groups:
            label, won = _who(table, outcome, group)
            score = t(f"summary.score.{table.spec.score_noun}",
                      count=outcome.scores.get(group[0], 0))
            if outcome.chips is not None and len(group) == 1:
                score += f" ({table.lang.grouped(outcome.chips.get(group[0], 0), signed=True)})"
            lines.append(t("summary.place", place=place, who=label, score=score))
            if len(groups) > 1:
                won = t("summary.tie", who=table.lang.join(
                    (seat_label(table, seat) for seat in shared), " & "))
            first = first or won
    if not outcome.complete:
        lines.append(t("summary.no_winner"))
    elif first:
        lines.insert(0, first)
    return "\n".join(lines) or t("summary.nobody")


def _by_team(group: tuple[int, ...], teams: tuple[tuple[int, ...], ...]) -> list[tuple[int, ...]]:
    """The seats of one place split by team (the place itself when it is not made of
    whole teams' seats, or the game has none)."""
    split = [part for seats in teams if (part := tuple(s for s in group if s in seats))]
    return split if sum(map(len, split)) == len(group) else [group]


def _who(table: TableInfo, outcome: Outcome, group: tuple[int, ...]) -> tuple[str, str]:
    """How a place's line names ``group`` (its team, or its players), and the sentence
    naming it the winner."""
    t = table.lang.t
    team = next((k for k, seats in enumerate(outcome.teams) if set(group) <= set(seats)), None)
    names = table.lang.join((seat_label(table, seat) for seat in group), " & ")
    if team is not None and team < len(table.spec.teams):
        return (t("summary.team", team=team_name(table, team), names=names),
                t("summary.team_winner", team=team_name(table, team), names=names))
    return (f"**{names}**",
            t("summary.winner" if len(group) == 1 else "summary.tie", who=names))


def ratings(table: TableInfo, note: RatingNote) -> str:
    """Each rated member's rating before → after (``mu - 3 sigma``), or why none changed."""
    if note.unrated is not None:
        return table.lang.commands(table.lang.t(f"summary.unrated.{note.unrated}"))
    return "\n".join(table.lang.t("summary.rating_line", name=seat_label(table, seat),
                                  before=f"{before:.1f}", after=f"{after:.1f}",
                                  change=f"{after - before:+.1f}")
                     for seat, before, after in note.changes)


def final(table: TableInfo, embed: discord.Embed, outcome: Outcome, note: RatingNote) -> Rendered:
    """The final board: the game's last board with the standings and the ratings on top, and
    the **Rematch** and **My record** buttons."""
    t = table.lang.t
    _at_top(embed, 0, t("summary.final_standings"), standings(table, outcome))
    _at_top(embed, 1, t("summary.ratings"), ratings(table, note))
    view: discord.ui.View = discord.ui.View(timeout=None)
    view.add_item(table_button(Ref(table.id, "rematch"), label=t("button.rematch"),
                               style=discord.ButtonStyle.success))
    record: discord.ui.Button[Any] = discord.ui.Button(
        custom_id=record_id(table.spec.name), label=t("button.record"),
        style=discord.ButtonStyle.secondary)
    view.add_item(record)
    return Rendered(fit(embed, table.lang), view)
