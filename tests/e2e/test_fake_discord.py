"""The fake Discord's faults and records, seen by plain aiohttp requests and by a real discord.py
client connected to it (REST and gateway, 127.0.0.1 only)."""

from __future__ import annotations

import asyncio
import io
import json
import time
from collections.abc import AsyncIterator, Awaitable, Callable

import aiohttp
import discord
import pytest
import yarl
from PIL import Image

from tests.e2e.discord_rules import IS_COMPONENTS_V2
from tests.e2e.fake_discord import (
    ALL_PERMISSIONS,
    ATTACH_FILES,
    SEND_MESSAGES,
    CallbackTooLate,
    FakeDiscord,
    components,
)
from tests.e2e.faults import CLOUDFLARE_502, Fault, FaultPlan, RateLimit
from tests.e2e.harness import DiscordTime, until

Handler = Callable[[discord.Interaction], Awaitable[None]]


async def reply(interaction: discord.Interaction) -> None:
    await interaction.response.send_message("ok")


class Client(discord.Client):
    """A bare discord.py client; ``handler`` answers every interaction."""

    def __init__(self) -> None:
        super().__init__(intents=discord.Intents(guilds=True))
        self.handler: Handler = reply
        self.readies = 0
        self.resumes = 0
        self.errors: list[Exception] = []

        self.identifies: list[bool] = []  # ``initial`` of each IDENTIFY

    async def before_identify_hook(self, shard_id: int | None, *, initial: bool = False) -> None:
        # discord.py sleeps 5 s before every IDENTIFY but the first; recorded, not waited for.
        self.identifies.append(initial)

    async def on_ready(self) -> None:
        self.readies += 1

    async def on_resumed(self) -> None:
        self.resumes += 1

    async def on_interaction(self, interaction: discord.Interaction) -> None:
        try:
            await self.handler(interaction)
        except discord.HTTPException as error:
            self.errors.append(error)


@pytest.fixture
async def fake(monkeypatch: pytest.MonkeyPatch) -> AsyncIterator[FakeDiscord]:
    fake = FakeDiscord()
    await fake.start()
    monkeypatch.setattr(discord.http.Route, "BASE", fake.api_base)
    monkeypatch.setattr(
        discord.gateway.DiscordWebSocket, "DEFAULT_GATEWAY", yarl.URL(fake.gateway_url)
    )
    yield fake
    await fake.stop()


@pytest.fixture
async def session() -> AsyncIterator[aiohttp.ClientSession]:
    async with aiohttp.ClientSession() as session:
        yield session


@pytest.fixture
async def client(fake: FakeDiscord) -> AsyncIterator[Client]:
    client = Client()
    client._connection.guild_ready_timeout = 0.05
    runner = asyncio.create_task(client.start("fake-token"))
    await asyncio.wait_for(client.wait_until_ready(), 5)
    yield client
    await client.close()
    await asyncio.wait_for(runner, 5)


def channel_of(client: Client, fake: FakeDiscord) -> discord.TextChannel:
    channel = client.get_channel(fake.channel_id)
    assert isinstance(channel, discord.TextChannel)
    return channel


def statuses(fake: FakeDiscord, route: str) -> list[int]:
    return [r.status for r in fake.requests_to(route)]


POST_MESSAGE = "POST /channels/{id}/messages"


# ---------------------------------------------------------------------- the faults themselves


async def test_a_429_has_discords_body_and_rate_limit_headers_once(
    fake: FakeDiscord, session: aiohttp.ClientSession
) -> None:
    fault = fake.faults.add(Fault(POST_MESSAGE, 429, retry_after=0.25))
    url = f"{fake.api_base}/channels/{fake.channel_id}/messages"
    async with session.post(url, json={"content": "hi"}) as response:
        assert response.status == 429
        assert await response.json() == {
            "message": "You are being rate limited.",
            "retry_after": 0.25,
            "global": False,
        }
        headers = response.headers
        assert headers["Retry-After"] == "1"
        assert headers["X-RateLimit-Remaining"] == "0"
        assert headers["X-RateLimit-Reset-After"] == "0.250"
        assert float(headers["X-RateLimit-Reset"]) == pytest.approx(time.time() + 0.25, abs=1)
        assert headers["X-RateLimit-Scope"] == "user" and headers["X-RateLimit-Bucket"]
        assert int(headers["X-RateLimit-Limit"]) > 0 and headers["Via"]
    async with session.post(url, json={"content": "hi"}) as response:
        assert response.status == 200  # times=1: the fault is spent
    assert fault.hits == 1 and fault.exhausted
    records = fake.requests_to(POST_MESSAGE)
    assert [(r.status, r.fault) for r in records] == [(429, 429), (200, None)]


@pytest.mark.parametrize(
    ("kind", "content_type", "body"),
    [
        (500, "application/json", '{"message": "500: Internal Server Error", "code": 0}'),
        (502, "text/html", CLOUDFLARE_502),
        (503, "text/plain", "upstream connect error"),
    ],
)
async def test_server_errors_answer_as_discord_and_cloudflare_do(
    fake: FakeDiscord, session: aiohttp.ClientSession, kind: int, content_type: str, body: str
) -> None:
    fake.faults.add(Fault("PATCH /channels/{id}/messages/{id}", kind))  # type: ignore[arg-type]
    url = f"{fake.api_base}/channels/{fake.channel_id}/messages/1"
    async with session.patch(url, json={"content": "x"}) as response:
        assert response.status == kind
        assert response.content_type == content_type
        assert (await response.text()).startswith(body)


@pytest.mark.parametrize(
    ("code", "message"),
    [
        (50013, "Missing Permissions"),
        (50001, "Missing Access"),
        (50007, "Cannot send messages to this user"),
    ],
)
async def test_403_carries_discords_error_code(
    fake: FakeDiscord, session: aiohttp.ClientSession, code: int, message: str
) -> None:
    fake.faults.add(Fault("POST /users/@me/channels", 403, code=code))
    user = fake.add_user("ann")
    url = f"{fake.api_base}/users/@me/channels"
    async with session.post(url, json={"recipient_id": user["id"]}) as response:
        assert response.status == 403
        assert await response.json() == {"message": message, "code": code}


async def test_a_slow_fault_waits_then_answers_normally(
    fake: FakeDiscord, session: aiohttp.ClientSession
) -> None:
    """Held for the fault's delay on the fake's clock, then answered as usual."""
    clock = fake.clock = DiscordTime()
    fake.faults.add(Fault("GET /users/@me", "slow", delay=(2.0, 3.0)))

    async def get() -> tuple[int, str]:
        async with session.get(f"{fake.api_base}/users/@me") as response:
            return response.status, (await response.json())["id"]

    answer = asyncio.ensure_future(get())
    await until(lambda: clock.next_wake() is not None, 5, "the request is held")
    wake = clock.next_wake()
    assert fake.requests_to("GET /users/@me") == [] and not answer.done()  # recorded once answered
    assert wake is not None and 2.0 <= wake - clock.now() <= 3.0
    await clock.advance(3.0)
    assert await answer == (200, str(fake.app_id))
    (request,) = fake.requests_to("GET /users/@me")
    assert (request.status, request.fault) == (200, "slow")


def test_faults_match_method_and_route_and_dm_channels_only_where_asked() -> None:
    plan = FaultPlan()
    dm = plan.add(Fault("POST /channels/{dm}/messages", 403, code=50007, times=None))
    anything = plan.add(Fault("* /channels/{id}", 500, times=2))
    assert plan.pick("POST", "/channels/5/messages", dm_channels={7}) is None
    assert plan.pick("POST", "/channels/7/messages", dm_channels={7}) is dm
    assert plan.pick("POST", "/channels/7/messages", dm_channels={7}) is dm  # times=None
    assert plan.pick("GET", "/channels/5/messages", dm_channels={7}) is None
    assert plan.pick("DELETE", "/channels/5", dm_channels=()) is anything
    assert plan.pick("GET", "/channels/5", dm_channels=()) is anything
    assert plan.pick("GET", "/channels/5", dm_channels=()) is None  # two hits, spent
    plan.remove(dm)
    assert plan.pick("POST", "/channels/7/messages", dm_channels={7}) is None
    with pytest.raises(ValueError, match="unknown fault kind"):
        Fault("GET /x", 404)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="unknown 403 code"):
        Fault("GET /x", 403, code=12345)


def test_a_probability_is_drawn_from_the_plans_seed() -> None:
    def hits(seed: int) -> list[bool]:
        plan = FaultPlan(seed=seed)
        plan.add(Fault("GET /users/@me", 503, times=None, probability=0.3))
        return [plan.pick("GET", "/users/@me", ()) is not None for _ in range(200)]

    assert hits(1) == hits(1)
    assert hits(1) != hits(2)
    assert 30 < sum(hits(1)) < 90


async def test_a_rate_limit_bucket_counts_per_channel_and_resets(
    fake: FakeDiscord, session: aiohttp.ClientSession
) -> None:
    clock = fake.clock = DiscordTime()
    fake.rate_limits.append(RateLimit(POST_MESSAGE, limit=2, per=5.0))
    other = fake.add_channel()

    async def post(channel_id: int) -> tuple[int, str, str]:
        url = f"{fake.api_base}/channels/{channel_id}/messages"
        async with session.post(url, json={"content": "hi"}) as response:
            return (
                response.status,
                response.headers["X-RateLimit-Remaining"],
                response.headers["X-RateLimit-Reset-After"],
            )

    first, second, third = [await post(fake.channel_id) for _ in range(3)]
    assert first[:2] == (200, "1") and second[:2] == (200, "0")
    assert third[:2] == (429, "0") and 0 < float(third[2]) <= 5.0
    assert (await post(other))[:2] == (200, "1")  # another channel, another bucket
    await clock.advance(float(third[2]))
    assert (await post(fake.channel_id))[:2] == (200, "1")
    assert [r.fault for r in fake.requests_to(POST_MESSAGE)] == [None, None, 429, None, None]


# ---------------------------------------------------------------------- what discord.py does
# discord.py paces itself and retries on asyncio's clock: the tests that wait for it to do so
# wait for it in real time, and are in the slow tier.


@pytest.mark.slow  # discord.py waits for the window's reset in real time
async def test_discord_py_paces_itself_by_the_rate_limit_headers(
    fake: FakeDiscord, client: Client
) -> None:
    fake.rate_limits.append(RateLimit(POST_MESSAGE, limit=2, per=0.3))
    channel = channel_of(client, fake)
    started = time.monotonic()
    await asyncio.gather(*(channel.send(f"m{i}") for i in range(5)))
    assert time.monotonic() - started >= 0.5  # three windows of 2, 2 and 1 posts
    assert statuses(fake, POST_MESSAGE) == [200] * 5  # it waited; no 429 was needed


@pytest.mark.slow  # discord.py waits out the retry-after in real time
async def test_discord_py_waits_out_429s_and_the_post_succeeds(
    fake: FakeDiscord, client: Client
) -> None:
    fake.faults.add(Fault(POST_MESSAGE, 429, retry_after=0.1, times=2))
    started = time.monotonic()
    message = await channel_of(client, fake).send("hello")
    assert message.content == "hello"
    assert time.monotonic() - started >= 0.2  # it slept retry_after twice
    assert statuses(fake, POST_MESSAGE) == [429, 429, 200]


@pytest.mark.slow  # discord.py's real one-second back-off
@pytest.mark.parametrize("kind", [500, 502])
async def test_discord_py_retries_500_and_502_after_a_second(
    fake: FakeDiscord, client: Client, kind: int
) -> None:
    fake.faults.add(Fault(POST_MESSAGE, kind))  # type: ignore[arg-type]
    started = time.monotonic()
    await channel_of(client, fake).send("hello")
    assert time.monotonic() - started >= 1.0
    assert statuses(fake, POST_MESSAGE) == [kind, 200]


async def test_discord_py_raises_on_a_channel_503_without_retrying(
    fake: FakeDiscord, client: Client
) -> None:
    """discord.py's HTTPClient retries only 500, 502, 504 and 524: the caller sees a 503."""
    fake.faults.add(Fault(POST_MESSAGE, 503))
    with pytest.raises(discord.DiscordServerError) as raised:
        await channel_of(client, fake).send("hello")
    assert raised.value.status == 503
    assert statuses(fake, POST_MESSAGE) == [503]


async def test_discord_py_raises_forbidden_with_the_code(fake: FakeDiscord, client: Client) -> None:
    fake.faults.add(Fault(POST_MESSAGE, 403, code=50001))
    with pytest.raises(discord.Forbidden) as raised:
        await channel_of(client, fake).send("hello")
    assert raised.value.code == 50001


@pytest.mark.slow  # discord.py's real back-off, against Discord's 3 s on the wall clock
async def test_an_interaction_callback_503_is_retried_within_the_three_seconds(
    fake: FakeDiscord, client: Client
) -> None:
    """Callbacks and followups go through discord.py's webhook adapter, which retries any 5xx."""
    route = "POST /interactions/{id}/{token}/callback"
    fake.faults.add(Fault(route, 503))
    user = fake.add_user("ann")
    callback = await fake.slash(user, "ping")
    assert callback.content == "ok"
    assert statuses(fake, route) == [503, 200]
    (record,) = fake.interactions.values()
    assert record.first_callback is not None and record.acknowledged is not None
    assert record.acknowledged - record.first_callback >= 1.0  # discord.py's 1 s back-off
    assert record.acknowledged - record.created < fake.callback_window


# ---------------------------------------------------------------------- interactions


async def test_interactions_record_when_they_were_answered(
    fake: FakeDiscord, client: Client
) -> None:
    user = fake.add_user("ann")
    await fake.slash(user, "ping")
    (record,) = fake.interactions.values()
    assert record.user_id == int(user["id"]) and record.channel_id == fake.channel_id
    assert record.kind == 2
    assert record.latency is not None and 0 <= record.latency < 1
    assert record.acknowledged == record.first_callback


async def test_a_callback_after_the_window_is_an_unknown_interaction(
    fake: FakeDiscord, client: Client
) -> None:
    clock = fake.clock = DiscordTime()

    async def slow(interaction: discord.Interaction) -> None:
        await clock.sleep(fake.callback_window + 1)
        await interaction.response.send_message("too late")

    client.handler = slow
    pending = asyncio.ensure_future(fake.slash(fake.add_user("ann"), "ping"))
    await until(lambda: clock.next_wake() is not None, 5, "the handler is waiting")
    await clock.advance(fake.callback_window + 1)
    with pytest.raises(CallbackTooLate):
        await pending
    await until(lambda: client.errors, 5, "the refusal reaches the handler")
    (error,) = client.errors
    assert isinstance(error, discord.NotFound) and error.code == 10062
    (record,) = fake.interactions.values()
    assert record.latency is not None and record.latency > fake.callback_window
    assert record.acknowledged is None


async def test_second_callbacks_and_expired_followups_are_refused(
    fake: FakeDiscord, client: Client, session: aiohttp.ClientSession
) -> None:
    clock = fake.clock = DiscordTime()

    async def answered_later(interaction: discord.Interaction) -> None:
        """Answers nothing itself: the test calls back by hand."""

    client.handler = answered_later
    pending = asyncio.create_task(fake.slash(fake.add_user("ann"), "ping"))
    while not fake.interactions:
        await asyncio.sleep(0.01)
    interaction_id = next(iter(fake.interactions))
    callback = f"{fake.api_base}/interactions/{interaction_id}/token-{interaction_id}/callback"
    body = {"type": 4, "data": {"content": "first"}}
    async with session.post(callback, json=body) as response:
        assert response.status == 200
    assert (await pending).content == "first"
    async with session.post(callback, json=body) as response:
        assert response.status == 400 and (await response.json())["code"] == 40060
    followup = f"{fake.api_base}/webhooks/{fake.app_id}/token-{interaction_id}"
    async with session.post(followup, json={"content": "soon"}) as response:
        assert response.status == 200
    await clock.advance(fake.followup_window + 1)  # Discord's 15 minutes
    async with session.post(followup, json={"content": "late"}) as response:
        assert response.status == 401 and (await response.json())["code"] == 50027


async def test_a_deferrals_first_answer_must_edit_the_original_response(
    fake: FakeDiscord, client: Client, session: aiohttp.ClientSession
) -> None:
    """Discord documents a followup as the first answer to a "thinking" deferral as deprecated:
    the fake refuses it, takes the edit of @original (its attachments too), then followups."""

    async def deferred(interaction: discord.Interaction) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)

    client.handler = deferred
    callback = await fake.slash(fake.add_user("ann"), "ping")
    assert callback.kind == 5 and callback.message is not None
    token = f"{fake.api_base}/webhooks/{fake.app_id}/token-{callback.interaction_id}"
    async with session.post(token, json={"content": "too early"}) as response:
        assert response.status == 400
    assert fake.deprecated_followups == [callback.interaction_id]
    form = aiohttp.FormData()
    form.add_field("payload_json", '{"content": "done", "attachments": [{"id": 0}]}')
    form.add_field("files[0]", b"PNG", filename="cards.png")
    async with session.patch(f"{token}/messages/@original", data=form) as response:
        assert response.status == 200
        edited = await response.json()
    assert edited["id"] == callback.message["id"] and not edited["flags"] & (1 << 7)
    answer = await fake.answer(callback)
    assert answer.content == "done" and answer.ephemeral
    assert [a["filename"] for a in edited["attachments"]] == ["cards.png"]
    async with session.post(token, json={"content": "more"}) as response:
        assert response.status == 200


async def test_a_sync_discord_would_refuse_is_refused_whole(
    fake: FakeDiscord, session: aiohttp.ClientSession
) -> None:
    url = f"{fake.api_base}/applications/{fake.app_id}/commands"
    option = {"type": 4, "name": "hand_id", "description": "The hand", "max_value": 2**53}
    bad = [{"type": 1, "name": "history", "description": "Hands", "options": [option]}]
    async with session.put(url, json=bad) as response:
        assert response.status == 400 and (await response.json())["code"] == 50035
    assert fake.commands.get(None) is None and len(fake.refused_syncs) == 1
    good = [{**bad[0], "options": [{**option, "max_value": 2**53 - 1}]}]
    async with session.put(url, json=good) as response:
        assert response.status == 200


async def test_a_message_older_than_an_hour_takes_no_edit(
    fake: FakeDiscord, session: aiohttp.ClientSession
) -> None:
    clock = fake.clock = DiscordTime()
    url = f"{fake.api_base}/channels/{fake.channel_id}/messages"
    async with session.post(url, json={"content": "table"}) as response:
        message = await response.json()
    await clock.advance(fake.old_message_age - 1)
    async with session.patch(f"{url}/{message['id']}", json={"content": "a"}) as response:
        assert response.status == 200
    await clock.advance(2)
    async with session.patch(f"{url}/{message['id']}", json={"content": "b"}) as response:
        assert response.status == 429 and (await response.json())["code"] == 30046
    assert fake.messages[int(message["id"])]["content"] == "a"


async def test_a_message_comes_back_as_discord_returns_it(
    fake: FakeDiscord, session: aiohttp.ClientSession
) -> None:
    """Discord resolves ``attachment://``: a media item comes back with the file's CDN URL, its
    size and its ``attachment_id``; an embed's image with the CDN URL; and ``attachments`` lists
    only the files nothing references. The fake keeps every file, as Discord does."""
    url = f"{fake.api_base}/channels/{fake.channel_id}/messages"
    gallery = {"type": 12, "items": [{"media": {"url": "attachment://table.png"}}]}
    payload = {"flags": IS_COMPONENTS_V2, "components": [{"type": 17, "components": [gallery]}]}
    form = aiohttp.FormData()
    form.add_field("payload_json", json.dumps(payload))
    form.add_field("files[0]", png(40, 30), filename="table.png")
    form.add_field("files[1]", b"log", filename="notes.txt")
    async with session.post(url, data=form) as response:
        posted = await response.json()
    stored = fake.messages[int(posted["id"])]
    table, notes = stored["attachments"]
    async with session.get(f"{url}/{posted['id']}") as response:
        fetched = await response.json()
    for returned in (posted, fetched):
        assert returned["attachments"] == [notes]
        [[item]] = [c["items"] for c in components(returned) if c["type"] == 12]
        assert item["media"] == {
            "url": table["url"],
            "proxy_url": table["proxy_url"],
            "width": 40,
            "height": 30,
            "content_type": "image/png",
            "attachment_id": table["id"],
        }
        assert table["url"].startswith("https://") and "?ex=" in table["url"]
    embed = {"title": "ledger", "image": {"url": "attachment://ledger.png"}}
    form = aiohttp.FormData()
    form.add_field("payload_json", json.dumps({"embeds": [embed]}))
    form.add_field("files[0]", png(8, 8), filename="ledger.png")
    async with session.post(url, data=form) as response:
        posted = await response.json()
    (ledger,) = fake.messages[int(posted["id"])]["attachments"]
    assert posted["attachments"] == []
    assert posted["embeds"][0]["image"]["url"] == ledger["url"]
    assert "attachment_id" not in posted["embeds"][0]["image"]


def png(width: int, height: int) -> bytes:
    picture = io.BytesIO()
    Image.new("RGB", (width, height)).save(picture, "PNG")
    return picture.getvalue()


def picture_layout(filename: str) -> discord.ui.LayoutView:
    layout = discord.ui.LayoutView(timeout=None)
    gallery = discord.ui.MediaGallery[discord.ui.LayoutView](
        discord.MediaGalleryItem(f"attachment://{filename}")
    )
    layout.add_item(discord.ui.Container[discord.ui.LayoutView](gallery))
    layout.stop()
    return layout


async def test_a_click_is_answered_with_a_new_picture_in_its_update(
    fake: FakeDiscord, client: Client
) -> None:
    """Discord takes files on an interaction callback as on a message (multipart): the click's
    UPDATE_MESSAGE replaces the picture in the one request; 10 files a message at most."""
    posted = await channel_of(client, fake).send(
        view=picture_layout("a.png"), file=discord.File(io.BytesIO(b"A"), filename="a.png")
    )
    message = fake.messages[posted.id]

    async def new_picture(interaction: discord.Interaction) -> None:
        await interaction.response.edit_message(
            view=picture_layout("b.png"),
            attachments=[discord.File(io.BytesIO(b"B"), filename="b.png")],
        )

    client.handler = new_picture
    answer = await fake.click(fake.add_user("ann"), message, "x")
    assert answer.kind == 7 and [f.filename for f in answer.files] == ["b.png"]
    (attachment,) = fake.messages[posted.id]["attachments"]
    assert attachment["filename"] == "b.png"

    async def too_many(interaction: discord.Interaction) -> None:
        files = [discord.File(io.BytesIO(b"C"), filename=f"{n}.png") for n in range(11)]
        await interaction.response.edit_message(attachments=files)

    client.handler = too_many
    pending = asyncio.ensure_future(fake.click(fake.add_user("bob"), message, "x"))
    await until(lambda: client.errors, 5, "the refusal reaches the handler")
    pending.cancel()
    (error,) = client.errors
    assert isinstance(error, discord.HTTPException) and error.status == 400
    assert fake.messages[posted.id]["attachments"] == [attachment]


async def test_a_request_over_25_mib_is_too_large(
    fake: FakeDiscord, session: aiohttp.ClientSession
) -> None:
    form = aiohttp.FormData()
    form.add_field("payload_json", "{}")
    form.add_field("files[0]", b"0" * (25 * 1024 * 1024), filename="big.png")
    url = f"{fake.api_base}/channels/{fake.channel_id}/messages"
    async with session.post(url, data=form) as response:
        assert response.status == 413 and (await response.json())["code"] == 40005
    assert fake.uploads == []


# ---------------------------------------------------------------------- gateway


def steps(fake: FakeDiscord) -> list[str]:
    return [step.what for step in fake.gateway_steps]


async def test_an_abrupt_drop_is_resumed_and_missed_events_replayed(
    fake: FakeDiscord, client: Client
) -> None:
    ann = fake.add_user("ann")
    await fake.slash(ann, "ping")
    await fake.drop_gateway()
    # Sent while the bot is away: it arrives when the session resumes.
    callback = await fake.slash(ann, "ping")
    assert callback.content == "ok"
    assert steps(fake) == ["IDENTIFY", "DROPPED", "RESUME", "RESUMED"]
    # Only what was missed is replayed: the first interaction would be answered twice (40060).
    await asyncio.sleep(0.05)
    assert client.errors == []
    assert [r.status for r in fake.requests_to("POST /interactions/{id}/{token}/callback")] == [
        200,
        200,
    ]
    assert client.resumes == 1 and client.readies == 1
    assert fake.connected.is_set()


async def test_a_4000_close_resumes(fake: FakeDiscord, client: Client) -> None:
    await fake.drop_gateway(4000)
    await asyncio.wait_for(fake.connected.wait(), 5)
    assert steps(fake) == ["IDENTIFY", "CLOSED 4000", "RESUME", "RESUMED"]
    assert (await fake.slash(fake.add_user("ann"), "ping")).content == "ok"


async def test_an_invalidated_session_identifies_again(fake: FakeDiscord, client: Client) -> None:
    fake.resume_policy = "invalidate"
    await fake.drop_gateway(4000)
    await asyncio.wait_for(fake.connected.wait(), 5)
    assert steps(fake) == ["IDENTIFY", "CLOSED 4000", "RESUME", "INVALID_SESSION", "IDENTIFY"]
    for _ in range(100):  # the guild arrives again before discord.py calls on_ready
        if client.readies == 2:
            break
        await asyncio.sleep(0.02)
    assert client.readies == 2 and client.resumes == 0
    assert client.identifies == [True, False]  # the second one would have waited 5 s
    assert (await fake.slash(fake.add_user("ann"), "ping")).content == "ok"


# ---------------------------------------------------------------------- commands, permissions


async def test_command_sync_is_stored_per_scope_and_recorded(
    fake: FakeDiscord, session: aiohttp.ClientSession
) -> None:
    base = f"{fake.api_base}/applications/{fake.app_id}"
    guild = f"{base}/guilds/{fake.guild_id}/commands"
    commands = [
        {"name": "sit", "description": "Sit", "type": 1},
        {"name": "fold", "description": "Fold", "type": 1},
    ]
    async with session.put(guild, json=commands) as response:
        first = await response.json()
    async with session.put(guild, json=commands[:1]) as response:
        second = await response.json()
    assert second[0]["id"] == first[0]["id"]  # the same command keeps its id
    assert second[0]["guild_id"] == str(fake.guild_id)
    async with session.get(guild) as response:
        assert await response.json() == second
    async with session.get(f"{base}/commands") as response:
        assert await response.json() == []
    assert fake.commands == {fake.guild_id: second}
    assert [(s.method, s.guild_id, s.names) for s in fake.command_requests] == [
        ("PUT", fake.guild_id, ("sit", "fold")),
        ("PUT", fake.guild_id, ("sit",)),
        ("GET", fake.guild_id, ()),
        ("GET", None, ()),
    ]


async def test_app_permissions_reach_interactions_and_refuse_posts(
    fake: FakeDiscord, client: Client
) -> None:
    seen: list[discord.Permissions] = []

    async def note(interaction: discord.Interaction) -> None:
        seen.append(interaction.app_permissions)
        await interaction.response.send_message("noted")

    client.handler = note
    channel = channel_of(client, fake)
    await fake.set_app_permissions(fake.channel_id, ALL_PERMISSIONS & ~ATTACH_FILES)
    with pytest.raises(discord.Forbidden) as raised:
        await channel.send(file=discord.File(io.BytesIO(b"png"), "table.png"))
    assert raised.value.code == 50013
    await channel.send("text still goes")
    await fake.set_app_permissions(fake.channel_id, ALL_PERMISSIONS & ~SEND_MESSAGES)
    with pytest.raises(discord.Forbidden):
        await channel.send("nothing goes")
    # The interaction is still answered: callbacks need no channel permission.
    assert (await fake.slash(fake.add_user("ann"), "ping")).content == "noted"
    assert not seen[0].send_messages and seen[0].attach_files
    # CHANNEL_UPDATE told the client too, so its own permission check agrees.
    for _ in range(50):
        if not channel.permissions_for(channel.guild.me).send_messages:
            break
        await asyncio.sleep(0.01)
    assert not channel.permissions_for(channel.guild.me).send_messages


# ---------------------------------------------------------------------- shards


class ShardedClient(discord.AutoShardedClient):
    """A bare sharded discord.py client that records which shard each interaction came on."""

    def __init__(self, **options: object) -> None:
        super().__init__(intents=discord.Intents(guilds=True), **options)  # type: ignore[arg-type]
        self.came_on: list[tuple[int, int | None]] = []  # (server, shard) of each interaction

    async def before_identify_hook(self, shard_id: int | None, *, initial: bool = False) -> None:
        pass  # discord.py waits 5 s between shards; the fake has no IDENTIFY limit

    async def on_interaction(self, interaction: discord.Interaction) -> None:
        assert interaction.guild_id is not None
        guild = self.get_guild(interaction.guild_id)
        self.came_on.append((interaction.guild_id, guild.shard_id if guild else None))
        await interaction.response.send_message("ok")


async def connected(client: ShardedClient) -> asyncio.Task[None]:
    client._connection.guild_ready_timeout = 0.05
    runner = asyncio.create_task(client.start("fake-token"))
    await asyncio.wait_for(client.wait_until_ready(), 5)
    return runner


async def test_each_server_s_events_come_on_its_shard(fake: FakeDiscord) -> None:
    """GET /gateway/bot recommends 2 shards; each IDENTIFY names its shard and READY holds only
    that shard's servers; an interaction in a server arrives on that server's shard."""
    fake.shard_count = 2
    guilds = [fake.guild_id] + [fake.add_guild() for _ in range(3)]
    client = ShardedClient()
    runner = await connected(client)
    try:
        assert client.shard_count == 2
        assert fake.requests_to("GET /gateway/bot")[0].status == 200
        assert sorted((s.what, s.shard) for s in fake.gateway_steps) == [
            ("IDENTIFY", 0),
            ("IDENTIFY", 1),
        ]
        assert fake.live_shards() == {0, 1} and fake.connected.is_set()
        shards = {guild.id: guild.shard_id for guild in client.guilds}
        assert shards == {guild: index % 2 for index, guild in enumerate(guilds)}
        ann = fake.add_user("ann")
        for guild in guilds:
            (channel,) = fake.channels_of(guild)
            assert (await fake.slash(ann, "ping", channel_id=channel)).content == "ok"
        assert client.came_on == [(guild, (guild >> 22) % 2) for guild in guilds]
    finally:
        await client.close()
        await asyncio.wait_for(runner, 5)


async def test_a_process_with_some_shards_sees_only_their_servers(fake: FakeDiscord) -> None:
    """One process of several: shards 2 and 3 of 4. The other shards' servers never reach it,
    and a shard of its own dropping leaves the other connected (and resumes)."""
    guilds = [fake.guild_id] + [fake.add_guild() for _ in range(7)]
    client = ShardedClient(shard_count=4, shard_ids=[2, 3])
    runner = await connected(client)
    try:
        assert fake.requests_to("GET /gateway/bot") == []  # the count was given
        assert {guild.id for guild in client.guilds} == {
            guild for guild in guilds if (guild >> 22) % 4 in (2, 3)
        }
        assert len(client.guilds) == 4
        await fake.drop_gateway(shard=3)
        assert fake.live_shards() == {2} and not fake.connected.is_set()
        ann = fake.add_user("ann")
        # On the live shard at once; on the dropped one once it resumes (replayed).
        for guild in (guilds[2], guilds[3]):
            (channel,) = fake.channels_of(guild)
            assert (await fake.slash(ann, "ping", channel_id=channel)).content == "ok"
        await asyncio.wait_for(fake.connected.wait(), 5)
        assert [(s.what, s.shard) for s in fake.gateway_steps if s.shard == 3][1:] == [
            ("DROPPED", 3),
            ("RESUME", 3),
            ("RESUMED", 3),
        ]
        assert client.came_on == [(guilds[2], 2), (guilds[3], 3)]
    finally:
        await client.close()
        await asyncio.wait_for(runner, 5)


async def test_a_shard_beyond_the_count_is_refused(fake: FakeDiscord) -> None:
    async with aiohttp.ClientSession() as session, session.ws_connect(fake.gateway_url) as ws:
        await ws.receive_json()  # HELLO
        await ws.send_json({"op": 2, "d": {"token": "fake-token", "shard": [2, 2]}})
        closing = await ws.receive()
        assert closing.type is aiohttp.WSMsgType.CLOSE and closing.data == 4010
    assert [(s.what, s.shard) for s in fake.gateway_steps] == [("CLOSED 4010", 2)]
    assert fake.sessions == {}
