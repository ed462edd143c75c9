package etcd_test

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/lockscope/lockscope/sim"
	"github.com/lockscope/lockscope/sim/etcd"
)

// The keyspace picture shows where the guarded writes went: with fencing
// the data lives in etcd under StorageKey, without it nothing does.
func TestEtcdViewStorage(t *testing.T) {
	for _, tc := range []struct {
		preset  string
		at      time.Duration
		fencing bool
		want    *etcd.Storage
	}{
		{"etcd-lease-expiry", 4600 * time.Millisecond, false, nil},
		{"etcd-fenced-txn", 3900 * time.Millisecond, true, nil}, // before client-2's write
		{"etcd-fenced-txn", 4600 * time.Millisecond, true,
			&etcd.Storage{Key: etcd.StorageKey, Writer: "client-2", CreateRev: 5, ModRev: 5}},
	} {
		rec, err := sim.Record(etcdPreset(t, tc.preset))
		require.NoError(t, err)
		v := etcd.ViewOf(rec.At(tc.at))
		require.NotNil(t, v, tc.preset)
		assert.Equal(t, tc.fencing, v.Fencing, "%s at %v", tc.preset, tc.at)
		assert.Equal(t, tc.want, v.Storage, "%s at %v", tc.preset, tc.at)
	}
}
