"""Every word the page shows is one the server sends it (``page_words``), in every language: the
page has no text of its own, so a key missing from the catalogues would show as the key."""

from __future__ import annotations

import re
from pathlib import Path

from bot.activity.page_socket import ACTIONS, page_words
from tests.texts import TEXTS

SOURCE = Path(__file__).parents[3] / "bot" / "activity" / "page" / "src"
LITERAL = re.compile(r"\bt\(\s*\"([a-z0-9_]+)\"")
TEMPLATE = re.compile(r"\bt\(\s*`([a-z0-9_]+)\$\{")
# What a key built from a view's field may end with: its values on the wire.
TEMPLATES = {
    "btn_": ACTIONS,
    "game_": ("stud", "razz", "hilo"),
    "street_": ("3", "4", "5", "6", "7"),
}


def _keys() -> set[str]:
    keys: set[str] = set()
    for path in SOURCE.glob("*.ts"):
        text = path.read_text()
        keys.update(LITERAL.findall(text))
        for prefix in TEMPLATE.findall(text):
            assert prefix in TEMPLATES, f"{path.name}: a key made from {prefix!r} and a field"
            keys.update(prefix + value for value in TEMPLATES[prefix])
    return keys


def test_every_word_the_page_uses_is_sent_in_every_language() -> None:
    keys = _keys()
    assert {"activity_sit", "btn_call", "street_7", "stakes"} <= keys  # the scan finds them
    for lang in TEXTS.codes:
        missing = keys - set(page_words(TEXTS, lang))
        assert not missing, f"{lang}: the page uses words the server does not send: {missing}"
