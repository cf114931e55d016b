"""Reusable counter widgets."""
