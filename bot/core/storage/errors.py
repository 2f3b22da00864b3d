"""Typed storage errors.

``str(error)`` is an English sentence a player can read. For other languages each class has a
stable ``code`` and ``params`` (the values the sentence is built from), so the bot can format
its own translation: ``translations[error.code].format(**error.params)``.

Whenever one of these is raised, the operation changed nothing (its transaction rolled back).
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any, ClassVar


def chips(amount: int) -> str:
    """``1000`` -> ``"1,000"``: amounts in messages use thousands separators."""
    return f"{amount:,}"


class StoreError(Exception):
    """Base of the errors a player can cause; nothing was changed."""

    code: ClassVar[str] = "store_error"
    template: ClassVar[str] = "Something went wrong with your chips; nothing was changed."

    def __init__(self, **params: Any) -> None:
        self.params: dict[str, Any] = params
        super().__init__(self._message())

    def _message(self) -> str:
        shown = {
            key: chips(value) if isinstance(value, int) and not isinstance(value, bool) else value
            for key, value in self.params.items()
        }
        return self.template.format(**shown)


class InvalidAmount(StoreError):
    code = "invalid_amount"
    template = "The amount must be a whole number of chips from 1 to {maximum}, not {amount}."

    def __init__(self, amount: object, maximum: int) -> None:
        super().__init__(amount=amount, maximum=maximum)


class NotEnoughChips(StoreError):
    code = "not_enough_chips"
    template = "You don't have enough chips: {needed} needed, {available} in your wallet."

    def __init__(self, needed: int, available: int) -> None:
        super().__init__(needed=needed, available=available)


class HouseEmpty(StoreError):
    """The house wallet can't stake a computer player's buy-in."""

    code = "house_empty"
    template = (
        "The house has {available} chips, not the {needed} a computer player needs to sit:"
        " an admin can fund it with /chips house fund."
    )

    def __init__(self, needed: int, available: int) -> None:
        super().__init__(needed=needed, available=available)


class HouseCannotCover(StoreError):
    """The house wallet can't pay every computer player's tournament buy-in."""

    code = "house_cannot_cover"
    template = (
        "The house has {available} chips, not the {needed} its computer players' buy-ins need:"
        " an admin can fund it with /chips house fund."
    )

    def __init__(self, needed: int, available: int) -> None:
        super().__init__(needed=needed, available=available)


class DailyNotReady(StoreError):
    """``retry_at`` is when the next daily grant can be claimed (timezone-aware UTC);
    ``streak`` the days in a row he has taken it, which a claim by ``streak_until`` continues."""

    code = "daily_not_ready"
    template = "You already took your daily chips: come back in {wait}."

    def __init__(
        self,
        retry_at: datetime,
        now: datetime,
        streak: int = 0,
        streak_until: datetime | None = None,
    ) -> None:
        self.retry_at = retry_at
        self.streak = streak
        self.streak_until = streak_until
        super().__init__(wait=_duration(retry_at - now), retry_at=retry_at)


class NothingToTake(StoreError):
    """``store.wallets.take`` found an empty wallet (what a player has at tables is never taken)."""

    code = "nothing_to_take"
    template = "That wallet has no chips to take; chips at tables are never taken."

    def __init__(self, user_id: int) -> None:
        super().__init__(user_id=user_id)


class NoTable(StoreError):
    code = "no_table"
    template = "There is no table in this channel."

    def __init__(self, channel_id: int) -> None:
        super().__init__(channel_id=channel_id)


class TableExists(StoreError):
    code = "table_exists"
    template = "This channel already has a table."

    def __init__(self, channel_id: int) -> None:
        super().__init__(channel_id=channel_id)


class InvalidTableConfig(StoreError):
    code = "invalid_table_config"
    template = "That table can't be opened: {problem}."

    def __init__(self, problem: str) -> None:
        super().__init__(problem=problem)


class TableFull(StoreError):
    code = "table_full"
    template = "This table is full: all {seats} seats are taken."

    def __init__(self, seats: int) -> None:
        super().__init__(seats=seats)


class AlreadySeated(StoreError):
    code = "already_seated"
    template = "You already have a seat at this table."

    def __init__(self, channel_id: int, user_id: int) -> None:
        super().__init__(channel_id=channel_id, user_id=user_id)


class NotSeated(StoreError):
    code = "not_seated"
    template = "You aren't seated at this table."

    def __init__(self, channel_id: int, user_id: int) -> None:
        super().__init__(channel_id=channel_id, user_id=user_id)


class BuyInOutOfRange(StoreError):
    code = "buy_in_out_of_range"
    template = "The buy-in at this table is from {minimum} to {maximum} chips, not {amount}."

    def __init__(self, amount: int, minimum: int, maximum: int) -> None:
        super().__init__(amount=amount, minimum=minimum, maximum=maximum)


class PlayerInHand(StoreError):
    code = "player_in_hand"
    template = "You're playing the current hand: you can leave when it ends."

    def __init__(self, channel_id: int, user_id: int) -> None:
        super().__init__(channel_id=channel_id, user_id=user_id)


class HandInProgress(StoreError):
    code = "hand_in_progress"
    template = "A hand is being played at this table: wait until it ends."

    def __init__(self, channel_id: int) -> None:
        super().__init__(channel_id=channel_id)


class HandNotFound(StoreError):
    code = "hand_not_found"
    template = "There is no hand #{hand_id}."

    def __init__(self, hand_id: int) -> None:
        super().__init__(hand_id=hand_id)


class HandNotLive(StoreError):
    """The hand already ended (settled or voided): a second settlement never pays twice."""

    code = "hand_not_live"
    template = "Hand #{hand_id} is already over."

    def __init__(self, hand_id: int) -> None:
        super().__init__(hand_id=hand_id)


class SeatsChanged(StoreError):
    """``store.hands.start`` was given a seat or stack that no longer matches the table."""

    code = "seats_changed"
    template = "The seats changed before the hand could start; nothing was dealt."

    def __init__(self, user_id: int) -> None:
        super().__init__(user_id=user_id)


class ChipsNotConserved(StoreError):
    """A settlement whose final stacks don't add up to the chips that entered the hand."""

    code = "chips_not_conserved"
    template = "Hand #{hand_id} could not be settled: {paid} paid out but {entered} entered."

    def __init__(self, hand_id: int, paid: int, entered: int) -> None:
        super().__init__(hand_id=hand_id, paid=paid, entered=entered)


class NoTournament(StoreError):
    code = "no_tournament"
    template = "There is no tournament #{tournament_id} open on this server."

    def __init__(self, tournament_id: int) -> None:
        super().__init__(tournament_id=tournament_id)


class RegistrationClosed(StoreError):
    code = "registration_closed"
    template = "Registration for tournament #{tournament_id} is closed."

    def __init__(self, tournament_id: int) -> None:
        super().__init__(tournament_id=tournament_id)


class AlreadyRegistered(StoreError):
    code = "already_registered"
    template = "You are already registered for tournament #{tournament_id}."

    def __init__(self, tournament_id: int, user_id: int) -> None:
        super().__init__(tournament_id=tournament_id, user_id=user_id)


class NotRegistered(StoreError):
    code = "not_registered"
    template = "You aren't registered for tournament #{tournament_id}."

    def __init__(self, tournament_id: int, user_id: int) -> None:
        super().__init__(tournament_id=tournament_id, user_id=user_id)


class TournamentStarted(StoreError):
    """Unregistering or cancelling once the cards are in the air."""

    code = "tournament_started"
    template = "Tournament #{tournament_id} has started: that can only be done before."

    def __init__(self, tournament_id: int) -> None:
        super().__init__(tournament_id=tournament_id)


class AuditFailed(Exception):
    """Conservation or ledger consistency is broken: a bug, never a player's doing."""


class SchemaTooNew(Exception):
    """The database was written by a newer version of the bot than this one."""


class DatabaseNotEmpty(Exception):
    """A whole database is copied only into one without rows (``Store.copy_from``)."""

    def __init__(self, table: str, rows: int) -> None:
        super().__init__(
            f"it already has data ({rows} rows in {table}): copy into an empty database"
        )
        self.table = table
        self.rows = rows


def _duration(delta: timedelta) -> str:
    """A wait rounded up to the minute: "3 h 12 min"."""
    minutes = max(1, -(-int(delta.total_seconds()) // 60))
    hours, minutes = divmod(minutes, 60)
    if hours and minutes:
        return f"{hours} h {minutes} min"
    if hours:
        return f"{hours} h"
    return f"{minutes} min"
