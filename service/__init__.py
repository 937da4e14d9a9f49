"""Storage and the web: the Redis event store, snapshots, the Flask app, API and auth."""
