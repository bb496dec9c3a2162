package vault

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A vault of format 4 (testdata/vault4, written by TestWriteFixtureVault2
// on main's code at 11ef45bf: s2 frames, chunks named by BLAKE3)
// verifies and restores byte for byte as it is (VAULT left at format 4:
// a memscope of format 4 still reads it), and takes a sync of a home
// with a new file: the sync makes it format 5 and writes a pack of MinLZ
// frames beside the s2 ones, its chunks still named by BLAKE3, and it
// verifies and restores again.
func TestFormat4VaultVerifiesRestoresAndSyncs(t *testing.T) {
	dir, v, sums, home, _ := openFixture(t, "vault4", 12)
	if got, _ := os.ReadFile(filepath.Join(dir, formatFile)); string(got) != formatLine4 {
		t.Fatalf("VAULT after a verify and restores says %q, want it left %q", got, formatLine4)
	}
	if heads := strings.Join(packHeaders(t, v), ""); strings.Count(heads, packHeaderS2) != 2 {
		t.Fatalf("the fixture's packs are %q, want two of s2 frames", heads)
	}
	syncOneNewFileTo(t, v, home, formatLine)
	if heads := strings.Join(packHeaders(t, v), ""); strings.Count(heads, packHeaderS2) != 2 || strings.Count(heads, packHeaderMinLZ) != 1 {
		t.Errorf("after the sync the packs are %q, want the two of s2 frames and one of MinLZ's", heads)
	}
	checkSyncedFixture(t, dir, hashBLAKE3, sums)
}

// The sync that makes a format 4 vault format 5 (VAULT rewritten, then a
// pack of MinLZ frames, the state, the folder stamps) fails at every
// call of every write step in turn: the vault still verifies, the healed
// sync completes, and the sessions restore byte for byte.
func TestFormat4UpgradeFaultsLeaveAVaultThatVerifies(t *testing.T) {
	upgradeFaults(t, "vault4", formatLine, packHeaderMinLZ)
}

// A frame decodes to the same bytes by MinLZ as by s2 (the frames of a
// sync's chunks, one after another), and MinLZ's is the smaller.
func TestMinLZFrameRoundTrip(t *testing.T) {
	frame := []byte(transcript(sidA, 0, 400, 300))
	enc := map[codec][]byte{}
	for _, c := range []codec{codecS2, codecMinLZ} {
		out, err := encodeFrame(c, nil, frame)
		if err != nil {
			t.Fatal(err)
		}
		enc[c] = out
		n, err := frameLen(c, out)
		if err != nil || n != len(frame) {
			t.Fatalf("%v: a frame of %d bytes says %d (%v)", c, len(frame), n, err)
		}
		back, err := decodeFrame(c, make([]byte, n), out)
		if err != nil || string(back) != string(frame) {
			t.Fatalf("%v: the frame decoded differs (%v)", c, err)
		}
	}
	if len(enc[codecMinLZ]) >= len(enc[codecS2]) {
		t.Errorf("MinLZ %d bytes, s2 %d: want MinLZ smaller", len(enc[codecMinLZ]), len(enc[codecS2]))
	}
}
