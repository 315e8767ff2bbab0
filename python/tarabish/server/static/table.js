// The card table (docs/PROTOCOL.md): four seats around the felt, the trick in front of each
// seat, your hand, the auction and play controls, declarations and calls, the hand summary,
// the match-over screen and the score sheet. Drawn from the server's messages only: a
// player's `view` (its table_view, docs/TABLE.md) and the `events` of its seat (EVENTS.md);
// a spectator follows the public events.
"use strict";

const CALL_BASE = 36, PASS = 40, ANNOUNCE = 41, SHOW = 42, BELLA = 43, MISPLAY = 44, THROW = 45;
// A lost connection is tried again after 1 s, then 2, 4 and at most 8 s between tries, each
// wait half of it at random: the pages a restart cut off all at once come back spread out.
const RECONNECT_MS = 1000;
const RECONNECT_MAX_MS = 8000;
const POSITIONS = ["bottom", "left", "top", "right"]; // play goes clockwise, to the left (R2.4)
const SUMMARY_MS = 9000; // a hand summary closes by itself after this long (at least 3 s)
const TAKE_SHOW_MS = 700; // a taken trick stays in view this long, then flies to its winner
const TAKE_FLY_MS = 450;
const CLOCK_TICK_MS = 250;
const LONG_PRESS_MS = 450;
const PENDING_MS = 3000; // the longest an action waits for its answer before another is sent
const PLAY_AGAIN_BOT_SECONDS = 0.8; // the lobby's "Normal" bot speed (a summary does not say it)
const TRUMP_ORDER = "J9ATKQ876"; // R1.2, highest first
const PLAIN_ORDER = "ATKQJ9876";
const SUIT_SORT = "SHCD"; // black and red alternate in the hand

function actionId(text) {
  const [verb, argument] = text.split(" ");
  if (verb === "play") return SUIT_LETTERS.indexOf(argument[1]) * 9 + RANK_LETTERS.indexOf(argument[0]);
  if (verb === "call") return CALL_BASE + SUIT_LETTERS.indexOf(argument);
  return { pass: PASS, announce: ANNOUNCE, show: SHOW, bella: BELLA, misplay: MISPLAY, throw: THROW }[verb];
}

function cardIdOf(card) { return actionId(`play ${card}`); }

// -- the state kept from messages ------------------------------------------------------------

let game = null;

function newGame(table, wantSeat) {
  const saved = JSON.parse(localStorage.getItem(`tarabish:${table}`) || "null");
  return {
    table, wantSeat, socket: null, closed: false, caughtUp: false,
    seat: saved ? saved.seat : null, token: saved ? saved.token : null, name: saved ? saved.name : savedName(),
    seq: 0, view: null, summary: null, log: [], names: [null, null, null, null], seatsKey: "",
    hands: [], current: null, over: null, summaries: [], summaryTimer: null,
    // what the public events say (a spectator's table; the score line for everyone)
    dealer: null, trump: null, caller: null, trick: [], leader: null, lastTrick: null, toMove: null,
    played: [0, 0, 0, 0], passed: [], scores: [0, 0], announced: [null, null, null, null], shownRuns: [[], [], [], []],
    taken: null, turnSince: performance.now(), showLast: false, pendingSince: 0, retries: 0,
  };
}

function connect() {
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  const socket = new WebSocket(`${scheme}://${location.host}/ws`);
  game.socket = socket;
  let opened = false;
  socket.onopen = () => {
    opened = true;
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
      setStatus("reconnecting\u2026");
      if (!opened) explainRefusal(game);
      const wait = Math.min(RECONNECT_MAX_MS, RECONNECT_MS * 2 ** game.retries);
      game.retries += 1;
      setTimeout(() => { if (game && game.socket === socket) connect(); }, wait / 2 + Math.random() * wait / 2);
    }
  };
}

// A WebSocket the server refuses at its handshake only closes: the page cannot read why. The
// same checks answer a request the page can read (docs/PROTOCOL.md P6.5), and the status line
// says why while the page goes on trying.
async function explainRefusal(current) {
  let reason;
  try {
    const { ok, answer } = await fetchJson("/api/connection", {
      method: "POST", headers: { "Content-Type": "application/json" }, body: "{}" });
    if (ok) return;
    reason = answer && answer.status === "stopping" ? ERROR_WORDS.stopping : errorWords(answer || {});
  } catch (error) {
    reason = ERROR_WORDS.unreachable;
  }
  // Unless the page has left the table or connected again meanwhile.
  if (game === current && current.socket.readyState !== WebSocket.OPEN) {
    setStatus(`reconnecting\u2026 ${reason}`);
  }
}

// One action at a time: a second click before the server's answer (a double click) is not
// sent, which would be refused as out of turn.
function send(text) {
  if (!game || !game.socket || game.socket.readyState !== WebSocket.OPEN) return;
  if (game.pendingSince && performance.now() - game.pendingSince < PENDING_MS) return;
  game.pendingSince = performance.now();
  game.socket.send(JSON.stringify({ type: "action", action: actionId(text) }));
}

function receive(message) {
  if (message.type === "events" || message.type === "error") game.pendingSince = 0;
  switch (message.type) {
    case "welcome":
      game.retries = 0;
      game.seat = message.seat;
      if (message.token) {
        game.token = message.token;
        localStorage.setItem(`tarabish:${game.table}`, JSON.stringify({ seat: game.seat, token: game.token, name: game.name }));
      }
      if (game.token && game.name) sendName();
      break;
    case "table": {
      game.summary = message;
      const seatsKey = JSON.stringify(message.seats.map((seat) => seat.taken));
      if (seatsKey !== game.seatsKey) { game.seatsKey = seatsKey; readNames(); }
      break;
    }
    case "events":
      for (const event of message.events) { game.seq = event.seq; follow(event); }
      if (message.events.length) game.turnSince = performance.now(); // the server's clock restarts on every action
      if (message.view) game.view = message.view;
      game.caughtUp = true;
      break;
    case "error":
      showError(message);
      if (message.code === "bad_token") {
        localStorage.removeItem(`tarabish:${game.table}`);
        game.token = null; game.seat = null; game.wantSeat = null;
      } else if (message.code === "seat_taken") {
        game.wantSeat = null;
      }
      if (message.code === "bad_token" || message.code === "seat_taken") game.socket.close();
      return;
  }
  drawGame();
}

// -- names and teams -------------------------------------------------------------------------

// Names are set with the seat's token and read by everyone (docs/PROTOCOL.md P5.4).
async function sendName() {
  const current = game;
  const { ok, answer } = await fetchJson(`/api/tables/${current.table}/names`, {
    method: "POST", headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ token: current.token, name: current.name }) });
  if (ok && game === current) { game.names = answer.names; drawGame(); }
}

async function readNames() {
  const current = game;
  const { ok, answer } = await fetchJson(`/api/tables/${current.table}/names`);
  if (ok && game === current) { game.names = answer.names; drawGame(); }
}

function seated() { return game.seat !== null && game.seat !== undefined; }

function seatName(seat) {
  if (seat === game.seat) return game.name || "You";
  const about = game.summary ? game.summary.seats[seat] : null;
  if (about && about.bot) return `${botLevel(about.bot)} bot`;
  if (game.names[seat]) return game.names[seat];
  return about && about.taken ? "Player" : "Open seat";
}

// A seat in a sentence: "You", a person's name, or a bot with its place ("West (Easy bot)"),
// since several bots share a name.
function seatSubject(seat) {
  if (seat === game.seat) return "You";
  const about = game.summary ? game.summary.seats[seat] : null;
  return about && about.bot ? `${SEAT_WORDS[seat]} (${seatName(seat)})` : seatName(seat);
}

function teamName(team) {
  if (!seated()) return team === 0 ? "North\u2013South" : "East\u2013West";
  return team === game.seat % 2 ? "Us" : "Them";
}

function teamSubject(team) {
  if (!seated()) return team === 0 ? "North\u2013South" : "East\u2013West";
  return team === game.seat % 2 ? "Your team" : "The other team";
}

function bottomSeat() { return seated() ? game.seat : 0; }
function positionOf(seat) { return POSITIONS[(seat - bottomSeat() + 4) % 4]; }

// -- events ----------------------------------------------------------------------------------

function describe(event) {
  const who = (seat) => seatSubject(seat);
  switch (event.kind) {
    case "hand_start": return `Hand ${event.hand + 1}: ${who(event.dealer)} ${event.dealer === game.seat ? "deal" : "deals"}.`;
    case "deal": return null;
    case "pass": return `${who(event.seat)} passed.`;
    case "call": return `${who(event.seat)} called ${SUIT_NAMES[event.suit]} trump.`;
    case "kitty": return null;
    case "announce": return `${who(event.seat)} announced a ${event.size === 50 ? "fifty" : "twenty"}.`;
    case "show": return `${who(event.seat)} showed ${event.cards.map(cardShort).join(" ")}${event.late ? " (a late twenty)" : ""}.`;
    case "bella": return event.counts ? `${who(event.seat)}: bella!` : `${who(event.seat)} called bella too early: it does not count.`;
    case "play": return null;
    case "trick": return `${who(event.winner)} took trick ${event.trick + 1} (${event.points} points).`;
    case "runs": return event.seat === null ? "No runs count this hand." : `${who(event.seat)} scored the runs: ${event.points} points.`;
    case "misplay": return `${who(event.seat)} called a misplay: ${event.correct ? "right" : "wrong"}. ${teamName(event.team)} score ${event.count}.`;
    case "throw": return `${who(event.seat)} threw the hand in. ${teamName(event.team)} score ${event.count}.`;
    case "hand_over": return `Hand over: ${OUTCOMES[event.result.outcome].toLowerCase()}${event.result.score ? `, ${event.result.score[0]} \u2013 ${event.result.score[1]}` : ""}.`;
    case "match_over": return `${teamName(event.winner)} won the match, ${event.scores[0]} \u2013 ${event.scores[1]}.`;
    default: return null;
  }
}

function follow(event) {
  const line = describe(event);
  if (line) game.log.push(line);
  switch (event.kind) {
    case "hand_start":
      Object.assign(game, { trick: [], leader: null, lastTrick: null, trump: null, caller: null, taken: null,
        dealer: event.dealer, scores: event.scores, toMove: (event.dealer + 1) % 4, played: [0, 0, 0, 0], passed: [],
        announced: [null, null, null, null], shownRuns: [[], [], [], []] });
      game.current = { hand: event.hand, dealer: event.dealer, before: event.scores, result: null };
      game.hands.push(game.current);
      break;
    case "pass": game.toMove = (event.seat + 1) % 4; game.passed.push(event.seat); break;
    case "call":
      Object.assign(game, { trump: event.suit, caller: event.seat, toMove: (game.dealer + 1) % 4, leader: (game.dealer + 1) % 4 });
      break;
    case "announce": game.announced[event.seat] = event.size; break;
    case "show": game.shownRuns[event.seat] = event.cards; break;
    case "play":
      if (game.trick.length === 0) game.leader = event.seat;
      game.trick.push(event.card);
      game.played[event.seat] += 1;
      game.toMove = (event.seat + 1) % 4;
      game.taken = null;
      break;
    case "trick":
      game.lastTrick = { leader: event.leader, cards: event.cards, winner: event.winner, points: event.points };
      game.trick = []; game.leader = event.winner; game.toMove = event.winner;
      if (game.caughtUp && settings.animations) game.taken = { ...game.lastTrick, at: performance.now() };
      break;
    case "hand_over": {
      game.toMove = null;
      const hand = game.current;
      hand.result = event.result;
      hand.after = event.result.score ? [hand.before[0] + event.result.score[0], hand.before[1] + event.result.score[1]] : hand.before;
      game.scores = hand.after;
      if (game.caughtUp) game.summaries.push(hand);
      break;
    }
    case "match_over":
      game.toMove = null;
      game.over = { winner: event.winner, scores: event.scores };
      game.scores = event.scores;
      break;
  }
}

// -- drawing ---------------------------------------------------------------------------------

function turnClock(seat) {
  const summary = game.summary;
  if (!summary || summary.turn_seconds === null || summary.turn_seconds === undefined) return null;
  if (summary.seats[seat] && summary.seats[seat].bot) return null;
  if (summary.paused_for === seat) return 0;
  return summary.turn_seconds - (performance.now() - game.turnSince) / 1000;
}

function drawSeat(seat, state) {
  const box = $(`#seat-${positionOf(seat)}`);
  const team = seat % 2;
  const name = seatName(seat);
  const chips = [el("span", { class: "compass", text: SEAT_WORDS[seat] })];
  if (seat !== game.seat && state.sizes[seat]) chips.push(el("span", { class: "count", text: `${state.sizes[seat]} cards` }));
  chips.push(...dealerCallerChips(seat, state.dealer, state.caller, state.trump));
  if (state.passed.includes(seat)) chips.push(el("span", { class: "chip said" }, "Passed"));
  const size = state.announced[seat];
  if (size) chips.push(el("span", { class: "chip said" }, size === 50 ? "Fifty" : "Twenty"));
  const about = game.summary ? game.summary.seats[seat] : null;
  if (about && !about.bot && about.taken && !about.online && seat !== game.seat) chips.push(el("span", { class: "chip away" }, "Away"));
  const toMove = seat === state.toMove;
  const clock = toMove ? turnClock(seat) : null;
  const mark = toMove ? el("span", { class: "turn-mark", text: clock === null ? "to play" : clockText(clock), dataset: { clock: clock === null ? "" : "1" } }) : null;
  const plate = seatPlate({ name: seat === game.seat ? `${name} (you)` : name, team, teamText: teamName(team), chips, mark });
  const backs = el("div", { class: "backs", "aria-label": `${state.sizes[seat]} cards` });
  if (seat !== game.seat || !game.view) for (let i = 0; i < state.sizes[seat]; i++) backs.append(cardBack());
  box.replaceChildren(plate, backs);
  box.className = `seat at-${positionOf(seat)} team-${team}${toMove ? " to-move" : ""}`;
  box.dataset.seat = seat;
}

function drawTrick(state) {
  const trick = $("#trick");
  const now = performance.now();
  let cards = state.trick, leader = state.leader, taking = null;
  if (!cards.length && game.taken && now - game.taken.at < TAKE_SHOW_MS + TAKE_FLY_MS) {
    ({ cards, leader } = game.taken);
    taking = game.taken;
    setTimeout(drawGame, TAKE_SHOW_MS + TAKE_FLY_MS - (now - game.taken.at) + 20);
  }
  // Keep the cards already on the table (only a new card slides in).
  const shown = $$(".card", trick).map((element) => element.dataset.card);
  const keep = shown.length <= cards.length && shown.every((card, index) => card === cards[index]) && trick.dataset.leader === String(leader);
  if (!keep) trick.replaceChildren();
  cards.forEach((card, index) => {
    if (keep && index < shown.length) return;
    const element = cardFace(card);
    element.classList.add(`from-${positionOf((leader + index) % 4)}`);
    if (keep && game.caughtUp) element.classList.add("fresh");
    trick.append(element);
  });
  trick.dataset.leader = String(leader);
  trick.classList.remove("taken", "to-bottom", "to-top", "to-left", "to-right");
  if (taking) {
    if (now - taking.at >= TAKE_SHOW_MS) trick.classList.add("taken", `to-${positionOf(taking.winner)}`);
    else setTimeout(drawGame, TAKE_SHOW_MS - (now - taking.at) + 10);
  }
}

function publicState() {
  const view = game.view;
  const over = game.over !== null;
  if (view) {
    return {
      dealer: view.dealer, trump: view.trump, caller: view.caller, trick: view.trick, leader: view.trick_leader,
      lastTrick: view.last_trick, toMove: over ? null : view.to_move, sizes: view.hand_sizes,
      points: view.points, tricksWon: view.tricks_won, phase: view.phase, announced: view.announced,
      passed: view.phase === "auction" ? view.auction.filter((text) => text.endsWith(" pass")).map((text) => Number(text.split(" ")[0])) : [],
    };
  }
  const sizes = [0, 1, 2, 3].map((seat) => (game.dealer === null || over ? 0 : 9 - game.played[seat]));
  return { dealer: game.dealer, trump: game.trump, caller: game.caller, trick: game.trick, leader: game.leader,
    lastTrick: game.lastTrick, toMove: over ? null : game.toMove, sizes, points: null, tricksWon: null, phase: null,
    announced: game.announced, passed: game.trump ? [] : game.passed };
}

function statusLine(state) {
  if (game.over) return `Match over \u00b7 ${teamName(game.over.winner)} won`;
  const summary = game.summary;
  if (summary && summary.paused_for !== null && summary.paused_for !== undefined) {
    return `Waiting for ${seatName(summary.paused_for)}: out of time`;
  }
  if (state.toMove === null || state.toMove === undefined) return "";
  const mine = state.toMove === game.seat;
  if (state.phase === "auction" || (!state.trump && state.dealer !== null)) {
    return mine ? "Your turn: call trump or pass" : `${seatName(state.toMove)} is choosing trump`;
  }
  return mine ? "Your turn: play a card" : `${seatName(state.toMove)} to play`;
}

function drawCentre(state) {
  const info = $("#centre-info");
  const parts = [];
  if (state.trump) {
    parts.push(trumpBadge(state.trump));
  }
  const line = statusLine(state);
  if (line) parts.push(el("div", { class: "status-line", text: line }));
  info.replaceChildren(...parts);
  info.dataset.toMove = state.toMove === null || state.toMove === undefined ? "" : state.toMove;
}

function scoreRow(label, values, extra = "") {
  const mine = seated() ? game.seat % 2 : 0;
  return el("tr", { class: extra }, el("th", { scope: "row", text: label }),
    el("td", { text: String(values[mine]) }), el("td", { text: String(values[1 - mine]) }));
}

function drawScores(state) {
  const mine = seated() ? game.seat % 2 : 0;
  const target = game.summary && game.summary.rules ? game.summary.rules.target || 500 : 500;
  const rows = [scoreRow("Match", game.scores, "match")];
  if (state.points && !game.over) rows.push(scoreRow("This hand", state.points));
  if (state.tricksWon && !game.over) rows.push(scoreRow("Tricks", state.tricksWon));
  $("#scores").replaceChildren(
    el("table", { class: "scoreboard" },
      el("thead", {}, el("tr", {}, el("th", { text: `to ${target}` }),
        el("th", { class: `team-${mine}`, text: teamName(mine) }), el("th", { class: `team-${1 - mine}`, text: teamName(1 - mine) }))),
      el("tbody", {}, rows)));
}

function drawMiniScore() {
  const mine = seated() ? game.seat % 2 : 0;
  $("#mini-score").replaceChildren(
    el("span", { class: `team-${mine}`, text: `${teamName(mine)} ${game.scores[mine]}` }), " \u00b7 ",
    el("span", { class: `team-${1 - mine}`, text: `${teamName(1 - mine)} ${game.scores[1 - mine]}` }));
}

function drawDeclarations() {
  const items = [];
  const view = game.view;
  const announced = view ? view.announced : game.announced;
  const shown = view ? view.shown : game.shownRuns;
  announced.forEach((size, seat) => {
    if (size === null) return;
    const cards = shown[seat] || [];
    items.push(el("li", {}, el("strong", { text: `${seatSubject(seat)}: ` }),
      `a ${size === 50 ? "fifty" : "twenty"}`, cards.length ? ", shown " : "", ...cards.map(cardInline)));
  });
  if (view && view.bella !== null) items.push(el("li", {}, el("strong", { text: `${seatSubject(view.bella)}: ` }), "bella"));
  if (view && view.bella_forfeited !== null) items.push(el("li", {}, el("strong", { text: `${seatSubject(view.bella_forfeited)}: ` }), "bella lost (called too early)"));
  $("#declarations").replaceChildren(...(items.length ? items : [el("li", { class: "empty", text: "None yet" })]));
}

function drawLastTrick(state) {
  const box = $("#last-trick");
  const button = $("#last-trick-button");
  button.disabled = !state.lastTrick;
  button.setAttribute("aria-expanded", String(game.showLast && !!state.lastTrick));
  box.hidden = !(game.showLast && state.lastTrick);
  if (box.hidden) return;
  const last = state.lastTrick;
  box.replaceChildren(
    el("div", { class: "last-cards" }, last.cards.map((card, index) => {
      const face = cardFace(card);
      face.classList.add(`from-${positionOf((last.leader + index) % 4)}`);
      return face;
    })),
    el("p", { text: `${seatSubject(last.winner)} took it, ${last.points} points.` }));
}

function drawLog() {
  const log = $("#log");
  while (log.children.length < game.log.length) log.append(el("li", { text: game.log[log.children.length] }));
  log.scrollTop = log.scrollHeight;
}

// -- your hand and your controls ---------------------------------------------------------------

function strength(card, trump) {
  const order = card[1] === trump ? TRUMP_ORDER : PLAIN_ORDER;
  return order.indexOf(card[0]);
}

// Trump first, then the suits alternating black and red, as a player sorts a hand.
function suitOrder(trump) {
  if (!trump) return SUIT_SORT;
  const red = (suit) => suit === "D" || suit === "H";
  const other = [...SUIT_SORT].filter((suit) => red(suit) !== red(trump));
  const same = [...SUIT_SORT].filter((suit) => suit !== trump && red(suit) === red(trump));
  return trump + other[0] + same[0] + other[1];
}

function sortedHand(cards, trump) {
  const suits = suitOrder(trump);
  return [...cards].sort((a, b) => suits.indexOf(a[1]) - suits.indexOf(b[1]) || strength(a, trump) - strength(b, trump));
}

// Why a card would be a misplay now (R5.1), in words.
function misplayReason(card, view) {
  const trick = view.trick;
  if (!trick.length) return "";
  const led = trick[0][1], trump = view.trump;
  const holds = (suit) => view.hand.some((c) => c[1] === suit);
  if (card[1] !== led && holds(led)) return `You must follow ${SUIT_NAMES[led]}.`;
  if (card[1] === led && led === trump) return "You must beat the highest trump in the trick.";
  if (card[1] === led) return `You must beat the highest ${SUIT_NAMES[led]} in the trick.`;
  if (card[1] !== trump && holds(trump)) return `You have no ${SUIT_NAMES[led]}: you must play a trump.`;
  if (card[1] === trump) return "You must beat the highest trump in the trick.";
  return "This card breaks the rules of play here.";
}

// Runs of a hand (R4.1, natural order): the best one's size, 50 or 20, or 0.
function bestRunSize(cards) {
  let best = 0;
  for (const suit of SUIT_LETTERS) {
    let length = 0;
    for (const rank of RANK_LETTERS) {
      length = cards.includes(rank + suit) ? length + 1 : 0;
      if (length >= 4) best = 50;
      else if (length === 3 && best < 20) best = 20;
    }
  }
  return best;
}

function addLongPress(element) {
  let timer = null;
  element.addEventListener("pointerdown", (event) => {
    if (event.pointerType === "mouse") return;
    timer = setTimeout(() => { element.classList.add("show-reason"); element.dataset.pressed = "1"; }, LONG_PRESS_MS);
  });
  const stop = () => { clearTimeout(timer); setTimeout(() => element.classList.remove("show-reason"), 1800); };
  element.addEventListener("pointerup", stop);
  element.addEventListener("pointerleave", stop);
  element.addEventListener("contextmenu", (event) => event.preventDefault());
}

function drawHand(view) {
  const hand = $("#hand");
  const focused = document.activeElement && hand.contains(document.activeElement) ? document.activeElement.dataset.card : null;
  hand.replaceChildren();
  if (!view) {
    hand.append(el("p", { class: "watching", text: game.over ? "" : "You are watching this table." }));
    return;
  }
  const allowed = new Set(view.allowed), legal = new Set(view.legal);
  const myPlay = view.hand.some((card) => allowed.has(cardIdOf(card)));
  for (const card of sortedHand(view.hand, view.trump)) {
    const id = cardIdOf(card);
    const button = cardFace(card, "button");
    button.type = "button";
    button.dataset.legal = String(legal.has(id));
    let reason = "";
    if (allowed.has(id)) {
      button.dataset.action = `play ${card}`;
      if (legal.has(id)) button.classList.add("legal");
      else {
        button.classList.add("risky");
        reason = misplayReason(card, view);
      }
      button.addEventListener("click", () => {
        if (button.dataset.pressed) { delete button.dataset.pressed; return; }
        send(`play ${card}`);
      });
    } else {
      button.setAttribute("aria-disabled", "true");
      button.classList.add("unplayable");
      if (myPlay) reason = misplayReason(card, view);
      button.addEventListener("click", () => { if (reason) notify(`${cardName(card)}: ${reason}`, "info"); });
    }
    if (reason) {
      button.append(el("span", { class: "reason", role: "tooltip", text: allowed.has(id) ? `Misplay: ${reason}` : reason }));
      button.setAttribute("aria-label", `${cardName(card)}. ${allowed.has(id) ? "Misplay" : "Not now"}: ${reason}`);
      addLongPress(button);
    }
    hand.append(button);
  }
  for (let i = 0; i < view.unseen_kitty; i++) {
    const back = cardBack();
    back.classList.add("kitty");
    hand.append(back);
  }
  hand.classList.toggle("my-turn", myPlay);
  if (focused) {
    const again = $(`[data-card="${focused}"]`, hand);
    if (again) again.focus();
  }
}

function actionButton(text, label, { kind = "", help = null, confirm = null, note = null } = {}) {
  const button = el("button", { type: "button", class: `button action ${kind}`, dataset: { action: text } }, label);
  button.addEventListener("click", async () => {
    if (confirm && !(await confirmDialog(confirm()))) return;
    send(text);
  });
  return el("span", { class: "action-wrap" }, button, note ? el("span", { class: "action-note", text: note }) : null, help ? helpButton(help) : null);
}

function windowNote(view) {
  const clock = turnClock(game.seat);
  return clock === null ? "before your card" : `before your card \u00b7 ${clockText(clock)} left`;
}

function countNow(view) {
  return 162 + (view.bella !== null ? 20 : 0);
}

function drawActions(view) {
  const box = $("#actions");
  box.replaceChildren();
  if (!view || game.over) return;
  const allowed = new Set(view.allowed);
  const calls = [];
  for (const suit of SUIT_LETTERS) {
    if (allowed.has(CALL_BASE + SUIT_LETTERS.indexOf(suit))) {
      calls.push(actionButton(`call ${suit}`, [el("span", { class: `suit-${suit} big-suit`, "aria-hidden": "true", text: SUIT_SYMBOLS[suit] }), ` ${SUIT_NAMES[suit]}`], { kind: `call suit-${suit}` }));
    }
  }
  if (allowed.has(PASS)) calls.push(actionButton("pass", "Pass", { kind: "quiet" }));
  if (calls.length) box.append(el("div", { class: "action-group" }, el("span", { class: "action-title", text: "Name trump" }), ...calls, helpButton("auction")));
  const declarations = [];
  if (allowed.has(ANNOUNCE)) {
    const size = bestRunSize(view.hand);
    declarations.push(actionButton("announce", `Announce ${size === 50 ? "a fifty" : "a twenty"}`, { kind: "declare", help: "announce", note: windowNote(view) }));
  }
  if (allowed.has(SHOW)) declarations.push(actionButton("show", "Show your runs", { kind: "declare", help: "show", note: windowNote(view) }));
  if (allowed.has(BELLA)) declarations.push(actionButton("bella", "Bella", { kind: "declare", help: "bellaCall", note: windowNote(view) }));
  if (declarations.length) box.append(el("div", { class: "action-group" }, ...declarations));
  const tableCalls = [];
  if (allowed.has(MISPLAY)) {
    tableCalls.push(actionButton("misplay", "Call misplay", { kind: "quiet call-out", help: "misplay", confirm: () => ({
      title: "Call a misplay?",
      text: `If a player of the other team has played a card against the rules this hand, your team scores the whole hand (${countNow(view)} points or more). If no one has, the other team scores it. The hand ends either way.`,
      confirm: "Call misplay", danger: true }) }));
  }
  if (allowed.has(THROW)) {
    tableCalls.push(actionButton("throw", "Throw in", { kind: "quiet call-out", help: "throw", confirm: () => ({
      title: "Throw the hand in?",
      text: `The hand ends now and the other team scores the whole hand (${countNow(view)} points or more). Your team scores nothing for it.`,
      confirm: "Throw in", danger: true }) }));
  }
  if (tableCalls.length) box.append(el("div", { class: "action-group calls" }, ...tableCalls));
}

// -- the hand summary, the match-over screen and the score sheet -------------------------------

function teamParts(result) {
  const parts = { cards: [0, 0], last: [0, 0], runs: [0, 0], bella: [0, 0] };
  result.tricks.forEach((trick, index) => {
    const team = trick.winner % 2;
    if (index === 8) { parts.last[team] += 10; parts.cards[team] += trick.points - 10; } else parts.cards[team] += trick.points;
  });
  if (result.runs && result.runs.seat !== null) parts.runs[result.runs.seat % 2] += result.runs.points;
  if (result.bella !== null && result.bella !== undefined) parts.bella[result.bella % 2] += 20;
  return parts;
}

function outcomeSentence(hand) {
  const result = hand.result;
  const callers = result.caller === null || result.caller === undefined ? null : result.caller % 2;
  const trump = result.trump ? SUIT_NAMES[result.trump] : "";
  switch (result.outcome) {
    case "made": return `${seatSubject(result.caller)} called ${trump} and made it: both teams score their points.`;
    case "bait": return `${seatSubject(result.caller)} called ${trump} and took fewer points: bait! ${teamSubject(1 - callers)} scores the whole count.`;
    case "half_bait": return `Equal points: half bait. ${teamSubject(callers)} scores nothing for it.`;
    case "misplay": {
      const call = result.call || {};
      return `${seatSubject(call.seat)} called a misplay. The call was ${call.correct ? "right" : "wrong"}: ${teamSubject(call.team)} scores the whole hand.`;
    }
    case "throw_in": return `${seatSubject((result.call || {}).seat)} threw the hand in: ${teamSubject((result.call || {}).team)} scores the whole hand.`;
    case "void": return "Everyone passed: no trump, no score. The next dealer deals.";
    default: return "";
  }
}

function summaryTable(hand) {
  const result = hand.result;
  const mine = seated() ? game.seat % 2 : 0;
  const row = (label, values, kind = "") => el("tr", { class: kind }, el("th", { scope: "row", text: label }),
    el("td", { text: String(values[mine]) }), el("td", { text: String(values[1 - mine]) }));
  const rows = [];
  if (result.tricks && result.tricks.length) {
    const parts = teamParts(result);
    rows.push(row("Cards", parts.cards), row("Last ten", parts.last), row("Runs", parts.runs), row("Bella", parts.bella));
  }
  if (result.points) rows.push(row("Points", result.points, "sum"));
  if (result.score) rows.push(row("Score", result.score, "score"));
  rows.push(el("tr", { class: "match" }, el("th", { scope: "row", text: "Match" }),
    el("td", { text: `${hand.before[mine]} \u2192 ${hand.after[mine]}` }), el("td", { text: `${hand.before[1 - mine]} \u2192 ${hand.after[1 - mine]}` })));
  return el("table", { class: "summary-table" },
    el("thead", {}, el("tr", {}, el("th", {}), el("th", { class: `team-${mine}`, text: teamName(mine) }), el("th", { class: `team-${1 - mine}`, text: teamName(1 - mine) }))),
    el("tbody", {}, rows));
}

function closeSummary() {
  const panel = $("#hand-summary");
  if (panel) panel.remove();
  clearTimeout(game.summaryTimer);
  game.summaryTimer = null;
  drawOverlays();
}

function drawOverlays() {
  const overlay = $("#overlay");
  if ($("#hand-summary")) return;
  if (game.summaries.length) {
    const hand = game.summaries.shift();
    const result = hand.result;
    const score = result.score || [0, 0];
    const outcome = OUTCOMES[result.outcome];
    const panel = el("section", { id: "hand-summary", class: "panel summary", role: "dialog", "aria-label": "Hand summary", dataset: { scores: `${score[0]},${score[1]}` } },
      el("header", {}, el("h2", {}, `Hand ${hand.hand + 1}: `, el("span", { class: `outcome ${result.outcome}`, text: outcome })), helpButton("scoring")),
      el("p", { class: "outcome-line", text: outcomeSentence(hand) }),
      summaryTable(hand),
      el("div", { class: "dialog-buttons" }, el("button", { type: "button", class: "button primary", dataset: { close: "" }, onclick: closeSummary }, game.over && !game.summaries.length ? "See the result" : "Next hand")));
    overlay.replaceChildren(panel);
    game.summaryTimer = setTimeout(closeSummary, SUMMARY_MS);
    return;
  }
  if (game.over && !$("#match-over")) overlay.replaceChildren(matchOver());
  else if (!game.over) overlay.replaceChildren();
}

function scoreSheet() {
  const mine = seated() ? game.seat % 2 : 0;
  const cell = (score, total) => el("td", { class: "num" }, el("span", { class: "hand-score", text: String(score) }),
    el("span", { class: "running", text: String(total) }));
  const rows = game.hands.filter((hand) => hand.result).map((hand) => {
    const result = hand.result;
    const score = result.score || [0, 0];
    const caller = result.caller !== null && result.caller !== undefined ? seatName(result.caller) : "";
    return el("tr", {},
      el("td", { text: String(hand.hand + 1) }),
      el("td", { class: "trump-cell" }, result.trump ? suitInline(result.trump) : "\u2013", el("span", { class: "caller-name", text: caller })),
      el("td", { text: OUTCOMES[result.outcome] }),
      cell(score[mine], hand.after[mine]), cell(score[1 - mine], hand.after[1 - mine]));
  });
  return el("table", { class: "score-sheet" },
    el("thead", {}, el("tr", {}, el("th", { text: "Hand" }), el("th", { text: "Trump" }), el("th", { text: "Result" }),
      el("th", { class: `num team-${mine}`, text: teamName(mine) }), el("th", { class: `num team-${1 - mine}`, text: teamName(1 - mine) }))),
    el("tbody", {}, rows.length ? rows : [el("tr", {}, el("td", { colspan: "5", class: "empty", text: "No hand finished yet." }))]),
    el("tfoot", {}, el("tr", {}, el("th", { colspan: "3", scope: "row", text: "Total" }),
      el("td", { class: "num total", text: String(game.scores[mine]) }), el("td", { class: "num total", text: String(game.scores[1 - mine]) }))));
}

function matchOver() {
  const over = game.over;
  const mine = seated() ? game.seat % 2 : null;
  const headline = mine === null ? `${teamName(over.winner)} won` : over.winner === mine ? "You won the match!" : "They won the match";
  const again = el("button", { type: "button", class: "button primary", onclick: playAgain }, "Play again");
  return el("section", { id: "match-over", class: "panel match-over", role: "dialog", "aria-label": "Match over",
    dataset: { winner: String(over.winner), totals: `${over.scores[0]},${over.scores[1]}` } },
    el("h2", { text: headline }),
    el("p", { class: "final" }, el("span", { class: `team-${mine === null ? 0 : mine}`, text: `${teamName(mine === null ? 0 : mine)} ${over.scores[mine === null ? 0 : mine]}` }),
      " \u2013 ", el("span", { class: `team-${mine === null ? 1 : 1 - mine}`, text: `${over.scores[mine === null ? 1 : 1 - mine]} ${teamName(mine === null ? 1 : 1 - mine)}` })),
    el("div", { class: "sheet-wrap" }, scoreSheet()),
    el("div", { class: "dialog-buttons" },
      el("a", { class: "button quiet", href: `/api/tables/${game.table}/record`, download: `tarabish-${game.table}.json` }, "Download the record"),
      el("a", { class: "button", href: `#/replay/${game.table}` }, "Replay and analysis"),
      again));
}

async function playAgain() {
  const summary = game.summary;
  const seats = summary ? summary.seats.map((seat) => seat.bot) : [null, "heuristic", "heuristic", "heuristic"];
  const request = { rules: summary ? summary.rules : {}, seats };
  if (summary && summary.turn_seconds !== null && summary.turn_seconds !== undefined) {
    request.turn_seconds = summary.turn_seconds;
    request.timeout_bot = summary.timeout_bot;
  }
  request.bot_seconds = summary && summary.bot_seconds !== undefined ? summary.bot_seconds : PLAY_AGAIN_BOT_SECONDS;
  await openTable(request, seated() ? game.seat : null);
}

function openScoreSheet() {
  const dialog = el("dialog", { class: "dialog wide", "aria-label": "Score sheet" },
    el("h2", { text: "Score sheet" }), el("div", { class: "sheet-wrap" }, scoreSheet()),
    el("div", { class: "dialog-buttons" }, el("button", { type: "button", class: "button primary", onclick: () => { dialog.close(); dialog.remove(); } }, "Close")));
  dialog.addEventListener("close", () => dialog.remove());
  document.body.append(dialog);
  dialog.showModal();
}

// -- the whole table ---------------------------------------------------------------------------

function drawGame() {
  if (!game) return;
  const state = publicState();
  for (let seat = 0; seat < 4; seat++) drawSeat(seat, state);
  drawTrick(state);
  drawCentre(state);
  drawScores(state);
  drawMiniScore();
  drawDeclarations();
  drawLastTrick(state);
  drawHand(game.view);
  drawActions(game.view);
  drawLog();
  document.title = seated() && state.toMove === game.seat ? "Your turn \u00b7 Tarabish" : "Tarabish";
  const practice = !!(game.summary && game.summary.practice);
  $("#practice").hidden = !practice;
  $("#table-name").textContent = game.table;
  drawOverlays();
}

function tickClocks() {
  if (!game) return;
  for (const mark of $$(".turn-mark[data-clock='1']")) {
    const seat = Number(mark.closest(".seat").dataset.seat);
    const clock = turnClock(seat);
    if (clock !== null) mark.textContent = clockText(clock);
  }
  for (const note of $$(".action-note")) note.textContent = windowNote(game.view);
}

function setupTable() {
  $("#score-sheet-button").addEventListener("click", openScoreSheet);
  $("#mini-score").addEventListener("click", openScoreSheet);
  $("#last-trick-button").addEventListener("click", () => { game.showLast = !game.showLast; drawGame(); });
  $("#hand").addEventListener("keydown", (event) => {
    if (event.key !== "ArrowLeft" && event.key !== "ArrowRight") return;
    const cards = $$("#hand button.card");
    const index = cards.indexOf(document.activeElement);
    if (index < 0) return;
    event.preventDefault();
    cards[(index + (event.key === "ArrowRight" ? 1 : cards.length - 1)) % cards.length].focus();
  });
  $("#practice").append(helpButton("practice"));
  setInterval(tickClocks, CLOCK_TICK_MS);
}

async function openGame(table, wantSeat) {
  game = newGame(table, wantSeat);
  if (wantSeat !== null && !game.token) {
    let name = savedName();
    if (!name) name = await askName(`in the ${SEAT_WORDS[wantSeat]} seat`);
    if (!game) return;
    if (name === null) game.wantSeat = null;
    else game.name = name;
  }
  drawGame();
  connect();
}

function closeGame() {
  if (!game) return;
  game.closed = true;
  clearTimeout(game.summaryTimer);
  if (game.socket) game.socket.close();
  game = null;
  document.title = "Tarabish";
  $("#log").replaceChildren();
  $("#overlay").replaceChildren();
}
