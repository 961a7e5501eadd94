"""Service-manager files: a systemd user unit (Linux) and a launchd agent plist (macOS).

Both run ``<python> -m mnemosyne.cli daemon run`` in the foreground with the current
``MNEMOSYNE_HOME`` (and config file, if set), restart it when it dies, and let SIGTERM stop it
cleanly (the daemon finishes the commit it is writing and exits 0).
"""

from __future__ import annotations

import os
import sys
from pathlib import Path
from xml.sax.saxutils import escape

from mnemosyne.config import Settings

SYSTEMD_TEMPLATE = """\
[Unit]
Description=Mnemosyne code-memory daemon (watches git repositories, keeps the graph current)
After=default.target

[Service]
Type=simple
ExecStart={exec_start}
{environment}Restart=on-failure
RestartSec=5
# SIGTERM: the daemon abandons the ingest between two commits and exits 0; the job stays queued.
KillSignal=SIGTERM
TimeoutStopSec=120

[Install]
WantedBy=default.target
"""

LAUNCHD_TEMPLATE = """\
<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
<plist version="1.0">
<dict>
  <key>Label</key>
  <string>{label}</string>
  <key>ProgramArguments</key>
  <array>
{args}
  </array>
  <key>EnvironmentVariables</key>
  <dict>
{env}
  </dict>
  <key>RunAtLoad</key>
  <true/>
  <key>KeepAlive</key>
  <dict>
    <key>SuccessfulExit</key>
    <false/>
  </dict>
  <key>ExitTimeOut</key>
  <integer>120</integer>
  <key>StandardOutPath</key>
  <string>{out}</string>
  <key>StandardErrorPath</key>
  <string>{out}</string>
</dict>
</plist>
"""

LABEL = "dev.mnemosyne.daemon"


def _command(python: str | None = None) -> list[str]:
    return [python or sys.executable, "-m", "mnemosyne.cli", "daemon", "run"]


def _env(settings: Settings) -> dict[str, str]:
    env = {"MNEMOSYNE_HOME": str(Path(settings.home).expanduser().resolve())}
    if os.environ.get("MNEMOSYNE_CONFIG"):
        env["MNEMOSYNE_CONFIG"] = os.environ["MNEMOSYNE_CONFIG"]
    return env


def _systemd_quote(arg: str) -> str:
    if arg and all(c.isalnum() or c in "/._-+=:@" for c in arg):
        return arg
    return '"' + arg.replace("\\", "\\\\").replace('"', '\\"') + '"'


def systemd_unit(settings: Settings, python: str | None = None) -> str:
    exec_start = " ".join(_systemd_quote(a) for a in _command(python))
    environment = "".join(f"Environment={_systemd_quote(f'{k}={v}')}\n" for k, v in _env(settings).items())
    return SYSTEMD_TEMPLATE.format(exec_start=exec_start, environment=environment)


def launchd_plist(settings: Settings, python: str | None = None) -> str:
    args = "\n".join(f"    <string>{escape(a)}</string>" for a in _command(python))
    env = "\n".join(f"    <key>{escape(k)}</key>\n    <string>{escape(v)}</string>" for k, v in _env(settings).items())
    out = Path(settings.home).expanduser().resolve() / "logs" / "daemon.out"
    return LAUNCHD_TEMPLATE.format(label=LABEL, args=args, env=env, out=escape(str(out)))


def service_target(platform: str | None = None) -> tuple[str, Path]:
    """(kind, path) of the service file for this platform."""
    platform = platform or sys.platform
    if platform == "darwin":
        return "launchd", Path.home() / "Library" / "LaunchAgents" / f"{LABEL}.plist"
    config = Path(os.environ.get("XDG_CONFIG_HOME") or Path.home() / ".config")
    return "systemd", config / "systemd" / "user" / "mnemosyne.service"


def render(settings: Settings, platform: str | None = None) -> tuple[str, Path, str]:
    kind, path = service_target(platform)
    text = launchd_plist(settings) if kind == "launchd" else systemd_unit(settings)
    return kind, path, text
