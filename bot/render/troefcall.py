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
from functools import partial

import discord

from bot.i18n import ENGLISH, Language, Msg
from bot.images import troefcall as images
from bot.images.picture import HandPicture
from bot.render.common import (
    COLOUR,
    ROW_BUTTONS_MAX,
    board_footer,
    by_suit,
    card,
    card_label,
    deadline_line,
    fit,
    seat_label,
    suit,
    table_buttons,
    table_kind,
    team_name,
)
from bot.render.lines import LINES, board_log
from bot.runtime.components import table_button
from bot.runtime.refs import Ref
from bot.runtime.spec import DealSummary, Rendered, TableInfo
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

PHASE_KEYS = {
    Phase.NAMING: "naming",
    Phase.PLAY: "play",
    Phase.KAP: "kap",
    Phase.BETWEEN_HANDS: "between",
    Phase.OVER: "over",
}
"""The catalog key of each phase's title (``troefcall.phase.<key>``)."""

SUIT_ORDER = (Suit.HEARTS, Suit.SPADES, Suit.DIAMONDS, Suit.CLUBS)
"""The order of the trump buttons (red and black alternate)."""


def suit_name(lang: Language, of: Suit) -> str:
    """``"♥ hearts"`` (♣/♠ as text), the suit's name in ``lang``."""
    return lang.t("suit.named", symbol=suit(of), name=Msg(f"suit.{of.name.lower()}"))


def team_draw(lang: Language, teams: str) -> str:
    """The ``teams`` option (``"choose"`` or ``"random"``) in words (lobby line and rules
    card)."""
    return lang.t(f"troefcall.teams.{teams}")


def partners(table: TableInfo, team: int) -> str:
    """``"Alice & Carol"``: the two seats of ``team``."""
    return table.lang.t("troefcall.partners", first=seat_label(table, team),
                        second=seat_label(table, team + 2))


def game_end(lang: Language, rules: TroefcallRules) -> str:
    """How the game ends, in words (rules/troefcall.md §2.10 items 50 and 52)."""
    if rules.deals is not None:
        return lang.t("troefcall.end.deals", count=rules.deals)
    return lang.t("troefcall.end.target", count=rules.target)


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
    t = table.lang.t
    over = view.phase is Phase.OVER
    embed = discord.Embed(
        title=t("troefcall.board.title", game=Msg("game.troefcall"), table=table.id,
                hand=view.hand_number),
        description=_status(table, view),
        colour=COLOUR,
    )
    embed.add_field(name=t("troefcall.field.teams"), value=_teams(table, view), inline=False)
    trick = _trick_field(table, view)
    if trick is not None:
        embed.add_field(name=trick[0], value=trick[1], inline=False)
    if view.trick_winners:
        embed.add_field(name=t("troefcall.field.tricks"), value=_tricks(table, view),
                        inline=False)
    if view.jack_search is not None and view.hand_number == 1 and not view.results:
        embed.add_field(name=t("troefcall.field.jack_search"),
                        value=_jack_search(table, view.jack_search), inline=False)
    readers = LINES.readers(table)
    lines = board_log(table, _hand_events(view.log)[-LOG_LINES:],
                      lambda event: LINES.line(readers, event, lambda: _event(table, event)),
                      LOG_LINES)
    if lines:
        embed.add_field(name=t("troefcall.field.log"), value="\n".join(lines), inline=False)
    board_footer(embed, table, t("board.shuffle_number", shuffle=view.deal_number),
                 view.commitment)
    picture = partial(images.board_picture, view)
    if over:
        return Rendered(fit(embed, table.lang), None, picture)
    ui = discord.ui.View(timeout=None)
    for button in table_buttons(table, view.deal_number, view.phase is Phase.BETWEEN_HANDS):
        ui.add_item(button)
    return Rendered(fit(embed, table.lang), ui, picture)


def _status(table: TableInfo, view: TroefcallTableView) -> str:
    t = table.lang.t
    lines = [f"**{t('troefcall.phase.' + PHASE_KEYS[view.phase])}**"]
    caller = seat_label(table, view.caller)
    match view.phase:
        case Phase.NAMING:
            lines.append(t("troefcall.status.naming", caller=caller))
        case Phase.PLAY if view.turn is not None:
            lines.append(t("troefcall.status.play", trick=len(view.tricks) + 1, tricks=TRICKS,
                           name=seat_label(table, view.turn),
                           button=Msg("button.hand")))
        case Phase.KAP if view.kap is not None:
            kap = view.kap
            rules = view.rules
            lines.append(t("troefcall.status.kap", team=team_name(table, kap.team),
                           name=seat_label(table, kap.seat), kap=rules.kap_points,
                           baunie=rules.baunie_points, partner=seat_label(table, kap.partner),
                           partner_kap=rules.partner_kap_points))
        case Phase.BETWEEN_HANDS:
            lines.append(t("troefcall.status.between", button=Msg("button.next_hand"),
                           join=Msg("button.join")))
    if view.phase in (Phase.NAMING, Phase.PLAY, Phase.KAP):  # between hands: the announcement
        trumps = (suit_name(table.lang, view.trump) if view.trump is not None
                  else t("troefcall.trumps_unnamed"))
        lines.append(t("troefcall.status.trumps", trumps=trumps, caller=caller,
                       dealer=seat_label(table, view.dealer)))
    if view.baunie is not None and view.phase is Phase.PLAY:
        lines.append(t("troefcall.status.baunie", team=team_name(table, view.baunie)))
    required = [s for s in view.to_act if s not in view.optional]
    if deadline := deadline_line(table, required):
        lines.append(deadline)
    lines.append(t("troefcall.status.end", end=game_end(table.lang, view.rules),
                   progress=_progress(table.lang, view)))
    if view.ending and view.phase is not Phase.OVER:
        lines.append(t("troefcall.status.ending"))
    lines.append(t(table_kind(table, "troefcall.status.ranked", "troefcall.status.casual")))
    return "\n".join(lines)


def _progress(lang: Language, view: TroefcallTableView) -> str:
    """``" · 3 hands left"`` for a game of a number of hands, else nothing."""
    if view.deals is None:
        return ""
    left = view.deals - len(view.results)
    return lang.t("troefcall.progress.left", count=left) if left > 0 \
        else lang.t("troefcall.progress.extra")


def _teams(table: TableInfo, view: TroefcallTableView) -> str:
    """Each team's members, points and tricks. Between hands the tricks are the finished
    hand's, so are the dealer and caller marked (the announcement names the next ones)."""
    t = table.lang.t
    dealer, caller = view.dealer, view.caller
    if view.phase is Phase.BETWEEN_HANDS and view.last_result is not None:
        dealer, caller = view.last_result.dealer, view.last_result.caller
    lines = []
    for team in range(2):
        members = []
        for seat in (team, team + 2):
            marks = [t(f"troefcall.mark.{m}") for m, s in
                     (("caller", caller), ("dealer", dealer))
                     if s == seat and view.phase is not Phase.OVER]
            if table.seats[seat].leaving:
                marks.append(t("troefcall.mark.leaving"))
            name = table.lang.isolate(seat_label(table, seat))
            member = t("troefcall.team.marked", name=name, marks=table.lang.join(marks)) \
                if marks else name
            members.append(f"{'▶ ' if seat in view.to_act else ''}{member}")
        line = t("troefcall.team.line", team=team_name(table, team),
                 members=table.lang.join(members, t("troefcall.team.and")),
                 count=view.scores[team])
        if view.phase is not Phase.NAMING:
            line = t("troefcall.team.with_tricks", line=line,
                     tricks=Msg("troefcall.tricks", count=view.tricks_won[team]))
        lines.append(line)
    return "\n".join(lines)


def _plays(table: TableInfo, trick: TrickView) -> str:
    lang = table.lang
    return lang.join((lang.join([seat_label(table, p.seat), card(p.card)], " ")
                      for p in trick.plays), " · ")


def _trick_field(table: TableInfo, view: TroefcallTableView) -> tuple[str, str] | None:
    """The trick being played, else the last one completed (with its winner)."""
    t = table.lang.t
    if view.trick is not None:
        return t("troefcall.field.trick", trick=view.trick.number), _plays(table, view.trick)
    if view.tricks and view.phase is not Phase.NAMING:
        last = view.tricks[-1]
        winner = seat_label(table, last.winner) if last.winner is not None else "?"
        plays = _plays(table, last) if last.plays else t("troefcall.trick.unrecorded")
        return t("troefcall.field.trick_won", trick=last.number, name=winner), plays
    return None


def _tricks(table: TableInfo, view: TroefcallTableView) -> str:
    """Who won each trick (by team letter) and whether the first seven are one team's."""
    t = table.lang.t
    letters = [t(f"troefcall.team_letter.{team_of(w)}") for w in view.trick_winners]
    line = t("troefcall.tricks.winners", letters=table.lang.join(letters, " "))
    first = {team_of(w) for w in view.trick_winners[:FIRST_SEVEN]}
    done = len(view.trick_winners)
    if len(first) > 1:
        return f"{line}\n{t('troefcall.tricks.split')}"
    team = team_name(table, first.pop())
    if done >= FIRST_SEVEN:
        return f"{line}\n{t('troefcall.tricks.seven', team=team)}"
    return f"{line}\n{t('troefcall.tricks.unbroken', team=team, done=done)}"


def _jack_search(table: TableInfo, search: JackSearch) -> str:
    """The face-up deal that chose the first caller (§2.2, A10): public, not this hand's."""
    lang = table.lang
    dealt = lang.join((lang.join([seat_label(table, (search.start + i) % 4), card(c)], " ")
                       for i, c in enumerate(search.cards)), " · ")
    return table.lang.t("troefcall.jack_search", dealt=dealt,
                        caller=seat_label(table, search.caller),
                        dealer=seat_label(table, search.dealer))


def _why(table: TableInfo, result: HandResult) -> str:
    t = table.lang.t
    scorer = team_name(table, result.team)
    who = seat_label(table, result.seat) if result.seat is not None else "?"
    match result.reason:
        case "seven":
            return t("troefcall.why.seven", team=scorer, count=result.tricks[result.team])
        case "kap":
            return t("troefcall.why.kap", team=scorer, name=who)
        case "partner_kap":
            return t("troefcall.why.partner_kap", team=scorer, name=who)
        case "baunie":
            return t("troefcall.why.baunie", team=scorer)
    return t("troefcall.why.failed_baunie", team=team_name(table, 1 - result.team),
             trick=sum(result.tricks))


def _score(table: TableInfo, scores: Sequence[int]) -> str:
    """``"Team A 7 · Team B 2"``."""
    return table.lang.t("troefcall.score", first=team_name(table, 0), a=scores[0],
                        second=team_name(table, 1), b=scores[1])


def _announce(table: TableInfo, view: TroefcallTableView, result: HandResult) -> str:
    """The last hand's result in words: who scored how many and why, then who deals and
    calls next (§2.8, §2.9)."""
    t = table.lang.t
    lines = [t("troefcall.announce.scored", team=team_name(table, result.team),
               points=Msg("troefcall.points", count=result.points), why=_why(table, result)),
             t("troefcall.announce.score", score=_score(table, result.scores))]
    if view.phase is not Phase.OVER:
        lines.append(t("troefcall.announce.next", dealer=seat_label(table, result.next_dealer),
                       caller=seat_label(table, result.next_caller),
                       why=Msg("troefcall.announce.rotated" if result.rotated
                               else "troefcall.announce.stays")))
    return "\n".join(lines)


def deal_summary(table: TableInfo, view: TroefcallTableView) -> DealSummary | None:
    """What the last hand did: who scored how many points and why (kap partij, baunie),
    the tricks of each team, the score and the next dealer and caller (§2.8-§2.10); None
    while a hand is played."""
    result = view.last_result
    if result is None or view.phase not in (Phase.BETWEEN_HANDS, Phase.OVER):
        return None
    t = table.lang.t
    lines = (*_announce(table, view, result).split("\n"),
             f"{t('troefcall.field.tricks')}: {_score(table, result.tricks)}")
    deltas = tuple((f"{team_name(table, team)} ({partners(table, team)})",
                    result.points if team == result.team else 0) for team in range(2))
    return DealSummary(t("troefcall.field.hand", hand=result.hand_number), lines, deltas,
                       "point")


def _hand_events(log: Sequence[TroefcallEvent]) -> list[TroefcallEvent]:
    """The events since the last hand began (a redeal's included), or the whole log."""
    start = max((i for i, e in enumerate(log)
                 if isinstance(e, ev.DealStarted) and not e.redeal), default=0)
    return list(log[start:])


def _event(table: TableInfo, event: TroefcallEvent) -> str:
    """One log line for an event; every card in it is public by the rules (§2)."""
    t = table.lang.t
    name = lambda seat: seat_label(table, seat)  # noqa: E731
    team = lambda index: team_name(table, index)  # noqa: E731
    match event:
        case ev.JackSearched(search=search):
            return t("troefcall.log.jack", name=name(search.caller))
        case ev.DealStarted(redeal=True, hand_number=number):
            return t("troefcall.log.redealt", hand=number)
        case ev.DealStarted(hand_number=number, dealer=dealer, caller=caller):
            return t("troefcall.log.deal", hand=number, dealer=name(dealer),
                     caller=name(caller))
        case ev.TrumpNamed(seat=seat, suit=named):
            return t("troefcall.log.trumps", name=name(seat),
                     trumps=suit_name(table.lang, named))
        case ev.Redealt(seat=seat):
            return t("troefcall.log.redeal", name=name(seat))
        case ev.TrickWon(seat=seat, trick=number, tricks=(a, b)):
            return t("troefcall.log.trick", trick=number, name=name(seat),
                     score=_score(table, (a, b)))
        case ev.KapOffered(seat=seat):
            return t("troefcall.log.kap_offered", team=team(team_of(seat)))
        case ev.KapCalled(seat=seat):
            return t("troefcall.log.kap", name=name(seat))
        case ev.BaunieCommitted(seat=seat, team=index):
            return t("troefcall.log.baunie", name=name(seat), team=team(index))
        case ev.HandScored(result=result):
            return t("troefcall.log.scored", team=team(result.team),
                     points=Msg("troefcall.points", count=result.points))
        case ev.TieToBreak(score=score):
            return t("troefcall.log.tie_break", points=Msg("troefcall.points", count=score))
        case ev.GameOver(winner=None):
            return t("troefcall.log.no_winner")
        case ev.GameOver(winner=winner):
            return t("troefcall.log.winner", team=team(winner))
    return ""  # a card played shows in the trick field


# ---------------------------------------------------------------------- a private hand


def hand(table: TableInfo, view: TroefcallSeatView) -> Rendered:
    """Seat ``view.seat``'s private message: its cards and its controls.

    Only ``view`` (what that seat may see) is read; send the result ephemerally to the
    seat's member. Before trumps are named only the caller holds cards (his first five).
    """
    t = table.lang.t
    public = view.table
    embed = discord.Embed(
        title=t("troefcall.hand.title", game=Msg("game.troefcall"), table=table.id,
                hand=public.hand_number),
        description=by_suit(view.hand, table.lang) or t("troefcall.hand.no_cards"),
        colour=COLOUR,
    )
    trumps = (suit_name(table.lang, public.trump) if public.trump is not None
              else t("troefcall.trumps_unnamed"))
    embed.add_field(
        name=t("troefcall.field.you"),
        value=t("troefcall.hand.you", team=team_name(table, view.team),
                partner=seat_label(table, view.partner), trumps=trumps),
        inline=False,
    )
    if public.trick is not None:
        embed.add_field(name=t("troefcall.field.trick", trick=public.trick.number),
                        value=_plays(table, public.trick), inline=False)
    embed.add_field(name=t("troefcall.field.now"), value=_hand_status(table, view),
                    inline=False)
    embed.set_footer(text=t("troefcall.hand.footer", button=Msg("button.hand")))
    return Rendered(fit(embed, table.lang), _hand_view(table, view),
                    partial(_hand_picture, view))


def _hand_picture(view: TroefcallSeatView) -> HandPicture:
    """The hand's picture, its cards in the text's order."""
    return images.hand_picture(view, tuple(int(c) for c in _suit_sorted(view.hand)))


def _hand_status(table: TableInfo, view: TroefcallSeatView) -> str:
    t = table.lang.t
    kinds = {option.kind for option in view.options}
    public = view.table
    if "name_trump" in kinds:
        return t("troefcall.now.name_trump")
    rules = public.rules
    if kinds == {"kap"}:
        return t("troefcall.now.partner_kap", points=Msg(
            "troefcall.points", count=rules.partner_kap_points),
            partner=seat_label(table, view.partner), kap=rules.kap_points)
    if "kap" in kinds:
        return t("troefcall.now.kap", points=Msg("troefcall.points", count=rules.kap_points),
                 baunie=rules.baunie_points, failed=rules.failed_baunie_points)
    if "play" in kinds:
        led = public.trick.plays[0].card.suit if public.trick is not None else None
        text = t("troefcall.now.lead") if led is None else \
            t("troefcall.now.follow", suit=suit_name(table.lang, led))
        if "redeal" in kinds:
            text += " " + t("troefcall.now.may_redeal")
        return text
    waiting = table.lang.join(seat_label(table, s) for s in public.to_act)
    if public.phase is Phase.NAMING:
        return t("troefcall.now.naming", name=waiting)
    return t("troefcall.now.waiting", name=waiting) if waiting else t("troefcall.now.nothing")


def _hand_view(table: TableInfo, view: TroefcallSeatView) -> discord.ui.View | None:
    """Trump buttons; or the hand as card buttons (legal ones enabled, at most 13 in rows
    0-2) with the redeal claim and kap partij in row 3."""
    t = table.lang.t
    ui = discord.ui.View(timeout=None)
    seat, decision = view.seat, view.decision_id
    by_kind: dict[str, Option] = {option.kind: option for option in view.options}
    if "name_trump" in by_kind:
        for named in SUIT_ORDER:
            ui.add_item(table_button(Ref(table.id, "trump", seat, decision, named.letter),
                                     label=t("troefcall.button.trumps",
                                             trumps=suit_name(table.lang, named)),
                                     style=discord.ButtonStyle.primary, row=0))
        return ui
    if "play" in by_kind:
        legal = set(by_kind["play"].cards)
        for index, held in enumerate(_suit_sorted(view.hand)):
            ui.add_item(table_button(
                Ref(table.id, "play", seat, decision, str(int(held))),
                label=card_label(held),
                style=discord.ButtonStyle.primary if held in legal
                else discord.ButtonStyle.secondary,
                disabled=held not in legal,
                row=index // ROW_BUTTONS_MAX,
            ))
    if "redeal" in by_kind:
        ui.add_item(table_button(Ref(table.id, "redeal", seat, decision),
                                 label=t("troefcall.button.redeal"),
                                 style=discord.ButtonStyle.secondary, row=3))
    if "kap" in by_kind:
        rules = view.table.rules
        points = rules.kap_points if "play" in by_kind else rules.partner_kap_points
        ui.add_item(table_button(Ref(table.id, "kap", seat, decision),
                                 label=t("troefcall.button.kap",
                                         points=Msg("troefcall.points", count=points)),
                                 style=discord.ButtonStyle.danger, row=3))
    return ui if ui.children else None


def _suit_sorted(held: Sequence[Card]) -> list[Card]:
    """The hand in the order :func:`bot.render.common.by_suit` shows it (♣ ♦ ♥ ♠, low to
    high)."""
    return sorted(held, key=lambda c: (c.suit, c.rank))


# ---------------------------------------------------------------------- the rules


def rules_card(rules: TroefcallRules, teams: str, source: str,
               lang: Language = ENGLISH) -> Rendered:
    """``/troefcall rules``: a table's rules in plain words, in ``lang``.

    Parameters
    ----------
    rules
        The rules to show.
    teams
        The ``teams`` option (``"choose"`` or ``"random"``).
    source
        Whose rules they are (a table, the channel's house rules, the default), one sentence.
    lang
        The reader's language.
    """
    t = lang.t
    embed = discord.Embed(
        title=t("troefcall.rules.title", game=Msg("game.troefcall")),
        description=t("troefcall.rules.description", end=game_end(lang, rules),
                      teams=team_draw(lang, teams), source=source),
        colour=COLOUR,
    )
    embed.add_field(name=t("troefcall.rules.play_field"), value=t("troefcall.rules.play"),
                    inline=False)
    embed.add_field(name=t("troefcall.rules.scoring_field"), value=t(
        "troefcall.rules.scoring", seven=rules.seven_points, kap=rules.kap_points,
        partner_kap=rules.partner_kap_points, baunie=rules.baunie_points,
        failed=rules.failed_baunie_points), inline=False)
    embed.add_field(name=t("troefcall.rules.dealer_field"), value=t("troefcall.rules.dealer"),
                    inline=False)
    return Rendered(fit(embed, lang), None)
