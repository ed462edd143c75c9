package etcd_test

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/lockscope/lockscope/sim"
	"github.com/lockscope/lockscope/sim/etcd"
)

// The lease a run's lessor grants is the one GrantedTTL says, which
// the window's lease slider shows: one owner for the rule.
func TestEtcdGrantedTTLIsTheLessors(t *testing.T) {
	for _, ttl := range []time.Duration{500 * time.Millisecond, 2500 * time.Millisecond, 10 * time.Second} {
		sc, err := sim.Defaults("etcd")
		require.NoError(t, err)
		sc.TTL = sim.Duration(ttl)
		s, err := sim.New(sc)
		require.NoError(t, err)
		s.RunUntil(3 * time.Second)
		snap := s.Snapshot()
		require.NotNil(t, etcd.ViewOf(snap))
		require.NotEmpty(t, etcd.ViewOf(snap).Leases, "%v", ttl)
		for _, l := range etcd.ViewOf(snap).Leases {
			assert.Equal(t, etcd.GrantedTTL(ttl), l.TTL, "%v", ttl)
		}
		assert.Equal(t, max(etcd.AskedTTL(ttl), etcd.MinLeaseTTL), etcd.GrantedTTL(ttl))
	}
}
