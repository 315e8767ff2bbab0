// The deck of the page, drawn as SVG by this file (no image is downloaded): card faces with
// corner indices, pips for 6-10, a framed court for J, Q and K, a large pip for the ace, in the
// two-colour or the four-colour deck, and the card back. The 36 cards of R1.1; card text as in
// records ("JH", "TS": T is the ten).
"use strict";

const SUIT_LETTERS = "CDHS";
const RANK_LETTERS = "6789TJQKA";
const SUIT_NAMES = { C: "clubs", D: "diamonds", H: "hearts", S: "spades" };
const SUIT_SYMBOLS = { C: "\u2663", D: "\u2666", H: "\u2665", S: "\u2660" };
const RANK_NAMES = { 6: "six", 7: "seven", 8: "eight", 9: "nine", T: "ten", J: "jack", Q: "queen", K: "king", A: "ace" };
const SVG_NS = "http://www.w3.org/2000/svg";

// Suit shapes in a 100 x 100 box, used by every card through <use>.
const SUIT_SHAPES = {
  H: '<path d="M50 92C22 68 5 50 5 30 5 14 17 5 30 5c9 0 16 5 20 13 4-8 11-13 20-13 13 0 25 9 25 25 0 20-17 38-45 62z"/>',
  D: '<path d="M50 3Q68 28 90 50 68 72 50 97 32 72 10 50 32 28 50 3z"/>',
  S: '<path d="M50 4C60 22 95 38 95 62c0 14-10 24-23 24-9 0-16-5-20-11 1 9 5 17 14 23H34c9-6 13-14 14-23-4 6-11 11-20 11C15 86 5 76 5 62 5 38 40 22 50 4z"/>',
  C: '<circle cx="50" cy="28" r="21"/><circle cx="27" cy="60" r="21"/><circle cx="73" cy="60" r="21"/>'
    + '<circle cx="50" cy="54" r="12"/><path d="M46 58c0 18-5 30-14 40h36c-9-10-14-22-14-40z"/>',
};

const TWO_COLOUR = { C: "#1a1a1a", D: "#c8102e", H: "#c8102e", S: "#1a1a1a" };
const FOUR_COLOUR = { C: "#16702a", D: "#1453b0", H: "#c8102e", S: "#1a1a1a" };

// Pip centres of the number cards on a 200 x 280 face (lower-half pips are drawn upside down).
const COLUMNS = [64, 136];
const PIPS = {
  6: [...[70, 140, 210].flatMap((y) => COLUMNS.map((x) => [x, y]))],
  7: [...[70, 140, 210].flatMap((y) => COLUMNS.map((x) => [x, y])), [100, 105]],
  8: [...[70, 140, 210].flatMap((y) => COLUMNS.map((x) => [x, y])), [100, 105], [100, 175]],
  9: [...[62, 114, 166, 218].flatMap((y) => COLUMNS.map((x) => [x, y])), [100, 140]],
  T: [...[62, 114, 166, 218].flatMap((y) => COLUMNS.map((x) => [x, y])), [100, 88], [100, 192]],
};
const PIP_SIZE = 38;
const ACE_SIZE = 96;
const COURT_MARKS = {
  K: '<path d="M70 96l8-26 12 16 10-22 10 22 12-16 8 26z"/>',
  Q: '<path d="M74 96l6-20 10 12 10-18 10 18 10-12 6 20z"/><circle cx="100" cy="66" r="4"/>',
  J: '<path d="M78 96c4-14 12-22 22-24 10 2 18 10 22 24z"/><circle cx="100" cy="68" r="4"/>',
};

function suitColour(suit) {
  return (document.body.classList.contains("four-colour") ? FOUR_COLOUR : TWO_COLOUR)[suit];
}

function installSuitSymbols() {
  if (document.getElementById("suit-symbols")) return;
  const holder = document.createElementNS(SVG_NS, "svg");
  holder.id = "suit-symbols";
  holder.setAttribute("aria-hidden", "true");
  holder.setAttribute("class", "defs");
  let defs = "";
  for (const suit of SUIT_LETTERS) defs += `<symbol id="suit-${suit}" viewBox="0 0 100 100">${SUIT_SHAPES[suit]}</symbol>`;
  defs += '<pattern id="back-lattice" width="14" height="14" patternUnits="userSpaceOnUse" patternTransform="rotate(45)">'
    + '<rect width="14" height="14" fill="#8c1c2c"/><path d="M0 7h14M7 0v14" stroke="#b8394b" stroke-width="2.2"/>'
    + '<circle cx="7" cy="7" r="2.2" fill="#e8c66a"/></pattern>';
  holder.innerHTML = `<defs>${defs}</defs>`;
  document.body.prepend(holder);
}

function pip(suit, x, y, size, flipped) {
  const half = size / 2;
  const turn = flipped ? ` transform="rotate(180 ${x} ${y})"` : "";
  return `<use href="#suit-${suit}" x="${x - half}" y="${y - half}" width="${size}" height="${size}"${turn}/>`;
}

function faceMarkup(card) {
  const rank = card[0], suit = card[1];
  const label = rank === "T" ? "10" : rank;
  const corner = `<text x="22" y="44" text-anchor="middle" class="index">${label}</text>${pip(suit, 22, 66, 26, false)}`;
  let middle = "";
  if (PIPS[rank]) {
    for (const [x, y] of PIPS[rank]) middle += pip(suit, x, y, PIP_SIZE, y > 140);
  } else if (rank === "A") {
    middle = pip(suit, 100, 140, ACE_SIZE, false);
  } else {
    middle = '<rect x="44" y="40" width="112" height="200" rx="8" class="court"/>'
      + '<rect x="51" y="47" width="98" height="186" rx="5" class="court-inner"/>'
      + `<g class="crown">${COURT_MARKS[rank]}</g>`
      + `<text x="100" y="172" text-anchor="middle" class="court-letter">${rank}</text>`
      + pip(suit, 100, 206, 30, false);
  }
  return `<rect x="1.5" y="1.5" width="197" height="277" rx="14" class="paper"/>`
    + `<g fill="${suitColour(suit)}">${corner}<g transform="rotate(180 100 140)">${corner}</g>${middle}</g>`;
}

function backMarkup() {
  return '<rect x="1.5" y="1.5" width="197" height="277" rx="14" class="paper"/>'
    + '<rect x="12" y="12" width="176" height="256" rx="8" fill="url(#back-lattice)"/>'
    + '<rect x="12" y="12" width="176" height="256" rx="8" class="back-frame"/>';
}

function cardName(card) {
  return `${RANK_NAMES[card[0]]} of ${SUIT_NAMES[card[1]]}`;
}

function cardShort(card) {
  return (card[0] === "T" ? "10" : card[0]) + SUIT_SYMBOLS[card[1]];
}

function svgCard(markup) {
  const svg = document.createElementNS(SVG_NS, "svg");
  svg.setAttribute("viewBox", "0 0 200 280");
  svg.setAttribute("aria-hidden", "true");
  svg.setAttribute("focusable", "false");
  svg.innerHTML = markup;
  return svg;
}

// A face-up card: a <span> (or the tag given, e.g. "button") carrying data-card.
function cardFace(card, tag = "span") {
  const element = document.createElement(tag);
  element.className = `card face suit-${card[1]}`;
  element.dataset.card = card;
  element.setAttribute("aria-label", cardName(card));
  if (tag !== "button") element.setAttribute("role", "img");
  element.append(svgCard(faceMarkup(card)));
  return element;
}

function cardBack() {
  const element = document.createElement("span");
  element.className = "card back";
  element.setAttribute("aria-hidden", "true");
  element.append(svgCard(backMarkup()));
  return element;
}

// Redraw every face on the page in the current deck's colours.
function recolourCards() {
  for (const element of document.querySelectorAll(".card.face[data-card]")) {
    const svg = element.querySelector("svg");
    if (svg) svg.innerHTML = faceMarkup(element.dataset.card);
  }
}

// A small inline card name in text, coloured by suit: "10♥".
function cardInline(card) {
  const element = document.createElement("span");
  element.className = `inline-card suit-${card[1]}`;
  element.textContent = cardShort(card);
  element.setAttribute("aria-label", cardName(card));
  return element;
}

function suitInline(suit) {
  const element = document.createElement("span");
  element.className = `inline-card suit-${suit}`;
  element.textContent = SUIT_SYMBOLS[suit];
  element.setAttribute("aria-label", SUIT_NAMES[suit]);
  return element;
}
