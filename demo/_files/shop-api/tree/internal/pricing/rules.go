package pricing
