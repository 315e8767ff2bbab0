// The page's router: `#` the lobby, `#/table/ID` (watch) and `#/table/ID/seat/S` (sit at seat
// S), `#/replay` (open a record file), `#/replay/ID` and `#/replay/ID/H/K` (a finished match,
// hand H from 0, before its (K+1)-th card).
"use strict";

const TABLE_ROUTE = /^#\/table\/([\w-]{1,64})(?:\/seat\/([0-3]))?$/;
const REPLAY_ROUTE = /^#\/replay(?:\/([\w-]{1,64})(?:\/(\d+)\/(\d+))?)?$/;

function show(screen) {
  for (const name of ["lobby", "game", "replay"]) $(`#${name}`).hidden = name !== screen;
  document.body.dataset.screen = screen;
}

function route() {
  const table = location.hash.match(TABLE_ROUTE);
  const replay = location.hash.match(REPLAY_ROUTE);
  if (!(table && game && game.table === table[1])) closeGame();
  setStatus("");
  if (table) {
    show("game");
    if (!game) openGame(table[1], table[2] === undefined ? null : Number(table[2]));
    return;
  }
  if (replay) {
    show("replay");
    if (replay[1]) openReplay(replay[1], Number(replay[2] || 0), Number(replay[3] || 0));
    else showReplayPicker();
    return;
  }
  show("lobby");
  startLobby();
}

installSuitSymbols();
setupSettings();
setupTable();
setupReplay();
window.addEventListener("hashchange", route);
route();
