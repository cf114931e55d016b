"""The durable queue of credits and cancels: its SQLite store, row bodies, types,
external ids, the journal link and the sender that drains it."""
