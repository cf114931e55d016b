"""The Today screen: today's operations, the pending credits and the cancel."""
