"""The Activity's page in headless Chromium, framed by a stand-in Discord client and served by a
stand-in server: it proves who the player is with the SDK, connects, draws the table from the
views, offers the actor's choices and sends what he chooses; it fits a phone in portrait.

Screenshots are kept in tests/activity/browser/artefacts for people to look at.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from tests.activity.browser import scenes
from tests.activity.browser.discord_client import (
    DESKTOP,
    PHONE,
    Player,
    chromium,
    open_activity,
    require_browser,
    snapshot,
)
from tests.activity.browser.stand_in import CLIENT_ID, ORIGIN, SESSION_ENDED, StandIn, User
from words import Texts

pytestmark = pytest.mark.slow

STATIC = Path(__file__).parents[3] / "bot" / "activity" / "static"
DANA = scenes.USERS[scenes.DANA]


def player(user: User) -> Player:
    return Player(user.user_id, user.name, user.code)


@pytest.fixture
async def browser() -> AsyncIterator[Any]:
    require_browser()
    async with chromium() as launched:
        yield launched


@pytest.fixture
async def server() -> AsyncIterator[StandIn]:
    async with StandIn(STATIC, (*scenes.USERS, scenes.SPECTATOR), Texts()) as stand_in:
        yield stand_in


async def open_as(
    browser: Any,
    server: StandIn,
    user: User,
    *opening: dict[str, Any],
    size: dict[str, int] = PHONE,
    platform: str = "mobile",
) -> tuple[Any, Any]:
    """``user``'s Discord client with the Activity open, the server saying ``opening`` first."""
    server.opening[user.user_id] = list(opening)
    return await open_activity(
        browser, server.url, CLIENT_ID, player(user), size, platform=platform
    )


async def boxes(frame: Any, selector: str) -> list[dict[str, float]]:
    locator = frame.locator(selector)
    found = [await locator.nth(i).bounding_box() for i in range(await locator.count())]
    return [box for box in found if box is not None]


def apart(a: dict[str, float], b: dict[str, float]) -> bool:
    return (
        a["x"] + a["width"] <= b["x"]
        or b["x"] + b["width"] <= a["x"]
        or a["y"] + a["height"] <= b["y"]
        or b["y"] + b["height"] <= a["y"]
    )


async def test_the_page_proves_who_he_is_connects_and_draws_his_table(
    browser: Any, server: StandIn
) -> None:
    page, frame = await open_as(
        browser, server, DANA, scenes.seventh_street(), scenes.danas_cards()
    )
    await server.connected(DANA)
    await frame.locator(".seat").first.wait_for()

    # The SDK's handshake named the application and Discord's frame; the code AUTHORIZE gave
    # was exchanged with the proxy's origin, for this instance and channel; AUTHENTICATE got
    # the access token the server issued.
    seen = await page.evaluate("window.sdkSeen")
    handshake = next(item["data"] for item in seen if item["opcode"] == 0)
    assert handshake["client_id"] == CLIENT_ID
    assert handshake["frame_id"] == f"frame-{DANA.user_id}"
    authorize = next(item["data"] for item in seen if item["data"].get("cmd") == "AUTHORIZE")
    assert authorize["args"]["scope"] == ["identify"]
    (token,) = server.tokens
    assert token["code"] == DANA.code
    assert token["origin"] == ORIGIN
    assert (token["instance_id"], token["channel_id"]) == (
        "i-1234-gc-700000000000000001",
        "700000000000000001",
    )
    authenticate = next(item["data"] for item in seen if item["data"].get("cmd") == "AUTHENTICATE")
    assert server.issued[authenticate["args"]["access_token"]] == DANA.user_id

    # Seven seats, his at the bottom with his seven cards face up (his three down cards
    # marked), the others' down cards as backs and their up cards face up.
    assert await frame.locator(".seat").count() == 7
    mine = frame.locator(".seat[data-seat='3']")
    assert await mine.locator(".card.face").count() == 7
    assert await mine.locator(".card.hidden").count() == 3
    assert await mine.locator(".card.back").count() == 0
    ann = frame.locator(".seat[data-seat='0']")
    assert await ann.locator(".card.back").count() == 3
    faces = await ann.locator(".card.face").all()
    assert [await card.get_attribute("data-card") for card in faces] == ["Kd", "7c", "7h", "2s"]
    my_box, ann_box = await mine.bounding_box(), await ann.bounding_box()
    assert my_box is not None and ann_box is not None
    assert my_box["y"] > ann_box["y"]
    await snapshot(page, "phone-seventh-street")


@pytest.mark.parametrize("players", [7, 8])
async def test_at_phone_size_everything_needed_is_on_the_screen(
    browser: Any, server: StandIn, players: int
) -> None:
    street = 7 if players == 7 else 6
    page, frame = await open_as(
        browser,
        server,
        DANA,
        scenes.seventh_street(players=players),
        scenes.danas_cards(street=street),
    )
    await frame.locator(".actions button").first.wait_for()
    needed = {
        "cards": ".card",
        "names and stacks": ".panel .top",
        "bets": "[data-testid=bet]",
        "pot": "[data-testid=pot]",
        "whose turn": "[data-testid=clock]",
        "buttons": ".actions button",
    }
    for what, selector in needed.items():
        found = await boxes(frame, selector)
        assert found, f"no {what} drawn"
        for box in found:
            inside = (
                box["x"] >= 0
                and box["y"] >= 0
                and box["x"] + box["width"] <= PHONE["width"] + 0.5
                and box["y"] + box["height"] <= PHONE["height"] + 0.5
            )
            assert inside, f"{what} outside the 360x640 screen: {box}"
    # No seat covers another, nor a bet, nor the pot.
    panels = await boxes(frame, ".panel")
    others = await boxes(frame, "[data-testid=bet], [data-testid=pot]")
    for i, a in enumerate(panels):
        for b in (*panels[i + 1 :], *others):
            assert apart(a, b), f"overlap: {a} {b}"
    scrolls = await frame.locator("body").evaluate(
        "body => body.scrollHeight > innerHeight || body.scrollWidth > innerWidth"
    )
    assert not scrolls
    await snapshot(page, f"phone-{players}-players")


async def test_the_actor_acts_with_the_buttons_choices_and_sees_a_refusal(
    browser: Any, server: StandIn
) -> None:
    _, frame = await open_as(
        browser, server, DANA, scenes.seventh_street(seq=17), scenes.danas_cards()
    )
    buttons = frame.locator(".actions button")
    await buttons.first.wait_for()
    assert await buttons.all_inner_texts() == ["Fold", "Call 40", "Raise to 60"]
    await frame.locator("button[data-action=call]").click()
    act = await server.request(DANA, "act")
    assert {key: act[key] for key in ("action", "amount", "hand_id", "seq")} == {
        "action": "call",
        "amount": 40,
        "hand_id": scenes.HAND_ID,
        "seq": 17,
    }
    assert isinstance(act["id"], int)
    await server.push(DANA, {"type": "refused", "id": act["id"], "reason": "It is not your turn."})
    toast = frame.locator("#toast")
    await toast.filter(has_text="It is not your turn.").wait_for()
    # The bar is offered again after a refusal.
    assert await frame.locator("button[data-action=call]").is_enabled()

    # Someone else's turn: no choices, only the seat's own controls.
    await server.push(DANA, scenes.seventh_street(actor=4, seq=18))
    await frame.locator("button[data-action=sit_out]").wait_for()
    assert await frame.locator("button[data-action=call]").count() == 0


async def test_at_desktop_size_the_table_is_drawn_larger(browser: Any, server: StandIn) -> None:
    page, frame = await open_as(
        browser,
        server,
        DANA,
        scenes.seventh_street(),
        scenes.danas_cards(),
        size=DESKTOP,
        platform="desktop",
    )
    await frame.locator(".actions button").first.wait_for()
    card = await frame.locator(".seat[data-seat='0'] .card").first.bounding_box()
    assert card is not None and card["height"] >= 50
    for box in await boxes(frame, ".panel, .actions button, [data-testid=pot]"):
        assert box["x"] + box["width"] <= DESKTOP["width"]
        assert box["y"] + box["height"] <= DESKTOP["height"]
    await snapshot(page, "desktop-seventh-street")


async def test_the_results_show_hands_winners_chances_and_the_fairness_line(
    browser: Any, server: StandIn
) -> None:
    page, frame = await open_as(
        browser, server, DANA, scenes.seventh_street(), scenes.danas_cards()
    )
    await frame.locator(".seat").first.wait_for()
    await server.push(DANA, scenes.showdown())
    ann = frame.locator(".seat[data-seat='0']")
    await ann.locator(".panel.winner").wait_for()
    assert await ann.locator(".status").inner_text() == "Four of a kind, Sevens"
    assert await ann.locator(".card.face").count() == 7
    assert await ann.locator(".card.dim").count() == 2  # the two that don't play
    assert await ann.locator(".stack").inner_text() == "+341"
    assert await ann.locator(".odds").inner_text() == "71%"
    boris = frame.locator(".seat[data-seat='1']")
    assert await boris.locator(".status").inner_text() == "Mucked"
    assert await boris.locator(".card.back").count() == 3  # what the table saw, no more
    log = frame.locator("[data-testid=log]")
    assert "Ann wins the pot of 412" in await log.inner_text()
    assert scenes.DIGEST in await log.inner_text()
    await snapshot(page, "phone-showdown")
    # In Stud Hi-Lo the chances are the high half's and the low half's.
    hilo = scenes.showdown()
    hilo["view"]["public"]["low_game"] = True
    hilo["view"]["odds"]["seats"][0]["low"] = 0.25
    await server.push(DANA, hilo)
    await ann.locator(".odds", has_text="71% / 25%").wait_for()
    await server.push(DANA, scenes.between_hands(scenes.USERS[:4], next_in=9.0))
    await frame.locator("[data-next]").wait_for()
    await snapshot(page, "phone-showdown-next-hand")


async def test_a_spectator_sees_no_down_card_and_may_sit_down(
    browser: Any, server: StandIn
) -> None:
    watcher = scenes.SPECTATOR
    page, frame = await open_as(browser, server, watcher, scenes.seventh_street())
    await frame.locator(".seat").first.wait_for()
    assert await frame.locator(".card.hidden").count() == 0
    assert await frame.locator(".card.back").count() == 7 * 3
    assert await frame.locator(".bar .watching").inner_text() == "Watching"
    await snapshot(page, "phone-spectator")
    await frame.locator("input.buy-in").fill("300")
    await frame.locator("button[data-action=sit]").click()
    sit = await server.request(watcher, "sit")
    assert sit["chips"] == 300
    # Seated for the next hand, which this one's view does not show: he may sit out or leave.
    await server.push(watcher, {"type": "done", "id": sit["id"], "position": 7, "stack": 300})
    await frame.locator("button[data-action=leave]").wait_for()
    assert await frame.locator("button[data-action=sit]").count() == 0


async def test_between_hands_the_waiting_players_and_the_countdown_show(
    browser: Any, server: StandIn
) -> None:
    ann = scenes.USERS[0]
    page, frame = await open_as(
        browser, server, ann, scenes.between_hands(scenes.USERS[:3], next_in=30.0)
    )
    countdown = frame.locator("[data-next]")
    await countdown.wait_for()
    first = await countdown.inner_text()
    assert first in ("Next hand in 30 s", "Next hand in 29 s")
    # Counting down live, from the page's own clock.
    await frame.locator("[data-next]", has_text="Next hand in 28 s").wait_for(timeout=5000)
    assert await frame.locator(".seat").count() == 3
    assert "Sitting out" in await frame.locator(".seat[data-seat='1']").inner_text()
    await frame.locator("button[data-action=leave]").click()
    assert (await server.request(ann, "leave"))["type"] == "leave"
    await frame.locator("button[data-action=sit_out]").click()
    assert (await server.request(ann, "sit_out"))["out"] is True
    await snapshot(page, "phone-between-hands")


async def test_a_channel_without_a_table_offers_to_open_one(browser: Any, server: StandIn) -> None:
    ann = scenes.USERS[0]
    page, frame = await open_as(browser, server, ann, {"type": "no_table", "can_open": True})
    await frame.locator("text=There is no table in this channel.").wait_for()
    button = await frame.locator("button[data-action=open]").bounding_box()
    assert button is not None and button["height"] < 60  # a button, not a column
    await frame.locator("button[data-action=open]").click()
    opened = await server.request(ann, "open")
    await snapshot(page, "phone-no-table")
    refusal = "This channel already has a table."
    await server.push(ann, {"type": "refused", "id": opened["id"], "reason": refusal})
    await frame.locator("#toast", has_text=refusal).wait_for()
    assert await frame.locator("button[data-action=open]").is_enabled()
    await server.push(ann, scenes.between_hands((ann,), next_in=None))
    await frame.locator("text=Waiting for players").wait_for()


async def test_the_four_colour_deck_is_his_choice(browser: Any, server: StandIn) -> None:
    page, frame = await open_as(
        browser, server, DANA, scenes.seventh_street(), scenes.danas_cards(four_colour=True)
    )
    diamond = frame.locator(".seat[data-seat='3'] .card[data-card='3d'] .rank")
    await diamond.wait_for()
    blue = await diamond.evaluate("element => getComputedStyle(element).color")
    assert blue == "rgb(26, 84, 208)"  # render.theme.SUIT_BLUE
    club = frame.locator(".seat[data-seat='3'] .card[data-card='Tc'] .rank")
    assert await club.evaluate("element => getComputedStyle(element).color") == "rgb(20, 132, 58)"
    await snapshot(page, "phone-four-colour")


async def test_the_page_speaks_the_tables_language(browser: Any) -> None:
    require_browser()
    texts = Texts()
    async with StandIn(STATIC, scenes.USERS, texts, lang="ru") as server:
        page, frame = await open_as(
            browser, server, DANA, scenes.seventh_street(), scenes.danas_cards()
        )
        call = frame.locator("button[data-action=call]")
        await call.wait_for()
        expected = texts.catalogue("ru").raw("btn_call").replace("{amount}", "40")
        assert await call.inner_text() == expected
        assert await page.evaluate("document.querySelector('#activity').contentDocument") is None
        await snapshot(page, "phone-russian")


async def test_a_refused_session_is_said_and_not_tried_again(browser: Any, server: StandIn) -> None:
    server.refuse_sessions = True
    page, frame = await open_as(browser, server, DANA, scenes.seventh_street())
    await frame.locator("#screen", has_text=SESSION_ENDED).wait_for()
    assert server.sockets_opened == 1
    await page.wait_for_timeout(2500)  # longer than the wait before a reconnection
    assert server.sockets_opened == 1 and not server.received


async def test_a_lost_connection_is_said_and_made_again(browser: Any, server: StandIn) -> None:
    _, frame = await open_as(browser, server, DANA, scenes.seventh_street(), scenes.danas_cards())
    await frame.locator(".seat").first.wait_for()
    await server.drop(DANA)
    await frame.locator("#screen", has_text="Connection lost").wait_for()
    # The same session, a new socket: the table is drawn again from what the server sends.
    await server.connected(DANA)
    await frame.locator(".seat[data-seat='3'] .card.hidden").first.wait_for()
    assert server.sockets_opened == 2
