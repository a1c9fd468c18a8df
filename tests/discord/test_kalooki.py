"""Caribbean Kalooki through Discord (simcord): a deal with two members and two AI seats that
holds a member's call, a restart in the middle of a member's draft (the draft survives), a
lay-down built by clicks and lay-offs that empty her hand (she goes out without a discard:
the deal ends and is scored once); refusals (an illegal meld, a stale button, a wrong-turn
click) answered ephemerally with a reason, changing nothing. Every interaction is answered
exactly once (the ``world`` helpers); no public message shows a card that is not public, and
a member's private messages show only her own cards besides the public ones.

Cards of the two packs look alike (two 7♥), so messages are checked by the faces they show
against the faces each reader may see; select values (card ids) must be the reader's own.
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from pydantic import BaseModel

import engine.cards
import engine.fairness
from bot.render.kalooki import Draft
from bot.runtime.table import Table
from engine.cards import Card, format_card, parse_card
from engine.core import SYSTEM
from engine.kalooki.game import KalookiGame
from engine.kalooki.phases import Phase
from engine.kalooki.rules import JAMAICAN
from engine.kalooki.scoring import hand_points

FACE = re.compile(r"(10|[2-9JQKA])([♣♦♥♠])|Jkr")
WINDOW = 8.0  # the adapter's default call window, seconds


def ids(text: str, copy: int = 0) -> list[int]:
    return [int(parse_card(word, copy)) for word in text.split()]


def faces(cards: Any) -> set[str]:
    return {format_card(int(c)) for c in cards}


def message_faces(message: Any) -> set[str]:
    texts = [message.content or ""]
    for embed in message.embeds:
        texts += [embed.title or "", embed.description or "", embed.footer.text or ""]
        texts += [f"{f.name} {f.value}" for f in embed.fields]
    for row in message.components:
        for child in (row if isinstance(row, dict) else row.to_dict())["components"]:
            texts += [child.get("label") or "", child.get("placeholder") or ""]
            texts += [o["label"] for o in child.get("options", [])]
    text = " ".join(texts).replace("\ufe0e", "")
    return {m.group(0) for m in FACE.finditer(text)}


def option_ids(message: Any) -> set[int]:
    return {int(o["value"]) for row in message.components
            for child in (row if isinstance(row, dict) else row.to_dict())["components"]
            for o in child.get("options", []) if o["value"].isdigit()}


def control(message: Any, verb: str) -> str:
    """The custom_id of the message's component with ``verb``."""
    for row in message.components:
        for child in (row if isinstance(row, dict) else row.to_dict())["components"]:
            if child.get("custom_id", "").split(":")[3] == verb:
                return child["custom_id"]
    raise AssertionError(f"no {verb} control")


class Deal:
    """Drives the table and checks what every answer shows (module docstring)."""

    def __init__(self, world: Any, opened: Any) -> None:
        self.world = world
        self.opened = opened
        self.table_id = world.bot.tables.by_channel[world.channel.id].id

    @property
    def table(self) -> Table:
        return self.world.bot.tables.by_id[self.table_id]

    @property
    def game(self) -> KalookiGame:
        return self.table.game

    @property
    def board(self) -> Any:
        board_id = self.table.board_message_id
        return next(m for m in self.world.channel.history() if m.id == board_id)

    def public_faces(self) -> set[str]:
        game = self.game
        public = [c for meld in game.melds for c in meld.cards] + list(game.discard)
        for event in game.log:
            public += [c for c in _cards(event.seen_by(None))]
        return faces(public)

    def check(self, member: Any, result: Any) -> None:
        public = self.public_faces()
        for message in self.world.channel.history():
            if not message.flags.ephemeral:
                assert message_faces(message) <= public, message_faces(message) - public
        seat = self.table.seat_of(member.id)
        own = set(self.game.hands[seat]) if seat is not None else set()
        for answer in [result.response, *result.followups]:
            if answer is not None and answer.ephemeral:
                assert message_faces(answer) <= public | faces(own)
                assert option_ids(answer) <= {int(c) for c in own}

    async def click(self, member: Any, message: Any, **which: Any) -> Any:
        result = await self.world.click(member, message, **which)
        self.check(member, result)
        return result

    async def select(self, member: Any, message: Any, values: list[int], verb: str) -> Any:
        result = await self.world.select(member, message, [str(v) for v in values],
                                         custom_id=control(message, verb))
        self.check(member, result)
        return result

    async def hand(self, member: Any) -> Any:
        result = await self.click(member, self.board, label="My hand")
        assert result.response.ephemeral
        return result.response

    async def set_position(self, game: KalookiGame) -> None:
        """Replace the table's random deal by the fixed position ``game``, with nothing of
        the replaced deal left behind: the optional decisions the AI seats declined in it
        (``Table.declined`` keys (seat, decision id), and ids of the new game start again
        at 0, so a stale entry made the AI skip its own draw in one run of several), the
        deadlines and the drafts; then the board shows the position (a new version of the
        table: what was rendered of the replaced deal is not shown again)."""
        table = self.table
        table.game = game
        table.declined.clear()
        table.deadlines.clear()
        table.drafts.clear()
        table.renders.changed()
        self.world.bot.tables._arm(table)
        self.world.bot.tables.schedule_board_edit(table)
        await self.world.env.advance_time(1)
        await self.world.bot.tables.edits.finished()  # begun by the test: simcord does not wait

    async def wait(self, seconds: float) -> None:
        self.world.clock.advance(seconds)
        await self.world.env.advance_time(seconds)


def _cards(obj: Any) -> list[Card]:
    """Every card inside an event (models, dicts, sequences)."""
    found, stack = [], [obj]
    while stack:
        x = stack.pop()
        if isinstance(x, Card):
            found.append(x)
        elif isinstance(x, BaseModel):
            stack += [getattr(x, name) for name in type(x).model_fields]
        elif isinstance(x, dict):
            stack += [*x.keys(), *x.values()]
        elif isinstance(x, list | tuple):
            stack += list(x)
    return found


async def open_deal(world: Any) -> Deal:
    """Alice (seat 0) and Bob (seat 1) with two AI seats, then a fixed position of deal 1
    (three threes): AI seat 2 just discarded K♥, AI seat 3 is to play; Alice and Bob may
    call (the AI seats have used their three calls). The stock's top cards: 9♠ (Alice's
    extra card for the call), 2♠ (seat 3's draw), K♠ (Alice's draw)."""
    opened = await world.slash(world.alice, "kalooki start")
    deal = Deal(world, opened)
    await world.click(world.bob, opened.response, label="Join")
    for _ in range(2):
        await world.click(world.alice, opened.response, label="Add AI")
    await world.click(world.alice, opened.response, label="Start")
    alice = ids("7c 7d 7h 9c 9d 9h Kc Kd 7s")
    hands = {0: alice, 1: ids("2c 3d 4h 5s 6c 8d Th Js Qc"),
             2: ids("2d 3h 4s 5c 6d 8h Ts Jc Qd"), 3: ids("2h 3s 4c 5d 6h 8s Tc Jd Qh")}
    stock = ids("9s 2s Ks")
    game = KalookiGame.from_position(JAMAICAN.model_copy(update={"call_window": WINDOW}),
                                     hands=hands, dealer=2, turn=3, phase=Phase.WINDOW,
                                     discard=ids("Kh"), discarder=2, stock=stock,
                                     calls_used={2: 3, 3: 3})
    await deal.set_position(game)
    return deal


async def test_a_deal_with_a_call_a_restart_mid_draft_and_going_out_by_laying_off(world):
    deal = await open_deal(world)
    alice = world.alice
    stale_hand = await deal.hand(alice)
    assert "Call K♥" in str(stale_hand.components)
    await deal.hand(alice)  # a newer hand is kept current: the first one keeps its buttons
    await deal.click(alice, deal.board, label="Call K♥ · Alice")  # the AI seat 3 allows
    game = deal.game
    assert game.calls_used[0] == 1 and len(game.hands[0]) == 11
    assert game.turn == 0 and game.phase is Phase.WINDOW  # seat 3 played; Bob may call
    await deal.wait(WINDOW)
    assert deal.game.phase is Phase.DRAW
    hand = await deal.hand(alice)
    await deal.click(alice, hand, label="Draw from the stock")
    assert len(deal.game.hands[0]) == 12 and deal.game.phase is Phase.PLAY
    clicks = 0
    for i, three in enumerate(("7c 7d 7h", "9c 9d 9h", "Kc Kd Kh")):
        await deal.select(alice, hand, ids(three), "pick")
        await deal.click(alice, hand, label="Stage as three")
        clicks += 2
        if i == 1:  # a restart in the middle of the draft: the draft survives
            await world.restart()
            saved = Draft.load(deal.table.drafts[0][1], set(deal.game.hands[0]))
            assert [cs for _, cs in saved.groups] == [tuple(ids("7c 7d 7h")),
                                                      tuple(ids("9c 9d 9h"))]
            hand = await deal.hand(alice)
            assert "1. three" in hand.embeds[0].fields[0].value
    await deal.click(alice, hand, label="Lay down (3)")
    clicks += 1
    assert clicks == 7 and len(deal.game.melds) == 3 and len(deal.game.hands[0]) == 3
    for card, meld in (("7s", "m1"), ("9s", "m2"), ("Ks", "m3")):
        await deal.select(alice, hand, ids(card), "pick")
        await deal.world.select(alice, hand, [f"o_{meld}_top"],
                                custom_id=control(hand, "play_on"))
    game = deal.game
    assert game.between_deals and game.hands[0] == []
    kinds = [e.kind for e in game.log]
    assert kinds.count("went_out") == 1 and kinds.count("deal_scored") == 1
    assert "discarded" not in kinds[kinds.index("laid_down"):]
    scored = next(e for e in game.log if e.kind == "deal_scored")
    assert scored.penalties[0] == 0 and game.totals == [scored.penalties[s] for s in range(4)]
    assert all(scored.penalties[s] > 0 for s in (1, 2, 3))
    assert "Next deal" in str(deal.board.components)
    result = await world.click(alice, stale_hand, label="Call K♥")  # a stale button
    assert result.response.ephemeral and "decision is over" in result.response.content
    assert deal.game.totals == game.totals and deal.game.between_deals


async def test_refusals_are_ephemeral_with_a_reason_and_change_nothing(world):
    deal = await open_deal(world)
    alice, bob = world.alice, world.bob
    before = deal.game.model_dump_json()
    result = await world.click(bob, deal.board, label="Call K♥ · Alice")  # a wrong seat
    assert result.response.ephemeral and "Not your turn" in result.response.content
    assert deal.game.model_dump_json() == before
    await deal.click(alice, deal.board, label="Call K♥ · Alice")
    await deal.wait(WINDOW)
    hand = await deal.hand(alice)
    await deal.click(alice, hand, label="Draw from the stock")
    await deal.select(alice, hand, ids("7c 7d 7h"), "pick")
    before, draft = deal.game.model_dump_json(), deal.table.drafts[0]
    result = await world.click(alice, hand, label="Stage as four")  # an illegal meld
    assert result.response.ephemeral and "Not a four" in result.response.content
    assert deal.table.drafts[0] == draft and deal.game.model_dump_json() == before
    await deal.click(alice, hand, label="Stage as three")
    result = await world.click(alice, hand, label="Lay down (1)")  # the contract is short
    refused = result.response
    assert refused.ephemeral and "contract needs 3 × three and 0 × four" in refused.content
    assert deal.game.model_dump_json() == before and len(deal.table.drafts[0][1]["groups"]) == 1
    bob_hand = await deal.hand(bob)
    assert "Nothing to decide" in bob_hand.embeds[0].fields[-1].value
    assert deal.game.pending()[0].seat == 0 and SYSTEM not in deal.table.deadlines


async def open_honour_deal(world: Any) -> Deal:
    """Alice (seat 0) and Bob (seat 1) with two AI seats under the Trinidad rules with calls
    on honour (§2T.6): deal 1, Alice is to draw; AI seat 2 holds 20 cards after 4 calls (an
    over-caller); AI seat 3 has used its three calls (the AI never over-calls)."""
    opened = await world.slash(world.alice, "kalooki start", preset="trinidad",
                             honour_calls=True)
    deal = Deal(world, opened)
    await world.click(world.bob, opened.response, label="Join")
    for _ in range(2):
        await world.click(world.alice, opened.response, label="Add AI")
    await world.click(world.alice, opened.response, label="Start")
    assert deal.game.rules.challenges
    hands = {0: ids("2c 3c 4c 5c 7d 8d 9d Td 2h 4h 6h 8h"),
             1: ids("2s 3s 4s 5s 7s 8s 9s Ts Jh Qh Kh Ah"),
             2: ids("2d 3d 4d 5d 6d Jd Qd Kd 3h 5h 7h 9h 6c 8c Tc Jc Qc Kc Ac Ad"),
             3: ids("2c 3c 4c 5c 7d 8d 9d Td 2h 4h 6h 8h", copy=1)}
    rules = deal.game.rules.model_copy(update={"call_window": WINDOW})
    game = KalookiGame.from_position(rules, hands=hands, dealer=3, turn=0, phase=Phase.DRAW,
                                     discard=ids("6s"), stock=ids("Js Qs Ks"),
                                     calls_used={2: 4, 3: 3})
    await deal.set_position(game)
    return deal


async def test_members_challenge_an_over_caller_and_a_player_who_did_not_over_call(world):
    deal = await open_honour_deal(world)
    alice, bob = world.alice, world.bob
    hand = await deal.hand(alice)
    labels = str(hand.components)
    assert "Challenge 🤖" in labels and "(20 cards)" in labels and "Challenge Bob" in labels
    assert "more than 18 cards" in hand.embeds[0].fields[-1].value
    bob_hand = await deal.hand(bob)
    assert "Challenge" not in str(bob_hand.components)  # only at one's own draw
    over_caller = sorted(deal.game.hands[2])
    await deal.click(alice, hand, custom_id=control_arg(hand, "challenge", "2"))
    game = deal.game
    assert game.sitting_out == {2: hand_points(over_caller) + 50}  # right: seat 2 sits out
    assert game.discard[:20] == over_caller and game.turn == 0 and game.phase is Phase.DRAW
    board = deal.board.embeds[0]
    assert "sits out this deal" in board.fields[0].value
    log = next(f.value for f in board.fields if f.name == "Log")
    assert "challenges" in log and "20 cards against 18, right" in log
    assert str(hand.components).count("Challenge") == 2  # Bob and seat 3 still may be
    await deal.click(alice, hand, label="Draw from the stock")
    await deal.select(alice, hand, ids("Js"), "discard")  # Bob's turn; seat 3 may call
    await deal.wait(WINDOW)
    assert deal.game.turn == 1 and deal.game.phase is Phase.DRAW
    bob_hand = await deal.hand(bob)
    targets = str(bob_hand.components)
    assert "Challenge Alice" in targets and "(12 cards)" in targets
    assert targets.count("Challenge") == 2  # Alice and seat 3, not seat 2 who sits out
    bob_cards = list(deal.game.hands[1])
    await deal.click(bob, bob_hand, custom_id=control_arg(bob_hand, "challenge", "3"))
    game = deal.game
    assert game.sitting_out[1] == hand_points(bob_cards) + 50  # wrong: Bob sits out
    assert game.turn in (3, 0)  # seat 2 is skipped; AI seat 3 plays on
    log = next(f.value for f in deal.board.embeds[0].fields if f.name == "Log")
    assert "12 cards against 18, wrong" in log
    bob_hand = await deal.hand(bob)
    assert "You sit out the rest of this deal" in bob_hand.embeds[0].fields[-1].value
    assert bob_hand.components == [] or "Challenge" not in str(bob_hand.components)
    for _ in range(20):  # AI seat 3 plays its turn; seats 1 and 2 are skipped
        if deal.game.turn == 0:
            break
        await deal.wait(5)
    assert deal.game.turn == 0 and 1 not in deal.game.to_act and 2 not in deal.game.to_act


def control_arg(message: Any, verb: str, arg: str) -> str:
    """The custom_id of the message's component with ``verb`` and ``arg``."""
    for row in message.components:
        for child in (row if isinstance(row, dict) else row.to_dict())["components"]:
            parts = child.get("custom_id", "").split(":")
            if parts[3:] == [verb, arg]:
                return child["custom_id"]
    raise AssertionError(f"no {verb} {arg} control")


async def test_a_member_who_over_calls_is_challenged_by_an_ai_seat(world):
    """Honour mode: Bob makes a 4th call (his hand warns him), Alice allows it; at AI seat
    2's draw the AI challenges Bob's 20 cards and Bob sits out the rest of the deal."""
    opened = await world.slash(world.alice, "kalooki start", preset="trinidad",
                               honour_calls=True)
    deal = Deal(world, opened)
    alice, bob = world.alice, world.bob
    await world.click(bob, opened.response, label="Join")
    for _ in range(2):
        await world.click(alice, opened.response, label="Add AI")
    await world.click(alice, opened.response, label="Start")
    hands = {0: ids("2c 3c 4c 5c 7d 8d 9d Td 2h 4h 6h 8h"),
             1: ids("2d 3d 4d 5d 6d Jd Qd Kd 3h 5h 7h 9h 6c 8c Tc Jc Qc Ac"),
             2: ids("2c 3c 4c 5c 7d 8d 9d Td 2h 4h 6h 8h", copy=1),
             3: ids("2s 3s 4s 5s 7s 8s 9s Ts Jh Qh Kh Ah")}
    rules = deal.game.rules.model_copy(update={"call_window": WINDOW})
    game = KalookiGame.from_position(rules, hands=hands, dealer=3, turn=0, phase=Phase.WINDOW,
                                     discard=ids("Ad"), discarder=3,
                                     stock=ids("Js Qs Ks 6s As"), calls_used={1: 3, 2: 3, 3: 3})
    await deal.set_position(game)
    bob_hand = await deal.hand(bob)
    assert "over-call" in bob_hand.embeds[0].fields[-1].value
    await deal.click(bob, deal.board, label="Call A♦ · Bob")
    alice_hand = await deal.hand(alice)
    await deal.click(alice, alice_hand, label="Allow")
    assert deal.game.calls_used[1] == 4 and len(deal.game.hands[1]) == 20
    await deal.click(alice, alice_hand, label="Draw from the stock")
    await deal.select(alice, alice_hand, ids("Qs"), "discard")
    await deal.wait(WINDOW)  # nobody calls Q♠: Bob draws and discards
    bob_hand = await deal.hand(bob)
    await deal.click(bob, bob_hand, label="Draw from the stock")
    await deal.select(bob, bob_hand, ids("Ks"), "discard")
    assert len(deal.game.hands[1]) == 20
    for _ in range(20):  # the call window closes; AI seat 2 draws after its challenge
        if deal.game.sitting_out:
            break
        await deal.wait(5)
    made = next(e for e in deal.game.log if e.kind == "challenge_made")
    assert (made.challenger, made.challenged, made.correct, made.out) == (2, 1, True, 1)
    assert deal.game.sitting_out == {1: made.score} and deal.game.hands[1] == []
    log = next(f.value for f in deal.board.embeds[0].fields if f.name == "Log")
    assert "20 cards against 18, right" in log
    bob_hand = await deal.hand(bob)
    assert "You sit out the rest of this deal" in bob_hand.embeds[0].fields[-1].value


@pytest.mark.parametrize("options", [{}, {"packs": 3, "jokers": 8}])
async def test_verify_names_the_code_that_recomputes_this_pack_set(world, options):
    """Verify's Python, run on the session seed, gives the deal's deck: the discard's first
    card and the stock in order, for the 108 cards and for a larger pack set (§2.14)."""
    board = (await world.slash(world.alice, "kalooki start", **options)).response
    for member in (world.bob, world.carol):
        await world.click(member, board, label="Join")
    await world.click(world.alice, board, label="Start")
    table = world.bot.tables.by_channel[world.channel.id]
    game = table.game
    answer = (await world.click(world.bob, board, label="Verify")).response
    text = "\n".join(field.value for field in answer.embeds[0].fields)
    code = re.search(r"Parlour's (.+) recomputes the whole deck", text).group(1)
    deck = eval(code, {"engine": engine, "seed": table.seed})  # the bot's own text
    assert len(deck) == len(game.rules.deck()) == (108 if not options else 164)
    stock = len(game.stock)
    assert deck[-stock:] == game.stock and [deck[-stock - 1]] == game.discard


@pytest.mark.parametrize(("deals", "shown"), [(1, 1), (3, 3), (20, 9)])
async def test_the_board_counts_the_deals_the_table_agreed_to_play(world, deals, shown):
    """A table started with ``deals:1`` plays one deal, so its board says "deal 1 of 1",
    not the set's 9; an agreed length beyond the set ends with the set (9 Jamaican deals)."""
    board = (await world.slash(world.alice, "kalooki start", deals=deals)).response
    for member in (world.bob, world.carol):
        await world.click(member, board, label="Join")
    await world.click(world.alice, board, label="Start")
    embed = board.embeds[0]
    assert embed.title.endswith(f" · deal 1 of {shown}")
    assert embed.description.startswith(f"**Deal 1 of {shown}**: ")


def select_of(message: Any, verb: str) -> dict[str, Any]:
    """The message's select with ``verb`` (as Discord receives it)."""
    for row in message.components:
        for child in (row if isinstance(row, dict) else row.to_dict())["components"]:
            if "options" in child and child["custom_id"].split(":")[3] == verb:
                return child
    raise AssertionError(f"no {verb} select")


async def test_a_card_that_fits_more_than_25_combinations_pages_where_it_may_go(world):
    """A Discord select holds 25 options: the "Play … on" select of a joker that fits each of
    the 30 combinations on the table listed the first 25 and no more, so five lay-offs could
    not be chosen (rules/kalooki.md §2.9 items 47-50). It pages like the card picker, each
    combination's options on one page, and the last one takes the joker."""
    deal = await open_deal(world)
    alice = world.alice
    threes = [[copy + suit * 13 + rank for suit in range(3)]  # ♣♦♥ of 2 … K, both packs
              for rank in range(12) for copy in (0, 52)]
    fours = [[copy + 39 + low + i for i in range(4)]  # ♠ 2-5, 6-9, 10-K, both packs
             for copy in (0, 52) for low in (0, 4, 8)]
    melds = [(1 + i % 3, kind, cs) for kind, group in (("three", threes), ("four", fours))
             for i, cs in enumerate(group)]
    game = KalookiGame.from_position(JAMAICAN, hands={0: [104, 12], 1: [25], 2: [38], 3: [51]},
                                     dealer=3, turn=0, phase=Phase.PLAY, melds=melds,
                                     laid_down=range(4))
    await deal.set_position(game)
    hand = await deal.hand(alice)
    await deal.select(alice, hand, [104], "pick")  # the joker: it fits all 30 (§2.9 item 47)
    offered: list[str] = []
    for page in (1, 2):
        select = select_of(hand, "play_on")
        assert select["placeholder"] == f"Play Jkr on… (page {page} of 2)"
        assert len(select["options"]) <= 25
        offered += [option["value"] for option in select["options"]]
        if page == 1:
            await deal.click(alice, hand, label="Combinations 2/2")
    assert offered == [f"o_m{i}_top" for i in range(1, 31)]
    await deal.world.select(alice, hand, ["o_m30_top"], custom_id=control(hand, "play_on"))
    last = deal.game.melds[-1]
    assert last.id == "m30" and len(last.cards) == 5 and Card(104) in last.cards
    assert deal.game.hands[0] == [Card(12)]


async def test_the_play_on_select_plays_the_card_it_names_after_a_newer_hand_picked_another(
        world):
    """Two views of Alice's hand: in the first she picks the joker, in the newer one 7♠.
    The first view still says "Play Jkr on…"; choosing Bob's three of 7s there laid 7♠ off,
    the card the draft held then, not the one the select named. It lays the joker off
    (rules/kalooki.md §2.9 items 46-47: the player names the card and the combination)."""
    deal = await open_deal(world)
    alice = world.alice
    melds = [(1, "three", ids("7c 7d 7h")), (1, "three", ids("9c 9d 9h")),
             (2, "three", ids("Kc Kd Kh"))]
    game = KalookiGame.from_position(JAMAICAN, hands={0: [104, *ids("7s 2c")], 1: ids("3d 4d"),
                                                      2: ids("5h"), 3: ids("6h")},
                                     dealer=3, turn=0, phase=Phase.PLAY, melds=melds,
                                     laid_down=range(4))
    await deal.set_position(game)
    first = await deal.hand(alice)
    await deal.select(alice, first, [104], "pick")
    newer = await deal.hand(alice)
    await deal.select(alice, newer, ids("7s"), "pick")
    assert select_of(newer, "play_on")["placeholder"] == "Play 7♠\ufe0e on…"
    assert select_of(first, "play_on")["placeholder"] == "Play Jkr on…"
    await deal.world.select(alice, first, ["o_m1_top"], custom_id=control(first, "play_on"))
    assert deal.game.melds[0].cards == (*ids("7c 7d 7h"), Card(104))
    assert sorted(deal.game.hands[0]) == sorted(ids("7s 2c"))


async def test_the_final_board_of_a_one_deal_table_marks_no_dealer(world):
    """A ``deals:1`` table ends after its deal: the final board's Players field marked the
    next deal's dealer, a deal that never comes (Tripoli and Troefcall boards mark none
    once the game is over)."""
    board = (await world.slash(world.alice, "kalooki start", deals=1)).response
    deal = Deal(world, None)
    await world.click(world.bob, board, label="Join")
    await world.click(world.alice, board, label="Add AI")
    await world.click(world.alice, board, label="Start")
    melds = [(1, "three", ids("7c 7d 7h")), (1, "three", ids("9c 9d 9h"))]
    game = KalookiGame.from_position(deal.game.rules, hands={0: ids("7s"), 1: ids("2c 3d"),
                                                             2: ids("4h 5s")},
                                     dealer=2, turn=0, phase=Phase.PLAY, melds=melds,
                                     laid_down=[0])
    await deal.set_position(game)
    hand = await deal.hand(world.alice)
    await deal.select(world.alice, hand, ids("7s"), "pick")
    await world.select(world.alice, hand, ["o_m1_top"], custom_id=control(hand, "play_on"))
    final = next(m for m in world.channel.history() if m.id == board.id).embeds[0]
    assert final.description.startswith("**The set is over.**")
    players = next(f.value for f in final.fields if f.name == "Players")
    assert players.splitlines() == ["**Alice** · 0 pts", "**Bob** · 5 pts", "**🤖 AI 1** · 9 pts"]




async def test_staging_or_laying_down_in_an_older_view_of_the_hand_is_stale(world):
    """Two views of Alice's hand in one turn: "Stage as three" or "Lay down" pressed in the
    older one acted on the draft the newer one had made since (it staged the newer pick; it
    laid down the newer staging, or refused it as short of the contract). A click from a
    view of another draft than the current one gets the stale answer above the current
    hand, and changes nothing."""
    deal = await open_deal(world)
    alice = world.alice
    await deal.click(alice, deal.board, label="Call K♥ · Alice")
    await deal.wait(WINDOW)
    hand = await deal.hand(alice)
    await deal.click(alice, hand, label="Draw from the stock")
    first = await deal.hand(alice)
    await deal.select(alice, first, ids("7c 7d 7h"), "pick")
    newer = await deal.hand(alice)
    await deal.select(alice, newer, ids("9c 9d 9h"), "pick")
    before, draft = deal.game.model_dump_json(), deal.table.drafts[0]
    result = await world.click(alice, first, label="Stage as three")
    assert result.response.id == first.id and "decision is over" in result.response.content
    assert deal.table.drafts[0] == draft and deal.game.model_dump_json() == before
    await deal.click(alice, first, label="Stage as three")  # it shows the current draft now
    newest = await deal.hand(alice)
    await deal.select(alice, newest, ids("7c 7d 7h"), "pick")
    await deal.click(alice, newest, label="Stage as three")
    draft = deal.table.drafts[0]
    assert len(draft[1]["groups"]) == 2
    result = await world.click(alice, first, label="Lay down (1)")
    assert result.response.id == first.id and "decision is over" in result.response.content
    assert deal.table.drafts[0] == draft and deal.game.model_dump_json() == before

async def test_the_log_of_a_one_deal_table_says_once_that_the_game_ends(world):
    """A ``deals:1`` table's final board logged "1 deal played, as agreed: the game ends."
    and then "The set is over.", the same end twice: the agreed length's line says it."""
    board = (await world.slash(world.alice, "kalooki start", deals=1)).response
    deal = Deal(world, None)
    await world.click(world.bob, board, label="Join")
    await world.click(world.alice, board, label="Add AI")
    await world.click(world.alice, board, label="Start")
    game = KalookiGame.from_position(deal.game.rules, hands={0: ids("7s"), 1: ids("2c 3d"),
                                                             2: ids("4h 5s")},
                                     dealer=2, turn=0, phase=Phase.PLAY,
                                     melds=[(1, "three", ids("7c 7d 7h"))], laid_down=[0])
    await deal.set_position(game)
    hand = await deal.hand(world.alice)
    await deal.select(world.alice, hand, ids("7s"), "pick")
    await world.select(world.alice, hand, ["o_m1_top"], custom_id=control(hand, "play_on"))
    final = next(m for m in world.channel.history() if m.id == board.id).embeds[0]
    log = next(f.value for f in final.fields if f.name == "Log").splitlines()
    assert log[-2:] == ["Deal 1 scored: Bob 5, 🤖 AI 1 9.",
                        "1 deal played, as agreed: the game ends."]
