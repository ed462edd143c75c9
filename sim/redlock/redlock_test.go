package redlock_test

import (
	"encoding/json"
	"fmt"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/lockscope/lockscope/sim"
	"github.com/lockscope/lockscope/sim/redis"
	"github.com/lockscope/lockscope/sim/redlock"
	"github.com/lockscope/lockscope/sim/simtest"
)

const ms = time.Millisecond

// redlockScenario is a one-client Redlock run on a quiet network: latency
// exactly `latency`, no jitter, so every figure can be computed by hand.
func redlockScenario(t *testing.T, latency time.Duration) *sim.Scenario {
	t.Helper()
	sc, err := sim.Defaults("redlock")
	require.NoError(t, err)
	sc.Clients = 1
	sc.Latency = sim.Duration(latency)
	sc.Jitter = 0
	sc.Work = sim.Duration(2 * time.Second)
	sc.Duration = sim.Duration(20 * time.Second)
	return sc
}

func record(t *testing.T, sc *sim.Scenario) *sim.Recording {
	t.Helper()
	r, err := sim.Record(sc)
	require.NoError(t, err)
	return r
}

// events lists the trace events of one node and kind (op "" for any op).
func events(r *sim.Recording, node, kind, op string) []sim.TraceEvent {
	var out []sim.TraceEvent
	for _, e := range r.Trace() {
		if e.Node == node && e.Kind.String() == kind && (op == "" || e.Op == op) {
			out = append(out, e)
		}
	}
	return out
}

// attempt is client i's current or last Redlock attempt at true time at.
func attempt(t *testing.T, r *sim.Recording, at time.Duration, client int) redlock.Attempt {
	t.Helper()
	snap := r.At(at)
	require.NotNil(t, redlock.ViewOf(snap))
	require.Greater(t, len(redlock.ViewOf(snap).Attempts), client)
	return redlock.ViewOf(snap).Attempts[client]
}

func keysLeft(snap *sim.Snapshot) int {
	n := 0
	for _, m := range redlock.ViewOf(snap).Masters {
		n += len(m.Keys)
	}
	return n
}

func TestRedlockValidityArithmetic(t *testing.T) {
	ttl := 10000 * ms
	tests := []struct {
		name        string
		elapsed     time.Duration
		driftFactor float64
		drift       time.Duration
		validity    time.Duration
		granted     bool // with a quorum of votes
	}{
		{"the issue's example", 300 * ms, 0.01, 102 * ms, 9598 * ms, true},
		{"instant votes", 0, 0.01, 102 * ms, 9898 * ms, true},
		{"one millisecond left", 9897 * ms, 0.01, 102 * ms, 1 * ms, true},
		{"elapsed = ttl − drift leaves nothing", 9898 * ms, 0.01, 102 * ms, 0, false},
		{"elapsed > ttl", 12001 * ms, 0.01, 102 * ms, -2103 * ms, false},
		{"no drift factor keeps the 2 ms", 300 * ms, 0, 2 * ms, 9698 * ms, true},
		{"larger drift factor", 300 * ms, 0.1, 1002 * ms, 8698 * ms, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.drift, redlock.Drift(ttl, tt.driftFactor))
			v := redlock.Validity(ttl, tt.elapsed, tt.driftFactor)
			assert.Equal(t, tt.validity, v)
			assert.Equal(t, tt.granted, v > 0)
		})
	}
	assert.Equal(t, 500*ms, redlock.Timeout(ttl), "redsync's timeoutFactor 0.05")
	for n, q := range map[int]int{1: 1, 2: 2, 3: 2, 4: 3, 5: 3, 7: 4, 9: 5} {
		assert.Equal(t, q, redlock.Quorum(n), "quorum of %d masters", n)
	}
}

func TestRedlockDefaults(t *testing.T) {
	sc, err := sim.Defaults("redlock")
	require.NoError(t, err)
	assert.Equal(t, 5, redlock.Nodes.Of(sc))
	assert.Equal(t, 32, sc.Tries, "redsync's default tries")
	assert.Equal(t, 150*ms, sc.RetryDelay.D(), "mean of redsync's rand(50 ms, 250 ms)")
	assert.Equal(t, 0.01, redlock.DriftFactor.Of(sc))
	assert.Equal(t, []string{"redis-1", "redis-2", "redis-3", "redis-4", "redis-5"}, sc.ServerNames())
}

func TestRedlockValidate(t *testing.T) {
	tests := []struct {
		json string
		err  string // "" when valid
	}{
		{`{"mode":"redlock","nodes":1}`, ""},
		{`{"mode":"redlock","nodes":9}`, ""},
		{`{"mode":"redlock","sequential":true}`, ""},
		{`{"mode":"redlock","nodes":0}`, "nodes: 0, want 1 to 9"},
		{`{"mode":"redlock","nodes":10}`, "nodes: 10, want 1 to 9"},
		{`{"mode":"redlock","fencing":true}`, "fencing: Redlock has no fencing token: its lock values are random, not ordered"},
		{`{"mode":"redlock","replica":true}`, "replica:"},
		{`{"mode":"redlock","herd":true}`, "herd:"},
		{`{"mode":"redlock","plainDel":true}`, "plainDel:"},
		{`{"mode":"redlock","faults":[{"at":"1s","failover":"redis-1"}]}`, "faults[0].failover: Redlock masters have no replica"},
		{`{"mode":"redlock","nodes":3,"faults":[{"at":"1s","crash":"redis-4"}]}`, `faults[0].crash: unknown node "redis-4"`},
		{`{"mode":"redlock","contextTimeout":true}`, ""},
		{`{"mode":"redis","contextTimeout":true}`, "contextTimeout: only for redlock"},
		{`{"mode":"etcd","contextTimeout":true}`, "contextTimeout: only for redlock"},
	}
	for _, tt := range tests {
		t.Run(tt.json, func(t *testing.T) {
			_, err := sim.ParseScenario([]byte(tt.json))
			if tt.err == "" {
				require.NoError(t, err)
				return
			}
			require.Error(t, err)
			assert.Contains(t, err.Error(), tt.err)
		})
	}
}

// TestRedlockValidityInRun checks the arithmetic end to end: with 150 ms
// each way the votes take exactly 300 ms on the client's clock.
func TestRedlockValidityInRun(t *testing.T) {
	r := record(t, redlockScenario(t, 150*ms))
	sum := r.Summary()
	require.Len(t, sum.Grants, 1)
	require.NotNil(t, sum.Grants[0].ValidityMs)
	assert.Equal(t, 9598.0, *sum.Grants[0].ValidityMs)
	assert.Equal(t, 300.0, sum.Grants[0].AtMs)

	a := attempt(t, r, 300*ms, 0)
	assert.Equal(t, 300*ms, a.Elapsed)
	assert.Equal(t, 102*ms, a.Drift)
	assert.Equal(t, 9598*ms, a.Validity)
	assert.True(t, a.Success)
	assert.Equal(t, []redlock.Vote{redlock.VoteYes, redlock.VoteYes, redlock.VoteYes, redlock.VoteYes, redlock.VoteYes}, a.Votes)
	assert.Equal(t, redlock.PhaseHolding, a.Phase)
	assert.Equal(t, 9598*ms, a.Left)
	assert.Equal(t, 9598*ms-time.Second, attempt(t, r, 1300*ms, 0).Left, "the bar shrinks on the client's clock")
}

// TestRedlockLatency raises the latency: validity shrinks by the round trip
// until, with contextTimeout, the answers come after redsync's 500 ms
// deadline; from then on every try fails with no vote, unlocks all five
// masters, and the client gives up after 32 tries, leaving no key behind.
// Without contextTimeout go-redis reads on for its 5 s ReadTimeout, so the
// late answers still count and the validity only shrinks.
func TestRedlockLatency(t *testing.T) {
	tests := []struct {
		latency        time.Duration
		contextTimeout bool
		validity       time.Duration // of the grant; 0 for none
	}{
		{0, true, 9898 * ms},
		{150 * ms, true, 9598 * ms},
		{200 * ms, true, 9498 * ms},
		{249 * ms, true, 9400 * ms},
		{250 * ms, true, 0}, // the answers arrive with the deadline: too late
		{400 * ms, true, 0},
		{0, false, 9898 * ms},
		{250 * ms, false, 9398 * ms},
		{400 * ms, false, 9098 * ms},
		{2499 * ms, false, 4900 * ms},
		{2500 * ms, false, 0}, // the answers arrive with the read timeout
	}
	for _, tt := range tests {
		t.Run(fmt.Sprintf("%v contextTimeout=%v", tt.latency, tt.contextTimeout), func(t *testing.T) {
			sc := redlockScenario(t, tt.latency)
			redlock.ContextTimeout.Set(sc, tt.contextTimeout)
			sc.Duration = sim.Duration(60 * time.Second)
			if !tt.contextTimeout {
				sc.Duration = sim.Duration(400 * time.Second) // 32 tries of 5 s, twice (the unlocks wait too)
			}
			r := record(t, sc)
			sum := r.Summary()
			if tt.validity > 0 {
				require.Len(t, sum.Grants, 1)
				assert.Equal(t, sim.Ms(tt.validity), *sum.Grants[0].ValidityMs)
				assert.Empty(t, events(r, "client-1", "giveup", ""))
				return
			}
			assert.Empty(t, sum.Grants)
			assert.Len(t, events(r, "client-1", "send", redis.OpSet.String()), 32*5, "32 tries on 5 masters")
			assert.Len(t, events(r, "client-1", "send", redis.OpCAD.String()), 32*5, "every failed try unlocks all masters")
			assert.Len(t, events(r, "client-1", "giveup", ""), 1)
			a := attempt(t, r, r.End(), 0)
			assert.Equal(t, 32, a.Number)
			assert.Equal(t, redlock.PhaseGaveUp, a.Phase)
			assert.Equal(t, []redlock.Vote{redlock.VoteTimeout, redlock.VoteTimeout, redlock.VoteTimeout, redlock.VoteTimeout, redlock.VoteTimeout}, a.Votes)
			assert.Zero(t, keysLeft(r.At(r.End())), "the unlocks removed every key the late SETs made")
		})
	}
}

// TestRedlockPauseDuringAcquire raises the elapsed time with a pause of the
// client while its five OK answers are in flight (latency 2 ms, so they
// are due at 4 ms): a try whose elapsed reaches ttl − drift = 9898 ms fails
// although every master said yes, and unlocks all five masters at once.
func TestRedlockPauseDuringAcquire(t *testing.T) {
	tests := []struct {
		pause    time.Duration // from 1 ms
		validity time.Duration // 10000 − (1 ms + pause) − 102
		granted  bool
	}{
		{9 * time.Second, 897 * ms, true},
		{9896 * ms, 1 * ms, true},
		{9897 * ms, 0, false},
		{12 * time.Second, -2103 * ms, false},
	}
	for _, tt := range tests {
		t.Run(tt.pause.String(), func(t *testing.T) {
			sc := redlockScenario(t, 2*ms)
			sc.Tries = 1
			sc.Faults = []sim.Fault{{At: sim.Duration(ms), Pause: "client-1", For: sim.Duration(tt.pause)}}
			r := record(t, sc)
			resume := ms + tt.pause
			a := attempt(t, r, resume, 0)
			assert.Equal(t, resume, a.Elapsed)
			assert.Equal(t, tt.validity, a.Validity)
			assert.Equal(t, tt.granted, a.Success)
			assert.Equal(t, []redlock.Vote{redlock.VoteYes, redlock.VoteYes, redlock.VoteYes, redlock.VoteYes, redlock.VoteYes}, a.Votes)
			cads := events(r, "client-1", "send", redis.OpCAD.String())
			if tt.granted {
				require.Len(t, r.Summary().Grants, 1)
				assert.Equal(t, sim.Ms(tt.validity), *r.Summary().Grants[0].ValidityMs)
				return
			}
			assert.Empty(t, r.Summary().Grants)
			require.Len(t, cads, 5, "unlock on all five masters")
			for _, e := range cads {
				assert.Equal(t, sim.Ms(resume), e.AtMs, "the unlock goes out as soon as the try is decided")
			}
			assert.Zero(t, keysLeft(r.At(resume+5*ms)), "no key left once the unlocks land")
		})
	}
}

// TestRedlockPresets runs every Redlock preset and checks the outcome the
// issue promises for it.
func TestRedlockPresets(t *testing.T) {
	tests := []struct {
		preset     string
		grants     int
		violations int
		stale      int
		safe       bool
		check      func(t *testing.T, sc *sim.Scenario, r *sim.Recording)
	}{
		{"redlock-happy-path", 3, 0, 0, true, checkExactValidity},
		{"redlock-clock-jump", 2, 1, 1, false, func(t *testing.T, sc *sim.Scenario, r *sim.Recording) {
			snap := r.At(3 * time.Second)
			assert.Equal(t, sim.StateHolding, snap.Nodes[0].State, "client-1 believes it holds the lock")
			assert.Equal(t, sim.StateHolding, snap.Nodes[1].State, "and so does client-2")
			y, p := redlock.VoteYes, redlock.VotePartitioned
			assert.Equal(t, []redlock.Vote{y, y, y, p, p}, redlock.ViewOf(snap).Attempts[0].Votes)
			assert.Equal(t, []redlock.Vote{p, p, y, y, y}, redlock.ViewOf(snap).Attempts[1].Votes)
			for _, a := range redlock.ViewOf(snap).Attempts {
				assert.Equal(t, 500*ms, a.Elapsed, "the partitioned masters cost the full timeout")
				assert.Equal(t, 9398*ms, a.Validity)
			}
			assert.Equal(t, 10*time.Second, snap.Nodes[sc.Clients+2].Skew, "redis-3's clock is 10 s ahead")
			assert.Equal(t, 1, r.Summary().ExpiredWhileHeld, "redis-3 expired client-1's key early")
		}},
		{"redlock-pause-during-acquire", 2, 0, 0, true, func(t *testing.T, sc *sim.Scenario, r *sim.Recording) {
			resume := 12001 * ms
			a := attempt(t, r, resume, 0)
			assert.Equal(t, 1, a.Number)
			assert.Greater(t, a.Elapsed, sc.TTL.D())
			assert.Negative(t, a.Validity)
			assert.False(t, a.Success)
			assert.Equal(t, redlock.PhaseUnlocking, a.Phase)
			n := 0
			for _, e := range events(r, "client-1", "send", redis.OpCAD.String()) {
				if e.At == resume {
					n++
				}
			}
			assert.Equal(t, 5, n, "client-1 unlocks all five masters on resuming")
			g := r.Summary().Grants
			assert.Equal(t, "client-2", g[0].Client, "client-2 got the lock while client-1 was paused")
			assert.Equal(t, "client-1", g[1].Client, "client-1 only after client-2 released")
		}},
		{"redlock-pause-after-acquire", 2, 1, 1, false, func(t *testing.T, sc *sim.Scenario, r *sim.Recording) {
			assert.Empty(t, events(r, "client-1", "unheld", "lost"), "redsync tells its user nothing")
			seen := events(r, "client-1", "redlock", "")
			require.NotEmpty(t, seen)
			assert.Contains(t, seen[len(seen)-1].Note, "the client does not look")
			w := r.Checker().Writes()
			require.Len(t, w, 2)
			assert.Equal(t, "client-1", r.Timeline().Clients[w[1].Client])
			assert.True(t, w[1].Stale && w[1].Accepted, "client-1's write lands after client-2's grant")
			assert.True(t, w[1].Lost, "and overwrites client-2's value unseen")
			assert.Equal(t, 1, r.Summary().LostUpdates)

			// A sweep stops once every client is finished: client-1 is not
			// finished while its write is on its way.
			s, err := sim.New(sc)
			require.NoError(t, err)
			s.RunUntil(w[1].At - time.Millisecond)
			finished := func(i int) bool { return s.Nodes[i].Proc.(interface{ Finished() bool }).Finished() }
			assert.True(t, finished(1), "client-2 is done")
			assert.False(t, finished(0), "client-1's write is still on its way")
			s.RunUntil(r.End())
			assert.True(t, finished(0))
		}},
		{"redlock-slow-work", 2, 1, 1, false, func(t *testing.T, sc *sim.Scenario, r *sim.Recording) {
			w := r.Checker().Writes()
			require.Len(t, w, 2)
			assert.Equal(t, sim.NodeID(0), w[0].Client)
			assert.True(t, w[0].Stale && w[0].Accepted, "client-1 works past its validity and writes while client-2 holds")
			assert.True(t, w[1].Lost, "client-2's write, computed from an earlier read, overwrites client-1's")

			redlock.CheckValidity.Set(sc, true)
			sum := record(t, sc).Summary()
			assert.Zero(t, sum.StaleWritesAccepted, "checkValidity: client-1 sees Until() has passed and skips its write")
			assert.Zero(t, sum.Writes, "client-2's 8 s of work outlast its validity too: nobody writes")
			assert.True(t, sum.Safe)
		}},
		{"redlock-check-then-pause", 2, 1, 1, false, func(t *testing.T, sc *sim.Scenario, r *sim.Recording) {
			require.True(t, redlock.CheckValidity.Of(sc))
			w := r.Checker().Writes()
			require.Len(t, w, 2)
			assert.Equal(t, sim.NodeID(0), w[1].Client, "client-1's write lands after client-2's")
			assert.True(t, w[1].Stale && w[1].Accepted, "the pause came after the check: still corrupted")
			assert.True(t, w[1].Lost)
			pause := events(r, "client-1", "fault", "pause")
			require.Len(t, pause, 1)
			assert.InDelta(t, 2004, pause[0].AtMs, 1, "the pause strikes at the end of the work, after the check")
		}},
		{"redlock-restart-no-persist", 2, 1, 1, false, nil},
		{"redlock-silent-masters", 1, 0, 0, true, func(t *testing.T, sc *sim.Scenario, r *sim.Recording) {
			y, o := redlock.VoteYes, redlock.VoteTimeout
			first := attempt(t, r, 5*time.Second, 0)
			require.True(t, first.Done)
			assert.Equal(t, 5*time.Second, first.Elapsed, "go-redis's read timeout, not redsync's 200 ms")
			assert.Equal(t, []redlock.Vote{y, y, y, o, o}, first.Votes, "a majority said yes")
			assert.False(t, first.Success, "validity 4000 − 5000 − 42 ms is negative")
			g := r.Summary().Grants
			require.Len(t, g, 1)
			assert.Greater(t, g[0].AtMs, 9000.0, "granted once D and E answer again")

			on := sc.Clone()
			redlock.ContextTimeout.Set(on, true)
			g = record(t, on).Summary().Grants
			require.Len(t, g, 1)
			assert.Equal(t, 200.0, g[0].AtMs, "with contextTimeout the first try ends at redsync's deadline")
			assert.Equal(t, 3758.0, *g[0].ValidityMs)
		}},
		{"redlock-minority-down", 3, 0, 0, true, func(t *testing.T, sc *sim.Scenario, r *sim.Recording) {
			got := map[string]bool{}
			for _, g := range r.Summary().Grants {
				got[g.Client] = true
				assert.Equal(t, 9398.0, *g.ValidityMs, "3 yes votes after the full 500 ms timeout")
			}
			assert.Len(t, got, 3, "every client got the lock")
			y, o := redlock.VoteYes, redlock.VoteTimeout
			assert.Equal(t, []redlock.Vote{y, y, y, o, o}, attempt(t, r, 500*ms, 0).Votes)
		}},
		{"redlock-majority-down", 0, 0, 0, true, func(t *testing.T, sc *sim.Scenario, r *sim.Recording) {
			for _, c := range []string{"client-1", "client-2"} {
				g := events(r, c, "giveup", "")
				require.Len(t, g, 1, c)
				assert.Contains(t, g[0].Note, "gave up after 32 tries")
				sets := events(r, c, "send", redis.OpSet.String())
				assert.Len(t, sets, 32*5)
				// A try waits 500 ms for the votes and 500 ms for the
				// unlocks, then redsync's rand(50 ms, 250 ms) in whole ms.
				for i := 5; i < len(sets); i += 5 {
					delay := sets[i].At - sets[i-5].At - time.Second
					assert.GreaterOrEqual(t, delay, 50*ms)
					assert.Less(t, delay, 250*ms)
					assert.Zero(t, delay%ms, "whole milliseconds")
				}
			}
		}},
	}
	for _, tt := range tests {
		t.Run(tt.preset, func(t *testing.T) {
			sc, err := simtest.Load(tt.preset)
			require.NoError(t, err)
			require.GreaterOrEqual(t, len(sc.Captions), 3)
			for _, c := range sc.Captions {
				assert.NotEmpty(t, c.Text)
				assert.NotEmpty(t, c.Zh)
			}
			r := record(t, sc)
			sum := r.Summary()
			b, err := json.Marshal(sum)
			require.NoError(t, err)
			t.Logf("%s", b)
			assert.Equal(t, "redlock", sum.Mode)
			assert.Len(t, sum.Grants, tt.grants)
			assert.Equal(t, tt.violations, sum.Violations)
			assert.Equal(t, tt.stale, sum.StaleWritesAccepted)
			assert.Equal(t, tt.safe, sum.Safe)
			for _, g := range sum.Grants {
				require.NotNil(t, g.ValidityMs)
				assert.Zero(t, g.Token, "Redlock grants carry no token")
			}
			if tt.check != nil {
				tt.check(t, sc, r)
			}
		})
	}
}

// checkExactValidity: every grant's validity is ttl − elapsed − drift for
// the elapsed time the granted attempt recorded.
func checkExactValidity(t *testing.T, sc *sim.Scenario, r *sim.Recording) {
	ttl := sc.TTL.D()
	grants := r.Checker().Grants()
	sum := r.Summary()
	require.Len(t, grants, len(sum.Grants))
	for i, g := range grants {
		a := attempt(t, r, g.At, int(g.Client))
		require.True(t, a.Success)
		assert.Equal(t, 102*ms, a.Drift)
		assert.Equal(t, ttl-a.Elapsed-a.Drift, g.Validity, "grant %d", i)
		assert.Equal(t, a.Validity, g.Validity)
		assert.InDelta(t, sim.Ms(ttl-a.Elapsed-a.Drift), *sum.Grants[i].ValidityMs, 0.0005, "grant %d in the JSON, to the µs", i)
	}
}

// TestRedlockRestartVariants: the restart-no-persist preset turns safe when
// the master keeps its keys (AOF, fsync=always) or stays down for a ttl.
func TestRedlockRestartVariants(t *testing.T) {
	tests := []struct {
		name string
		edit func(sc *sim.Scenario)
	}{
		{"persist", func(sc *sim.Scenario) { sc.Faults[2].Persist = true }},
		{"restart delayed by ttl", func(sc *sim.Scenario) { sc.Faults[2].At = sc.Faults[1].At + sc.TTL }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			sc, err := simtest.Load("redlock-restart-no-persist")
			require.NoError(t, err)
			require.Equal(t, sim.FaultCrash, sc.Faults[1].Kind())
			require.Equal(t, sim.FaultRestart, sc.Faults[2].Kind())
			tt.edit(sc)
			sum := record(t, sc).Summary()
			assert.Zero(t, sum.Violations)
			assert.Zero(t, sum.StaleWritesAccepted)
			assert.True(t, sum.Safe)
			require.Len(t, sum.Grants, 2, "client-2 still gets the lock, once client-1's keys are gone")
			assert.Greater(t, sum.Grants[1].AtMs, 10000.0)
		})
	}
}

// TestRedlockMidWorkPause: a pause in the middle of the work. redsync's
// users do not look at Until(), so client-1 writes over client-2; with
// checkValidity it compares the validity with its clock before it writes,
// sees it gone, and writes nothing (the beliefs still overlapped).
func TestRedlockMidWorkPause(t *testing.T) {
	for _, check := range []bool{false, true} {
		t.Run(fmt.Sprint("checkValidity=", check), func(t *testing.T) {
			sc, err := simtest.Load("redlock-pause-after-acquire")
			require.NoError(t, err)
			sc.Faults[0] = sim.Fault{At: sim.Duration(time.Second), Pause: "client-1", For: sim.Duration(12 * time.Second)}
			redlock.CheckValidity.Set(sc, check)
			r := record(t, sc)
			sum := r.Summary()
			assert.Equal(t, 1, sum.Violations)
			assert.Equal(t, !check, sum.StaleWritesAccepted == 1)
			assert.Equal(t, check, sum.Safe)
			if check {
				for _, w := range r.Checker().Writes() {
					assert.Equal(t, sim.NodeID(1), w.Client, "only client-2 writes")
				}
				assert.Equal(t, redlock.PhaseLost, attempt(t, r, r.End(), 0).Phase)
			}
		})
	}
}

// TestRedlockSequential asks the masters one after another, as the spec's
// pseudo-code does: each silent master costs its own 500 ms timeout.
func TestRedlockSequential(t *testing.T) {
	sc := redlockScenario(t, 2*ms)
	redlock.Sequential.Set(sc, true)
	sc.Faults = []sim.Fault{{At: 0, Crash: "redis-1"}, {At: 0, Crash: "redis-3"}}
	r := record(t, sc)
	var at []float64
	var to []string
	for _, e := range events(r, "client-1", "send", redis.OpSet.String()) {
		at, to = append(at, e.AtMs), append(to, e.Peer)
	}
	assert.Equal(t, []string{"redis-1", "redis-2", "redis-3", "redis-4", "redis-5"}, to)
	assert.Equal(t, []float64{0, 500, 504, 1004, 1008}, at)
	a := attempt(t, r, 1012*ms, 0)
	assert.Equal(t, 1012*ms, a.Elapsed)
	assert.Equal(t, 8886*ms, a.Validity)
	assert.True(t, a.Success)
	o, y := redlock.VoteTimeout, redlock.VoteYes
	assert.Equal(t, []redlock.Vote{o, y, o, y, y}, a.Votes)
	assert.True(t, redlock.ViewOf(r.At(0)).Sequential)
}

// TestRedlockWatchdog extends every ttl/3 on a majority; losing the
// majority ends the belief at the next extension.
func TestRedlockWatchdog(t *testing.T) {
	sc := redlockScenario(t, 2*ms)
	sc.Clients = 2
	redlock.Watchdog.Set(sc, true)
	sc.Work = sim.Duration(25 * time.Second)
	sc.Duration = sim.Duration(40 * time.Second)
	r := record(t, sc)
	sum := r.Summary()
	assert.Zero(t, sum.Violations)
	require.Len(t, sum.Grants, 1, "client-2 gave up while client-1 kept extending past its ttl")
	exts := 0
	for _, e := range events(r, "client-1", "watchdog", redis.OpPExpire.String()) {
		assert.Contains(t, e.Note, "extended on 5/5 masters; validity 9894 ms")
		exts++
	}
	assert.Equal(t, 7, exts, "25 s of work, an extension every 3.333 s")
	assert.Equal(t, 7, attempt(t, r, 25*time.Second, 0).Renewals)
	assert.Len(t, sum.Grants, 1)
	assert.Equal(t, 1, sum.Writes)

	sc.Faults = []sim.Fault{{At: sim.Duration(5 * time.Second), Crash: "redis-1"},
		{At: sim.Duration(5 * time.Second), Crash: "redis-2"}, {At: sim.Duration(5 * time.Second), Crash: "redis-3"}}
	r = record(t, sc)
	un := events(r, "client-1", "unheld", "")
	require.Len(t, un, 1)
	assert.Contains(t, un[0].Note, "extension reached only 2 of 5 masters, quorum is 3")
	// Grant at 4 ms; the first extension starts ttl/3 later and takes 4 ms;
	// the second starts ttl/3 after that and waits the 500 ms timeout.
	assert.InDelta(t, 4+10000.0/3+4+10000.0/3+500, un[0].AtMs, 0.001)
	assert.Zero(t, r.Summary().Writes, "a client that knows it lost writes nothing")
}

// TestRedlockMasterClocks: each master expires its key by its own clock; a
// clock set back keeps the key alive longer on that master only.
func TestRedlockMasterClocks(t *testing.T) {
	sc := redlockScenario(t, 2*ms)
	sc.Work = sim.Duration(30 * time.Second) // the holder's validity runs out first
	sc.Duration = sim.Duration(30 * time.Second)
	sc.Faults = []sim.Fault{{At: sim.Duration(time.Second), ClockJump: "redis-2", By: sim.Duration(-5 * time.Second)}}
	r := record(t, sc)
	snap := r.At(12 * time.Second)
	for i, m := range redlock.ViewOf(snap).Masters {
		if i == 1 {
			require.Len(t, m.Keys, 1, "redis-2 still holds the key")
			assert.Equal(t, "client-1", m.Keys[0].Owner)
			assert.Equal(t, 3002*ms, m.Keys[0].Left, "10 s ttl set at 2 ms, clock 5 s behind")
			assert.Equal(t, -5*time.Second, snap.Nodes[m.Node].Skew)
			continue
		}
		assert.Empty(t, m.Keys, "redis-%d expired it at 10.002 s", i+1)
	}
	out := events(r, "client-1", "redlock", "")
	require.NotEmpty(t, out)
	assert.Equal(t, 9898.0, out[len(out)-1].AtMs, "the validity runs out on the holder's clock: 4 + 9894 ms")
	assert.Contains(t, out[len(out)-1].Note, "does not look")
	assert.Empty(t, events(r, "client-1", "unheld", ""), "redsync's holder goes on believing")
}

// TestRedlockDeterminism: the same scenario and seed give the same trace,
// and a sim's clone runs on without touching the original's state.
func TestRedlockDeterminism(t *testing.T) {
	for _, name := range simtest.PresetsFor("redlock") {
		t.Run(name, func(t *testing.T) {
			sc, err := simtest.Load(name)
			require.NoError(t, err)
			a, b := record(t, sc), record(t, sc.Clone())
			require.Equal(t, a.Trace(), b.Trace())
			require.Equal(t, a.Summary(), b.Summary())

			s, err := sim.New(sc)
			require.NoError(t, err)
			mid := sc.Duration.D() / 3
			s.RunUntil(mid)
			before := s.Snapshot()
			c := s.Clone()
			c.RunUntil(c.End())
			require.Equal(t, before, s.Snapshot(), "running the clone changed the original")

			for _, at := range []time.Duration{0, 501 * ms, 2 * time.Second, mid, 12001 * ms, sc.Duration.D()} {
				fresh, err := sim.New(sc)
				require.NoError(t, err)
				fresh.RunUntil(at)
				want := fresh.Snapshot()
				got := a.At(at)
				assert.Equal(t, redlock.ViewOf(want), redlock.ViewOf(got), "at %v", at)
				assert.Equal(t, want.Nodes, got.Nodes, fmt.Sprintf("at %v", at))
			}
		})
	}
}

// TestRedlockClientCrash: a holder that crashes forgets everything; its
// keys expire on the masters and the other client takes over, once.
func TestRedlockClientCrash(t *testing.T) {
	sc := redlockScenario(t, 2*ms)
	sc.Clients = 2
	sc.Tries = 0 // keep trying until the end
	sc.Duration = sim.Duration(30 * time.Second)
	sc.Faults = []sim.Fault{{At: sim.Duration(time.Second), Crash: "client-1"}, {At: sim.Duration(3 * time.Second), Restart: "client-1"}}
	r := record(t, sc)
	sum := r.Summary()
	assert.Zero(t, sum.Violations)
	require.Len(t, sum.Grants, 3, "client-1 before its crash, then both clients once")
	assert.Equal(t, "client-1", sum.Grants[0].Client)
	assert.ElementsMatch(t, []string{"client-1", "client-2"}, []string{sum.Grants[1].Client, sum.Grants[2].Client})
	assert.Greater(t, sum.Grants[1].AtMs, 10004.0, "nobody gets the lock before the dead holder's keys expire at 10.004 s")
}

func TestRedlockWait(t *testing.T) {
	tests := []struct {
		ttl            time.Duration
		contextTimeout bool
		want           time.Duration
	}{
		{10 * time.Second, true, 500 * ms},
		{10 * time.Second, false, 5 * time.Second}, // go-redis's ReadTimeout
		{100 * time.Second, false, 5 * time.Second},
		{101 * time.Second, false, 10 * time.Second}, // a second read starts before redsync's 5.05 s deadline
		{200 * time.Second, true, 10 * time.Second},
		{time.Hour, true, 20 * time.Second}, // MaxRetries 3: four reads of 5 s at most
		{time.Hour, false, 20 * time.Second},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.want, redlock.Wait(tt.ttl, tt.contextTimeout), "ttl %v contextTimeout %v", tt.ttl, tt.contextTimeout)
	}
}

// TestRedlockContextTimeout freezes two of five masters (paused: silent,
// as SIGSTOP leaves them) with a 4 s TTL. With contextTimeout go-redis
// gives up on them at redsync's 200 ms deadline and the try is granted
// with 3 votes; without it (go-redis's default, redsync's README) it reads
// them for its 5 s ReadTimeout, the try's validity 4000 − 5000 − 42 is
// negative, and the try fails although a majority said yes. Two crashed
// masters refuse connections instead: the try ends at redsync's deadline
// either way.
func TestRedlockContextTimeout(t *testing.T) {
	tests := []struct {
		name           string
		fault          string
		contextTimeout bool
		at             time.Duration // the first try is decided
		validity       time.Duration
		granted        bool
	}{
		{"frozen, contextTimeout on", "pause", true, 200 * ms, 3758 * ms, true},
		{"frozen, contextTimeout off", "pause", false, 5 * time.Second, -1042 * ms, false},
		{"crashed, contextTimeout on", "crash", true, 200 * ms, 3758 * ms, true},
		{"crashed, contextTimeout off", "crash", false, 200 * ms, 3758 * ms, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			sc := redlockScenario(t, 0)
			sc.TTL, sc.Tries = sim.Duration(4*time.Second), 1
			redlock.ContextTimeout.Set(sc, tt.contextTimeout)
			for _, m := range []string{"redis-4", "redis-5"} {
				f := sim.Fault{At: 0}
				if tt.fault == "pause" {
					f.Pause, f.For = m, sim.Duration(time.Minute)
				} else {
					f.Crash = m
				}
				sc.Faults = append(sc.Faults, f)
			}
			r := record(t, sc)
			a := attempt(t, r, tt.at, 0)
			require.True(t, a.Done, "decided at %v", tt.at)
			assert.Equal(t, tt.at, a.Elapsed)
			assert.Equal(t, tt.validity, a.Validity)
			assert.Equal(t, tt.granted, a.Success)
			assert.Equal(t, []redlock.Vote{redlock.VoteYes, redlock.VoteYes, redlock.VoteYes, redlock.VoteTimeout, redlock.VoteTimeout}, a.Votes)
			assert.Equal(t, redlock.Wait(sc.TTL.D(), tt.contextTimeout), a.Wait)
			if tt.at > 0 {
				assert.False(t, attempt(t, r, tt.at-time.Millisecond, 0).Done, "not decided before %v", tt.at)
			}
			assert.Equal(t, tt.granted, len(r.Summary().Grants) == 1)
		})
	}
}

// TestReadTimeoutIsTheRelease: go-redis's read timeout is the scenario's
// readTimeout, 5 s by default (v9.22 on), 3 s for v9.0 to v9.21: a silent
// master holds a try that long, so redlock-silent-masters tells another
// story under the older release.
func TestReadTimeoutIsTheRelease(t *testing.T) {
	assert.Equal(t, 5*time.Second, redlock.ReadTimeout.Default().(sim.Duration).D())
	assert.Equal(t, 3*time.Second, redlock.WaitWith(10*time.Second, false, 3*time.Second))
	assert.Equal(t, redlock.Wait(10*time.Second, false), redlock.WaitWith(10*time.Second, false, redlock.GoRedisReadTimeout))
	assert.Equal(t, 500*time.Millisecond, redlock.WaitWith(10*time.Second, true, 3*time.Second), "contextTimeout: redsync's deadline")
	grantAt := func(rt time.Duration) sim.Summary {
		s, _ := simtest.Run(t, simtest.Preset(t, "redlock-silent-masters", func(sc *sim.Scenario) {
			redlock.ReadTimeout.Set(sc, sim.Duration(rt))
		}))
		return s
	}
	v922, v921 := grantAt(5*time.Second), grantAt(3*time.Second)
	require.NotEmpty(t, v922.Grants)
	require.NotEmpty(t, v921.Grants)
	assert.Less(t, v921.Grants[0].AtMs, v922.Grants[0].AtMs, "the older release gives up on the silent masters sooner")
}
