// The Activity's page: who the player is (the Embedded App SDK's ready, authorize and
// authenticate, with the code exchanged by the bot's server), then the table over one
// WebSocket. Every path is relative to the page, so it works behind Discord's proxy.

import { DiscordSDK } from "@discord/embedded-app-sdk";

import { drawActions } from "./actions";
import type { PageRequest, ServerMessage } from "./protocol";
import { drawTable, type State, tick } from "./table";
import { setWords, t } from "./words";

const app = document.getElementById("app") as HTMLElement;
const screen = document.getElementById("screen") as HTMLElement;
const tableRoot = document.getElementById("board") as HTMLElement;
const bar = document.getElementById("actions") as HTMLElement;
const toast = document.getElementById("toast") as HTMLElement;

const state: State = {
  me: "",
  view: null,
  viewAt: 0,
  results: null,
  users: new Map(),
  cards: null,
  lines: [],
  justSat: false,
};
const LINES_KEPT = 20;
let socket: WebSocket | null = null;
let hello = "";
let nextId = 1;
let welcomed = false;
let lastError = ""; // a refused session is said in an error just before its socket closes

function show(message: string, action?: { label: string; run: () => void }): void {
  screen.replaceChildren();
  const text = document.createElement("p");
  text.textContent = message;
  screen.append(text);
  if (action) {
    const open = document.createElement("button");
    open.type = "button";
    open.className = "act";
    open.dataset.action = "open";
    open.textContent = action.label;
    open.addEventListener("click", () => {
      open.disabled = true;
      action.run();
    });
    screen.append(open);
  }
  app.classList.add("screen");
}

function say(reason: string): void {
  toast.textContent = reason;
  toast.classList.add("shown");
  window.setTimeout(() => toast.classList.remove("shown"), 5000);
}

function portrait(): boolean {
  return window.innerHeight > window.innerWidth;
}

function redraw(): void {
  app.classList.remove("screen");
  app.classList.toggle("portrait", portrait());
  app.classList.toggle("four", state.cards?.four_colour ?? false);
  drawTable(tableRoot, state, portrait());
  drawActions(bar, state, send);
}

function send(request: PageRequest): void {
  if (socket?.readyState !== WebSocket.OPEN) return;
  socket.send(JSON.stringify({ ...request, id: nextId++ }));
}

function receive(message: ServerMessage): void {
  const now = performance.now();
  switch (message.type) {
    case "welcome":
      setWords(message.words, message.lang);
      document.documentElement.lang = message.lang;
      state.me = message.user_id;
      welcomed = true;
      if (!state.view) {
        show(t("activity_connecting"));
        return;
      }
      break; // the same table in its new language
    case "table": {
      const hand = message.view.hand;
      state.view = message.view;
      state.viewAt = now;
      // A table between hands lists everyone seated; a hand lists those dealt in.
      if (!hand || hand.users.includes(state.me)) state.justSat = false;
      if (hand) {
        // A new hand replaces the last one's results; its players are kept for them.
        if (state.results?.hand_id !== hand.hand_id) state.results = null;
        state.users = new Map([[hand.hand_id, hand.users]]);
      }
      break;
    }
    case "results":
      state.results = message.view;
      if (state.view?.hand?.hand_id === message.view.hand_id) {
        // The hand is over: its results take its place until the table's next view.
        state.view = { ...state.view, hand: null, next_hand_at_in: message.view.next_hand_at_in };
        state.viewAt = now;
      }
      break;
    case "line":
      state.lines = [...state.lines, message.text].slice(-LINES_KEPT);
      break;
    case "cards":
      state.cards = message.view;
      break;
    case "no_table":
      state.view = null;
      state.results = null;
      show(
        t("activity_no_table"),
        message.can_open ? { label: t("activity_open"), run: () => send({ type: "open" }) } : undefined,
      );
      return;
    case "closed":
      state.view = null;
      state.results = null;
      show(t("activity_closed"));
      return;
    case "done":
      if (message.position !== undefined) state.justSat = true;
      if (message.chips !== undefined) state.justSat = false; // he left
      // The bar was disabled by the press; the table's own change, if any, redraws it too.
      if (state.view) drawActions(bar, state, send);
      return;
    case "refused":
    case "error":
      lastError = message.reason;
      say(message.reason);
      // The press disabled its button: offer the choice again.
      if (state.view) drawActions(bar, state, send);
      for (const button of screen.querySelectorAll("button")) button.disabled = false;
      return;
  }
  if (state.view) redraw();
}

function connect(): void {
  const url = new URL("ws", window.location.href);
  url.protocol = url.protocol === "https:" ? "wss:" : "ws:";
  url.search = "";
  const opened = new WebSocket(url);
  socket = opened;
  opened.addEventListener("open", () => opened.send(hello));
  opened.addEventListener("message", (event) => receive(JSON.parse(String(event.data))));
  opened.addEventListener("close", (event) => {
    socket = null;
    // 1008: the server refused the session; anything else is the network, tried again.
    if (event.code === 1008) {
      show(event.reason || lastError || t("activity_disconnected"));
      return;
    }
    if (welcomed) show(t("activity_disconnected"));
    window.setTimeout(connect, 2000);
  });
}

async function start(): Promise<void> {
  const config = (await (await fetch("api/config")).json()) as { client_id: string };
  const sdk = new DiscordSDK(config.client_id);
  await sdk.ready();
  const { code } = await sdk.commands.authorize({
    client_id: config.client_id,
    response_type: "code",
    state: "",
    prompt: "none",
    scope: ["identify"],
  });
  const answer = await fetch("api/token", {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({
      code,
      instance_id: sdk.instanceId,
      channel_id: sdk.channelId,
      guild_id: sdk.guildId,
    }),
  });
  const token = (await answer.json()) as {
    access_token?: string;
    session?: string;
    error?: string;
  };
  if (!answer.ok || !token.access_token || !token.session) {
    show(token.error ?? String(answer.status));
    return;
  }
  await sdk.commands.authenticate({ access_token: token.access_token });
  hello = JSON.stringify({
    type: "hello",
    session: token.session,
    instance_id: sdk.instanceId,
    channel_id: sdk.channelId,
  });
  connect();
}

window.setInterval(() => {
  if (state.view) tick(tableRoot, state);
}, 250);
window.addEventListener("resize", () => {
  if (state.view) redraw();
});
start().catch((error: unknown) => show(error instanceof Error ? error.message : String(error)));
