"""The client's address behind the TLS proxy.

``X-Forwarded-For`` is a list anyone can write to: each proxy appends the address it saw. Only
the hops we trust (``settings.TRUSTED_PROXIES``: by default loopback and the private networks
where a compose proxy sits) are believed, so the client is the right-most address that is not
one of them. A request that reaches gunicorn directly from a public address is that address,
whatever headers it carries.
"""

import ipaddress
from functools import lru_cache

from django.conf import settings

# Loopback and private networks: where a proxy in the same compose project (or on the host) is.
DEFAULT_TRUSTED_PROXIES = [
    "127.0.0.0/8",
    "::1/128",
    "10.0.0.0/8",
    "172.16.0.0/12",
    "192.168.0.0/16",
    "fc00::/7",
]


@lru_cache(maxsize=8)
def _networks(trusted: tuple[str, ...]):
    return tuple(ipaddress.ip_network(n, strict=False) for n in trusted)


def parse_trusted_proxies(values) -> list[str]:
    """Validate a list of addresses or CIDR networks; raises ValueError naming a bad one."""
    cleaned = [v.strip() for v in values if v.strip()]
    for value in cleaned:
        try:
            ipaddress.ip_network(value, strict=False)
        except ValueError:
            raise ValueError(f"{value!r} is not an IP address or network") from None
    return cleaned


def _address(text: str):
    try:
        address = ipaddress.ip_address(text.strip())
    except ValueError:
        return None
    # An IPv4 client seen through a dual-stack socket (::ffff:203.0.113.5) is that IPv4 client.
    return getattr(address, "ipv4_mapped", None) or address


def client_ip(request) -> str | None:
    """The address of the client that sent ``request`` (django-axes' AXES_CLIENT_IP_CALLABLE)."""
    peer = request.META.get("REMOTE_ADDR", "")
    networks = _networks(tuple(settings.TRUSTED_PROXIES))

    def trusted(address) -> bool:
        return any(address in network for network in networks)

    current = _address(peer)
    if current is None:
        return peer or None
    forwarded = request.META.get("HTTP_X_FORWARDED_FOR", "")
    hops = [hop for hop in forwarded.split(",") if hop.strip()] if forwarded else []
    while trusted(current) and hops:
        previous = _address(hops.pop())
        if previous is None:
            break  # garbage: the last hop we trust is as far as we can see
        current = previous
    return str(current)
