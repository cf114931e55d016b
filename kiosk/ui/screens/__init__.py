"""The counter's screens, one per mode of the left rail."""
