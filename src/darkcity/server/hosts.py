"""The ``Host`` header checked (issue #53): a page of another site cannot talk to this
server through a name of its own that it points at our address (DNS rebinding).

A request (or a WebSocket) is answered only for a host this server answers to:

- always: an IP address written as such (``127.0.0.1:8000``, ``[::1]``,
  ``192.168.1.20:8000``: no other site can own it) and ``localhost`` (with its
  subdomains);
- the host of ``DARKCITY_SHARE_URL`` (where friends are sent), and the names given with
  ``darkcity serve --allowed-hosts`` (``DARKCITY_ALLOWED_HOSTS``: ``play.example.org``,
  ``*.example.org``; ``*`` turns the check off);
- listening beyond this machine (``--host 0.0.0.0``, ``::`` or an address of a
  network), also the machine's own name (``gethostname()``, and with ``.local``), and
  any name a trusted proxy on another machine forwards (a peer in
  ``FORWARDED_ALLOW_IPS`` that is not a loopback address, with ``X-Forwarded-For``):
  that proxy answers for its names (``deploy/compose.yaml``'s Caddy).

A proxy on this same machine (``--host 127.0.0.1`` behind Caddy or nginx on a domain)
needs ``--allowed-hosts DOMAIN``: its requests come from ``127.0.0.1`` like a page in
a local browser would. The check runs under ``darkcity serve`` (which says where it
listens); an app built by :func:`~darkcity.server.create_app` without ``listen_host``
checks only ``allowed_hosts`` when given. Refused: ``400`` ``bad-host`` in words (the
operator's fix in the log, once per name).

Since the peer's own address decides whether a proxy is trusted, ``darkcity serve``
reads ``X-Forwarded-For`` here (uvicorn's own middleware, after this check) rather
than in uvicorn, which would replace the peer before anything else sees it.
"""

from __future__ import annotations

import ipaddress
import json
import logging
import os
import socket
from collections.abc import Awaitable, Callable, MutableMapping
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlsplit

from darkcity.i18n import msg, translator
from darkcity.server.common import accepted_lang, refusal_body
from darkcity.server.headers import SECURITY_HEADERS

__all__ = ["AllowedHosts", "HostPolicy", "host_policy"]

log = logging.getLogger("darkcity.server")

Scope = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[MutableMapping[str, Any]]]
Send = Callable[[MutableMapping[str, Any]], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

_LOOPBACK_NAMES = frozenset(("localhost", "localhost.localdomain", "ip6-localhost"))


def _ip(text: str) -> ipaddress.IPv4Address | ipaddress.IPv6Address | None:
    try:
        return ipaddress.ip_address(text.strip("[]"))
    except ValueError:
        return None


def _name(host: str) -> str:
    """A ``Host`` header's name: without its port, lower case, no final dot."""
    host = host.strip().lower()
    if host.startswith("["):  # [v6]:port
        return host[:host.find("]") + 1] if "]" in host else host
    if host.count(":") == 1:
        host = host.split(":", 1)[0]
    return host.rstrip(".")


def loopback(host: str) -> bool:
    """Whether ``darkcity serve --host`` listens on this machine only."""
    if host.lower() in _LOOPBACK_NAMES:
        return True
    ip = _ip(host)
    return ip is not None and ip.is_loopback


@dataclass(frozen=True, slots=True)
class HostPolicy:
    """The names one server answers to (see the module)."""

    names: frozenset[str] = frozenset()
    suffixes: tuple[str, ...] = ()  # from "*.example.org": ".example.org"
    any_host: bool = False
    proxies: tuple[Any, ...] = ()  # trusted proxies' networks (FORWARDED_ALLOW_IPS)
    proxies_any: bool = False
    forwarded: bool = False  # a trusted proxy elsewhere may forward any name
    shown: str = ""  # what the log says is allowed
    refused_logged: set[str] = field(default_factory=set)

    def allows(self, host: str, peer: str | None, forwarded_for: bool) -> bool:
        if self.any_host:
            return True
        name = _name(host)
        if not name or _ip(name) is not None or name in _LOOPBACK_NAMES or \
                name.endswith(".localhost") or name in self.names or \
                any(name.endswith(s) for s in self.suffixes):
            return True
        return self.forwarded and forwarded_for and self._proxy(peer)

    def _proxy(self, peer: str | None) -> bool:
        ip = _ip(peer or "")
        if ip is None or ip.is_loopback:  # (a local browser could claim to be a proxy)
            return False
        return self.proxies_any or any(ip in net for net in self.proxies)


def _proxies(env: str) -> tuple[tuple[Any, ...], bool]:
    nets: list[Any] = []
    for part in env.split(","):
        part = part.strip()
        if part == "*":
            return (), True
        try:
            nets.append(ipaddress.ip_network(part, strict=False))
        except ValueError:
            continue  # (a unix socket's path, a name: not an address)
    return tuple(nets), False


def host_policy(listen_host: str, allowed: str = "", share_url: str = "",
                forwarded_allow_ips: str | None = None) -> HostPolicy | None:
    """The policy for ``darkcity serve --host listen_host --allowed-hosts allowed``;
    None: no check (``*``, or an app that does not know where it listens and was given
    no names)."""
    given = [a.strip().lower().rstrip(".") for a in allowed.split(",") if a.strip()]
    if "*" in given or (not listen_host and not given):
        return None
    names = {g for g in given if not g.startswith("*.")}
    suffixes = tuple(g[1:] for g in given if g.startswith("*."))
    share = urlsplit(share_url).hostname if share_url else None
    if share:
        names.add(share.lower())
    beyond = bool(listen_host) and not loopback(listen_host)
    if beyond:
        me = socket.gethostname().lower()
        names.update({me, f"{me}.local"})
        if _ip(listen_host) is None and listen_host:
            names.add(listen_host.lower())
    proxies, proxies_any = _proxies(
        forwarded_allow_ips if forwarded_allow_ips is not None
        else os.environ.get("FORWARDED_ALLOW_IPS", "127.0.0.1"))
    shown = ", ".join(["IP addresses", "localhost", *sorted(names),
                       *(f"*{s}" for s in suffixes),
                       *(["any name a trusted proxy forwards"] if beyond else [])])
    return HostPolicy(frozenset(names), suffixes, False, proxies, proxies_any, beyond, shown)


class AllowedHosts:
    """Refuses HTTP requests and WebSockets for a host ``policy`` does not allow."""

    def __init__(self, app: ASGIApp, policy: HostPolicy) -> None:
        self.app, self.policy = app, policy

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        headers = dict(scope.get("headers") or ())
        host = headers.get(b"host", b"").decode("latin-1")
        client = scope.get("client")
        peer = client[0] if client else None
        if self.policy.allows(host, peer, b"x-forwarded-for" in headers):
            await self.app(scope, receive, send)
            return
        name = _name(host)
        seen = self.policy.refused_logged
        if name not in seen and len(seen) < 100:
            seen.add(name)
            log.warning("refused a request for host %r: this server answers to %s. If that "
                        "is one of its names, start it with --allowed-hosts %s (or "
                        "DARKCITY_ALLOWED_HOSTS)", name, self.policy.shown, name)
        if scope["type"] == "websocket":
            await send({"type": "websocket.close", "code": 1008})
            return
        t = translator(accepted_lang(headers.get(b"accept-language", b"").decode("latin-1")))
        body = json.dumps(refusal_body(t, "bad-host", msg(
            "This server does not answer to the name {host}. If it is one of its names, "
            "its operator can allow it: darkcity serve --allowed-hosts {host}", host=name)),
            ensure_ascii=False).encode()
        await send({"type": "http.response.start", "status": 400, "headers": [
            (b"content-type", b"application/json"), (b"content-length", str(len(body)).encode()),
            (b"connection", b"close"), *SECURITY_HEADERS]})
        await send({"type": "http.response.body", "body": body})
