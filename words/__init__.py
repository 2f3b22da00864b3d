"""The words layer, below the core and the pictures: catalogues of messages in every language
(:class:`Texts`), the words pictures draw (:class:`Words`) and the names of hands
(``words.hands``). It reads the rules (``engine``) and nothing else of the project."""

from words.catalogue import EN, RU, Catalogue
from words.pictures import ENGLISH, HandWords, RankWords, Words
from words.texts import Texts, cards_text

__all__ = [
    "EN",
    "ENGLISH",
    "RU",
    "Catalogue",
    "HandWords",
    "RankWords",
    "Texts",
    "Words",
    "cards_text",
]
