"""Rewrite the golden pictures on purpose: ``python -m tests.render.regenerate [DIR]``.

Run it after a deliberate change to how pictures look, look at every file it writes, and commit
them with the change. ``DIR`` defaults to tests/render/golden.
"""

from __future__ import annotations

import sys
from pathlib import Path

from tests.render.cases import CASES, GOLDEN_DIR


def main(argv: list[str]) -> None:
    out = Path(argv[0]) if argv else GOLDEN_DIR
    out.mkdir(parents=True, exist_ok=True)
    for name, case in CASES.items():
        path = out / f"{name}.png"
        data = case()
        path.write_bytes(data)
        print(f"{path}  {len(data) // 1024} KB")


if __name__ == "__main__":
    main(sys.argv[1:])
