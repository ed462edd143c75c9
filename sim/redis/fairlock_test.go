package redis_test

import (
	"fmt"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/lockscope/lockscope/sim"
	"github.com/lockscope/lockscope/sim/redis"
	"github.com/lockscope/lockscope/sim/simtest"
)

// contended is six Redisson clients taking turns, each for 1 s of work,
// several rounds each: the retries' jitter decides RLock's order.
func contended(t *testing.T, client string, seed int64) *sim.Scenario {
	t.Helper()
	sc, err := sim.ParseScenario([]byte(fmt.Sprintf(`{"mode":"redis","clients":6,"duration":"2m","rounds":4,
		"work":"1s","think":"300ms","ttl":"30s","seed":%d,"client":%q}`, seed, client)))
	require.NoError(t, err)
	return sc
}

// TestFairLockGrantsInTheOrderAsked: RFairLock's queue grants in the
// order the waiters first tried (no inversions, over many seeds), where
// RLock's waiters, retrying on a jittered delay, overtake one another.
func TestFairLockGrantsInTheOrderAsked(t *testing.T) {
	inversions := map[string]int{}
	for _, client := range []string{redis.ClientRedisson, redis.ClientRedissonFair} {
		for seed := int64(1); seed <= 8; seed++ {
			sum, rec := simtest.Run(t, contended(t, client, seed))
			require.Zero(t, sum.Violations, "%s seed %d", client, seed)
			m := rec.Metrics(rec.End())
			require.Positive(t, m.Run.Acquisitions, "%s seed %d", client, seed)
			inversions[client] += m.Fairness.Inversions
		}
	}
	assert.Zero(t, inversions[redis.ClientRedissonFair], "the fair lock's queue keeps the order")
	assert.Positive(t, inversions[redis.ClientRedisson], "RLock's retries overtake")
}

// TestFairLockDeadWaiterBlocksTheQueue: a waiter that crashes while
// queued keeps its turn until its timeout (the lock's TTL left at its
// enqueue plus fairLockWaitTimeout, 5 min) passes on the next caller's
// clock, so the lock, once released, stays free and unheld until then;
// RLock's next waiter takes it at once.
func TestFairLockDeadWaiterBlocksTheQueue(t *testing.T) {
	for _, tc := range []struct {
		client  string
		blocked bool
	}{{redis.ClientRedisson, false}, {redis.ClientRedissonFair, true}} {
		t.Run(tc.client, func(t *testing.T) {
			sc, err := sim.ParseScenario([]byte(fmt.Sprintf(`{"mode":"redis","clients":3,"duration":"8m","rounds":1,
				"work":"10s","ttl":"30s","stagger":"1s","client":%q,
				"faults":[{"at":"3s","crash":"client-2"}]}`, tc.client)))
			require.NoError(t, err)
			_, rec := simtest.Run(t, sc)
			var third time.Duration = -1
			for _, g := range rec.Checker().Grants() {
				if g.Client == 2 { // client-3: the clients are the first nodes
					third = g.At
				}
			}
			require.GreaterOrEqual(t, third, time.Duration(0), "client-3 gets the lock in the end")
			if tc.blocked {
				assert.Greater(t, third, 5*time.Minute, "client-2's dead turn holds the queue past fairLockWaitTimeout")
			} else {
				assert.Less(t, third, 20*time.Second, "RLock's client-3 takes it after client-1's 10 s")
			}
		})
	}
}

// TestUnfairLockPreset: redis-unfair-lock's captions say RLock's figures
// (11 inversions, client-1 and client-5 starved, client-5 first served
// after 13.9 s against a median of 1.7 s) and RFairLock's for the same
// run (no inversion, a longest wait of 8.0 s); they come from here.
func TestUnfairLockPreset(t *testing.T) {
	for _, tc := range []struct {
		client     string
		inversions int
		starved    []string
		longest    float64
		median     float64
	}{
		{redis.ClientRedisson, 11, []string{"client-1", "client-5"}, 13.9, 1.7},
		{redis.ClientRedissonFair, 0, nil, 8.0, 7.4},
	} {
		t.Run(tc.client, func(t *testing.T) {
			sum, rec := simtest.Run(t, simtest.Preset(t, "redis-unfair-lock", func(sc *sim.Scenario) {
				redis.Client.Set(sc, tc.client)
			}))
			assert.True(t, sum.Safe, "unfair, never unsafe")
			assert.Zero(t, sum.Violations)
			f := rec.Metrics(rec.End()).Fairness
			assert.Equal(t, tc.inversions, f.Inversions)
			assert.Equal(t, tc.starved, nilIfEmpty(f.Starved))
			assert.InDelta(t, tc.longest, f.LongestWaitMs/1000, 0.05)
			assert.InDelta(t, tc.median, f.MedianWaitMs/1000, 0.05)
		})
	}
	// The captions' instants: client-4 (asked fourth) follows client-1,
	// client-3 is served twice before client-5 once.
	_, rec := simtest.Run(t, simtest.Preset(t, "redis-unfair-lock", nil))
	var order []string
	for _, g := range rec.Checker().Grants() {
		order = append(order, rec.Checker().NodeName(g.Client))
	}
	require.GreaterOrEqual(t, len(order), 8)
	assert.Equal(t, []string{"client-1", "client-4", "client-3", "client-2", "client-3", "client-2", "client-4", "client-5"}, order[:8])
}

func nilIfEmpty(xs []string) []string {
	if len(xs) == 0 {
		return nil
	}
	return xs
}
