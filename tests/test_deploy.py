"""Production settings: the same module the container runs, checked by Django itself."""

import http.client
import json
import os
import re
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PRODUCTION_ENV = {
    "DJANGO_ENV": "production",
    "SECRET_KEY": "x9!k2#" * 10,
    "ALLOWED_HOSTS": "datapad.example.org",
}


def _manage(*args, env):
    dropped = ("SECRET_KEY", "ALLOWED_HOSTS", "TRUSTED_PROXIES", "DJANGO_ALLOW_ASYNC_UNSAFE")
    clean = {k: v for k, v in os.environ.items() if k not in dropped}
    return subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=ROOT,
        env={**clean, **env},
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_check_deploy_passes_with_no_warnings_in_production():
    result = _manage("check", "--deploy", "--fail-level", "WARNING", env=PRODUCTION_ENV)
    assert result.returncode == 0, result.stderr + result.stdout
    assert "System check identified no issues (0 silenced)." in result.stdout


def test_production_refuses_to_start_without_a_secret_key():
    env = {k: v for k, v in PRODUCTION_ENV.items() if k != "SECRET_KEY"}
    result = _manage("check", env=env)
    assert result.returncode != 0
    assert "Production needs SECRET_KEY" in result.stderr


def test_production_refuses_a_short_secret_key():
    result = _manage("check", env={**PRODUCTION_ENV, "SECRET_KEY": "short"})
    assert result.returncode != 0
    assert "at least 50 characters" in result.stderr


@pytest.mark.parametrize("hosts", ["", " ", ",", " , "])
def test_production_refuses_to_start_with_no_allowed_hosts(hosts):
    result = _manage("check", env={**PRODUCTION_ENV, "ALLOWED_HOSTS": hosts})
    assert result.returncode != 0
    assert "ALLOWED_HOSTS" in result.stderr


def test_production_strips_blanks_around_allowed_hosts():
    result = _manage(
        "shell",
        "-c",
        "from django.conf import settings; print(settings.ALLOWED_HOSTS)",
        env={**PRODUCTION_ENV, "ALLOWED_HOSTS": " datapad.example.org , ,www.example.org "},
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip().splitlines()[-1] == "['datapad.example.org', 'www.example.org']"


def test_trusted_proxies_come_from_the_environment():
    result = _manage(
        "shell",
        "-c",
        "from django.conf import settings; print(settings.TRUSTED_PROXIES)",
        env={**PRODUCTION_ENV, "TRUSTED_PROXIES": "172.30.86.0/24, ::1"},
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip().splitlines()[-1] == "['172.30.86.0/24', '::1']"


def test_a_malformed_trusted_proxy_refuses_to_start():
    result = _manage("check", env={**PRODUCTION_ENV, "TRUSTED_PROXIES": "10.0.0.0/8,proxy"})
    assert result.returncode != 0
    assert "TRUSTED_PROXIES" in result.stderr


# --- Behind the proxy: only the proxy may say a request came over HTTPS ---


def _compose_service(name):
    """The lines of one top-level service of compose.yaml (plain text: no YAML parser here)."""
    lines, inside = [], False
    for line in (ROOT / "compose.yaml").read_text().splitlines():
        if re.match(r"^  [a-z][\w-]*:\s*$", line):
            inside = line.strip() == f"{name}:"
            continue
        if re.match(r"^\S", line):
            inside = False
        if inside:
            lines.append(line)
    return "\n".join(lines)


def test_compose_trusts_forwarded_headers_from_the_proxy_only():
    for name in ("compose.yaml", "Dockerfile"):
        text = (ROOT / name).read_text()
        assert not re.search(r"forwarded-allow-ips\W+\*", text), name
        assert not re.search(r"FORWARDED_ALLOW_IPS\W+\*", text), name


def test_compose_publishes_no_port_of_gunicorn():
    web = _compose_service("web")
    assert web, "compose.yaml has no web service"
    assert "ports:" not in web
    text = (ROOT / "compose.yaml").read_text()
    assert "0.0.0.0:" not in text
    assert not re.search(r"[\"'\s]8000:8000", text)


def test_compose_puts_a_tls_proxy_in_front_and_keeps_portraits_on_a_volume():
    proxy = _compose_service("proxy")
    assert "./config/Caddyfile:/etc/caddy/Caddyfile" in proxy
    assert "443:443" in proxy
    assert "media:/srv/media:ro" in proxy  # the proxy serves portraits from the volume
    caddyfile = (ROOT / "config" / "Caddyfile").read_text()
    assert "reverse_proxy web:8000" in caddyfile
    assert re.search(r"handle_path /media/\* \{\s*root \* /srv/media", caddyfile)
    assert "encode zstd gzip" in caddyfile  # pages go out compressed
    assert "/app/media" in _compose_service("web")
    assert re.search(r"^  media:", (ROOT / "compose.yaml").read_text(), re.MULTILINE)


def _free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _gunicorn_cmd(port):
    """The Dockerfile's CMD, bound to loopback on a free port with one worker."""
    cmd_line = next(
        line for line in (ROOT / "Dockerfile").read_text().splitlines() if line.startswith("CMD ")
    )
    cmd = json.loads(cmd_line[len("CMD ") :])
    assert cmd[0] == "gunicorn"
    cmd[0] = str(Path(sys.executable).parent / "gunicorn")
    cmd[cmd.index("--bind") + 1] = f"127.0.0.1:{port}"
    if "--workers" in cmd:
        cmd[cmd.index("--workers") + 1] = "1"
    return cmd


# A page behind log-in: an anonymous visitor is redirected to the log-in page without any
# template being rendered (the production static manifest does not exist outside the image).
PRIVATE_PAGE = "/campaigns/new/"


def _get_through_gunicorn(forwarded_allow_ips, headers, tmp_path):
    port = _free_port()
    dropped = ("SECRET_KEY", "ALLOWED_HOSTS", "FORWARDED_ALLOW_IPS", "DJANGO_ALLOW_ASYNC_UNSAFE")
    env = {k: v for k, v in os.environ.items() if k not in dropped}
    env.update(PRODUCTION_ENV, FORWARDED_ALLOW_IPS=forwarded_allow_ips, REQUEST_LOGGING="false")
    log = tmp_path / "gunicorn.log"
    with log.open("w") as log_file:
        server = subprocess.Popen(
            _gunicorn_cmd(port), cwd=ROOT, env=env, stdout=log_file, stderr=subprocess.STDOUT
        )
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError as exc:
                if server.poll() is not None or time.monotonic() > deadline:
                    raise AssertionError(f"gunicorn did not start: {log.read_text()}") from exc
                time.sleep(0.2)
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        conn.request("GET", PRIVATE_PAGE, headers={"Host": "datapad.example.org", **headers})
        response = conn.getresponse()
        response.read()
        conn.close()
        return response
    finally:
        server.terminate()
        server.wait(timeout=30)


def test_a_forged_forwarded_proto_from_a_peer_that_is_not_the_proxy_is_not_https(tmp_path):
    # The proxy is somewhere else (192.0.2.1): this loopback peer is an ordinary client.
    response = _get_through_gunicorn("192.0.2.1", {"X-Forwarded-Proto": "https"}, tmp_path)
    assert response.status == 301
    assert response.getheader("Location") == f"https://datapad.example.org{PRIVATE_PAGE}"
    assert response.getheader("Strict-Transport-Security") is None


def test_the_proxy_may_say_a_request_came_over_https(tmp_path):
    response = _get_through_gunicorn("127.0.0.1", {"X-Forwarded-Proto": "https"}, tmp_path)
    assert response.status == 302
    assert response.getheader("Location").startswith("/accounts/login/")
    assert response.getheader("Strict-Transport-Security")


@pytest.mark.parametrize(
    ("env", "age"),
    [
        ({"DJANGO_ENV": "development", "DATABASE_URL": "postgres://u@127.0.0.1:1/x"}, "60"),
        ({**PRODUCTION_ENV, "DATABASE_URL": "postgres://u@127.0.0.1:1/x"}, "60"),
        ({"DJANGO_ENV": "development", "DATABASE_URL": "sqlite:////tmp/x.sqlite3"}, "0"),
        ({"DJANGO_ENV": "test", "DATABASE_URL": "postgres://u@127.0.0.1:1/x"}, "0"),
    ],
    ids=["postgres-development", "postgres-production", "sqlite", "test-suite"],
)
def test_postgresql_connections_persist_wherever_it_serves(env, age):
    # Issue 14: a new connection costs more than an unchanged live poll.
    code = "from django.conf import settings; print(settings.DATABASES['default']['CONN_MAX_AGE'])"
    result = _manage("shell", "-c", code, env=env)
    assert result.stdout.strip().splitlines()[-1] == age, result.stderr
