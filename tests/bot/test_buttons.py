"""Each button parses its own id: the ids buttons were posted with before still reach the same
button with the same fields, an id no button has matches none, and the ids the layouts make
now are the ones the buttons parse."""

from __future__ import annotations

from typing import Any

import discord
import pytest

from bot.core.views import ButtonSpec
from bot.edge.buttons import action_id
from bot.edge.router import CLICKS, ActionClick, CardsClick, LobbyClick, PageClick


def _parsed(custom_id: str) -> tuple[type[Any], dict[str, str | None]]:
    found = [kind for kind in CLICKS if kind.template_of().fullmatch(custom_id)]
    assert len(found) == 1, (custom_id, found)
    match = found[0].template_of().fullmatch(custom_id)
    assert match is not None
    return found[0], match.groupdict()


@pytest.mark.parametrize(
    ("custom_id", "kind", "fields"),
    [
        (
            "stud:a:1456074443980800028:17:4:raise:40",
            ActionClick,
            {"channel": "1456074443980800028", "hand": "17", "seq": "4", "action": "raise"},
        ),
        ("stud:a:5:1:0:bring_in:", ActionClick, {"action": "bring_in", "amount": ""}),
        ("stud:cards:1456074443980800028", CardsClick, {"channel": "1456074443980800028"}),
        ("stud:t:3:register", LobbyClick, {"tournament": "3", "action": "register"}),
        ("stud:t:3:entrants", LobbyClick, {"tournament": "3", "action": "entrants"}),
        ("stud:t:3:page:2", PageClick, {"tournament": "3", "page": "2"}),
    ],
)
def test_an_id_posted_before_reaches_its_button(
    custom_id: str, kind: type[Any], fields: dict[str, str]
) -> None:
    found, parsed = _parsed(custom_id)
    assert found is kind
    assert {key: parsed[key] for key in fields} == fields


@pytest.mark.parametrize(
    "custom_id", ["stud:a:1:2:3:shove:", "stud:cards:", "stud:t:3:page:", "stud:x:1", "other:a:1"]
)
def test_an_id_no_button_has_matches_none(custom_id: str) -> None:
    assert not [kind for kind in CLICKS if kind.template_of().fullmatch(custom_id)]


def test_the_ids_made_now_are_the_ones_parsed() -> None:
    made = action_id(7, 8, 9, ButtonSpec("raise", 40))
    found, parsed = _parsed(made)
    assert found is ActionClick
    assert (parsed["channel"], parsed["hand"], parsed["seq"], parsed["amount"]) == (
        "7",
        "8",
        "9",
        "40",
    )


async def test_a_parsed_button_keeps_the_id_it_was_clicked_with() -> None:
    custom_id = "stud:t:3:page:2"
    match = PageClick.template_of().fullmatch(custom_id)
    assert match is not None
    click = await PageClick.from_custom_id(
        None,  # type: ignore[arg-type]
        discord.ui.Button[Any](custom_id=custom_id),
        match,
    )
    assert click.custom_id == custom_id and click.match["page"] == "2"
