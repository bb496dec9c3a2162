package pricing

// PriceBasket prices a basket with the active rules.
func PriceBasket() {}
