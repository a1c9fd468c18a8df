"""Troefcall's board and private hand views (rules/troefcall.md §2: what each may see).

:func:`board` renders the public :class:`~engine.troefcall.views.TroefcallTableView`: the
phase, trumps, caller and dealer, the trick being played (who played what, in order), the
tricks of each team and whether the first seven are still one team's, the scores against the
target (or the hands left), the face-up jack search of the first hand, the last hand's result
in words, the winner at the end, a short log and the fairness commitment. Its buttons are the
table's own (My hand, Next deal, Join, I'm back, Leave): every decision of Troefcall is taken
in a private hand view. :func:`hand` renders one seat's
:class:`~engine.troefcall.views.TroefcallSeatView` for that seat only: before trumps the
caller's five cards and the four suits; afterwards the hand, each card a button (only the
legal ones enabled), the redeal claim and kap partij when they are options.

Team ``k`` (``TableInfo.spec.teams[k]``) is the engine's team ``k``: seats ``k`` and ``k + 2``.
"""

from __future__ import annotations

from collections.abc import Sequence

import discord

from bot.images import troefcall as images
from bot.render.common import (
    COLOUR,
    ROW_BUTTONS_MAX,
    by_suit,
    card,
    card_label,
    deadline_line,
    fit,
    plural,
    seat_label,
    suit,
    table_buttons,
)
from bot.runtime.components import TableButton
from bot.runtime.refs import Ref
from bot.runtime.spec import Rendered, TableInfo
from engine.cards import Card, Suit
from engine.core import Option
from engine.troefcall import events as ev
from engine.troefcall.events import TroefcallEvent
from engine.troefcall.phases import Phase
from engine.troefcall.rules import TroefcallRules
from engine.troefcall.scoring import HandResult, team_of
from engine.troefcall.seating import JackSearch
from engine.troefcall.views import TrickView, TroefcallSeatView, TroefcallTableView

LOG_LINES = 8
FIRST_SEVEN = 7
TRICKS = 13

PHASE_TITLES = {
    Phase.NAMING: "Naming trumps",
    Phase.PLAY: "Playing tricks",
    Phase.KAP: "Kap partij?",
    Phase.BETWEEN_HANDS: "Between hands",
    Phase.OVER: "Game over",
}

TEAM_DRAW_TEXT = {
    "choose": "members choose their team in the lobby",
    "random": "teams are drawn at Start (one card each: the two highest play together)",
}
"""The ``teams`` option in words (lobby line and rules card)."""

SUIT_ORDER = (Suit.HEARTS, Suit.SPADES, Suit.DIAMONDS, Suit.CLUBS)
"""The order of the trump buttons (red and black alternate)."""


def suit_name(of: Suit) -> str:
    """``"♥ hearts"`` (♣/♠ as text)."""
    return f"{suit(of)} {of.name.lower()}"


def team_name(table: TableInfo, team: int) -> str:
    """``"Team A"``: the name of engine team ``team`` (seats ``team`` and ``team + 2``)."""
    return table.spec.teams[team]


def partners(table: TableInfo, team: int) -> str:
    """``"Alice & Carol"``: the two seats of ``team``."""
    return f"{seat_label(table, team)} & {seat_label(table, team + 2)}"


def game_end(rules: TroefcallRules) -> str:
    """How the game ends, in words (rules/troefcall.md §2.10 items 50 and 52)."""
    if rules.deals is not None:
        return f"{plural(rules.deals, 'hand')}, the higher score wins (a tie plays on)"
    return f"The first team to {rules.target} points wins"


# ---------------------------------------------------------------------- the board


def board(table: TableInfo, view: TroefcallTableView) -> Rendered:
    """The public board message of a started Troefcall table.

    Parameters
    ----------
    table
        The table (names, ids, runtime notes, deadlines, the session seed once over).
    view
        ``game.public_view()``: no hand, no seed.
    """
    over = view.phase is Phase.OVER
    embed = discord.Embed(
        title=f"Troefcall — table {table.id} · hand {view.hand_number}",
        description=_status(table, view),
        colour=COLOUR,
    )
    embed.add_field(name="Teams", value=_teams(table, view), inline=False)
    trick = _trick_field(table, view)
    if trick is not None:
        embed.add_field(name=trick[0], value=trick[1], inline=False)
    if view.trick_winners:
        embed.add_field(name="Tricks", value=_tricks(table, view), inline=False)
    if view.jack_search is not None and view.hand_number == 1 and not view.results:
        embed.add_field(name="Jack search", value=_jack_search(table, view.jack_search),
                        inline=False)
    if view.last_result is not None and view.phase in (Phase.BETWEEN_HANDS, Phase.OVER):
        embed.add_field(name=f"Hand {view.last_result.hand_number}",
                        value=_announce(table, view, view.last_result), inline=False)
    if over:
        embed.add_field(name="Result", value=_final(table, view), inline=False)
    log = [_event(table, event) for event in _hand_events(view.log)[-LOG_LINES:]]
    lines = [line for line in log if line] + [table.lang.t(note) for note in table.notes]
    if lines:
        embed.add_field(name="Log", value="\n".join(lines[-LOG_LINES:]), inline=False)
    if over:
        embed.set_footer(
            text=f"Session seed (every shuffle can be recomputed from it): {table.seed.hex()}"
        )
    elif view.commitment:
        embed.set_footer(text=f"Shuffle {view.deal_number} commitment SHA-256: "
                              f"{view.commitment}")
    picture = images.board_picture(view)
    if over:
        return Rendered(fit(embed), None, picture)
    ui = discord.ui.View(timeout=None)
    for button in table_buttons(table, view.deal_number, view.phase is Phase.BETWEEN_HANDS):
        ui.add_item(button)
    return Rendered(fit(embed), ui, picture)


def _status(table: TableInfo, view: TroefcallTableView) -> str:
    lines = [f"**{PHASE_TITLES[view.phase]}**"]
    caller = seat_label(table, view.caller)
    match view.phase:
        case Phase.NAMING:
            lines.append(f"{caller} looks at their first five cards and names trumps; the "
                         "other cards are dealt after.")
        case Phase.PLAY if view.turn is not None:
            number = len(view.tricks) + 1
            lines.append(f"Trick {number} of {TRICKS}: {seat_label(table, view.turn)} to "
                         "play — press **My hand**.")
        case Phase.KAP if view.kap is not None:
            kap = view.kap
            rules = view.rules
            lines.append(f"{team_name(table, kap.team)} won the first seven tricks. "
                         f"{seat_label(table, kap.seat)} stops (kap partij, "
                         f"{rules.kap_points}) or leads to trick 8 for all thirteen (baunie, "
                         f"{rules.baunie_points}); {seat_label(table, kap.partner)} may stop "
                         f"too ({rules.partner_kap_points}).")
        case Phase.BETWEEN_HANDS:
            lines.append("Press **Next deal** for the next hand; a member may take an AI seat "
                         "now (Join).")
    if view.phase in (Phase.NAMING, Phase.PLAY, Phase.KAP):  # between hands: the announcement
        trumps = suit_name(view.trump) if view.trump is not None else "not named yet"
        lines.append(f"Trumps: {trumps} · caller {caller} · dealer "
                     f"{seat_label(table, view.dealer)}")
    if view.baunie is not None and view.phase is Phase.PLAY:
        lines.append(f"{team_name(table, view.baunie)} plays for all thirteen tricks (baunie).")
    required = [s for s in view.to_act if s not in view.optional]
    if deadline := deadline_line(table, required):
        lines.append(deadline)
    lines.append(f"{game_end(view.rules)}{_progress(view)}.")
    if view.ending and view.phase is not Phase.OVER:
        lines.append("The game ends after this hand.")
    lines.append("Ranked (members only)" if table.ranked else "Casual (AI seats)")
    return "\n".join(lines)


def _progress(view: TroefcallTableView) -> str:
    """``" · 3 hands left"`` for a game of a number of hands, else nothing."""
    if view.deals is None:
        return ""
    left = view.deals - len(view.results)
    return f" · {plural(left, 'hand')} left" if left > 0 else " · extra hands until a team leads"


def _teams(table: TableInfo, view: TroefcallTableView) -> str:
    lines = []
    for team in range(2):
        members = []
        for seat in (team, team + 2):
            marks = [m for m, s in (("caller", view.caller), ("dealer", view.dealer))
                     if s == seat and view.phase is not Phase.OVER]
            if table.seats[seat].leaving:
                marks.append("leaving")
            mark = f" ({', '.join(marks)})" if marks else ""
            members.append(f"{'▶ ' if seat in view.to_act else ''}{seat_label(table, seat)}"
                           f"{mark}")
        tricks = "" if view.phase is Phase.NAMING else \
            f" · {plural(view.tricks_won[team], 'trick')}"
        lines.append(f"**{team_name(table, team)}** — {' & '.join(members)}: "
                     f"**{view.scores[team]}** {'point' if view.scores[team] == 1 else 'points'}"
                     f"{tricks}")
    return "\n".join(lines)


def _plays(table: TableInfo, trick: TrickView) -> str:
    return " · ".join(f"{seat_label(table, p.seat)} {card(p.card)}" for p in trick.plays)


def _trick_field(table: TableInfo, view: TroefcallTableView) -> tuple[str, str] | None:
    """The trick being played, else the last one completed (with its winner)."""
    if view.trick is not None:
        return f"Trick {view.trick.number}", _plays(table, view.trick)
    if view.tricks and view.phase is not Phase.NAMING:
        last = view.tricks[-1]
        winner = seat_label(table, last.winner) if last.winner is not None else "?"
        plays = _plays(table, last) if last.plays else "(cards not recorded)"
        return f"Trick {last.number} — won by {winner}", plays
    return None


def _tricks(table: TableInfo, view: TroefcallTableView) -> str:
    """Who won each trick (by team letter) and whether the first seven are one team's."""
    letters = [team_name(table, team_of(w))[-1] for w in view.trick_winners]
    line = f"Winners by trick: {' '.join(letters)}"
    first = {team_of(w) for w in view.trick_winners[:FIRST_SEVEN]}
    done = len(view.trick_winners)
    if len(first) > 1:
        return f"{line}\nThe first seven are split: no kap partij this hand."
    team = team_name(table, first.pop())
    if done >= FIRST_SEVEN:
        return f"{line}\n{team} won the first seven tricks."
    return f"{line}\nFirst seven still unbroken: {team} has {done} of 7."


def _jack_search(table: TableInfo, search: JackSearch) -> str:
    """The face-up deal that chose the first caller (§2.2, A10): public, not this hand's."""
    dealt = " · ".join(
        f"{seat_label(table, (search.start + i) % 4)} {card(c)}"
        for i, c in enumerate(search.cards)
    )
    return (f"Dealt face up from a separate pack until a jack: {dealt}\n"
            f"{seat_label(table, search.caller)} got the jack and calls trumps first; "
            f"{seat_label(table, search.dealer)} deals.")


def _why(table: TableInfo, result: HandResult) -> str:
    scorer = team_name(table, result.team)
    won = result.tricks[result.team]
    match result.reason:
        case "seven":
            return f"{scorer} took {won} tricks, not the first seven in a row"
        case "kap":
            who = seat_label(table, result.seat) if result.seat is not None else "?"
            return (f"{scorer} won the first seven tricks and {who}, the winner of trick 7, "
                    "said kap partij")
        case "partner_kap":
            who = seat_label(table, result.seat) if result.seat is not None else "?"
            return (f"{scorer} won the first seven tricks and {who}, partner of the winner of "
                    "trick 7, said kap partij")
        case "baunie":
            return f"{scorer} won all thirteen tricks (baunie)"
    other = team_name(table, 1 - result.team)
    return (f"{other} won the first seven, played on for all thirteen and lost trick "
            f"{sum(result.tricks)}")


def _announce(table: TableInfo, view: TroefcallTableView, result: HandResult) -> str:
    """The last hand's result in words: who scored how many and why, then who deals and
    calls next (§2.8, §2.9)."""
    scorer = team_name(table, result.team)
    lines = [f"**{scorer} scores {plural(result.points, 'point')}**: {_why(table, result)}.",
             f"Score: {team_name(table, 0)} {result.scores[0]} · "
             f"{team_name(table, 1)} {result.scores[1]}."]
    if view.phase is not Phase.OVER:
        dealer = seat_label(table, result.next_dealer)
        caller = seat_label(table, result.next_caller)
        why = ("the dealer's team scored, so the deal passes left" if result.rotated
               else "the caller's team scored, so the deal stays")
        lines.append(f"Next hand: {dealer} deals and {caller} calls ({why}).")
    return "\n".join(lines)


def _final(table: TableInfo, view: TroefcallTableView) -> str:
    a, b = view.scores
    score = f"{team_name(table, 0)} {a} · {team_name(table, 1)} {b}"
    if view.winner is None:
        return f"The game ended without a winner. Final score: {score}."
    return (f"🏆 **{team_name(table, view.winner)} wins** "
            f"({partners(table, view.winner)}). Final score: {score}.")


def _hand_events(log: Sequence[TroefcallEvent]) -> list[TroefcallEvent]:
    """The events since the last hand began (a redeal's included), or the whole log."""
    start = max((i for i, e in enumerate(log)
                 if isinstance(e, ev.DealStarted) and not e.redeal), default=0)
    return list(log[start:])


def _event(table: TableInfo, event: TroefcallEvent) -> str:
    """One log line for an event; every card in it is public by the rules (§2)."""
    name = lambda seat: seat_label(table, seat)  # noqa: E731
    team = lambda index: team_name(table, index)  # noqa: E731
    match event:
        case ev.JackSearched(search=search):
            return f"The first jack went to {name(search.caller)}."
        case ev.DealStarted(redeal=True, hand_number=number):
            return f"Hand {number} is dealt again."
        case ev.DealStarted(hand_number=number, dealer=dealer, caller=caller):
            return f"Hand {number}: {name(dealer)} deals, {name(caller)} calls trumps."
        case ev.TrumpNamed(seat=seat, suit=named):
            return f"{name(seat)} names {suit_name(named)} trumps."
        case ev.Redealt(seat=seat):
            return f"{name(seat)} shows a hand without K, Q or J and claims a redeal."
        case ev.TrickWon(seat=seat, trick=number, tricks=(a, b)):
            return f"Trick {number} to {name(seat)} ({team(0)} {a} · {team(1)} {b})."
        case ev.KapOffered(seat=seat):
            return f"{team(team_of(seat))} won the first seven: kap partij or play on?"
        case ev.KapCalled(seat=seat):
            return f"{name(seat)} says kap partij."
        case ev.BaunieCommitted(seat=seat, team=index):
            return f"{name(seat)} leads to trick 8: {team(index)} plays for all thirteen."
        case ev.HandScored(result=result):
            return f"{team(result.team)} scores {plural(result.points, 'point')}."
        case ev.GameOver(winner=None):
            return "The game ended without a winner."
        case ev.GameOver(winner=winner):
            return f"{team(winner)} wins the game."
    return ""  # a card played shows in the trick field


# ---------------------------------------------------------------------- a private hand


def hand(table: TableInfo, view: TroefcallSeatView) -> Rendered:
    """Seat ``view.seat``'s private message: its cards and its controls.

    Only ``view`` (what that seat may see) is read; send the result ephemerally to the
    seat's member. Before trumps are named only the caller holds cards (his first five).
    """
    public = view.table
    embed = discord.Embed(
        title=f"Your hand — Troefcall table {table.id} · hand {public.hand_number}",
        description=by_suit(view.hand) or "No cards yet.",
        colour=COLOUR,
    )
    trumps = suit_name(public.trump) if public.trump is not None else "not named yet"
    embed.add_field(
        name="You",
        value=f"{team_name(table, view.team)} with {seat_label(table, view.partner)} · "
              f"trumps: {trumps}",
        inline=False,
    )
    if public.trick is not None:
        embed.add_field(name=f"Trick {public.trick.number}", value=_plays(table, public.trick),
                        inline=False)
    embed.add_field(name="Now", value=_hand_status(table, view), inline=False)
    embed.set_footer(text="Only you can see this. Press My hand on the board for a fresh view.")
    held = tuple(int(c) for c in _suit_sorted(view.hand))
    return Rendered(fit(embed), _hand_view(table, view), images.hand_picture(view, held))


def _hand_status(table: TableInfo, view: TroefcallSeatView) -> str:
    kinds = {option.kind for option in view.options}
    public = view.table
    if "name_trump" in kinds:
        return ("You are the trump caller: name trumps from these five cards. The other "
                "eight are dealt to you after, and you lead to the first trick.")
    rules = public.rules
    if kinds == {"kap"}:
        return ("Your team won the first seven tricks. Say **kap partij** to stop now for "
                f"{plural(rules.partner_kap_points, 'point')}, or leave it to "
                f"{seat_label(table, view.partner)} (kap partij for {rules.kap_points}, or "
                "lead to trick 8 for all thirteen).")
    if "kap" in kinds:
        return ("Your team won the first seven tricks and you won trick 7: **kap partij** "
                f"stops for {plural(rules.kap_points, 'point')}; leading a card to trick 8 "
                f"plays on for all thirteen ({rules.baunie_points} points, but losing any "
                f"later trick gives the other team {rules.failed_baunie_points}).")
    if "play" in kinds:
        led = public.trick.plays[0].card.suit if public.trick is not None else None
        text = "Your lead: play any card." if led is None else \
            f"Your turn: follow {suit_name(led)} if you can."
        if "redeal" in kinds:
            text += (" You hold no K, Q or J: you may show your hand and claim a redeal "
                     "instead.")
        return text
    waiting = ", ".join(seat_label(table, s) for s in public.to_act)
    if public.phase is Phase.NAMING:
        return f"{waiting} is naming trumps; your cards are dealt after."
    return f"Nothing to decide now; waiting for {waiting}." if waiting else "Nothing to do."


def _hand_view(table: TableInfo, view: TroefcallSeatView) -> discord.ui.View | None:
    """Trump buttons; or the hand as card buttons (legal ones enabled, at most 13 in rows
    0-2) with the redeal claim and kap partij in row 3."""
    ui = discord.ui.View(timeout=None)
    seat, decision = view.seat, view.decision_id
    by_kind: dict[str, Option] = {option.kind: option for option in view.options}
    if "name_trump" in by_kind:
        for named in SUIT_ORDER:
            ui.add_item(TableButton(Ref(table.id, "trump", seat, decision, named.letter),
                                    label=f"Trumps: {suit_name(named)}",
                                    style=discord.ButtonStyle.primary, row=0))
        return ui
    if "play" in by_kind:
        legal = set(by_kind["play"].cards)
        for index, held in enumerate(_suit_sorted(view.hand)):
            ui.add_item(TableButton(
                Ref(table.id, "play", seat, decision, str(int(held))),
                label=card_label(held),
                style=discord.ButtonStyle.primary if held in legal
                else discord.ButtonStyle.secondary,
                disabled=held not in legal,
                row=index // ROW_BUTTONS_MAX,
            ))
    if "redeal" in by_kind:
        ui.add_item(TableButton(Ref(table.id, "redeal", seat, decision),
                                label="Show hand and redeal (no K, Q or J)",
                                style=discord.ButtonStyle.secondary, row=3))
    if "kap" in by_kind:
        rules = view.table.rules
        points = rules.kap_points if "play" in by_kind else rules.partner_kap_points
        ui.add_item(TableButton(Ref(table.id, "kap", seat, decision),
                                label=f"Kap partij (stop: {plural(points, 'point')})",
                                style=discord.ButtonStyle.danger, row=3))
    return ui if ui.children else None


def _suit_sorted(held: Sequence[Card]) -> list[Card]:
    """The hand in the order :func:`bot.render.common.by_suit` shows it (♣ ♦ ♥ ♠, low to
    high)."""
    return sorted(held, key=lambda c: (c.suit, c.rank))


# ---------------------------------------------------------------------- the rules


def rules_card(rules: TroefcallRules, teams: str, source: str) -> Rendered:
    """``/troefcall rules``: a table's rules in plain words.

    Parameters
    ----------
    rules
        The rules to show.
    teams
        The ``teams`` option (``"choose"`` or ``"random"``).
    source
        Whose rules they are (a table, the channel's house rules, the default), one sentence.
    """
    embed = discord.Embed(
        title="Troefcall rules",
        description=f"{game_end(rules)}; {TEAM_DRAW_TEXT[teams]}.\n{source}",
        colour=COLOUR,
    )
    embed.add_field(name="Play", value=(
        "Four players, partners sit opposite. The trump caller sees five cards and names "
        "trumps; then everyone gets thirteen. Follow suit if you can, otherwise play any "
        "card; the highest trump, else the highest card of the suit led, wins the trick. A "
        "caller without K, Q or J may claim a redeal before leading."), inline=False)
    embed.add_field(name="Scoring (one team scores each hand)", value="\n".join((
        f"• 7 tricks or more, not the first seven: {rules.seven_points}",
        f"• first seven, then kap partij by the winner of trick 7: {rules.kap_points}",
        f"• first seven, then kap partij by his partner: {rules.partner_kap_points}",
        f"• all thirteen (baunie): {rules.baunie_points}",
        f"• first seven, played on and lost a trick: {rules.failed_baunie_points} to the "
        "other team",
    )), inline=False)
    embed.add_field(name="Dealer and caller", value=(
        "A face-up deal until a jack chooses the first caller; the dealer sits on his right. "
        "When the caller's team scores, both stay; otherwise the deal passes one seat left."),
        inline=False)
    return Rendered(fit(embed), None)

