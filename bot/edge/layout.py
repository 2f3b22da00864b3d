"""A hand's one live message, in Discord's Components V2 layout: a container holding the picture
(a media gallery), the text and the buttons. Pure functions: a view and the texts in, a layout
out.

The picture is an attachment the message already carries (``attachment://table.png``): an edit
that uploads nothing keeps it, so a click changes the text and the buttons only. The text holds
every figure a click changes (what just happened, whose turn with its deadline, the pot, each
seat's stack and bet); the picture holds none of them (``bot.core.views.Picture``).

Discord's rules for such a message (flag IS_COMPONENTS_V2): no content and no embeds, at most 40
components, at most 4,000 characters of text in all.
"""

from __future__ import annotations

from typing import Any, Final
from urllib.parse import unquote, urlsplit

import discord

from bot.core.views import HandView, ResultsView, TableView
from bot.edge.buttons import action_rows
from bot.edge.embeds import hand_seat_lines, hand_title, level_line
from bot.edge.funnel import relative_time
from words import Texts

TEXT_LIMIT: Final = 4000  # Discord's total for a message's text displays
IS_COMPONENTS_V2: Final = 1 << 15  # the message flag
ACTION_ROW: Final = 1  # the component type
GREEN: Final = discord.Colour.dark_green()
GOLD: Final = discord.Colour.gold()


def hand_layout(
    view: TableView, hand: HandView, texts: Texts, picture: str, *, launch: bool = False
) -> discord.ui.LayoutView:
    """The live message of the hand in play: its picture, text and buttons (``launch``: with
    the one that opens the table as a Discord Activity)."""
    rows = action_rows(
        view.channel_id, hand.hand_id, hand.seq, hand.buttons, view.lang, texts, launch=launch
    )
    return _layout(picture, hand_text(view, hand, texts), GREEN, rows)


def results_layout(view: ResultsView, texts: Texts, picture: str) -> discord.ui.LayoutView:
    """The same message once the hand is over, left in the channel as its record: the showdown
    picture, what was shown and won, each player's result; no buttons."""
    return _layout(picture, results_text(view, texts), GOLD, [])


def _layout(
    picture: str, text: str, colour: discord.Colour, rows: list[discord.ui.ActionRow[Any]]
) -> discord.ui.LayoutView:
    container = discord.ui.Container[Any](
        discord.ui.MediaGallery[Any](discord.MediaGalleryItem(f"attachment://{picture}")),
        discord.ui.TextDisplay[Any](_cut(text)),
        *rows,
        accent_colour=colour,
    )
    layout = discord.ui.LayoutView(timeout=None)
    layout.add_item(container)
    # Stopped: discord.py then keeps no copy of it; clicks reach bot.edge.router instead.
    layout.stop()
    return layout


def hand_text(view: TableView, hand: HandView, texts: Texts) -> str:
    """Title, each seat (stack, cards, bet), the pot, the hand's latest lines and whose turn it
    is with his deadline as a Discord timestamp (each reader sees it count down)."""
    lang = view.lang
    t = texts.t
    lines = [f"### {hand_title(texts, lang, hand.game, view.stakes, hand.hand_id, hand.street)}"]
    lines += hand_seat_lines(hand, texts, lang)
    lines.append(f"**{t(lang, 'pot', pot=hand.public.pot)}**")
    lines += [f"> {line}" for line in hand.log]
    if hand.actor is not None:
        key = "to_act_bank" if hand.on_time_bank else "to_act"
        lines.append("⏱ " + t(lang, key, name=hand.actor, when=relative_time(hand.deadline)))
    if view.next_game is not None:
        lines.append(f"-# {view.next_game}")
    if view.level is not None:
        lines.append(f"-# {level_line(view.level, texts, lang)}")
    lines.append(f"-# {t(lang, 'commitment', hand_id=hand.hand_id, digest=hand.commitment)}")
    return "\n".join(lines)


def results_text(view: ResultsView, texts: Texts) -> str:
    lang = view.lang
    t = texts.t
    street = "showdown" if view.public.is_showdown else view.street
    lines = [f"### {hand_title(texts, lang, view.game, view.stakes, view.hand_id, street)}"]
    lines += view.lines
    lines += [t(lang, "net_result", name=name, net=net) for name, net in view.nets]
    if view.next_hand_at is not None:
        lines.append("⏱ " + t(lang, "countdown", when=relative_time(view.next_hand_at)))
    if view.next_game is not None:
        lines.append(f"-# {view.next_game}")
    lines.append(f"-# {t(lang, 'commitment', hand_id=view.hand_id, digest=view.commitment)}")
    lines.append(f"-# {t(lang, 'reveal', hand_id=view.hand_id)}")
    return "\n".join(lines)


def _cut(text: str) -> str:
    """Within Discord's limit: the oldest of the hand's lines go first (they are quoted)."""
    if len(text) <= TEXT_LIMIT:
        return text
    lines = text.split("\n")
    while len("\n".join(lines)) > TEXT_LIMIT and any(line.startswith("> ") for line in lines):
        lines.remove(next(line for line in lines if line.startswith("> ")))
    return "\n".join(lines)[:TEXT_LIMIT]


def without_buttons(message: dict[str, Any]) -> list[dict[str, Any]]:
    """A Components V2 message's components as Discord sent them (``GET`` a message), less its
    action rows, to be sent back in an edit: pictures named by their attachment
    (``attachment://table.png``), so the message keeps the files it has and uploads none.

    Discord returns a file that a component shows resolved: its signed CDN URL (which expires)
    and its ``attachment_id``, and leaves it out of the message's ``attachments``. The media
    item's ``attachment_id`` says it is one of the message's files, and the URL's last segment
    is its file name."""

    def strip(component: dict[str, Any]) -> dict[str, Any]:
        component = dict(component)
        if "components" in component:
            component["components"] = [
                strip(c) for c in component["components"] if c.get("type") != ACTION_ROW
            ]
        if "items" in component:
            component["items"] = [_named(item) for item in component["items"]]
        return component

    return [strip(c) for c in message.get("components", []) if c.get("type") != ACTION_ROW]


def _named(item: dict[str, Any]) -> dict[str, Any]:
    media = item.get("media", {})
    if "attachment_id" not in media:
        return item  # a picture from elsewhere than the message's own files
    name = unquote(urlsplit(media["url"]).path.rsplit("/", 1)[-1])
    return {**item, "media": {"url": f"attachment://{name}"}}
