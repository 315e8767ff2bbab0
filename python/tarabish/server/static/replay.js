// The replay and analysis of a finished match (docs/PROTOCOL.md P5.3): hand by hand and card by
// card, all four hands open; at each card the double-dummy value of every legal card of the
// seat to move (as tb.solve gives it, for the mover's team), the card played and its loss, and
// the points lost by seat and team. `#/replay/TABLE` (or `#/replay/TABLE/H/K`: hand H from 0,
// before its (K+1)-th card) reads a finished table; a record file is posted for analysis.
"use strict";

let replayState = null; // {source, document, hand, card}

function handPlays(hand) {
  const plays = [];
  hand.actions.forEach((text, index) => {
    const [seat, verb, argument] = text.split(" ");
    if (verb === "play") plays.push({ index, seat: Number(seat), card: argument });
  });
  return plays;
}

function replaySeatName(seat) { return SEAT_WORDS[seat]; }

function replayPosition(handIndex, card) {
  const { replay, analysis: analysedMatch } = replayState.document;
  const hand = replay.hands[handIndex];
  const analysed = analysedMatch.hands[handIndex];
  const plays = handPlays(hand);
  const upTo = card < plays.length ? plays[card].index : hand.actions.length;
  let trump = null, caller = null;
  for (const text of hand.actions.slice(0, upTo)) {
    const [seat, verb, argument] = text.split(" ");
    if (verb === "call") { trump = argument; caller = Number(seat); }
  }
  const remaining = hand.deal.map((cards) => cards.split(" "));
  for (const play of plays.slice(0, card)) remaining[play.seat] = remaining[play.seat].filter((c) => c !== play.card);
  const start = card - (card % 4);
  const trick = plays.slice(start, card);
  const previous = card > 0 && card % 4 === 0 ? plays.slice(card - 4, card) : null;
  const tricks = (hand.result && hand.result.tricks) || [];
  const analysis = analysed.plays.find((play) => play.action === (card < plays.length ? plays[card].index : -1)) || null;
  return { hand, analysed, plays, trump, caller, remaining, trick, previous, previousTrick: previous ? tricks[card / 4 - 1] : null,
    mover: card < plays.length ? plays[card].seat : null, played: card < plays.length ? plays[card] : null, analysis };
}

function drawReplaySeat(seat, position) {
  const box = $(`#replay-${POSITIONS[seat]}`);
  const legal = position.analysis ? position.analysis.values : {};
  const mover = seat === position.mover;
  const cards = el("div", { class: "open-hand" }, sortedHand(position.remaining[seat], position.trump).map((card) => {
    const face = cardFace(card);
    if (mover && card in legal) {
      face.classList.add("legal");
      face.append(el("span", { class: "dd-badge", "aria-hidden": "true", text: String(legal[card]) }));
    }
    if (mover && position.played && card === position.played.card) face.classList.add("played");
    return face;
  }));
  const team = seat % 2;
  box.replaceChildren(seatPlate({
    name: replaySeatName(seat), team, teamText: team === 0 ? "North\u2013South" : "East\u2013West",
    chips: dealerCallerChips(seat, position.hand.dealer, position.caller, position.trump),
    mark: mover ? el("span", { class: "turn-mark", text: "to play" }) : null,
  }), cards);
  box.className = `seat open at-${POSITIONS[seat]} team-${team}${mover ? " to-move" : ""}`;
}

function drawReplayTrick(position) {
  const trick = $("#replay-trick");
  const shown = position.trick.length ? position.trick : position.previous || [];
  trick.replaceChildren(...shown.map((play) => {
    const face = cardFace(play.card);
    face.classList.add(`from-${POSITIONS[play.seat]}`);
    return face;
  }));
  trick.className = position.trick.length ? "" : "previous";
  const centre = [];
  if (position.trump) {
    centre.push(trumpBadge(position.trump));
  }
  let line = "";
  if (!position.trick.length && position.previousTrick) line = `${replaySeatName(position.previousTrick.winner)} took the trick, ${position.previousTrick.points} points`;
  if (position.mover !== null && !line) line = `${replaySeatName(position.mover)} to play`;
  if (position.mover === null) line = "End of the hand";
  centre.push(el("div", { class: "status-line", text: line }));
  $("#replay-centre").replaceChildren(...centre);
}

function lossTable(bySeat, title) {
  const team = (t) => bySeat[t] + bySeat[t + 2];
  return el("table", { class: "loss-table" },
    el("caption", { text: title }),
    el("tbody", {},
      [0, 1, 2, 3].map((seat) => el("tr", { class: `team-${seat % 2}` }, el("th", { scope: "row", text: replaySeatName(seat) }), el("td", { text: String(bySeat[seat]) }))),
      el("tr", { class: "team-0 sum" }, el("th", { scope: "row", text: "North\u2013South" }), el("td", { text: String(team(0)) })),
      el("tr", { class: "team-1 sum" }, el("th", { scope: "row", text: "East\u2013West" }), el("td", { text: String(team(1)) }))));
}

function drawReplayAnalysis(position) {
  const box = $("#replay-analysis");
  const parts = [el("h2", {}, "Double-dummy values ", helpButton("dd"))];
  const analysis = position.analysis;
  if (analysis) {
    const entries = Object.entries(analysis.values).sort((a, b) => b[1] - a[1]);
    parts.push(el("p", { class: "muted", text: `${replaySeatName(position.mover)} to play: points the team still takes with each card.` }));
    parts.push(el("ul", { class: "dd-list" }, entries.map(([card, value]) => {
      const played = card === analysis.card;
      const loss = analysis.value - value;
      return el("li", { class: `${played ? "played" : ""}${loss === 0 ? " best" : ""}`, dataset: { ddCard: card, ddValue: String(value) } },
        cardInline(card), el("span", { class: "dd-value", text: String(value) }),
        el("span", { class: "dd-note", text: `${loss === 0 ? "best" : `\u2212${loss}`}${played ? " \u00b7 played" : ""}` }));
    })));
    parts.push(el("p", { class: analysis.loss ? "verdict loss" : "verdict good",
      text: analysis.loss ? `Played ${cardShort(analysis.card)}: ${analysis.loss} points lost against the best.` : `Played ${cardShort(analysis.card)}: a best card.` }));
  } else if (position.mover !== null && position.analysed.stopped !== null && position.played && position.played.index >= position.analysed.stopped) {
    parts.push(el("p", { class: "verdict loss", text: "The analysis stops here: a card was played against the rules of play (a misplay), and the solver plays legal cards only." }));
  } else if (position.mover === null) {
    const result = position.hand.result;
    if (result) {
      const score = result.score || [0, 0];
      parts.push(el("p", { class: "verdict", text: `${OUTCOMES[result.outcome]}: North\u2013South ${score[0]}, East\u2013West ${score[1]}.` }));
    }
    if (position.analysed.stopped !== null) parts.push(el("p", { class: "muted", text: "The analysis of this hand stopped at a misplay." }));
  } else {
    parts.push(el("p", { class: "muted", text: "No value here." }));
  }
  box.replaceChildren(...parts);
  $("#replay-totals").replaceChildren(
    lossTable(position.analysed.loss_by_seat, `Points lost in hand ${replayState.hand + 1}`),
    lossTable(replayState.document.analysis.loss_by_seat, "Points lost in the match"));
}

function drawReplay() {
  if (!replayState || !replayState.document) return;
  const hands = replayState.document.replay.hands;
  const position = replayPosition(replayState.hand, replayState.card);
  for (let seat = 0; seat < 4; seat++) drawReplaySeat(seat, position);
  drawReplayTrick(position);
  drawReplayAnalysis(position);
  const totals = replayState.document.replay.totals;
  $("#replay-where").textContent = `Hand ${replayState.hand + 1} of ${hands.length} \u00b7 card ${Math.min(replayState.card + 1, position.plays.length)} of ${position.plays.length} \u00b7 final ${totals[0]} \u2013 ${totals[1]}`;
  $("#replay-prev").disabled = replayState.card === 0 && replayState.hand === 0;
  $("#replay-next").disabled = replayState.card >= position.plays.length && replayState.hand >= hands.length - 1;
  $("#replay-prev-hand").disabled = replayState.hand === 0;
  $("#replay-next-hand").disabled = replayState.hand >= hands.length - 1;
}

function replayStep(cards) {
  if (!replayState || !replayState.document) return;
  const hands = replayState.document.replay.hands;
  let { hand, card } = replayState;
  card += cards;
  const count = handPlays(hands[hand]).length;
  if (card > count && hand < hands.length - 1) { hand += 1; card = 0; }
  if (card < 0 && hand > 0) { hand -= 1; card = handPlays(hands[hand]).length; }
  replayGo(hand, card);
}

function replayGo(hand, card) {
  const hands = replayState.document.replay.hands;
  hand = Math.max(0, Math.min(hand, hands.length - 1));
  card = Math.max(0, Math.min(card, handPlays(hands[hand]).length));
  Object.assign(replayState, { hand, card });
  if (replayState.source) history.replaceState(null, "", `#/replay/${replayState.source}/${hand}/${card}`);
  drawReplay();
}

function showReplayDocument(answer, source, hand = 0, card = 0) {
  replayState = { source, document: answer, hand: 0, card: 0 };
  $("#replay-open").hidden = true;
  $("#replay-view").hidden = false;
  replayGo(hand, card);
}

async function openReplay(source, hand, card) {
  if (replayState && replayState.source === source && replayState.document) { replayGo(hand, card); return; }
  $("#replay-open").hidden = true;
  $("#replay-view").hidden = false;
  $("#replay-analysis").replaceChildren(el("p", { class: "muted", text: "Solving every card of the match\u2026" }));
  const { ok, answer } = await fetchJson(`/api/tables/${source}/analysis`);
  if (!ok) { notify(errorWords(answer)); showReplayPicker(); return; }
  showReplayDocument(answer, source, hand, card);
}

function showReplayPicker() {
  replayState = null;
  $("#replay-open").hidden = false;
  $("#replay-view").hidden = true;
}

async function analyseFile(file) {
  notify("Solving every card of the record\u2026", "info");
  const body = await file.text();
  const { ok, answer } = await fetchJson("/api/analysis", { method: "POST", headers: { "Content-Type": "application/json" }, body });
  if (!ok) { notify(errorWords(answer)); return; }
  $("#notice").hidden = true;
  if (document.activeElement) document.activeElement.blur(); // the arrow keys step the replay
  showReplayDocument(answer, null);
}

function setupReplay() {
  $("#replay-prev").addEventListener("click", () => replayStep(-1));
  $("#replay-next").addEventListener("click", () => replayStep(1));
  $("#replay-prev-hand").addEventListener("click", () => replayGo(replayState.hand - 1, 0));
  $("#replay-next-hand").addEventListener("click", () => replayGo(replayState.hand + 1, 0));
  $("#record-file").addEventListener("change", (event) => {
    if (event.target.files[0]) analyseFile(event.target.files[0]);
    event.target.value = "";
  });
  $("#replay-link").addEventListener("click", () => { if (location.hash === "#/replay") showReplayPicker(); });
  document.addEventListener("keydown", (event) => {
    if ($("#replay").hidden || !replayState || event.target.closest("input, select, textarea, dialog")) return;
    const moves = { ArrowRight: () => replayStep(1), ArrowLeft: () => replayStep(-1),
      ArrowDown: () => replayGo(replayState.hand + 1, 0), ArrowUp: () => replayGo(replayState.hand - 1, 0),
      Home: () => replayGo(replayState.hand, 0), End: () => replayGo(replayState.hand, Infinity) };
    if (moves[event.key]) { event.preventDefault(); moves[event.key](); }
  });
}
