// What the page says, in plain words: bot levels, rule variants, outcomes, refusals, and the
// help entries that name the rules (RULES.md ids) inside popovers hidden until opened. No rule
// id is ever a label or a button's text.
"use strict";

const BOT_LEVELS = [
  { name: "Easy", spec: "greedy", line: "Calls its strongest suit and wins tricks as cheaply as it can." },
  { name: "Medium", spec: "heuristic", line: "Counts trumps, draws them, cashes its masters and feeds its partner." },
  { name: "Hard", spec: "ismcts", line: "Searches thousands of deals that fit what it has seen." },
  { name: "Expert", spec: "pimc", line: "Solves twenty such deals exactly before every card." },
];

function botLevel(spec) {
  const name = String(spec).split(":")[0];
  const level = BOT_LEVELS.find((entry) => entry.spec === name);
  if (level) return level.name;
  return name === "random" ? "Random" : name;
}

const STYLES = {
  standard: {
    label: "Standard game",
    line: "Runs and bella are declared for you and only legal cards can be played.",
    rules: {},
  },
  table: {
    label: "Table talk",
    line: "You announce runs and bella yourself, any card can be played, and anyone may call a misplay.",
    rules: { declarations: "manual", enforce_legal_play: false },
  },
};

const VARIANTS = [
  { name: "dealer_may_pass", label: "The dealer may pass too (four passes: the hand is dealt again)", help: "dealerMayPass" },
  { name: "forced_at", value: 400, label: "A team with 400 points or more must call trump", help: "forced" },
  { name: "team_runs", label: "Your partner's runs count with yours", help: "teamRuns" },
  { name: "head_plain", label: "Following a plain suit, beat its highest card if you can", help: "headPlain" },
  { name: "undertrump_optional", label: "Unable to beat the trump in the trick, you need not trump", help: "undertrump" },
  { name: "partner_exempt", label: "No need to trump while your partner is winning the trick", help: "partnerExempt" },
  { name: "half_bait_is_bait", label: "A tie costs the callers the whole count", help: "halfBait" },
  { name: "first_bell_ok", label: "Bella may be called on the first of the king and queen", help: "bella", manual: true },
  { name: "late_twenty", label: "A fifty shown late still counts as a twenty", help: "lateTwenty", manual: true },
];

// Help popovers: the rule in words and its id in the rules (RULES.md), or null for help that is
// no rule of the game.
const HELP = {
  style: ["In the standard game the table declares runs and bella for everyone and refuses a card that breaks the rules of play. At a table-talk table you declare yourself, in time, and a wrong card stands until someone calls it.", "R4.4, R8"],
  target: ["Hands are played until a team has this many points at the end of a hand; the team with more wins.", "R7.1"],
  dealerMayPass: ["Normally the dealer must call if the other three pass (stick the dealer). With this option the hand is void instead.", "R3.2, R3.3"],
  forced: ["A team at or above the score must call trump; its player before the dealer may not pass.", "R3.4"],
  teamRuns: ["Only one player scores runs in a hand. With this option the winner's partner scores theirs too.", "R4.3"],
  headPlain: ["Normally any card of the suit led follows. With this option you must beat the highest card of that suit if you can, while no trump is in the trick.", "R5.1a"],
  undertrump: ["Void in the suit led, you must trump, and beat the trump in the trick if you can. With this option, if you cannot beat it you may play any card.", "R5.1b"],
  partnerExempt: ["Void in the suit led, you must normally trump even when your partner is winning. With this option you may play any card then.", "R5.1"],
  halfBait: ["When the callers and the other team have equal points, the callers score nothing and the others score their own points; with this option the others score the whole count.", "R6.4"],
  bella: ["Holding the king and queen of trump, call bella as you play the second of them for 20 points. Calling it on the first is table talk and loses it, unless this option is on.", "R4.5"],
  lateTwenty: ["A fifty must be shown in the second trick. With this option a fifty shown in the third trick still counts as a twenty.", "R4.4"],
  bots: ["Bots see only their own cards and what has been played, like a person.", null],
  pace: ["With a time per move, a person who runs out of time has a bot play for them, or the table waits for them.", null],
  legal: ["Raised cards may be played now. Follow the suit led; with trump led, beat the highest trump if you can; void in the suit led, play a trump, beating the highest trump in the trick if you can.", "R5.1"],
  auction: ["Starting left of the dealer, each player calls a trump suit or passes; the first call ends it. If three pass, the dealer must call. The kitty, your last three cards, stays face down until trump is named.", "R3.1, R3.2, R2.4"],
  announce: ["In the first trick, on your turn and before your card, announce your best run: a twenty (three in a row) or a fifty (four in a row).", "R4.4, R8.6d"],
  show: ["In the second trick, before your card, show the runs you announced. Runs not announced and shown in time do not count.", "R4.4, R8.6d"],
  bellaCall: ["Call bella before playing the king or queen of trump when you hold both. It counts on the second of the two.", "R4.5, R8.6e"],
  misplay: ["If a player of the other team played a card against the rules this hand, your team scores the whole hand. If no one did, the other team scores it.", "R8.2"],
  throw: ["Throwing in ends the hand at once: the other team scores the whole hand.", "R8.3"],
  lastTrick: ["Only the last trick taken may be looked at again; earlier tricks are turned down.", "R8.4"],
  scoring: ["Each team counts its card points, 10 for the last trick, its runs and its bella. The callers must take more than the other team: if they take less it is a bait, and the others score everything; equal is a half bait.", "R6.1-R6.4"],
  dd: ["The double-dummy value of a card is the number of points the mover's team takes from the tricks still to play, with all four hands open and best play by everyone. A card's loss is the best value minus its value.", null],
  practice: ["The creator of this table chose how the cards are dealt, so they may know every hand. Play it for practice.", null],
};

const OUTCOMES = {
  made: "Made",
  bait: "Bait",
  half_bait: "Half bait",
  misplay: "Misplay called",
  throw_in: "Thrown in",
  void: "No trump named",
};

// Why a refusal happened, in words (by rule id; rule ids stay in the help).
const REFUSALS = [
  ["R3.1", "It is not your turn to speak."],
  ["R3.2", "Everyone else passed: the dealer must call."],
  ["R3.4", "Your team must call trump."],
  ["R5.1a", "You must follow the suit led."],
  ["R5.1b", "You must play a trump, and beat the highest one in the trick if you can."],
  ["R5.1", "That card cannot be played now."],
  ["R5.3", "The hand is over."],
  ["R8.1", "Only a card you hold, on your turn."],
  ["R8.6a", "Calls are made only while the cards are played."],
  ["R8.6d", "Runs cannot be announced or shown now."],
  ["R8.6e", "Bella cannot be called now."],
  ["R8.2", "Nothing to call at this table."],
  ["R8.3", "Throwing in is not possible at this table."],
  ["R4.4", "Runs are declared for you at this table."],
  ["R4.5", "Bella is declared for you at this table."],
];

const ERROR_WORDS = {
  seat_taken: "That seat is taken. Pick another seat or watch.",
  no_table: "There is no such table.",
  elsewhere: "This table is hosted by another server.",
  bad_token: "Your seat could not be resumed here.",
  rate_limited: "Slow down: too many requests at once. Try again in a moment.",
  too_many_connections: "Too many connections from here. Close another tab and try again.",
  unavailable: "The server could not save that move. Try again.",
  full: "This table has as many spectators as it takes.",
  busy: "The analysis is busy. Try again in a moment.",
  not_over: "The match is not over yet.",
  too_large: "That file is too large.",
  malformed: "That file is not a tarabish record.",
  invalid: "That file is not a valid tarabish record.",
  stopping: "The server is restarting. Try again in a moment.",
  exists: "A table with that name exists.",
  origin: "This page may not use that server.",
  content_type: "The request was not understood.",
  too_deep: "That file is not a tarabish record.",
  not_joined: "Take a seat first.",
  spectator: "You are watching: take a seat to play.",
  wrong_seat: "That move is not yours to make.",
  too_slow: "The connection was too slow; reconnecting.",
  unreachable: "The server cannot be reached.",
};

// Plain words for an error message of the server ({code, rule, message}).
function errorWords(error) {
  if (error.code === "illegal_action" || error.code === "invalid_action") {
    const found = REFUSALS.find(([rule]) => String(error.rule || "").startsWith(rule));
    return found ? found[1] : "That move is not possible now.";
  }
  if (ERROR_WORDS[error.code]) return ERROR_WORDS[error.code];
  return stripRuleIds(error.message || "Something went wrong.");
}

const RULE_ID = /\s*\(?\b[RP]\d+(?:\.\d+)?[a-z]?(?:[-,]\s*[RP]?\d+(?:\.\d+)?[a-z]?)*\b\)?:?/g;

function stripRuleIds(text) {
  return String(text).replace(RULE_ID, "").trim();
}
