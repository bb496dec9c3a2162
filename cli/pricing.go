package cli

import (
	"fmt"
	"strings"

	"github.com/memscope/memscope/engine/pricing"
	"github.com/memscope/memscope/engine/sessions"
	"github.com/memscope/memscope/internal/format"
	"github.com/memscope/memscope/model"
)

// maxPricingBytes bounds a --pricing file (a price list is a few KiB).
const maxPricingBytes = 1 << 20

// pricingUsage is the help of every --pricing flag.
const pricingUsage = "price table `FILE` (JSON, as engine/pricing/prices.json) merged over the embedded one"

// loadPrices is the price table: the embedded one, with the --pricing
// file merged over it when one is given.
func loadPrices(e *env, file string) (*pricing.Table, error) {
	t := pricing.Embedded()
	if file == "" {
		return &t, nil
	}
	path, err := absFrom(e, file)
	if err != nil {
		return nil, badInput(err)
	}
	data, err := model.ReadRegularFile(path, maxPricingBytes)
	if err != nil {
		return nil, badInput(fmt.Errorf("--pricing: %w", err))
	}
	over, err := pricing.Parse(data, file)
	if err != nil {
		return nil, badInput(fmt.Errorf("--pricing: %w", err))
	}
	m := pricing.Merge(t, over)
	return &m, nil
}

// pricingNote says where prices come from: "prices of 2026-11-24", or
// the user's file over the embedded table.
func pricingNote(p sessions.Pricing) string {
	if p.File != "" {
		return fmt.Sprintf("prices from %s (%s) over memscope's table of %s", model.SanitizeLine(p.File), p.Date, p.Base)
	}
	return "memscope's prices of " + p.Date + "; --pricing FILE overrides"
}

// costByModel lists models' costs in one line, most expensive first.
func costByModel(ms []pricing.ModelCost) string {
	var parts []string
	for _, m := range ms {
		if m.Usage == (model.Usage{}) && m.CostUSD == 0 {
			continue
		}
		if !m.Priced {
			parts = append(parts, model.SanitizeLine(m.Model)+" unpriced")
			continue
		}
		parts = append(parts, model.SanitizeLine(m.Model)+" "+format.USD(m.CostUSD))
	}
	return strings.Join(parts, ", ")
}
