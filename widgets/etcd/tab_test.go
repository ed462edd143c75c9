package etcd

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/lockscope/lockscope/sim"
	etcdsim "github.com/lockscope/lockscope/sim/etcd"
	"github.com/lockscope/lockscope/sim/simtest"
)

func TestEtcdGrantedTTL(t *testing.T) {
	for _, tc := range []struct{ ttl, want time.Duration }{
		{500 * time.Millisecond, 2 * time.Second},
		{time.Second, 2 * time.Second},
		{2 * time.Second, 2 * time.Second},
		{2500 * time.Millisecond, 3 * time.Second}, // WithTTL takes whole seconds
		{60 * time.Second, 60 * time.Second},
	} {
		assert.Equal(t, tc.want, etcdsim.GrantedTTL(tc.ttl), "%v", tc.ttl)
	}
}

func TestEtcdProtocolFollowsTheScenario(t *testing.T) {
	sc, err := simtest.Load("etcd-lease-expiry")
	require.NoError(t, err)
	lines := etcdProtocol(sc)
	assert.Equal(t, "session: LeaseGrant TTL 2 s; KeepAlive every 667 ms (TTL/3)", lines[0])
	assert.Contains(t, lines, "wait: watch the delete of the newest older key (waitDeletes), until none is left")
	assert.Contains(t, lines, "write: to a storage outside etcd, no token: it takes every write")
	assert.Contains(t, lines, "unlock: Delete(myKey) · lease revoked 2 s after its last keepalive · 3 members, quorum 2")

	sc = sc.Clone()
	sc.TTL, sc.Fencing = sim.Duration(time.Second), true
	etcdsim.Herd.Set(sc, true)
	etcdsim.Nodes.Set(sc, 5)
	lines = etcdProtocol(sc)
	assert.Equal(t, "session: LeaseGrant TTL 1 s, raised to etcd's 2 s minimum; KeepAlive every 667 ms (TTL/3)", lines[0])
	assert.Contains(t, lines, "wait (herd): watch the whole prefix; each delete wakes every waiter")
	assert.Contains(t, lines, "write: Txn If(CreateRevision(myKey) == myRev) Then(Put); token = create revision")
	assert.Contains(t, lines[len(lines)-1], "5 members, quorum 3")
}
