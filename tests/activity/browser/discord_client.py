"""The part of the Discord client an Activity talks to, in a real (headless) Chromium.

The test page is served at Discord's own origin (``https://discord.com``: the Embedded App SDK
answers only Discord's origins) by Playwright's request routing; it frames the Activity as
Discord's proxy does, at ``https://<client_id>.discordsays.com/`` with ``frame_id``,
``instance_id``, ``channel_id``, ``guild_id`` and ``platform`` in the query, and answers the
SDK's postMessage protocol (opcodes HANDSHAKE 0, FRAME 1, CLOSE 2): the READY dispatch after the
handshake, AUTHORIZE with the user's code and AUTHENTICATE with the user. Everything the SDK
sends is kept in ``window.sdkSeen`` for the test to read.

Requests to the proxy's origin are answered by the server under test (the stand-in or the
bot's), and its WebSocket is bridged to it, carrying the proxy's ``Origin``; every other request
is refused, so nothing reaches the internet.
"""

from __future__ import annotations

import asyncio
import json
import os
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import aiohttp
import pytest

# Debian's Chromium; else a system Chrome (GitHub's Ubuntu runners have one); STUD_CHROMIUM
# names another. Playwright drives it and never downloads a browser of its own.
BROWSERS = (Path("/usr/bin/chromium"), Path("/usr/bin/google-chrome"))
INSTANCE_ID = "i-1234-gc-700000000000000001"
GUILD_ID = "600000000000000001"
CHANNEL_ID = "700000000000000001"
ARTEFACTS = Path(__file__).with_name("artefacts")

PHONE = {"width": 360, "height": 640}
DESKTOP = {"width": 1280, "height": 720}

CLIENT_PAGE = """<!doctype html>
<html><head><meta charset="utf-8"><title>Discord</title>
<style>html,body{margin:0;height:100%;background:#000}
iframe{border:0;width:100%;height:100%;display:block}</style></head>
<body><iframe id="activity" allow="autoplay; clipboard-write"></iframe>
<script>
const SETUP = __SETUP__;
window.sdkSeen = [];
const frame = document.getElementById("activity");
const query = new URLSearchParams({
  instance_id: SETUP.instance_id, location_id: "gc-" + SETUP.channel_id,
  launch_id: "1357924680", referrer_id: "", frame_id: SETUP.frame_id,
  platform: SETUP.platform, guild_id: SETUP.guild_id, channel_id: SETUP.channel_id,
});
frame.src = SETUP.proxy + "/?" + query;
function reply(payload) { frame.contentWindow.postMessage(payload, SETUP.proxy); }
window.addEventListener("message", (event) => {
  if (event.source !== frame.contentWindow || event.origin !== SETUP.proxy) return;
  const [opcode, data] = event.data;
  window.sdkSeen.push({ opcode, data });
  if (opcode === 0) {
    reply([1, { cmd: "DISPATCH", evt: "READY", nonce: null, data: {
      v: 1,
      config: { cdn_host: "cdn.discordapp.com", api_endpoint: "//discord.com/api",
                environment: "production" },
      user: { id: SETUP.user.id, username: SETUP.user.username, discriminator: "0" },
    } }]);
  } else if (opcode === 1 && data.cmd === "AUTHORIZE") {
    reply([1, { cmd: "AUTHORIZE", evt: null, nonce: data.nonce, data: { code: SETUP.code } }]);
  } else if (opcode === 1 && data.cmd === "AUTHENTICATE") {
    reply([1, { cmd: "AUTHENTICATE", evt: null, nonce: data.nonce, data: {
      access_token: data.args.access_token,
      user: { id: SETUP.user.id, username: SETUP.user.username, discriminator: "0",
              avatar: null, public_flags: 0, global_name: SETUP.user.username },
      scopes: ["identify"],
      expires: "2099-01-01T00:00:00.000Z",
      application: { id: SETUP.client_id, name: "Stud", description: "" },
    } }]);
  }
  // Anything else (the SDK's CAPTURE_LOG once it is ready) is only recorded, as Discord
  // answers nothing the page waits for.
});
</script></body></html>
"""


def browser_path() -> Path | None:
    named = os.environ.get("STUD_CHROMIUM")
    candidates = (Path(named),) if named else BROWSERS
    return next((path for path in candidates if path.exists()), None)


def require_browser() -> None:
    """Skip without Chromium or Playwright, saying how to get them; fail under CI=true."""
    missing = []
    if browser_path() is None:
        where = os.environ.get("STUD_CHROMIUM") or " or ".join(map(str, BROWSERS))
        missing.append(f"no Chromium at {where} (apt-get install chromium)")
    try:
        import playwright.async_api  # noqa: F401
    except ImportError:
        missing.append("no Playwright (pip install -e '.[test]')")
    if not missing:
        return
    reason = "; ".join(missing)
    if os.environ.get("CI") == "true":
        pytest.fail(f"{reason} (CI=true: the browser tests must run)")
    pytest.skip(reason)


@dataclass(frozen=True, slots=True)
class Player:
    """Who opens the Activity: the Discord user, and the code AUTHORIZE hands his page."""

    user_id: str
    username: str
    code: str


@asynccontextmanager
async def chromium() -> AsyncIterator[Any]:
    from playwright.async_api import async_playwright

    async with async_playwright() as playwright:
        browser = await playwright.chromium.launch(executable_path=str(browser_path()))
        try:
            yield browser
        finally:
            await browser.close()


async def open_activity(
    browser: Any,
    server_url: str,
    client_id: str,
    player: Player,
    size: dict[str, int],
    *,
    platform: str = "mobile",
    instance_id: str = INSTANCE_ID,
    guild_id: str = GUILD_ID,
    channel_id: str = CHANNEL_ID,
) -> tuple[Any, Any]:
    """A new browser context showing ``player``'s Discord client with the Activity framed in
    it (instance ``instance_id`` in that channel), served by the server at ``server_url``.
    Returns the page and the Activity's frame."""
    proxy = f"https://{client_id}.discordsays.com"
    context = await browser.new_context(viewport=size, device_scale_factor=1)
    setup = {
        "proxy": proxy,
        "client_id": client_id,
        "instance_id": instance_id,
        "guild_id": guild_id,
        "channel_id": channel_id,
        "frame_id": f"frame-{player.user_id}",
        "platform": platform,
        "code": player.code,
        "user": {"id": player.user_id, "username": player.username},
    }
    client = CLIENT_PAGE.replace("__SETUP__", json.dumps(setup))

    async def refuse(route: Any) -> None:
        await route.abort()

    async def discord(route: Any) -> None:
        await route.fulfill(status=200, content_type="text/html", body=client)

    async def app(route: Any) -> None:
        url = route.request.url.replace(proxy, server_url.rstrip("/"), 1)
        response = await route.fetch(url=url)
        await route.fulfill(response=response)

    # The last route added is tried first: refuse whatever the two below don't serve.
    await context.route("**/*", refuse)
    await context.route("https://discord.com/**", discord)
    await context.route(f"{proxy}/**", app)
    await context.route_web_socket(
        f"wss://{client_id}.discordsays.com/**", _bridge(server_url, proxy)
    )
    page = await context.new_page()
    await page.goto(f"https://discord.com/channels/{guild_id}/{channel_id}")
    frame = page.frame_locator("#activity")
    return page, frame


def _bridge(server_url: str, proxy: str) -> Any:
    """Discord's proxy for the socket: the page's frames to the server and back, with the
    proxy's origin."""
    upstream_url = server_url.replace("http://", "ws://", 1).rstrip("/")

    async def handler(route: Any) -> None:
        path = route.url.split(".discordsays.com", 1)[1]
        session = aiohttp.ClientSession()
        upstream = await session.ws_connect(upstream_url + path, headers={"Origin": proxy})

        tasks: set[asyncio.Future[Any]] = set()  # kept until done: a loose task may be lost

        def spawn(work: Any) -> None:
            task = asyncio.ensure_future(work)
            tasks.add(task)
            task.add_done_callback(tasks.discard)

        def to_server(message: str | bytes) -> None:
            spawn(
                upstream.send_str(message)
                if isinstance(message, str)
                else upstream.send_bytes(message)
            )

        def closed(code: int | None, reason: str | None) -> None:
            spawn(upstream.close())

        route.on_message(to_server)
        route.on_close(closed)

        async def to_page() -> None:
            try:
                while True:
                    message = await upstream.receive()
                    if message.type is aiohttp.WSMsgType.TEXT:
                        route.send(message.data)
                        continue
                    # The server's close, with its code and reason, passed on to the page.
                    code = message.data if message.type is aiohttp.WSMsgType.CLOSE else 1006
                    await route.close(code=code, reason=str(message.extra or ""))
                    return
            finally:
                await session.close()

        spawn(to_page())

    return handler


async def snapshot(page: Any, name: str) -> Path:
    """A screenshot kept for people to look at (tests/activity/browser/artefacts, ignored by
    git)."""
    ARTEFACTS.mkdir(exist_ok=True)
    path = ARTEFACTS / f"{name}.png"
    await page.screenshot(path=str(path))
    return path
