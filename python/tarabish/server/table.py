"""A table of the server: one match in table mode, its seats, bots, turn clock and clients.

Every action goes the same way (docs/PROTOCOL.md "Durability"): it is applied to a copy of the
match (an illegal action raises and changes nothing), appended to the database, and only then
does the copy become the table's state and are the clients woken to send what is new for them.
One lock per table keeps its actions in order; tables never wait for each other except in the
shared group commit of the store.
"""

from __future__ import annotations

import asyncio
import bisect
import contextlib
import logging
import secrets
import time
from dataclasses import dataclass
from types import ModuleType
from typing import TYPE_CHECKING, Any

import orjson

from .. import _fairness as fairness
from .._actions import NUM_ACTIONS, Action
from .._errors import InvalidInputError
from .._rules import Rules
from .bots import BotPool, BotSpec, check_spec
from .limits import Limits
from .protocol import TABLE_ID, is_table_id
from .store import Store, StoredTable, StoreUnavailable

if TYPE_CHECKING:
    from .client import Client

log = logging.getLogger("tarabish.server.table")

SEATS = 4
MASK64 = (1 << 64) - 1
GOLDEN_GAMMA = 0x9E3779B97F4A7C15
MAX_TURN_SECONDS = 3600.0
MAX_BOT_SECONDS = 10.0
BOT_RETRY_SECONDS = 1.0
"""A bot whose action could not be committed tries again after this long."""
SETTLE_SECONDS = 0.5
"""A seat's new connection waits at most this long for the seat's previous one to end, so
that what the previous one sent before it closed is taken first (``Table.settle``)."""
SUMMARY_SECONDS = 0.25
"""At most one ``table`` message a table this often; one always follows a change within it."""
ACTION_TEXTS = tuple(
    tuple(str(Action.from_id(action_id, seat)) for action_id in range(NUM_ACTIONS))
    for seat in range(SEATS)
)
"""``ACTION_TEXTS[seat][id]``: the record text of each action (R0), as the database keeps it."""
CONFIG_KEYS = (
    "id",
    "rules",
    "seed",
    "practice",
    "first_dealer",
    "seats",
    "turn_seconds",
    "timeout_bot",
    "bot_seconds",
)
"""The keys of a create request (P5.1)."""
STORED_KEYS = (*CONFIG_KEYS, "salt")
"""The keys of a stored configuration: the request's, and the secret salt of the seed."""


def _whole(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _seconds(value: Any, name: str, limit: float) -> float | None:
    if value is None:
        return None
    if not isinstance(value, int | float) or isinstance(value, bool) or not 0 <= value <= limit:
        raise InvalidInputError(f"P5.1 '{name}' is a number of seconds 0..{limit:g} or null")
    return float(value)


@dataclass(frozen=True, slots=True)
class TableConfig:
    """What a table is made with (docs/PROTOCOL.md "Creating a table").

    ``seats[s]`` is a bot spec (``"random"``, ``"greedy"``, ...) or None for a person;
    ``turn_seconds`` the time a person has for an action before ``timeout_bot`` plays it for
    them (None: the table pauses and waits); ``bot_seconds`` how long a bot waits before it acts
    (a pace people can follow). ``seed`` comes from the OS's CSPRNG unless the creator chose it
    (``practice``); ``salt`` is the secret of its commitment (``fairness``).
    """

    id: str
    rules: Rules
    seed: int
    salt: str
    first_dealer: int
    seats: tuple[str | None, str | None, str | None, str | None]
    bots: tuple[BotSpec | None, BotSpec | None, BotSpec | None, BotSpec | None]
    practice: bool = False
    turn_seconds: float | None = None
    timeout_bot: BotSpec | None = None
    bot_seconds: float = 0.0

    @classmethod
    def from_request(cls, data: Any, module: ModuleType, limits: Limits) -> TableConfig:
        """Check a create request; ``InvalidInputError`` naming the protocol rule (P5.1), the
        R9 option or the cap (with its flag) otherwise."""
        if not isinstance(data, dict):
            raise InvalidInputError("P5.1 a table is created from a JSON object")
        unknown = sorted(set(data) - set(CONFIG_KEYS))
        if unknown:
            raise InvalidInputError(f"P5.1 unknown key(s) {unknown}; the keys are {CONFIG_KEYS}")
        practice = data.get("practice", False)
        if not isinstance(practice, bool):
            raise InvalidInputError(f"P5.1 'practice' is true or false, got {practice!r}")
        if data.get("seed") is not None and not practice:
            raise InvalidInputError(
                "P5.1 a chosen 'seed' needs \"practice\": true (whoever chooses the seed knows "
                "every card; other tables' seeds come from the server)"
            )
        return cls._checked({**data, "salt": fairness.new_salt()}, module, limits)

    @classmethod
    def from_stored(cls, data: dict[str, Any], module: ModuleType, limits: Limits) -> TableConfig:
        """A stored configuration read back, its bots clamped to this process's caps (which
        may be lower than the ones it was created under): such a bot's seat then shows the
        clamped spec, and the log says so, one line a bot. Clamped, not refused, so that the
        people seated keep their match while no table searches past what the process allows."""
        unknown = sorted(set(data) - set(STORED_KEYS))
        if unknown:
            raise InvalidInputError(f"a stored table has unknown key(s) {unknown}")
        config = cls._checked({"salt": fairness.new_salt(), **data}, module, limits, clamp=True)
        clamped = [bot for bot in (*config.bots, config.timeout_bot) if bot and bot.clamped_from]
        for bot in clamped:
            log.warning(
                "bot spec clamped to the caps",
                extra={"table": config.id, "stored": bot.clamped_from, "now": bot.text},
            )
        return config

    @classmethod
    def _checked(
        cls, data: dict[str, Any], module: ModuleType, limits: Limits, *, clamp: bool = False
    ) -> TableConfig:
        rules = Rules.from_dict(data.get("rules", {}))
        seed = data.get("seed")
        if seed is None:
            seed = fairness.new_seed()
        if not _whole(seed) or not 0 <= seed <= MASK64:
            raise InvalidInputError(f"P5.1 'seed' is a whole number 0..2**64-1, got {seed!r}")
        dealer = data.get("first_dealer", 0)
        if not _whole(dealer) or not 0 <= dealer < SEATS:
            raise InvalidInputError(f"P5.1 'first_dealer' is a seat 0..3 (R2.1), got {dealer!r}")
        seats = data.get("seats", [None] * SEATS)
        if not isinstance(seats, list) or len(seats) != SEATS:
            raise InvalidInputError("P5.1 'seats' is a list of four: a bot spec or null each")
        bots = [
            None if bot is None else check_spec(module, bot, limits, clamp=clamp) for bot in seats
        ]
        seats = [
            seat if bot is None or bot.clamped_from is None else bot.text
            for seat, bot in zip(seats, bots, strict=True)
        ]
        timeout_bot = data.get("timeout_bot")
        table_id = data.get("id") or secrets.token_urlsafe(6)
        if not is_table_id(table_id):
            raise InvalidInputError(f"P5.1 'id' is {TABLE_ID.pattern}, got {table_id!r}")
        salt = data["salt"]
        if not isinstance(salt, str) or len(salt) != fairness.SALT_HEX_CHARS:
            raise InvalidInputError("a stored table's salt is 32 hex characters")
        return cls(
            id=table_id,
            rules=rules,
            seed=seed,
            salt=salt,
            first_dealer=dealer,
            seats=(seats[0], seats[1], seats[2], seats[3]),
            bots=(bots[0], bots[1], bots[2], bots[3]),
            practice=bool(data.get("practice", False)),
            turn_seconds=_seconds(data.get("turn_seconds"), "turn_seconds", MAX_TURN_SECONDS),
            timeout_bot=None
            if timeout_bot is None
            else check_spec(module, timeout_bot, limits, clamp=clamp),
            bot_seconds=_seconds(data.get("bot_seconds"), "bot_seconds", MAX_BOT_SECONDS) or 0.0,
        )

    @property
    def commitment(self) -> str:
        """The commitment to the seed the summary publishes."""
        return fairness.commitment(self.seed, self.salt)

    def to_dict(self) -> dict[str, Any]:
        """The stored form (``from_stored`` reads it back), the secret salt included."""
        return {
            "id": self.id,
            "rules": self.rules.to_dict(),
            "seed": self.seed,
            "salt": self.salt,
            "practice": self.practice,
            "first_dealer": self.first_dealer,
            "seats": list(self.seats),
            "turn_seconds": self.turn_seconds,
            "timeout_bot": None if self.timeout_bot is None else self.timeout_bot.text,
            "bot_seconds": self.bot_seconds,
        }


class Table:
    """A live table: the committed match state, the seats' token hashes, the clients."""

    def __init__(
        self,
        config: TableConfig,
        module: ModuleType,
        store: Store,
        server: str,
        pool: BotPool,
        tokens: dict[int, str] | None = None,
        actions: tuple[str, ...] = (),
    ) -> None:
        self.config = config
        self.store = store
        self.server = server
        """The server id of the process hosting the table: where its clients connect."""
        self.pool = pool
        self.state: Any = module.MatchState(
            seed=config.seed, rules=config.rules, first_dealer=config.first_dealer
        )
        for action in actions:
            self.state.apply(action)
        self.actions = len(actions)
        self.tokens: dict[int, str] = dict(tokens or {})
        self.clients: set[Client] = set()
        self.spectators = 0
        self.idle_since = time.monotonic()
        """When its last client left (or it was made): for its expiry (``GameServer``)."""
        self.paused_for: int | None = None
        self.closed = False
        self._lock = asyncio.Lock()
        self._timer: asyncio.TimerHandle | None = None
        self._bot_task: asyncio.Task[None] | None = None
        self._timed_out_at: tuple[int, int] | None = None
        self._announced = 0.0
        self._announcing: asyncio.TimerHandle | None = None
        self._public_seqs: list[int] = []
        self._public_texts: list[bytes] = []
        self._public_at = -1

    @classmethod
    def from_stored(
        cls,
        stored: StoredTable,
        module: ModuleType,
        store: Store,
        server: str,
        pool: BotPool,
        limits: Limits,
    ) -> Table:
        """A table rebuilt from the database, hosted by ``server``: its log replayed on a
        fresh match, its bots clamped to ``limits`` (``TableConfig.from_stored``)."""
        config = TableConfig.from_stored(stored.config, module, limits)
        return cls(config, module, store, server, pool, stored.tokens, stored.actions)

    @property
    def id(self) -> str:
        return self.config.id

    def summary(self) -> dict[str, Any]:
        """The public facts of the table (docs/PROTOCOL.md "table" message): no card."""
        state = self.state
        online = {client.seat for client in self.clients if client.seat is not None}
        seats = [
            {
                "bot": bot,
                "taken": bot is not None or seat in self.tokens,
                "online": bot is not None or seat in online,
            }
            for seat, bot in enumerate(self.config.seats)
        ]
        timeout_bot = self.config.timeout_bot
        return {
            "table": self.id,
            "server": self.server,
            "rules": self.config.rules.to_dict(),
            "seats": seats,
            "practice": self.config.practice,
            "fairness": {"commitment": self.config.commitment},
            "turn_seconds": self.config.turn_seconds,
            "timeout_bot": None if timeout_bot is None else timeout_bot.text,
            "scores": list(state.scores),
            "hand": state.hand_index,
            "to_move": state.to_move,
            "over": state.is_terminal,
            "winner": state.winner,
            "paused_for": self.paused_for,
            "spectators": self.spectators,
        }

    def record(self) -> dict[str, Any]:
        """The finished match's ``tarabish-record/1``, with the seed and salt revealed at its
        top level (``fairness``); only once the match is over (P5.2)."""
        from .._record import to_record

        assert self.state.is_terminal
        return {
            **to_record(self.state),
            "fairness": fairness.revealed(self.config.seed, self.config.salt),
        }

    # -- actions -------------------------------------------------------------------------------

    async def act(self, seat: int, action_id: int, *, at: int | None = None) -> bool:
        """Apply action ``action_id`` for ``seat``, make it durable, then wake the clients.
        Raises what the engine raises for an action it refuses (nothing changes). With ``at``
        (the number of actions when it was chosen) a stale action is dropped: False."""
        async with self._lock:
            if self.closed:
                raise InvalidInputError("P3.4 the server is shutting down: no more actions")
            if at is not None and at != self.actions:
                return False
            state = self.state.clone()
            state.apply(action_id, seat)
            text = ACTION_TEXTS[seat][action_id]
            await self.store.append_action(
                self.id, self.actions, seat, text, time.time(), state.is_terminal
            )
            self.state = state
            self.actions += 1
            self.paused_for = None
        self.changed()
        return True

    def changed(self) -> None:
        """After a committed action (or a resume): wake every client, set the turn clock, and
        let a bot act if one is to move."""
        for client in list(self.clients):
            client.wake()
        if self.state.is_terminal:
            self.announce()  # the summary's scores, "over" and "winner" have changed
        self._clock()
        self._schedule_bot()

    def _seat_to_move(self) -> int | None:
        state = self.state
        return None if state.is_terminal or self.closed else state.to_move

    def _bot_to_move(self) -> tuple[int, BotSpec] | None:
        """The seat to move and its bot, if a bot plays it now: a bot seat, or a person's seat
        whose turn clock ran out on this very action (``timeout_bot``)."""
        seat = self._seat_to_move()
        if seat is None:
            return None
        bot = self.config.bots[seat]
        if bot is None and self._timed_out_at == (seat, self.actions):
            bot = self.config.timeout_bot
        return None if bot is None else (seat, bot)

    def _schedule_bot(self) -> None:
        if self._bot_to_move() is not None and (self._bot_task is None or self._bot_task.done()):
            self._bot_task = asyncio.get_running_loop().create_task(self._bots())

    async def _bots(self) -> None:
        """Play the bots' actions while a bot is to move (one task per table at a time). A
        decision runs on the server's bot workers (``BotPool``), never on the event loop. An
        action the database cannot commit is tried again every ``BOT_RETRY_SECONDS``: the bots
        pause, and the log says once when they stop and once when they go on."""
        while (turn := self._bot_to_move()) is not None:
            seat, bot = turn
            if self.config.bots[seat] is not None and self.config.bot_seconds:
                await asyncio.sleep(self.config.bot_seconds)
                if self._bot_to_move() != turn:
                    continue
            number = self.actions
            seed = (self.config.seed ^ (number * GOLDEN_GAMMA)) & MASK64
            try:
                choice = await self.pool.decide(self.id, bot, self.state.clone(), seat, seed)
            except Exception:  # a bot that fails is a bug: say so once, and stop this table's
                log.exception("bot failed", extra={"table": self.id, "seat": seat, "bot": bot.text})
                return
            paused = False
            while True:
                try:
                    await self.act(seat, choice, at=number)
                    break
                except StoreUnavailable as error:
                    if not paused:
                        paused = True
                        log.warning("bots paused", extra={"table": self.id, "error": str(error)})
                    await asyncio.sleep(BOT_RETRY_SECONDS)
            if paused:
                log.info("bots resumed", extra={"table": self.id})

    def _clock(self) -> None:
        """Start the turn clock of a person to move, if the table has one."""
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        seat = self._seat_to_move()
        limit = self.config.turn_seconds
        if seat is None or limit is None or self.config.seats[seat] is not None:
            return
        self._timer = asyncio.get_running_loop().call_later(
            limit, self._timed_out, seat, self.actions
        )

    def _timed_out(self, seat: int, number: int) -> None:
        self._timer = None
        if self.actions != number or self._seat_to_move() != seat:
            return
        bot = self.config.timeout_bot
        log.info(
            "turn timed out",
            extra={"table": self.id, "seat": seat, "then": bot.text if bot else "pause"},
        )
        self._timed_out_at = (seat, number)
        if bot is None:
            self.paused_for = seat
            self.announce()
        else:
            self._schedule_bot()

    # -- clients -------------------------------------------------------------------------------

    def announce(self) -> None:
        """Send every client the table's public summary (seats taken, online, paused), at most
        once every ``SUMMARY_SECONDS``: a change within that time is sent at its end, with
        every other change up to then (so a crowd joining costs each client O(1) messages)."""
        if self._announcing is not None:
            return
        wait = self._announced + SUMMARY_SECONDS - time.monotonic()
        if wait <= 0:
            self._send_summary()
        else:
            self._announcing = asyncio.get_running_loop().call_later(wait, self._send_summary)

    def _send_summary(self) -> None:
        self._announcing = None
        self._announced = time.monotonic()
        if not self.clients:
            return
        message = {"type": "table", **self.summary()}
        for client in list(self.clients):
            client.send(message)

    async def settle(self, seat: int) -> None:
        """Before a seat's new connection is served (P2.3): take first what the seat's previous
        connection sent before it closed, so that a resume never offers a turn the seat has
        already taken. A connection reads its messages in order before it ends, so the previous
        one is given ``SETTLE_SECONDS`` to end (one still open, a second tab, is then replaced);
        an action already being committed is waited for."""
        previous = next((client for client in self.clients if client.seat == seat), None)
        if previous is not None:
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(SETTLE_SECONDS):
                    await previous.left.wait()
        async with self._lock:
            pass

    def attach(self, client: Client) -> None:
        for other in [c for c in self.clients if c.seat is not None and c.seat == client.seat]:
            other.close(4000, "P2.3 replaced by a newer connection of this seat")
            self.clients.discard(other)
        self.clients.add(client)
        self.spectators += client.seat is None
        self.announce()

    def detach(self, client: Client) -> None:
        client.left.set()
        if client in self.clients:
            self.clients.discard(client)
            self.spectators -= client.seat is None
            if not self.clients:
                self.idle_since = time.monotonic()
            self.announce()

    def public_events(self, since: int, budget: int) -> tuple[list[bytes], int, bool]:
        """The public events after ``since`` as JSON texts, as many as fit in ``budget`` bytes
        (at least one), the last ``seq`` among them and whether more follow. They come from one
        log a table kept for all its spectators, extended from the state once an action (a
        spectator's catch-up costs what it is sent, however long the match)."""
        if self._public_at != self.actions:
            last = self._public_seqs[-1] if self._public_seqs else 0
            for event in self.state.events(None, last):
                self._public_seqs.append(event["seq"])
                self._public_texts.append(orjson.dumps(event))
            self._public_at = self.actions
        start = bisect.bisect_right(self._public_seqs, since)
        end = start
        used = 0
        texts = self._public_texts
        while end < len(texts) and (end == start or used + len(texts[end]) < budget):
            used += len(texts[end]) + 1
            end += 1
        last = self._public_seqs[end - 1] if end > start else since
        return texts[start:end], last, end < len(texts)

    async def close(self) -> None:
        """Stop taking actions; the action being committed, if any, finishes first."""
        async with self._lock:
            self.closed = True
        if self._timer is not None:
            self._timer.cancel()
        if self._announcing is not None:
            self._announcing.cancel()
        if self._bot_task is not None and not self._bot_task.done():
            self._bot_task.cancel()
