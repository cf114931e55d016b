"""The Points screen: amount or point items, preview, then the armed credit."""
