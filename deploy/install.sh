#!/usr/bin/env bash
# darkcity on a fresh Debian 12+ or Ubuntu 24.04+ server, in one command (issue #49):
#
#   git clone https://github.com/darkcity-game/darkcity && sudo darkcity/deploy/install.sh play.example.org
#
# It installs Caddy, Python and npm (apt-get), darkcity from this checkout into a virtual
# environment (/opt/darkcity/venv), builds the pocket app (/opt/darkcity/app, served at
# /app/), writes a systemd unit for `darkcity serve` on 127.0.0.1 (its own user, its data
# in /var/lib/darkcity) and Caddy's configuration (deploy/Caddyfile: HTTPS for the name,
# limits for slow clients), starts both and checks the site answers. Run again, it
# updates darkcity from the checkout (git pull first) and keeps the games.
#
# Options (after the name):
#   --port N       darkcity's port on 127.0.0.1 (default 8000)
#   --compile      compile the engine with mypyc (2-3x its speed; a few minutes here)
#   --no-apt       install no Debian packages (they are there already)
#   --no-systemd   write the units but start nothing (a container, a machine without
#                  systemd): the units are checked with systemd-analyze where it exists
#   --root DIR     write everything under DIR instead of / (tests/browser/test_deploy.py):
#                  the files name their final paths, as a package's DESTDIR does
# DARKCITY_CACHE, when set, is where the pinned Pyodide is kept (/var/cache/darkcity)
set -euo pipefail

say() { printf 'darkcity-install: %s\n' "$*"; }
die() { printf 'darkcity-install: %s\n' "$*" >&2; exit 1; }

site="" port=8000 compile=0 apt=1 systemd=1 root=""
while [ $# -gt 0 ]; do
  case "$1" in
    --port) port="${2:?--port needs a number}"; shift 2 ;;
    --compile) compile=1; shift ;;
    --no-apt) apt=0; shift ;;
    --no-systemd) systemd=0; shift ;;
    --root) root="${2:?--root needs a folder}"; shift 2 ;;
    -h|--help) sed -n '2,21p' "$0"; exit 0 ;;
    -*) die "unknown option $1 (--help lists them)" ;;
    *) [ -z "$site" ] || die "one name only (got $site and $1)"; site="$1"; shift ;;
  esac
done
[ -n "$site" ] || die "give the server's public name: install.sh play.example.org (--help)"
case "$site" in
  *[!A-Za-z0-9.-]*|.*|*..*) die "$site is not a host name (letters, digits, dots, hyphens)" ;;
esac
case "$port" in ''|*[!0-9]*) die "--port $port is not a number" ;; esac

checkout="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
[ -f "$checkout/pyproject.toml" ] && [ -f "$checkout/deploy/Caddyfile" ] \
  || die "run me from a darkcity checkout (deploy/install.sh in it)"
if [ -z "$root" ] && [ "$(id -u)" -ne 0 ]; then die "run me as root (sudo)"; fi

opt="$root/opt/darkcity" etc="$root/etc" cache="${DARKCITY_CACHE:-$root/var/cache/darkcity}"
venv="$opt/venv" app="$opt/app"

# 1. the packages: Caddy (Debian 12, Ubuntu 24.04 and later have it), Python, npm
if [ "$apt" = 1 ]; then
  command -v apt-get >/dev/null || die "apt-get is missing: this installer is for Debian and Ubuntu"
  say "installing caddy, python3-venv, npm, curl (apt-get)..."
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -q
  apt-cache show caddy >/dev/null 2>&1 \
    || die "this release has no caddy package: add Caddy's own (https://caddyserver.com/docs/install#debian-ubuntu-raspbian), then run me again"
  apt-get install -y -q caddy python3 python3-venv npm git curl
fi
python3 -c 'import sys; sys.exit(sys.version_info < (3, 11))' \
  || die "darkcity needs Python 3.11 or later ($(python3 --version 2>&1) here)"
command -v npm >/dev/null || die "npm is missing (apt-get install npm): the pocket app's build needs it once"

# 2. darkcity in its virtual environment, from this checkout
mkdir -p "$opt" "$cache"
if [ ! -x "$venv/bin/python" ]; then
  say "making the virtual environment $venv..."
  python3 -m venv "$venv"
fi
if [ "$compile" = 1 ]; then
  say "installing darkcity with its engine compiled (mypyc: a few minutes)..."
  DARKCITY_COMPILE=1 "$venv/bin/python" -m pip install --quiet --disable-pip-version-check -v "$checkout" 2>&1 \
    | grep -E '^darkcity:|^Successfully' || true
else
  say "installing darkcity (pip; under a minute)..."
  "$venv/bin/python" -m pip install --quiet --disable-pip-version-check "$checkout"
fi
"$venv/bin/darkcity" --help >/dev/null || die "darkcity did not install (above)"

# 3. the pocket app, built once here and served by darkcity at /app/
say "building the pocket app into $app (npm fetches the pinned Pyodide once)..."
DARKCITY_CACHE="$cache" "$venv/bin/darkcity" app build --out "$app" --lang en

# 4. the settings, the systemd unit, Caddy's configuration
mkdir -p "$etc/darkcity" "$etc/systemd/system/caddy.service.d" "$etc/caddy"
cat > "$etc/darkcity/darkcity.env" <<EOF
# darkcity serve's settings (docs/server.md, docs/deploy.md); written by deploy/install.sh
DARKCITY_DB=sqlite:////var/lib/darkcity/darkcity.sqlite3
DARKCITY_APP_DIR=/opt/darkcity/app
# the address friends are sent to, and the Host name this server answers to behind Caddy
DARKCITY_SHARE_URL=https://$site
# Caddy, on this machine, passes the players' addresses on (the per-address limits)
FORWARDED_ALLOW_IPS=127.0.0.1
EOF
cat > "$etc/darkcity/caddy.env" <<EOF
# deploy/Caddyfile's settings (its first lines say each); written by deploy/install.sh
DARKCITY_SITE=$site
DARKCITY_UPSTREAM=127.0.0.1:$port
EOF
cat > "$etc/systemd/system/darkcity.service" <<EOF
# written by darkcity's deploy/install.sh (docs/deploy.md)
[Unit]
Description=darkcity: the web table of Dark City, behind Caddy
Documentation=https://github.com/darkcity-game/darkcity/blob/main/docs/deploy.md
After=network-online.target
Wants=network-online.target

[Service]
EnvironmentFile=/etc/darkcity/darkcity.env
ExecStart=/opt/darkcity/venv/bin/darkcity serve --host 127.0.0.1 --port $port
# a user of its own, made when it starts; its games in /var/lib/darkcity
DynamicUser=yes
StateDirectory=darkcity
WorkingDirectory=/var/lib/darkcity
Restart=on-failure
RestartSec=2
# SIGTERM hands the rooms over cleanly (docs/deploy.md)
KillSignal=SIGTERM
TimeoutStopSec=20
NoNewPrivileges=yes
ProtectSystem=strict
ProtectHome=yes
PrivateTmp=yes
ProtectKernelTunables=yes
ProtectControlGroups=yes
RestrictAddressFamilies=AF_INET AF_INET6 AF_UNIX

[Install]
WantedBy=multi-user.target
EOF
cat > "$etc/systemd/system/caddy.service.d/darkcity.conf" <<EOF
# deploy/Caddyfile's settings for Debian's caddy.service; written by deploy/install.sh
[Service]
EnvironmentFile=/etc/darkcity/caddy.env
EOF
if [ -f "$etc/caddy/Caddyfile" ] && ! cmp -s "$checkout/deploy/Caddyfile" "$etc/caddy/Caddyfile" \
   && [ ! -f "$etc/caddy/Caddyfile.before-darkcity" ]; then
  cp "$etc/caddy/Caddyfile" "$etc/caddy/Caddyfile.before-darkcity"
  say "kept the earlier Caddy configuration as $etc/caddy/Caddyfile.before-darkcity"
fi
cp "$checkout/deploy/Caddyfile" "$etc/caddy/Caddyfile"
if command -v caddy >/dev/null; then
  (set -a; . "$etc/darkcity/caddy.env"; caddy validate --config "$etc/caddy/Caddyfile" \
     --adapter caddyfile >/dev/null 2>&1) || die "caddy refuses $etc/caddy/Caddyfile (caddy validate says why)"
fi

# 5. started, or checked only
if [ "$systemd" = 0 ]; then
  # (under --root the test checks the unit itself, against the system's own units)
  if [ -z "$root" ] && command -v systemd-analyze >/dev/null; then
    systemd-analyze verify --man=no "$etc/systemd/system/darkcity.service" \
      || die "systemd-analyze refuses darkcity.service"
    say "darkcity.service checked by systemd-analyze verify"
  fi
  say "written, nothing started (--no-systemd). To start by hand:"
  say "  (set -a; . /etc/darkcity/darkcity.env; cd /var/lib/darkcity; /opt/darkcity/venv/bin/darkcity serve --port $port) &"
  say "  (set -a; . /etc/darkcity/caddy.env; caddy run --config /etc/caddy/Caddyfile)"
  exit 0
fi
[ -z "$root" ] || die "--root needs --no-systemd (nothing can be started in another root)"
systemctl daemon-reload
systemctl enable --now darkcity.service
systemctl restart darkcity.service  # (an update: the new code)
systemctl restart caddy.service
say "waiting for https://$site/ (Caddy asks Let's Encrypt for its certificate)..."
for _ in $(seq 1 60); do
  if curl -fsS -o /dev/null --max-time 5 "https://$site/healthz"; then
    say "darkcity answers at https://$site/ (the pocket app at https://$site/app/)"
    exit 0
  fi
  sleep 2
done
die "https://$site/ does not answer yet: is the name's DNS record this server's address, and are ports 80 and 443 open? (journalctl -u caddy -u darkcity says more)"
