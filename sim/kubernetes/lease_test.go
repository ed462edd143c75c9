package kubernetes_test

import (
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/lockscope/lockscope/sim"
	"github.com/lockscope/lockscope/sim/kubernetes"
	"github.com/lockscope/lockscope/sim/simtest"
)

// candidates is a Kubernetes scenario of n candidates with work periods
// of work, edited by edit, validated.
func candidates(t *testing.T, n int, work, duration time.Duration, edit func(*sim.Scenario)) *sim.Scenario {
	t.Helper()
	sc, err := sim.Defaults("kubernetes")
	require.NoError(t, err)
	sc.Clients, sc.Seed = n, 1
	sc.Work, sc.Duration = sim.Duration(work), sim.Duration(duration)
	if edit != nil {
		edit(sc)
	}
	require.NoError(t, sc.Validate())
	return sc
}

// instants are the true instants of a node's trace events whose note
// holds text.
func instants(rec *sim.Recording, node, text string) []time.Duration {
	var out []time.Duration
	for _, e := range rec.Trace() {
		if e.Node == node && strings.Contains(e.Note, text) {
			out = append(out, e.At)
		}
	}
	return out
}

// lastBefore is the last of ts before t.
func lastBefore(ts []time.Duration, t time.Duration) (time.Duration, bool) {
	var last time.Duration
	ok := false
	for _, x := range ts {
		if x < t {
			last, ok = x, true
		}
	}
	return last, ok
}

func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }

// The library's figures, as its source has them.
func TestDefaults(t *testing.T) {
	sc, err := sim.Defaults("kubernetes")
	require.NoError(t, err)
	assert.Equal(t, 15*time.Second, sc.TTL.D(), "LeaseDuration")
	assert.Equal(t, 10*time.Second, kubernetes.RenewDeadlineOf(sc), "RenewDeadline")
	assert.Equal(t, 2*time.Second, kubernetes.RetryPeriodOf(sc), "RetryPeriod")
	assert.Zero(t, kubernetes.RenewDeadline.Of(sc), "unset: in proportion to LeaseDuration")
	sc.TTL = sim.Duration(30 * time.Second)
	assert.Equal(t, 20*time.Second, kubernetes.RenewDeadlineOf(sc), "15 : 10 : 2")
	assert.Equal(t, 4*time.Second, kubernetes.RetryPeriodOf(sc))
	kubernetes.RenewDeadline.Set(sc, sim.Duration(12*time.Second))
	assert.Equal(t, 12*time.Second, kubernetes.RenewDeadlineOf(sc), "set: as set")
	assert.Equal(t, 1.2, kubernetes.JitterFactor)
	assert.False(t, kubernetes.ReleaseOnCancel.Of(sc))
	assert.Equal(t, 3, kubernetes.Nodes.Of(sc))
	assert.True(t, sim.TraitsOf("kubernetes").HasTokens(false), "leaseTransitions on every grant")
}

// A candidate takes a silent leader's Lease over only once it has seen
// the record unchanged for leaseDurationSeconds on its own clock, at its
// first try after that (acquire's jittered wait is at most 2.2 ×
// RetryPeriod); a leader paused less than that renews first and is never
// overtaken.
func TestTakeoverOnlyAfterLeaseDurationOnTheWaitersClock(t *testing.T) {
	for _, tc := range []struct {
		name         string
		lease, pause time.Duration
		takeover     bool
	}{
		{"15 s lease, paused 25 s", 15 * time.Second, 25 * time.Second, true},
		{"20 s lease, paused 30 s", 20 * time.Second, 30 * time.Second, true},
		{"15 s lease, paused 9 s: the renewal after the pause changes the record", 15 * time.Second, 9 * time.Second, false},
		{"15 s lease, no pause: renewals every 2 s", 15 * time.Second, 0, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			sc := candidates(t, 2, 3*time.Second, 50*time.Second, func(sc *sim.Scenario) {
				sc.TTL = sim.Duration(tc.lease)
				if tc.pause > 0 {
					sc.Faults = []sim.Fault{{At: sim.Duration(5 * time.Second), Pause: "client-1", For: sim.Duration(tc.pause)}}
				}
			})
			sum, rec := simtest.Run(t, sc)
			first, ok := simtest.GrantOf(sum, "client-1")
			require.True(t, ok)
			assert.Zero(t, first.Token, "the Lease is created with leaseTransitions 0")
			second, ok := simtest.GrantOf(sum, "client-2")
			if !tc.takeover {
				assert.False(t, ok, "client-1 leads throughout")
				assert.Zero(t, sum.Violations)
				return
			}
			require.True(t, ok)
			assert.EqualValues(t, 1, second.Token, "a takeover adds one to leaseTransitions")
			at := time.Duration(second.AtMs * float64(time.Millisecond))
			seen, ok := lastBefore(instants(rec, "client-2", "the record changed"), at)
			require.True(t, ok)
			assert.GreaterOrEqual(t, ms(at-seen), ms(tc.lease), "never before a whole lease since the record last changed")
			assert.Less(t, ms(at-seen), ms(tc.lease+2200*time.Millisecond*2+200*time.Millisecond), "at the first try after it")
			assert.GreaterOrEqual(t, sum.Violations, 1, "the paused leader still believes it leads")
		})
	}
}

// A leader cut off from the apiserver stops leading RenewDeadline after
// its last poll began, on its own clock, before anyone can take over
// (LeaseDuration after the last renewal they saw): with clocks that
// agree, no two leaders.
func TestGiveUpAfterRenewDeadlineWhenCutOff(t *testing.T) {
	cut := 5 * time.Second
	sc := candidates(t, 2, time.Second, 40*time.Second, func(sc *sim.Scenario) {
		sc.Faults = []sim.Fault{{At: sim.Duration(cut), Partition: [][]string{{"client-1"}}, For: sim.Duration(30 * time.Second)}}
	})
	sum, rec := simtest.Run(t, sc)
	stopped := instants(rec, "client-1", "failed to renew lease")
	require.Len(t, stopped, 1)
	renew := kubernetes.DefaultRenewDeadline
	assert.GreaterOrEqual(t, ms(stopped[0]), ms(cut+renew-kubernetes.DefaultRetryPeriod-500*time.Millisecond))
	assert.LessOrEqual(t, ms(stopped[0]), ms(cut+kubernetes.DefaultRetryPeriod+renew+100*time.Millisecond), "a poll may start just after the cut")
	second, ok := simtest.GrantOf(sum, "client-2")
	require.True(t, ok, "client-2 takes over")
	assert.Greater(t, second.AtMs, ms(stopped[0]), "after client-1 stopped leading")
	assert.Zero(t, sum.Violations)
	assert.Zero(t, sum.StaleWritesAccepted)
}

// A candidate whose clock runs fast counts the lease out early in real
// time: from the last change it saw, 15 s of its clock are 15 / (1 +
// rate) s of real time, where a candidate whose clock is right waits 15 s
// at least.
func TestFastClockTakesOverEarly(t *testing.T) {
	sc := candidates(t, 2, 3*time.Second, 40*time.Second, func(sc *sim.Scenario) {
		sc.Faults = []sim.Fault{{At: sim.Duration(5 * time.Second), Pause: "client-1", For: sim.Duration(25 * time.Second)}}
	})
	waited := func(sc *sim.Scenario) time.Duration {
		sum, rec := simtest.Run(t, sc)
		g, ok := simtest.GrantOf(sum, "client-2")
		require.True(t, ok)
		at := time.Duration(g.AtMs * float64(time.Millisecond))
		seen, ok := lastBefore(instants(rec, "client-2", "the record changed"), at)
		require.True(t, ok)
		return at - seen
	}
	assert.GreaterOrEqual(t, ms(waited(sc)), 15000.0, "clocks that agree: a whole LeaseDuration")

	sc.ClockDrift = 0.5
	sc.Seed = fastSeed(t, sc, "client-2", 0.45)
	s, err := sim.New(sc)
	require.NoError(t, err)
	rate := s.Nodes[s.Lookup("client-2")].Clock.Rate
	w := waited(sc)
	assert.GreaterOrEqual(t, ms(w), 15000/(1+rate)-1, "15 s of its own clock")
	assert.Less(t, ms(w), 15000/(1+rate)+2*2200+200, "at its first try after them")
	assert.Less(t, ms(w), 15000.0, "less than LeaseDuration of real time")
}

// fastSeed is the first seed from 1 whose clock for node runs at least
// rate fast.
func fastSeed(t *testing.T, sc *sim.Scenario, node string, rate float64) int64 {
	t.Helper()
	for seed := int64(1); seed < 200; seed++ {
		c := *sc
		c.Seed = seed
		s, err := sim.New(&c)
		require.NoError(t, err)
		if s.Nodes[s.Lookup(node)].Clock.Rate >= rate && s.Nodes[s.Lookup("client-1")].Clock.Rate < 0.1 {
			return seed
		}
	}
	t.Fatal("no seed")
	return 0
}

// ReleaseOnCancel: a leader whose context is cancelled after its periods
// writes holderIdentity "" with leaseDurationSeconds 1, and the next
// candidate takes over about a second after it sees that; without it the
// next waits a whole LeaseDuration.
func TestReleaseOnCancel(t *testing.T) {
	for _, release := range []bool{true, false} {
		sc := candidates(t, 2, 2*time.Second, 40*time.Second, func(sc *sim.Scenario) {
			kubernetes.LeadPeriods.Set(sc, 2)
			kubernetes.ReleaseOnCancel.Set(sc, release)
		})
		sum, rec := simtest.Run(t, sc)
		g, ok := simtest.GrantOf(sum, "client-2")
		require.True(t, ok)
		cancelled := instants(rec, "client-1", "the application cancels")
		require.NotEmpty(t, cancelled)
		gap := ms(time.Duration(g.AtMs*float64(time.Millisecond)) - cancelled[0])
		if release {
			require.NotEmpty(t, instants(rec, "client-1", "released: holderIdentity empty"))
			assert.Less(t, gap, 1000+2*2200+200.0, "a second after the release is seen")
		} else {
			assert.Empty(t, instants(rec, "client-1", "released"))
			assert.Greater(t, gap, 13000.0, "a whole LeaseDuration since the last renewal")
		}
		assert.Zero(t, sum.Violations, "release %v", release)
	}
}

// With fencing on, a leader's writes carry leaseTransitions: the paused
// leader's late write carries 0, the storage has seen 1 from the new
// leader, and refuses it.
func TestFencingByLeaseTransitions(t *testing.T) {
	sc := candidates(t, 2, 3*time.Second, 50*time.Second, func(sc *sim.Scenario) {
		sc.Fencing = true
		sc.Faults = []sim.Fault{{At: sim.Duration(5 * time.Second), Pause: "client-1", For: sim.Duration(25 * time.Second)}}
	})
	sum, _ := simtest.Run(t, sc)
	assert.Positive(t, sum.StaleWritesRejected)
	assert.Zero(t, sum.StaleWritesAccepted)
	sc.Fencing = false
	sum, _ = simtest.Run(t, sc)
	assert.Positive(t, sum.StaleWritesAccepted, "without fencing the same write lands")
}

// NewLeaderElector's checks: LeaseDuration > RenewDeadline > JitterFactor
// × RetryPeriod.
func TestValidationRefusals(t *testing.T) {
	for _, tc := range []struct {
		name  string
		edit  func(*sim.Scenario)
		field string
		text  string
	}{
		{"lease not above renewDeadline", func(sc *sim.Scenario) {
			sc.TTL = sim.Duration(10 * time.Second)
			kubernetes.RenewDeadline.Set(sc, sim.Duration(10*time.Second))
		}, "renewDeadline", "leaseDuration must be greater than renewDeadline"},
		{"renewDeadline not above 1.2 × retryPeriod", func(sc *sim.Scenario) {
			kubernetes.RetryPeriod.Set(sc, sim.Duration(9*time.Second))
		}, "retryPeriod", "renewDeadline must be greater than retryPeriod*JitterFactor"},
		{"renewDeadline exactly 1.2 × retryPeriod", func(sc *sim.Scenario) {
			kubernetes.RenewDeadline.Set(sc, sim.Duration(6*time.Second))
			kubernetes.RetryPeriod.Set(sc, sim.Duration(5*time.Second))
		}, "retryPeriod", "renewDeadline must be greater than retryPeriod*JitterFactor"},
		{"a lease under a second", func(sc *sim.Scenario) {
			sc.TTL = sim.Duration(900 * time.Millisecond)
			kubernetes.RenewDeadline.Set(sc, sim.Duration(500*time.Millisecond))
			kubernetes.RetryPeriod.Set(sc, sim.Duration(100*time.Millisecond))
		}, "ttl", "leaseDurationSeconds is whole seconds"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			sc, err := sim.Defaults("kubernetes")
			require.NoError(t, err)
			tc.edit(sc)
			err = sc.Validate()
			require.Error(t, err)
			var fe *sim.FieldError
			require.ErrorAs(t, err, &fe)
			assert.Equal(t, tc.field, fe.Field)
			assert.Contains(t, err.Error(), tc.text)
		})
	}
}

// Two candidates that both find the crashed leader's Lease expired both
// Update it with the resourceVersion they read: etcd applies the first
// Txn, and the apiserver answers the second 409 Conflict (its
// GuaranteedUpdate reads the newer revision). One of them leads. With
// 300 ms links and seed 2 their tries overlap.
func TestResourceVersionConflict(t *testing.T) {
	sc := candidates(t, 3, 3*time.Second, 40*time.Second, func(sc *sim.Scenario) {
		sc.Seed = 2
		sc.Latency = sim.Duration(300 * time.Millisecond)
		sc.Faults = []sim.Fault{{At: sim.Duration(5 * time.Second), Crash: "client-1"}}
	})
	sum, rec := simtest.Run(t, sc)
	conflicts := instants(rec, kubernetes.APIServerName, "409 Conflict")
	require.Len(t, conflicts, 1)
	require.Len(t, sum.Grants, 2, "client-1, then one of the two")
	assert.EqualValues(t, 1, sum.Grants[1].Token)
	assert.Less(t, sum.Grants[1].AtMs, ms(conflicts[0]), "the winner's Txn applied first")
	assert.Zero(t, sum.Violations)
	v := kubernetes.ViewOf(rec.At(sc.Duration.D()))
	require.NotNil(t, v)
	assert.Equal(t, sum.Grants[1].Client, v.Lease.Holder)
	assert.Equal(t, 3, v.Conflicts, "this Conflict, and the two Creates that lost at the start (409 AlreadyExists)")
}
