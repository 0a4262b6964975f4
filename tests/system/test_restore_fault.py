"""The hall's laptop dies mid-round: its backup restored onto a fresh clone in another folder (another
"laptop": its own var dir, database, code key, no lexicon), and the tournament goes on there from the same
tablets' tokens — no tablet logs in again.

The clone is the checkout's tracked files copied to a new folder (what ``git clone`` gives), with the compiled
cores copied in (what ``./hall setup`` builds); its processes run from that folder. The performance
page's "Recovery" (docs/en/developer/performance.md) gives the time of the whole procedure with a new virtualenv (``./hall setup``).
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import time
import zipfile
from pathlib import Path

import pytest

from tests.load.stack import Stack, stack_env
from tests.paths import ROOT
from tests.system.harness import TABLETS, Hall, call, prepare, wait_for

pytestmark = pytest.mark.faults


def fresh_clone(dest: Path) -> Path:
    """The checkout's tracked files (as in the working tree) in ``dest``, plus the compiled cores."""
    files = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, check=True).stdout
    for name in filter(None, files.decode().split("\0")):
        src = ROOT / name
        if src.is_file():
            (dest / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(src, dest / name)
    for core in [*ROOT.glob("scoring/*.so"), *ROOT.glob("lexicon/*.so")]:
        shutil.copy2(core, dest / core.relative_to(ROOT))
    return dest


def in_checkout(root: Path, env: dict, *argv: str, timeout: float = 300,
                typed: str | None = None) -> subprocess.CompletedProcess[str]:
    """Runs Python in the checkout; ``typed``: what a person types (read from stdin: the process has no
    terminal, so a password prompt reads it there)."""
    out = subprocess.run([sys.executable, *argv], cwd=root, env=env, capture_output=True, text=True, timeout=timeout,
                         input=typed, start_new_session=typed is not None)
    assert out.returncode == 0, f"{argv}: {out.stdout}\n{out.stderr}"
    return out


def snapshot(root: Path, env: dict, slug: str) -> dict:
    return json.loads(in_checkout(root, env, "-m", "tests.system.hall_snapshot", slug).stdout)


def automatic_manifests(folder: Path) -> list[dict]:
    found = []
    for path in sorted(folder.glob("load--*.zip")):
        try:
            with zipfile.ZipFile(path) as zf:
                found.append(json.loads(zf.read("manifest.json")))
        except (OSError, KeyError, ValueError, zipfile.BadZipFile):
            continue
    return found


def automatic_fingerprints(folder: Path) -> set[str]:
    return {str(m["tournaments"][0]["fingerprint"]) for m in automatic_manifests(folder)}


def automatic_slips(folder: Path) -> int:
    return max((m["counts"]["tournament.Slip"] for m in automatic_manifests(folder)), default=0)


def play_round(hall: Hall, tag: str) -> int:
    """Draw, open and every tablet's slip acknowledged; returns the round's id."""
    pk = hall.draw()
    assert hall.wait_solved(pk), "the rack was not solved"
    hall.open(pk)
    for table in hall.tokens:
        st, body = hall.slip(table, f"{tag}-{table}", "СЛОВО", pk)
        assert st in (200, 201), body
    return pk


def publish(hall: Hall, pk: int) -> None:
    assert wait_for(lambda: hall.round(pk)["status"] == "judged", 60), hall.round(pk)
    st, body = call(f"{hall.url}/api/arbiter/rounds/{pk}/publish/", "POST", {}, hall.arbiter)
    assert st == 200, body


def test_restore_on_a_fresh_clone_then_the_next_round_from_the_same_tablets(tmp_path):
    first = tmp_path / "first"
    env, setup = prepare(first, {"BACKUP_SECONDS": "3"}, seconds_per_move=6, grace=1)
    archive = tmp_path / "stick" / "hall.zip"
    with Stack(env, first / "logs", web_workers=1, threads=4) as stack:
        stack.start_worker()
        stack.start_web()
        hall = Hall(stack, setup, first / "db.sqlite3")
        hall.login_all()
        tokens = dict(hall.tokens)
        publish(hall, play_round(hall, "r1"))
        published = in_checkout(ROOT, env, "-m", "tests.system.hall_snapshot", setup["slug"],
                                "--fingerprint").stdout.strip()
        # the worker's automatic backups (BACKUP_DIR = var/backups here): one after the publication, and one every
        # BACKUP_SECONDS while something changes — whichever comes first holds the published round (the other
        # then finds nothing new to write)
        # (waits are generous: a loaded CI machine runs the worker slowly; the wait ends when the file is there)
        assert wait_for(lambda: published in automatic_fingerprints(first / "backups"), 90), \
            "no backup holds the published round"
        r2 = play_round(hall, "r2")  # the round the laptop dies in: slips in, deadline not passed
        assert wait_for(lambda: automatic_slips(first / "backups") == 2 * TABLETS, 90), "no periodic backup"
        # the laptop dies: its worker first, so that round 2 cannot be closed (its deadline passing) between
        # the backup and the snapshot it is compared with — on a slow machine those take longer than the round
        stack.kill9("worker")
        # (as the automatic backups write it: the lexicon kept once beside the archive, not inside it)
        in_checkout(ROOT, env, "manage.py", "backup", "--tournament", setup["slug"], "--out", str(archive),
                    "--lexicon-beside")
        before = snapshot(ROOT, env, setup["slug"])
        stack.kill9("web")

    second = tmp_path / "second"
    clone = fresh_clone(tmp_path / "clone")
    env2 = stack_env(second)
    started = time.monotonic()
    in_checkout(clone, env2, "manage.py", "migrate", "--no-input", "-v", "0")
    restored = in_checkout(clone, env2, "manage.py", "restore", str(archive), "--language", "en")
    restore_seconds = time.monotonic() - started
    print(f"\nrestore on the fresh clone (migrate + restore, the lexicon file beside the archive): "
          f"{restore_seconds:.1f} s\n"
          f"{restored.stdout}")
    assert "Restored load" in restored.stdout
    with zipfile.ZipFile(archive) as zf:
        assert not [n for n in zf.namelist() if n.startswith("lexicons/")]
    assert len(list(archive.parent.glob("lexicon-*.kwg"))) == 1 and "Lexicons copied" in restored.stdout
    # the archive holds no password: the arbiter sets his as the restore says, then logs in (a new API token)
    name, password = setup["arbiter"]["username"], setup["arbiter"]["password"]
    assert f"'python manage.py changepassword {name}'" in restored.stdout
    in_checkout(clone, env2, "manage.py", "changepassword", name, typed=f"{password}\n{password}\n")
    after = snapshot(clone, env2, setup["slug"])
    assert after == before  # standings, players' results, rounds, audit log

    with Stack(env2, second / "logs", web_workers=1, threads=4, root=clone) as stack2:
        stack2.start_worker()
        stack2.start_web()
        hall2 = Hall(stack2, setup, second / "db.sqlite3")
        hall2.tokens = tokens  # the same tablets: no login
        st, state = call(f"{hall2.url}/api/tablet/state/", headers={"Authorization": f"Tablet {tokens[1]}"})
        assert st == 200 and state["player"]["table"] == 1, state
        # round 2's deadline passed while the hall was down: closed and judged once on the new laptop
        publish(hall2, r2)
        r3 = play_round(hall2, "r3")
        publish(hall2, r3)
        rows = hall2.sql("SELECT round_id, COUNT(*) FROM tournament_verdict GROUP BY round_id ORDER BY round_id")
        assert [n for _r, n in rows] == [TABLETS, TABLETS, TABLETS], rows
        slips = hall2.sql("SELECT COUNT(*), COUNT(DISTINCT idempotency_key) FROM tournament_slip")
        assert slips == [(3 * TABLETS, 3 * TABLETS)]
        judged = hall2.sql("SELECT COUNT(*) FROM tournament_auditlog WHERE action = 'round.judge' AND object_id = ?",
                           str(r2))
        assert judged == [(1,)]
