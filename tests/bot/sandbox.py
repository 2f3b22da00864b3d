"""The system calls deploy/stud.service lets its processes make, applied to a process here.

Read from the unit file itself: its ``SystemCallFilter=`` lines in order (groups expanded by
``systemd-analyze syscall-filter``, as the systemd installed here defines them) and
``SystemCallErrorNumber=`` for what they deny; without it a denied call kills the process, as
systemd does. Loaded with libseccomp (the ``pyseccomp`` bindings, over the system's library).

Run as ``python -m tests.bot.sandbox [--deny CALL]... [--kill] COMMAND...``: the filter is
loaded, then COMMAND runs under it (a seccomp filter outlives exec). ``--deny`` and ``--kill``
make the unit stricter, to see what the bot does in a sandbox that refuses more.
"""

from __future__ import annotations

import argparse
import errno
import functools
import os
import shutil
import subprocess
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

UNIT = Path(__file__).resolve().parents[2] / "deploy" / "stud.service"


@dataclass(frozen=True)
class Filter:
    allowed: frozenset[str]
    error: str | None  # the errno a denied call fails with; None: the process is killed


def why_not() -> str | None:
    """Why the filter cannot be applied on this machine, or None."""
    if shutil.which("systemd-analyze") is None:
        return "systemd-analyze (which names the calls of each group) is not installed"
    try:
        import pyseccomp  # noqa: F401
    except (ImportError, RuntimeError) as error:  # RuntimeError: no libseccomp.so
        return f"libseccomp cannot be loaded ({error})"
    return None


@functools.cache
def expand(name: str) -> frozenset[str]:
    """A system call, or every call of a group (``@resources``) with its groups' calls."""
    if not name.startswith("@"):
        return frozenset({name})
    listing = subprocess.run(
        ["systemd-analyze", "syscall-filter", name], capture_output=True, text=True, check=True
    ).stdout
    calls: set[str] = set()
    for line in listing.splitlines()[1:]:  # the first names the group
        entry = line.strip()
        if entry and not entry.startswith("#"):
            calls |= expand(entry)
    return frozenset(calls)


def unit_filter(unit: str) -> Filter:
    """The filter of a unit whose first ``SystemCallFilter=`` is an allow list (the others
    then add calls, or take them away when they start with ``~``, in order)."""
    allowed: set[str] | None = None
    error = None
    for line in unit.splitlines():
        key, _, value = line.strip().partition("=")
        if key == "SystemCallErrorNumber":
            error = value.strip() or None
        elif key == "SystemCallFilter":
            deny = value.startswith("~")
            calls = set().union(*(expand(name) for name in value.lstrip("~").split()))
            if allowed is None:
                if deny:
                    raise ValueError("a unit whose filter starts with a deny list")
                allowed = calls
            elif deny:
                allowed -= calls
            else:
                allowed |= calls
    if allowed is None:
        raise ValueError("the unit has no SystemCallFilter=")
    return Filter(frozenset(allowed), error)


def load(rules: Filter) -> None:
    """Apply ``rules`` to this process and every process it starts from now on."""
    import pyseccomp as seccomp

    denied = (
        seccomp.KILL_PROCESS if rules.error is None else seccomp.ERRNO(getattr(errno, rules.error))
    )
    sandbox = seccomp.SyscallFilter(defaction=denied)
    for call in sorted(rules.allowed):
        try:
            sandbox.add_rule(seccomp.ALLOW, call)
        except (ValueError, OSError):
            continue  # unknown to this libseccomp or this architecture: systemd skips it too
    sandbox.load()


def main(argv: Sequence[str]) -> None:
    arguments = argparse.ArgumentParser(prog="python -m tests.bot.sandbox")
    arguments.add_argument("--deny", action="append", default=[], metavar="CALL")
    arguments.add_argument("--kill", action="store_true", help="kill on a denied call")
    arguments.add_argument("command", nargs=argparse.REMAINDER)
    args = arguments.parse_args(argv)
    rules = unit_filter(UNIT.read_text())
    rules = Filter(rules.allowed - set(args.deny), None if args.kill else rules.error)
    load(rules)
    os.execv(args.command[0], args.command)


if __name__ == "__main__":
    main(sys.argv[1:])
