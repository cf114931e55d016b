"""The Rewards screen: the reward grid, the money exchange and their confirmations."""
