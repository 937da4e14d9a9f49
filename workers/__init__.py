"""RQ jobs: fold events into snapshots, import uploads; the reconciler."""
