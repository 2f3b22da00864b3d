"""Tables as the server sends them (docs/activity.md, "Views as JSON"), for the page to draw:
the fullest a phone must hold (seven players on seventh street, all still in; a full table of
eight on sixth), a finished hand with shown, mucked and all-in hands, and a table between
hands."""

from __future__ import annotations

from typing import Any

from tests.activity.browser.stand_in import User

STAKES = {"ante": 1, "bring_in": 3, "small_bet": 10, "big_bet": 20}
NAMES = ("Ann", "Boris", "Chidi", "Dana", "Eun-ji", "Farrukh", "Grace", "Hiro")
SEVEN = NAMES[:7]
USERS = tuple(
    User(user_id=str(900000000000000001 + i), name=name, code=f"code-{name.lower()}")
    for i, name in enumerate(NAMES)
)
SPECTATOR = User(user_id="900000000000000099", name="Watcher", code="code-watcher")
HAND_ID = "41"
DIGEST = "9f2c" * 16
# Every player's four up cards (seven players' seven cards each fit in a deck; eight don't).
UP = (
    ("Kd", "7c", "7h", "2s"),
    ("Ah", "Qc", "9d", "9s"),
    ("5d", "6d", "8d", "Jd"),
    ("Tc", "Ts", "4h", "4c"),  # Dana (seat 3), whose own down cards are As Ks and 3d
    ("Jh", "Jc", "3c", "8s"),
    ("2h", "5s", "6c", "Qs"),
    ("3h", "4s", "8h", "Kc"),
    ("Ac", "2d", "5h", "6s"),
)
DANA = 3


def _seat(seat: int, **changes: Any) -> dict[str, Any]:
    base: dict[str, Any] = {
        "seat": seat,
        "stack": 480 - 37 * seat,
        "bet": 0,
        "committed": 71,
        "up_cards": list(UP[seat]),
        "down_count": 3,
        "dealt_in": True,
        "folded": False,
        "all_in": False,
        "is_actor": False,
        "shown": None,
        "won": 0,
        "mucked": False,
    }
    base.update(changes)
    return base


def _public(
    seats: list[dict[str, Any]], pot: int, eligible: list[int], actor: int | None
) -> dict[str, Any]:
    """A PublicTable on seventh street, the hand over when nobody is to act."""
    return {
        "seats": seats,
        "stakes": STAKES,
        "dealer": 6,
        "street": 7,
        "pot": pot,
        "pots": [{"amount": pot, "eligible": eligible}],
        "community": None,
        "actor": actor,
        "is_over": actor is None,
        "results": [],
        "high_game": True,
        "low_game": False,
    }


def seventh_street(actor: int = DANA, seq: int = 17, players: int = 7) -> dict[str, Any]:
    """Seven players on seventh street, bets in front of three, ``actor`` to act; with eight,
    sixth street (eight players' seven cards are more than a deck)."""
    street = 7 if players < 8 else 6
    names = NAMES[:players]
    seats = [_seat(i, is_actor=i == actor, down_count=street - 4) for i in range(players)]
    seats[0]["bet"] = 20
    seats[1]["bet"] = 40
    seats[2]["bet"] = 40
    seats[5]["stack"] = 0
    seats[5]["all_in"] = True
    pot = sum(seat["committed"] for seat in seats) + 100
    public = _public(seats, pot, list(range(players)), actor)
    public["street"] = street
    return _table(
        "stud",
        [],
        None,
        {
            "hand_id": HAND_ID,
            "seq": seq,
            "game": "stud",
            "street": street,
            "public": public,
            "names": list(names),
            "users": [user.user_id for user in USERS[:players]],
            "log": ["Ann bets 20", "Boris raises to 40", "Chidi calls 40"],
            "actor": names[actor],
            "deadline_in": 24.0,
            "on_time_bank": False,
            "buttons": [
                {"action": "fold", "amount": None},
                {"action": "call", "amount": 40},
                {"action": "raise", "amount": 60},
            ],
            "labels": {"seats": [{"name": name, "sitting_out": False} for name in names]},
            "commitment": DIGEST,
        },
    )


def danas_cards(four_colour: bool = False, street: int = 7) -> dict[str, Any]:
    downs = ("As", "Ks", "3d")
    order = [(downs[0], False), (downs[1], False)]
    order += [(card, True) for card in UP[DANA]]
    if street == 7:
        order.append((downs[2], False))
    return {
        "type": "cards",
        "view": {
            "user_id": USERS[DANA].user_id,
            "hand_id": HAND_ID,
            "game": "stud",
            "cards": {
                "seat": DANA,
                "cards": [{"card": card, "face_up": up} for card, up in order],
                "community": None,
                "best_five": ["As", "Ks", "Jd", "Tc", "8d"],
                "description": "Ace high",
                "folded": False,
            },
            "name": "Dana",
            "lang": "en",
            "four_colour": four_colour,
        },
    }


def showdown() -> dict[str, Any]:
    """The hand over: Ann shows and wins, Grace shows and loses, Boris mucks, the rest folded;
    Farrukh was all in and the chances were worked out when the betting stopped."""
    seats = [_seat(i, folded=i in (2, 3, 4)) for i in range(7)]
    seats[0].update(
        shown={
            "cards": ["7s", "7d", "Kd", "7c", "7h", "2s", "Ad"],
            "best_five": ["7s", "7d", "7c", "7h", "Kd"],
            "description": "Four of a kind, Sevens",
        },
        won=412,
        stack=892,
    )
    seats[6].update(
        shown={
            "cards": ["Kh", "Ks", "3h", "4s", "8h", "Kc", "2c"],
            "best_five": ["Kh", "Ks", "Kc", "8h", "4s"],
            "description": "Three of a kind, Kings",
        }
    )
    seats[1]["mucked"] = True
    seats[5].update(stack=0, all_in=True)
    public = _public(seats, 412, [0, 1, 5, 6], None)
    return {
        "type": "results",
        "view": {
            "hand_id": HAND_ID,
            "lang": "en",
            "game": "stud",
            "stakes": STAKES,
            "street": 7,
            "public": public,
            "labels": {"seats": [{"name": name, "sitting_out": False} for name in SEVEN]},
            "lines": [
                "All in on 6th street, the chances were: Ann 71%, Boris 9%, Farrukh 8%, Grace 12%",
                "Ann shows Four of a kind, Sevens",
                "Grace shows Three of a kind, Kings",
                "Ann wins the pot of 412",
            ],
            "nets": [[name, 341 if name == "Ann" else -71] for name in SEVEN],
            "next_hand_at_in": 9.0,
            "next_game": None,
            "commitment": DIGEST,
            "odds": {
                "street": 6,
                "seats": [
                    {"seat": 0, "win": 0.71, "high": 0.71, "low": 0.0, "scoop": 0.71},
                    {"seat": 1, "win": 0.09, "high": 0.09, "low": 0.0, "scoop": 0.09},
                    {"seat": 5, "win": 0.08, "high": 0.08, "low": 0.0, "scoop": 0.08},
                    {"seat": 6, "win": 0.12, "high": 0.12, "low": 0.0, "scoop": 0.12},
                ],
                "exact": True,
                "deals": 0,
            },
        },
    }


def between_hands(seated: tuple[User, ...], next_in: float | None = 12.0) -> dict[str, Any]:
    """An idle table with ``seated`` waiting, the next hand ``next_in`` seconds away."""
    waiting = [
        {
            "position": i,
            "name": user.name,
            "stack": 500,
            "sitting_out": i == 1,
            "leaving": False,
            "user_id": user.user_id,
        }
        for i, user in enumerate(seated)
    ]
    return _table("razz", waiting, next_in, None)


def _table(
    game: str, waiting: list[dict[str, Any]], next_in: float | None, hand: dict[str, Any] | None
) -> dict[str, Any]:
    return {
        "type": "table",
        "view": {
            "channel_id": "700000000000000001",
            "lang": "en",
            "stakes": STAKES,
            "game": game,
            "next_game": None,
            "seats": waiting,
            "next_hand_at_in": next_in,
            "hand": hand,
            "level": None,
        },
    }
