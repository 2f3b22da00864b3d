// The wire protocol's shapes as the page reads them (docs/activity.md, "The page and the
// server"): a view is its Python dataclass's fields by name; ids are strings; clock instants
// arrive as seconds from sending, with "_in" appended to the field's name.

export type Card = string; // "As", "Td"

export interface Stakes {
  ante: number;
  bring_in: number;
  small_bet: number;
  big_bet: number;
}

export interface ButtonSpec {
  action: string;
  amount: number | null;
}

export interface SeatInfo {
  position: number;
  name: string;
  stack: number;
  sitting_out: boolean;
  leaving: boolean;
  user_id: string;
}

export interface ShownCards {
  cards: Card[];
  best_five: Card[];
  description: string;
}

export interface PublicSeat {
  seat: number;
  stack: number;
  bet: number;
  committed: number;
  up_cards: Card[];
  down_count: number;
  dealt_in: boolean;
  folded: boolean;
  all_in: boolean;
  is_actor: boolean;
  shown: ShownCards | null;
  won: number;
  mucked: boolean;
}

export interface Pot {
  amount: number;
  eligible: number[];
}

export interface PublicTable {
  seats: PublicSeat[];
  stakes: Stakes;
  dealer: number;
  street: number;
  pot: number;
  pots: Pot[];
  community: Card | null;
  actor: number | null;
  is_over: boolean;
  high_game: boolean;
  low_game: boolean;
}

export interface SeatLabel {
  name: string;
  sitting_out: boolean;
}

export interface Labels {
  seats: (SeatLabel | null)[];
}

export interface HandView {
  hand_id: string;
  seq: number;
  game: string;
  street: number;
  public: PublicTable;
  names: string[];
  users: string[]; // by engine seat
  log: string[];
  actor: string | null;
  deadline_in: number;
  on_time_bank: boolean;
  buttons: ButtonSpec[];
  labels?: Labels;
  commitment: string;
}

export interface LevelClock {
  number: number;
  unit: string;
  to_next: number;
  next_at_in: number | null;
}

export interface TableView {
  channel_id: string;
  lang: string;
  stakes: Stakes;
  game: string;
  next_game: string | null;
  seats: SeatInfo[];
  next_hand_at_in: number | null;
  hand: HandView | null;
  level?: LevelClock | null;
}

export interface Chances {
  seat: number;
  win: number;
  high: number;
  low: number;
  scoop: number;
}

export interface AllInOdds {
  street: number;
  seats: Chances[];
  exact: boolean;
  deals: number;
}

export interface ResultsView {
  hand_id: string;
  lang: string;
  game: string;
  stakes: Stakes;
  street: number;
  public: PublicTable;
  labels?: Labels;
  lines: string[];
  nets: [string, number][];
  next_hand_at_in: number | null;
  next_game: string | null;
  commitment: string;
  odds: AllInOdds | null;
}

export interface PrivateCard {
  card: Card;
  face_up: boolean;
}

export interface PrivateHand {
  seat: number;
  cards: PrivateCard[];
  community: Card | null;
  description: string | null;
  folded: boolean;
}

export interface PrivateView {
  user_id: string;
  hand_id: string;
  game: string;
  cards: PrivateHand;
  name: string;
  lang: string;
  four_colour: boolean;
}

export type ServerMessage =
  | { type: "welcome"; user_id: string; channel_id: string; lang: string; words: Record<string, string> }
  | { type: "table"; view: TableView }
  | { type: "results"; view: ResultsView }
  | { type: "cards"; view: PrivateView }
  | { type: "no_table"; can_open: boolean }
  | { type: "line"; text: string }
  | { type: "closed" }
  | { type: "done"; id: number; position?: number; chips?: number | null }
  | { type: "refused"; id: number; reason: string }
  | { type: "error"; reason: string };

export type PageRequest =
  | { type: "act"; action: string; amount: number | null; hand_id: string; seq: number }
  | { type: "sit"; chips: number | null }
  | { type: "leave" }
  | { type: "sit_out"; out: boolean }
  | { type: "open" }
  | { type: "my_cards" };
