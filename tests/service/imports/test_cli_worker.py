"""The import job on a real RQ worker, and ``ludolog import`` / ``ludolog export`` as commands."""

from __future__ import annotations

import json
import subprocess
import sys

from service.store import keys
from tests.engine.bga import samples
from tests.engine.bga.helpers import core, export_bytes, playout
from tests.engine.bga.samples import TOKAIDO_B
from tests.helpers import PATIENCE_SECONDS, ROOT, ludolog_env


def ludolog(url: str, *args: str, **env: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "ludolog.cli", *args], cwd=ROOT, capture_output=True, text=True,
                          env=ludolog_env(url, **env), timeout=PATIENCE_SECONDS)


def test_a_real_rq_worker_imports_an_upload_end_to_end(client, users, redis_server, redis_client, config):
    response = client.post("/api/uploads", data=export_bytes(playout(3, 1)), headers=users.auth("alice"))
    assert response.status_code == 202
    uid = response.get_json()["id"]
    assert client.get(f"/api/uploads/{uid}").get_json()["status"] == "queued"
    assert redis_client.ttl(keys.upload_raw_for(uid)) > 0  # the bytes wait in Redis (for any worker), with an expiry
    done = ludolog(redis_server.url, "worker", "--burst", "--no-reconcile", LUDOLOG_QUEUE=config.queue_name)
    assert done.returncode == 0, done.stdout + done.stderr
    status = client.get(f"/api/uploads/{uid}").get_json()
    assert status["status"] == "done" and status["kind"] == "rules", status
    assert status["progress"]["done"] == status["progress"]["total"] > 0
    events = client.get(f"/api/games/{status['game']}/branches/main/events?limit=5000").get_json()["events"]
    assert [(e["seq"], e["type"], e["actor"], e["action"]) for e in events] == core(playout(3, 1))
    assert not redis_client.exists(keys.upload_raw_for(uid))  # and are dropped once the outcome is final


def test_ludolog_import_a_folder_then_again_then_export(tmp_path, redis_server, redis_client):
    folder = tmp_path / "logs"
    folder.mkdir()
    (folder / "tokaido_161915629.json").write_bytes(samples.raw(TOKAIDO_B))
    for seed in range(3):
        (folder / f"pr_{seed}.json").write_bytes(export_bytes(playout(4, seed)))
    (folder / "broken.json").write_text('{"data": ')
    (folder / "notes.md").write_text("not a log")  # not picked up
    first = ludolog(redis_server.url, "import", str(folder))
    assert first.returncode == 1, first.stdout + first.stderr
    assert "imported 4, already there 0, failed 1" in first.stdout
    assert "broken.json: failed: broken JSON at line 1" in first.stderr
    for name in ("pr_0.json", "pr_1.json", "pr_2.json", "tokaido_161915629.json"):  # a line per file, as it is done
        assert f"{folder / name}: ok, game " in first.stdout, first.stdout
    assert redis_client.zcard(keys.games_index()) == 4
    again = ludolog(redis_server.url, "import", str(folder / "pr_0.json"))
    assert again.returncode == 0 and "imported before" in again.stdout + again.stderr
    gid = next(line.split("game ")[1].split(" ")[0] for line in (again.stdout + again.stderr).splitlines() if "game " in line)
    exported = ludolog(redis_server.url, "export", gid, "--format", "jsonl")
    assert exported.returncode == 0, exported.stderr
    assert [json.loads(line)["action"] for line in exported.stdout.splitlines()] == [e[3] for e in core(playout(4, 0))]
    bga = ludolog(redis_server.url, "export", gid)
    assert json.loads(bga.stdout)["data"]["game_name"] == "puertorico"
