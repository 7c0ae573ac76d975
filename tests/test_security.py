"""Security guards that cut across the apps: log-in lockouts behind the proxy, the health
check, the Content-Security-Policy and private caching of pages behind log-in."""

import re
import socket
from pathlib import Path

import pytest
from django.db import OperationalError
from django.test import RequestFactory
from django.urls import reverse

from campaigns.tests.factories import PASSWORD, UserFactory
from tests.permissions import ROWS
from tests.test_permissions import scenario  # noqa: F401  (the fixture, reused)

ROOT = Path(__file__).resolve().parent.parent
PROXY = "127.0.0.1"  # the TLS proxy in front of gunicorn, as REMOTE_ADDR sees it
CLIENT_A = "198.51.100.7"
CLIENT_B = "203.0.113.20"


# --- Log-in lockouts (axes) keyed on the real client behind the proxy ---


def _log_in(client, username, password, *, remote_addr, forwarded_for=None):
    headers = {"REMOTE_ADDR": remote_addr}
    if forwarded_for is not None:
        headers["HTTP_X_FORWARDED_FOR"] = forwarded_for
    return client.post(reverse("login"), {"username": username, "password": password}, **headers)


def test_failed_log_ins_from_one_client_behind_the_proxy_do_not_lock_the_user_out_elsewhere(
    client, db
):
    gm = UserFactory()
    for _ in range(5):
        _log_in(client, gm.username, "wrong", remote_addr=PROXY, forwarded_for=CLIENT_A)

    attacker = _log_in(client, gm.username, PASSWORD, remote_addr=PROXY, forwarded_for=CLIENT_A)
    assert attacker.status_code == 429

    victim = _log_in(client, gm.username, PASSWORD, remote_addr=PROXY, forwarded_for=CLIENT_B)
    assert victim.status_code == 302
    assert victim.url == reverse("home")


def test_a_locked_out_client_can_still_log_in_as_someone_else(client, db):
    gm, player = UserFactory(), UserFactory()
    for _ in range(5):
        _log_in(client, gm.username, "wrong", remote_addr=PROXY, forwarded_for=CLIENT_A)

    response = _log_in(client, player.username, PASSWORD, remote_addr=PROXY, forwarded_for=CLIENT_A)
    assert response.status_code == 302


def test_a_forwarded_for_header_from_an_untrusted_peer_is_ignored(client, db):
    gm = UserFactory()
    for n in range(5):
        _log_in(client, gm.username, "wrong", remote_addr=CLIENT_A, forwarded_for=f"10.0.0.{n}")

    response = _log_in(
        client, gm.username, PASSWORD, remote_addr=CLIENT_A, forwarded_for="10.0.0.99"
    )
    assert response.status_code == 429


def _request(remote_addr, forwarded_for=None):
    extra = {"REMOTE_ADDR": remote_addr}
    if forwarded_for is not None:
        extra["HTTP_X_FORWARDED_FOR"] = forwarded_for
    return RequestFactory().get("/", **extra)


@pytest.mark.parametrize(
    ("remote_addr", "forwarded_for", "expected"),
    [
        # A direct client: its own address, whatever it claims.
        (CLIENT_A, "10.1.2.3", CLIENT_A),
        (CLIENT_A, None, CLIENT_A),
        # Through the proxy: the address the proxy saw.
        (PROXY, CLIENT_A, CLIENT_A),
        ("172.18.0.5", CLIENT_A, CLIENT_A),
        ("::1", "2001:db8::7", "2001:db8::7"),
        # A client forging a chain: the right-most address not in the trusted set wins.
        (PROXY, f"6.6.6.6, {CLIENT_A}", CLIENT_A),
        (PROXY, f"6.6.6.6, {CLIENT_A}, 10.0.0.2", CLIENT_A),
        # Garbage in the chain stops the walk at the last trustworthy hop.
        (PROXY, f"{CLIENT_A}, not-an-address", PROXY),
        # The proxy without a header (its own health probe): the proxy itself.
        (PROXY, None, PROXY),
        (PROXY, "", PROXY),
        # Every hop private (a client on the same LAN): the left-most one.
        (PROXY, "192.168.1.20, 10.0.0.2", "192.168.1.20"),
    ],
)
def test_the_client_address_is_resolved_through_trusted_proxies_only(
    settings, remote_addr, forwarded_for, expected
):
    from config.network import client_ip

    assert client_ip(_request(remote_addr, forwarded_for)) == expected


def test_the_trusted_proxies_can_be_narrowed(settings):
    from config.network import client_ip

    settings.TRUSTED_PROXIES = ["10.9.8.7/32"]
    assert client_ip(_request("10.9.8.7", CLIENT_A)) == CLIENT_A
    assert client_ip(_request(PROXY, CLIENT_A)) == PROXY


# --- /healthz: web health is the database; the broker is reported apart ---


def _closed_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_healthz_stays_up_when_only_the_broker_is_down(client, db, settings):
    settings.REDIS_URL = f"redis://127.0.0.1:{_closed_port()}/0"
    response = client.get("/healthz")
    assert response.status_code == 200
    body = response.json()
    assert body["checks"]["database"] == "ok"
    assert body["checks"]["broker"].startswith("error")
    assert body["status"] == "degraded"


def test_healthz_is_503_when_the_database_is_down(client, db, monkeypatch, settings):
    settings.REDIS_URL = ""

    class DownConnection:
        def cursor(self):
            raise OperationalError("connection refused")

    monkeypatch.setattr("config.views.connection", DownConnection())
    response = client.get("/healthz")
    assert response.status_code == 503
    assert response.json()["checks"]["database"] == "error: OperationalError"


# --- Content-Security-Policy ---

# Every page of the permission matrix (/healthz is JSON for probes, not a page).
GET_ROWS = [row for row in ROWS if row.method == "get" and row.name != "healthz"]


def _url(row, pages):
    args = [
        pages.token_for_reset
        if name == "token" and row.name == "password_reset_confirm"
        else getattr(pages, name)
        for name in row.args
    ]
    return reverse(row.name, args=args)


@pytest.mark.parametrize("visitor", ["anonymous", "player"])
def test_every_page_carries_the_content_security_policy(client, scenario, visitor):  # noqa: F811
    if visitor == "player":
        client.force_login(scenario.users["player"])
    for row in GET_ROWS:
        url = _url(row, scenario)
        response = client.get(url, row.data)
        policy = response.headers.get("Content-Security-Policy", "")
        assert "default-src 'self'" in policy, url
        assert "script-src 'self'" in policy, url
        assert "style-src 'self'" in policy, url
        assert "object-src 'none'" in policy, url
        assert "frame-ancestors 'none'" in policy, url
        assert "unsafe-inline" not in policy, url


def test_the_not_found_page_carries_the_content_security_policy(client, db):
    response = client.get("/no-such-page/")
    assert response.status_code == 404
    assert "default-src 'self'" in response.headers["Content-Security-Policy"]


TEMPLATES = sorted(
    [*ROOT.glob("templates/**/*.html"), *ROOT.glob("*/templates/**/*.html")],
    key=lambda p: str(p),
)
# What the policy above blocks in the browser: inline handlers, inline style attributes,
# <style> blocks, inline <script> bodies and javascript: URLs.
INLINE = [
    ("inline event handler", re.compile(r"<[^>]*\son[a-z]+\s*=", re.IGNORECASE)),
    ("inline style attribute", re.compile(r"<[^>]*\sstyle\s*=", re.IGNORECASE)),
    ("<style> block", re.compile(r"<style\b", re.IGNORECASE)),
    ("inline <script>", re.compile(r"<script\b(?![^>]*\ssrc\s*=)[^>]*>", re.IGNORECASE)),
    ("javascript: URL", re.compile(r"""=\s*["']?\s*javascript:""", re.IGNORECASE)),
]


def test_the_template_scan_finds_the_templates():
    assert ROOT / "templates" / "base.html" in TEMPLATES
    assert len(TEMPLATES) > 20


def test_no_template_needs_inline_script_or_style():
    found = []
    for path in TEMPLATES:
        text = path.read_text(encoding="utf-8")
        for what, pattern in INLINE:
            for match in pattern.finditer(text):
                line = text.count("\n", 0, match.start()) + 1
                found.append(f"{path.relative_to(ROOT)}:{line}: {what}")
    assert not found, "The Content-Security-Policy blocks these:\n" + "\n".join(found)


def test_htmx_is_told_not_to_inject_styles_or_evaluate_code(client, db):
    page = client.get(reverse("login")).content.decode()
    assert '"includeIndicatorStyles":false' in page
    assert '"allowEval":false' in page
    scripts = re.findall(r"<script\b[^>]*>", page)
    assert scripts and all(" src=" in tag for tag in scripts), scripts


# --- Cache-Control: private on pages behind log-in ---


@pytest.mark.parametrize("row", [r for r in GET_ROWS if r.player == 200], ids=lambda r: r.name)
def test_pages_behind_log_in_are_private(client, scenario, row):  # noqa: F811
    client.force_login(scenario.users["player"])
    response = client.get(_url(row, scenario), row.data)
    assert response.status_code == 200
    assert "private" in response.headers.get("Cache-Control", ""), response.headers


def test_the_dice_log_and_its_unchanged_live_poll_are_private(client, scenario):  # noqa: F811
    client.force_login(scenario.users["player"])
    url = reverse("characters:dice_log", args=[scenario.campaign])
    page = client.get(url)
    assert page.headers["Cache-Control"] == "no-cache, private"
    poll = re.search(r'id="live"[^>]*hx-get="([^"]+)"', page.text).group(1).replace("&amp;", "&")
    again = client.get(poll, HTTP_HX_REQUEST="true")
    assert again.status_code == 204
    assert again.headers["Cache-Control"] == "no-store, private"


def test_no_store_is_kept_on_private_pages(client, db):
    client.force_login(UserFactory())
    response = client.get("/healthz")
    assert "no-store" in response.headers["Cache-Control"]


def test_the_public_landing_page_is_not_shared_between_visitors(client, db):
    # It carries a CSRF token (hx-headers on <body>), so no shared cache may keep it.
    response = client.get(reverse("home"))
    assert response.status_code == 200
    assert "private" in response.headers.get("Cache-Control", "")
