package redis_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/lockscope/lockscope/sim"
	"github.com/lockscope/lockscope/sim/redis"
	"github.com/lockscope/lockscope/sim/simtest"
	"github.com/lockscope/lockscope/sim/sweep"
)

// renewalScenario: one holder with the watchdog (TTL 30 s, renewal every
// 10 s) and a partition of client-1 from 9 s for cut.
func renewalScenario(t *testing.T, client string, cut time.Duration) *sim.Scenario {
	sc, err := sim.ParseScenario([]byte(`{"mode":"redis","watchdog":true,"ttl":"30s","work":"80s","clients":1,"rounds":1,"duration":"90s","latency":"2ms","jitter":"0s"}`))
	require.NoError(t, err)
	redis.Client.Set(sc, client)
	sc.Faults = []sim.Fault{{At: sim.Duration(9 * time.Second), Partition: [][]string{{"client-1"}}, For: sim.Duration(cut)}}
	return sc
}

// pexpires are client-1's renewal sends.
func pexpires(rec *sim.Recording) []time.Duration {
	var out []time.Duration
	for _, e := range rec.Trace() {
		if e.Node == "client-1" && e.Kind == sim.TraceSend && e.Op == redis.OpPExpire.String() {
			out = append(out, e.At)
		}
	}
	return out
}

// TestRenewalRetriedAfterRetryDelay: the renewal of 10.004 s is lost; its
// resend goes retryDelay after the 3 s timeout: 1500 ms for Redisson
// 3.16.8, EqualJitterDelay's calcDelay(0) (0.5–1 s) for 4.7.0.
func TestRenewalRetriedAfterRetryDelay(t *testing.T) {
	tests := []struct {
		client   string
		min, max time.Duration
	}{
		{redis.ClientRedisson316, redis.RetryInterval, redis.RetryInterval},
		{redis.ClientRedisson, 500 * time.Millisecond, time.Second},
	}
	for _, tt := range tests {
		t.Run(tt.client, func(t *testing.T) {
			_, rec := simtest.Run(t, renewalScenario(t, tt.client, 2*time.Second))
			sends := pexpires(rec)
			require.GreaterOrEqual(t, len(sends), 2)
			gap := sends[1] - sends[0] - redis.RequestTimeout
			assert.GreaterOrEqual(t, gap, tt.min)
			assert.LessOrEqual(t, gap, tt.max)
		})
	}
}

// TestFailedRenewalPerRelease: a 30 s cut outlasts every attempt of the
// renewal of 10 s. Redisson 3.16.8 drops the lock from renewal for good
// (renewExpiration); 4.7.0's RenewalTask schedules the next run and
// renews again once the cut heals.
func TestFailedRenewalPerRelease(t *testing.T) {
	tests := []struct {
		client      string
		dropped     bool
		afterHealed bool
	}{
		{redis.ClientRedisson316, true, false},
		{redis.ClientRedisson, false, true},
	}
	for _, tt := range tests {
		t.Run(tt.client, func(t *testing.T) {
			_, rec := simtest.Run(t, renewalScenario(t, tt.client, 30*time.Second))
			after, dropped := 0, false
			for _, at := range pexpires(rec) {
				if at > 39*time.Second {
					after++
				}
			}
			for _, e := range rec.Trace() {
				if e.Node == "client-1" && e.Kind.String() == "watchdog" && strings.Contains(e.Note, "dropped") {
					dropped = true
				}
			}
			assert.Equal(t, tt.dropped, dropped, "a trace that the renewal was dropped")
			assert.Equal(t, tt.afterHealed, after > 0, "renewals after the cut healed at 39 s: %d", after)
		})
	}
}

// waitScenario: Redisson 4.7.0 and a replica; cutReplica cuts redis-2 off
// for the first 3 s.
func waitScenario(t *testing.T, cutReplica bool) *sim.Scenario {
	sc, err := sim.ParseScenario([]byte(`{"mode":"redis","replica":true,"ttl":"10s","work":"2s","clients":1,"rounds":1,"duration":"20s","latency":"2ms","jitter":"0s"}`))
	require.NoError(t, err)
	if cutReplica {
		sc.Faults = []sim.Fault{{Partition: [][]string{{"redis-2"}}, For: sim.Duration(3 * time.Second)}}
	}
	return sc
}

// TestWaitWithAndWithoutReplicaAck: the lock script travels with WAIT 1
// 1000. With the replica reachable WAIT answers 1 after its GETACK round
// trip and the lock is granted; cut off, WAIT answers 0 at its 1 s
// timeout, Redisson unlocks (NoSyncedSlavesException, handleNoSync) and
// tries again after the retry delay, and is granted once a replica
// acknowledges.
func TestWaitWithAndWithoutReplicaAck(t *testing.T) {
	tests := []struct {
		name       string
		cut        bool
		minGrant   time.Duration
		maxGrant   time.Duration
		unlockSent bool
	}{
		{"acknowledged", false, 8 * time.Millisecond, 8 * time.Millisecond, false},
		{"no replica acknowledged", true, 3 * time.Second, 8 * time.Second, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			sum, rec := simtest.Run(t, waitScenario(t, tt.cut))
			g, ok := simtest.GrantOf(sum, "client-1")
			require.True(t, ok)
			at := time.Duration(g.AtMs * float64(time.Millisecond))
			assert.GreaterOrEqual(t, at, tt.minGrant)
			assert.LessOrEqual(t, at, tt.maxGrant)
			var waits, replicas, noSync, unlocksBeforeGrant int
			for _, e := range rec.Trace() {
				switch {
				case e.Node == "client-1" && e.Kind == sim.TraceSend && e.Op == redis.OpWait.String():
					waits++
				case e.Node == "redis-1" && e.Kind == sim.TraceSend && e.Op == redis.OpReplicas.String():
					replicas++
				case e.Node == "client-1" && e.Kind.String() == "nosync":
					noSync++
				case e.Node == "client-1" && e.Kind == sim.TraceSend && e.Op == redis.OpUnlock.String() && e.At < at:
					unlocksBeforeGrant++
				}
			}
			assert.Positive(t, waits, "the script goes with WAIT")
			assert.Equal(t, waits, replicas, "each WAIT is answered")
			assert.Equal(t, tt.unlockSent, noSync > 0)
			assert.Equal(t, tt.unlockSent, unlocksBeforeGrant > 0, "unlocked after WAIT answered 0")
		})
	}
}

// TestResentUnlockAnswersFromItsLatch: Redisson 4.7.0 with a replica; the
// unlock's batch reply is lost in a cut, the batch is resent, and the
// resent script answers from its latch (1: the first run deleted the
// key) instead of nil.
func TestResentUnlockAnswersFromItsLatch(t *testing.T) {
	sc := waitScenario(t, false)
	// The unlock goes at 2.012 s and runs at 2.014 s; cut client-1 off
	// from 2.015 s so its answer is lost.
	sc.Faults = []sim.Fault{{At: sim.Duration(2015 * time.Millisecond), Partition: [][]string{{"client-1"}}, For: sim.Duration(2 * time.Second)}}
	_, rec := simtest.Run(t, sc)
	unlocks, notOurs := 0, 0
	for _, e := range rec.Trace() {
		if e.Node == "client-1" && e.Kind == sim.TraceSend && e.Op == redis.OpUnlock.String() {
			unlocks++
		}
		if e.Node == "client-1" && e.Kind.String() == "release" {
			notOurs++
		}
	}
	assert.Equal(t, 2, unlocks, "the unlock batch is resent after its 4 s timeout")
	assert.Zero(t, notOurs, "the latch answers 1: the resend does not find the lock gone")
}

// TestSweepHonoursTheClient: the trade-off map sweeps the scenario it is
// given, client included. A base with a replica whose link is cut while
// the master dies (redis-failover's faults): the plain client, which
// sends no WAIT, is violated in every cell; Redisson 4.7.0, whose WAIT
// got no acknowledgement, never.
func TestSweepHonoursTheClient(t *testing.T) {
	tests := []struct {
		client    string
		violation float64
	}{
		{redis.ClientPlain, 1},
		{redis.ClientRedisson, 0},
	}
	for _, tt := range tests {
		t.Run(tt.client, func(t *testing.T) {
			base, err := sweep.Base("redis")
			require.NoError(t, err)
			base.Latency, base.Jitter = sim.Duration(2*time.Millisecond), 0
			base.Work = sim.Duration(8 * time.Second)
			redis.Replica.Set(base, true)
			redis.Client.Set(base, tt.client)
			base.Faults = []sim.Fault{
				{Partition: [][]string{{"redis-2"}}, For: sim.Duration(time.Second)},
				{At: sim.Duration(3 * time.Millisecond), Failover: "redis-1"},
			}
			x, err := sweep.ParseAxis("ttl=10s:20s:2")
			require.NoError(t, err)
			cells, err := (&sweep.Sweep{Base: base, X: x, Seeds: 2}).Run(context.Background(), 1, nil)
			require.NoError(t, err)
			require.Len(t, cells, 2)
			for _, c := range cells {
				assert.Equal(t, tt.violation, c.ViolationRate, "ttl %v", c.X)
			}
		})
	}
}
