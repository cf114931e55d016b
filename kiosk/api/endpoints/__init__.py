"""The endpoints of ``LoyaltyClient``, one mixin per resource."""
