"""The Code screen: the branch's rotating validation code, turned towards the client."""
