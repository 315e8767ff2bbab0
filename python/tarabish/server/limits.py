"""Every limit of ``tarabish serve`` in one place: its default and its command-line flag
(docs/SECURITY.md lists them), and what a per-address limit counts as one address
(``address_group``: an IPv6 address's /64). No address is exempt from any of them, loopback
included; a deployment (or the load benchmark) that needs more raises them with the flags.
Behind a reverse proxy given with ``--trusted-proxy``, a client is the address the proxy names
in ``X-Forwarded-For`` (``is_trusted_proxy``), and the proxy's own connections are capped only
by the process-wide cap.

This module imports nothing heavy, so the command line can add the flags without loading the
server.
"""

from __future__ import annotations

import argparse
import functools
import ipaddress
import os
from dataclasses import dataclass, field, fields
from typing import Any


def _cores() -> int:
    return max(1, len(os.sched_getaffinity(0)))


@dataclass(frozen=True, slots=True)
class Limits:
    """What one server process allows; each field is the flag ``--field-name``."""

    max_bot_millis: int = 2000
    """The longest search time a table's bot may ask for (``ismcts:millis=``)."""
    max_bot_iterations: int = 100_000
    """The most ISMCTS iterations a decision a table's bot may ask for (without ``millis``)."""
    max_bot_worlds: int = 20
    """The most worlds a PIMC decision a table's bot may ask for."""
    max_bot_threads: int = 1
    """The most search threads one decision may use."""
    bot_workers: int = field(default_factory=_cores)
    """Worker threads for searching bots (tables take turns on them); the quick bots (random,
    greedy, heuristic) have workers of their own, so no search delays them."""
    max_connections: int = 1024
    """Open connections (HTTP and WebSocket) of the whole process."""
    max_connections_per_address: int = 32
    """Open connections from one client address."""
    request_seconds: float = 5.0
    """Time an HTTP request has to send its headers, and then its body."""
    hello_seconds: float = 10.0
    """Time a new WebSocket has for its first message (P2.1)."""
    max_body_bytes: int = 4096
    """The largest HTTP request body (413 past it, refused while reading)."""
    requests_per_second: float = 20.0
    """HTTP requests (GET, POST, any) one address may make a second, on average ..."""
    request_burst: int = 100
    """... and at once (429 with ``Retry-After`` beyond): a page and its files are a dozen."""
    create_per_minute: float = 30.0
    """Tables one address may create a minute, on average ..."""
    create_burst: int = 10
    """... and at once (429 with ``Retry-After`` beyond)."""
    idle_table_seconds: float = 600.0
    """A table nobody has joined and nobody is connected to leaves after this long."""
    finished_table_seconds: float = 300.0
    """A finished match leaves memory this long after its last client left (its record stays
    in the database)."""
    max_spectators: int = 100
    """Spectators a table (players do not count)."""
    allow_origin: tuple[str, ...] = ()
    """Browser origins allowed besides the server's own (``--allow-origin``, repeatable)."""
    trusted_proxy: tuple[str, ...] = ()
    """Reverse proxies in front of the server, as addresses or networks (``--trusted-proxy``,
    repeatable): a request or WebSocket coming through one counts against the limits of the
    client its ``X-Forwarded-For`` names (the last address there that is not a trusted proxy),
    and the proxy's connections only against ``max_connections``. From any other peer the
    header is ignored, so no client can choose the address it is counted as."""

    def check(self) -> None:
        """``ValueError`` naming the flag of a value out of range (every number is over 0, every
        trusted proxy an IP address or network)."""
        for item in fields(self):
            value = getattr(self, item.name)
            if isinstance(value, int | float) and not value > 0:
                raise ValueError(f"{flag(item.name)} must be more than 0, got {value}")
        for proxy in self.trusted_proxy:
            try:
                ipaddress.ip_network(proxy, strict=False)
            except ValueError:
                raise ValueError(
                    f"{flag('trusted_proxy')} takes an IP address or network (like 10.0.0.0/8), "
                    f"got {proxy!r}"
                ) from None

    @classmethod
    def from_args(cls, args: argparse.Namespace) -> Limits:
        """The limits of parsed ``tarabish serve`` arguments (``add_flags``)."""
        values: dict[str, Any] = {}
        for item in fields(cls):
            given = getattr(args, item.name, None)
            if given is not None:
                values[item.name] = tuple(given) if item.name in REPEATED else given
        limits = cls(**values)
        limits.check()
        return limits


IPV6_GROUP_BITS = 64
"""An IPv6 client's per-address limits count its whole /64: a host or a site is routinely given
one, so each of its addresses alone would multiply every per-address limit."""
ADDRESS_CACHE = 4096


@functools.lru_cache(maxsize=ADDRESS_CACHE)
def address_group(host: str) -> str:
    """What every per-address limit counts as one client address: an IPv4 address as it is, an
    IPv4-mapped IPv6 address (``::ffff:a.b.c.d``, a dual-stack listener's IPv4 client) as its
    IPv4 address, any other IPv6 address as its /64 (``2001:db8:1:2::/64``); anything else (a
    Unix socket's peer) as given."""
    try:
        address = ipaddress.ip_address(host.partition("%")[0])  # without a zone (``%eth0``)
    except ValueError:
        return host
    if isinstance(address, ipaddress.IPv6Address):
        if address.ipv4_mapped is not None:
            return str(address.ipv4_mapped)
        return str(ipaddress.IPv6Network((address, IPV6_GROUP_BITS), strict=False))
    return str(address)


IPV4_MAPPED_PREFIX = 96
"""The bits of ``::ffff:0:0/96`` before an IPv4-mapped IPv6 address's IPv4 part."""
Network = ipaddress.IPv4Network | ipaddress.IPv6Network


@functools.lru_cache(maxsize=8)
def proxy_networks(proxies: tuple[str, ...]) -> tuple[Network, ...]:
    """``proxies`` (``Limits.trusted_proxy``, checked) as the networks a peer is matched
    against: each as given, and an IPv4 one also as IPv4-mapped IPv6 (``::ffff:a.b.c.d``),
    the address a dual-stack listener (``--host ::``) sees an IPv4 proxy at."""
    networks: list[Network] = []
    for proxy in proxies:
        network = ipaddress.ip_network(proxy, strict=False)
        networks.append(network)
        if isinstance(network, ipaddress.IPv4Network):
            mapped = f"::ffff:{network.network_address}/{IPV4_MAPPED_PREFIX + network.prefixlen}"
            networks.append(ipaddress.IPv6Network(mapped))
    return tuple(networks)


@functools.lru_cache(maxsize=ADDRESS_CACHE)
def is_trusted_proxy(host: str, proxies: tuple[str, ...]) -> bool:
    """Whether the peer address ``host`` is within one of ``proxy_networks(proxies)``."""
    try:
        address = ipaddress.ip_address(host.partition("%")[0])
    except ValueError:
        return False
    return any(address in network for network in proxy_networks(proxies))


def flag(name: str) -> str:
    """The command-line flag of a field of ``Limits``."""
    return "--" + name.replace("_", "-")


def add_flags(parser: argparse.ArgumentParser | argparse._ArgumentGroup) -> None:
    """Add a flag for every field of ``Limits`` to ``tarabish serve``'s parser (each defaults
    to None: the field's default)."""
    defaults = Limits()
    assert set(HELP) == {item.name for item in fields(Limits)}
    for item in fields(Limits):
        default = getattr(defaults, item.name)
        described = HELP[item.name]
        if item.name in REPEATED:
            metavar, example = REPEATED[item.name]
            parser.add_argument(
                flag(item.name),
                action="append",
                metavar=metavar,
                help=f"{described} (like {example})",
            )
            continue
        kind = type(default)
        parser.add_argument(
            flag(item.name),
            type=kind,
            default=None,
            metavar="N",
            help=f"{described} (default {'the cores' if item.name == 'bot_workers' else default})",
        )


HELP = {
    "max_bot_millis": "the longest search time (ms) a table's bot may ask for",
    "max_bot_iterations": "the most ISMCTS iterations a decision a table's bot may ask for",
    "max_bot_worlds": "the most PIMC worlds a decision a table's bot may ask for",
    "max_bot_threads": "the most search threads one bot decision may use",
    "bot_workers": "worker threads for searching bots, shared by the tables in turn",
    "max_connections": "open connections of the whole process",
    "max_connections_per_address": "open connections from one client address",
    "request_seconds": "seconds an HTTP request has for its headers, then for its body",
    "hello_seconds": "seconds a new WebSocket has for its first message (join, resume, watch)",
    "max_body_bytes": "the largest HTTP request body in bytes",
    "requests_per_second": "HTTP requests one address may make a second on average",
    "request_burst": "HTTP requests one address may make at once",
    "create_per_minute": "tables one address may create a minute on average",
    "create_burst": "tables one address may create at once",
    "idle_table_seconds": "seconds before a table nobody joined or watches leaves",
    "finished_table_seconds": "seconds a finished match stays in memory after its last client",
    "max_spectators": "spectators a table",
    "allow_origin": "a browser origin allowed besides the server's own; repeat for more",
    "trusted_proxy": (
        "a reverse proxy's address or network, whose X-Forwarded-For names the client each "
        "limit counts; repeat for more"
    ),
}
"""Each limit's help text on the command line."""
REPEATED = {
    "allow_origin": ("ORIGIN", "https://example.org"),
    "trusted_proxy": ("ADDRESS", "127.0.0.1 or 10.0.0.0/8"),
}
"""The flags given once for each value, with their metavar and an example."""
