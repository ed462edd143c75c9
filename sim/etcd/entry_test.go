package etcd

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/lockscope/lockscope/sim"
)

// TestEtcdEntryEncoding: an entry travels as the text fmt would write,
// "%d %s %s %d %d %d %d %d" with "-" for no key, and reads back the same.
func TestEtcdEntryEncoding(t *testing.T) {
	for _, e := range []etcdEntry{
		{Type: entNoop},
		{Term: 3, Type: entLock, Key: "/lock/694d7a1c2b", Lease: 0x694d7a1c2b3e4f5a, N: 12, Client: 1, Origin: 4, Req: 1 << 40},
		{Term: 1, Type: entRevoke, Lease: 7, N: 1, Client: sim.None, Origin: 2, Req: -5},
		{Term: 9, Type: entGrant, N: 10, Client: 0, Origin: 0, Req: 1},
	} {
		key := e.Key
		if key == "" {
			key = "-"
		}
		want := fmt.Sprintf("%d %s %s %d %d %d %d %d", e.Term, e.Type, key, e.Lease, e.N, e.Client, e.Origin, e.Req)
		assert.Equal(t, want, e.encode())
		back, err := decodeEntry(e.encode())
		require.NoError(t, err)
		assert.Equal(t, e, back)
	}
	for _, bad := range []string{"", "1 put /k 0 0 0 0", "1 put /k 0 0 0 0 0 0", "x put /k 0 0 0 0 0"} {
		_, err := decodeEntry(bad)
		assert.Error(t, err, bad)
	}
}

// TestEtcdEntryDecodingRefusesWhatEncodeNeverWrites: fields are split at
// single spaces, so doubled, leading or trailing spaces are malformed.
func TestEtcdEntryDecodingRefusesWhatEncodeNeverWrites(t *testing.T) {
	for _, bad := range []string{"1  put /k 0 0 0 0 0", " 1 put /k 0 0 0 0 0", "1 put /k 0 0 0 0 0 ", "1 put /k 0 0 0 0 "} {
		_, err := decodeEntry(bad)
		assert.Error(t, err, "%q", bad)
	}
	e, err := decodeEntry("2 lock /lock/ab -7 0 1 3 9")
	require.NoError(t, err)
	assert.Equal(t, etcdEntry{Term: 2, Type: entLock, Key: "/lock/ab", Lease: -7, Client: 1, Origin: 3, Req: 9}, e)
}
