"""The Discord-free core: tables, the dealer, the turn clock, recovery, storage, the archive.

Nothing under ``bot.core`` imports ``discord`` (tests/test_architecture.py holds that). The edge
enters through :class:`bot.core.house.House` (one call a command) and sees what a table shows as
frozen views (``bot.core.views``) taken from its outbox (``bot.core.outbox``), reporting back
through the same outbox what became of each.
"""
