"""Faults around a Tripoli table in simcord: a slow store (C04), AI moves long after the
board's interaction (C01), board edits that fail (unknown message, too old, 503), DM hand
views with closed DMs (C14), a store write that fails, and debounced board edits."""

from __future__ import annotations

import itertools

import pytest
from leak_scan import shown_cards
from slow_store import slow_store
from test_tripoli import open_table

from bot.replies import GENERIC_FAILURE
from bot.store import StoreError
from engine.tripoli.phases import Phase


async def test_a_slow_store_is_acknowledged_in_time_and_applied_once(world):
    session = await open_table(world, world.alice, world.bob)
    await session.click(world.alice, session.board, label="Start")
    dealer = session.game.dealer
    member = session.member(dealer)
    log = len(session.game.log)
    async with slow_store(world, "commit_table"):
        result = await member.click(session.board, label="Keep")
        assert result.deferred and result.acknowledged  # within the 3 s on simcord's clock
    assert [e.kind for e in session.game.log[log:]].count("spare_kept") == 1
    assert session.game.phase is Phase.SELECT
    assert "Poker" in session.board.embeds[0].description


@pytest.fixture
def settings(settings):
    """AI moves 10 s apart and board edits debounced by 6 s: longer than simcord's settle
    timeout, so only ``advance_time`` fires them (no waiting in real time)."""
    return settings.model_copy(update={"ai_delay": 10.0, "board_edit_interval": 6.0})


async def test_ai_moves_long_after_the_start_edit_the_board_with_the_bot_token(world):
    """C01: the board came from an interaction; AI moves 20 minutes later still show."""
    session = await open_table(world, world.alice)
    for _ in range(2):
        await session.click(world.alice, session.board, label="Add AI")
    session.total = 300
    await session.click(world.alice, session.board, label="Start")
    await world.env.advance_time(20 * 60)  # the board's interaction token has expired
    mark, log = len(world.env.http_requests), len(session.game.log)
    for _ in range(40):
        if session.game.phase is Phase.BETWEEN_DEALS:
            break
        if not any(session.table.seats[s].ai for s in session.game.to_act):
            seat = min(session.game.to_act)
            await session.default_move(seat, session.member(seat))
        await world.env.advance_time(30)
    assert session.game.phase is Phase.BETWEEN_DEALS
    await world.env.advance_time(10)  # the last debounced edit
    ai_moves = [e for e in session.game.log[log:] if getattr(e, "seat", None) in (1, 2)]
    assert ai_moves, "the AI seats did not act after the 20 minutes"
    later = world.env.http_requests[mark:]
    board_path = f"/channels/{world.channel.id}/messages/{session.board.id}"
    edits = [r for r in later if r.method == "PATCH" and r.path == board_path]
    assert edits, "AI moves never reached the board"
    # the tokens of the interactions that made the board (expired) are never used again; a
    # webhook edit after the 20 minutes is a hand message kept current by a fresh token
    old_tokens = {r.path.split("/")[3] for r in world.env.http_requests[:mark]
                  if r.path.startswith("/interactions/")}
    assert not [r for r in later if r.path.startswith("/webhooks/")
                and r.path.split("/")[3] in old_tokens]
    assert "Between deals" in session.board.embeds[0].description


@pytest.mark.parametrize("code", [10008, 30046])
async def test_a_board_that_cannot_be_edited_is_posted_again(world, code):
    """The board was deleted (10008) or is too old to edit (30046): a new board appears,
    and its buttons drive the same table."""
    session = await open_table(world, world.alice, world.bob)
    await session.click(world.alice, session.board, label="Start")
    await session.play_until(lambda: session.game.phase is Phase.SELECT)
    old_board = session.board.id
    world.env.inject_error("PATCH", f"/channels/*/messages/{old_board}", status=404, code=code)
    hand = await session.my_hand(world.alice)
    await session.click(world.alice, hand, label="Best five")  # the board edit fails
    await world.env.advance_time(10)  # the debounced edit
    table = session.table
    assert table.board_message_id != old_board
    new_board = world.channel.last_message
    assert new_board.id == table.board_message_id and "My hand" in [
        child.label for row in new_board.components for child in row.children]
    saved = dict((t, d) for t, _g, _c, d in await world.store.load_tables())
    assert str(new_board.id) in saved[table.id]
    result = await session.click(world.alice, new_board, label="My hand")
    assert result.response.ephemeral


async def test_a_slow_end_command_answers_privately_after_deferring(world):
    session = await open_table(world, world.alice, world.bob)
    await session.click(world.alice, session.board, label="Start")
    mark = len(world.env.http_requests)
    async with slow_store(world, "commit_table"):
        result = await world.alice.slash(world.channel, "tripoli end")
    assert session.table.ending
    [callback] = [r for r in world.env.http_requests[mark:] if r.path.endswith("/callback")]
    assert callback.json == {"type": 5, "data": {"flags": 64}}  # deferred, privately
    [answer] = result.followups or [result.response]
    assert answer.ephemeral and "ends after this deal" in answer.content


async def test_dm_hand_views_and_closed_dms(world):
    """DM hand views: one DM per deal, edited as the hand changes, usable for decisions;
    closed DMs (50007, C14) fall back to My hand with a note on the board and no cards."""
    alice, bob = world.alice, world.bob
    for member in (alice, bob):
        await world.store.set_setting(f"user:{member.id}", "dm", "true")
    bob_dm = bob.user.dm_channel
    world.env.inject_error("POST", f"/channels/{bob_dm.id}/messages", status=403, code=50007,
                           times=None)
    session = await open_table(world, alice, bob)
    await session.click(alice, session.board, label="Start")
    await world.env.advance_time(20)  # the debounced board edit, DMs, then the note
    [dm] = alice.user.dm_channel.history()
    alice_seat = session.seat(alice)
    own = {int(c) for c in session.game.hands[alice_seat]}
    shown = shown_cards(dm.embeds, [row.to_dict() for row in dm.components])
    assert shown and shown <= own  # her cards, nobody else's
    assert "DMs are closed" in " ".join(f.value for f in session.board.embeds[0].fields)
    assert not bob_dm.history()
    dealer = session.game.dealer
    await session.click(session.member(dealer), session.board, label="Keep")
    await world.env.advance_time(10)
    [dm] = alice.user.dm_channel.history()  # the same message, edited
    await session.run(alice, alice.user.click(dm, label="Best five"))  # decided in the DM
    assert alice_seat in session.game.selections


def text_of(embed: dict) -> dict:
    """An embed as a dict without its picture (the rendered embed points at none yet)."""
    return {key: value for key, value in embed.items() if key != "image"}


def board_patches(world, board_id: int, since: int) -> int:
    path = f"/channels/{world.channel.id}/messages/{board_id}"
    return sum(1 for r in world.env.http_requests[since:]
               if r.method == "PATCH" and r.path == path)


async def test_a_board_edit_failing_with_503_is_tried_again_and_the_state_kept(world):
    session = await open_table(world, world.alice, world.bob)
    await session.click(world.alice, session.board, label="Start")
    await session.play_until(lambda: session.game.phase is Phase.SELECT)
    world.env.inject_error("PATCH", f"/channels/*/messages/{session.board.id}", status=503)
    mark = len(world.env.http_requests)
    hand = await session.my_hand(world.alice)
    await session.click(world.alice, hand, label="Best five")  # the board is edited later
    seat = session.seat(world.alice)
    await world.env.advance_time(6)  # the debounced edit: 503
    assert board_patches(world, session.board.id, mark) == 1
    assert seat in session.game.selections  # the move stands
    stale = text_of(session.board.embeds[0].to_dict())
    assert stale != world.bot.tables.render_board(session.table).embed.to_dict()
    await world.env.advance_time(6)  # tried again
    assert board_patches(world, session.board.id, mark) == 2
    assert text_of(session.board.embeds[0].to_dict()) == (
        world.bot.tables.render_board(session.table).embed.to_dict())
    assert not world.env.errors


async def test_a_failed_save_in_a_click_changes_nothing_and_asks_to_retry(world):
    session = await open_table(world, world.alice, world.bob)
    await session.click(world.alice, session.board, label="Start")
    store, save = world.store, world.store.commit_table

    async def broken(*_args):
        raise StoreError("disk I/O error")

    store.commit_table = broken
    game, board = session.game.model_dump_json(), session.board.embeds[0].to_dict()
    dealer = session.member(session.game.dealer)
    result = await session.click(dealer, session.board, label="Keep")
    assert result.response.ephemeral and "try again" in result.response.content
    assert session.game.model_dump_json() == game and session.board.embeds[0].to_dict() == board
    store.commit_table = save
    await session.click(dealer, session.board, label="Keep")  # the retry works
    assert session.game.phase is Phase.SELECT
    saved = dict((t, d) for t, _g, _c, d in await world.store.load_tables())
    assert '"phase":"select"' in saved[session.table.id].replace(" ", "").replace('\\"', '"')


async def test_a_burst_of_ai_moves_becomes_at_most_one_board_edit_per_interval(world):
    """AI moves 5.5 s apart (beyond simcord's settle timeout, so only ``advance_time`` runs
    them), with no interaction behind them: the board is edited at most once per
    board_edit_interval (30 s here) on simcord's virtual clock."""
    world.bot.settings = world.bot.settings.model_copy(
        update={"ai_delay": 5.5, "board_edit_interval": 30.0})
    interval = world.bot.settings.board_edit_interval
    session = await open_table(world, world.alice)
    for _ in range(3):
        await session.click(world.alice, session.board, label="Add AI")
    session.total = 400
    await session.click(world.alice, session.board, label="Start")
    await session.click(world.alice, session.board, label="Leave")  # the AI plays her seat
    mark, log, moves = len(world.env.http_requests), len(session.game.log), 0
    edits: list[float] = []
    step = 1.0
    for tick in range(1, 1000):
        await world.env.advance_time(step)
        now = len(session.game.log)  # the game's log starts again with each deal
        moves, log = moves + (now - log if now >= log else now), now
        edits += [tick * step] * (board_patches(world, session.board.id, mark) - len(edits))
        if not session.board.components:  # the final result is on the board
            break
    assert session.table.state.value == "over" and edits and moves > len(edits)
    gaps = [later - earlier for earlier, later in itertools.pairwise(edits)]
    assert all(gap >= interval - step for gap in gaps), gaps
    print(f"{moves} events, {len(edits)} board edits at {edits}")


async def test_a_bug_in_a_click_is_answered_once_privately_and_logged_without_custom_id(
    world, monkeypatch, caplog
):
    session = await open_table(world, world.alice, world.bob)
    await session.click(world.alice, session.board, label="Start")
    adapter = world.bot.tables.games["tripoli"]

    def broken(*_args):
        raise RuntimeError("boom")

    monkeypatch.setattr(adapter, "hand", broken)
    result = await world.alice.click(session.board, label="My hand")
    assert result.acknowledged and result.response.ephemeral
    assert result.response.content == GENERIC_FAILURE
    [record] = [r for r in caplog.records if r.name == "parlour.replies"]
    assert record.levelname == "ERROR" and "boom" in (record.exc_text or "")
    assert "pl:" not in record.getMessage() and str(world.alice.id) in record.getMessage()
    monkeypatch.undo()
    await session.my_hand(world.alice)  # the table works on


async def test_a_deleted_board_is_posted_again_at_the_next_interaction(world):
    """Someone deletes the board mid-deal: the next click in a private view posts a new
    board at once (not at the next timeout), with working buttons."""
    session = await open_table(world, world.alice, world.bob)
    await session.click(world.alice, session.board, label="Start")
    await session.play_until(lambda: session.game.phase is Phase.SELECT)
    hand = await session.my_hand(world.bob)
    old_board = session.board.id
    world.env.inject_error("PATCH", f"/channels/*/messages/{old_board}", status=404,
                           code=10008, times=None)  # the board is gone for good
    deadline = min(when for _decision, when in session.table.deadlines.values())
    await session.click(world.bob, hand, label="Best five")
    await world.env.advance_time(7)  # the debounced edit, long before any deadline
    assert world.clock.now().timestamp() < deadline
    table = session.table
    assert table.board_message_id != old_board
    new_board = world.channel.last_message
    assert new_board.id == table.board_message_id
    result = await session.click(world.alice, new_board, label="My hand")
    assert result.response.ephemeral


async def test_a_board_the_bot_may_not_edit_is_reported_and_play_goes_on(world, caplog):
    """Missing permissions (50013): no endless retries; the admin gets one log line naming
    the permissions, the next member who opens their hand is told, and the table plays on
    from the private views; once the permission is back the board catches up."""
    session = await open_table(world, world.alice, world.bob)
    await session.click(world.alice, session.board, label="Start")
    await session.play_until(lambda: session.game.phase is Phase.SELECT)
    world.env.inject_error("PATCH", f"/channels/*/messages/{session.board.id}", status=403,
                           code=50013, message="Missing Permissions", times=1)
    mark = len(world.env.http_requests)
    hand = await session.my_hand(world.alice)
    await session.click(world.alice, hand, label="Best five")
    await world.env.advance_time(30)
    assert board_patches(world, session.board.id, mark) == 1  # not tried again and again
    assert session.table.board_blocked
    assert [r for r in caplog.records if r.levelname == "ERROR" and "Send Messages" in
            r.getMessage()]
    told = await session.click(world.bob, session.board, label="My hand")
    assert "cannot show this table's board" in (told.response.content or "")
    await session.click(world.bob, told.response, label="Best five")  # play goes on
    await world.env.advance_time(7)
    assert not session.table.board_blocked
    assert text_of(session.board.embeds[0].to_dict()) == (
        world.bot.tables.render_board(session.table).embed.to_dict())


async def test_a_deleted_board_comes_back_on_a_stale_click_from_a_private_view(world):
    """Even a refused click (a decision that is over) from an old private view brings a
    deleted board back."""
    session = await open_table(world, world.alice, world.bob)
    await session.click(world.alice, session.board, label="Start")
    await session.play_until(lambda: session.game.phase is Phase.SELECT)
    old_hand = await session.my_hand(world.alice)
    await session.click(world.alice, await session.my_hand(world.alice), label="Best five")
    old_board = session.board.id
    world.env.inject_error("PATCH", f"/channels/*/messages/{old_board}", status=404,
                           code=10008, times=None)
    mark = len(world.env.http_requests)
    await session.click(world.alice, old_hand, label="Best five")  # that is over
    [answer] = [r.json for r in world.env.http_requests[mark:]
                if r.method == "POST" and r.path.endswith("/callback")]
    # the answer's line; the hand's next edit (its link to the board posted again) drops it
    assert "over" in (answer["data"].get("content") or "")
    await world.env.advance_time(7)
    assert session.table.board_message_id != old_board
    assert world.channel.last_message.id == session.table.board_message_id
