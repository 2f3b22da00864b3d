"""A stand-in for a cluster's worker (``stud-bot run --shards ...``) that needs no Discord: it
notes how it was started in ``$STUD_TEST_CLUSTER/started-PID`` and, when signalled, in
``stopped-PID``, then exits 0. Named in ``STUD_TEST_FATAL``, its shards exit 4 at once (the
database refused); named in ``STUD_TEST_STUBBORN``, they ignore SIGTERM. Like the bot's drawing
process, a child of its own runs beside it (its pid in ``child-PID``)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path
from types import FrameType


def main() -> int:
    folder = Path(os.environ["STUD_TEST_CLUSTER"])
    args = sys.argv[1:]
    shards = args[args.index("--shards") + 1]
    if shards in os.environ.get("STUD_TEST_FATAL", "").split():
        return 4
    stubborn = shards in os.environ.get("STUD_TEST_STUBBORN", "").split()

    def stop(signum: int, frame: FrameType | None) -> None:
        (folder / f"stopped-{os.getpid()}").write_text(signal.Signals(signum).name)
        if not stubborn:
            sys.exit(0)

    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)
    child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(600)"])
    (folder / f"child-{os.getpid()}").write_text(str(child.pid))
    # Written last: once it is there, the signal handlers and the child are too.
    (folder / f"started-{os.getpid()}").write_text(" ".join(args))
    while True:
        signal.pause()


if __name__ == "__main__":
    sys.exit(main())
