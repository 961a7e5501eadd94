"""`mnemosyne daemon install-service`: systemd user unit and launchd plist."""

from __future__ import annotations

import os
import plistlib
import subprocess
import sys
from pathlib import Path

import pytest

from mnemosyne.config import Settings
from mnemosyne.daemon import service


def test_systemd_unit_runs_the_daemon_in_the_foreground(tmp_path: Path) -> None:
    s = Settings(home=tmp_path / "data dir")
    unit = service.systemd_unit(s, python="/opt/my venv/bin/python")
    assert 'ExecStart="/opt/my venv/bin/python" -m mnemosyne.cli daemon run' in unit
    assert f'Environment="MNEMOSYNE_HOME={(tmp_path / "data dir").resolve()}"' in unit
    assert "Restart=on-failure" in unit and "WantedBy=default.target" in unit


def test_launchd_plist_is_valid_xml(tmp_path: Path) -> None:
    s = Settings(home=tmp_path / "h&x")
    data = plistlib.loads(service.launchd_plist(s, python="/usr/bin/python3").encode())
    assert data["ProgramArguments"] == ["/usr/bin/python3", "-m", "mnemosyne.cli", "daemon", "run"]
    assert data["EnvironmentVariables"]["MNEMOSYNE_HOME"] == str((tmp_path / "h&x").resolve())
    assert data["RunAtLoad"] is True


@pytest.mark.slow
def test_cli_prints_or_writes_the_unit(tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items()} | {"XDG_CONFIG_HOME": str(tmp_path / "cfg"),
                                                   "MNEMOSYNE_HOME": str(tmp_path / "home")}
    cmd = [sys.executable, "-m", "mnemosyne.cli", "daemon", "install-service"]
    r = subprocess.run([*cmd, "--print", "--platform", "linux"], env=env, capture_output=True, text=True)
    assert r.returncode == 0 and "[Service]" in r.stdout
    assert not (tmp_path / "cfg").exists()
    r = subprocess.run([*cmd, "--platform", "linux"], env=env, capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    assert "daemon run" in (tmp_path / "cfg" / "systemd" / "user" / "mnemosyne.service").read_text()
    r = subprocess.run([*cmd, "--print", "--platform", "darwin"], env=env, capture_output=True, text=True)
    assert r.returncode == 0 and "<plist" in r.stdout
