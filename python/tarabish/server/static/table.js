// The page of `tarabish serve` (docs/PROTOCOL.md): a lobby to create, join or watch a table,
// and the table itself, drawn from the server's messages only: a player's `view` (its
// table_view, docs/TABLE.md) and the `events` of its seat; a spectator's public events.
"use strict";

const SUITS = "CDHS";
const RANKS = "6789TJQKA";
const SYMBOL = { C: "\u2663", D: "\u2666", H: "\u2665", S: "\u2660" };
const CALL_BASE = 36, PASS = 40, ANNOUNCE = 41, SHOW = 42, BELLA = 43, MISPLAY = 44, THROW = 45;
const RECONNECT_MS = 1000;
const POSITIONS = ["bottom", "left", "top", "right"]; // play goes to the left (R2.3)

const $ = (selector) => document.querySelector(selector);

function cardId(text) { return SUITS.indexOf(text[1]) * 9 + RANKS.indexOf(text[0]); }
function cardLabel(text) { return (text[0] === "T" ? "10" : text[0]) + SYMBOL[text[1]]; }
function cardElement(text, tag = "span") {
  const element = document.createElement(tag);
  element.className = "card suit-" + text[1];
  element.dataset.card = text;
  element.textContent = cardLabel(text);
  return element;
}

// -- the lobby -------------------------------------------------------------------------------

const SEAT_CHOICES = [["you", "You"], ["open", "Open seat"], ["random", "Bot: random"], ["greedy", "Bot: greedy"]];

function drawSeatChoices() {
  const box = $("#seat-choices");
  if (box.querySelector("select")) return;
  for (let seat = 0; seat < 4; seat++) {
    const label = document.createElement("label");
    label.textContent = `Seat ${seat} (team ${seat % 2}) `;
    const select = document.createElement("select");
    select.name = "seat" + seat;
    for (const [value, text] of SEAT_CHOICES) select.add(new Option(text, value));
    select.value = seat === 0 ? "you" : "greedy";
    label.append(select);
    box.append(label);
  }
}

async function drawLobby() {
  drawSeatChoices();
  const response = await fetch("/api/tables");
  const tables = await response.json();
  const body = $("#tables tbody");
  body.replaceChildren();
  for (const table of tables) {
    const row = body.insertRow();
    row.insertCell().textContent = table.table;
    const seats = row.insertCell();
    table.seats.forEach((seat, index) => {
      if (seat.bot) {
        seats.append(`${index}: ${seat.bot} `);
      } else if (!seat.taken && !table.over) {
        const link = document.createElement("a");
        link.href = `#/table/${table.table}/seat/${index}`;
        link.textContent = `sit at ${index}`;
        link.className = "sit";
        seats.append(link, " ");
      } else {
        seats.append(`${index}: ${seat.online ? "player" : "away"} `);
      }
    });
    row.insertCell().textContent = table.over ? `over: team ${table.winner} won` : table.scores.join(" - ");
    const watch = document.createElement("a");
    watch.href = `#/table/${table.table}`;
    watch.textContent = "watch";
    row.insertCell().append(watch);
  }
}

async function createTable(event) {
  event.preventDefault();
  const form = event.target;
  const seats = [];
  let mine = null;
  for (let seat = 0; seat < 4; seat++) {
    const choice = form["seat" + seat].value;
    if (choice === "you" && mine === null) mine = seat;
    seats.push(choice === "you" || choice === "open" ? null : choice);
  }
  const rules = { target: Number(form.target.value) };
  if (form.manual.checked) rules.declarations = "manual";
  if (!form.enforce.checked) rules.enforce_legal_play = false;
  const request = { rules, seats, bot_seconds: Number(form.botdelay.value || 0) };
  if (form.turn.value !== "") {
    request.turn_seconds = Number(form.turn.value);
    request.timeout_bot = form.timeout.value || null;
  }
  const response = await fetch("/api/tables", { method: "POST", body: JSON.stringify(request) });
  const answer = await response.json();
  if (!response.ok) { showError(answer); return; }
  location.hash = mine === null ? `#/table/${answer.table}` : `#/table/${answer.table}/seat/${mine}`;
}

// -- the table -------------------------------------------------------------------------------

let game = null;

function newGame(table, wantSeat) {
  const saved = JSON.parse(localStorage.getItem("tarabish:" + table) || "null");
  return {
    table, wantSeat, socket: null, closed: false,
    seat: saved ? saved.seat : null, token: saved ? saved.token : null,
    seq: 0, view: null, summary: null, calls: [], log: [],
    // a spectator's table, kept from public events
    trick: [], leader: null, lastTrick: null, trump: null, caller: null, dealer: null,
    scores: [0, 0], toMove: null, declarations: [],
  };
}

function connect() {
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  const socket = new WebSocket(`${scheme}://${location.host}/ws`);
  game.socket = socket;
  socket.onopen = () => {
    let hello;
    if (game.token) hello = { type: "resume", table: game.table, token: game.token, since: game.seq };
    else if (game.wantSeat !== null) hello = { type: "join", table: game.table, seat: game.wantSeat };
    else hello = { type: "watch", table: game.table, since: game.seq };
    socket.send(JSON.stringify(hello));
    setStatus("connected");
  };
  socket.onmessage = (message) => receive(JSON.parse(message.data));
  socket.onclose = () => {
    if (game && game.socket === socket && !game.closed) {
      setStatus("reconnecting...");
      setTimeout(() => { if (game && game.socket === socket) connect(); }, RECONNECT_MS);
    }
  };
}

function send(action) {
  if (game && game.socket && game.socket.readyState === WebSocket.OPEN) {
    game.socket.send(JSON.stringify({ type: "action", action }));
  }
}

function receive(message) {
  switch (message.type) {
    case "welcome":
      game.seat = message.seat;
      if (message.token) {
        game.token = message.token;
        localStorage.setItem("tarabish:" + game.table, JSON.stringify({ seat: game.seat, token: game.token }));
      }
      break;
    case "table":
      game.summary = message;
      break;
    case "events":
      for (const event of message.events) { game.seq = event.seq; follow(event); }
      if (message.view) game.view = message.view;
      break;
    case "error":
      showError(message);
      if (message.code === "bad_token") {
        localStorage.removeItem("tarabish:" + game.table);
        game.token = null; game.seat = null; game.wantSeat = null;
      } else if (message.code === "seat_taken") {
        game.wantSeat = null;
      }
      if (message.code === "bad_token" || message.code === "seat_taken") {
        game.socket.close();
      }
      return;
  }
  drawGame();
}

function seatName(seat) {
  return seat === game.seat ? "You" : `Seat ${seat}`;
}

function describe(event) {
  switch (event.kind) {
    case "hand_start": return `Hand ${event.hand + 1}: seat ${event.dealer} deals; scores ${event.scores.join(" - ")}`;
    case "deal": return `You are dealt ${event.cards.map(cardLabel).join(" ")}`;
    case "pass": return `${seatName(event.seat)} passed`;
    case "call": return `${seatName(event.seat)} called ${SYMBOL[event.suit]} trump`;
    case "kitty": return `You took the kitty ${event.cards.map(cardLabel).join(" ")}`;
    case "announce": return `${seatName(event.seat)} announced ${event.size}`;
    case "show": return `${seatName(event.seat)} showed ${event.cards.map(cardLabel).join(" ")}${event.late ? " (late twenty)" : ""}`;
    case "bella": return `${seatName(event.seat)}: bella${event.counts ? "" : " (lost: table talk)"}`;
    case "play": return `${seatName(event.seat)} played ${cardLabel(event.card)}`;
    case "trick": return `${seatName(event.winner)} won trick ${event.trick + 1} (${event.points} points)`;
    case "runs": return event.seat === null ? "No runs count" : `Runs: ${seatName(event.seat)}, ${event.points} points`;
    case "misplay": return `${seatName(event.seat)} called a misplay: ${event.correct ? "correct" : "false"}; team ${event.team} gets ${event.count}`;
    case "throw": return `${seatName(event.seat)} threw the hand in; team ${event.team} gets ${event.count}`;
    case "hand_over": return `Hand over: ${event.result.outcome}${event.result.score ? ", score " + event.result.score.join(" - ") : ""}`;
    case "match_over": return `Team ${event.winner} wins the match ${event.scores.join(" - ")}`;
    default: return event.kind;
  }
}

// What a spectator (or anyone) can follow from public events.
function follow(event) {
  game.log.push(describe(event));
  switch (event.kind) {
    case "hand_start":
      Object.assign(game, { trick: [], leader: null, lastTrick: null, trump: null, caller: null,
        dealer: event.dealer, scores: event.scores, toMove: (event.dealer + 1) % 4, declarations: [] });
      break;
    case "pass": game.toMove = (event.seat + 1) % 4; break;
    case "call":
      Object.assign(game, { trump: event.suit, caller: event.seat, toMove: (game.dealer + 1) % 4, leader: (game.dealer + 1) % 4 });
      break;
    case "play":
      if (game.trick.length === 0) game.leader = event.seat;
      game.trick.push(event.card);
      game.toMove = (event.seat + 1) % 4;
      break;
    case "trick":
      game.lastTrick = { leader: event.leader, cards: event.cards, winner: event.winner, points: event.points };
      game.trick = []; game.leader = event.winner; game.toMove = event.winner;
      break;
    case "announce": case "show": case "bella": case "runs":
      game.declarations.push(describe(event));
      break;
    case "misplay": case "throw":
      game.calls.push(describe(event));
      break;
    case "hand_over": game.toMove = null; break;
    case "match_over": game.toMove = null; break;
  }
}

function actionButton(id, label, kind) {
  const button = document.createElement("button");
  button.textContent = label;
  button.dataset.action = id;
  button.className = kind;
  button.onclick = () => send(id);
  return button;
}

function drawSeats(bottomSeat, toMove, dealer, handSizes) {
  for (let seat = 0; seat < 4; seat++) {
    const box = $("#seat-" + POSITIONS[(seat - bottomSeat + 4) % 4]);
    const about = game.summary ? game.summary.seats[seat] : null;
    const who = about && about.bot ? `bot ${about.bot}` : about && about.taken ? (about.online ? "player" : "away") : "open";
    const parts = [`${seatName(seat)} (team ${seat % 2})`, seat === game.seat ? "" : who];
    if (seat === dealer) parts.push("dealer");
    if (handSizes) parts.push(`${handSizes[seat]} cards`);
    box.textContent = parts.filter(Boolean).join(" \u00b7 ");
    box.classList.toggle("to-move", seat === toMove);
    box.dataset.seat = seat;
  }
}

function drawTrick(bottomSeat, leader, cards) {
  const trick = $("#trick");
  trick.replaceChildren();
  cards.forEach((card, index) => {
    const element = cardElement(card);
    element.classList.add("at-" + POSITIONS[(leader + index - bottomSeat + 8) % 4]);
    trick.append(element);
  });
}

function drawLastTrick(last) {
  const box = $("#last-trick");
  box.replaceChildren();
  if (!last) { box.textContent = "-"; return; }
  last.cards.forEach((card) => box.append(cardElement(card), " "));
  box.append(`won by ${seatName(last.winner)} (${last.points})`);
}

function drawGame() {
  if (!game) return;
  const view = game.view;
  const bottom = game.seat === null ? 0 : game.seat;
  const summary = game.summary;
  const over = summary && summary.over;
  let toMove, trump, caller, dealer;
  if (view) {
    ({ to_move: toMove, trump, caller, dealer } = view);
    drawTrick(bottom, view.trick_leader, view.trick);
    drawLastTrick(view.last_trick);
    $("#scores").textContent = `match ${view.scores.join(" - ")} \u00b7 this hand ${view.points.join(" - ")} \u00b7 tricks ${view.tricks_won.join(" - ")}`;
    const declared = [];
    view.announced.forEach((size, seat) => { if (size !== null) declared.push(`${seatName(seat)} announced ${size}`); });
    view.shown.forEach((cards, seat) => { if (cards.length) declared.push(`${seatName(seat)} showed ${cards.map(cardLabel).join(" ")}`); });
    if (view.bella !== null) declared.push(`bella: ${seatName(view.bella)}`);
    if (view.bella_forfeited !== null) declared.push(`bella lost by ${seatName(view.bella_forfeited)}`);
    $("#declarations").textContent = declared.join("; ") || "-";
  } else {
    ({ toMove, trump, caller, dealer } = game);
    drawTrick(bottom, game.leader, game.trick);
    drawLastTrick(game.lastTrick);
    $("#scores").textContent = `match ${game.scores.join(" - ")}`;
    $("#declarations").textContent = game.declarations.join("; ") || "-";
  }
  if (over) toMove = null;
  drawSeats(bottom, toMove, dealer, view ? view.hand_sizes : null);
  $("#calls").textContent = game.calls.join("; ") || "-";
  const turn = over ? `Match over: team ${summary.winner} won ${summary.scores.join(" - ")}`
    : toMove === null || toMove === undefined ? "" : toMove === game.seat ? "Your turn" : `${seatName(toMove)} to move`;
  const paused = summary && summary.paused_for !== null ? ` (paused for seat ${summary.paused_for})` : "";
  $("#info").textContent = (trump ? `Trump ${SYMBOL[trump]} (${seatName(caller)}) \u00b7 ` : "") + turn + paused;
  $("#info").dataset.toMove = toMove === null || toMove === undefined ? "" : toMove;

  const hand = $("#hand");
  hand.replaceChildren();
  const actions = $("#actions");
  actions.replaceChildren();
  if (view) {
    const allowed = new Set(view.allowed), legal = new Set(view.legal);
    for (const card of view.hand) {
      const button = cardElement(card, "button");
      const id = cardId(card);
      button.dataset.action = id;
      button.disabled = !allowed.has(id);
      if (allowed.has(id) && !legal.has(id)) button.classList.add("misplay");
      button.onclick = () => send(id);
      hand.append(button);
    }
    for (let suit = 0; suit < 4; suit++) {
      if (allowed.has(CALL_BASE + suit)) actions.append(actionButton(CALL_BASE + suit, "Call " + SYMBOL[SUITS[suit]], "call"));
    }
    const named = [[PASS, "Pass"], [ANNOUNCE, "Announce"], [SHOW, "Show"], [BELLA, "Bella"], [MISPLAY, "Call misplay"], [THROW, "Throw in"]];
    for (const [id, label] of named) if (allowed.has(id)) actions.append(actionButton(id, label, "verb"));
  } else {
    hand.textContent = game.seat === null ? "You are watching." : "";
  }
  const log = $("#log");
  while (log.children.length < game.log.length) {
    const item = document.createElement("li");
    item.textContent = game.log[log.children.length];
    log.append(item);
  }
  log.scrollTop = log.scrollHeight;
}

// -- the frame -------------------------------------------------------------------------------

function setStatus(text) { $("#status").textContent = text; }

function showError(error) {
  const box = $("#error");
  box.textContent = `${error.rule ? error.rule + ": " : ""}${error.message}`;
  clearTimeout(showError.timer);
  showError.timer = setTimeout(() => { box.textContent = ""; }, 6000);
}

function route() {
  if (game) { game.closed = true; if (game.socket) game.socket.close(); game = null; }
  const match = location.hash.match(/^#\/table\/([\w-]+)(?:\/seat\/([0-3]))?$/);
  $("#lobby").hidden = !!match;
  $("#game").hidden = !match;
  $("#log").replaceChildren();
  if (!match) { setStatus(""); drawLobby(); return; }
  game = newGame(match[1], match[2] === undefined ? null : Number(match[2]));
  connect();
}

$("#create").addEventListener("submit", createTable);
window.addEventListener("hashchange", route);
route();
