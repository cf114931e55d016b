"""The manager lock (PIN, lockout) and the API key's home in the OS keyring."""
