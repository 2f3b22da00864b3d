"""Discord's documented rules for what a bot sends, as the fake Discord enforces them and tests
check them: the application commands a bot syncs (docs/interactions/application-commands: naming,
lengths, counts, integer ranges, localisations), the edit window of old messages, a message as
Discord returns it (files that components and embeds show resolved and left out of its
``attachments``), and a server's scheduled events (their fields and the moves of their status).

Each check returns the problems it finds as readable strings (empty: Discord takes it), so a test
failing on one names the field.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterator, Mapping
from datetime import datetime
from typing import Any, Final

JSON = dict[str, Any]

# docs/reference (Locales): the keys a name_localizations/description_localizations may have.
LOCALES: Final = frozenset(
    [
        "id",
        "da",
        "de",
        "en-GB",
        "en-US",
        "es-ES",
        "es-419",
        "fr",
        "hr",
        "it",
        "lt",
        "hu",
        "nl",
        "no",
        "pl",
        "pt-BR",
        "ro",
        "fi",
        "sv-SE",
        "vi",
        "tr",
        "cs",
        "el",
        "bg",
        "ru",
        "uk",
        "hi",
        "th",
        "zh-CN",
        "ja",
        "zh-TW",
        "ko",
    ]
)
NAME_MAX = 32
DESCRIPTION_MAX = 100
OPTIONS_MAX = 25
CHOICES_MAX = 25
CHOICE_NAME_MAX = 100
CHOICE_VALUE_MAX = 100  # a string value's characters
# "INTEGER: any integer between -2^53+1 and 2^53-1"; NUMBER: a double between -2^53 and 2^53.
INTEGER_RANGE: Final = (-(2**53) + 1, 2**53 - 1)
NUMBER_RANGE: Final = (-(2.0**53), 2.0**53)
# The combined characters of a command's names, descriptions and choice values, the longest
# localisation of each counting. Discord has documented 4000 and later more: the lower holds.
COMMAND_CHARS_MAX = 4000
SUB_COMMAND, SUB_COMMAND_GROUP, STRING, INTEGER, NUMBER = 1, 2, 3, 4, 10
CHAT_INPUT = 1
# An Activity's Entry Point command (its handler: 1 the app answers, 2 Discord launches it);
# one an app, global only ("Entry Point Commands").
PRIMARY_ENTRY_POINT = 4
ENTRY_POINT_HANDLERS = (1, 2)
# A message older than this takes only a few edits (error 30046, "Maximum number of edits to
# messages older than 1 hour reached"); Discord does not document how few, so the fake takes none.
OLD_MESSAGE_SECONDS = 3600.0
OLD_MESSAGE_EDIT_CODE = 30046
# docs/reference (Uploading Files): files go up as multipart/form-data, the same way to a
# channel, a webhook or an interaction callback; at most 10 a message, and "the maximum request
# size when sending a message is 25 MiB" (Discord answers more with 413, code 40005).
ATTACHMENTS_MAX = 10
REQUEST_BYTES_MAX = 25 * 1024 * 1024
TOO_LARGE_CODE = 40005


def _script_allowed(char: str) -> bool:
    """\\p{sc=Deva} or \\p{sc=Thai}: Devanagari (and its extensions) or Thai, marks included."""
    code = ord(char)
    return (
        0x0900 <= code <= 0x097F
        or 0xA8E0 <= code <= 0xA8FF
        or 0x11B00 <= code <= 0x11B5F
        or 0x0E00 <= code <= 0x0E7F
    )


def name_problem(name: object, *, chat_input: bool = True) -> str | None:
    """Why ``name`` is not a valid command or option name: ``^[-_\\p{L}\\p{N}\\p{sc=Deva}
    \\p{sc=Thai}]{1,32}$``, and for slash commands no letter that has a lowercase form."""
    if not isinstance(name, str) or not 1 <= len(name) <= NAME_MAX:
        return f"{name!r} is not 1-{NAME_MAX} characters"
    if not chat_input:
        return None
    for char in name:
        if char in "-_" or unicodedata.category(char)[0] in "LN" or _script_allowed(char):
            if char.lower() != char:
                return f"{name!r} has an upper-case letter {char!r}"
            continue
        return f"{name!r} has {char!r}, which a command name may not"
    return None


def _localised(
    where: str, field: str, value: object, localisations: object, check: Any
) -> Iterator[str]:
    """``check`` on a field and on each of its localisations, whose keys must be locales."""
    if (problem := check(value)) is not None:
        yield f"{where} {field}: {problem}"
    if localisations is None:
        return
    if not isinstance(localisations, Mapping):
        yield f"{where} {field}_localizations is not a dictionary"
        return
    for locale, text in localisations.items():
        if locale not in LOCALES:
            yield f"{where} {field}_localizations: {locale!r} is not a Discord locale"
        if (problem := check(text)) is not None:
            yield f"{where} {field}_localizations[{locale}]: {problem}"


def _length(low: int, high: int) -> Any:
    def check(text: object) -> str | None:
        if not isinstance(text, str) or not low <= len(text) <= high:
            return f"{text!r} is not {low}-{high} characters"
        return None

    return check


def _longest(value: object, localisations: object) -> int:
    texts = [value, *(localisations.values() if isinstance(localisations, Mapping) else ())]
    return max(len(str(text)) for text in texts)


def command_problems(command: JSON) -> list[str]:
    """Everything Discord would refuse in one command of a bulk overwrite."""
    kind = command.get("type", CHAT_INPUT)
    # An Entry Point command is named and described as a slash command is, without options.
    chat = kind in (CHAT_INPUT, PRIMARY_ENTRY_POINT)
    where = f"/{command.get('name')}"
    problems = list(
        _localised(
            where,
            "name",
            command.get("name"),
            command.get("name_localizations"),
            lambda name: name_problem(name, chat_input=chat),
        )
    )
    if chat:
        problems += _localised(
            where,
            "description",
            command.get("description"),
            command.get("description_localizations"),
            _length(1, DESCRIPTION_MAX),
        )
        problems += _options(where, command.get("options") or [], depth=0)
    elif command.get("description") not in ("", None):
        problems.append(f"{where}: a context menu command's description must be empty")
    if kind == PRIMARY_ENTRY_POINT:
        if command.get("options"):
            problems.append(f"{where}: an Entry Point command has no options")
        if command.get("handler") not in ENTRY_POINT_HANDLERS:
            problems.append(f"{where}: handler {command.get('handler')!r} is not 1 or 2")
    elif "handler" in command:
        problems.append(f"{where}: only an Entry Point command has a handler")
    total = _characters(command)
    if total > COMMAND_CHARS_MAX:
        problems.append(f"{where}: {total} characters, over Discord's {COMMAND_CHARS_MAX}")
    return problems


def _options(where: str, options: list[JSON], depth: int) -> list[str]:
    problems: list[str] = []
    if len(options) > OPTIONS_MAX:
        problems.append(f"{where}: {len(options)} options, over {OPTIONS_MAX}")
    names = [option.get("name") for option in options]
    if len(set(names)) != len(names):
        problems.append(f"{where}: option names repeat ({names})")
    kinds = [option.get("type") for option in options]
    nested = [kind in (SUB_COMMAND, SUB_COMMAND_GROUP) for kind in kinds]
    if any(nested) and not all(nested):
        problems.append(f"{where}: subcommands mixed with other options")
    required = [bool(o.get("required")) for o in options if (o.get("type") or 0) > 2]
    if required != sorted(required, reverse=True):
        problems.append(f"{where}: a required option after an optional one")
    for option in options:
        here = f"{where} {option.get('name')}"
        kind = option.get("type")
        problems += _localised(
            here,
            "name",
            option.get("name"),
            option.get("name_localizations"),
            name_problem,
        )
        problems += _localised(
            here,
            "description",
            option.get("description"),
            option.get("description_localizations"),
            _length(1, DESCRIPTION_MAX),
        )
        if (kind == SUB_COMMAND_GROUP and depth > 0) or (kind == SUB_COMMAND and depth > 1):
            problems.append(f"{here}: nested deeper than Discord allows")
        if kind in (SUB_COMMAND, SUB_COMMAND_GROUP):
            problems += _options(here, option.get("options") or [], depth + 1)
        problems += _range(here, option)
        problems += _choices(here, option)
    return problems


def _range(where: str, option: JSON) -> list[str]:
    kind = option.get("type")
    problems = []
    for bound in ("min_value", "max_value"):
        value = option.get(bound)
        if value is None:
            continue
        if kind not in (INTEGER, NUMBER):
            problems.append(f"{where}: {bound} on an option that is not a number")
            continue
        low, high = INTEGER_RANGE if kind == INTEGER else NUMBER_RANGE
        if (kind == INTEGER and not isinstance(value, int)) or not low <= value <= high:
            problems.append(f"{where}: {bound} {value} is outside {low}..{high}")
    low_value, high_value = option.get("min_value"), option.get("max_value")
    if low_value is not None and high_value is not None and low_value > high_value:
        problems.append(f"{where}: min_value over max_value")
    for bound, (low, high) in (("min_length", (0, 6000)), ("max_length", (1, 6000))):
        value = option.get(bound)
        if value is not None and (kind != STRING or not low <= value <= high):
            problems.append(f"{where}: {bound} {value} is not a string's {low}-{high}")
    return problems


def _choices(where: str, option: JSON) -> list[str]:
    choices = option.get("choices") or []
    kind = option.get("type")
    problems = []
    if len(choices) > CHOICES_MAX:
        problems.append(f"{where}: {len(choices)} choices, over {CHOICES_MAX}")
    if choices and kind not in (STRING, INTEGER, NUMBER):
        problems.append(f"{where}: choices on an option that takes none")
    if choices and option.get("autocomplete"):
        problems.append(f"{where}: choices and autocomplete together")
    for choice in choices:
        problems += _localised(
            f"{where} choice",
            "name",
            choice.get("name"),
            choice.get("name_localizations"),
            _length(1, CHOICE_NAME_MAX),
        )
        value = choice.get("value")
        if kind == STRING and not (isinstance(value, str) and len(value) <= CHOICE_VALUE_MAX):
            problems.append(f"{where} choice {value!r}: not a string of <= {CHOICE_VALUE_MAX}")
        if kind == INTEGER and not (
            isinstance(value, int) and INTEGER_RANGE[0] <= value <= INTEGER_RANGE[1]
        ):
            problems.append(f"{where} choice {value!r}: not an integer in Discord's range")
    return problems


def _characters(node: JSON) -> int:
    """The characters Discord counts towards a command's total: names, descriptions and choice
    values of it, its options and their choices, each field by its longest localisation."""
    total = _longest(node.get("name", ""), node.get("name_localizations"))
    total += _longest(node.get("description", ""), node.get("description_localizations"))
    if "value" in node:
        total += len(str(node["value"]))
    for child in [*(node.get("options") or []), *(node.get("choices") or [])]:
        total += _characters(child)
    return total


def sync_problems(commands: list[JSON], *, guild: bool = False) -> list[str]:
    """Everything Discord would refuse in a bulk overwrite of ``commands`` (a server's with
    ``guild``)."""
    problems = [problem for command in commands for problem in command_problems(command)]
    entry_points = [c for c in commands if c.get("type") == PRIMARY_ENTRY_POINT]
    if len(entry_points) > 1:
        problems.append("more than one Entry Point command")
    if entry_points and guild:
        problems.append("an Entry Point command is global only")
    keys = [(command.get("type", CHAT_INPUT), command.get("name")) for command in commands]
    if len(set(keys)) != len(keys):
        problems.append("two commands of one type share a name")
    return problems


# Components V2 (docs/components/reference): a message with this flag is made of components only.
IS_COMPONENTS_V2 = 1 << 15
COMPONENTS_MAX = 40  # every component, nested ones included
TEXT_MAX = 4000  # all text displays of a message together
ACTION_ROW, BUTTON, SECTION, TEXT_DISPLAY, THUMBNAIL, MEDIA_GALLERY = 1, 2, 9, 10, 11, 12
FILE, SEPARATOR, CONTAINER = 13, 14, 17
TOP_LEVEL_V2 = {ACTION_ROW, SECTION, TEXT_DISPLAY, MEDIA_GALLERY, FILE, SEPARATOR, CONTAINER}
IN_CONTAINER = {ACTION_ROW, SECTION, TEXT_DISPLAY, MEDIA_GALLERY, FILE, SEPARATOR}
ROW_WIDTH = 5
LABEL_MAX = 80
CUSTOM_ID_MAX = 100


def message_problems(message: JSON, old_flags: int | None = None) -> list[str]:
    """What Discord refuses in a message as it would stand after a create or an edit (its
    ``flags`` the new ones; ``old_flags`` the flags before an edit)."""
    flags = int(message.get("flags") or 0)
    components = message.get("components") or []
    if len(message.get("attachments") or []) > ATTACHMENTS_MAX:
        return [f"{len(message['attachments'])} attachments, over {ATTACHMENTS_MAX}"]
    if old_flags is not None and old_flags & IS_COMPONENTS_V2 and not flags & IS_COMPONENTS_V2:
        return ["the IS_COMPONENTS_V2 flag can't be taken off a message"]
    shared = embed_problems(message.get("embeds") or []) + [
        f"the custom id {custom_id!r} twice" for custom_id in duplicate_custom_ids(components)
    ]
    if shared:
        return shared
    if not flags & IS_COMPONENTS_V2:
        problems = [
            f"component type {c.get('type')} needs IS_COMPONENTS_V2"
            for c in components
            if c.get("type") != ACTION_ROW
        ]
        if len(components) > 5:
            problems.append(f"{len(components)} action rows, over 5")
        return problems + [p for row in components for p in _row(row)]
    problems = []
    if message.get("content"):
        problems.append("a Components V2 message has no content")
    if message.get("embeds"):
        problems.append("a Components V2 message has no embeds")
    if not components:
        problems.append("a Components V2 message has components")
    files = {a["filename"] for a in message.get("attachments") or []}
    count, text = 0, 0
    for component, parent in _walk(components, None):
        count += 1
        kind = component.get("type")
        allowed = TOP_LEVEL_V2 if parent is None else IN_CONTAINER if parent == CONTAINER else None
        if allowed is not None and kind not in allowed:
            problems.append(f"component type {kind} can't be inside {parent or 'the message'}")
        if kind == TEXT_DISPLAY:
            text += len(component.get("content") or "")
        if kind == ACTION_ROW:
            problems += _row(component)
        for item in component.get("items") or []:
            url = str(item.get("media", {}).get("url", ""))
            if url.startswith("attachment://") and url.removeprefix("attachment://") not in files:
                problems.append(f"{url} names no attachment of the message")
    if count > COMPONENTS_MAX:
        problems.append(f"{count} components, over {COMPONENTS_MAX}")
    if text > TEXT_MAX:
        problems.append(f"{text} characters of text, over {TEXT_MAX}")
    return problems


def as_returned(message: JSON) -> JSON:
    """A message as Discord returns it (a REST answer, the message of a click) from the message
    as stored, which keeps every file it was sent with.

    Discord resolves each ``attachment://`` reference: a component's media item comes back with
    the file's CDN URL and the file's ``attachment_id`` (components/reference: unfurled media
    item), an embed's image with the CDN URL; and ``attachments`` lists only the files that no
    embed or component references (resources/message: the message object)."""
    files = {a["filename"]: a for a in message.get("attachments") or []}
    used: set[str] = set()

    def resolve(node: Any, media: bool) -> Any:
        if isinstance(node, list):
            return [resolve(child, media) for child in node]
        if not isinstance(node, dict):
            return node
        url = node.get("url")
        if isinstance(url, str) and url.startswith("attachment://"):
            found = files.get(url.removeprefix("attachment://"))
            if found is not None:
                used.add(found["filename"])
                shown = {key: found[key] for key in RESOLVED if key in found}
                return {**shown, "attachment_id": found["id"]} if media else shown
        return {key: resolve(value, media) for key, value in node.items()}

    components = resolve(message.get("components") or [], True)
    embeds = resolve(message.get("embeds") or [], False)
    unreferenced = [a for a in message.get("attachments") or [] if a["filename"] not in used]
    return {**message, "components": components, "embeds": embeds, "attachments": unreferenced}


# What a resolved media item or embed image carries of its file.
RESOLVED: Final = ("url", "proxy_url", "width", "height", "content_type")


# Embeds (docs/resources/message#embed-object-embed-limits): each part's characters, and all of
# a message's embeds together.
EMBEDS_MAX = 10
EMBED_TOTAL_MAX = 6000
EMBED_TITLE_MAX, EMBED_DESCRIPTION_MAX, EMBED_FOOTER_MAX = 256, 4096, 2048
FIELDS_MAX, FIELD_NAME_MAX, FIELD_VALUE_MAX = 25, 256, 1024


def embed_problems(embeds: list[JSON]) -> list[str]:
    """What Discord refuses in a message's embeds (``discord.Embed.to_dict()`` each)."""
    problems = [] if len(embeds) <= EMBEDS_MAX else [f"{len(embeds)} embeds, over {EMBEDS_MAX}"]
    total = 0
    for embed in embeds:
        parts = {
            "title": (str(embed.get("title") or ""), EMBED_TITLE_MAX),
            "description": (str(embed.get("description") or ""), EMBED_DESCRIPTION_MAX),
            "footer": (str((embed.get("footer") or {}).get("text") or ""), EMBED_FOOTER_MAX),
            "author": (str((embed.get("author") or {}).get("name") or ""), EMBED_TITLE_MAX),
        }
        fields = embed.get("fields") or []
        if len(fields) > FIELDS_MAX:
            problems.append(f"{len(fields)} fields, over {FIELDS_MAX}")
        for number, field in enumerate(fields, 1):
            name, value = str(field.get("name") or ""), str(field.get("value") or "")
            if not name or not value:
                problems.append(f"field {number} has an empty name or value")
            parts[f"field {number}'s name"] = (name, FIELD_NAME_MAX)
            parts[f"field {number}'s value"] = (value, FIELD_VALUE_MAX)
        for what, (text, limit) in parts.items():
            if len(text) > limit:
                problems.append(f"the {what}: {len(text)} characters, over {limit}")
            total += len(text)
    if total > EMBED_TOTAL_MAX:
        problems.append(f"{total} characters in the embeds, over {EMBED_TOTAL_MAX}")
    return problems


def duplicate_custom_ids(components: list[JSON]) -> list[str]:
    """Custom ids used twice in one message (Discord refuses them)."""
    seen: list[str] = [
        str(c["custom_id"]) for c, _ in _walk(components, None) if c.get("custom_id")
    ]
    return sorted({i for i in seen if seen.count(i) > 1})


def _walk(components: list[JSON], parent: int | None) -> Iterator[tuple[JSON, int | None]]:
    for component in components:
        yield component, parent
        if component.get("type") != ACTION_ROW:
            yield from _walk(component.get("components") or [], component.get("type"))
        else:
            for child in component.get("components") or []:
                yield child, ACTION_ROW


def _row(row: JSON) -> list[str]:
    buttons = row.get("components") or []
    problems = []
    if not 1 <= len(buttons) <= ROW_WIDTH:
        problems.append(f"an action row of {len(buttons)} components, not 1-{ROW_WIDTH}")
    for button in buttons:
        if len(button.get("label") or "") > LABEL_MAX:
            problems.append(f"a button label over {LABEL_MAX}: {button.get('label')!r}")
        if len(button.get("custom_id") or "") > CUSTOM_ID_MAX:
            problems.append(f"a custom id over {CUSTOM_ID_MAX}")
    return problems


# docs/resources/guild-scheduled-event: a server's scheduled events.
EVENT_NAME = (1, 100)
EVENT_DESCRIPTION_MAX = 1000
EVENT_LOCATION = (1, 100)
EXTERNAL = 3  # entity type: somewhere else than a stage or voice channel
GUILD_ONLY = 2  # the only privacy level
SCHEDULED, ACTIVE, COMPLETED, CANCELED = 1, 2, 3, 4
# "Valid Guild Scheduled Event Status Transitions": once COMPLETED or CANCELED it can't change.
EVENT_MOVES: Final = {SCHEDULED: {ACTIVE, CANCELED}, ACTIVE: {COMPLETED}}
# Permissions: Create Events to make one, Manage Events (or Create Events for its creator) to
# change it.
CREATE_EVENTS = 1 << 44
MANAGE_EVENTS = 1 << 33


def event_problems(event: JSON, now: float) -> list[str]:
    """A new scheduled event's fields (POST /guilds/{id}/scheduled-events) at time ``now``."""
    problems: list[str] = []
    low, high = EVENT_NAME
    if not isinstance(event.get("name"), str) or not low <= len(event["name"]) <= high:
        problems.append(f"name: {low} to {high} characters")
    description = event.get("description")
    if description is not None and len(description) > EVENT_DESCRIPTION_MAX:
        problems.append(f"description: at most {EVENT_DESCRIPTION_MAX} characters")
    if event.get("privacy_level") != GUILD_ONLY:
        problems.append("privacy_level: 2 (GUILD_ONLY)")
    start = _time(event.get("scheduled_start_time"))
    end = _time(event.get("scheduled_end_time"))
    if start is None or start <= now:
        problems.append("scheduled_start_time: a time in the future")
    if event.get("entity_type") == EXTERNAL:
        location = (event.get("entity_metadata") or {}).get("location")
        low, high = EVENT_LOCATION
        if not isinstance(location, str) or not low <= len(location) <= high:
            problems.append(f"entity_metadata.location: {low} to {high} characters")
        if end is None or start is None or end <= start:
            problems.append("scheduled_end_time: required for EXTERNAL, after the start")
        if event.get("channel_id") is not None:
            problems.append("channel_id: null for EXTERNAL")
    return problems


def event_move_problem(old: int, new: int) -> str | None:
    if new == old or new in EVENT_MOVES.get(old, set()):
        return None
    return f"status: no move from {old} to {new}"


def _time(value: object) -> float | None:
    if not isinstance(value, str):
        return None
    try:
        return datetime.fromisoformat(value).timestamp()
    except ValueError:
        return None
