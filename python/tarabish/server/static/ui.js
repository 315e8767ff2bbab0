// Small helpers of the page shared by the lobby, the table and the replay: building elements,
// help popovers (hidden until opened), confirmation and name dialogs, the settings (four-colour
// deck, animations) and passing notices. No inline script or style: everything is built here.
"use strict";

const $ = (selector, root = document) => root.querySelector(selector);
const $$ = (selector, root = document) => [...root.querySelectorAll(selector)];

// el("div", {class: "x", dataset: {card: "JH"}, onclick: f}, child, "text", ...)
function el(tag, attributes = {}, ...children) {
  const element = document.createElement(tag);
  for (const [key, value] of Object.entries(attributes || {})) {
    if (value === null || value === undefined || value === false) continue;
    if (key === "class") element.className = value;
    else if (key === "dataset") Object.assign(element.dataset, value);
    else if (key.startsWith("on")) element.addEventListener(key.slice(2), value);
    else if (key === "text") element.textContent = value;
    else element.setAttribute(key, value === true ? "" : value);
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    element.append(child);
  }
  return element;
}

// A "?" button that opens a popover with the rule in words and its id.
let helpCount = 0;
function helpButton(key, label = "About this rule") {
  const [text, rules] = HELP[key];
  const id = `help-${++helpCount}`;
  const popover = el("div", { class: "popover", id, role: "note", hidden: true },
    el("p", { text }), rules ? el("p", { class: "rule-ref", text: `In the rules: ${rules}` }) : null);
  const button = el("button", {
    type: "button", class: "help", "aria-label": label, "aria-expanded": "false", "aria-controls": id,
    onclick: (event) => {
      event.preventDefault();
      event.stopPropagation();
      const opening = popover.hidden;
      closePopovers();
      popover.hidden = !opening;
      button.setAttribute("aria-expanded", String(opening));
    },
  }, "?");
  return el("span", { class: "help-wrap" }, button, popover);
}

function closePopovers() {
  for (const popover of $$(".popover:not([hidden])")) popover.hidden = true;
  for (const button of $$("button.help[aria-expanded=true]")) button.setAttribute("aria-expanded", "false");
}

document.addEventListener("click", (event) => {
  if (!event.target.closest(".popover")) closePopovers();
});
document.addEventListener("keydown", (event) => { if (event.key === "Escape") closePopovers(); });

// A modal dialog; resolves with true (confirm) or false.
function confirmDialog({ title, text, confirm, danger = false }) {
  return new Promise((resolve) => {
    const dialog = el("dialog", { class: "dialog", "aria-labelledby": "confirm-title" });
    const finish = (answer) => { dialog.close(); dialog.remove(); resolve(answer); };
    dialog.append(
      el("h2", { id: "confirm-title", text: title }),
      el("p", { text }),
      el("div", { class: "dialog-buttons" },
        el("button", { type: "button", class: "button quiet", onclick: () => finish(false) }, "Cancel"),
        el("button", { type: "button", class: danger ? "button danger" : "button primary", dataset: { confirm: "" }, onclick: () => finish(true) }, confirm)),
    );
    dialog.addEventListener("cancel", (event) => { event.preventDefault(); finish(false); });
    document.body.append(dialog);
    dialog.showModal();
    $("[data-confirm]", dialog).focus();
  });
}

const NAME_KEY = "tarabish:name";
const MAX_NAME = 20;

function savedName() { return localStorage.getItem(NAME_KEY) || ""; }
function saveName(name) { localStorage.setItem(NAME_KEY, name.trim().slice(0, MAX_NAME)); }

// Asks for a display name (prefilled with the last one); resolves with it, or null.
function askName(seatWords) {
  return new Promise((resolve) => {
    const input = el("input", { id: "name-input", name: "name", maxlength: MAX_NAME, required: true, autocomplete: "nickname", value: savedName() });
    const form = el("form", { method: "dialog" },
      el("h2", { text: "Take a seat" }),
      el("p", { text: `You sit ${seatWords}. What should the table call you?` }),
      el("label", { class: "field" }, el("span", { text: "Your name" }), input),
      el("div", { class: "dialog-buttons" },
        el("button", { type: "button", class: "button quiet", onclick: () => finish(null) }, "Watch instead"),
        el("button", { type: "submit", class: "button primary", id: "sit-button" }, "Sit down")));
    const dialog = el("dialog", { class: "dialog" }, form);
    const finish = (answer) => { dialog.close(); dialog.remove(); resolve(answer); };
    form.addEventListener("submit", (event) => {
      event.preventDefault();
      const name = input.value.trim();
      if (!name) { input.focus(); return; }
      saveName(name);
      finish(name.slice(0, MAX_NAME));
    });
    dialog.addEventListener("cancel", (event) => { event.preventDefault(); finish(null); });
    document.body.append(dialog);
    dialog.showModal();
    input.focus();
    input.select();
  });
}

// A seat's name plate: its initial in the team's colour, the name, the team and the chips
// (dealer, caller ...), and a mark when it is to play (its clock, if any).
function seatPlate({ name, team, teamText, chips, mark = null }) {
  return el("div", { class: "plate" },
    el("span", { class: `avatar team-${team}`, "aria-hidden": "true", text: name.slice(0, 1).toUpperCase() }),
    el("span", { class: "plate-text" }, el("span", { class: "plate-name", text: name }),
      el("span", { class: "plate-sub" }, el("span", { class: `team-tag team-${team}`, text: teamText }), ...chips)),
    mark);
}

// The dealer and the caller, as chips of a plate.
function dealerCallerChips(seat, dealer, caller, trump) {
  const chips = [];
  if (seat === dealer) chips.push(el("span", { class: "chip dealer" }, "Dealer"));
  if (seat === caller && trump) chips.push(el("span", { class: "chip caller" }, "Called ", suitInline(trump)));
  return chips;
}

// The trump suit named, as a badge on the felt.
function trumpBadge(suit) {
  return el("div", { class: `trump-badge suit-${suit}` },
    el("span", { class: "trump-symbol", "aria-hidden": "true", text: SUIT_SYMBOLS[suit] }),
    el("span", { class: "trump-words" }, el("span", { class: "small", text: "Trump" }), el("span", { text: SUIT_NAMES[suit] })));
}

// -- settings --------------------------------------------------------------------------------

const SETTINGS_KEY = "tarabish:settings";
const settings = Object.assign({ fourColour: false, animations: true }, JSON.parse(localStorage.getItem(SETTINGS_KEY) || "{}"));

function applySettings() {
  document.body.classList.toggle("four-colour", settings.fourColour);
  document.body.classList.toggle("no-animations", !settings.animations);
  $("#setting-four-colour").checked = settings.fourColour;
  $("#setting-animations").checked = settings.animations;
}

function setupSettings() {
  const panel = $("#settings-panel");
  $("#settings-button").addEventListener("click", (event) => {
    event.stopPropagation();
    panel.hidden = !panel.hidden;
    $("#settings-button").setAttribute("aria-expanded", String(!panel.hidden));
  });
  panel.addEventListener("click", (event) => event.stopPropagation());
  document.addEventListener("click", () => { panel.hidden = true; });
  const change = () => {
    settings.fourColour = $("#setting-four-colour").checked;
    settings.animations = $("#setting-animations").checked;
    localStorage.setItem(SETTINGS_KEY, JSON.stringify(settings));
    applySettings();
    recolourCards();
  };
  $("#setting-four-colour").addEventListener("change", change);
  $("#setting-animations").addEventListener("change", change);
  applySettings();
}

// -- notices ---------------------------------------------------------------------------------

const NOTICE_MS = 5000;

function notify(text, kind = "error") {
  const box = $("#notice");
  box.textContent = text;
  box.className = `notice ${kind}`;
  box.hidden = false;
  clearTimeout(notify.timer);
  notify.timer = setTimeout(() => { box.hidden = true; }, NOTICE_MS);
}

function showError(error) { notify(errorWords(error)); }

function setStatus(text) { $("#status").textContent = text; }

function clockText(seconds) {
  const whole = Math.max(0, Math.ceil(seconds));
  return `${Math.floor(whole / 60)}:${String(whole % 60).padStart(2, "0")}`;
}

async function fetchJson(url, options) {
  const response = await fetch(url, options);
  let answer = null;
  try { answer = await response.json(); } catch (error) { answer = { code: "malformed", message: String(error) }; }
  return { ok: response.ok, status: response.status, answer };
}
