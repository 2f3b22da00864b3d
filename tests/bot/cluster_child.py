"""A stand-in for a cluster's worker (``stud-bot run --shards ...``) that needs no Discord: it
notes how it was started in ``$STUD_TEST_CLUSTER/started-PID`` and, when signalled, in
``stopped-PID``, then exits 0. Named in ``STUD_TEST_FATAL``, its shards exit 4 (the database
refused) once another worker has started; named in ``STUD_TEST_STUBBORN``, they ignore
SIGTERM. Like the bot's drawing process, a child of its own runs beside it (its pid in
``child-PID``)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from types import FrameType


def _write(path: Path, text: str) -> None:
    """Whole or not at all: the test may read the file the moment it appears."""
    part = path.with_name(f".{path.name}")
    part.write_text(text)
    part.rename(path)


def main() -> int:
    folder = Path(os.environ["STUD_TEST_CLUSTER"])
    args = sys.argv[1:]
    shards = args[args.index("--shards") + 1]
    if shards in os.environ.get("STUD_TEST_FATAL", "").split():
        # Fails once another worker is up, as a database error would come after the others
        # started on a busy machine too: the test checks the cluster stops that one.
        deadline = time.monotonic() + 20
        while not any(folder.glob("started-*")) and time.monotonic() < deadline:
            time.sleep(0.05)
        return 4
    stubborn = shards in os.environ.get("STUD_TEST_STUBBORN", "").split()

    def stop(signum: int, frame: FrameType | None) -> None:
        (folder / f"stopped-{os.getpid()}").write_text(signal.Signals(signum).name)
        if not stubborn:
            sys.exit(0)

    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)
    child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(600)"])
    _write(folder / f"child-{os.getpid()}", str(child.pid))
    # Written last: once it is there, the signal handlers and the child are too.
    _write(folder / f"started-{os.getpid()}", " ".join(args))
    while True:
        signal.pause()


if __name__ == "__main__":
    sys.exit(main())
