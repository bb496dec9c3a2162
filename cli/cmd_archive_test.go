package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/memscope/memscope/engine/cleanup"
	"github.com/memscope/memscope/engine/inventory"
)

func archiveCmd(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	e, out, errb := testEnv(t)
	code := run(e, append([]string{"archive"}, args...))
	return code, out.String(), errb.String()
}

func statJSON(t *testing.T, home string) inventory.Report {
	t.Helper()
	e, out, errb := testEnv(t)
	if code := run(e, []string{"stat", "--home", home, "--json"}); code != 0 {
		t.Fatalf("stat --home %s: exit %d: %s", home, code, errb)
	}
	var r inventory.Report
	if err := json.Unmarshal(out.Bytes(), &r); err != nil {
		t.Fatal(err)
	}
	return r
}

func TestArchiveCommandFolderAndTar(t *testing.T) {
	t.Parallel()
	home := cleanupHome(t, strp(`{"cleanupPeriodDays":7}`))
	sums := func() map[string]string {
		m := map[string]string{}
		filepath.WalkDir(home, func(p string, d os.DirEntry, err error) error {
			if err == nil && !d.IsDir() {
				b, _ := os.ReadFile(p)
				info, _ := d.Info()
				m[p] = string(b) + "|" + info.ModTime().String()
			}
			return nil
		})
		return m
	}
	before := sums()
	for _, dest := range []string{"arch", "arch.tar.gz"} {
		t.Run(dest, func(t *testing.T) {
			to := filepath.Join(t.TempDir(), dest)
			code, out, errb := archiveCmd(t, "--home", home, "--to", to, "--json")
			if code != 0 {
				t.Fatalf("exit %d: %s", code, errb)
			}
			var rep cleanup.ArchiveReport
			if err := json.Unmarshal([]byte(out), &rep); err != nil {
				t.Fatal(err)
			}
			// 7 days: the transcript, the file-history folder's one file,
			// the shell snapshot; not the 3-day-old paste.
			if rep.Copied != 3 || rep.Verified != 3 {
				t.Errorf("copied %d verified %d, want 3", rep.Copied, rep.Verified)
			}
			a, s := statJSON(t, to), statJSON(t, home)
			if a.Transcripts != s.Transcripts || a.Records != s.Records || a.TranscriptBytes != s.TranscriptBytes || a.Pastes.Files != 0 {
				t.Errorf("archive stat %+v\nsource stat %+v", a, s)
			}
			code, out, _ = archiveCmd(t, "--home", home, "--to", to)
			if dest == "arch" && (code != 0 || !strings.Contains(out, "0 copied, 3 already there and identical")) {
				t.Errorf("re-run into the folder: exit %d\n%s", code, out)
			}
			if dest == "arch.tar.gz" && code != 1 {
				t.Errorf("re-run onto the tar.gz: exit %d, want a refusal", code)
			}
		})
	}
	if after := sums(); len(after) != len(before) {
		t.Errorf("source changed: %d files before, %d after", len(before), len(after))
	} else {
		for p, v := range before {
			if after[p] != v {
				t.Errorf("source file %s changed", p)
			}
		}
	}
}

func TestArchiveCommandRefusals(t *testing.T) {
	t.Parallel()
	home := cleanupHome(t, strp(`{"cleanupPeriodDays":7}`))
	to := filepath.Join(t.TempDir(), "arch")
	if code, _, errb := archiveCmd(t, "--home", home, "--to", to); code != 0 {
		t.Fatal(errb)
	}
	os.WriteFile(filepath.Join(to, "shell-snapshots", "snapshot-bash-1.sh"), []byte("changed"), 0o600)
	code, _, errb := archiveCmd(t, "--home", home, "--to", to)
	if code != 1 || !strings.Contains(errb, "shell-snapshots/snapshot-bash-1.sh") || !strings.Contains(errb, "nothing was copied") {
		t.Errorf("conflict: exit %d, stderr %q", code, errb)
	}

	tests := []struct {
		name string
		args []string
		code int
		err  string
	}{
		{"no --to", []string{"--home", home}, 2, "--to"},
		{"inside the home", []string{"--home", home, "--to", filepath.Join(home, "keep")}, 1, "inside the Claude home"},
		{"disabled sweep without --older-than", []string{"--home", cleanupHome(t, strp(`{"cleanupPeriodDays":0}`)), "--to", filepath.Join(t.TempDir(), "x")}, 1, "--older-than"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, _, errb := archiveCmd(t, tt.args...)
			if code != tt.code || !strings.Contains(errb, tt.err) {
				t.Errorf("exit %d stderr %q; want %d ~%q", code, errb, tt.code, tt.err)
			}
		})
	}
	if _, err := os.Stat(filepath.Join(home, "keep")); err == nil {
		t.Error("an archive was written inside the home")
	}

	// --older-than works whatever the setting: 0 days takes every swept file.
	disabled := cleanupHome(t, strp(`{"cleanupPeriodDays":0}`))
	code, out, errb := archiveCmd(t, "--home", disabled, "--older-than", "0", "--to", filepath.Join(t.TempDir(), "all"))
	if code != 0 || !strings.Contains(out, "4 copied") || !strings.Contains(out, "verified    4 of 4") {
		t.Errorf("--older-than 0: exit %d %s\n%s", code, errb, out)
	}
}
