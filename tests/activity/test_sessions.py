"""Who is at the page, proven by Discord, and a session that acts for its own user in its own
Activity instance and channel only; origins, sizes and rates checked, a bad message answered
with an error that changes nothing."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bot.activity.page_socket import Rate
from tests.activity.pages import ORIGIN, Rig, activity_rig
from tests.e2e.fake_activity import authorize, start_instance
from tests.texts import TEXTS

EN = "en"


@pytest.fixture
async def rig(tmp_path: Path):  # type: ignore[no-untyped-def]
    async with activity_rig(tmp_path) as made:
        yield made


def _said(key: str, lang: str = EN) -> str:
    return TEXTS.t(lang, key)


async def test_a_good_code_gives_a_session_for_the_user_discord_names(rig: Rig) -> None:
    ann = rig.user("ann")
    rig.fake.users[ann]["locale"] = "ru"
    instance = start_instance(rig.fake, rig.channel, ann)
    status, body = await rig.token(
        {"code": authorize(rig.fake, ann), "instance_id": instance, "channel_id": rig.channel}
    )
    assert status == 200
    assert body["user_id"] == str(ann) and body["name"] == "Ann"
    assert body["access_token"] in rig.fake.access_tokens and body["session"]
    page = await rig.connect(
        {"session": body["session"], "instance_id": instance, "channel_id": str(rig.channel)}, ann
    )
    # No table yet: the page is told so in the player's own language, and may open one.
    welcome = await page.until(lambda f: f["type"] == "welcome")
    assert welcome["user_id"] == str(ann) and welcome["lang"] == "ru"
    assert welcome["words"]["activity_open"] == TEXTS.t("ru", "activity_open")
    assert welcome["words"]["btn_fold"] == TEXTS.t("ru", "btn_fold")
    assert welcome["words"]["game_razz"] == TEXTS.t("ru", "game_razz")
    # A command is named as typed in the page's language; the page fills the rest.
    reveal = welcome["words"]["activity_reveal"]
    assert TEXTS.slash_command("hand verify", "ru") in reveal and "{hand_id}" in reveal
    assert await page.until(lambda f: f["type"] == "no_table") == {
        "type": "no_table",
        "can_open": True,
    }


async def test_a_bad_code_a_stranger_or_another_channel_gets_no_session(rig: Rig) -> None:
    ann, bob = rig.user("ann"), rig.user("bob")
    instance = start_instance(rig.fake, rig.channel, ann)
    elsewhere = start_instance(rig.fake, rig.fake.add_channel(), bob)

    async def token(code: str, instance_id: str, origin: str = ORIGIN) -> tuple[int, str]:
        body = {"code": code, "instance_id": instance_id, "channel_id": str(rig.channel)}
        status, answer = await rig.token(body, origin)
        assert "session" not in answer
        return status, answer["error"]

    assert await token("made-up", instance) == (401, _said("activity_bad_code"))
    # Bob is not in Ann's instance; his own runs in another channel.
    assert await token(authorize(rig.fake, bob), instance) == (
        403,
        _said("activity_not_in_instance"),
    )
    assert await token(authorize(rig.fake, bob), elsewhere) == (
        403,
        _said("activity_wrong_channel"),
    )
    assert await token(authorize(rig.fake, ann), "i-0-gc-1-2") == (
        403,
        _said("activity_not_in_instance"),
    )
    # A code is good once; a page elsewhere than Discord's proxy is refused before Discord is asked.
    code = authorize(rig.fake, ann)
    assert await token(code, instance, origin="https://evil.test") == (
        403,
        _said("activity_bad_origin"),
    )
    assert code in rig.fake.oauth_codes
    status, body = await rig.token({"code": 5})
    assert status == 400 and body["error"] == _said("activity_bad_message")


async def test_a_session_is_refused_in_another_instance_or_channel(rig: Rig) -> None:
    ann = rig.user("ann")
    session, instance = await rig.session(ann)
    other = start_instance(rig.fake, rig.channel, ann)
    good = {"session": session, "instance_id": instance, "channel_id": str(rig.channel)}
    refusals = [
        ({**good, "instance_id": other}, ORIGIN, "activity_wrong_channel"),
        ({**good, "channel_id": "1"}, ORIGIN, "activity_wrong_channel"),
        ({**good, "session": "forged"}, ORIGIN, "activity_bad_session"),
        (good, "https://evil.test", "activity_bad_origin"),
    ]
    for hello, origin, key in refusals:
        page = await rig.connect(hello, ann, origin=origin)
        error = await page.until(lambda f: f["type"] == "error")
        assert error["reason"] == _said(key)
        await page.ws.receive()
        assert page.ws.close_code == 1008
        assert not any(f["type"] == "welcome" for f in page.frames)
    # The good one still works.
    page = await rig.connect(good, ann)
    await page.until(lambda f: f["type"] == "no_table")


async def test_bad_messages_get_an_error_and_change_nothing(tmp_path: Path) -> None:
    now = [0.0]
    async with activity_rig(tmp_path, clock=lambda: now[0]) as rig:
        ann = rig.user("ann")
        await rig.open_table()
        page = await rig.page(ann)
        await page.until(lambda f: f["type"] == "table")
        table = rig.house.seating.get(rig.channel)
        before = dict(table.seats)
        bad = [
            "not json",
            json.dumps([1, 2]),
            json.dumps({"type": "sit", "chips": 100}),  # no id
            json.dumps({"type": "sit", "id": 1, "chips": "100"}),
            json.dumps({"type": "act", "id": 2, "action": "shove", "seq": 0, "hand_id": "1"}),
            json.dumps({"type": "act", "id": 3, "action": "fold", "seq": True, "hand_id": "1"}),
            json.dumps({"type": "sit_out", "id": 4, "out": "yes"}),
            json.dumps({"type": "close", "id": 5}),
            json.dumps({"type": "sit", "id": 6, "chips": 100, "pad": "x" * 5000}),
        ]
        for text in bad:
            await page.ws.send_str(text)
        await page.until(lambda f: sum(x["type"] == "error" for x in page.frames) == len(bad))
        reasons = [f["reason"] for f in page.frames if f["type"] == "error"]
        assert reasons == [_said("activity_bad_message")] * 8 + [_said("activity_too_big")]
        assert not any(f["type"] in ("done", "refused") for f in page.frames)
        assert table.seats == before == {}
        # The clock stands still: the burst is spent by what came, then every message is
        # dropped with an error, whatever it asks.
        spent = len(bad) - 1  # the one too big was not counted
        for _ in range(Rate().burst - spent):
            await page.request({"type": "my_cards"})
        await page.ws.send_str(json.dumps({"type": "sit", "id": 99, "chips": 100}))
        await page.until(
            lambda f: f["type"] == "error" and f["reason"] == _said("activity_too_many")
        )
        assert table.seats == {}
        now[0] += 1.0  # a second on: five more
        assert (await page.request({"type": "sit", "chips": 100}))["type"] == "done"
        assert ann in table.seats


async def test_the_page_is_served_with_and_without_discords_proxy_prefix(tmp_path: Path) -> None:
    static = tmp_path / "static"
    (static / "assets").mkdir(parents=True)
    (static / "index.html").write_text("<!doctype html><title>Stud</title>")
    (static / "assets" / "app.js").write_text("console.log('stud')")
    (tmp_path / "secret.txt").write_text("not the page's")
    async with activity_rig(tmp_path, static=static) as rig:

        async def get(path: str) -> tuple[int, str]:
            async with rig.http.get(f"{rig.base}{path}") as response:
                return response.status, await response.text()

        assert await get("/") == (200, "<!doctype html><title>Stud</title>")
        assert await get("/.proxy/") == await get("/")
        assert await get("/assets/app.js") == (200, "console.log('stud')")
        assert await get("/.proxy/assets/app.js") == (200, "console.log('stud')")
        assert (await get("/assets/../../secret.txt"))[0] == 404
        assert (await get("/%2e%2e/secret.txt"))[0] == 404
        assert (await get("/assets/missing.js"))[0] == 404
        assert await get("/api/config") == (200, json.dumps({"client_id": str(rig.fake.app_id)}))
    async with activity_rig(tmp_path, static=tmp_path / "none") as bare:
        # The page not built: said so, not a stack trace.
        assert (await bare.http.get(f"{bare.base}/")).status == 503
