// Package cleanup forecasts what the client's periodic cleanup
// (cleanupPeriodDays) will delete and when, and archives it first: copies
// verified by SHA-256, never moves.
package cleanup
