// The table drawn from the views: seats around an oval, the viewer's own seat at the bottom,
// the pot in the middle, each seat's bet between it and the pot. The whole table is drawn
// again from the latest views on every message (a few hundred elements); only the clocks
// change in between (tick).

import { back, face } from "./cards";
import type {
  Card,
  PrivateView,
  PublicSeat,
  PublicTable,
  ResultsView,
  SeatInfo,
  TableView,
} from "./protocol";
import { chips, t } from "./words";

export interface State {
  me: string; // the viewer's user id (welcome)
  view: TableView | null;
  viewAt: number; // performance.now() when it arrived: its "_in" clocks count from here
  results: ResultsView | null;
  users: Map<string, string[]>; // each recent hand's user ids by engine seat
  cards: PrivateView | null;
  lines: string[]; // what the table said in its channel lately
  // He sat down during a hand: the hand's view does not list the players waiting for the next.
  justSat: boolean;
}

/** A seat as drawn: from the hand in play, a finished hand, or the players waiting. */
interface Place {
  index: number; // engine seat (a hand) or position (an idle table)
  name: string;
  stack: number;
  seat: PublicSeat | null;
  sittingOut: boolean;
  leaving: boolean;
  net: number | null; // a finished hand's result
}

function el(tag: string, className = "", text = ""): HTMLElement {
  const element = document.createElement(tag);
  if (className) element.className = className;
  if (text) element.textContent = text;
  return element;
}

function secondsLeft(inSeconds: number, at: number): number {
  return Math.max(0, Math.ceil(inSeconds - (performance.now() - at) / 1000));
}

/** The hand the table shows: the one in play, else the last one finished. */
function shownHand(state: State): { id: string; public: PublicTable; names: string[] } | null {
  const hand = state.view?.hand;
  if (hand) return { id: hand.hand_id, public: hand.public, names: hand.names };
  const results = state.results;
  if (results) return { id: results.hand_id, public: results.public, names: results.nets.map((n) => n[0]) };
  return null;
}

/** The viewer's engine seat in the hand shown, or his place at an idle table; null if none. */
export function mySeat(state: State): number | null {
  const shown = shownHand(state);
  if (shown) {
    const index = (state.users.get(shown.id) ?? []).indexOf(state.me);
    return index < 0 ? null : index;
  }
  return waiting(state)?.position ?? null;
}

/** His seat among the players waiting (between hands, or sitting out of the hand in play). */
function waiting(state: State): SeatInfo | undefined {
  return state.view?.seats.find((seat) => seat.user_id === state.me);
}

/** Whether the viewer has a seat at the table (in the hand or waiting for the next). */
export function seated(state: State): boolean {
  return state.justSat || waiting(state) !== undefined || mySeat(state) !== null;
}

export function sittingOut(state: State): boolean {
  const info = waiting(state);
  if (info) return info.sitting_out;
  const mine = mySeat(state);
  return (mine !== null && state.view?.hand?.labels?.seats[mine]?.sitting_out) ?? false;
}

/** The viewer is in the hand in play but has not been handed his cards (a socket opened
 * mid-hand): the bar offers to ask for them. */
export function missingCards(state: State): boolean {
  const hand = state.view?.hand;
  if (!hand || mySeat(state) === null) return false;
  return state.cards?.hand_id !== hand.hand_id;
}

function places(state: State): Place[] {
  const shown = shownHand(state);
  if (shown) {
    const labels = state.view?.hand?.labels ?? state.results?.labels;
    const nets = state.view?.hand ? null : (state.results?.nets ?? null);
    return shown.public.seats.map((seat, i) => ({
      index: seat.seat,
      name: shown.names[i] ?? "",
      stack: seat.stack,
      seat,
      sittingOut: labels?.seats[i]?.sitting_out ?? false,
      leaving: false,
      net: nets?.[i]?.[1] ?? null,
    }));
  }
  return (state.view?.seats ?? []).map((info: SeatInfo) => ({
    index: info.position,
    name: info.name,
    stack: info.stack,
    seat: null,
    sittingOut: info.sitting_out,
    leaving: info.leaving,
    net: null,
  }));
}

// A phone in portrait: each table size's places by hand, clockwise from the bottom (the
// viewer's, larger), two columns at the sides and the rest across the top, so no seat covers
// another at 360x640.
const PORTRAIT: Record<number, [number, number][]> = {
  2: [[50, 90], [50, 12]],
  3: [[50, 90], [20, 28], [80, 28]],
  4: [[50, 90], [17, 50], [50, 12], [83, 50]],
  5: [[50, 90], [17, 62], [30, 15], [70, 15], [83, 62]],
  6: [[50, 90], [17, 66], [17, 36], [50, 11], [83, 36], [83, 66]],
  7: [[50, 90], [22, 68], [17, 41], [34, 13], [66, 13], [83, 41], [78, 68]],
  8: [[50, 90], [17, 68], [17, 43], [17, 18], [50, 9], [83, 18], [83, 43], [83, 68]],
};

/** Where the k-th place clockwise from the bottom sits, in % of the table's box. */
function slot(k: number, count: number, portrait: boolean): [number, number] {
  const fixed = portrait ? PORTRAIT[count]?.[k] : undefined;
  if (fixed) return fixed;
  const angle = Math.PI / 2 + (2 * Math.PI * k) / Math.max(count, 2);
  return [50 + 39 * Math.cos(angle), 50 + 37 * Math.sin(angle)];
}

function cardsRow(place: Place, own: PrivateView | null, handId: string): HTMLElement {
  const row = el("div", "cards");
  row.dataset.testid = "cards";
  const seat = place.seat;
  if (!seat || !seat.dealt_in) return row;
  if (seat.shown) {
    const best = new Set<Card>(seat.shown.best_five);
    for (const card of seat.shown.cards) row.append(face(card, best.has(card) ? "" : "dim"));
    return row;
  }
  if (own && own.hand_id === handId && own.cards.seat === seat.seat && !seat.folded) {
    // His own cards, face up to him; the ones the table sees as backs are marked.
    for (const item of own.cards.cards) row.append(face(item.card, item.face_up ? "" : "hidden"));
    return row;
  }
  if (seat.folded) return row; // his cards went into the muck
  // As dealt in stud: two down, the up cards, then the last down card.
  const first = Math.min(seat.down_count, 2);
  for (let i = 0; i < first; i++) row.append(back());
  for (const card of seat.up_cards) row.append(face(card));
  for (let i = first; i < seat.down_count; i++) row.append(back());
  return row;
}

function clockText(state: State): string {
  const hand = state.view?.hand;
  if (!hand) return "";
  const seconds = t("activity_seconds", { seconds: secondsLeft(hand.deadline_in, state.viewAt) });
  return hand.on_time_bank ? `${t("activity_time_bank")} ${seconds}` : seconds;
}

function status(place: Place, state: State, over: boolean): HTMLElement {
  const line = el("div", "status");
  const seat = place.seat;
  if (!seat || !seat.dealt_in) {
    if (place.sittingOut) line.textContent = t("activity_sitting_out");
    else if (place.leaving) line.textContent = t("activity_leaving");
    return line;
  }
  if (over && seat.won > 0) {
    line.textContent = seat.shown ? seat.shown.description : t("activity_won", { amount: seat.won });
    line.classList.add("won");
  } else if (seat.folded) {
    line.textContent = t("activity_folded");
  } else if (seat.mucked) {
    line.textContent = t("activity_mucked");
  } else if (seat.shown) {
    line.textContent = seat.shown.description;
  } else if (seat.is_actor && !over && state.view?.hand) {
    line.classList.add("clock", state.view.hand.on_time_bank ? "bank" : "turn");
    line.dataset.testid = "clock";
    line.append(el("span", "tick"), el("span", "seconds", clockText(state)));
  } else if (seat.all_in) {
    line.textContent = t("activity_all_in");
    line.classList.add("allin");
  }
  return line;
}

function seatPanel(place: Place, state: State, mine: boolean, handId: string, over: boolean): HTMLElement {
  const seat = place.seat;
  const panel = el("div", "panel");
  if (mine) panel.classList.add("mine");
  if (seat?.is_actor && !over) panel.classList.add("actor");
  if ((!seat?.dealt_in && place.sittingOut) || (seat && (seat.folded || seat.mucked))) {
    panel.classList.add("dim");
  }
  if (over && seat && seat.won > 0) panel.classList.add("winner");
  const top = el("div", "top");
  top.append(el("span", "name", place.name));
  if (place.net !== null && place.net !== 0) {
    const sign = place.net > 0 ? "+" : "−";
    top.append(el("span", place.net > 0 ? "stack won" : "stack lost", sign + chips(Math.abs(place.net))));
  } else {
    top.append(el("span", "stack", chips(place.stack)));
  }
  panel.append(top, status(place, state, over), cardsRow(place, state.cards, handId));
  const chances = over ? state.results?.odds?.seats.find((c) => c.seat === place.index) : undefined;
  if (chances) {
    const percent = (share: number): string => `${Math.round(share * 100)}%`;
    // Stud Hi-Lo: the high half's chances and the low half's, as the message gives them.
    const split = state.results?.public.low_game && state.results.public.high_game;
    const text = split ? `${percent(chances.high)} / ${percent(chances.low)}` : percent(chances.win);
    panel.append(el("div", "odds", text));
  }
  return panel;
}

function potLine(label: string, amount: number): HTMLElement {
  const line = el("div", "pot");
  line.append(el("span", "label", label), el("span", "amount", chips(amount)));
  return line;
}

function middle(state: State, shown: PublicTable | null, over: boolean): HTMLElement {
  const box = el("div", "middle");
  box.dataset.testid = "pot";
  if (shown) {
    if (shown.pots.length > 1) {
      shown.pots.forEach((pot, i) => {
        const label = i === 0 ? t("activity_main_pot") : t("activity_side_pot", { n: i });
        box.append(potLine(label, pot.amount));
      });
    } else {
      box.append(potLine(t("activity_pot"), shown.pot));
    }
    if (shown.community) {
      const row = el("div", "cards community");
      row.append(face(shown.community));
      box.append(row);
    }
    if (over && state.results?.odds) box.append(el("div", "next", t("activity_odds")));
  }
  const view = state.view;
  if (view && !view.hand) {
    if (view.next_hand_at_in !== null) {
      const line = el("div", "next");
      line.dataset.next = "1";
      line.textContent = t("activity_next_hand", { seconds: secondsLeft(view.next_hand_at_in, state.viewAt) });
      box.append(line);
    } else if (!state.results) {
      box.append(el("div", "next", t("activity_waiting")));
    }
  }
  return box;
}

function header(state: State): HTMLElement {
  const bar = el("header", "bar");
  const view = state.view;
  const hand = view?.hand;
  const game = hand?.game ?? state.results?.game ?? view?.game;
  if (game) bar.append(el("span", "game", t(`game_${game}`)));
  if (hand) {
    bar.append(el("span", "street", t(`street_${hand.street}`)));
  } else if (state.results) {
    const showdown = state.results.public.seats.some((seat) => seat.shown);
    bar.append(el("span", "street", showdown ? t("street_showdown") : t("activity_results")));
  }
  const stakes = view?.stakes ?? state.results?.stakes;
  if (stakes) bar.append(el("span", "stakes", t("stakes", { ...stakes })));
  if (view?.level) bar.append(el("span", "level", t("activity_level", { level: view.level.number })));
  if (view?.next_game) bar.append(el("span", "next-game", view.next_game));
  if (view && !seated(state)) bar.append(el("span", "watching", t("activity_watching")));
  return bar;
}

function fairness(digest: string): HTMLElement {
  return el("div", "line fair", `${t("activity_commitment")}: ${digest}`);
}

function logLines(state: State): HTMLElement {
  const log = el("section", "log");
  log.dataset.testid = "log";
  const hand = state.view?.hand;
  if (hand) {
    if (hand.actor) {
      const mine = mySeat(state) === hand.public.actor;
      const turn = mine ? t("activity_your_turn") : `${hand.actor}: ${t("activity_to_act")}`;
      log.append(el("div", "line turn", turn));
    }
    for (const line of hand.log.slice().reverse()) log.append(el("div", "line", line));
    log.append(fairness(hand.commitment));
  } else if (state.results) {
    const results = state.results;
    for (const line of results.lines) log.append(el("div", "line", line));
    log.append(fairness(results.commitment));
    log.append(el("div", "line fair", t("activity_reveal", { hand_id: results.hand_id })));
  } else {
    for (const line of state.lines.slice().reverse()) log.append(el("div", "line", line));
  }
  return log;
}

export function drawTable(root: HTMLElement, state: State, portrait: boolean): void {
  const shown = shownHand(state);
  const over = !state.view?.hand && state.results !== null;
  const all = places(state);
  const mine = mySeat(state);
  const count = all.length;
  const table = el("main", "table");
  table.append(el("div", "rail"), middle(state, shown?.public ?? null, over));
  // The viewer's own seat at the bottom, the others clockwise from it, as dealt.
  const myPlace = all.findIndex((place) => place.index === mine);
  all.forEach((place, i) => {
    const k = myPlace < 0 ? i : (i - myPlace + count) % count;
    const [x, y] = slot(k, count, portrait);
    const holder = el("div", "seat");
    holder.dataset.seat = String(place.index);
    holder.style.left = `${x}%`;
    holder.style.top = `${y}%`;
    holder.append(seatPanel(place, state, place.index === mine, shown?.id ?? "", over));
    table.append(holder);
    if (place.seat && place.seat.bet > 0 && !over) {
      const bet = el("div", "bet");
      bet.dataset.testid = "bet";
      bet.append(el("span", "chip"), el("span", "amount", chips(place.seat.bet)));
      // On the felt between the seat and the pot.
      bet.style.left = `${50 + (x - 50) * 0.4}%`;
      bet.style.top = `${50 + (y - 50) * 0.4}%`;
      table.append(bet);
    }
  });
  root.replaceChildren(header(state), table, logLines(state));
}

/** The clocks, a few times a second: the actor's seconds and the next hand's countdown. */
export function tick(root: HTMLElement, state: State): void {
  const clock = root.querySelector<HTMLElement>(".clock .seconds");
  if (clock) clock.textContent = clockText(state);
  const next = root.querySelector<HTMLElement>("[data-next]");
  const inSeconds = state.view?.next_hand_at_in;
  if (next && inSeconds !== null && inSeconds !== undefined) {
    next.textContent = t("activity_next_hand", { seconds: secondsLeft(inSeconds, state.viewAt) });
  }
}
