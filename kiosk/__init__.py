"""Loyalty Kiosk: a counter app for a merchant's loyalty-points program."""

__version__ = "0.1.0"
