# ruff: noqa: RUF001  (Russian hand names are meant to be Cyrillic)
"""render: golden pictures, odd names, fonts, threads, layout and the options callers pass."""

from __future__ import annotations

import asyncio
import random
from concurrent.futures import ThreadPoolExecutor
from io import BytesIO
from pathlib import Path

import pytest
from PIL import Image, ImageChops

from engine import Card, StudHand, evaluate, parse_cards
from engine.public import PrivateHand, PublicTable
from engine.variants import STUD_HIGH
from render import SeatLabel, TableLabels, private_hand_png, showdown_png, table_png, theme
from render import private as private_picture
from render import table as table_picture
from render.cards import PRIVATE_CARD
from render.text import FONT_DIR, clean, draw_text, font
from tests.engine.decks import choose, play_out, random_hand, stud
from tests.render.cases import CASES, GOLDEN_DIR, community_card_hand
from tests.texts import hands, words
from words.hands import describe

# A pixel counts as different when a channel is off by more than this (anti-aliasing from
# another FreeType build stays below it) ...
PIXEL_TOLERANCE = 48
# ... and a picture still matches when at most this share of its pixels differ.
MAX_DIFFERENT_SHARE = 0.002


def _image(data: bytes) -> Image.Image:
    return Image.open(BytesIO(data))


@pytest.mark.parametrize("name", sorted(CASES))
def test_golden_pictures(name: str, tmp_path: Path) -> None:
    """Issue 3: fixed hands look as approved (python -m tests.render.regenerate to re-approve)."""
    golden = GOLDEN_DIR / f"{name}.png"
    assert golden.exists(), f"no {golden}: run python -m tests.render.regenerate"
    actual = _image(CASES[name]()).convert("RGB")
    expected = Image.open(golden).convert("RGB")
    assert actual.size == expected.size
    red, green, blue = ImageChops.difference(actual, expected).split()
    worst = ImageChops.lighter(ImageChops.lighter(red, green), blue)
    different = sum(worst.histogram()[PIXEL_TOLERANCE + 1 :])
    share = different / (actual.width * actual.height)
    if share > MAX_DIFFERENT_SHARE:
        actual.save(tmp_path / f"{name}.actual.png")
        worst.point(lambda v: 255 if v > PIXEL_TOLERANCE else 0).save(tmp_path / f"{name}.diff.png")
        pytest.fail(f"{name}: {share:.2%} of pixels differ; see {tmp_path}")


def test_pictures_are_small_palette_pngs() -> None:
    """Issue 3: at most 150 KB; the table keeps one size for every state."""
    for name, case in CASES.items():
        data = case()
        image = _image(data)
        assert image.format == "PNG" and image.mode == "P", name
        assert len(data) <= 150 * 1024, name
        if not name.startswith(("private", "rankings", "ledger")):
            assert image.size == (table_picture.WIDTH, table_picture.HEIGHT)


ODD_NAMES = [
    "Dana",
    "Ёжик Петров",
    "Zoë Ångström-Núñez",
    "e\u0301\u0301tienne",  # stacked combining accents
    "🂡 Royal 😀🔥",
    "👨‍👩‍👧 family",  # zero-width joiners
    "❤️ love",  # variation selector
    "李小龍",
    "محمد",
    "line\nbreak\ttab\x00nul",
    "\ud800 lone surrogate",
    "",
    "   ",
    "W" * 200,
]


def test_any_discord_name_draws_without_crashing() -> None:
    """Issue 3: Latin, Cyrillic, accents, emoji, CJK, controls; missing glyphs never crash."""
    hand = stud({seat: "" for seat in range(8)}, stacks=[100] * 8)
    view = PublicTable.from_hand(hand)
    for start in range(0, len(ODD_NAMES), 8):
        names = (ODD_NAMES[start:] + ODD_NAMES)[:8]
        labels = TableLabels(
            seats=tuple(SeatLabel(name) for name in names), last_action=" ".join(names)
        )
        assert _image(table_png(view, labels)).size == (table_picture.WIDTH, table_picture.HEIGHT)
    for name in ODD_NAMES:
        assert _image(private_hand_png(PrivateHand.for_seat(hand, 0), name=name))


def _ink(text: str) -> int:
    canvas = Image.new("RGB", (400, 40), (0, 0, 0))
    draw_text(canvas, (4, 20), text, 20, (255, 255, 255))
    return sum(canvas.convert("L").histogram()[101:])


# An Egyptian hieroglyph: no shipped font has it.
NO_FONT = "\U00013000"


def test_missing_glyphs_become_a_visible_placeholder() -> None:
    """A character no shipped font has still draws something (DejaVu's box), and takes room."""
    assert _ink(NO_FONT) > 20
    assert _ink(f"A{NO_FONT}B") > _ink("AB")
    canvas = Image.new("RGB", (400, 40))
    assert draw_text(canvas, (4, 20), f"A{NO_FONT}B", 20, theme.TEXT) > draw_text(
        canvas, (4, 20), "AB", 20, theme.TEXT
    )


NAMES_BY_SCRIPT = {
    "Latin": "Zoë Ångström",
    "Greek": "Νίκος",
    "Cyrillic": "Алёна",
    "Chinese": "王小明",
    "Japanese": "さくら サクラ",
    "Korean": "김민준",
    "emoji": "🎲🔥😀🎉",
}


def _drawn(text: str, bold: bool) -> bytes:
    canvas = Image.new("RGB", (400, 40))
    draw_text(canvas, (4, 20), text, 20, (255, 255, 255), bold=bold)
    return canvas.tobytes()


@pytest.mark.parametrize("bold", [False, True])
def test_every_scripts_names_draw_as_letters_not_boxes(bold: bool) -> None:
    """Each character of a name in each script draws ink of its own, never the box drawn for a
    character no shipped font has; a name mixing scripts draws every run."""
    box = _drawn(NO_FONT, bold)
    for script, name in NAMES_BY_SCRIPT.items():
        for char in name.replace(" ", ""):
            assert _drawn(char, bold) != box, (script, char)
            assert _ink(char) > 20, (script, char)
    mixed = "美咲 ❤ Misaki 🎲"
    assert _ink(mixed) > _ink("美咲 ❤ Misaki") > _ink("❤ Misaki")


def test_a_name_in_a_fallback_font_is_cut_to_its_room() -> None:
    """Widths come from the font that draws each run: a long name is cut with an ellipsis,
    within its room."""
    canvas = Image.new("RGB", (400, 40))
    width = draw_text(
        canvas, (4, 20), "王小明" * 20 + "🎲" * 20, 20, (255, 255, 255), max_width=150
    )
    assert width <= 150
    left, _, right, _ = canvas.getbbox() or (0, 0, 0, 0)
    assert left >= 3 and right <= 4 + 150 + 1


def test_clean_keeps_letters_and_drops_what_cannot_draw() -> None:
    assert clean("e\u0301") == "é"  # composed, so it draws as one glyph
    assert clean("a\nb\tc") == "a b c"
    assert clean("❤\ufe0f") == "❤"
    assert clean("a\u200db") == "ab"
    assert clean("\ud800") == "\ufffd"


def test_fonts_are_shipped_with_their_licence() -> None:
    """The fonts inside render/, with their licences; nothing from the system."""
    assert FONT_DIR.parent == Path(table_picture.__file__).parent
    assert {"DejaVuSans.ttf", "DejaVuSans-Bold.ttf", "LICENSE"} <= {
        path.name for path in FONT_DIR.iterdir()
    }
    assert "Bitstream Vera" in (FONT_DIR / "LICENSE").read_text()
    # The fallbacks for what DejaVu lacks, each with its licence.
    for file_name, licence, says in (
        ("NotoSansCJK-Subset.otf", "LICENSE-NotoSansCJK", "SIL OPEN FONT LICENSE Version 1.1"),
        ("Symbola-Subset.ttf", "LICENSE-Symbola", "free for any use"),
    ):
        assert (FONT_DIR / file_name).is_file() and says in (FONT_DIR / licence).read_text()
    assert font(12).getname() == ("DejaVu Sans", "Book")
    assert font(12, bold=True).getname() == ("DejaVu Sans", "Bold")
    for symbol in "♠♥♦♣":
        assert _ink(symbol) > 20


def _some_views(count: int) -> list[PublicTable]:
    rng = random.Random(5)
    views = []
    for _ in range(count):
        hand = random_hand(rng, short_stacks=False)
        for _ in range(rng.randrange(12)):
            if hand.actor is not None:
                hand.apply(*choose(hand, rng))
        views.append(PublicTable.from_hand(hand))
    return views


def test_rendering_in_threads_gives_the_same_bytes() -> None:
    """Issue 3: safe in worker threads while other tables render."""
    views = _some_views(6)
    labels = TableLabels(last_action="threads")
    serial = [table_png(view, labels) for view in views]
    with ThreadPoolExecutor(max_workers=4) as pool:
        for _ in range(3):
            assert list(pool.map(lambda view: table_png(view, labels), views)) == serial


async def test_rendering_with_asyncio_to_thread() -> None:
    views = _some_views(4)
    labels = TableLabels()
    results = await asyncio.gather(*(asyncio.to_thread(table_png, v, labels) for v in views))
    assert list(results) == [table_png(view, labels) for view in views]


def test_every_table_size_fits_its_seats_apart() -> None:
    """2 to 8 seats: panels inside the picture, apart from each other and from the middle."""
    middle = (
        table_picture.MIDDLE_LEFT,
        table_picture.MIDDLE_TOP,
        table_picture.MIDDLE_RIGHT,
        table_picture.MIDDLE_BOTTOM,
    )

    def overlap(a: tuple[int, int, int, int], b: tuple[int, int, int, int]) -> bool:
        return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]

    for seats, layout in table_picture.LAYOUTS.items():
        assert len(layout) == seats
        boxes = [slot.box for slot in layout]
        for i, box in enumerate(boxes):
            assert box[0] >= 0 and box[2] <= table_picture.WIDTH
            assert box[1] >= 0 and box[3] <= table_picture.HEIGHT
            assert not overlap(box, middle)
            for j, other in enumerate(boxes):
                assert i == j or not overlap(box, other), (seats, i, j)
        rng = random.Random(seats)
        hand = StudHand([500] * seats, random_hand(rng).stakes, _deck(rng), dealer=0)
        play_out(hand, rng)
        assert _image(showdown_png(PublicTable.from_hand(hand), TableLabels()))


def _deck(rng: random.Random) -> list[Card]:
    deck = [Card.from_index(index) for index in range(52)]
    rng.shuffle(deck)
    return deck


def test_bad_input_gets_a_clear_message() -> None:
    hand = stud({0: "AsKdQc", 1: "2h3h4h"})
    view = PublicTable.from_hand(hand)
    with pytest.raises(ValueError, match="3 seat labels for a table of 2 seats"):
        table_png(view, TableLabels(seats=(SeatLabel("a"), SeatLabel("b"), SeatLabel("c"))))
    with pytest.raises(ValueError, match="isn't over"):
        showdown_png(view, TableLabels())


def _colours(data: bytes) -> set[tuple[int, int, int]]:
    colours = set()
    for _, colour in _image(data).convert("RGB").getcolors(maxcolors=1 << 16) or []:
        assert isinstance(colour, tuple)
        colours.add((colour[0], colour[1], colour[2]))
    return colours


def test_four_colour_deck_paints_diamonds_blue_and_clubs_green() -> None:
    """Issue 3, picture 4: spades black, hearts red, diamonds blue, clubs green."""
    hand = stud({0: "2d3c4h", 1: "5s6s7s"}, stacks=[100, 100])
    mine = PrivateHand.for_seat(hand, 0)
    four = _colours(private_hand_png(mine, four_colour=True))
    two = _colours(private_hand_png(mine))
    assert {theme.SUIT_BLUE, theme.SUIT_GREEN, theme.SUIT_RED} <= four
    assert theme.SUIT_BLUE not in two and theme.SUIT_GREEN not in two
    view = PublicTable.from_hand(community_card_hand())
    assert table_png(view, TableLabels(four_colour=True)) != table_png(view, TableLabels())


def test_private_picture_marks_exactly_the_down_cards() -> None:
    """Issue 3, picture 3: the down cards carry the "hidden" tab, the up cards don't."""
    hand = stud({0: "AsKd9c8c7c6cQh", 1: "2h3h4h5h6h7h8h"}, stacks=[1000, 1000])
    while hand.street < 7 and hand.actor is not None:
        legal = hand.legal()
        hand.apply("bring_in" if legal.bring_in is not None else "call" if legal.call else "check")
    mine = PrivateHand.for_seat(hand, 0)
    assert len(mine.cards) == 7
    image = _image(private_hand_png(mine)).convert("RGB")
    size = PRIVATE_CARD
    tab_y = private_picture.TITLE_HEIGHT + private_picture.LIFT + size.height + 6 + 3
    for index, item in enumerate(mine.cards):
        x = private_picture.MARGIN + index * (size.width + private_picture.GAP) + 10
        has_tab = image.getpixel((x, tab_y)) == theme.BACK
        assert has_tab == (not item.face_up), index


def test_hands_are_named_in_the_pictures_language() -> None:
    """English is the engine's own wording; Russian names the same hand."""
    rng = random.Random(2)
    for _ in range(300):
        cards = _deck(rng)[: rng.randint(1, 7)]
        english = describe(cards, hands("en"))
        if len(cards) >= 5:
            assert english == evaluate(cards).describe()
        else:
            assert english == STUD_HIGH.board_rank(cards).holding
        assert describe(cards, hands("ru"))
    assert describe(parse_cards("9d9s9c"), hands("ru")) == "тройка девяток"
    assert describe(parse_cards("KsKdKhQsQd8c2h"), hands("ru")) == "фулл-хаус: короли и дамы"
    assert describe(parse_cards("5s4d3c2hAd"), hands("ru")) == "стрит до пятёрки"
    assert describe([], hands("ru")) is None
    hand = stud({0: "9d9s9c", 1: "2h5d7s"}, stacks=[100, 100], dealer=1)
    mine = PrivateHand.for_seat(hand, 0)
    assert private_hand_png(mine, words=words("ru")) != private_hand_png(mine)


def test_preview_writes_every_picture_of_one_hand(tmp_path: Path) -> None:
    """``python -m render.preview OUTDIR``: each street's table, the showdown, each player's own."""
    from render.preview import main

    main([str(tmp_path), "--seed", "4", "--players", "3"])
    written = sorted(path.name for path in tmp_path.iterdir())
    assert "table_street3.png" in written and "showdown.png" in written
    assert [name for name in written if name.startswith("private_seat")] == [
        "private_seat1.png",
        "private_seat2.png",
        "private_seat3.png",
    ]
    for name in written:
        assert _image((tmp_path / name).read_bytes()).format == "PNG"


def test_a_seat_not_dealt_in_says_whether_he_sits_out() -> None:
    hand = stud({0: "AsKdQc", 2: "2h3h4h"}, stacks=[100, 0, 100], dealer=2)
    view = PublicTable.from_hand(hand)
    away = TableLabels(seats=(SeatLabel("a"), SeatLabel("b", sitting_out=True, chips=80)))
    waiting = TableLabels(seats=(SeatLabel("a"), SeatLabel("b", chips=80)))
    empty = TableLabels(seats=(SeatLabel("a"), None))
    pictures = {table_png(view, labels) for labels in (away, waiting, empty)}
    assert len(pictures) == 3


def test_four_up_cards_of_a_kind_are_named() -> None:
    """RULES 4.1: quads showing on the board (a board category past the tuple of old)."""
    assert describe(parse_cards("9s9h9d9c"), hands("en")) == "four of a kind, Nines"
