# ruff: noqa: RUF001 - the Russian catalogue is Cyrillic on purpose
"""English and Russian text for everything the bot says, and the command-tree translator.

Messages are looked up by key and formatted with ``str.format`` keywords. A player's replies
follow his Discord client's locale; what the table says in the channel follows the server's.
Any locale that is not Russian gets English.
"""

from __future__ import annotations

from typing import Final

import discord
from discord import app_commands

from engine.cards import Card, rank_name

EN: Final = "en"
RU: Final = "ru"


def language(locale: discord.Locale | str | None) -> str:
    """The catalogue language for a Discord locale: ``"ru"`` for Russian, else ``"en"``."""
    value = locale.value if isinstance(locale, discord.Locale) else (locale or "")
    return RU if value.lower().startswith("ru") else EN


MESSAGES: Final[dict[str, dict[str, str]]] = {
    # Errors a player can cause.
    "no_table": {
        EN: "There is no table in this channel. Open one with /table open.",
        RU: "В этом канале нет стола. Откройте его командой /table open.",
    },
    "table_exists": {
        EN: "This channel already has a table. Join it with /sit.",
        RU: "В этом канале уже есть стол. Садитесь командой /sit.",
    },
    "not_seated": {
        EN: "You are not seated at this table. Take a seat with /sit.",
        RU: "Вы не сидите за этим столом. Сядьте командой /sit.",
    },
    "already_seated": {
        EN: "You already have a seat at this table.",
        RU: "Вы уже сидите за этим столом.",
    },
    "table_full": {
        EN: "The table is full ({seats} seats).",
        RU: "Все места заняты ({seats}).",
    },
    "buy_in_range": {
        EN: "The buy-in at this table is {min} to {max} chips.",
        RU: "Бай-ин за этим столом: от {min} до {max} фишек.",
    },
    "not_your_turn": {
        EN: "It's not your turn.",
        RU: "Сейчас не ваш ход.",
    },
    "no_hand": {
        EN: "No hand is being played right now.",
        RU: "Сейчас раздача не идёт.",
    },
    "not_in_hand": {
        EN: "You are not in this hand.",
        RU: "Вы не участвуете в этой раздаче.",
    },
    "old_button": {
        EN: "That button belongs to a hand that is over. Use the buttons on the latest table "
        "message.",
        RU: "Эта кнопка от уже законченной раздачи. Пользуйтесь кнопками последнего сообщения "
        "стола.",
    },
    "stale_button": {
        EN: "The betting has moved on since that button was drawn. Use the latest table message.",
        RU: "Ставки изменились с тех пор, как появилась эта кнопка. Используйте последнее "
        "сообщение стола.",
    },
    "already_leaving": {
        EN: "You are already leaving after this hand.",
        RU: "Вы уже уходите после этой раздачи.",
    },
    "already_sitting_out": {
        EN: "You are already sitting out.",
        RU: "Вы уже пропускаете раздачи.",
    },
    "not_sitting_out": {
        EN: "You are not sitting out.",
        RU: "Вы и так в игре.",
    },
    "close_not_allowed": {
        EN: "Only the player who opened the table or someone with Manage Server can close it.",
        RU: "Закрыть стол может только тот, кто его открыл, или человек с правом «Управлять "
        "сервером».",
    },
    "close_mid_hand": {
        EN: "A hand is being played. Close the table between hands.",
        RU: "Идёт раздача. Закройте стол между раздачами.",
    },
    "missing_permission": {
        EN: "You need the Manage Server permission for that.",
        RU: "Для этого нужно право «Управлять сервером».",
    },
    "owner_only": {
        EN: "Only the bot's owner can do that.",
        RU: "Это может только владелец бота.",
    },
    "guild_only": {
        EN: "Tables live in server channels; this command doesn't work in DMs.",
        RU: "Столы бывают только в каналах сервера; в личных сообщениях команда не работает.",
    },
    "bad_stakes": {
        EN: "Those stakes don't work: {reason}",
        RU: "Такие ставки не подходят: {reason}",
    },
    "bad_buy_in_limits": {
        EN: "The minimum buy-in must not exceed the maximum, and the minimum must cover a big bet.",
        RU: "Минимальный бай-ин не может быть больше максимального и должен покрывать большую "
        "ставку.",
    },
    "illegal_action": {
        EN: "You can't do that now: {reason}",
        RU: "Так сейчас нельзя: {reason}",
    },
    "cant_now": {
        EN: "You can't do that now. You can: {options}",
        RU: "Так сейчас нельзя. Можно: {options}",
    },
    "illegal_amount": {
        EN: "You can't make it {amount}. Allowed now: {allowed}.",
        RU: "Нельзя поставить {amount}. Сейчас можно: {allowed}.",
    },
    "no_history": {
        EN: "You haven't played a finished hand yet.",
        RU: "У вас ещё нет сыгранных раздач.",
    },
    "unexpected": {
        EN: "Something went wrong on our side. If it keeps happening, report error id "
        "`{error_id}`.",
        RU: "У нас что-то сломалось. Если это повторяется, сообщите код ошибки `{error_id}`.",
    },
    # Replies.
    "table_opened": {
        EN: "Table open: stakes {stakes}, {seats} seats, buy-in {min}-{max}, {turn} s per turn. "
        "Take a seat with /sit.",
        RU: "Стол открыт: ставки {stakes}, мест {seats}, бай-ин {min}-{max}, {turn} с на ход. "
        "Садитесь командой /sit.",
    },
    "table_closed": {
        EN: "The table is closed. Every seated player's chips went back to his wallet.",
        RU: "Стол закрыт. Фишки всех игроков вернулись в их кошельки.",
    },
    "table_info": {
        EN: "Stakes {stakes}, {seats} seats, buy-in {min}-{max}, {turn} s per turn.\n{players}",
        RU: "Ставки {stakes}, мест {seats}, бай-ин {min}-{max}, {turn} с на ход.\n{players}",
    },
    "info_player": {
        EN: "Seat {seat}: {name} — {stack} chips{status}",
        RU: "Место {seat}: {name} — {stack} фишек{status}",
    },
    "status_sitting_out": {EN: " (sitting out)", RU: " (пропускает)"},
    "status_leaving": {EN: " (leaving after this hand)", RU: " (уходит после раздачи)"},
    "info_empty": {EN: "No one is seated yet.", RU: "Пока никто не сел."},
    "sat_down": {
        EN: "You sit in seat {seat} with {stack} chips.",
        RU: "Вы садитесь на место {seat} с {stack} фишками.",
    },
    "left_now": {
        EN: "You leave the table; {stack} chips go back to your wallet.",
        RU: "Вы уходите из-за стола; {stack} фишек вернулись в кошелёк.",
    },
    "leave_after_hand": {
        EN: "You will leave after this hand; your chips then go back to your wallet.",
        RU: "Вы уйдёте после этой раздачи; тогда фишки вернутся в кошелёк.",
    },
    "sat_out": {
        EN: "You are sitting out from the next hand. Come back with /sitin.",
        RU: "Вы пропускаете раздачи со следующей. Вернуться: /sitin.",
    },
    "sat_in": {
        EN: "You are back in from the next hand.",
        RU: "Вы снова в игре со следующей раздачи.",
    },
    "acted": {EN: "Done: {action}.", RU: "Сделано: {action}."},
    "balance": {
        EN: "Wallet: {wallet} chips. At tables: {seated} chips.",
        RU: "Кошелёк: {wallet} фишек. За столами: {seated} фишек.",
    },
    "daily_granted": {
        EN: "You get {amount} chips. Wallet: {wallet}.",
        RU: "Вы получили {amount} фишек. В кошельке: {wallet}.",
    },
    "leaderboard_title": {EN: "Leaderboard", RU: "Таблица лидеров"},
    "leaderboard_line": {EN: "{rank}. {name} — {chips}", RU: "{rank}. {name} — {chips}"},
    "leaderboard_you": {
        EN: "You are #{rank} with {chips} chips.",
        RU: "Вы на {rank}-м месте: {chips} фишек.",
    },
    "leaderboard_empty": {EN: "No one has chips yet.", RU: "Пока ни у кого нет фишек."},
    "chips_granted": {
        EN: "{name} gets {amount} chips. Wallet: {wallet}.",
        RU: "{name} получает {amount} фишек. В кошельке: {wallet}.",
    },
    "synced": {EN: "Synced {count} commands globally.", RU: "Синхронизировано команд: {count}."},
    "your_cards": {
        EN: "Your cards: down {down}; up {up}.",
        RU: "Ваши карты: закрытые {down}; открытые {up}.",
    },
    "no_cards": {EN: "You have no cards in this hand.", RU: "У вас нет карт в этой раздаче."},
    "dm_cards": {
        EN: "Hand #{hand_id} in #{channel}: down {down}; up {up}.",
        RU: "Раздача №{hand_id} в #{channel}: закрытые {down}; открытые {up}.",
    },
    "verify": {
        EN: "Hand #{hand_id}: the reveal (attached) {verdict} the commitment `{commitment}` "
        "published before the first card.",
        RU: "Раздача №{hand_id}: раскрытие (во вложении) {verdict} с обязательством "
        "`{commitment}`, опубликованным до первой карты.",
    },
    "verify_ok": {EN: "matches", RU: "совпадает"},
    "verify_bad": {EN: "DOES NOT MATCH", RU: "НЕ СОВПАДАЕТ"},
    "verify_howto": {
        EN: "Each token is one deck position, top first: `card:salt` for a card you saw, else "
        "that position's hash. Hash of a position: first 32 hex digits of "
        'SHA-256("position:card:salt"); commitment: SHA-256 of all 52 hashes joined.',
        RU: "Каждый токен — позиция в колоде сверху вниз: `карта:соль` для карты, которую вы "
        "видели, иначе хеш позиции. Хеш позиции: первые 32 hex-цифры "
        'SHA-256("позиция:карта:соль"); обязательство: SHA-256 всех 52 хешей подряд.',
    },
    "verify_live": {
        EN: "Hand #{hand_id} is still being played; its deck is revealed when it ends.",
        RU: "Раздача №{hand_id} ещё идёт; колода будет раскрыта в конце.",
    },
    "history_summary": {
        EN: "Hand #{hand_id}: {summary}",
        RU: "Раздача №{hand_id}: {summary}",
    },
    # Table announcements (channel, RULES 8).
    "countdown": {
        EN: "Next hand starts {when}.",
        RU: "Следующая раздача начнётся {when}.",
    },
    "commitment": {
        EN: "Hand #{hand_id}: deck commitment SHA-256 `{digest}` (revealed when the hand ends; "
        "check with /hand verify).",
        RU: "Раздача №{hand_id}: обязательство колоды SHA-256 `{digest}` (раскрывается в конце "
        "раздачи; проверка: /hand verify).",
    },
    "street_3": {EN: "3rd street", RU: "Третья улица"},
    "street_4": {EN: "4th street", RU: "Четвёртая улица"},
    "street_5": {EN: "5th street", RU: "Пятая улица"},
    "street_6": {EN: "6th street", RU: "Шестая улица"},
    "street_7": {EN: "7th street (river)", RU: "Седьмая улица (ривер)"},
    "table_title": {
        EN: "Seven Card Stud {stakes} — hand #{hand_id}, {street}",
        RU: "Семикарточный стад {stakes} — раздача №{hand_id}, {street}",
    },
    "table_waiting": {
        EN: "Seven Card Stud {stakes} — waiting for players",
        RU: "Семикарточный стад {stakes} — ждём игроков",
    },
    "to_act": {
        EN: "{name} to act, time runs out {when}.",
        RU: "Ходит {name}, время выйдет {when}.",
    },
    "pot": {EN: "Pot: {pot}", RU: "Банк: {pot}"},
    "ann_ante": {
        EN: "{name} posts the ante {amount}{all_in}",
        RU: "{name} ставит анте {amount}{all_in}",
    },
    "ann_bring_in_due": {
        EN: "{name} has the lowest door card ({card}) and must bring in",
        RU: "У {name} младшая открытая карта ({card}): он открывает торги",
    },
    "ann_bring_in_passed": {
        EN: "The lowest door card is all-in; {name} ({card}) brings in",
        RU: "Младшая открытая карта уже ва-банк; торги открывает {name} ({card})",
    },
    "ann_first_to_act": {
        EN: "{name} is high on board with {holding} and acts first",
        RU: "{name} старший на столе ({holding}) и ходит первым",
    },
    "ann_open_pair": {
        EN: "Open pair: {name} shows a pair of {rank} — bets may be {small} or {big} this street",
        RU: "Открытая пара у {name}: {rank} — на этой улице ставки {small} или {big}",
    },
    "ann_bring_in": {
        EN: "{name} brings in for {amount}{all_in}",
        RU: "{name} открывает на {amount}{all_in}",
    },
    "ann_complete": {
        EN: "{name} completes to {total}{all_in}",
        RU: "{name} доставляет до {total}{all_in}",
    },
    "ann_bet": {EN: "{name} bets {total}{all_in}", RU: "{name} ставит {total}{all_in}"},
    "ann_raise": {EN: "{name} raises to {total}{all_in}", RU: "{name} повышает до {total}{all_in}"},
    "ann_call": {EN: "{name} calls {amount}{all_in}", RU: "{name} уравнивает {amount}{all_in}"},
    "ann_check": {EN: "{name} checks", RU: "{name} чек"},
    "ann_fold": {EN: "{name} folds", RU: "{name} сбрасывает"},
    "ann_timed_out": {EN: "{name} ran out of time", RU: "У {name} вышло время"},
    "ann_capped": {EN: "Betting is capped", RU: "Ставки достигли предела"},
    "ann_uncalled": {
        EN: "{amount} uncalled returned to {name}",
        RU: "{amount} без ответа возвращено {name}",
    },
    "ann_community": {
        EN: "Not enough cards: {card} is dealt face up as a community card",
        RU: "Карт не хватает: {card} открыта как общая карта",
    },
    "ann_shown": {
        EN: "{name} shows {cards} — {description}",
        RU: "{name} показывает {cards} — {description}",
    },
    "ann_pot": {
        EN: "{winners} win{s} the {pot} ({amount}){description}",
        RU: "{winners}: {pot} ({amount}){description}",
    },
    "main_pot": {EN: "main pot", RU: "основной банк"},
    "side_pot": {EN: "side pot {index}", RU: "побочный банк {index}"},
    "all_in_suffix": {EN: " and is all-in", RU: " и идёт ва-банк"},
    "warning": {
        EN: "{mention}, 15 seconds left to act.",
        RU: "{mention}, на ход осталось 15 секунд.",
    },
    "timed_out_sat_out": {
        EN: "{name} timed out and sits out from the next hand (/sitin to come back).",
        RU: "{name} не успел походить и пропускает раздачи (/sitin, чтобы вернуться).",
    },
    "dm_closed": {
        EN: "{mention}, your DMs are closed: use My cards.",
        RU: "{mention}, ваши личные сообщения закрыты: используйте «Мои карты».",
    },
    "reveal": {
        EN: "Hand #{hand_id} is over. Check its deck against the commitment: "
        "/hand verify {hand_id}.",
        RU: "Раздача №{hand_id} окончена. Проверить колоду по обязательству: "
        "/hand verify {hand_id}.",
    },
    "restored": {
        EN: "The bot restarted; hand #{hand_id} continues.",
        RU: "Бот перезапустился; раздача №{hand_id} продолжается.",
    },
    "restore_voided": {
        EN: "Hand #{hand_id} could not be continued after the restart and was cancelled: "
        "everyone got back the chips he had when it started (error {error_id}).",
        RU: "Раздачу №{hand_id} не удалось продолжить после перезапуска, она отменена: "
        "всем вернулись фишки, с которыми они начинали (ошибка {error_id}).",
    },
    "shutting_down": {
        EN: "The bot is restarting; try again in a minute.",
        RU: "Бот перезапускается; попробуйте через минуту.",
    },
    "old_version_button": {
        EN: "This button is from an older version of the table. Use the buttons on the latest "
        "table message.",
        RU: "Эта кнопка от старой версии стола. Пользуйтесь кнопками последнего сообщения стола.",
    },
    "foreign_button": {
        EN: "That button belongs to another channel's table.",
        RU: "Эта кнопка от стола в другом канале.",
    },
    "missing_bot_permissions": {
        EN: "The table can't be shown here: the bot needs these permissions in this channel: "
        "{permissions}. Ask a server admin to grant them; play resumes when they are.",
        RU: "Стол нельзя показать здесь: боту нужны в этом канале права: {permissions}. "
        "Попросите администратора сервера их выдать; игра продолжится, когда права появятся.",
    },
    "perm_view_channel": {EN: "View Channel", RU: "Просматривать канал"},
    "perm_send_messages": {EN: "Send Messages", RU: "Отправлять сообщения"},
    "perm_send_messages_in_threads": {
        EN: "Send Messages in Threads",
        RU: "Отправлять сообщения в ветках",
    },
    "perm_attach_files": {EN: "Attach Files", RU: "Прикреплять файлы"},
    "perm_embed_links": {EN: "Embed Links", RU: "Встраивать ссылки"},
    "seat_bet": {EN: "bet {amount}", RU: "ставка {amount}"},
    "seat_folded": {EN: "folded", RU: "пас"},
    "seat_all_in": {EN: "all-in", RU: "ва-банк"},
    "showdown": {EN: "showdown", RU: "вскрытие"},
    # Buttons.
    "btn_fold": {EN: "Fold", RU: "Пас"},
    "btn_check": {EN: "Check", RU: "Чек"},
    "btn_call": {EN: "Call {amount}", RU: "Колл {amount}"},
    "btn_bring_in": {EN: "Bring in {amount}", RU: "Открыть {amount}"},
    "btn_complete": {EN: "Complete to {amount}", RU: "Доставить до {amount}"},
    "btn_bet": {EN: "Bet {amount}", RU: "Ставка {amount}"},
    "btn_raise": {EN: "Raise to {amount}", RU: "Рейз до {amount}"},
    "btn_cards": {EN: "My cards", RU: "Мои карты"},
    # Action names for "Done: ..." replies.
    "act_fold": {EN: "fold", RU: "пас"},
    "act_check": {EN: "check", RU: "чек"},
    "act_call": {EN: "call {amount}", RU: "колл {amount}"},
    "act_bring_in": {EN: "bring in for {amount}", RU: "открытие на {amount}"},
    "act_complete": {EN: "complete to {amount}", RU: "доставка до {amount}"},
    "act_bet": {EN: "bet {amount}", RU: "ставка {amount}"},
    "act_raise": {EN: "raise to {amount}", RU: "рейз до {amount}"},
}


# Russian for the store's errors, by their stable ``code``; English comes from the store itself.
STORE_ERRORS_RU: Final[dict[str, str]] = {
    "store_error": "С фишками что-то пошло не так; ничего не изменилось.",
    "invalid_amount": "Сумма должна быть целым числом фишек от 1 до {maximum}, а не {amount}.",
    "not_enough_chips": "Недостаточно фишек: нужно {needed}, в кошельке {available}.",
    "daily_not_ready": "Ежедневные фишки уже получены: приходите через {wait}.",
    "no_table": "В этом канале нет стола.",
    "table_exists": "В этом канале уже есть стол.",
    "invalid_table_config": "Такой стол открыть нельзя: {problem}.",
    "table_full": "Стол заполнен: все {seats} мест заняты.",
    "already_seated": "Вы уже сидите за этим столом.",
    "not_seated": "Вы не сидите за этим столом.",
    "buy_in_out_of_range": "Бай-ин за этим столом: от {minimum} до {maximum} фишек, а не {amount}.",
    "player_in_hand": "Вы играете текущую раздачу: уйти можно, когда она закончится.",
    "hand_in_progress": "За столом идёт раздача: дождитесь её конца.",
    "hand_not_found": "Раздачи №{hand_id} нет.",
    "hand_not_live": "Раздача №{hand_id} уже закончена.",
    "seats_changed": "Места изменились до начала раздачи; ничего не роздано.",
    "chips_not_conserved": "Раздачу №{hand_id} не удалось рассчитать: "
    "выплачено {paid}, внесено {entered}.",
}


def t(lang: str, key: str, /, **params: object) -> str:
    """The message ``key`` in ``lang`` (falling back to English), formatted with ``params``."""
    entry = MESSAGES[key]
    return entry.get(lang, entry[EN]).format(**params)


RANK_NAMES_RU: Final = {
    2: "двойки", 3: "тройки", 4: "четвёрки", 5: "пятёрки", 6: "шестёрки", 7: "семёрки",
    8: "восьмёрки", 9: "девятки", 10: "десятки", 11: "валеты", 12: "дамы", 13: "короли", 14: "тузы",
}  # fmt: skip


def rank_plural(lang: str, rank: int) -> str:
    return RANK_NAMES_RU[rank] if lang == RU else rank_name(rank, plural=True)


def cards_text(cards: list[Card] | tuple[Card, ...]) -> str:
    return " ".join(card.pretty for card in cards) or "—"


# Command names and descriptions in Russian. Names are Discord-valid (lowercase, no spaces).
COMMAND_TEXT_RU: Final[dict[str, str]] = {
    "table": "стол",
    "open": "открыть",
    "close": "закрыть",
    "info": "инфо",
    "sit": "сесть",
    "leave": "уйти",
    "sitout": "пропуск",
    "sitin": "вернуться",
    "fold": "пас",
    "check": "чек",
    "call": "колл",
    "bet": "ставка",
    "raise": "рейз",
    "complete": "доставить",
    "bringin": "открыть-торги",
    "cards": "карты",
    "balance": "баланс",
    "daily": "ежедневно",
    "leaderboard": "лидеры",
    "chips": "фишки",
    "grant": "выдать",
    "hand": "раздача",
    "verify": "проверить",
    "history": "история",
    "sync": "синхронизация",
    "buy_in": "бай-ин",
    "amount": "сумма",
    "total": "до",
    "member": "игрок",
    "hand_id": "номер",
    "ante": "анте",
    "bring_in": "открытие",
    "small_bet": "малая-ставка",
    "big_bet": "большая-ставка",
    "seats": "места",
    "min_buy_in": "мин-бай-ин",
    "max_buy_in": "макс-бай-ин",
    "turn_seconds": "секунд-на-ход",
    # Descriptions (keys are the English text).
    "Open, close or inspect this channel's table": "Открыть, закрыть или посмотреть стол канала",
    "Open a Seven Card Stud table in this channel": "Открыть стол семикарточного стада в канале",
    "Close this channel's table (between hands)": "Закрыть стол канала (между раздачами)",
    "Show the table's stakes and players": "Показать ставки и игроков",
    "Take a seat at this channel's table": "Сесть за стол этого канала",
    "Leave the table (after the current hand)": "Уйти из-за стола (после текущей раздачи)",
    "Sit out from the next hand": "Пропускать раздачи со следующей",
    "Come back in from the next hand": "Вернуться в игру со следующей раздачи",
    "Fold your hand": "Сбросить карты",
    "Check": "Чек",
    "Call the current bet": "Уравнять ставку",
    "Bet (fixed limit: the amount is optional)": "Поставить (лимит: сумму можно не указывать)",
    "Raise (fixed limit: the total is optional)": "Повысить (лимит: сумму можно не указывать)",
    "Complete the bring-in to the small bet": "Доставить открытие до малой ставки",
    "Post the bring-in": "Открыть торги минимальной ставкой",
    "See your cards (only you see the reply)": "Посмотреть свои карты (видите только вы)",
    "Your chips": "Ваши фишки",
    "Collect your daily chips": "Получить ежедневные фишки",
    "Top 10 players on this server and your rank": "Топ-10 игроков сервера и ваше место",
    "Chip administration": "Управление фишками",
    "Give chips to a member (Manage Server)": "Выдать фишки участнику (управление сервером)",
    "Hand tools": "Раздачи",
    "Check a finished hand's deck against the commitment posted before it": "Проверить колоду "
    "законченной раздачи по обязательству, опубликованному до неё",
    "Your copy of your last hand (or a hand by id) as a PokerStars text file": "Ваша копия "
    "последней раздачи (или по номеру) в формате PokerStars",
    "Sync commands globally (bot owner)": "Синхронизировать команды глобально (владелец)",
    "Chips to bring from your wallet": "Сколько фишек взять из кошелька",
    "Chips to put in (fixed limit decides)": "Сколько поставить (решает лимит)",
    "Your street total after the raise": "Ваша сумма на улице после рейза",
    "Who gets the chips": "Кто получает фишки",
    "How many chips": "Сколько фишек",
    "The hand number": "Номер раздачи",
    "Ante in chips": "Анте в фишках",
    "Bring-in in chips": "Открытие в фишках",
    "Small bet (3rd and 4th street)": "Малая ставка (3-я и 4-я улицы)",
    "Big bet (5th street on)": "Большая ставка (с 5-й улицы)",
    "Seats, 2 to 8": "Мест, от 2 до 8",
    "Smallest buy-in": "Наименьший бай-ин",
    "Largest buy-in": "Наибольший бай-ин",
    "Seconds per turn": "Секунд на ход",
}


class CommandTranslator(app_commands.Translator):
    """Russian names and descriptions for the slash commands; English is the source text."""

    async def translate(
        self,
        string: app_commands.locale_str,
        locale: discord.Locale,
        context: app_commands.TranslationContextTypes,
    ) -> str | None:
        if language(locale) != RU:
            return None
        return COMMAND_TEXT_RU.get(string.message)
