"""The address friends reach this server at, for the links a table shares.

An invite link is built on the address its page was opened at. That is right on a
deployment (the proxy passes the public ``Host``) and wrong in the case a party at home
meets first: the host runs ``darkcity serve --host 0.0.0.0`` on a laptop and opens
``http://localhost:8000``, so the link and its QR code would send every friend's phone
to the phone itself. So ``darkcity serve`` works out, when it listens on every
interface, the address of this machine on the local network (``share_url``, also
``DARKCITY_SHARE_URL``), and a page opened on a loopback address shares that one
instead. With the default ``--host 127.0.0.1`` nobody else can reach the server at all:
the page says so and how to fix it (``reachable`` false), rather than hand out a link
that cannot work. Every shared link (the invite, its QR code, the preview's picture,
the companion's players' link) takes its address from :func:`share_base`: one rule.
"""

from __future__ import annotations

import ipaddress
import socket

from fastapi import Request

from darkcity.server.config import ServerConfig

__all__ = ["is_loopback", "lan_address", "serve_share_url", "share_base"]

_WILDCARDS = frozenset({"", "0.0.0.0", "::", "[::]"})


def is_loopback(host: str) -> bool:
    """Whether ``host`` (a name or an address, IPv6 in brackets or not) is this machine's
    own loopback: ``localhost``, ``127.0.0.0/8``, ``::1``."""
    host = host.strip("[]").lower()
    if host == "localhost" or host.endswith(".localhost"):
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def lan_address() -> str | None:
    """This machine's IPv4 address on its local network, or None. Connecting a UDP socket
    sends nothing: it only asks the system which interface would carry the packet."""
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
            s.connect(("10.254.254.254", 1))
            address = str(s.getsockname()[0])
    except OSError:
        return None
    return None if is_loopback(address) or address == "0.0.0.0" else address


def serve_share_url(host: str, port: int, lan: str | None) -> str:
    """The address ``darkcity serve --host host --port port`` is reached at by others:
    the local network's when it listens everywhere, ``host``'s own when it names one
    reachable from elsewhere, "" when it listens on loopback only (or ``lan`` is
    unknown)."""
    if host in _WILDCARDS:
        return f"http://{lan}:{port}" if lan else ""
    if is_loopback(host):
        return ""
    return f"http://[{host}]:{port}" if ":" in host else f"http://{host}:{port}"


def share_base(request: Request, cfg: ServerConfig) -> tuple[str, bool]:
    """``(base, reachable)``: the address to build a shared link on (no trailing slash)
    for a page this request serves, and whether others can open it. A page opened on a
    loopback address shares ``cfg.share_url``, or is told it cannot be reached."""
    base = str(request.base_url).rstrip("/")
    if not is_loopback(request.url.hostname or ""):
        return base, True
    if cfg.share_url:
        return cfg.share_url.rstrip("/"), True
    return base, False
