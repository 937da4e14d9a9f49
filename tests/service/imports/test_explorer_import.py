"""Issue 49's explorer and imports: the import job of a real RQ worker counts an imported public game that ends, and
never a private or unlisted one."""

from __future__ import annotations

import subprocess
import sys

from service.store.explorer import ExplorerStore
from tests.engine.bga.helpers import export_bytes, playout
from tests.helpers import PATIENCE_SECONDS, ROOT, ludolog_env


def test_the_import_job_counts_imported_public_games_only(client, users, redis_server, redis_client, config):
    uploads = {}
    for seed, visibility in ((1, "public"), (2, "private"), (3, "unlisted")):
        answer = client.post(f"/api/uploads?visibility={visibility}", data=export_bytes(playout(3, seed)),
                             headers=users.auth("alice"))
        assert answer.status_code == 202, answer.get_json()
        uploads[visibility] = answer.get_json()["id"]
    done = subprocess.run([sys.executable, "-m", "ludolog.cli", "worker", "--burst", "--no-reconcile"], cwd=ROOT,
                          capture_output=True, text=True, timeout=PATIENCE_SECONDS,
                          env=ludolog_env(redis_server.url, LUDOLOG_QUEUE=config.queue_name))
    assert done.returncode == 0, done.stdout + done.stderr
    games = {v: client.get(f"/api/uploads/{uid}", headers=users.auth("alice")).get_json()["game"]
             for v, uid in uploads.items()}
    explorer = ExplorerStore(redis_client)
    assert explorer.is_counted("puerto_rico", games["public"])
    assert not explorer.is_counted("puerto_rico", games["private"])
    assert not explorer.is_counted("puerto_rico", games["unlisted"])
    assert explorer.games_counted("puerto_rico") == 1
