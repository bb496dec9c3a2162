package cli

import (
	"github.com/memscope/memscope/engine/vault"
	"github.com/memscope/memscope/model"
)

// openVault is the vault of o's home: --vault DIR, else
// $MEMSCOPE_VAULT, else the XDG default. The demo home has none unless
// one is named.
func openVault(e *env, o *opened, dirFlag string) (*vault.Vault, error) {
	if o.demo != nil && dirFlag == "" && e.getenv("MEMSCOPE_VAULT") == "" {
		return nil, badUsagef("the demo home is not kept in your vault: give --vault DIR to try the vault on it")
	}
	dir, err := vault.Dir(dirFlag, e.getenv, e.userHome, o.home.Dir)
	if err != nil {
		return nil, badInput(err)
	}
	return vault.Open(dir, e.root, e.writer()), nil
}

// openLost opens the view of what o's vault alone holds (the sessions
// the home lost); it fails when there is no vault.
func openLost(e *env, o *opened, dirFlag string) (*vault.LostFS, *vault.Vault, error) {
	v, err := openVault(e, o, dirFlag)
	if err != nil {
		return nil, nil, err
	}
	if err := v.Exists(); err != nil {
		return nil, v, err
	}
	l, err := v.Lost(o.home.FS)
	return l, v, err
}

// vaultOnlyLabel marks what was read from the vault, not the home.
const vaultOnlyLabel = vault.OnlyInVault

// restoreOffer is the command that puts a vault-only session back.
func restoreOffer(session string) string {
	return "memscope vault restore " + model.SanitizeLine(session) + " puts it back where claude --resume finds it"
}
