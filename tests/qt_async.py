"""Qt + asyncio test recipe (being written)."""
