"""Faults the fake Discord injects into its REST answers, as the real Discord gives them.

A test puts :class:`Fault` entries in the fake's :class:`FaultPlan` (``fake.faults``), at any time.
Each request is matched against the plan in order; the first fault that matches the route, still
has hits left and passes its (seeded) probability roll is applied to that request.

:class:`RateLimit` buckets (``fake.rate_limits``) are the other source of 429s: Discord's own
per-route limits, announced in headers on every answer, refused only when a client overruns them.
"""

from __future__ import annotations

import json
import math
import random
import time
import zlib
from collections.abc import Collection
from dataclasses import dataclass, field
from typing import Literal

from aiohttp import web

FaultKind = Literal[403, 429, 500, 502, 503, "slow"]
KINDS: tuple[FaultKind, ...] = (403, 429, 500, 502, 503, "slow")

# Discord's JSON error codes for a 403 (https://discord.com/developers/docs/topics/opcodes-and-status-codes).
FORBIDDEN_MESSAGES = {
    50001: "Missing Access",
    50007: "Cannot send messages to this user",
    50013: "Missing Permissions",
}

# What Cloudflare answers when Discord's origin is down: HTML, not JSON.
CLOUDFLARE_502 = (
    "<html>\r\n<head><title>502 Bad Gateway</title></head>\r\n<body>\r\n"
    "<center><h1>502 Bad Gateway</h1></center>\r\n<hr><center>cloudflare</center>\r\n"
    "</body>\r\n</html>\r\n"
)


def route_matches(pattern: str, method: str, path: str, dm_channels: Collection[int]) -> bool:
    """``pattern`` is "METHOD /path/{param}/...": ``*`` matches any method, ``{dm}`` only the id of
    a DM channel the fake opened, any other ``{name}`` exactly one path segment."""
    want_method, _, want_path = pattern.partition(" ")
    if want_method not in ("*", method):
        return False
    wanted = want_path.strip("/").split("/")
    parts = path.strip("/").split("/")
    if len(wanted) != len(parts):
        return False
    for want, part in zip(wanted, parts, strict=True):
        if want == "{dm}":
            if not part.isdigit() or int(part) not in dm_channels:
                return False
        elif not (want.startswith("{") and want.endswith("}")) and want != part:
            return False
    return True


@dataclass
class Fault:
    """One misbehaviour: ``kind`` is the status to answer (403, 429, 500, 502, 503) or "slow" (wait
    ``delay`` seconds, uniformly drawn from the range, then answer normally).

    ``times`` is how many requests it hits (None: every one); ``probability`` the chance that a
    matching request is hit, drawn from the plan's seeded generator. ``retry_after`` is the 429's
    wait in seconds, ``code`` the 403's Discord error code. ``hits`` counts what it has hit.
    """

    route: str
    kind: FaultKind
    times: int | None = 1
    probability: float = 1.0
    retry_after: float = 0.05
    delay: tuple[float, float] = (2.0, 4.0)
    code: int = 50013
    hits: int = 0

    def __post_init__(self) -> None:
        if self.kind not in KINDS:
            raise ValueError(f"unknown fault kind {self.kind!r}; one of {KINDS}")
        if self.kind == 403 and self.code not in FORBIDDEN_MESSAGES:
            raise ValueError(f"unknown 403 code {self.code}; one of {sorted(FORBIDDEN_MESSAGES)}")
        if not 0.0 <= self.probability <= 1.0:
            raise ValueError("probability must be between 0 and 1")

    @property
    def exhausted(self) -> bool:
        return self.times is not None and self.hits >= self.times

    def response(self) -> web.Response:
        """The answer Discord gives for this fault (not for "slow", which answers normally)."""
        if self.kind == 429:
            return rate_limited(self.retry_after, route_hash(self.route))
        if self.kind == 403:
            body = {"message": FORBIDDEN_MESSAGES[self.code], "code": self.code}
            return _json(body, 403)
        if self.kind == 500:
            return _json({"message": "500: Internal Server Error", "code": 0}, 500)
        if self.kind == 502:
            return web.Response(text=CLOUDFLARE_502, status=502, content_type="text/html")
        if self.kind == 503:
            # Discord's load balancer speaks plain text when no backend answers.
            return web.Response(
                text="upstream connect error or disconnect/reset before headers. "
                "reset reason: overflow",
                status=503,
                content_type="text/plain",
            )
        raise ValueError("a slow fault has no response of its own")


def rate_limited(retry_after: float, bucket: str, limit: int = 5) -> web.Response:
    """A per-route 429 with every header Discord sends. discord.py retries a 429 only when a
    ``Via`` header is present (without one it takes it for a Cloudflare ban and raises)."""
    headers = {
        **bucket_headers(bucket, limit, 0, retry_after),
        "Retry-After": str(math.ceil(retry_after)),
        "X-RateLimit-Scope": "user",
        "Via": "1.1 google",
    }
    body = {"message": "You are being rate limited.", "retry_after": retry_after, "global": False}
    return _json(body, 429, headers)


def bucket_headers(bucket: str, limit: int, remaining: int, reset_after: float) -> dict[str, str]:
    return {
        "X-RateLimit-Limit": str(limit),
        "X-RateLimit-Remaining": str(remaining),
        "X-RateLimit-Reset": f"{time.time() + reset_after:.3f}",
        "X-RateLimit-Reset-After": f"{reset_after:.3f}",
        "X-RateLimit-Bucket": bucket,
    }


def route_hash(route: str) -> str:
    return f"{zlib.crc32(route.encode()):08x}"


@dataclass
class RateLimit:
    """A per-route bucket as Discord keeps one: ``limit`` requests every ``per`` seconds for each
    top-level resource (channel, guild, webhook or interaction token) in the path. Answers in
    it carry the X-RateLimit headers, so discord.py paces itself; one over the limit gets a 429."""

    route: str
    limit: int = 5
    per: float = 5.0
    windows: dict[str, tuple[float, int]] = field(default_factory=dict)  # resource -> start, used

    def take(self, path: str, now: float) -> tuple[int, float]:
        """Spend one request at ``now`` (seconds, on the fake's clock): the requests left in the
        window (-1: over the limit), and the seconds until the window resets."""
        parts = path.strip("/").split("/")
        resource = "/".join(parts[:3] if parts[0] in ("webhooks", "interactions") else parts[:2])
        start, used = self.windows.get(resource, (now, 0))
        if now - start >= self.per:
            start, used = now, 0
        self.windows[resource] = (start, used + 1)
        return self.limit - used - 1, start + self.per - now


def _json(data: object, status: int, headers: dict[str, str] | None = None) -> web.Response:
    # discord.py only parses JSON when the content type is exactly "application/json".
    return web.Response(
        body=json.dumps(data).encode(),
        status=status,
        headers={"Content-Type": "application/json", **(headers or {})},
    )


@dataclass
class FaultPlan:
    """The faults in force, first match wins. ``seed`` makes probabilistic faults repeatable."""

    seed: int = 0
    faults: list[Fault] = field(default_factory=list)

    def __post_init__(self) -> None:
        self._random = random.Random(self.seed)

    def add(self, fault: Fault) -> Fault:
        self.faults.append(fault)
        return fault

    def remove(self, fault: Fault) -> None:
        self.faults.remove(fault)

    def clear(self) -> None:
        self.faults.clear()

    def pick(self, method: str, path: str, dm_channels: Collection[int]) -> Fault | None:
        """The fault to apply to this request, if any; counts the hit."""
        for fault in self.faults:
            if fault.exhausted or not route_matches(fault.route, method, path, dm_channels):
                continue
            if fault.probability < 1.0 and self._random.random() >= fault.probability:
                continue
            fault.hits += 1
            return fault
        return None

    def delay(self, fault: Fault) -> float:
        low, high = fault.delay
        return self._random.uniform(low, high)
