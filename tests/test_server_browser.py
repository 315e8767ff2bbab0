"""The page of ``tarabish serve`` in headless Chromium (Debian's ``chromium`` and
``chromium-driver``, installed by .ci/system-deps.sh) driven by Selenium: a person creates a
table against three bots from the lobby, plays a whole hand with the mouse, and the page shows
the hand, the trick, the last trick, the scores and whose turn it is."""

from __future__ import annotations

import re
import time
from collections.abc import Iterator

import pytest
from selenium import webdriver
from selenium.common.exceptions import StaleElementReferenceException
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.remote.webdriver import WebDriver
from selenium.webdriver.support.ui import Select, WebDriverWait
from serverkit import Server, sqlite_server

CHROMIUM = "/usr/bin/chromium"
CHROMEDRIVER = "/usr/bin/chromedriver"
HAND_SECONDS = 90


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    with sqlite_server(tmp_path_factory.mktemp("browser")) as running:
        yield running


@pytest.fixture(scope="module")
def browser() -> Iterator[WebDriver]:
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for argument in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu"):
        options.add_argument(argument)
    driver = webdriver.Chrome(options=options, service=Service(CHROMEDRIVER))
    driver.set_window_size(1280, 900)
    yield driver
    driver.quit()


def _log(browser: WebDriver) -> list[str]:
    lines = browser.execute_script(
        "return [...document.querySelectorAll('#log li')].map((item) => item.textContent)"
    )
    return [str(line) for line in lines]


def _check_tables_cards(browser: WebDriver) -> int:
    """On our turn in play: the trick shows one card a seat that played to it, and the last
    trick (if any) four cards and who won it. Returns 1 if there was a last trick."""
    text = browser.find_element(By.ID, "info").text
    if "Trump" not in text:
        return 0
    played = len(browser.find_elements(By.CSS_SELECTOR, "#trick .card"))
    assert 0 <= played <= 3
    last = browser.find_element(By.ID, "last-trick")
    if last.text == "-":
        return 0
    assert len(last.find_elements(By.CSS_SELECTOR, ".card")) == 4 and "won by" in last.text
    return 1


def _my_actions(browser: WebDriver) -> int:
    return sum(
        line.startswith(("You played", "You called", "You passed")) for line in _log(browser)
    )


def _click_something(browser: WebDriver) -> str | None:
    """Click an action the page offers: a call or pass in the auction, else a card that is
    legal (not a possible misplay). Returns what was clicked."""
    for selector in ("#actions button.call", "#hand button.card:not([disabled]):not(.misplay)"):
        buttons = browser.find_elements(By.CSS_SELECTOR, selector)
        if buttons:
            label = buttons[0].text
            buttons[0].click()
            return label
    return None


def test_a_whole_hand_by_clicking(server: Server, browser: WebDriver) -> None:
    browser.get(server.url)
    WebDriverWait(browser, 10).until(lambda b: b.find_element(By.ID, "lobby").is_displayed())
    for seat in (1, 2, 3):
        Select(browser.find_element(By.NAME, f"seat{seat}")).select_by_value("random")
    browser.find_element(By.NAME, "botdelay").clear()
    browser.find_element(By.NAME, "botdelay").send_keys("0.05")
    browser.find_element(By.ID, "create-button").click()
    WebDriverWait(browser, 10).until(lambda b: b.find_element(By.ID, "game").is_displayed())
    WebDriverWait(browser, 10).until(lambda b: len(b.find_elements(By.CSS_SELECTOR, "#hand .card")))
    assert re.match(r"#/table/[\w-]+/seat/0$", browser.execute_script("return location.hash"))
    dealt = browser.find_element(By.ID, "log").text
    assert "You are dealt" in dealt

    clicks: list[str] = []
    last_tricks_seen = 0
    deadline = time.monotonic() + HAND_SECONDS
    while not any(line.startswith("Hand over") for line in _log(browser)):
        assert time.monotonic() < deadline, f"the hand did not end; log: {_log(browser)[-5:]}"
        if browser.find_element(By.ID, "info").get_attribute("data-to-move") == "0":
            last_tricks_seen += _check_tables_cards(browser)
            mine = _my_actions(browser)
            try:
                clicked = _click_something(browser)
            except StaleElementReferenceException:
                continue  # the page redrew under the mouse
            if clicked is not None:
                clicks.append(clicked)
                # The server's answer (the action in the log) before the next click.
                WebDriverWait(browser, 10, poll_frequency=0.02).until(
                    lambda b, mine=mine: _my_actions(b) > mine
                )
                continue
        time.sleep(0.02)

    log = _log(browser)
    played = [line for line in log if line.startswith("You played")]
    assert played and len(clicks) >= len(played)
    assert not browser.find_element(By.ID, "error").text
    assert last_tricks_seen, "a completed trick was never shown as the last trick"
    # The page at the end of the hand: the match score is the hand's score.
    over = next(line for line in log if line.startswith("Hand over"))
    score = re.search(r"score (\d+) - (\d+)", over)
    assert score is not None, over
    shown = re.search(r"match (\d+) - (\d+)", browser.find_element(By.ID, "scores").text)
    assert shown is not None and shown.groups() == score.groups()
    seats = browser.find_elements(By.CSS_SELECTOR, ".seat-box")
    assert sorted(box.get_attribute("data-seat") for box in seats) == ["0", "1", "2", "3"]
    assert "bot random" in browser.find_element(By.ID, "seat-left").text  # seat 1, to the left
    assert browser.find_element(By.ID, "seat-bottom").text.startswith("You (team 0)")
