// The bar under the table: the actor's choices as the message's buttons offer them
// (view.hand.buttons), or the seat's own controls: sit with a buy-in, sit out or back in,
// leave. Every press is one request; the server's refusal comes back worded.

import type { PageRequest } from "./protocol";
import { missingCards, mySeat, seated, sittingOut, type State } from "./table";
import { t } from "./words";

export type Send = (request: PageRequest) => void;

function button(label: string, className: string, onClick: () => void): HTMLButtonElement {
  const element = document.createElement("button");
  element.type = "button";
  element.className = className;
  element.textContent = label;
  element.addEventListener("click", () => {
    // One press, one request: the bar is drawn again from the server's next message.
    element.disabled = true;
    onClick();
  });
  return element;
}

export function drawActions(bar: HTMLElement, state: State, send: Send): void {
  bar.replaceChildren();
  const hand = state.view?.hand;
  if (!state.view) return;
  const mine = mySeat(state);
  if (hand && hand.public.actor !== null && hand.public.actor === mine && hand.buttons.length) {
    bar.className = "actions turn";
    for (const spec of hand.buttons) {
      const label = t(`btn_${spec.action}`, spec.amount === null ? {} : { amount: spec.amount });
      const kind = spec.action === "fold" ? "act fold" : "act";
      const element = button(label, kind, () =>
        send({ type: "act", action: spec.action, amount: spec.amount, hand_id: hand.hand_id, seq: hand.seq }),
      );
      element.dataset.action = spec.action;
      bar.append(element);
    }
    return;
  }
  bar.className = "actions";
  if (!seated(state)) {
    const amount = document.createElement("input");
    amount.type = "number";
    amount.min = "1";
    amount.inputMode = "numeric";
    amount.className = "buy-in";
    amount.placeholder = t("activity_buy_in");
    amount.setAttribute("aria-label", t("activity_buy_in"));
    const sit = button(t("activity_sit"), "seat-control sit", () => {
      const chips = Number.parseInt(amount.value, 10);
      send({ type: "sit", chips: Number.isFinite(chips) ? chips : null });
    });
    sit.dataset.action = "sit";
    bar.append(amount, sit);
    return;
  }
  const out = sittingOut(state);
  if (missingCards(state)) {
    const ask = button(t("btn_cards"), "seat-control", () => send({ type: "my_cards" }));
    ask.dataset.action = "my_cards";
    bar.append(ask);
  }
  const toggle = button(t(out ? "activity_sit_in" : "activity_sit_out"), "seat-control", () =>
    send({ type: "sit_out", out: !out }),
  );
  toggle.dataset.action = out ? "sit_in" : "sit_out";
  const leave = button(t("activity_leave"), "seat-control leave", () => send({ type: "leave" }));
  leave.dataset.action = "leave";
  bar.append(toggle, leave);
}
