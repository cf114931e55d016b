"""The Redeem screen: a purchase code looked up, confirmed, delivered."""
