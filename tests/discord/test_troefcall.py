"""Troefcall tables in simcord, by slash commands and clicks only (rules/troefcall.md §2).

:class:`TroefcallSession` drives a table like its members would: each decision through
**My hand** and a click in the private view. Every interaction is answered exactly once (the
``world`` helpers), and after each one no message a member can see shows a card that member
may not see: the channel's messages no card of any hand (cards played to tricks are public;
the jack search is dealt face up from a separate pack), and each private answer no card but
the viewer's own.
"""

from __future__ import annotations

import random
from collections.abc import Awaitable, Callable
from typing import Any

from leak_scan import embed_texts, shown_cards
from simcord import MemberActor
from test_tripoli import Session, labels
from test_tripoli_preset_tables import manager

from bot.i18n import ENGLISH
from bot.render.common import SHORT_HASH, card_label, hex_groups
from bot.render.troefcall import suit_name
from bot.runtime.table import TableState
from engine.cards import Suit
from engine.troefcall.actions import ClaimRedeal, KapPartij, NameTrump, Play
from engine.troefcall.ai import choose
from engine.troefcall.game import TroefcallGame
from engine.troefcall.phases import Phase
from engine.troefcall.seating import draw_partners

JACK_SEARCH = "Jack search"
"""The board field of the face-up jack search: its cards are not this game's hands."""


class TroefcallSession(Session):
    """A Troefcall table driven by clicks, checking what each member sees (module doc)."""

    def __init__(self, *args: Any) -> None:
        super().__init__(*args)
        self.hands: dict[int, Any] = {}  # member id -> the last hand view "My hand" gave them
        self.rng = random.Random(7)

    @property
    def game(self) -> TroefcallGame:
        return self.table.game

    def hidden(self) -> set[int]:
        """Every card held in a hand or not dealt yet (a card played to a trick is public)."""
        game = self.game
        if game is None:
            return set()
        return {int(c) for hand in game.hands for c in hand} | {int(c) for c in game.stock}

    def own(self, member: MemberActor) -> set[int]:
        seat = self.seat(member)
        return set() if seat is None or self.game is None else \
            {int(c) for c in self.game.hands[seat]}

    def check_visibility(self, member: MemberActor, result: Any) -> None:
        hidden = self.hidden()
        for message in self.channel.history():
            if message.flags.ephemeral:
                continue
            embeds = list(message.embeds)
            for embed in embeds:
                for index in [i for i, f in enumerate(embed.fields) if f.name == JACK_SEARCH][::-1]:
                    embed.remove_field(index)
            rows = [row.to_dict() for row in message.components]
            leaked = shown_cards(embeds, rows) & hidden
            assert not leaked, f"public message {message.id} shows hidden cards {leaked}"
        answers = [result.response, *result.followups] if result.response else result.followups
        for answer in answers:
            if answer.ephemeral:
                self.check_private(member, answer, hidden)

    def check_private(self, member: MemberActor, message: Any, hidden: set[int]) -> None:
        leaked = shown_cards(message.embeds, message.components) & (hidden - self.own(member))
        assert not leaked, f"{member.name} was shown someone else's cards {leaked}"

    async def check_chips(self) -> None:
        """Nothing is at stake at a Troefcall table (balances are checked by the tests)."""

    async def my_hand(self, member: MemberActor) -> Any:
        hand = await super().my_hand(member)
        self.hands[member.id] = hand
        return hand

    # ------------------------------------------------------------------ playing

    async def decide(self, seat: int, member: MemberActor) -> None:
        """The member's decision by clicks: what the AI partner would choose, clicked in a
        fresh private view (a declined optional kap is left to lapse by the caller)."""
        game = self.game
        action = choose(game.view(seat), game.legal_actions(seat), self.rng)
        hand = await self.my_hand(member)
        match action:
            case NameTrump(suit=named):
                await self.click(member, hand, label=f"Trumps: {suit_name(ENGLISH, named)}")
            case Play(card=played):
                await self.click(member, hand, label=card_label(played))
            case KapPartij():
                await self.click(member, hand, label=kap_label(hand))
            case ClaimRedeal():
                await self.click(member, hand, label="Show hand and redeal (no K, Q or J)")

    async def play_until(
        self,
        done: Callable[[], bool],
        move: Callable[[int, MemberActor], Awaitable[None]] | None = None,
    ) -> None:
        """Make the members' required decisions until ``done()``; AI seats act by themselves
        and members press Next hand between hands."""
        for _ in range(2000):
            if done():
                return
            game = self.game
            if game.between_deals:
                member = self.member(next(s for s in range(4) if not self.table.seats[s].ai))
                await self.click(member, self.board, label="Next hand")
                continue
            required = [p.seat for p in game.pending() if p.required]
            assert required, f"nobody to act in {game.phase}"
            seat = required[0]
            assert not self.table.seats[seat].ai, "an AI seat is stuck"
            await (move or self.decide)(seat, self.member(seat))
        raise AssertionError("the game did not finish")


def kap_label(message: Any) -> str:
    return next(label for label in labels(message) if label.startswith("Kap partij"))


def field(message: Any, prefix: str) -> str:
    embed = message.embeds[0]
    return next(f.value for f in embed.fields if f.name.startswith(prefix))


async def open_table(world: Any, host: MemberActor, *joiners: tuple[MemberActor, str],
                     **options: Any) -> TroefcallSession:
    """``/troefcall start`` by ``host`` (Team A); each joiner clicks its button label."""
    opened = await world.slash(host, "troefcall start", **options)
    session = TroefcallSession(world, opened)
    for member, label in joiners:
        await session.click(member, session.board, label=label)
    return session


async def finished(session: TroefcallSession) -> None:
    """The final board names the winning team and the result is in the store."""
    world = session.world
    table = session.table
    assert table.state is TableState.OVER
    game = session.game
    assert game.is_over and game.complete and max(game.scores) >= game.rules.target
    final = session.board
    text = " ".join(embed_texts(final.embeds))
    assert f"{('Team A', 'Team B')[game.winner]} wins" in text
    assert hex_groups(table.seed.hex()) in final.embeds[0].footer.text
    assert labels(final) == ["Rematch", "My record"]
    [(result, _id)] = await world.store.results(world.guild.id, "troefcall")
    assert result.complete and result.game == "troefcall"
    places = {s.seat: s.place for s in result.seats}
    assert {places[s] for s in (game.winner, game.winner + 2)} == {1}
    assert {s.user_id for s in result.seats} == {s.member_id for s in table.seats}


# ---------------------------------------------------------------------- whole games


async def test_two_members_and_two_ai_play_a_game_to_15(world):
    alice, bob = world.alice, world.bob
    before = await world.balances(alice, bob)
    session = await open_table(world, alice, (bob, "Join Team B"))
    await session.click(alice, session.board, label="Add AI")
    await session.click(alice, session.board, label="Add AI")
    await session.click(alice, session.board, label="Start")
    assert not session.table.ranked
    assert [s.member_id for s in session.table.seats[:2]] == [alice.id, bob.id]
    board = session.board.embeds[0]
    assert any(f.name == JACK_SEARCH for f in board.fields)
    assert session.game.commitment[:SHORT_HASH] in board.footer.text
    await session.play_until(lambda: session.table.state is TableState.OVER)
    await finished(session)
    [(result, _id)] = await world.store.results(world.guild.id, "troefcall")
    assert not result.ranked
    assert await world.balances(alice, bob) == before  # nothing is at stake
    session.report("troefcall, 2 members + 2 AI")


async def test_four_members_play_a_ranked_game_to_15(world):
    alice, bob, carol, dave = world.alice, world.bob, world.carol, world.dave
    session = await open_table(world, alice, (bob, "Join Team B"), (carol, "Join Team A"),
                               (dave, "Join Team B"))
    await session.click(alice, session.board, label="Start")
    assert [s.member_id for s in session.table.seats] == [alice.id, bob.id, carol.id, dave.id]
    assert session.table.ranked
    hands_seen = 0

    def done() -> bool:
        return session.table.state is TableState.OVER

    while not done():
        await session.play_until(lambda: done() or session.game.between_deals)
        if done():
            break
        hands_seen += 1
        announced = field(session.board, f"Hand {session.game.results[-1].hand_number}")
        result = session.game.results[-1]
        assert f"scores {result.points} point" in announced and "Next hand:" in announced
        # one word for a hand (rules/troefcall.md §2.8): the summary, the status, the button
        assert "Points this hand:" in announced and "this deal" not in announced
        assert "for the next hand" in session.board.embeds[0].description
        assert "Next hand" in labels(session.board) and "Next deal" not in labels(session.board)
        await session.click(session.member(hands_seen % 4), session.board, label="Next hand")
    await finished(session)
    [(result, _id)] = await world.store.results(world.guild.id, "troefcall")
    assert result.ranked and hands_seen >= 1
    session.report("troefcall, 4 members")


# ---------------------------------------------------------------------- the lobby


async def test_lobby_teams_join_and_a_full_team_is_refused(world):
    alice, bob, carol, dave = world.alice, world.bob, world.carol, world.dave
    session = await open_table(world, alice, (carol, "Join Team A"))
    team_a = field(session.board, "Team A (2/2)")
    assert "Alice" in team_a and "Carol" in team_a
    refused = await session.click(bob, session.board, label="Join Team A")
    assert refused.response.ephemeral and refused.response.content == "Team A is full."
    assert session.seat(bob) is None
    await session.click(bob, session.board, label="Join Team B")
    refused = await session.click(alice, session.board, label="Start")
    assert refused.response.ephemeral and "needs 4 players" in refused.response.content
    await session.click(dave, session.board, label="Join Team B")
    await session.click(alice, session.board, label="Start")
    seats = [s.member_id for s in session.table.seats]
    assert seats == [alice.id, bob.id, carol.id, dave.id]  # partners opposite: 0 + 2, 1 + 3


async def test_a_seated_member_changes_team_in_the_lobby_when_it_has_room(world):
    """Tryout: Dave in Team B clicking "Join Team A" was told he is already seated; he now
    moves there when it has room (refused, nothing changed, when it is full), and the
    stakes are taken once, at Start."""
    alice, bob, carol, dave = world.alice, world.bob, world.carol, world.dave
    session = await open_table(world, alice, (bob, "Join Team B"), (dave, "Join Team B"),
                               stake=100)
    assert "Dave" in field(session.board, "Team B (2/2)")
    moved = await session.click(dave, session.board, label="Join Team A")
    assert not moved.response.ephemeral  # the lobby is edited
    assert "Dave" in field(session.board, "Team A (2/2)")
    assert "Dave moved to Team A." in str(session.board.embeds[0].to_dict())
    refused = await session.click(bob, session.board, label="Join Team A")
    assert refused.response.ephemeral and refused.response.content == "Team A is full."
    refused = await session.click(dave, session.board, label="Join Team A")
    assert refused.response.ephemeral and "already seated" in refused.response.content
    assert [s.team for s in session.table.seats] == [0, 1, 0]
    await session.click(carol, session.board, label="Join Team B")
    assert await world.balances(alice, bob, carol, dave) == [1000] * 4
    await session.click(alice, session.board, label="Start")
    assert await world.balances(alice, bob, carol, dave) == [900] * 4
    teams = {s.member_id: s.team for s in session.table.seats}
    assert teams[alice.id] == teams[dave.id] != teams[bob.id] == teams[carol.id]
    await world.assert_chips_conserved()


async def test_random_teams_are_drawn_at_start(world):
    alice, bob, carol, dave = world.alice, world.bob, world.carol, world.dave
    session = await open_table(world, alice, (bob, "Join"), (carol, "Join"), (dave, "Join"),
                               teams="random")
    assert "drawn at Start" in session.board.embeds[0].description
    assert not [label for label in labels(session.board) if label.startswith("Join Team")]
    joined = [alice.id, bob.id, carol.id, dave.id]
    await session.click(alice, session.board, label="Start")
    table = session.table
    drawn = draw_partners(table.seed).seating
    assert [s.member_id for s in table.seats] == [joined[p] for p in drawn]
    assert [s.team for s in table.seats] == [0, 1, 0, 1]
    assert sorted(s.member_id for s in table.seats) == sorted(joined)


# ---------------------------------------------------------------------- private views


async def test_before_trumps_only_the_caller_sees_five_cards(world):
    alice, bob, carol, dave = world.alice, world.bob, world.carol, world.dave
    session = await open_table(world, alice, (bob, "Join Team B"), (carol, "Join Team A"),
                               (dave, "Join Team B"))
    await session.click(alice, session.board, label="Start")
    game = session.game
    assert game.phase is Phase.NAMING
    caller = session.member(game.caller)
    hand = await session.my_hand(caller)
    assert shown_cards(hand.embeds, hand.components) == {int(c) for c in game.hands[game.caller]}
    assert len(game.hands[game.caller]) == 5
    assert sorted(labels(hand)) == sorted(f"Trumps: {suit_name(ENGLISH, s)}" for s in Suit)
    for other in (m for m in (alice, bob, carol, dave) if m is not caller):
        view = await session.my_hand(other)
        assert shown_cards(view.embeds, view.components) == set()
        assert view.components == [] and "naming trumps" in field(view, "Now")
    await session.click(caller, hand, label="Trumps: ♥ hearts")
    assert game.trump is Suit.HEARTS and len(game.hands[game.caller]) == 13
    assert "Trumps: ♥ hearts" in session.board.embeds[0].description
    hand = await session.my_hand(caller)
    legal = {card_label(c) for c in game.legal_actions(game.caller)[0].cards}
    buttons = [c for row in hand.components for c in row["components"]
               if ":play:" in c["custom_id"]]  # (a court-less caller also sees the redeal)
    assert len(buttons) == 13 and all(not b.get("disabled") for b in buttons
                                     if b["label"] in legal)


def kap_position() -> TroefcallGame:
    """Team B (seats 1 + 3) won tricks 1-7, seat 3 won trick 7: the 7-trick decision."""
    deck = list(range(52))
    random.Random(3).shuffle(deck)
    hands = {seat: deck[seat * 6:(seat + 1) * 6] for seat in range(4)}
    return TroefcallGame.from_position(caller=1, trump=Suit.SPADES, hands=hands,
                                       history=[1, 3, 1, 3, 1, 1, 3], scores=(4, 6))


async def started_with(world: Any, game: TroefcallGame) -> TroefcallSession:
    """A table of four members whose game is replaced by ``game`` (the runtime's deadlines
    are re-armed on the next change; a new version of the table, so nothing rendered of the
    replaced game is shown again)."""
    alice, bob, carol, dave = world.alice, world.bob, world.carol, world.dave
    session = await open_table(world, alice, (bob, "Join Team B"), (carol, "Join Team A"),
                               (dave, "Join Team B"))
    await session.click(alice, session.board, label="Start")
    session.table.game = game
    session.table.deadlines.clear()
    session.table.renders.changed()
    return session


async def test_kap_partij_is_offered_to_the_trick_7_winner_and_his_partner_only(world):
    session = await started_with(world, kap_position())
    game = session.game
    assert game.phase is Phase.KAP and game.turn == 3
    views = {seat: await session.my_hand(session.member(seat)) for seat in range(4)}
    winner, partner = labels(views[3]), labels(views[1])
    assert "Kap partij (stop: 5 points)" in winner and len(winner) == 7  # six cards + kap
    assert partner == ["Kap partij (stop: 2 points)"]
    for seat in (0, 2):
        assert not any(label.startswith("Kap") for label in labels(views[seat]))
    await session.click(session.member(1), views[1], label=partner[0])
    assert game.phase is Phase.BETWEEN_HANDS and game.scores == [4, 8]
    announced = field(session.board, "Hand 1")
    assert "Team B scores 2 points" in announced and "partner of the winner" in announced
    assert "Bob" in announced and "the deal stays" in announced


async def test_between_hands_the_teams_field_marks_the_finished_hands_dealer_and_caller(world):
    """The Teams field beside the finished hand's tricks named the next hand's dealer and
    caller (the deal had passed on, rules/troefcall.md §2.9 item 47); it names the hand
    just played, and the announcement says who deals and calls next."""
    deck = list(range(52))
    random.Random(3).shuffle(deck)
    hands = {seat: deck[seat * 6:(seat + 1) * 6] for seat in range(4)}
    game = TroefcallGame.from_position(caller=1, trump=Suit.SPADES, hands=hands,
                                       history=[0, 2, 0, 2, 0, 0, 2], scores=(4, 6))
    session = await started_with(world, game)  # Alice deals (seat 0), Bob calls (seat 1)
    offered = await session.my_hand(world.alice)  # Team A won tricks 1-7, Carol trick 7
    await session.click(world.alice, offered, label="Kap partij (stop: 2 points)")
    assert game.phase is Phase.BETWEEN_HANDS and (game.dealer, game.caller) == (1, 2)
    assert field(session.board, "Teams").splitlines() == [
        "**Team A** — Alice (dealer) & Carol: **6** points · 7 tricks",
        "**Team B** — Bob (caller) & Dave: **6** points · 0 tricks"]
    announced = field(session.board, "Hand 1")
    assert "Next hand: Bob deals and Carol calls" in announced


async def test_the_trick_7_winner_plays_on_by_leading_to_trick_8(world):
    session = await started_with(world, kap_position())
    game = session.game
    member, partner = session.member(3), session.member(1)
    offered = await session.my_hand(partner)
    await session.my_hand(partner)  # a newer hand is kept current: `offered` keeps its buttons
    hand = await session.my_hand(member)
    lead = next(label for label in labels(hand) if not label.startswith("Kap"))
    await session.click(member, hand, label=lead)
    assert game.baunie == 1 and game.phase is Phase.PLAY
    assert "plays for all thirteen" in session.board.embeds[0].description
    stale = await session.click(partner, offered, label="Kap partij (stop: 2 points)")
    assert stale.response.ephemeral and "decision is over" in stale.response.content


# ---------------------------------------------------------------------- leaving and joining


async def test_a_leaver_is_replaced_by_the_ai_and_a_member_takes_the_seat_between_hands(world):
    alice, bob, carol, dave = world.alice, world.bob, world.carol, world.dave
    erin = world.add_member("erin")
    session = await open_table(world, alice, (bob, "Join Team B"), (carol, "Join Team A"),
                               (dave, "Join Team B"))
    await session.click(alice, session.board, label="Start")
    await session.click(bob, session.board, label="Leave")
    seat = session.table.seats[1]
    assert seat.ai and seat.member_id is None and seat.team == 1
    assert session.table.substituted
    await session.play_until(lambda: session.game.between_deals)
    await session.click(erin, session.board, label="Join")
    assert session.seat(erin) == 1 and not session.table.seats[1].ai
    await session.click(erin, session.board, label="Next hand")
    hands = len(session.game.results)
    await session.play_until(lambda: len(session.game.results) > hands)
    assert any(s.member_id == erin.id for s in session.table.seats)
    ended = await session.slash(alice, "troefcall end")
    assert ended.response.ephemeral and session.table.state is TableState.OVER
    assert "ended without a winner" in " ".join(embed_texts(session.board.embeds)) \
        or session.game.winner is not None
    [(result, _id)] = await world.store.results(world.guild.id, "troefcall")
    assert not result.ranked  # the AI played a seat
    assert erin.id in {s.user_id for s in result.seats}


async def test_join_with_no_ai_seat_is_refused_between_hands(world):
    session = await started_with(world, kap_position())
    offered = await session.my_hand(world.bob)  # Bob (seat 1) is the trick-7 winner's partner
    await session.click(world.bob, offered, label="Kap partij (stop: 2 points)")
    erin = world.add_member("erin")
    refused = await session.click(erin, session.board, label="Join")
    assert refused.response.ephemeral and "Every seat is taken" in refused.response.content


async def test_house_rules_and_rules_card(world):
    refused = await world.slash(world.bob, "troefcall house-rules", deals=3)
    assert refused.response.ephemeral and "Manage Channels" in refused.response.content
    mona = await manager(world)
    saved = await world.slash(mona, "troefcall house-rules", deals=3, teams="random")
    assert saved.response.ephemeral and "3 hands" in saved.response.embeds[0].description
    shown = await world.slash(world.alice, "troefcall rules")
    assert "3 hands" in shown.response.embeds[0].description
    both = await world.slash(world.alice, "troefcall start", target=20, deals=2)
    assert both.response.ephemeral and "not both" in both.response.content
    opened = await world.slash(world.alice, "troefcall start", target=20)
    table = world.bot.tables.by_channel[world.channel.id]
    assert table.options["target"] == 20 and "deals" not in table.options
    assert table.options["teams"] == "random"
    assert "first team to 20 points" in opened.response.embeds[0].description.lower()


async def test_a_staked_table_escrows_at_start_and_gives_back_when_it_ends_unwon(world):
    """``stake``: each member's stake leaves their balance at Start (in the commit that starts
    the table); ended before a team reaches the target, everyone gets it back. A member who
    cannot cover the stake keeps the table in its lobby, and nothing moves."""
    alice, bob, carol, dave = world.alice, world.bob, world.carol, world.dave
    await world.store.transfer(world.guild.id, dave.id, carol.id, 980)  # dave keeps 20
    session = await open_table(world, alice, (bob, "Join Team B"), (carol, "Join Team A"),
                               (dave, "Join Team B"), stake=50)
    assert "at stake" in session.board.embeds[0].description
    refused = await session.click(alice, session.board, label="Start")
    assert "Dave needs 50 chips" in (refused.response.content or "")
    assert session.table.state is TableState.LOBBY
    assert await world.balances(alice, bob, carol, dave) == [1000, 1000, 1980, 20]
    await world.store.transfer(world.guild.id, carol.id, dave.id, 980)
    await session.click(alice, session.board, label="Start")
    assert await world.balances(alice, bob, carol, dave) == [950] * 4
    assert await world.store.table_escrow(session.table.id) == 200
    await world.slash(alice, "troefcall end", now=True)
    assert session.table.state is TableState.OVER
    assert await world.balances(alice, bob, carol, dave) == [1000] * 4
    assert await world.store.table_escrow(session.table.id) == 0
    await world.assert_chips_conserved()


async def test_a_game_ended_before_any_score_names_both_teams_at_the_shared_place(world):
    """Ended during its first hand, the game has no winner and both teams share the first
    place at 0 points: the final standings still name each team with its players, one
    line each, as a finished game's do."""
    alice, bob, carol, dave = world.alice, world.bob, world.carol, world.dave
    session = await open_table(world, alice, (bob, "Join Team B"), (carol, "Join Team A"),
                               (dave, "Join Team B"))
    await session.click(alice, session.board, label="Start")
    await world.slash(alice, "troefcall end", now=True)
    assert session.table.state is TableState.OVER
    fields = {f.name: f.value for f in session.board.embeds[0].fields}
    lines = fields["Final standings"].splitlines()
    assert lines[:2] == ["1. **Team A** (Alice & Carol) — 0 points",
                         "1. **Team B** (Bob & Dave) — 0 points"]
    assert "nobody won" in lines[2]
