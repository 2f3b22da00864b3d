"""The table picture and the showdown picture, drawn from a ``PublicTable`` only.

The table is an oval of felt with up to eight seat panels around it, clockwise from the top left.
A panel holds the player's name and stack, a status line (his clock, all-in, folded, sitting out;
at showdown his hand's description) and his cards: down cards as backs, up cards face up, in the
order they were dealt, and his chips in front for this street. The middle holds the pot, side
pots, community card and the last action; the street and stakes sit in the top left corner.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache
from typing import Literal

from PIL import Image, ImageDraw

from engine.odds import Chances
from engine.public import PotResult, PrivateHand, PublicSeat, PublicTable, ShownCards
from engine.stakes import Stakes
from render import cards, png, theme
from render.labels import SeatLabel, TableLabels
from render.text import clean, draw_text, font
from words.hands import describe_shown, describe_shown_low
from words.pictures import Words

WIDTH = 680
HEIGHT = 620
BOX_WIDTH = 196
BOX_HEIGHT = 124
PAD = 10
NAME_Y = 16  # row centres, from the panel's top
STATUS_Y = 36
CARD_TOP = 50
BUTTON = 20
SHOWN_LIFT = 7
BACK_STEP = 12  # a face-down card only needs its edge to show
UP_STEP = cards.TABLE_CARD.index_width + 2
# The middle of the felt, clear of every panel.
MIDDLE_LEFT = 236
MIDDLE_RIGHT = WIDTH - 236
MIDDLE_TOP = 166
MIDDLE_BOTTOM = HEIGHT - 166

PanelStyle = Literal["normal", "actor", "dim", "winner"]


@dataclass(frozen=True, slots=True)
class Slot:
    """Where a seat's panel goes: its centre."""

    x: int
    y: int

    @property
    def box(self) -> tuple[int, int, int, int]:
        left = self.x - BOX_WIDTH // 2
        top = self.y - BOX_HEIGHT // 2
        return left, top, left + BOX_WIDTH, top + BOX_HEIGHT


def _top(x: int) -> Slot:
    return Slot(x, 8 + BOX_HEIGHT // 2)


def _bottom(x: int) -> Slot:
    return Slot(x, HEIGHT - 8 - BOX_HEIGHT // 2)


def _side(left_side: bool, y: int) -> Slot:
    return Slot(8 + BOX_WIDTH // 2 if left_side else WIDTH - 8 - BOX_WIDTH // 2, y)


_MID_X, _MID_Y, _SPREAD = WIDTH // 2, HEIGHT // 2, 112
_TOP_LEFT, _TOP_MIDDLE, _TOP_RIGHT = _top(_MID_X - _SPREAD), _top(_MID_X), _top(_MID_X + _SPREAD)
_BOTTOM_LEFT, _BOTTOM_MIDDLE = _bottom(_MID_X - _SPREAD), _bottom(_MID_X)
_BOTTOM_RIGHT = _bottom(_MID_X + _SPREAD)
_LEFT_UPPER, _LEFT_MIDDLE = _side(True, _MID_Y - 88), _side(True, _MID_Y)
_LEFT_LOWER = _side(True, _MID_Y + 88)
_RIGHT_UPPER, _RIGHT_MIDDLE = _side(False, _MID_Y - 88), _side(False, _MID_Y)
_RIGHT_LOWER = _side(False, _MID_Y + 88)

# Seat i of an n-seat table goes to LAYOUTS[n][i]: clockwise, as cards are dealt (RULES 1.4).
LAYOUTS: dict[int, tuple[Slot, ...]] = {
    2: (_TOP_MIDDLE, _BOTTOM_MIDDLE),
    3: (_TOP_MIDDLE, _BOTTOM_RIGHT, _BOTTOM_LEFT),
    4: (_TOP_MIDDLE, _RIGHT_MIDDLE, _BOTTOM_MIDDLE, _LEFT_MIDDLE),
    5: (_TOP_LEFT, _TOP_RIGHT, _RIGHT_MIDDLE, _BOTTOM_MIDDLE, _LEFT_MIDDLE),
    6: (_TOP_LEFT, _TOP_RIGHT, _RIGHT_MIDDLE, _BOTTOM_RIGHT, _BOTTOM_LEFT, _LEFT_MIDDLE),
    7: (
        *(_TOP_LEFT, _TOP_RIGHT, _RIGHT_UPPER, _RIGHT_LOWER),
        *(_BOTTOM_MIDDLE, _LEFT_LOWER, _LEFT_UPPER),
    ),
    8: (
        *(_TOP_LEFT, _TOP_RIGHT, _RIGHT_UPPER, _RIGHT_LOWER),
        *(_BOTTOM_RIGHT, _BOTTOM_LEFT, _LEFT_LOWER, _LEFT_UPPER),
    ),
}


@lru_cache(maxsize=1)
def _felt() -> Image.Image:
    """The empty table: background, wooden rail, felt. Drawn once; every picture copies it."""
    s = cards.SUPERSAMPLE
    image = Image.new("RGB", (WIDTH * s, HEIGHT * s), theme.BACKGROUND)
    draw = ImageDraw.Draw(image)

    def inset(box: tuple[int, int, int, int], by: int) -> tuple[int, int, int, int]:
        return box[0] + by * s, box[1] + by * s, box[2] - by * s, box[3] - by * s

    rail = (46 * s, 66 * s, (WIDTH - 46) * s, (HEIGHT - 66) * s)
    draw.ellipse(rail, fill=theme.RAIL, outline=theme.RAIL_LIGHT, width=2 * s)
    draw.ellipse(inset(rail, 16), fill=theme.FELT)
    draw.ellipse(inset(rail, 38), outline=theme.FELT_LINE, width=2 * s)
    return image.resize((WIDTH, HEIGHT), Image.Resampling.LANCZOS)


@lru_cache(maxsize=4)
def _panel(style: PanelStyle) -> Image.Image:
    s = cards.SUPERSAMPLE
    image = Image.new("RGBA", (BOX_WIDTH * s, BOX_HEIGHT * s), (0, 0, 0, 0))
    fill = theme.PANEL_DIM if style == "dim" else theme.PANEL
    gold = style in ("actor", "winner")
    ImageDraw.Draw(image).rounded_rectangle(
        (0, 0, BOX_WIDTH * s - 1, BOX_HEIGHT * s - 1),
        radius=12 * s,
        fill=fill,
        outline=theme.GOLD if gold else theme.PANEL_EDGE,
        width=(3 if gold else 2) * s,
    )
    return image.resize((BOX_WIDTH, BOX_HEIGHT), Image.Resampling.LANCZOS)


@lru_cache(maxsize=4 * 16)
def _panel_on_felt(style: PanelStyle, left: int, top: int) -> Image.Image:
    """The panel as it looks on the felt at that place: pasted without blending its edges
    again for every picture (a seat's place is always bare felt before its panel goes on)."""
    panel = _panel(style)
    spot = _felt().crop((left, top, left + panel.width, top + panel.height))
    _paste(spot, panel, 0, 0)
    return spot


@lru_cache(maxsize=1)
def felt_background() -> png.Background:
    """The empty table, mapped to the palette once for every picture drawn on it."""
    return png.Background.of(_felt())


@lru_cache(maxsize=len(LAYOUTS))
def drawn_boxes(seat_count: int) -> tuple[png.Box, ...]:
    """Where a picture of a ``seat_count``-seat table may differ from the empty felt: the
    seats' panels, the two top corners and the middle column at its full height
    (``table_boxes`` narrows it to the picture's own middle)."""
    corner_right = _TOP_LEFT.box[0] - 2  # its text is at most this wide
    game_left = _TOP_RIGHT.box[2] + 2
    boxes = [
        (0, 0, corner_right, 100),
        (game_left, 0, WIDTH, 130),
        # The middle's lines and pill are centred, at most its width; their height varies.
        (MIDDLE_LEFT - 2, 0, MIDDLE_RIGHT + 2, HEIGHT),
    ]
    boxes += [slot.box for slot in LAYOUTS[seat_count]]
    return tuple(boxes)


def _paste(canvas: Image.Image, sprite: Image.Image, x: int, y: int) -> None:
    canvas.paste(sprite, (x, y), sprite)


def draw_table(
    view: PublicTable, labels: TableLabels, own: PrivateHand | None = None
) -> Image.Image:
    """The whole picture, as an RGB image. ``own``: the one viewer's own cards, face up in his
    panel (a replay he asked for, for his eyes only; never a channel's picture)."""
    layout = LAYOUTS.get(len(view.seats))
    if layout is None:
        raise ValueError(f"a table has 2 to 8 seats, not {len(view.seats)}")
    if len(labels.seats) > len(view.seats):
        raise ValueError(f"{len(labels.seats)} seat labels for a table of {len(view.seats)} seats")
    text = labels.words
    canvas = _felt().copy()
    for seat, slot in zip(view.seats, layout, strict=True):
        _draw_seat(canvas, seat, slot, labels.seat(seat.seat), view, labels, text)
        if own is not None and own.seat == seat.seat and seat.in_hand and seat.shown is None:
            left, top, _, _ = slot.box
            _draw_own_row(canvas, own, left + PAD - 4, top + CARD_TOP, labels.four_colour)
        chances = labels.odds.of(seat.seat) if labels.odds is not None else None
        if chances is not None:
            _draw_odds_tag(canvas, _odds_figures(chances, view), slot.box[0], slot.box[1])
    for corner in _corners(view, labels, text):
        canvas.paste(corner.image, corner.box[:2])
    _draw_middle(canvas, view, labels, text)
    return canvas


def _seat_name(seat: PublicSeat, label: SeatLabel | None, text: Words) -> str:
    if label is not None and clean(label.name):
        return label.name
    return text.seat.format(n=seat.seat + 1)


def _draw_seat(
    canvas: Image.Image,
    seat: PublicSeat,
    slot: Slot,
    label: SeatLabel | None,
    view: PublicTable,
    labels: TableLabels,
    text: Words,
) -> None:
    four_colour = labels.four_colour
    left, top, right, _ = slot.box
    if not seat.dealt_in and label is None:
        canvas.paste(_panel_on_felt("dim", left, top), (left, top))
        draw_text(canvas, (slot.x, slot.y), text.empty_seat, 15, theme.MUTED, anchor="mm")
        return
    sitting_out = not seat.dealt_in  # seated, labelled, but not in this hand
    won = view.is_over and seat.won > 0
    style: PanelStyle = "normal"
    if sitting_out or seat.folded or seat.mucked:
        style = "dim"
    elif seat.is_actor:
        style = "actor"
    elif won:
        style = "winner"
    canvas.paste(_panel_on_felt(style, left, top), (left, top))

    # Top row: name on the left; on the right his stack, ALL-IN, or at the end what he won.
    corner, corner_colour = _corner(seat, label, won, text) if labels.figures else ("", theme.GOLD)
    corner_width = draw_text(
        canvas, (right - PAD, top + NAME_Y), corner, 16, corner_colour, bold=True, anchor="rm"
    )
    name_x = left + PAD
    if view.dealer == seat.seat:
        # The dealer button sits in his panel, before his name: on the felt, between panels,
        # it could be taken for a neighbour's.
        _paste(canvas, cards.disc(BUTTON, theme.CARD, theme.SUIT_BLACK, "D"), name_x - 2, top + 5)
        name_x += BUTTON + 3
    draw_text(
        canvas,
        (name_x, top + NAME_Y),
        _seat_name(seat, label, text),
        17,
        theme.MUTED if style == "dim" else theme.TEXT,
        bold=True,
        max_width=right - PAD - corner_width - 10 - name_x,
    )

    status = (left + PAD, top + STATUS_Y)
    if sitting_out:
        away = label is not None and label.sitting_out
        draw_text(canvas, status, text.sitting_out if away else text.next_hand, 14, theme.MUTED)
    elif seat.folded:
        draw_text(canvas, status, text.folded, 14, theme.MUTED)
    elif seat.mucked:
        # RULES 5.6: what the table saw of him, and no more.
        draw_text(canvas, status, text.mucked, 14, theme.MUTED)
        _draw_row(canvas, seat, left + PAD - 4, top + CARD_TOP, four_colour)
    elif seat.shown is not None:
        _draw_shown(canvas, seat, seat.shown, view, left, top, won, four_colour, text)
    else:
        if seat.is_actor and label is not None and label.seconds_left is not None:
            colour = theme.RED if label.on_time_bank else theme.GOLD
            _paste(canvas, cards.clock(15, colour), status[0], status[1] - 8)
            template = text.time_bank if label.on_time_bank else text.seconds
            seconds = template.format(n=max(0, label.seconds_left))
            draw_text(canvas, (status[0] + 20, status[1]), seconds, 14, colour, bold=True)
        _draw_row(canvas, seat, left + PAD - 4, top + CARD_TOP, four_colour)
    if seat.bet:
        # His chips in front, inside his own panel: on a small picture, chips on the felt
        # between eight seats can't be told apart.
        _draw_bet(canvas, seat.bet, right - PAD, top + STATUS_Y, text)


def _corner(
    seat: PublicSeat, label: SeatLabel | None, won: bool, text: Words
) -> tuple[str, theme.RGB]:
    if won:
        return "+" + text.chips(seat.won), theme.GREEN
    if seat.all_in:
        return text.all_in, theme.RED
    if seat.dealt_in:
        return text.chips(seat.stack), theme.GOLD
    chips = label.chips if label is not None and label.chips is not None else 0
    return text.chips(chips), theme.MUTED


def _draw_row(canvas: Image.Image, seat: PublicSeat, x: int, y: int, four_colour: bool) -> None:
    """Cards as dealt in stud: two down, the up cards, then the last down card (RULES 2)."""
    first_down = min(seat.down_count, 2)
    backs = cards.back(cards.TABLE_CARD)
    for _ in range(first_down):
        _paste(canvas, backs, x, y)
        x += BACK_STEP
    for card in seat.up_cards:
        _paste(canvas, cards.face(card, cards.TABLE_CARD, four_colour), x, y)
        x += UP_STEP
    for _ in range(seat.down_count - first_down):
        _paste(canvas, backs, x, y)
        x += BACK_STEP


def _draw_own_row(
    canvas: Image.Image, own: PrivateHand, x: int, y: int, four_colour: bool
) -> None:
    """His own cards in the order dealt, all face up over what the table saw; a bar in the
    colour of a card's back marks the ones dealt face down."""
    # Opaque faces, as wide a row as a shown hand's: they cover the backs drawn there first.
    size = cards.SHOWN_CARD
    draw = ImageDraw.Draw(canvas)
    for item in own.cards:
        _paste(canvas, cards.face(item.card, size, four_colour), x, y)
        if not item.face_up:
            bottom = y + size.height
            bar = (x + 2, bottom - 10, x + size.index_width - 1, bottom - 3)
            draw.rectangle(bar, fill=theme.BACK)
        x += size.index_width


def _draw_shown(
    canvas: Image.Image,
    seat: PublicSeat,
    shown: ShownCards,
    view: PublicTable,
    left: int,
    top: int,
    won: bool,
    four_colour: bool,
    text: Words,
) -> None:
    """A hand at showdown: every card face up; the cards that play (for the high, the low or
    both) lifted, the others dimmed."""
    # A high-low hand's low goes on a tag of its own: one line can't hold both halves.
    split = view.high_game and view.low_game
    low_game = view.low_game and not split
    description = describe_shown(
        shown, text.hands, high_game=view.high_game, low_game=low_game, short=True
    )
    draw_text(
        canvas,
        (left + PAD, top + STATUS_Y),
        description,
        14,
        theme.GOLD if won else theme.TEXT,
        max_width=BOX_WIDTH - 2 * PAD,
        squeeze=True,
    )
    size = cards.SHOWN_CARD
    x = left + PAD - 4
    best = set(shown.best_five) | set(shown.low_five)
    for card in shown.cards:
        plays = card in best
        face = cards.face(card, size, four_colour, dim=not plays)
        _paste(canvas, face, x, top + CARD_TOP - (SHOWN_LIFT if plays else 0) + 2)
        x += size.index_width
    if split:
        won_low = any(seat.seat in result.low_winners for result in view.results)
        _draw_low_tag(canvas, describe_shown_low(shown, text.hands, short=True), left, top, won_low)


def _draw_low_tag(canvas: Image.Image, low: str, left: int, top: int, won: bool) -> None:
    """A tag in the panel's bottom right corner, over the cards' lower half, naming the low."""
    right, middle = left + BOX_WIDTH - 6, top + BOX_HEIGHT - 13
    width = round(font(13, bold=True).getlength(low))
    ImageDraw.Draw(canvas).rounded_rectangle(
        (right - width - 12, middle - 10, right, middle + 10), radius=8, fill=theme.PILL
    )
    colour = theme.GOLD if won else theme.TEXT
    draw_text(canvas, (right - 6, middle), low, 13, colour, bold=True, anchor="rm")


def _odds_figures(chances: Chances, view: PublicTable) -> str:
    """ "62%"; in Stud Hi-Lo the high half, the low half and the scoop: "60·20·10%"."""
    if view.high_game and view.low_game:
        figures = (chances.high, chances.low, chances.scoop)
        return "·".join(str(round(100 * share)) for share in figures) + "%"
    return f"{round(100 * chances.win)}%"


def _draw_odds_tag(canvas: Image.Image, figures: str, left: int, top: int) -> None:
    """A hand's all-in chances on a tag in the panel's bottom left corner (the low's tag, in
    Stud Hi-Lo, takes the right)."""
    x, middle = left + 6, top + BOX_HEIGHT - 13
    width = round(font(13, bold=True).getlength(figures))
    ImageDraw.Draw(canvas).rounded_rectangle(
        (x, middle - 10, x + width + 12, middle + 10), radius=8, fill=theme.PILL
    )
    draw_text(canvas, (x + 6, middle), figures, 13, theme.TEXT, bold=True, anchor="lm")


def _draw_bet(canvas: Image.Image, amount: int, right: int, y: int, text: Words) -> None:
    """A chip and the amount, ending at ``right``."""
    chip = cards.disc(16, theme.RED, theme.CARD)
    label = text.chips(amount)
    width = draw_text(canvas, (right, y), label, 15, theme.TEXT, bold=True, anchor="rm")
    _paste(canvas, chip, right - width - 5 - chip.width, y - chip.height // 2)


def _draw_corner(canvas: Image.Image, street_number: int, stakes: Stakes, text: Words) -> None:
    """The street and the stakes, in the top left corner, clear of every seat."""
    x, width = 10, _TOP_LEFT.box[0] - 16
    street = text.street_name(street_number)
    draw_text(canvas, (x, 20), street, 16, theme.TEXT, bold=True, max_width=width)
    limits = f"{text.chips(stakes.small_bet)}/{text.chips(stakes.big_bet)}"
    draw_text(canvas, (x, 42), limits, 15, theme.GOLD, bold=True, max_width=width)
    ante = text.ante.format(n=text.chips(stakes.ante))
    draw_text(canvas, (x, 61), ante, 13, theme.MUTED, max_width=width)
    bring_in = text.bring_in.format(n=text.chips(stakes.bring_in))
    draw_text(canvas, (x, 78), bring_in, 13, theme.MUTED, max_width=width)


def _draw_game(canvas: Image.Image, game: str, next_game: str) -> None:
    """The game, and on a mixed table what comes next, in the top right corner."""
    x, width = WIDTH - 10, WIDTH - _TOP_RIGHT.box[2] - 16
    y = 20
    for line in _wrap(game, 16, width, 2):
        draw_text(
            canvas,
            (x, y),
            line,
            16,
            theme.TEXT,
            bold=True,
            anchor="rm",
            max_width=width,
            squeeze=True,
        )
        y += 20
    for line in _wrap(next_game, 13, width, 3):
        draw_text(
            canvas, (x, y + 2), line, 13, theme.GOLD, anchor="rm", max_width=width, squeeze=True
        )
        y += 17


@dataclass(frozen=True, slots=True)
class _Line:
    text: str
    size: int
    colour: theme.RGB
    bold: bool = False

    @property
    def height(self) -> int:
        return self.size + 6


def _middle_lines(view: PublicTable, labels: TableLabels, text: Words) -> list[_Line]:
    if view.is_over and view.results:
        return _result_lines(view, labels, text)
    if not labels.figures:
        return []
    lines = [_Line(f"{text.pot} {text.chips(view.pot)}", 24, theme.GOLD, bold=True)]
    if len(view.pots) > 1:
        main, *sides = view.pots
        lines.append(_Line(f"{text.main_pot}: {text.chips(main.amount)}", 14, theme.TEXT))
        amounts = " · ".join(text.chips(pot.amount) for pot in sides)
        name = text.side_pot if len(sides) == 1 else text.side_pots
        lines.append(_Line(f"{name}: {amounts}", 14, theme.TEXT))
    return lines


def _result_lines(view: PublicTable, labels: TableLabels, text: Words) -> list[_Line]:
    """Who won what: a pot's name and size, then its winners (a split pot's share after)."""
    lines: list[_Line] = []
    if view.is_showdown:
        lines.append(_Line(text.showdown, 17, theme.TEXT, bold=True))
    if labels.odds is not None:
        # The key to each hand's tag: its chances when the betting stopped.
        heading = text.odds if labels.odds.exact else text.odds_estimate
        lines.append(_Line(heading, 13, theme.TEXT, bold=True))
        if view.high_game and view.low_game:
            lines.append(_Line(text.odds_halves, 12, theme.MUTED))
    names = {seat.seat: _seat_name(seat, labels.seat(seat.seat), text) for seat in view.seats}
    compact = len(view.results) > 3
    for result in view.results:
        pot = f"{_pot_name(result, len(view.results), text)} {text.chips(result.amount)}"
        if view.high_game and view.low_game and result.high_winners:
            winners = _halves(result, names, text)
        else:
            winners = _winners(result.winners, result.shares, names, text)
        if compact:
            lines.append(_Line(f"{pot}: {winners}", 13, theme.GOLD, bold=True))
        else:
            lines.append(_Line(pot, 13, theme.MUTED))
            lines.append(_Line(winners, 15, theme.GOLD, bold=True))
    return lines


def _winners(
    seats: tuple[int, ...], shares: tuple[int, ...], names: dict[int, str], text: Words
) -> str:
    """Who won a pot or half of one; a split share after them."""
    winners = ", ".join(clean(names[seat]) for seat in seats)
    if len(seats) > 1:
        winners += " · " + text.each.format(n=text.chips(min(shares)))
    return winners


def _halves(result: PotResult, names: dict[int, str], text: Words) -> str:
    """A high-low pot: who scoops it, or who won each half (the whole to the high, no low)."""
    if result.scoop:
        return text.scoops.format(name=clean(names[result.winners[0]]))
    high = _winners(result.high_winners, result.high_shares, names, text)
    if not result.low_winners:
        return f"{text.high}: {high} · {text.hands.no_low}"
    low = _winners(result.low_winners, result.low_shares, names, text)
    high_half, low_half = text.chips(sum(result.high_shares)), text.chips(sum(result.low_shares))
    return f"{text.high} {high_half}: {high} · {text.low} {low_half}: {low}"


def _pot_name(result: PotResult, count: int, text: Words) -> str:
    if count == 1:
        return text.pot
    if result.index == 0:
        return text.main_pot
    return text.side_pot if count == 2 else f"{text.side_pot} {result.index}"


@dataclass(frozen=True, slots=True)
class _Middle:
    """What the middle holds and where: its lines, the last action's lines, and its top."""

    lines: list[_Line]
    action: tuple[str, ...]
    top: int
    height: int


def _middle(view: PublicTable, labels: TableLabels, text: Words) -> _Middle:
    width = MIDDLE_RIGHT - MIDDLE_LEFT
    lines = _middle_lines(view, labels, text)
    action = _wrap(labels.last_action, 15, width - 24, 2)
    height = sum(line.height for line in lines)
    if view.community is not None:
        height += 8 + 18 + cards.TABLE_CARD.height
    if action:
        height += 10 + 20 * len(action) + 8
    return _Middle(lines, action, (MIDDLE_TOP + MIDDLE_BOTTOM) // 2 - height // 2, height)


# Text is drawn centred on its line, so a glyph may reach a little past the line's box.
_MIDDLE_MARGIN = 12


def table_boxes(view: PublicTable, labels: TableLabels) -> tuple[png.Box, ...]:
    """Where this picture differs from the empty felt: the seats' panels, the two top corners
    and the middle, as tall as its lines (tests check that nothing is drawn outside them). Only
    these are mapped to the palette, and the rows outside them are the felt's own."""
    corner, game, column, *seats = drawn_boxes(len(view.seats))
    middle = _middle(view, labels, labels.words)
    top = max(0, middle.top - _MIDDLE_MARGIN)
    bottom = min(HEIGHT, middle.top + middle.height + _MIDDLE_MARGIN)
    return (corner, game, (column[0], top, column[2], bottom), *seats)


def table_pieces(view: PublicTable, labels: TableLabels) -> tuple[png.Piece, ...]:
    """The two top corners, already mapped to the palette: a picture's boxes minus these are
    all that is left to map (the corners change with the street or the game only)."""
    return _corners(view, labels, labels.words)


def _corners(view: PublicTable, labels: TableLabels, text: Words) -> tuple[png.Piece, png.Piece]:
    corner, game, *_ = drawn_boxes(len(view.seats))
    return (
        _drawn_piece(corner, _draw_corner, view.street, view.stakes, text),
        _drawn_piece(game, _draw_game, labels.game, labels.next_game),
    )


# Corners differ by street, stakes, language and game: a few dozen in use (each ~50 KB).
@lru_cache(maxsize=128)
def _drawn_piece(box: png.Box, draw: Callable[..., None], *args: object) -> png.Piece:
    """What ``draw(canvas, *args)`` puts in ``box`` of the felt, and its palette mapping."""
    canvas = _felt().copy()
    draw(canvas, *args)
    return png.Piece.of(box, canvas.crop(box))


def _draw_middle(canvas: Image.Image, view: PublicTable, labels: TableLabels, text: Words) -> None:
    width = MIDDLE_RIGHT - MIDDLE_LEFT
    middle = _middle(view, labels, text)
    action = middle.action
    x = WIDTH // 2
    y = middle.top
    for line in middle.lines:
        draw_text(
            canvas,
            (x, y + line.height // 2),
            line.text,
            line.size,
            line.colour,
            bold=line.bold,
            anchor="mm",
            max_width=width,
            squeeze=True,
        )
        y += line.height
    if view.community is not None:
        y += 8
        draw_text(canvas, (x, y + 8), text.community, 13, theme.MUTED, anchor="mm")
        y += 18
        face = cards.face(view.community, cards.TABLE_CARD, labels.four_colour)
        _paste(canvas, face, x - face.width // 2, y)
        y += face.height
    if action:
        y += 10
        box_width = min(width, _widest(action, 15) + 24)
        ImageDraw.Draw(canvas).rounded_rectangle(
            (x - box_width // 2, y, x + box_width // 2, y + 20 * len(action) + 8),
            radius=10,
            fill=theme.PILL,
        )
        for index, part in enumerate(action):
            draw_text(
                canvas,
                (x, y + 14 + 20 * index),
                part,
                15,
                theme.TEXT,
                anchor="mm",
                max_width=width - 24,
                squeeze=True,
            )


@lru_cache(maxsize=4096)
def _widest(lines: tuple[str, ...], size: int) -> int:
    return max(round(font(size).getlength(line)) for line in lines)


@lru_cache(maxsize=4096)
def _wrap(raw: str, size: int, width: int, max_lines: int) -> tuple[str, ...]:
    """``raw`` on at most ``max_lines`` lines of about ``width`` pixels; the last line takes
    whatever is left (drawing squeezes or cuts it)."""
    left = clean(raw).split()
    face = font(size)
    lines: list[str] = []
    while left and len(lines) < max_lines:
        line = left.pop(0)
        while left and face.getlength(line + " " + left[0]) <= width:
            line += " " + left.pop(0)
        lines.append(line)
    if left:
        lines[-1] += " " + " ".join(left)
    return tuple(lines)
