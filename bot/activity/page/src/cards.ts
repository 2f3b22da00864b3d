// Cards as the pictures draw them (render/cards.py): a white face with the rank and a small
// suit in the top-left index strip that stays visible when cards overlap, a large suit
// bottom right; a back is a blue lattice in a white border. Suit colours come from the
// stylesheet, so the two-colour and four-colour decks are one class on the page.

const SUITS: Record<string, string> = { s: "♠", h: "♥", d: "♦", c: "♣" };

export function rankText(card: string): string {
  const rank = card[0] ?? "?";
  return rank === "T" ? "10" : rank;
}

export function face(card: string, extra = ""): HTMLElement {
  const element = document.createElement("div");
  const suit = card[1] ?? "s";
  element.className = `card face suit-${suit}${extra ? " " + extra : ""}`;
  element.dataset.card = card;
  const rank = document.createElement("span");
  // "10" is the one rank wider than the index strip: narrowed, as the pictures do.
  rank.className = card[0] === "T" ? "rank ten" : "rank";
  rank.textContent = rankText(card);
  const small = document.createElement("span");
  small.className = "pip";
  small.textContent = SUITS[suit] ?? "?";
  const big = document.createElement("span");
  big.className = "big";
  big.textContent = SUITS[suit] ?? "?";
  element.append(rank, small, big);
  return element;
}

export function back(): HTMLElement {
  const element = document.createElement("div");
  element.className = "card back";
  return element;
}
