package redis_test

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/lockscope/lockscope/sim"
	"github.com/lockscope/lockscope/sim/redis"
	"github.com/lockscope/lockscope/sim/simtest"
)

// nodeNamed is the snapshot's node called name.
func nodeNamed(t *testing.T, snap *sim.Snapshot, name string) sim.NodeView {
	t.Helper()
	for _, n := range snap.Nodes {
		if n.Name == name {
			return n
		}
	}
	require.Failf(t, "no node", "%s", name)
	return sim.NodeView{}
}

// keyHolds is the lock key's hold count on redis-1; -1 for no key.
func keyHolds(snap *sim.Snapshot) int {
	v := redis.ViewOf(snap)
	for _, k := range v.Servers[0].Keys {
		if k.Key == redis.LockKey {
			return k.Holds
		}
	}
	return -1
}

// TestRedissonReentersWithItsHoldCount: Redisson's RLock counts a
// re-entry in the hash (RedissonLock.tryLockInnerAsync's HINCRBY): the
// second lock raises the hold count to 2 with no wait, the inner unlock
// takes it to 1 and the key stays, so client-2 gets in only after the
// outer unlock; the client box shows the count.
func TestRedissonReentersWithItsHoldCount(t *testing.T) {
	tests := []struct {
		name     string
		reenter  time.Duration
		watchdog bool
		ttl      time.Duration
		// the key's hold count (and the holder's) at 1 s, 3 s (inside the
		// inner section) and 5 s (back in the outer one)
		holds [3]int
	}{
		{"no re-entry", 0, false, 10 * time.Second, [3]int{1, 1, 1}},
		{"re-entry", 2 * time.Second, false, 10 * time.Second, [3]int{1, 2, 1}},
		{"re-entry with the watchdog", 2 * time.Second, true, 3 * time.Second, [3]int{1, 2, 1}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			sc := simtest.Preset(t, "redis-reentrant", func(sc *sim.Scenario) {
				redis.Reenter.Set(sc, sim.Duration(tt.reenter))
				redis.Watchdog.Set(sc, tt.watchdog)
				sc.TTL = sim.Duration(tt.ttl)
			})
			sum, rec := simtest.Run(t, sc)
			for i, at := range []time.Duration{time.Second, 3 * time.Second, 5 * time.Second} {
				snap := rec.At(at)
				assert.Equal(t, tt.holds[i], keyHolds(snap), "the key's hold count at %v", at)
				c1 := nodeNamed(t, snap, "client-1")
				assert.Equal(t, sim.StateHolding, c1.State, "client-1 holds at %v", at)
				assert.Equal(t, tt.holds[i], c1.Holds, "client-1's box at %v", at)
				assert.Equal(t, sim.StateWaiting, nodeNamed(t, snap, "client-2").State, "client-2 waits at %v: the inner unlock did not free the lock", at)
			}
			assert.Zero(t, sum.Violations, "a counted re-entry never lets another in")
			assert.Zero(t, sum.ExpiredWhileHeld, "the watchdog renews through the inner unlock")
			g2, ok := simtest.GrantOf(sum, "client-2")
			require.True(t, ok)
			assert.Greater(t, g2.AtMs, 6000.0, "client-2 is granted after client-1's outer unlock")
			assert.Equal(t, -1, keyHolds(rec.At(15*time.Second)), "the outer unlocks reached 0 and deleted the key")
		})
	}
}
