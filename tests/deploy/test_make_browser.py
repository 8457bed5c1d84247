"""``make browser`` (a step of ``make test``) on a machine without chromium: one line of its own,
apt-get's output in a log, and the log's end when apt-get fails. Run against a stand-in apt-get
on a PATH that has no chromium, so nothing is installed."""

from __future__ import annotations

import os
import shutil
import subprocess

import pytest

from tests.processes import ROOT

APT_LINES = 470  # about what apt-get printed for chromium on a fresh machine

FAKE_APT = f"""#!/bin/sh
echo "apt-get $*" >> "$APT_CALLS"
i=0
while [ $i -lt {APT_LINES} ]; do echo "Unpacking libsomething-$i ..."; i=$((i+1)); done
if [ -n "$APT_FAILS" ]; then echo "E: Unable to locate package chromium" >&2; exit 100; fi
"""


def run_make_browser(tmp_path, *, fails: bool) -> subprocess.CompletedProcess:
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    (bin_dir / "apt-get").write_text(FAKE_APT)
    (bin_dir / "id").write_text("#!/bin/sh\necho 0\n")  # as root, whoever runs the tests
    for path in (bin_dir / "apt-get", bin_dir / "id"):
        path.chmod(0o755)
    for tool in ("sh", "mkdir", "tail"):
        (bin_dir / tool).symlink_to(shutil.which(tool))
    env = {"PATH": str(bin_dir), "APT_CALLS": str(tmp_path / "calls"), "HOME": str(tmp_path),
           **({"APT_FAILS": "1"} if fails else {})}
    return subprocess.run([shutil.which("make"), "--no-print-directory", "-s", "browser", f"VENV={tmp_path / 'venv'}"],
                          cwd=ROOT, env=env, capture_output=True, text=True, timeout=60)


@pytest.mark.parametrize("fails", [False, True])
def test_installing_chromium_says_one_line_and_keeps_apt_in_a_log(tmp_path, fails):
    made = run_make_browser(tmp_path, fails=fails)
    log = tmp_path / "venv" / "apt-get.log"
    assert (tmp_path / "calls").read_text().splitlines() == [
        "apt-get update -qq", "apt-get install -y -qq chromium chromium-driver"][: 1 if fails else 2]
    assert made.stdout.splitlines() == [f"installing chromium and chromedriver for the browser tests "
                                        f"(apt-get; log in {log})"]
    assert log.read_text().count("Unpacking") == APT_LINES * (1 if fails else 2)
    if not fails:
        assert made.returncode == 0 and made.stderr == ""
        return
    assert made.returncode != 0
    assert "E: Unable to locate package chromium" in made.stderr
    assert f"apt-get could not install chromium: see {log}" in made.stderr
    assert len(made.stderr.splitlines()) <= 25, made.stderr


def test_with_chromium_on_the_path_nothing_is_said(tmp_path):
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    for tool in ("chromium", "chromedriver"):
        (bin_dir / tool).write_text("#!/bin/sh\n")
        (bin_dir / tool).chmod(0o755)
    made = subprocess.run([shutil.which("make"), "--no-print-directory", "-s", "browser"], cwd=ROOT,
                          env={**os.environ, "PATH": f"{bin_dir}:{os.environ['PATH']}"},
                          capture_output=True, text=True, timeout=60)
    assert made.returncode == 0 and made.stdout == "" and made.stderr == ""
