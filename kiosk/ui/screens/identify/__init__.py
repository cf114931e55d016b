"""The Identify screen: search by email or DNI, matches, the found client, enrollment."""
