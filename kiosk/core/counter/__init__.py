"""What the cashier does at the counter: identify (typed or scanned), enroll, the
sale and its basket, credits (direct or through the outbox), rewards and money
exchanges, redeeming purchase codes, cancels, the validation code and the catalogue."""
