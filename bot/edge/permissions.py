"""What the bot needs in a table's channel, and what an interaction shows it lacks there."""

from __future__ import annotations

from typing import Final

import discord

# As discord.Permissions flag names (each worded by its perm_ message).
NEEDED_PERMISSIONS: Final = ("view_channel", "send_messages", "attach_files", "embed_links")
THREAD_PERMISSION: Final = "send_messages_in_threads"


def missing_permissions(interaction: discord.Interaction) -> list[str]:
    """The permissions the bot lacks in the interaction's channel, as flag names."""
    granted = interaction.app_permissions
    needed = list(NEEDED_PERMISSIONS)
    if isinstance(interaction.channel, discord.Thread):
        needed.append(THREAD_PERMISSION)
    return [name for name in needed if not getattr(granted, name)]


# What a tournament's lobby channel needs besides: a thread per table, played in.
TOURNAMENT_PERMISSIONS: Final = ("create_public_threads", THREAD_PERMISSION)


def missing_tournament_permissions(interaction: discord.Interaction) -> list[str]:
    """The permissions the bot lacks to run a tournament from the interaction's channel."""
    granted = interaction.app_permissions
    missing = missing_permissions(interaction)
    return missing + [name for name in TOURNAMENT_PERMISSIONS if not getattr(granted, name)]


def can_make_events(interaction: discord.Interaction) -> bool:
    """Whether the bot may make a scheduled event on the interaction's server (and change
    the ones it made): Manage Events, or Create Events, which Discord split from it."""
    granted = interaction.app_permissions
    return bool(granted.manage_events or granted.create_events)
