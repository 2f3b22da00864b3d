"""``python -m tests.bot.cluster_launcher ARGS``: ``stud-bot ARGS`` whose cluster starts the
stand-in workers of :mod:`tests.bot.cluster_child` instead of the bot."""

from __future__ import annotations

import sys

from bot import cluster
from bot.__main__ import main

if __name__ == "__main__":
    cluster.WORKER = (sys.executable, "-m", "tests.bot.cluster_child")
    sys.exit(main())
