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

// sentinelScenario is two plain clients, a master and its replica, three
// Sentinels with down-after-milliseconds 2 s, and the faults given.
func sentinelScenario(t *testing.T, faults string) *sim.Scenario {
	t.Helper()
	sc, err := sim.ParseScenario([]byte(`{"mode":"redis","seed":1,"duration":"40s","clients":2,"ttl":"30s","work":"20s",
		"latency":"2ms","jitter":"0s","client":"plain","replica":true,"sentinels":3,"downAfter":"2s","faults":` + faults + `}`))
	require.NoError(t, err)
	return sc
}

// sentinelEvents is when each of the Sentinels' events (by name) and the
// servers' promotions and demotions happened, first instance of each.
func sentinelEvents(rec *sim.Recording) map[string]time.Duration {
	out := map[string]time.Duration{}
	for _, e := range rec.Trace() {
		name := ""
		switch e.Kind.String() {
		case "sentinelEvent":
			name = e.Op
		case "promote", "demote":
			name = e.Node + " " + e.Kind.String()
		default:
			continue
		}
		if _, seen := out[name]; !seen {
			out[name] = e.At
		}
	}
	return out
}

// TestSentinelFailsOver: a crash, a pause or a cut of the master is seen
// by the Sentinels (+sdown after down-after-milliseconds without a valid
// reply), agreed on (+odown), and the elected leader promotes the replica
// and publishes +switch-master, which the clients follow; a master that
// is back acts as one until +convert-to-slave makes it a replica, which
// drops its dataset.
func TestSentinelFailsOver(t *testing.T) {
	const unreplicated = `{"at":"0s","partition":[["redis-2"]],"for":"1s"}, `
	tests := []struct {
		name   string
		faults string
		check  func(t *testing.T, ev map[string]time.Duration, sum sim.Summary, rec *sim.Recording)
	}{
		{"crash", `[` + unreplicated + `{"at":"500ms","crash":"redis-1"}]`, func(t *testing.T, ev map[string]time.Duration, sum sim.Summary, rec *sim.Recording) {
			// The crash closes the link: SDOWN counts from the last PONG
			// (last_avail_time, ≤ 1 s before), so 2 s down-after, then
			// the vote and the INFO that confirms the promotion.
			require.Contains(t, ev, "+sdown")
			assert.InDelta(t, 2.5, ev["+sdown"].Seconds(), 1.0)
			require.Contains(t, ev, "+elected-leader")
			assert.Greater(t, ev["+elected-leader"], ev["+odown"])
			require.Contains(t, ev, "redis-2 promote")
			require.Contains(t, ev, "+switch-master")
			assert.Greater(t, ev["+switch-master"], ev["redis-2 promote"])
			assert.InDelta(t, 3.5, ev["+switch-master"].Seconds(), 1.5, "down-after + about a second")
			g, ok := simtest.GrantOf(sum, "client-2")
			require.True(t, ok, "client-2 takes the lock on the promoted replica")
			assert.Greater(t, g.AtMs, float64(ev["+switch-master"].Milliseconds()))
			assert.Equal(t, 1, sum.Violations, "the key was never replicated")
			assert.NotContains(t, ev, "redis-1 demote", "a crashed master is not back")
			assert.Empty(t, rec.Timeline().Primaries, "a crashed master acts as nothing")
		}},
		{"pause", `[` + unreplicated + `{"at":"500ms","pause":"redis-1","for":"10s"}]`, func(t *testing.T, ev map[string]time.Duration, sum sim.Summary, rec *sim.Recording) {
			// A paused master's link stays up: SDOWN counts from the first
			// unanswered PING (act_ping_time).
			require.Contains(t, ev, "+switch-master")
			assert.InDelta(t, 4.0, ev["+switch-master"].Seconds(), 1.5)
			assert.Equal(t, 1, sum.Violations)
			require.Contains(t, ev, "redis-1 demote", "the woken master is made a replica")
			wake := 10500 * time.Millisecond
			assert.InDelta(t, (wake + 10*time.Second).Seconds(), ev["redis-1 demote"].Seconds(), 1.5,
				"+convert-to-slave at the INFO (every 10 s) that finds it a master for over 8 s")
			tl := rec.Timeline()
			require.Len(t, tl.Primaries, 1, "two masters from the wake to the demotion")
			assert.Equal(t, wake, tl.Primaries[0].From)
			assert.Equal(t, ev["redis-1 demote"], tl.Primaries[0].To)
			var demoted bool
			for _, f := range tl.Faults {
				demoted = demoted || (f.Kind == sim.FaultDemote && f.Target == "redis-1")
			}
			assert.True(t, demoted, "the demotion is marked on the timeline")
			// Its key is gone with its dataset.
			after, err := rec.At(ev["redis-1 demote"]+10*time.Millisecond), error(nil)
			require.NoError(t, err)
			v := redis.ViewOf(after)
			require.NotNil(t, v)
			for _, s := range v.Servers {
				if after.Nodes[s.Node].Name == "redis-1" {
					assert.Equal(t, redis.RoleReplica, s.Role)
					for _, k := range s.Keys {
						assert.NotEqual(t, "client-1", k.Owner, "client-1's key went with redis-1's dataset")
					}
				}
			}
		}},
		{"partition", `[` + unreplicated + `{"at":"1500ms","partition":[["redis-1"]],"for":"10s"}]`, func(t *testing.T, ev map[string]time.Duration, sum sim.Summary, rec *sim.Recording) {
			require.Contains(t, ev, "+switch-master", "a master cut off from the Sentinels is failed over")
			require.Contains(t, ev, "redis-1 demote", "and made a replica once the cut heals")
			assert.Greater(t, ev["redis-1 demote"], 11500*time.Millisecond)
			require.NotEmpty(t, rec.Timeline().Primaries)
		}},
		{"back before down-after", `[{"at":"500ms","pause":"redis-1","for":"1s"}]`, func(t *testing.T, ev map[string]time.Duration, sum sim.Summary, rec *sim.Recording) {
			assert.NotContains(t, ev, "+sdown", "a 1 s pause is within down-after-milliseconds")
			assert.NotContains(t, ev, "+switch-master")
			assert.Zero(t, sum.Violations)
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			sum, rec := simtest.Run(t, sentinelScenario(t, tt.faults))
			tt.check(t, sentinelEvents(rec), sum, rec)
		})
	}
}

// TestSentinelElectsOneLeader: of three Sentinels, one wins the epoch's
// vote and only it sends REPLICAOF NO ONE; the others learn the new master
// from its hello (+config-update-from).
func TestSentinelElectsOneLeader(t *testing.T) {
	for seed := int64(1); seed <= 8; seed++ {
		sc := sentinelScenario(t, `[{"at":"500ms","crash":"redis-1"}]`)
		sc.Seed = seed
		_, rec := simtest.Run(t, sc)
		leaders, orders, updates := map[string]bool{}, 0, 0
		for _, e := range rec.Trace() {
			switch {
			case e.Kind.String() == "sentinelEvent" && e.Op == "+elected-leader":
				leaders[e.Node] = true
			case e.Kind == sim.TraceSend && e.Op == redis.OpReplicaOf.String() && e.Peer == "redis-2":
				orders++
			case e.Kind.String() == "sentinelEvent" && e.Op == "+config-update-from":
				updates++
			}
		}
		assert.Len(t, leaders, 1, "seed %d: one leader", seed)
		assert.Equal(t, 1, orders, "seed %d: one REPLICAOF NO ONE", seed)
		assert.Equal(t, 2, updates, "seed %d: the two others take the new configuration", seed)
	}
}

// TestNoSentinelsNoChange: with sentinels 0 a crash is never failed over
// (today's behaviour: only the failover fault promotes), and the scenario
// has no Sentinel node.
func TestNoSentinelsNoChange(t *testing.T) {
	sc := sentinelScenario(t, `[{"at":"500ms","crash":"redis-1"}]`)
	redis.Sentinels.Set(sc, 0)
	sum, rec := simtest.Run(t, sc)
	assert.Equal(t, []string{"redis-1", "redis-2"}, redis.Mode.Servers(sc))
	for _, f := range rec.Timeline().Faults {
		assert.NotEqual(t, sim.FaultPromote, f.Kind, "nothing promotes the replica without a failover fault")
	}
	assert.Len(t, sum.Grants, 1, "client-2 waits for the dead master forever")
}

// TestSentinelsRefused: more than 7 Sentinels, a downAfter below 100 ms
// and Sentinels in another design are refused, naming the field; without
// a replica there is no Sentinel node.
func TestSentinelsRefused(t *testing.T) {
	for _, tt := range []struct{ file, field string }{
		{`{"mode":"redis","replica":true,"sentinels":9}`, "sentinels"},
		{`{"mode":"redis","replica":true,"sentinels":3,"downAfter":"10ms"}`, "downAfter"},
		{`{"mode":"etcd","sentinels":3}`, "sentinels"},
	} {
		_, err := sim.ParseScenario([]byte(tt.file))
		require.Error(t, err, tt.file)
		assert.Contains(t, err.Error(), tt.field, tt.file)
	}
	sc, err := sim.ParseScenario([]byte(`{"mode":"redis","sentinels":3}`))
	require.NoError(t, err)
	assert.Equal(t, []string{"redis-1"}, redis.Mode.Servers(sc))
}

// TestFailoverFaultWithSentinels: the failover fault stays an operator's
// failover after failoverAfter; the Sentinels take the new master and do
// not fail the dead one over again.
func TestFailoverFaultWithSentinels(t *testing.T) {
	sc := sentinelScenario(t, `[{"at":"500ms","failover":"redis-1"}]`)
	redis.FailoverAfter.Set(sc, sim.Duration(time.Second))
	_, rec := simtest.Run(t, sc)
	ev := sentinelEvents(rec)
	require.Contains(t, ev, "redis-2 promote")
	assert.InDelta(t, 1.5, ev["redis-2 promote"].Seconds(), 0.01, "failoverAfter after the fault")
	assert.NotContains(t, ev, "+elected-leader", "no Sentinel election: the operator's failover came first")
}

// TestSentinelPresets: the two Sentinel stories.
func TestSentinelPresets(t *testing.T) {
	sum, rec := simtest.Run(t, simtest.Preset(t, "redis-sentinel-async-replication", nil))
	assert.Equal(t, 1, sum.Violations, "two workers hold the lock")
	assert.Equal(t, 1, sum.StaleWritesAccepted)
	ev := sentinelEvents(rec)
	assert.InDelta(t, 6.2, ev["+switch-master"].Seconds(), 0.5)

	sum, rec = simtest.Run(t, simtest.Preset(t, "redis-sentinel-paused-master", nil))
	assert.Equal(t, 1, sum.Violations)
	tl := rec.Timeline()
	require.Len(t, tl.Primaries, 1)
	assert.Equal(t, 14500*time.Millisecond, tl.Primaries[0].From, "redis-1 wakes a master")
	assert.InDelta(t, 24.5, tl.Primaries[0].To.Seconds(), 0.5, "until +convert-to-slave")
}

// TestSentinelFailoverWithWait: the same Sentinel failover as
// redis-sentinel-async-replication, with Redisson 4.7.0 instead of the
// plain client: its lock script goes with WAIT (checkLockSyncedSlaves),
// so the lock was on the replica before it was granted and the promoted
// replica still holds it; the second worker waits, and nobody overlaps.
func TestSentinelFailoverWithWait(t *testing.T) {
	for _, tc := range []struct {
		client     string
		violations int
	}{{redis.ClientPlain, 1}, {redis.ClientRedisson, 0}} {
		t.Run(tc.client, func(t *testing.T) {
			sum, rec := simtest.Run(t, simtest.Preset(t, "redis-sentinel-async-replication", func(sc *sim.Scenario) {
				redis.Client.Set(sc, tc.client)
			}))
			assert.Equal(t, tc.violations, sum.Violations)
			assert.Equal(t, tc.violations == 0, sum.Safe)
			assert.Contains(t, sentinelEvents(rec), "+switch-master", "Sentinel failed the master over either way")
		})
	}
}
