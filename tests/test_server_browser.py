"""The page of ``tarabish serve`` in headless Chromium (Debian's ``chromium`` and
``chromium-driver``, installed by .ci/system-deps.sh) driven by Selenium, through the page's
test hooks (docs/PROTOCOL.md "The page"), on a phone (390 x 844) and a desktop (1280 x 900):

- a whole match to a short target played from the lobby by clicks only, each hand summary's
  scores and the match-over totals and winner equal to the record's (``GET .../record`` played
  back by ``tarabish replay``), the summary staying at least 3 seconds;
- the replay of that match, whose double-dummy values at three positions equal ``tb.solve`` on
  the same states; a record file opened in the replay, and a table-mode record's replay saying
  where its analysis stops (a misplay);
- a practice table marked in the lobby and at the table; the four-colour deck and the
  animations setting;
- no visible text of the lobby or the table that names a rule id (R followed by a digit), and
  every visible text at a contrast of at least 4.5:1 on each screen shot (tests/contrast.js);
- one trick played with the keyboard only (a name typed, the call and the card chosen by Tab
  and Enter), beside a person whose name the page shows;
- the server killed (``kill -9``) at our turn and started again: the page tries to reconnect
  after waits that double, then takes its seat again by itself, with the same hand, and plays.
- a WebSocket refused at its handshake (the address at its cap of connections): the page says
  why, in words, while it tries again, and takes its place once there is room.

Screenshots of the lobby, a hand in play, a hand summary, the match over and the replay at both
sizes go to ``$TARABISH_SCREENSHOTS`` or a folder of pytest's temporary directory (its path is
printed)."""

from __future__ import annotations

import itertools
import json
import os
import re
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
import tarabish as tb
from selenium import webdriver
from selenium.common.exceptions import (
    ElementClickInterceptedException,
    ElementNotInteractableException,
    StaleElementReferenceException,
)
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.remote.webdriver import WebDriver
from selenium.webdriver.remote.webelement import WebElement
from selenium.webdriver.support.ui import Select, WebDriverWait
from serverkit import ROOMY, Player, Server, free_port, raw_websocket, sqlite_server
from tarabish import ActionKind
from tarabish._record import parse_record
from tarabish._replay import replay

CHROMIUM = "/usr/bin/chromium"
CHROMEDRIVER = "/usr/bin/chromedriver"
SIZES = {"phone": (390, 844), "desktop": (1280, 900)}
MATCH_SECONDS = 240.0
SHORT_TARGET = "100"
SUMMARY_HOLD_SECONDS = 3.0
RULE_ID = re.compile(r"\bR\d")
ANIMATION_SECONDS = 0.6
CONTRAST = 4.5
CONTRAST_CHECK = (Path(__file__).parent / "contrast.js").read_text()
TAB_LIMIT = 80
"""Tab presses allowed to reach a control: every control is reachable well within this."""
GOLDEN = Path(__file__).parent / "golden"
REPLAY_POSITIONS = ((0, 0), (0, 6), (0, 21))
"""Hand and card of the replay positions checked against the solver (a hand has 36 cards)."""
CLICK_ERRORS = (
    StaleElementReferenceException,
    ElementClickInterceptedException,
    ElementNotInteractableException,
)


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    with sqlite_server(tmp_path_factory.mktemp("browser")) as running:
        yield running


@pytest.fixture(scope="module")
def shots(tmp_path_factory: pytest.TempPathFactory) -> Path:
    chosen = os.environ.get("TARABISH_SCREENSHOTS")
    folder = Path(chosen) if chosen else tmp_path_factory.mktemp("screenshots")
    folder.mkdir(parents=True, exist_ok=True)
    sys.__stderr__.write(f"\nscreenshots of the page: {folder}\n")
    return folder


def _browser(size: str) -> WebDriver:
    width, height = SIZES[size]
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for argument in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu"):
        options.add_argument(argument)
    driver = webdriver.Chrome(options=options, service=Service(CHROMEDRIVER))
    driver.set_window_size(width, height + 200)
    metrics = {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": width < 500}
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", metrics)
    return driver


@pytest.fixture(params=list(SIZES))
def browser(request: pytest.FixtureRequest) -> Iterator[tuple[str, WebDriver]]:
    driver = _browser(request.param)
    yield request.param, driver
    driver.quit()


def _wait(browser: WebDriver, until: Callable[[WebDriver], Any], seconds: float = 15.0) -> Any:
    return WebDriverWait(browser, seconds, poll_frequency=0.05).until(until)


def _shown(browser: WebDriver, selector: str) -> WebElement | None:
    for element in browser.find_elements(By.CSS_SELECTOR, selector):
        try:
            if element.is_displayed():
                return element
        except StaleElementReferenceException:
            continue
    return None


def _shoot(browser: WebDriver, shots: Path, name: str) -> None:
    """Save a screenshot; every visible text on it must have a contrast of 4.5:1 or more."""
    browser.execute_script("window.scrollTo(0, 0)")
    browser.save_screenshot(str(shots / f"{name}.png"))
    low = browser.execute_script(CONTRAST_CHECK, CONTRAST)
    assert not low, f"{name}: text below {CONTRAST}:1 contrast: {low}"


def _click(element: WebElement) -> bool:
    try:
        element.click()
    except CLICK_ERRORS:
        return False
    return True


def _create_from_the_lobby(browser: WebDriver, server: Server, name: str) -> str:
    browser.get(server.url)
    _wait(browser, lambda b: b.find_element(By.ID, "lobby").is_displayed())
    field = browser.find_element(By.NAME, "player-name")
    field.clear()
    field.send_keys(name)
    for seat in (1, 2, 3):
        Select(browser.find_element(By.NAME, f"seat{seat}")).select_by_value("greedy")
    Select(browser.find_element(By.NAME, "points")).select_by_value(SHORT_TARGET)
    Select(browser.find_element(By.NAME, "botspeed")).select_by_value("0")
    button = browser.find_element(By.ID, "create-button")
    browser.execute_script("arguments[0].scrollIntoView({block: 'center'})", button)
    button.click()
    _wait(browser, lambda b: b.find_element(By.ID, "game").is_displayed())
    found = re.match(r"#/table/([\w-]+)/seat/0$", browser.execute_script("return location.hash"))
    assert found, browser.execute_script("return location.hash")
    return found.group(1)


def _play_by_clicks(browser: WebDriver, size: str, shots: Path) -> list[str]:
    """Click through the match: calls, legal cards, each summary's close button. Returns
    every hand summary's ``data-scores``."""
    scores: list[str] = []
    mid_hand_shot = False
    deadline = time.monotonic() + MATCH_SECONDS
    while _shown(browser, "#match-over") is None:
        assert time.monotonic() < deadline, "the match did not end"
        try:
            mid_hand_shot = _one_step(browser, size, shots, scores, mid_hand_shot)
        except StaleElementReferenceException:
            continue  # the page redrew under the mouse
    return scores


def _one_step(
    browser: WebDriver, size: str, shots: Path, scores: list[str], mid_hand_shot: bool
) -> bool:
    """Close a hand summary (noting its scores) or click a call or a legal card; returns
    whether the mid-hand screenshot is taken."""
    assert not _shown(browser, "#notice.error"), "the server refused a click"
    summary = _shown(browser, "#hand-summary")
    if summary is not None:
        scores.append(str(summary.get_attribute("data-scores")))
        if len(scores) == 1:
            _shoot(browser, shots, f"hand-summary-{size}")
            time.sleep(SUMMARY_HOLD_SECONDS)
            assert _shown(browser, "#hand-summary") is not None, "the summary went too soon"
        button = summary.find_element(By.CSS_SELECTOR, "[data-close]")
        _wait(browser, lambda b: _click(button))
        _wait(browser, lambda b: not b.find_elements(By.CSS_SELECTOR, "#hand-summary"))
        return mid_hand_shot
    choice = _our_choice(browser)
    if choice is None:
        time.sleep(0.05)
        return mid_hand_shot
    in_trick = len(browser.find_elements(By.CSS_SELECTOR, "#trick .card"))
    playing = str(choice.get_attribute("data-action")).startswith("play")
    if not mid_hand_shot and playing and 2 <= in_trick <= 3:
        time.sleep(ANIMATION_SECONDS)  # the last card has slid in
        _shoot(browser, shots, f"mid-hand-{size}")
        return True
    action = str(choice.get_attribute("data-action"))
    if action.startswith("play"):
        # The server's answer: the card leaves the hand.
        _play_until_it_leaves(browser, action.split()[1])
        return mid_hand_shot
    if _click(choice):
        _wait(browser, lambda b: not _shown(b, "#actions [data-action^='call']"))
    return mid_hand_shot


def _solved(record: dict[str, Any], hand_index: int, card: int) -> dict[str, int]:
    """``tb.solve`` values of the position before the (card+1)-th card of the hand."""
    parsed = parse_record(record)
    hand = parsed.hands[hand_index]
    state = tb.HandState(
        hand.dealer,
        deal=[list(cards) for cards in hand.deal],
        rules=parsed.rules,
        scores_before=hand.scores_before,
    )
    played = 0
    for action in hand.actions:
        if action.kind is ActionKind.PLAY:
            if played == card:
                break
            played += 1
        state.apply(str(action))
    return {str(tb.Card.from_index(i)): value for i, value in tb.solve(state).values.items()}


def _replay_values(browser: WebDriver) -> dict[str, int]:
    rows = _wait(browser, lambda b: b.find_elements(By.CSS_SELECTOR, "[data-dd-card]"), 120.0)
    values = {}
    for row in rows:
        card = str(row.get_attribute("data-dd-card"))
        value = str(row.get_attribute("data-dd-value"))
        assert row.is_displayed() and value in row.text, (card, value, row.text)
        values[card] = int(value)
    return values


@pytest.mark.long
def test_a_match_by_clicks_its_summaries_and_its_replay(
    server: Server, browser: tuple[str, WebDriver], shots: Path
) -> None:
    size, driver = browser
    driver.get(server.url)
    _wait(driver, lambda b: b.find_element(By.ID, "lobby").is_displayed())
    _shoot(driver, shots, f"lobby-{size}")
    table = _create_from_the_lobby(driver, server, "Alex")
    summaries = _play_by_clicks(driver, size, shots)
    over = _wait(driver, lambda b: _shown(b, "#match-over"))
    _shoot(driver, shots, f"match-over-{size}")

    status, record = server.get(f"/api/tables/{table}/record")
    assert status == 200
    played = replay(record)
    assert summaries == [",".join(map(str, hand["result"]["score"])) for hand in played["hands"]]
    assert over.get_attribute("data-totals") == ",".join(map(str, played["totals"]))
    assert over.get_attribute("data-winner") == str(played["winner"])
    links = {a.get_attribute("href") for a in over.find_elements(By.CSS_SELECTOR, "a")}
    assert any(link.endswith(f"/api/tables/{table}/record") for link in links)

    first = True
    for hand, card in REPLAY_POSITIONS:
        hand = min(hand, len(record["hands"]) - 1)
        driver.get(f"{server.url}#/replay/{table}/{hand}/{card}")
        driver.refresh()
        shown = _replay_values(driver)
        assert shown == _solved(record, hand, card), (hand, card)
        if first:
            _shoot(driver, shots, f"replay-{size}")
            first = False
    # Stepping with the arrow keys moves card by card.
    ActionChains(driver).send_keys(Keys.ARROW_RIGHT).perform()
    _wait(driver, lambda b: b.execute_script("return location.hash").endswith(f"/{card + 1}"))


def test_a_record_file_opens_in_the_replay(server: Server) -> None:
    driver = _browser("desktop")
    try:
        driver.get(f"{server.url}#/replay")
        plain = GOLDEN / "made_plain.json"
        driver.find_element(By.ID, "record-file").send_keys(str(plain))
        assert _replay_values(driver) == _solved(json.loads(plain.read_text()), 0, 0)
        # A table-mode record whose second card is a misplay (R8.1): the first is analysed as
        # legal play; at the second the page says that the analysis stops there.
        driver.find_element(By.ID, "replay-link").click()
        misplayed = GOLDEN / "table_misplay_called.json"
        driver.find_element(By.ID, "record-file").send_keys(str(misplayed))
        _wait(driver, lambda b: _shown(b, "[data-dd-card='AS']"), 120.0)
        driver.find_element(By.ID, "replay-next").click()
        stops = _wait(driver, lambda b: _shown(b, "#replay-analysis .verdict"))
        assert "analysis stops here" in stops.text
        assert not driver.find_elements(By.CSS_SELECTOR, "[data-dd-card]")
        assert not RULE_ID.search(str(driver.execute_script("return document.body.innerText")))
    finally:
        driver.quit()


def _visible_text_without_table_ids(browser: WebDriver, server: Server) -> str:
    text = str(browser.execute_script("return document.body.innerText"))
    _, listing = server.get("/api/tables?limit=200")
    tables = listing if isinstance(listing, list) else listing["tables"]
    for table in tables:
        text = text.replace(table["table"], "")
    return text


def test_no_rule_id_in_the_visible_text_of_lobby_and_table(server: Server) -> None:
    driver = _browser("desktop")
    try:
        server.create(seats=[None, "greedy", "greedy", "greedy"], rules={"target": 100})
        practice = server.create(seats=[None, "greedy", "greedy", "greedy"], seed=7, practice=True)
        driver.get(server.url)
        _wait(driver, lambda b: b.find_elements(By.CSS_SELECTOR, ".table-card"))
        marked = driver.find_elements(By.CSS_SELECTOR, ".table-card .practice")
        assert [m.text for m in marked] == ["practice: deals chosen by the creator"]
        for details in driver.find_elements(By.CSS_SELECTOR, "details"):
            driver.execute_script("arguments[0].open = true", details)
        table_talk = driver.find_element(By.CSS_SELECTOR, "input[name=gamestyle][value=table]")
        driver.execute_script("arguments[0].click()", table_talk)
        lobby = _visible_text_without_table_ids(driver, server)
        assert "Easy" in lobby and "greedy" in lobby and "Expert" in lobby and "pimc" in lobby
        assert not RULE_ID.search(lobby), RULE_ID.findall(lobby)
        # A help popover names the rule once opened, and only then.
        help_button = driver.find_element(By.CSS_SELECTOR, ".variants button.help")
        popover = driver.find_element(By.ID, str(help_button.get_attribute("aria-controls")))
        assert not popover.is_displayed()
        help_button.click()
        assert popover.is_displayed() and RULE_ID.search(popover.text)

        driver.get(f"{server.url}#/table/{practice}")  # watching: the table says it too
        tag = _wait(driver, lambda b: _shown(b, "#practice"))
        assert tag.text.startswith("practice: deals chosen by the creator")
        # The settings: the four-colour deck recolours the cards; tricks need not fly.
        driver.find_element(By.ID, "settings-button").click()
        driver.find_element(By.ID, "setting-four-colour").click()
        driver.find_element(By.ID, "setting-animations").click()
        body = driver.find_element(By.TAG_NAME, "body").get_attribute("class") or ""
        assert "four-colour" in body and "no-animations" in body
        clubs = driver.execute_script(
            "const c = cardFace('AC'); document.body.append(c);"
            "return c.querySelector('g[fill]').getAttribute('fill')"
        )
        assert clubs == "#16702a"  # green clubs

        table = server.create(
            seats=[None, "greedy", "greedy", "greedy"],
            rules={"declarations": "manual", "enforce_legal_play": False},
        )
        driver.execute_script("localStorage.setItem('tarabish:name', 'Sam')")
        driver.get(f"{server.url}#/table/{table}/seat/0")
        _wait(driver, lambda b: b.find_elements(By.CSS_SELECTOR, "#hand [data-card]"))
        deadline = time.monotonic() + 30
        while not driver.find_elements(By.CSS_SELECTOR, "[data-action='misplay']"):
            assert time.monotonic() < deadline, "trump was never named"
            call = _shown(driver, "#actions [data-action^='call']")
            if call is not None:
                _click(call)
            time.sleep(0.05)
        for details in driver.find_elements(By.CSS_SELECTOR, "details"):
            driver.execute_script("arguments[0].open = true", details)
        table_text = _visible_text_without_table_ids(driver, server)
        assert "Call misplay" in table_text and "Throw in" in table_text
        assert not driver.execute_script(CONTRAST_CHECK, CONTRAST)
        assert not RULE_ID.search(table_text), RULE_ID.findall(table_text)
        # A call asks first, and says what a wrong call costs.
        driver.find_element(By.CSS_SELECTOR, "[data-action='misplay']").click()
        dialog = _wait(driver, lambda b: _shown(b, "dialog[open]"))
        assert "other team scores" in dialog.text
        assert not RULE_ID.search(dialog.text)
        assert dialog.find_element(By.CSS_SELECTOR, "[data-confirm]").is_displayed()
        dialog.find_element(By.XPATH, ".//button[text()='Cancel']").click()
    finally:
        driver.quit()


def _tab_to(browser: WebDriver, matches: Callable[[WebElement], bool]) -> WebElement:
    """Press Tab until the focused element ``matches``; returns it."""
    for _ in range(TAB_LIMIT):
        ActionChains(browser).send_keys(Keys.TAB).perform()
        focused = browser.switch_to.active_element
        try:
            if matches(focused):
                return focused
        except StaleElementReferenceException:
            continue
    raise AssertionError("no such control reached with the Tab key")


def test_one_trick_with_the_keyboard_only(server: Server) -> None:
    driver = _browser("desktop")
    try:
        table = server.create(seats=[None, "greedy", None, "greedy"])
        partner = Player(server, table, 2, seed=3)  # a person at seat 2, who names the seat
        partner.start()
        deadline = time.monotonic() + 10
        while partner.token is None:
            assert time.monotonic() < deadline, "the partner never got its seat"
            time.sleep(0.02)
        named = {"token": partner.token, "name": "Robin"}
        assert server.request("POST", f"/api/tables/{table}/names", named)[0] == 200
        driver.get(f"{server.url}#/table/{table}/seat/0")
        name = _wait(driver, lambda b: _shown(b, "#name-input"))
        assert driver.switch_to.active_element == name
        ActionChains(driver).send_keys("Kim", Keys.ENTER).perform()
        _wait(driver, lambda b: b.find_elements(By.CSS_SELECTOR, "#hand [data-card]"))
        assert "Kim (you)" in driver.find_element(By.ID, "seat-bottom").text
        _wait(driver, lambda b: "Robin" in b.find_element(By.ID, "seat-top").text)

        def my_action(element: WebElement) -> bool:
            action = element.get_attribute("data-action") or ""
            legal = element.get_attribute("data-legal")
            return action.startswith("call") or (action.startswith("play") and legal == "true")

        deadline = time.monotonic() + 60
        card = None
        while card is None:
            assert time.monotonic() < deadline, "never our turn to play"
            if _shown(driver, "#actions [data-action^='call']") or _shown(
                driver, "#hand [data-legal='true']"
            ):
                chosen = _tab_to(driver, my_action)
                action = str(chosen.get_attribute("data-action"))
                ActionChains(driver).send_keys(Keys.ENTER).perform()
                if action.startswith("play"):
                    card = action.split()[1]
                else:
                    _wait(driver, lambda b: not _shown(b, "#actions [data-action^='call']"))
            time.sleep(0.05)
        _wait(driver, lambda b: not b.find_elements(By.CSS_SELECTOR, f"#hand [data-card='{card}']"))
        _wait(driver, lambda b: b.find_element(By.ID, "last-trick-button").is_enabled())
        driver.find_element(By.ID, "last-trick-button").send_keys(Keys.ENTER)
        last = _wait(driver, lambda b: _shown(b, "#last-trick"))
        assert len(last.find_elements(By.CSS_SELECTOR, "[data-card]")) == 4
        assert not driver.find_element(By.ID, "notice").is_displayed()  # nothing refused
        names = server.get(f"/api/tables/{table}/names")[1]["names"]
        assert names == ["Kim", None, "Robin", None]  # the page named its seat
        partner.done.set()
    finally:
        driver.quit()


def _our_choice(browser: WebDriver) -> WebElement | None:
    """A call to make or a legal card to play, when it is our turn."""
    return _shown(browser, "#actions [data-action^='call']") or _shown(
        browser, "#hand [data-legal='true'][data-action^='play']"
    )


def _hand_cards(browser: WebDriver) -> list[str]:
    return [
        str(element.get_attribute("data-card"))
        for element in browser.find_elements(By.CSS_SELECTOR, "#hand [data-card]")
    ]


COUNT_CONNECTIONS = """
const Native = window.WebSocket;
window.connectionTimes = [];
window.WebSocket = class extends Native {
  constructor(...args) { super(...args); window.connectionTimes.push(performance.now()); }
};
"""
"""Notes when the page opens each WebSocket (the class keeps WebSocket's constants)."""
RETRIES_SEEN = 3
"""Tries to connect counted while the server is down: their two gaps show the backoff."""


def test_the_page_takes_its_seat_again_after_the_server_is_killed(tmp_path: Path) -> None:
    # A fixed port and database, so that the restarted process is the same server to the page.
    port, db = free_port(), f"sqlite:///{tmp_path / 'tables.sqlite3'}"
    server = Server(db, port=port)
    driver = _browser("desktop")
    try:
        table = _create_from_the_lobby(driver, server, "Kim")
        _wait(driver, _our_choice, TURN_SECONDS)
        hand = _hand_cards(driver)
        driver.execute_script(COUNT_CONNECTIONS)
        server.kill9()
        _wait(driver, lambda b: "reconnecting" in b.find_element(By.ID, "status").text)
        # While the server is down the page tries again after waits that double (each at
        # least half of 1 s, 2 s, 4 s ...), not at a steady pace.
        times = _wait(
            driver,
            lambda b: (
                (t := b.execute_script("return connectionTimes")) and len(t) >= RETRIES_SEEN and t
            ),
            TURN_SECONDS,
        )
        gaps = [later - earlier for earlier, later in itertools.pairwise(times)]
        assert gaps[0] >= 1000 and gaps[1] >= 2000, gaps
        server = Server(db, port=port)
        # The page comes back by itself (no reload), resumes seat 0 with its token, and shows
        # the same hand at the same turn: the accepted actions were committed before the kill.
        _wait(driver, lambda b: b.find_element(By.ID, "status").text == "connected", 20)
        _wait(driver, lambda b: _our_choice(b) is not None and _hand_cards(b) == hand, 20)
        assert driver.execute_script("return location.hash") == f"#/table/{table}/seat/0"
        assert "Kim (you)" in driver.find_element(By.ID, "seat-bottom").text
        choice = _wait(driver, _our_choice)
        action = str(choice.get_attribute("data-action"))
        # The server's answer to the resumed seat's action: the card leaves the hand, or the
        # calls go.
        if action.startswith("play"):
            _play_until_it_leaves(driver, action.split()[1])
        else:
            _wait(driver, lambda b: _click(choice))
            _wait(driver, lambda b: not _shown(b, "#actions [data-action^='call']"), TURN_SECONDS)
        assert not _shown(driver, "#notice.error"), "the resumed seat's action was refused"
    finally:
        driver.quit()
        stopped = server.stop()  # the restarted server, or the killed one after a failure
    assert stopped == 0


def test_the_page_says_why_its_connection_is_refused(tmp_path: Path) -> None:
    # Behind a trusted proxy (here: loopback, the browser's own address) the server counts
    # WebSockets by the client's address, and one is all it takes: a WebSocket held by
    # another program makes the page's refused at the handshake, which the page cannot read.
    # It asks the server why and says so in words while it goes on trying (P6.5), and takes
    # its place once the other connection closes.
    flags = (*ROOMY, "--trusted-proxy", "127.0.0.1", "--max-connections-per-address", "1")
    server = Server(f"sqlite:///{tmp_path / 'tables.sqlite3'}", flags=flags)
    driver = _browser("desktop")
    try:
        table = server.create()
        other = raw_websocket(server, {"type": "watch", "table": table, "since": 0})
        driver.get(f"{server.url}#/table/{table}")
        status = _wait(
            driver,
            lambda b: "here" in (text := b.find_element(By.ID, "status").text) and text,
        )
        assert status == (
            "reconnecting\u2026 Too many connections from here. Close another tab and try again."
        )
        other.close()
        _wait(driver, lambda b: b.find_element(By.ID, "status").text == "connected", 20)
    finally:
        driver.quit()
        assert server.stop() == 0


READ_HAND_AND_TRICK = """
const hand = [...document.querySelectorAll('#hand [data-card]')].map(
  (e) => [e.dataset.card, e.dataset.legal, e.dataset.action || null]);
const trick = [...document.querySelectorAll('#trick [data-card]')].map((e) => e.dataset.card);
return [hand, trick];
"""
"""Our hand's cards with their legal flags and actions, and the trick's cards in play order,
read in one script so that a redraw cannot fall between them."""


TURN_SECONDS = 30.0
"""How long a turn of the loaded machine may take to come, or a played card to leave."""
RECLICK_SECONDS = 1.0
HAND_CARDS = "#hand [data-card]"


def _play_until_it_leaves(browser: WebDriver, card: str) -> None:
    """Click ``card`` in our hand until the server's answer takes it away; clicks again after a
    second, since a click held long on a slow machine reads as a long press (the reason). A
    hand of another size means the card left too: our last card ends the hand, and the next
    deal, drawn at once, may hold the same card again."""
    selector = f"#hand [data-card='{card}']"
    size = len(browser.find_elements(By.CSS_SELECTOR, HAND_CARDS))
    clicked_at = -RECLICK_SECONDS

    def gone(b: WebDriver) -> bool:
        nonlocal clicked_at
        found = b.find_elements(By.CSS_SELECTOR, selector)
        if not found or len(b.find_elements(By.CSS_SELECTOR, HAND_CARDS)) != size:
            return True
        if time.monotonic() - clicked_at >= RECLICK_SECONDS:
            clicked_at = time.monotonic()
            _click(found[0])
        return False

    _wait(browser, gone, TURN_SECONDS)


def test_table_mode_flags_the_cards_the_rules_allow(server: Server) -> None:
    """R5.1, R8.1: with legal play not enforced every card of the hand may be played, and
    ``data-legal`` says which follow R5.1: at each of our nine turns of a hand, the cards
    flagged legal are exactly ``tb.legal_plays`` of the cards the page shows (our hand, the
    trick in play order), hearts trump (called by us as eldest). A page that flagged every
    playable card legal would pass every auto-mode test, where the two sets are the same."""
    driver = _browser("desktop")
    rules = tb.Rules(declarations="manual", enforce_legal_play=False)
    try:
        table = server.create(
            seats=[None, "greedy", "greedy", "greedy"],
            rules={"declarations": "manual", "enforce_legal_play": False},
            first_dealer=3,
        )
        driver.get(server.url)
        driver.execute_script("localStorage.setItem('tarabish:name', 'Sam')")
        driver.get(f"{server.url}#/table/{table}/seat/0")
        call = "[data-action='call H']"
        _wait(driver, lambda b: _click(b.find_element(By.CSS_SELECTOR, call)), TURN_SECONDS)
        turns = rules_differ = 0
        deadline = time.monotonic() + 4 * TURN_SECONDS
        while turns < 9:
            assert time.monotonic() < deadline, f"only {turns} of our turns came"
            hand, trick = driver.execute_script(READ_HAND_AND_TRICK)
            if not any(action for _, _, action in hand):
                time.sleep(0.05)
                continue
            # A taken trick stays in view a moment after it is complete: then we lead.
            trick = [] if len(trick) == 4 else trick
            cards = [card for card, _, _ in hand]
            expected = {
                str(c) for c in tb.legal_plays(" ".join(cards), " ".join(trick), "H", rules)
            }
            flagged = {card for card, legal, _ in hand if legal == "true"}
            assert flagged == expected, (cards, trick)
            assert all(action == f"play {card}" for card, _, action in hand), hand
            rules_differ += expected != set(cards)
            turns += 1
            card = sorted(expected)[0]
            _play_until_it_leaves(driver, card)
        assert rules_differ > 0, "R5.1 never narrowed the hand: the test proved nothing"
    finally:
        driver.quit()
