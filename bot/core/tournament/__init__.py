"""Tournaments in the core (RULES 11): the desk that creates and starts them
(``house.tournaments``) and the director of each running one."""

from bot.core.tournament.desk import Lobby, Tournaments
from bot.core.tournament.director import Record, TournamentDirector

__all__ = ["Lobby", "Record", "TournamentDirector", "Tournaments"]
