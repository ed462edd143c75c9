package sweep_test

import (
	"context"
	"fmt"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/lockscope/lockscope/sim"
	"github.com/lockscope/lockscope/sim/etcd"
	"github.com/lockscope/lockscope/sim/kubernetes"
	"github.com/lockscope/lockscope/sim/redis"
	"github.com/lockscope/lockscope/sim/redlock"
	"github.com/lockscope/lockscope/sim/simtest"
	"github.com/lockscope/lockscope/sim/sweep"
	"github.com/lockscope/lockscope/sim/zookeeper"
)

func axis(t *testing.T, spec string) sweep.Axis {
	t.Helper()
	a, err := sweep.ParseAxis(spec)
	require.NoError(t, err)
	return a
}

func TestParseAxis(t *testing.T) {
	a := axis(t, "ttl=1s:3s:3")
	assert.Equal(t, []float64{1000, 2000, 3000}, a.Values)
	assert.Equal(t, "2s", a.Format(2000))
	assert.Equal(t, []float64{1, 3, 4, 6}, axis(t, "clients=1:6:4").Values)
	for _, bad := range []string{"ttl", "ttl=1s:2s", "ttl=1x:2s:3", "ttl=2s:1s:3", "ttl=1s:2s:0", "colour=1:2:3", "clients=-1:2:2"} {
		_, err := sweep.ParseAxis(bad)
		assert.Error(t, err, bad)
	}
}

func runSweep(t *testing.T, sw *sweep.Sweep, workers int) []sweep.Cell {
	t.Helper()
	cells, err := sw.Run(context.Background(), workers, nil)
	require.NoError(t, err)
	return cells
}

// TestSweepMatchesAnalyticBoundary: without a watchdog, a Redis lock is
// unsafe exactly when the pause plus the work outlives the TTL.
func TestSweepMatchesAnalyticBoundary(t *testing.T) {
	base, err := sweep.Base("redis")
	require.NoError(t, err)
	base.Latency, base.Jitter = sim.Duration(time.Millisecond), sim.Duration(time.Millisecond)
	sw := &sweep.Sweep{Base: base, X: axis(t, "ttl=1s:10s:10"), Y: axis(t, "pause=0s:10s:11"), Seeds: 3}
	step := 1000.0
	for _, c := range runSweep(t, sw, 0) {
		work := float64(base.Work.D() / time.Millisecond)
		switch {
		case c.Y+work > c.X+step:
			assert.Equal(t, 1.0, c.UnsafeRate, "ttl %v pause %v must be unsafe", c.X, c.Y)
		case c.Y+work < c.X-step:
			assert.Zero(t, c.UnsafeRate, "ttl %v pause %v must be safe", c.X, c.Y)
		}
	}
}

// TestSweepWatchdogBoundary: with Redisson's watchdog the lock survives any
// pause shorter than 2·ttl/3 and none longer than ttl.
func TestSweepWatchdogBoundary(t *testing.T) {
	base, err := sweep.Base("redis")
	require.NoError(t, err)
	redis.Watchdog.Set(base, true)
	base.Work = sim.Duration(40 * time.Second)
	sw := &sweep.Sweep{Base: base, X: axis(t, "ttl=3s:12s:4"), Y: axis(t, "pause=0s:16s:17"), Seeds: 2}
	for _, c := range runSweep(t, sw, 0) {
		switch {
		case c.Y < 2*c.X/3:
			assert.Zero(t, c.UnsafeRate, "ttl %v pause %v: below 2·ttl/3 is safe", c.X, c.Y)
		case c.Y > c.X+200:
			assert.Equal(t, 1.0, c.UnsafeRate, "ttl %v pause %v: above ttl is unsafe", c.X, c.Y)
		}
	}
}

func TestSweepIsIndependentOfWorkers(t *testing.T) {
	base, err := sweep.Base("redis")
	require.NoError(t, err)
	sw := &sweep.Sweep{Base: base, X: axis(t, "ttl=1s:6s:4"), Y: axis(t, "pause=0s:6s:3"), Seeds: 4}
	one := runSweep(t, sw, 1)
	assert.Equal(t, one, runSweep(t, sw, 4))
	for _, c := range one {
		assert.Equal(t, 4, c.Runs)
		assert.Positive(t, c.RecoveryMeanMs)
		if c.UnsafeRate > 0 {
			// The recorded seed reproduces an unsafe run.
			s, err := sim.New(sw.CellScenario(c.X, c.Y, c.UnsafeSeed, false))
			require.NoError(t, err)
			assert.False(t, s.Run().Safe)
		}
	}
}

func TestSweepRecoveryFollowsTTL(t *testing.T) {
	base, err := sweep.Base("redis")
	require.NoError(t, err)
	sw := &sweep.Sweep{Base: base, X: axis(t, "ttl=2s:20s:4"), Seeds: 3}
	cells := runSweep(t, sw, 0)
	for i, c := range cells {
		// The crashed holder's key lives ttl from its grant; the crash is
		// work/2 after the grant, then the next retry gets in.
		want := c.X - float64(base.Work.D()/time.Millisecond)/2
		assert.InDelta(t, want, c.RecoveryMeanMs, 200, "ttl %v", c.X)
		if i > 0 {
			assert.Greater(t, c.RecoveryMeanMs, cells[i-1].RecoveryMeanMs)
		}
	}
}

// TestSweepSharesCrashRunsAcrossPauses: a crash run ignores the pause, so
// a pause axis shares it; the recovery figures are those of the same
// sweep without the pause axis, on either axis.
func TestSweepSharesCrashRunsAcrossPauses(t *testing.T) {
	base, err := sweep.Base("redis")
	require.NoError(t, err)
	ttl, pause := axis(t, "ttl=2s:8s:4"), axis(t, "pause=0s:9s:4")
	alone := runSweep(t, &sweep.Sweep{Base: base, X: ttl, Seeds: 3}, 2)
	for _, sw := range []*sweep.Sweep{
		{Base: base, X: ttl, Y: pause, Seeds: 3},
		{Base: base, X: pause, Y: ttl, Seeds: 3},
	} {
		for _, c := range runSweep(t, sw, 2) {
			x := c.X
			if sw.X.Field == "pause" {
				x = c.Y
			}
			want := alone[int((x-2000)/2000)]
			require.Equal(t, x, want.X)
			assert.Equal(t, want.RecoveryMeanMs, c.RecoveryMeanMs, "%s × %s at %v, %v", sw.X.Field, sw.Y.Field, c.X, c.Y)
			assert.Equal(t, want.RecoveryP99Ms, c.RecoveryP99Ms)
		}
	}
}

func TestSweepCancel(t *testing.T) {
	base, err := sweep.Base("redis")
	require.NoError(t, err)
	sw := &sweep.Sweep{Base: base, X: axis(t, "ttl=1s:30s:30"), Y: axis(t, "pause=0s:20s:21"), Seeds: 50}
	ctx, cancel := context.WithCancel(context.Background())
	var calls atomic.Int64
	_, err = sw.Run(ctx, 2, func(done, total int) {
		if done == 10 {
			cancel()
		}
		calls.Add(1)
	})
	assert.ErrorIs(t, err, context.Canceled)
	assert.Less(t, calls.Load(), int64(1000))
}

// BenchmarkSweepDefaultGrid is the trade-off view's default grid in each
// mode (lockscope sweep --x ttl=1s:30s:30 --y pause=0s:20s:21 --seeds 50),
// with the simulated events per grid and the time per event.
func BenchmarkSweepDefaultGrid(b *testing.B) {
	benchmarkGrid(b, "ttl=1s:30s:30", "pause=0s:20s:21", 50, 0, func(b *testing.B, events int64) {
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(events), "ns/event")
	})
}

// BenchmarkSweepSmallGrid is a 10 × 7 × 5 grid of the same axes on one
// worker: small enough to run under valgrind, whose instruction counts
// (GODEBUG=asyncpreemptoff=1 valgrind --tool=callgrind ./sweep.test
// -test.run '^$' -test.bench 'SweepSmallGrid/etcd' -test.benchtime 1x)
// compare two builds where wall time on a shared machine cannot.
func BenchmarkSweepSmallGrid(b *testing.B) {
	benchmarkGrid(b, "ttl=1s:30s:10", "pause=0s:20s:7", 5, 1, nil)
}

// BenchmarkSweepTabGrid is BenchmarkSweepSmallGrid's grid with the values
// the ZooKeeper, etcd and Redlock tabs' maps sweep (their presets
// zk-happy-path, etcd-lease-expiry and redlock-happy-path: lockscope sweep
// --set clients=5 --set work=1s; --set work=1.5s --set preVote=true; --set
// work=5s --set nodes=5 --set contextTimeout=true), the maps the window
// took longest over.
func BenchmarkSweepTabGrid(b *testing.B) {
	tabs := []struct {
		name, mode string
		set        func(sc *sim.Scenario)
	}{
		{"zookeeper", "zookeeper", func(sc *sim.Scenario) { sc.Clients, sc.Work = 5, sim.Duration(time.Second) }},
		{"etcd", "etcd", func(sc *sim.Scenario) { sc.Work = sim.Duration(1500 * time.Millisecond); etcd.PreVote.Set(sc, true) }},
		{"redlock", "redlock", func(sc *sim.Scenario) {
			sc.Work = sim.Duration(5 * time.Second)
			redlock.Nodes.Set(sc, 5)
			redlock.ContextTimeout.Set(sc, true)
		}},
	}
	for _, tab := range tabs {
		b.Run(tab.name, func(b *testing.B) {
			base, _ := sweep.Base(tab.mode)
			tab.set(base)
			runGrid(b, base, "ttl=1s:30s:10", "pause=0s:20s:7", 5, 1)
		})
	}
}

// benchmarkGrid runs the grid x × y with seeds a cell on workers (0: one a
// core) in every mode, reports its events per grid, and hands the events
// of all its runs to more for further figures.
func benchmarkGrid(b *testing.B, x, y string, seeds, workers int, more func(b *testing.B, events int64)) {
	for _, mode := range sim.ModeNames() {
		b.Run(mode, func(b *testing.B) {
			base, _ := sweep.Base(mode)
			events := runGrid(b, base, x, y, seeds, workers)
			if more != nil {
				more(b, events)
			}
		})
	}
}

// runGrid runs the grid x × y over base with seeds a cell on workers,
// reports its events per grid and returns the events of all its runs.
func runGrid(b *testing.B, base *sim.Scenario, x, y string, seeds, workers int) int64 {
	xa, _ := sweep.ParseAxis(x)
	ya, _ := sweep.ParseAxis(y)
	sw := &sweep.Sweep{Base: base, X: xa, Y: ya, Seeds: seeds}
	var events int64
	for b.Loop() {
		if _, err := sw.Run(context.Background(), workers, nil); err != nil {
			b.Fatal(err)
		}
		events += sw.Events()
	}
	b.ReportMetric(float64(events)/float64(b.N), "events/grid")
	return events
}

// TestSweepRecoveryIsZeroWhenTheLeaseRanOutFirst: a TTL shorter than the
// time to the crash means another client already holds the lock when the
// holder dies; nobody waits for it.
func TestSweepRecoveryIsZeroWhenTheLeaseRanOutFirst(t *testing.T) {
	base, err := sweep.Base("redis")
	require.NoError(t, err)
	sw := &sweep.Sweep{Base: base, X: axis(t, "ttl=500ms:500ms:1"), Seeds: 3}
	cells := runSweep(t, sw, 0)
	require.Len(t, cells, 1)
	assert.Zero(t, cells[0].RecoveryMeanMs)
	assert.Zero(t, cells[0].RecoveryP99Ms)
}

// TestSettleGivesTheFullRunsVerdict: a sweep's run stops once every
// client has done its rounds (Settle); what the sweep reads of it — the
// grants with their latencies, the overlaps, the writes and their verdict —
// is what the same run to its end says, in every mode, over pauses that end
// before, during and after the other client's turn.
func TestSettleGivesTheFullRunsVerdict(t *testing.T) {
	stopped := 0 // runs Settle ended before the events ran out
	for _, mode := range sim.ModeNames() {
		t.Run(mode, func(t *testing.T) {
			base, err := sweep.Base(mode)
			require.NoError(t, err)
			sw := &sweep.Sweep{Base: base, X: axis(t, "ttl=1s:30s:4"), Y: axis(t, "pause=0s:20s:5"), Seeds: 3}
			for _, x := range sw.X.Values {
				for _, y := range sw.Y.Values {
					for seed := int64(1); seed <= int64(sw.Seeds); seed++ {
						sc := sw.CellScenario(x, y, seed, false)
						full, err := sim.New(sc)
						require.NoError(t, err)
						want := full.Run()
						early, err := sim.New(sc)
						require.NoError(t, err)
						end := early.Settle()
						if early.Steps() < full.Steps() {
							stopped++
						}
						got := early.Check.Summary(end)
						at := fmt.Sprintf("ttl %v pause %v seed %d", x, y, seed)
						assert.Equal(t, want.Grants, got.Grants, at)
						assert.Equal(t, want.Acquisitions, got.Acquisitions, at)
						assert.Equal(t, want.Releases, got.Releases, at)
						assert.Equal(t, want.Violations, got.Violations, at)
						assert.Equal(t, want.OverlapMs, got.OverlapMs, at)
						assert.Equal(t, want.Writes, got.Writes, at)
						assert.Equal(t, want.StaleWritesAccepted, got.StaleWritesAccepted, at)
						assert.Equal(t, want.StaleWritesRejected, got.StaleWritesRejected, at)
						assert.Equal(t, want.LostUpdates, got.LostUpdates, at)
						assert.Equal(t, want.AcquireLatencyP50Ms, got.AcquireLatencyP50Ms, at)
						assert.Equal(t, want.AcquireLatencyP99Ms, got.AcquireLatencyP99Ms, at)
						assert.Equal(t, want.Safe, got.Safe, at)
						assert.Equal(t, want.ExpiredWhileHeld, got.ExpiredWhileHeld, at)
					}
				}
			}
		})
	}
	// The test means something only if runs do stop early (a Redis run's
	// events run out by themselves; ensembles keep ticking).
	assert.Positive(t, stopped)
}

// TestRunCacheReusesRunsWithoutChangingCells: a sweep that shares a
// RunCache with a smaller sweep over some of its cells and seeds takes
// those runs from the cache (it simulates fewer events) and its cells are
// what it computes alone, on a pause axis (crash runs shared) and off one.
func TestRunCacheReusesRunsWithoutChangingCells(t *testing.T) {
	for _, tc := range []struct{ mode, x, y, xs, ys string }{
		{"redlock", "ttl=2s:20s:4", "pause=0s:12s:3", "ttl=2s:20s:2", "pause=0s:12s:2"},
		{"zookeeper", "ttl=2s:20s:4", "latency=1ms:100ms:3", "ttl=2s:20s:2", "latency=1ms:100ms:2"},
	} {
		t.Run(tc.mode, func(t *testing.T) {
			base, err := sweep.Base(tc.mode)
			require.NoError(t, err)
			axis := func(spec string) sweep.Axis {
				a, err := sweep.ParseAxis(spec)
				require.NoError(t, err)
				return a
			}
			alone := &sweep.Sweep{Base: base, X: axis(tc.x), Y: axis(tc.y), Seeds: 4}
			want, err := alone.Run(context.Background(), 2, nil)
			require.NoError(t, err)

			runs := sweep.NewRunCache()
			small := &sweep.Sweep{Base: base, X: axis(tc.xs), Y: axis(tc.ys), Seeds: 2, Runs: runs}
			_, err = small.Run(context.Background(), 2, nil)
			require.NoError(t, err)
			runs.Seal()
			shared := &sweep.Sweep{Base: base, X: axis(tc.x), Y: axis(tc.y), Seeds: 4, Runs: runs}
			got, err := shared.Run(context.Background(), 2, nil)
			require.NoError(t, err)
			assert.Equal(t, want, got)
			assert.Less(t, shared.Events(), alone.Events(), "the small sweep's runs are not run again")
		})
	}
}

// One round each is a round for every client: an election's leader that
// would lead until it fails leads one period and steps down, so a run
// settles and the second candidate has its turn; a leader that resigns
// by itself keeps its periods, and a lock is left as it is.
func TestOneRoundEachLetsEveryLeaderLeadOnce(t *testing.T) {
	for _, tc := range []struct {
		preset  string
		set     func(sc *sim.Scenario)
		periods int
		after   func(sc *sim.Scenario) int
	}{
		{"k8s-paused-leader", nil, 1, kubernetes.LeadPeriods.Of},
		{"k8s-paused-leader", func(sc *sim.Scenario) { kubernetes.LeadPeriods.Set(sc, 4) }, 4, kubernetes.LeadPeriods.Of},
		{"zk-leader-latch", nil, 3, zookeeper.LeadPeriods.Of},
		{"zk-leader-latch", func(sc *sim.Scenario) { zookeeper.LeadPeriods.Set(sc, 0) }, 1, zookeeper.LeadPeriods.Of},
		{"etcd-election", func(sc *sim.Scenario) { etcd.LeadPeriods.Set(sc, 0) }, 1, etcd.LeadPeriods.Of},
		{"zk-happy-path", nil, 0, zookeeper.LeadPeriods.Of},
		{"redis-gc-pause", nil, 0, nil},
	} {
		sc, err := simtest.Load(tc.preset)
		require.NoError(t, err)
		if tc.set != nil {
			tc.set(sc)
		}
		before := sc.Clone()
		assert.Equal(t, tc.periods, sweep.OneRoundEach(sc), tc.preset)
		if tc.periods == 0 {
			assert.Equal(t, before, sc, "%s: a lock is left as it is", tc.preset)
			continue
		}
		assert.Equal(t, tc.periods, tc.after(sc), tc.preset)
	}
	base, err := sweep.Base("kubernetes")
	require.NoError(t, err)
	assert.Equal(t, 1, kubernetes.LeadPeriods.Of(base), "the Kubernetes map's leaders lead once")
}
