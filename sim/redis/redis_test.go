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

// preset loads a preset and lets the test adjust it before the run.
func TestRedisPresets(t *testing.T) {
	tests := []struct {
		preset string
		edit   func(*sim.Scenario)
		check  func(t *testing.T, sum sim.Summary, rec *sim.Recording)
	}{
		{"redis-happy-path", nil, func(t *testing.T, sum sim.Summary, _ *sim.Recording) {
			assert.Equal(t, 9, sum.Acquisitions)
			assert.Equal(t, 9, sum.Releases)
			assert.Zero(t, sum.Violations)
			assert.True(t, sum.Safe)
		}},
		{"redis-gc-pause", nil, func(t *testing.T, sum sim.Summary, _ *sim.Recording) {
			g, ok := simtest.GrantOf(sum, "client-2")
			require.True(t, ok, "client-2 must be granted")
			assert.InDelta(t, 10000, g.AtMs, 250, "client-2 is granted about when the 10 s TTL runs out")
			assert.GreaterOrEqual(t, sum.Violations, 1)
			assert.GreaterOrEqual(t, sum.StaleWritesAccepted, 1)
			assert.GreaterOrEqual(t, sum.ExpiredWhileHeld, 1)
			assert.False(t, sum.Safe)
		}},
		{"redis-plain-setnx", nil, func(t *testing.T, sum sim.Summary, rec *sim.Recording) {
			g, ok := simtest.GrantOf(sum, "client-2")
			require.True(t, ok, "client-2's SET NX succeeds once the key expired")
			assert.InDelta(t, 10000, g.AtMs, 250)
			assert.Equal(t, 1, sum.StaleWritesAccepted)
			assert.False(t, sum.Safe)
			notOurs := false
			for _, e := range rec.Trace() {
				if e.Node == "client-1" && e.Kind.String() == "release" && e.Op == redis.OpCAD.String() {
					notOurs = true // its compare-and-delete found client-2's token
				}
			}
			assert.True(t, notOurs, "client-1's compare-and-delete returns 0")
		}},
		{"redis-gc-pause-fenced", nil, func(t *testing.T, sum sim.Summary, _ *sim.Recording) {
			assert.GreaterOrEqual(t, sum.Violations, 1, "fencing does not stop the overlap")
			assert.Equal(t, 1, sum.StaleWritesRejected)
			assert.Zero(t, sum.StaleWritesAccepted)
			assert.True(t, sum.Safe)
			require.Len(t, sum.Grants, 2)
			assert.Equal(t, []int64{1, 2}, []int64{sum.Grants[0].Token, sum.Grants[1].Token})
		}},
		{"redis-watchdog-freeze", nil, func(t *testing.T, sum sim.Summary, _ *sim.Recording) {
			assert.GreaterOrEqual(t, sum.Violations, 1)
			assert.False(t, sum.Safe)
		}},
		{"redis-watchdog-freeze", func(sc *sim.Scenario) { sc.Faults[0].For = sim.Duration(15 * time.Second) },
			func(t *testing.T, sum sim.Summary, _ *sim.Recording) {
				assert.Zero(t, sum.Violations, "a 15 s pause is shorter than ttl − ttl/3: the late renewal still finds the key")
				assert.True(t, sum.Safe)
				assert.Equal(t, 2, sum.Acquisitions)
			}},
		{"redis-failover", nil, func(t *testing.T, sum sim.Summary, rec *sim.Recording) {
			c1, ok1 := simtest.GrantOf(sum, "client-1")
			c2, ok2 := simtest.GrantOf(sum, "client-2")
			require.True(t, ok1 && ok2)
			assert.Less(t, c1.AtMs, 10.0, "client-1's OK left the master before it died")
			// Sentinel promotes 3 s after the failure; the plain client's
			// request to the dead master times out at 3.1 s without a
			// resend, and its retry (retryDelay 100–300 ms) goes there.
			assert.InDelta(t, 3244.189, c2.AtMs, 5, "client-2 is granted by the promoted replica while client-1 holds")
			assert.Equal(t, 1, sum.Violations)
			assert.False(t, sum.Safe)
			var promoted []sim.FaultMark
			for _, f := range rec.Timeline().Faults {
				if f.Kind == sim.FaultPromote {
					promoted = append(promoted, f)
				}
			}
			require.Len(t, promoted, 1, "Sentinel's decision is on the timeline")
			assert.Equal(t, 3003*time.Millisecond, promoted[0].At)
			assert.Equal(t, "redis-2", promoted[0].Target)
		}},
		{"redis-failover", func(sc *sim.Scenario) { redis.Client.Set(sc, redis.ClientRedisson) },
			func(t *testing.T, sum sim.Summary, rec *sim.Recording) {
				assert.Zero(t, sum.Violations, "Redisson 4.7.0's WAIT: no replica acknowledged client-1's lock, so it never believed it")
				noSync := 0
				for _, e := range rec.Trace() {
					if e.Node == "client-1" && e.Kind.String() == "nosync" {
						noSync++
					}
				}
				assert.Positive(t, noSync, "WAIT answered 0 and client-1 unlocked and retried")
			}},
		{"redis-failover", func(sc *sim.Scenario) { sc.Faults = sc.Faults[1:] },
			func(t *testing.T, sum sim.Summary, _ *sim.Recording) {
				assert.Zero(t, sum.Violations, "once replicated, the promoted replica still has client-1's key")
			}},
		{"redis-failover", func(sc *sim.Scenario) { redis.FailoverAfter.Set(sc, sim.Duration(10*time.Second)) },
			func(t *testing.T, sum sim.Summary, rec *sim.Recording) {
				assert.Zero(t, sum.Violations, "Sentinel promotes after the holder's 8 s of work: no overlap")
				assert.Equal(t, 2, sum.Acquisitions)
				c2, ok := simtest.GrantOf(sum, "client-2")
				require.True(t, ok)
				assert.Greater(t, c2.AtMs, 10003.0, "client-2 is granted only by the promoted replica")
			}},
		{"redis-failover", func(sc *sim.Scenario) {
			sc.Faults = append(sc.Faults, sim.Fault{At: sim.Duration(2 * time.Second), Restart: "redis-1", Persist: true})
		}, func(t *testing.T, sum sim.Summary, rec *sim.Recording) {
			for _, f := range rec.Timeline().Faults {
				assert.NotEqual(t, sim.FaultPromote, f.Kind, "the master came back before Sentinel's delay: no failover")
			}
			assert.Zero(t, sum.Violations)
		}},
		{"redis-plain-del", nil, func(t *testing.T, sum sim.Summary, rec *sim.Recording) {
			require.Len(t, sum.Grants, 3)
			assert.Equal(t, "client-2", sum.Grants[1].Client)
			assert.Equal(t, "client-3", sum.Grants[2].Client)
			tl := rec.Timeline()
			// client-3 got in while client-2 still believed it held the lock.
			c2, c3 := tl.Holding[1], tl.Holding[2]
			require.NotEmpty(t, c2)
			require.NotEmpty(t, c3)
			assert.Less(t, c3[0].From, c2[0].To)
			assert.GreaterOrEqual(t, sum.Violations, 2)
		}},
		{"redis-delayed-write", nil, func(t *testing.T, sum sim.Summary, rec *sim.Recording) {
			w := rec.Checker().Writes()
			require.Len(t, w, 2)
			late := w[1]
			assert.Equal(t, sim.NodeID(0), late.Client, "client-1's write arrives last")
			assert.Greater(t, late.At, 16*time.Second, "held back until the partition (4 s + 12 s) heals")
			assert.True(t, late.Stale, "it arrives after client-2's grant")
			assert.False(t, late.Accepted, "client-2's read raised the storage's token: fencing refuses it")
			assert.Equal(t, 1, sum.StaleWritesRejected)
			assert.Zero(t, sum.LostUpdates)
			assert.True(t, sum.Safe)
		}},
		{"redis-delayed-write", func(sc *sim.Scenario) { sc.Fencing = false },
			func(t *testing.T, sum sim.Summary, rec *sim.Recording) {
				assert.Equal(t, 1, sum.StaleWritesAccepted, "without fencing the late write is taken")
				assert.Equal(t, 1, sum.LostUpdates, "and client-2's update is lost")
				assert.False(t, sum.Safe)
			}},
		{"redis-renewal-never-rescheduled", nil, func(t *testing.T, sum sim.Summary, rec *sim.Recording) {
			assert.Equal(t, 1, sum.Violations, "client-2 gets the lock when the promoted replica's key expires")
			c2, ok := simtest.GrantOf(sum, "client-2")
			require.True(t, ok)
			assert.InDelta(t, 40050, c2.AtMs, 100, "at the 40 s deadline the last good renewal set")
			dropped := 0
			for _, e := range rec.Trace() {
				if e.Node == "client-1" && e.Kind.String() == "watchdog" && e.At > 36*time.Second && e.At < 37*time.Second {
					dropped++
				}
			}
			assert.Equal(t, 1, dropped, "renewal dropped after its fourth attempt, at 36.5 s")
		}},
		{"redis-renewal-never-rescheduled", func(sc *sim.Scenario) { redis.Client.Set(sc, redis.ClientRedisson) },
			func(t *testing.T, sum sim.Summary, _ *sim.Recording) {
				assert.Zero(t, sum.Violations, "Redisson 4.7.0's fifth attempt reaches the promoted replica before the key's 40 s")
			}},
		{"redis-watchdog-starved", nil, func(t *testing.T, sum sim.Summary, rec *sim.Recording) {
			assert.Equal(t, 1, sum.Violations)
			c2, ok := simtest.GrantOf(sum, "client-2")
			require.True(t, ok)
			assert.InDelta(t, 30060, c2.AtMs, 100, "30 s after the lock script ran, not after client-1 read its OK")
			nilUnlock := false
			for _, e := range rec.Trace() {
				if e.Node == "client-1" && e.Kind.String() == "release" && e.Op == redis.OpUnlock.String() {
					nilUnlock = true
				}
			}
			assert.True(t, nilUnlock, "client-1's unlock answers nil: IllegalMonitorStateException")
		}},
		{"redis-plain-del", func(sc *sim.Scenario) { redis.PlainDel.Set(sc, false) },
			func(t *testing.T, sum sim.Summary, rec *sim.Recording) {
				tl := rec.Timeline()
				c2, c3 := tl.Holding[1], tl.Holding[2]
				require.NotEmpty(t, c3)
				assert.GreaterOrEqual(t, c3[0].From, c2[0].To, "compare-and-delete leaves client-2's key alone")
			}},
	}
	for _, tt := range tests {
		t.Run(tt.preset, func(t *testing.T) {
			sum, rec := simtest.Run(t, simtest.Preset(t, tt.preset, tt.edit))
			tt.check(t, sum, rec)
		})
	}
}

func TestWatchdogRenewsEveryThirdOfTTL(t *testing.T) {
	sc := simtest.Preset(t, "redis-watchdog-freeze", func(sc *sim.Scenario) { sc.Faults = nil })
	sc.Jitter = 0
	rec, err := sim.Record(sc)
	require.NoError(t, err)
	var renewals []time.Duration
	for _, e := range rec.Trace() {
		if e.Kind == sim.TraceSend && e.Op == redis.OpPExpire.String() && e.Node == "client-1" {
			renewals = append(renewals, e.At)
		}
	}
	require.GreaterOrEqual(t, len(renewals), 5)
	for i := 1; i < len(renewals); i++ {
		// ttl/3 = 10 s after the previous renewal's reply (one round trip).
		assert.InDelta(t, float64(10*time.Second+2*sc.Latency.D()), float64(renewals[i]-renewals[i-1]), float64(time.Millisecond))
	}
	assert.Zero(t, rec.Summary().Violations)
}

func TestTokensGoBackwardsAfterFailover(t *testing.T) {
	sc := simtest.Preset(t, "redis-failover", func(sc *sim.Scenario) { sc.Fencing = true })
	sum, _ := simtest.Run(t, sc)
	require.Len(t, sum.Grants, 2)
	// client-1's INCR never reached the replica: the new master hands out 1 again.
	assert.Equal(t, int64(1), sum.Grants[0].Token)
	assert.Equal(t, int64(1), sum.Grants[1].Token)
}

func TestClockJumpExpiresKeyEarly(t *testing.T) {
	sc := simtest.Preset(t, "redis-happy-path", func(sc *sim.Scenario) {
		sc.Clients, sc.Rounds, sc.Work = 2, 1, sim.Duration(8*time.Second)
		sc.Faults = []sim.Fault{{At: sim.Duration(time.Second), ClockJump: "redis-1", By: sim.Duration(9500 * time.Millisecond)}}
	})
	sum, _ := simtest.Run(t, sc)
	c2, ok := simtest.GrantOf(sum, "client-2")
	require.True(t, ok)
	assert.Less(t, c2.AtMs, 1500.0, "the server's clock jumped past the key's deadline")
	assert.Equal(t, 1, sum.Violations)
}

// TestRedissonResendsThroughAPartition is the case of issue 14: a 5 s
// partition swallows client-1's renewal at 10 s; Redisson 4.7.0 resends it
// after each 3 s response timeout and a retry delay of 0.5–2 s
// (RedisExecutor, EqualJitterDelay) and keeps the watchdog going,
// so client-1 keeps the lock and client-2 waits for its release.
func TestRedissonResendsThroughAPartition(t *testing.T) {
	sc, err := sim.ParseScenario([]byte(`{"mode":"redis","watchdog":true,"ttl":"30s","work":"50s","clients":2,"duration":"90s",
		"faults":[{"at":"9s","partition":[["client-1"]],"for":"5s"}]}`))
	require.NoError(t, err)
	sum, rec := simtest.Run(t, sc)
	assert.Zero(t, sum.Violations)
	c2, ok := simtest.GrantOf(sum, "client-2")
	require.True(t, ok, "client-2 is granted after the release")
	c1 := rec.Timeline().Holding[0]
	require.Len(t, c1, 1)
	assert.GreaterOrEqual(t, c2.AtMs, float64(c1[0].To/time.Millisecond), "client-2 is granted only after client-1's release")
	resends, renewalsAfterHeal := 0, 0
	for _, e := range rec.Trace() {
		if e.Node != "client-1" {
			continue
		}
		if e.Kind.String() == "resend" && e.Op == redis.OpPExpire.String() {
			resends++
		}
		if e.Kind == sim.TraceSend && e.Op == redis.OpPExpire.String() && e.At > 14*time.Second {
			renewalsAfterHeal++
		}
	}
	assert.Equal(t, 2, resends, "the renewal of 10 s times out at 13 s (its resend dropped) and at 17 s (its resend answered)")
	assert.GreaterOrEqual(t, renewalsAfterHeal, 3, "the watchdog goes on renewing")
}

// TestRenewalAnsweringGoneStopsTheWatchdog: when the renewal script
// answers 0 (the holder's field is gone), the watchdog stops for good.
func TestRenewalAnsweringGoneStopsTheWatchdog(t *testing.T) {
	sum, rec := simtest.Run(t, simtest.Preset(t, "redis-watchdog-freeze", nil))
	require.GreaterOrEqual(t, sum.Violations, 1)
	var gone time.Duration
	after := 0
	for _, e := range rec.Trace() {
		if e.Node != "client-1" {
			continue
		}
		if e.Kind.String() == "watchdog" && gone == 0 {
			gone = e.At
		}
		if gone > 0 && e.Kind == sim.TraceSend && e.Op == redis.OpPExpire.String() {
			after++
		}
	}
	require.NotZero(t, gone, "the renewal answered that the lock is gone")
	assert.Zero(t, after, "no renewal after the answer 'gone'")
}

// TestResentLockScriptLeavesTheLockBehind: redis-1 stalls while client-1's
// lock script waits; the resend after 3 s runs the script a second time,
// so the hold count is 2, the unlock only brings it to 1, and the key
// stays until its TTL runs out although nobody holds the lock.
func TestResentLockScriptLeavesTheLockBehind(t *testing.T) {
	sc := simtest.Preset(t, "redis-resend-hold-count", nil)
	sum, rec := simtest.Run(t, sc)
	assert.Zero(t, sum.Violations)
	tl := rec.Timeline()
	c1, c2 := tl.Holding[0], tl.Holding[1]
	require.Len(t, c1, 1)
	require.Len(t, c2, 1)
	assert.InDelta(t, float64(c1[0].To+sc.TTL.D()), float64(c2[0].From), float64(300*time.Millisecond),
		"client-2 waits a whole TTL after client-1's unlock")
	s, err := sim.New(sc)
	require.NoError(t, err)
	s.RunUntil(c1[0].To + time.Second)
	keys := redis.ViewOf(s.Snapshot()).Servers[0].Keys
	require.Len(t, keys, 1, "the key outlives the unlock")
	assert.Equal(t, 1, keys[0].Holds)
	assert.Equal(t, "client-1", keys[0].Owner)
}

// A grant whose reply arrives late is the earlier grant, however late its
// holder comes to believe it. client-1 is paused from the start for 10.5 s:
// its SET succeeds at once, the reply waits in its socket, the key expires
// at 10 s and client-2 is granted token 2 at about 10.06 s; client-1 wakes
// at 10.5 s and believes its grant (token 1) then. client-2's write is the
// legitimate one: never stale. client-1's write, sent after client-2's
// grant, is the stale one: fencing refuses it, and without fencing the
// storage takes it.
func TestALateGrantReplyIsTheEarlierGrant(t *testing.T) {
	for _, fencing := range []bool{true, false} {
		sc := simtest.Preset(t, "redis-gc-pause-fenced", func(sc *sim.Scenario) {
			sc.Fencing = fencing
			sc.Captions = nil
			sc.Faults = []sim.Fault{{Pause: "client-1", For: sim.Duration(10500 * time.Millisecond)}}
		})
		s, err := sim.New(sc)
		require.NoError(t, err)
		sum := s.Run()
		grants := s.Check.Grants()
		require.Len(t, grants, 2)
		second, late := grants[0], grants[1]
		require.Equal(t, "client-2", s.Check.NodeName(second.Client))
		require.Equal(t, "client-1", s.Check.NodeName(late.Client))
		assert.Equal(t, 10500*time.Millisecond, late.At, "client-1 believes its grant when it wakes")
		assert.Less(t, late.Issued, 100*time.Millisecond, "redis-1 granted it at the start")
		assert.Greater(t, second.Issued, 10*time.Second, "and client-2's after the key expired")
		var writers []string
		for _, w := range s.Check.Writes() {
			if w.Stale {
				writers = append(writers, s.Check.NodeName(w.Client))
			}
		}
		assert.Equal(t, []string{"client-1"}, writers, "fencing %v: only client-1's write is stale", fencing)
		if fencing {
			assert.Equal(t, 0, sum.StaleWritesAccepted)
			assert.Equal(t, 1, sum.StaleWritesRejected)
			assert.True(t, sum.Safe)
		} else {
			assert.Equal(t, 1, sum.StaleWritesAccepted)
			assert.False(t, sum.Safe)
		}
	}
}
