"""nginx in front of several web nodes: the configuration, and nginx started on it (Debian's ``nginx`` package).

Every web node runs the ASGI application (``tournament.asgi``: the screens' streams and Django) on its own
address; nginx spreads the requests over them (least connections, no sticky sessions: everything a request
needs is in the database, Redis or the request), passes the streams through unbuffered, and moves a request
to another node when its node does not answer (a slip carries its idempotency key, so a retry is harmless).
The nodes must trust nginx's ``X-Forwarded-For`` (``DJANGO_TRUSTED_PROXIES``) for the rate limits and the
audit log. Used by ``manage.py serve --nodes N``, ``manage.py nginx`` and the load test (``--nodes``).
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

NGINX = "/usr/sbin/nginx"


#: What every proxied location sets (keep-alive to the nodes, the client's address for the trusted proxy).
PROXIED = """
            proxy_http_version 1.1;
            proxy_set_header Connection "";
            proxy_set_header Host $http_host;
            proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
            proxy_set_header X-Forwarded-Proto $scheme;
            proxy_set_header X-Request-Start "t=${msec}";"""


def _static(static_root: Path | None) -> str:
    """The static files served by nginx itself (when collected), else nothing: the nodes serve them."""
    if not static_root:
        return ""
    return f"""
        location /static/ {{
            alias {static_root}/;
            expires 1h;
            add_header Cache-Control "public";
        }}"""


def render(*, listen: str, nodes: list[str], prefix: Path, static_root: Path | None = None,
           worker_connections: int = 40000, workers: int = 1) -> str:
    """The nginx configuration: ``listen`` (``[host:]port``) in front of ``nodes`` (``host:port`` each).

    Each proxied stream holds two sockets in nginx (the screen's and the node's): where the open-files hard limit
    cannot be raised (nginx's ``worker_rlimit_nofile`` then fails), ``workers`` processes share them (the
    listening socket with ``reuseport``, so that the kernel spreads the connections evenly)."""
    servers = "\n".join(f"        server {node} max_fails=1 fail_timeout=3s;" for node in nodes)
    static = _static(static_root)
    proxied = PROXIED
    return f"""# written by duplicate-hall (tournament/management/nginx.py); nginx -p {prefix} -c {prefix}/nginx.conf
worker_processes {workers};
worker_rlimit_nofile {2 * worker_connections + 1024};
daemon off;
pid {prefix}/nginx.pid;
error_log {prefix}/error.log warn;

events {{
    worker_connections {worker_connections};
    multi_accept on;
}}

http {{
    access_log off;
    client_body_temp_path {prefix}/client_body;
    proxy_temp_path {prefix}/proxy;
    fastcgi_temp_path {prefix}/fastcgi;
    uwsgi_temp_path {prefix}/uwsgi;
    scgi_temp_path {prefix}/scgi;
    types {{ text/css css; application/javascript js; image/svg+xml svg; image/png png; font/woff2 woff2; }}
    default_type application/octet-stream;
    client_max_body_size 20m;
    keepalive_timeout 65;

    # the streams and the requests in upstreams of their own: least_conn counts a node's open connections per
    # upstream, and a node holding a few streams fewer would otherwise get every short request; the state in a
    # shared zone, so that both workers count the same connections
    upstream hall {{
        zone hall 256k;
        least_conn;
{servers}
        keepalive 128;
    }}

    upstream hall_streams {{
        zone hall_streams 256k;
        least_conn;
{servers}
    }}

    server {{
        listen {listen} backlog=8192{" reuseport" if workers > 1 else ""};
        # a node that refuses or fails: the request goes to the next one (slips are idempotent by their key)
        proxy_next_upstream error timeout http_502 http_503 non_idempotent;
        proxy_next_upstream_tries 3;
        proxy_connect_timeout 2s;

        location /live/stream/ {{
            proxy_pass http://hall_streams;{proxied}
            proxy_buffering off;
            proxy_cache off;
            proxy_read_timeout 1h;
        }}{static}

        location / {{
            proxy_pass http://hall;{proxied}
            proxy_read_timeout 120s;
        }}
    }}
}}
"""


def write(prefix: Path, **options: object) -> Path:
    """Writes ``prefix/nginx.conf`` (and nginx's working folders); returns the file."""
    prefix.mkdir(parents=True, exist_ok=True)
    for folder in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi"):
        (prefix / folder).mkdir(exist_ok=True)
    conf = prefix / "nginx.conf"
    conf.write_text(render(prefix=prefix, **options))  # type: ignore[arg-type]
    return conf


def command(prefix: Path) -> list[str]:
    """The command that runs nginx in the foreground on ``prefix/nginx.conf``."""
    binary = NGINX if Path(NGINX).exists() else (shutil.which("nginx") or NGINX)
    return [binary, "-p", str(prefix), "-c", str(prefix / "nginx.conf"), "-e", str(prefix / "error.log")]


def check(prefix: Path) -> None:
    """``nginx -t`` on the configuration; raises with nginx's words when it is refused."""
    out = subprocess.run([*command(prefix), "-t"], capture_output=True, text=True)
    if out.returncode:
        raise RuntimeError(out.stderr.strip() or out.stdout.strip())


__all__ = ["NGINX", "check", "command", "render", "write"]
