"""The Discord-free core: tables, their clock and outbox, storage, the archive of finished hands.

Nothing under ``bot.core`` imports ``discord`` (tests/test_architecture.py holds that): the
core decides, saves and records what each table must show; ``bot.edge`` shows it on Discord.
"""
