// Package scan is the security scan every write goes through: secrets
// (gitleaks-style rules with their allowlists), prompt injection, SSH
// backdoors, terminal escapes and invisible Unicode, with severities and
// masked excerpts, and the redaction of secrets in text.
package scan
