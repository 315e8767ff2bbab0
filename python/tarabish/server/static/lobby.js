// The lobby: create a table (players and bot levels, the game's style and variants in words,
// the pace) and the list of tables to sit at, watch or replay (docs/PROTOCOL.md, P5.1).
"use strict";

const SEAT_WORDS = ["South", "West", "North", "East"];
const SEAT_ROLES = ["you", "opponent", "partner", "opponent"];
const TARGETS = [[500, "500 points (standard)"], [1000, "1000 points (long)"], [250, "250 points (short)"], [100, "100 points (one or two hands)"]];
const TURN_LIMITS = [["", "No limit"], ["15", "15 seconds"], ["30", "30 seconds"], ["60", "1 minute"]];
const BOT_SPEEDS = [["0.8", "Normal"], ["1.5", "Relaxed"], ["0.3", "Quick"], ["0", "Instant"]];
const DEFAULT_BOT = "heuristic";
const LOBBY_REFRESH_MS = 4000;

function field(form, name) { return form.elements.namedItem(name); }

function seatPicker(seat) {
  const select = el("select", { name: `seat${seat}`, id: `seat${seat}` });
  if (seat === 0) select.add(new Option("You", "you"));
  select.add(new Option(seat === 0 ? "Open seat (watch)" : "Open seat (a friend joins)", "open"));
  for (const level of BOT_LEVELS) select.add(new Option(`${level.name} bot`, level.spec));
  select.value = seat === 0 ? "you" : DEFAULT_BOT;
  const role = seat === 0 ? "you" : SEAT_ROLES[seat];
  return el("label", { class: `seat-pick at-${POSITIONS[seat]} team-${seat % 2}` },
    el("span", { class: "seat-pick-name", text: `${SEAT_WORDS[seat]} \u00b7 ${role}` }), select);
}

function optionsSelect(name, choices) {
  const select = el("select", { name, id: name });
  for (const [value, text] of choices) select.add(new Option(text, value));
  return select;
}

function buildLobbyForm() {
  const form = $("#create");
  if (form.dataset.built) return;
  form.dataset.built = "1";
  const name = el("input", { name: "player-name", id: "lobby-name", maxlength: MAX_NAME, autocomplete: "nickname", placeholder: "Your name", value: savedName() });
  const seats = el("div", { class: "seat-picks" }, [0, 1, 2, 3].map(seatPicker),
    el("div", { class: "seat-picks-table", "aria-hidden": "true" }));
  const levels = el("ul", { class: "levels" }, BOT_LEVELS.map((level) => el("li", {},
    el("strong", { text: level.name }), " ", el("span", { text: level.line }), " ", el("code", { text: level.spec }))));
  const styles = el("div", { class: "styles", role: "radiogroup" }, Object.entries(STYLES).map(([key, style]) =>
    el("label", { class: "style-choice" },
      el("input", { type: "radio", name: "gamestyle", value: key, checked: key === "standard" }),
      el("span", {}, el("strong", { text: style.label }), el("span", { class: "line", text: style.line })))));
  const variants = el("details", { class: "variants" }, el("summary", { text: "More variants" }),
    VARIANTS.map((variant) => el("label", { class: `check${variant.manual ? " manual-only" : ""}` },
      el("input", { type: "checkbox", name: variant.name }), el("span", { text: variant.label }), helpButton(variant.help))));
  form.prepend(
    el("label", { class: "field" }, el("span", { text: "Your name" }), name),
    el("fieldset", {}, el("legend", {}, "Players ", helpButton("bots")), seats, levels),
    el("fieldset", {}, el("legend", {}, "Game ", helpButton("style")), styles,
      el("label", { class: "field" }, el("span", {}, "Play to ", helpButton("target")), optionsSelect("points", TARGETS)), variants),
    el("fieldset", {}, el("legend", {}, "Pace ", helpButton("pace")),
      el("div", { class: "row" },
        el("label", { class: "field" }, el("span", { text: "Time per move" }), optionsSelect("turn", TURN_LIMITS)),
        el("label", { class: "field" }, el("span", { text: "When time runs out" }), optionsSelect("timeout", [["greedy", "a bot plays for you"], ["", "the table waits"]])),
        el("label", { class: "field" }, el("span", { text: "Bot speed" }), optionsSelect("botspeed", BOT_SPEEDS)))),
  );
  const syncStyle = () => form.classList.toggle("manual", field(form, "gamestyle").value === "table");
  for (const radio of $$("input[name=gamestyle]", form)) radio.addEventListener("change", syncStyle);
  syncStyle();
  form.addEventListener("submit", createTable);
}

function requestFromForm(form) {
  const seats = [];
  let mine = null;
  for (let seat = 0; seat < 4; seat++) {
    const choice = field(form, `seat${seat}`).value;
    if (choice === "you") mine = seat;
    seats.push(choice === "you" || choice === "open" ? null : choice);
  }
  const style = field(form, "gamestyle").value;
  const rules = { ...STYLES[style].rules, target: Number(field(form, "points").value) };
  for (const variant of VARIANTS) {
    if (variant.manual && style !== "table") continue;
    if (field(form, variant.name).checked) rules[variant.name] = variant.value === undefined ? true : variant.value;
  }
  const request = { rules, seats, bot_seconds: Number(field(form, "botspeed").value) };
  if (field(form, "turn").value !== "") {
    request.turn_seconds = Number(field(form, "turn").value);
    request.timeout_bot = field(form, "timeout").value || null;
  }
  return { request, mine };
}

async function createTable(event) {
  event.preventDefault();
  const form = event.target;
  const { request, mine } = requestFromForm(form);
  if (mine !== null) {
    const name = field(form, "player-name").value.trim();
    if (!name) { notify("Type your name to sit at the table."); field(form, "player-name").focus(); return; }
    saveName(name);
  }
  await openTable(request, mine);
}

async function openTable(request, mine) {
  const { ok, answer } = await fetchJson("/api/tables", { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(request) });
  if (!ok) { showError(answer); return; }
  location.hash = mine === null ? `#/table/${answer.table}` : `#/table/${answer.table}/seat/${mine}`;
}

function seatWho(seat) {
  if (seat.bot) return `${botLevel(seat.bot)} bot`;
  if (seat.name) return seat.name;
  return seat.taken ? "Player" : "Open";
}

function tableCard(table) {
  const seats = el("ul", { class: "table-seats" }, table.seats.map((seat, index) => {
    const open = !seat.bot && !seat.taken && !table.over;
    return el("li", { class: `team-${index % 2}` },
      el("span", { class: "where", text: SEAT_WORDS[index] }), " ",
      open ? el("a", { class: "sit button small", href: `#/table/${table.table}/seat/${index}` }, "Sit here")
        : el("span", { class: "who", text: seatWho(seat) }));
  }));
  const status = table.over ? `Over: ${table.scores.join(" \u2013 ")}` : `Hand ${table.hand + 1} \u00b7 ${table.scores.join(" \u2013 ")}`;
  const style = table.rules && table.rules.declarations === "manual" ? "Table talk" : "Standard game";
  return el("article", { class: "table-card" },
    el("header", {}, el("h3", { text: table.table }),
      el("span", { class: "tag", text: style }),
      table.practice ? el("span", { class: "tag practice", text: "practice: deals chosen by the creator" }) : null),
    seats,
    el("footer", {}, el("span", { class: "table-status", text: status }),
      table.over ? el("a", { class: "button small", href: `#/replay/${table.table}` }, "Replay")
        : el("a", { class: "button small quiet", href: `#/table/${table.table}` }, "Watch")));
}

async function drawLobby() {
  buildLobbyForm();
  const box = $("#tables");
  const { ok, answer } = await fetchJson("/api/tables");
  if (!ok) { box.replaceChildren(el("p", { class: "empty", text: errorWords(answer) })); return; }
  const tables = Array.isArray(answer) ? answer : answer.tables || [];
  box.replaceChildren(...(tables.length ? tables.map(tableCard) : [el("p", { class: "empty", text: "No tables yet: create one." })]));
}

function startLobby() {
  drawLobby();
  clearInterval(startLobby.timer);
  startLobby.timer = setInterval(() => { if (!$("#lobby").hidden) drawLobby(); else clearInterval(startLobby.timer); }, LOBBY_REFRESH_MS);
}
