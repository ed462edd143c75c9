package breaker

import (
	"context"
	"fmt"
	"runtime"
	"slices"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/lockscope/lockscope/assets/i18n"
	"github.com/lockscope/lockscope/sim"
	"github.com/lockscope/lockscope/sim/simtest"
)

func preset(t *testing.T, name string) *sim.Scenario {
	t.Helper()
	sc, err := simtest.Load(name)
	require.NoError(t, err)
	return sc
}

func search(t *testing.T, sc *sim.Scenario, b Budget, seed int64, workers int) *Result {
	t.Helper()
	r, err := Search(context.Background(), sc, Options{Budget: b, Seed: seed, Workers: workers})
	require.NoError(t, err)
	return r
}

// runOf runs a scenario to its end and returns its checker and verdict.
func runOf(t *testing.T, sc *sim.Scenario) (*sim.Checker, sim.Summary) {
	t.Helper()
	s, err := sim.New(sc)
	require.NoError(t, err)
	sum := s.Run()
	return s.Check, sum
}

// withFaults is sc with the given faults in place of its own.
func withFaults(sc *sim.Scenario, faults []sim.Fault) *sim.Scenario {
	c := sc.Clone()
	c.Faults = faults
	return c
}

// Three clients take turns on one Redis with a 10 s TTL and 2 s of work.
// A pause of the holder breaks it when its write lands after another
// client's grant: the lease runs out TTL after the SET, the next waiter's
// retry gets the lock a retry lag later, so the pause must outlast
// TTL − work + lag. The shrunk pause is within 50 ms of that bound (the
// rest is the few milliseconds of latency between the SET, the grant and
// the write), and a millisecond less does not break it.
func TestRedisHappyPathIsBrokenByAPauseOfTTLMinusWork(t *testing.T) {
	sc := preset(t, "redis-happy-path")
	r := search(t, sc, Budget{Kinds: []sim.FaultKind{KindPause}, MaxFaults: 1}, 1, 0)
	require.True(t, r.Found)
	require.Len(t, r.Faults, 1)
	f := r.Faults[0]
	require.Equal(t, sim.FaultPause, f.Kind())
	pause := f.For.D()

	c, sum := runOf(t, r.Scenario)
	require.False(t, sum.Safe)
	i := slices.IndexFunc(c.Writes(), func(w sim.WriteRecord) bool { return w.Stale && w.Accepted })
	require.GreaterOrEqual(t, i, 0)
	w := c.Writes()[i]
	assert.Equal(t, f.Pause, c.NodeName(w.Client), "the paused client is the stale writer")
	var expiry time.Duration
	for _, o := range c.Ownerships() {
		if o.Client == w.Client && o.Expired && o.Span.To >= w.GrantAt {
			expiry = o.Span.To
			break
		}
	}
	require.NotZero(t, expiry, "the writer's lease expired on redis-1")
	var second time.Duration
	for _, g := range c.Grants() {
		if g.At > w.GrantAt && g.Client != w.Client {
			second = g.At
			break
		}
	}
	require.NotZero(t, second)
	lag := second - expiry
	assert.Less(t, lag, 3*sc.RetryDelay.D()/2+10*time.Millisecond, "the next grant is one retry after the expiry")
	bound := sc.TTL.D() - sc.Work.D() + lag
	assert.InDelta(t, bound.Seconds(), pause.Seconds(), 0.050, "pause %v, analytic bound %v", pause, bound)

	require.Len(t, r.Margins, 1)
	assert.Equal(t, pause, r.Margins[0].Breaks)
	assert.Equal(t, pause-time.Millisecond, r.Margins[0].Safe)
	shorter := r.Scenario.Clone()
	shorter.Faults[0].For = sim.Duration(r.Margins[0].Safe)
	_, sum = runOf(t, shorter)
	assert.True(t, sum.Safe, "a millisecond less is safe")

	assert.Equal(t, "break.foundMargin", r.Sentence.Key)
	assert.Equal(t, w.At, r.Story.StaleWrite, "the story ends on the first stale write")
}

// Every fault of a shrunk schedule is needed: without any one of them the
// run is safe.
func TestShrunkScheduleHasNoFaultToSpare(t *testing.T) {
	for _, tc := range []struct {
		preset string
		budget Budget
	}{
		{"redis-happy-path", Budget{}},
		{"redlock-happy-path", Budget{Kinds: []sim.FaultKind{KindClockJump}}},
		{"redlock-happy-path", Budget{Kinds: []sim.FaultKind{KindClockJump, KindPartition}}},
	} {
		t.Run(tc.preset, func(t *testing.T) {
			r := search(t, preset(t, tc.preset), tc.budget, 1, 0)
			require.True(t, r.Found)
			_, sum := runOf(t, r.Scenario)
			require.False(t, sum.Safe)
			for i := range r.genes {
				fewer := slices.Delete(r.genes.clone(), i, i+1)
				_, sum := runOf(t, withFaults(r.Scenario, fewer.faults()))
				assert.True(t, sum.Safe, "without fault %d (%s) the run is safe", i, r.genes[i].Kind)
			}
		})
	}
}

// Redlock survives one master misbehaving, but not a majority of clocks
// jumping while a holder works: every seed finds three of the five
// masters jumping. And Kleppmann's case: with at most two faults a
// majority cannot jump, so what breaks it is one master's clock jump plus
// a partition that gives two clients different majorities. That search
// is harder; seed 5 finds it within the default 10,000 schedules (seeds 1
// and 3 do not within 40,000).
func TestRedlockIsBrokenByClockJumps(t *testing.T) {
	sc := preset(t, "redlock-happy-path")
	for seed := int64(1); seed <= 8; seed++ {
		r := search(t, sc, Budget{Kinds: []sim.FaultKind{KindClockJump}}, seed, 0)
		require.True(t, r.Found, "seed %d", seed)
		masters := map[string]bool{}
		for _, f := range r.Faults {
			require.Equal(t, sim.FaultClockJump, f.Kind())
			masters[f.ClockJump] = true
		}
		assert.Len(t, masters, len(sc.ServerNames())/2+1, "seed %d: a majority of masters jump", seed)
	}

	// The storage is spared: a partition that holds a write back on its
	// way breaks Redlock without any clock jump (TestRedlockIsBrokenByADelayedWrite).
	r := search(t, sc, Budget{Kinds: []sim.FaultKind{KindClockJump, KindPartition}, MaxFaults: 2, SpareStorage: true}, 5, 0)
	require.True(t, r.Found)
	var kinds []sim.FaultKind
	for _, f := range r.Faults {
		kinds = append(kinds, f.Kind())
	}
	assert.ElementsMatch(t, []sim.FaultKind{sim.FaultClockJump, sim.FaultPartition}, kinds, "one master's clock jump and a partition: %v", r.Faults)
	_, sum := runOf(t, withFaults(r.Scenario, r.Faults[:1]))
	assert.True(t, sum.Safe)
	_, sum = runOf(t, withFaults(r.Scenario, r.Faults[1:]))
	assert.True(t, sum.Safe, "neither alone breaks it")
}

// Fencing done right is never broken within the budget: etcd's guarded
// transaction. The result says what was searched.
func TestFencedEtcdIsNeverBroken(t *testing.T) {
	r := search(t, preset(t, "etcd-fenced-txn"), Budget{Runs: 3000}, 1, 0)
	assert.False(t, r.Found, "faults: %v", r.Faults)
	assert.Equal(t, 3000, r.Runs)
	assert.Nil(t, r.Scenario)
	assert.Equal(t, "break.notFound", r.Sentence.Key)
	assert.Equal(t, "3 000", r.Sentence.Parts["schedules"].Args["n"], "grouped by thousands")
	assert.NotContains(t, i18n.In(i18n.English, "break.notFound"), "safe", "never says safe")
}

// Redis with a fencing token (the grant script INCRs a counter the
// storage checks) is never broken by pauses — of any node, the storage
// too, at any instant or at a client's step — partitions or clock jumps.
// Crashes and failovers are left out on purpose: they break fencing for a
// reason of its own, not a fault of the check. A Redis restarted without
// its AOF, or a replica promoted before the INCR reached it, hands out
// token 1 again (TestTokensGoBackwardsAfterFailover), and a storage
// restarted without its data forgets the highest token it saw; the search
// finds those at once.
func TestFencedRedisIsNeverBrokenByPausesPartitionsOrJumps(t *testing.T) {
	sc := preset(t, "redis-gc-pause-fenced")
	require.True(t, sc.Fencing)
	for _, seed := range []int64{1, 2} {
		r := search(t, sc, Budget{Kinds: []sim.FaultKind{KindPause, KindPartition, KindClockJump}, Runs: 4000}, seed, 0)
		assert.False(t, r.Found, "seed %d: faults %v", seed, r.Faults)
		assert.Equal(t, 4000, r.Runs)
	}
	r := search(t, sc, Budget{Kinds: []sim.FaultKind{KindCrash}}, 1, 0)
	require.True(t, r.Found, "a crash without persistence resets what fencing relies on")
	restarted := false
	for _, f := range r.Faults {
		restarted = restarted || (f.Restart != "" && !f.Persist)
	}
	assert.True(t, restarted, "the breaking crash is restarted without its data: %v", r.Faults)
}

// A pause whose reply arrives late is not a break: fenced Redis with
// client-1 paused from the start, its SET's reply held until the key has
// passed to client-2, was judged broken before the checker ordered grants
// by when the lock service issued them. The search found it in 122 runs.
func TestFencedRedisWithALateGrantReplyIsNotBroken(t *testing.T) {
	sc := preset(t, "redis-gc-pause-fenced")
	sc.Faults = []sim.Fault{{Pause: "client-1", For: sim.Duration(10065 * time.Millisecond)}}
	_, sum := runOf(t, sc)
	assert.True(t, sum.Safe)
	assert.Equal(t, 1, sum.StaleWritesRejected, "client-1's write, sent after client-2's grant, is refused")
}

// The same seed finds the same schedule, shrinks it the same way and
// counts the same runs on one core or many: timed clock jumps in Redlock,
// and in fenced Redis a search over every kind (pauses tied to a client's
// step, faults on the storage node, crashes) that needs several batches
// and the guided mutations.
func TestSearchIsDeterministicWhateverTheCores(t *testing.T) {
	for _, tc := range []struct {
		preset string
		b      Budget
	}{
		{"redlock-happy-path", Budget{Kinds: []sim.FaultKind{KindClockJump}}},
		{"redis-gc-pause-fenced", Budget{}},
	} {
		t.Run(tc.preset, func(t *testing.T) {
			sc := preset(t, tc.preset)
			var results []*Result
			for _, procs := range []int{1, 2, 4} {
				old := runtime.GOMAXPROCS(procs)
				results = append(results, search(t, sc, tc.b, 1, 0))
				runtime.GOMAXPROCS(old)
			}
			results = append(results, search(t, sc, tc.b, 1, 3))
			first := results[0]
			require.True(t, first.Found)
			for _, r := range results[1:] {
				assert.Equal(t, first.Runs, r.Runs)
				assert.Equal(t, first.ShrinkRuns, r.ShrinkRuns)
				assert.Equal(t, first.Faults, r.Faults)
				assert.Equal(t, first.Margins, r.Margins)
				assert.Equal(t, first.Summary, r.Summary)
			}
			other := search(t, sc, tc.b, 2, 0)
			assert.NotEqual(t, first.Runs, other.Runs, "another seed searches another way")
		})
	}
}

// The search draws pauses tied to a client's step (both steps, rounds
// past the first) as well as timed ones, and pauses, partitions and
// crashes of the storage node; never a clock jump of the storage, which
// has no lease to misjudge, and no storage fault where the value lives in
// the lock service (etcd's guarded transaction).
func TestSearchDrawsStepsAndTheStorage(t *testing.T) {
	e, _, err := newEnv(preset(t, "redis-happy-path"), DefaultBudget(preset(t, "redis-happy-path")))
	require.NoError(t, err)
	require.Greater(t, e.space.rounds["client-1"], 1, "client-1 takes several turns without faults")
	seen := map[string]bool{}
	for i := range 2000 {
		for _, g := range e.space.randomSchedule(newRand(1, i, 0)) {
			if g.When != "" {
				require.Equal(t, KindPause, g.Kind)
				require.True(t, e.space.isClient(g.Target), "a step is a client's: %+v", g)
				require.LessOrEqual(t, g.Round, e.space.rounds[g.Target])
				seen["when "+g.When] = true
				if g.Round > 1 {
					seen["round > 1"] = true
				}
				f := g.faults()[0]
				require.Zero(t, f.At, "a fault tied to a step has no instant")
			}
			if g.Target == sim.StorageName || slices.Contains(g.Group, sim.StorageName) {
				seen["storage "+g.Kind.String()] = true
			}
		}
	}
	for _, want := range []string{"when granted", "when before-write", "round > 1",
		"storage pause", "storage partition", "storage crash"} {
		assert.True(t, seen[want], want)
	}
	assert.False(t, seen["storage clockJump"])

	etcd, _, err := newEnv(preset(t, "etcd-fenced-txn"), DefaultBudget(preset(t, "etcd-fenced-txn")))
	require.NoError(t, err)
	assert.NotContains(t, etcd.space.nodes, sim.StorageName)
}

// The shrink moves a pause tied to a step to the earliest round and step
// that still break: a long pause of client-1 before its write in round 3
// becomes one right after its first grant, shortened to the margin.
func TestShrinkMovesAStepEarlier(t *testing.T) {
	sc := preset(t, "redis-happy-path")
	e, _, err := newEnv(sc, DefaultBudget(sc))
	require.NoError(t, err)
	long := schedule{{Kind: KindPause, Target: "client-1", When: sim.StepBeforeWrite, Round: 3, Length: 15 * time.Second}}
	out, err := e.run(long)
	require.NoError(t, err)
	require.True(t, out.unsafe)
	shrunk, margins, err := e.shrink(context.Background(), long, nil)
	require.NoError(t, err)
	require.Len(t, shrunk, 1)
	assert.Equal(t, 1, shrunk[0].Round)
	assert.Equal(t, sim.StepGranted, shrunk[0].When)
	require.Len(t, margins, 1)
	assert.Less(t, shrunk[0].Length, long[0].Length)
	assert.Equal(t, shrunk[0].Length, margins[0].Breaks)
}

// A scenario whose settings break it without any fault says so.
func TestSettingsThatBreakWithoutAFault(t *testing.T) {
	sc := preset(t, "redis-gc-pause")
	sc.Faults = nil
	sc.Work = sim.Duration(15 * time.Second) // work outlives the 10 s TTL
	r := search(t, sc, Budget{}, 1, 0)
	require.True(t, r.Found)
	assert.Equal(t, 0, r.Runs)
	assert.Empty(t, r.Faults)
	assert.Equal(t, "break.foundBase", r.Sentence.Key)
	assert.NotZero(t, r.Story.StaleWrite)
}

func TestBudgetIsChecked(t *testing.T) {
	sc := preset(t, "redis-happy-path")
	for _, tc := range []struct {
		b    Budget
		want string
	}{
		{Budget{Kinds: []sim.FaultKind{sim.FaultRestart}}, `faults: unknown kind "restart"`},
		{Budget{Kinds: []sim.FaultKind{KindFailover}}, "faults: redis mode has no failover here"},
		{Budget{MaxFaults: 11}, "max-faults: 11, want 1 to 10"},
		{Budget{MaxPause: time.Microsecond}, "max-pause:"},
		{Budget{MaxJump: -time.Second}, "max-jump:"},
		{Budget{MaxPartition: 25 * time.Hour}, "max-partition:"},
		{Budget{Runs: -1}, "runs: -1"},
	} {
		_, err := Search(context.Background(), sc, Options{Budget: tc.b})
		require.Error(t, err)
		assert.Contains(t, err.Error(), tc.want)
	}
	failover := preset(t, "redis-failover")
	assert.Contains(t, DefaultBudget(failover).Kinds, KindFailover)
	assert.NotContains(t, DefaultBudget(sc).Kinds, KindFailover)
	assert.Equal(t, 3, DefaultBudget(preset(t, "redlock-happy-path")).MaxFaults)
	assert.Equal(t, 20*time.Second, DefaultBudget(sc).MaxPause)
}

func TestParseKinds(t *testing.T) {
	k, err := ParseKinds("pause, clockjump,pause")
	require.NoError(t, err)
	assert.Equal(t, []sim.FaultKind{KindPause, KindClockJump}, k)
	_, err = ParseKinds("pause,nope")
	assert.ErrorContains(t, err, `unknown kind "nope"`)
	_, err = ParseKinds(",")
	assert.Error(t, err)
}

// A cancelled search stops and says so.
func TestSearchStopsWhenCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := Search(ctx, preset(t, "zk-happy-path"), Options{})
	assert.ErrorIs(t, err, context.Canceled)
}

// The seconds of the sentences: to the millisecond, no float noise.
func TestSeconds(t *testing.T) {
	assert.Equal(t, "4.12 s", seconds(4120*time.Millisecond))
	assert.Equal(t, "1.828 s", seconds(1828*time.Millisecond))
	assert.Equal(t, "0.3 s", seconds(300*time.Millisecond))
	assert.Equal(t, "8 s", seconds(8*time.Second))
	assert.Equal(t, "-2.5 s", seconds(-2500*time.Millisecond))
}

// variants are every schedule one step smaller than s: each fault
// dropped, each pause, partition, downtime or jump a millisecond shorter,
// each node taken out of a partition's group, a restarted server left down,
// a pause tied to a step in an earlier round or at the earlier step.
func variants(s schedule) map[string]schedule {
	out := map[string]schedule{}
	for i, g := range s {
		out[fmt.Sprintf("without fault %d (%s)", i, g.Kind)] = slices.Delete(s.clone(), i, i+1)
		if d := size(g); d > time.Millisecond && g.Kind != KindFailover {
			t := s.clone()
			t[i] = withSize(t[i], d-time.Millisecond)
			out[fmt.Sprintf("fault %d (%s) %v instead of %v", i, g.Kind, d-time.Millisecond, d)] = t
		}
		if g.Kind == KindPartition && len(g.Group) > 1 {
			for j, n := range g.Group {
				t := s.clone()
				t[i].Group = slices.Delete(t[i].Group, j, j+1)
				out[fmt.Sprintf("fault %d (partition) without %s", i, n)] = t
			}
		}
		if g.Kind == KindCrash && g.Length > 0 {
			t := s.clone()
			t[i].Length, t[i].Persist = 0, false
			out[fmt.Sprintf("fault %d (crash) never restarted", i)] = t
		}
		if g.When != "" && g.Round > 1 {
			for _, r := range []int{1, g.Round - 1} {
				t := s.clone()
				t[i].Round = r
				out[fmt.Sprintf("fault %d (pause) in round %d instead of %d", i, r, g.Round)] = t
			}
		}
		if g.When != "" && g.When != sim.StepGranted {
			t := s.clone()
			t[i].When = sim.StepGranted
			out[fmt.Sprintf("fault %d (pause) at %s instead of %s", i, sim.StepGranted, g.When)] = t
		}
	}
	return out
}

// A shrunk schedule is minimal: it breaks the scenario, and every schedule
// one step smaller — a fault fewer, a millisecond shorter, a node fewer in
// a partition — is run here and takes no stale write.
func TestShrunkScheduleIsMinimal(t *testing.T) {
	for _, tc := range []struct {
		name   string
		preset string
		budget Budget
		seed   int64
	}{
		{"redis one pause", "redis-happy-path", Budget{Kinds: []sim.FaultKind{KindPause}, MaxFaults: 1}, 1},
		{"redis default", "redis-happy-path", Budget{}, 1},
		{"fenced redis default", "redis-gc-pause-fenced", Budget{}, 1},
		{"redlock jumps", "redlock-happy-path", Budget{Kinds: []sim.FaultKind{KindClockJump}}, 1},
		{"redlock jump and partitions", "redlock-happy-path", Budget{Kinds: []sim.FaultKind{KindClockJump, KindPartition}}, 1},
		{"redlock Kleppmann", "redlock-happy-path", Budget{Kinds: []sim.FaultKind{KindClockJump, KindPartition}, MaxFaults: 2, SpareStorage: true}, 5},
		{"zookeeper default", "zk-gc-pause", Budget{}, 1},
		{"etcd default", "etcd-happy-path", Budget{}, 1},
		{"etcd crashes and partitions", "etcd-happy-path", Budget{Kinds: []sim.FaultKind{KindCrash, KindPartition}}, 1},
		{"kubernetes monotonic steps", "k8s-release-on-cancel", Budget{Kinds: []sim.FaultKind{KindClockJump}, Monotonic: true}, 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := search(t, preset(t, tc.preset), tc.budget, tc.seed, 0)
			require.True(t, r.Found, "a schedule that breaks %s is found", tc.preset)
			require.NotEmpty(t, r.genes)
			_, sum := runOf(t, r.Scenario)
			require.False(t, sum.Safe, "the shrunk schedule breaks it: %v", r.Faults)
			for what, v := range variants(r.genes) {
				_, sum := runOf(t, withFaults(r.Scenario, v.faults()))
				assert.True(t, sum.Safe, "%s: %s is safe, the schedule being %v", tc.name, what, r.Faults)
			}
		})
	}
}

// A scenario whose clients stop after their rounds is searched, and
// replayed, long enough for the budget's longest fault and two TTLs to
// play out; one whose clients go on to the end keeps its length.
func TestSearchLeavesRoomForFaultsToPlayOut(t *testing.T) {
	sc := preset(t, "zk-happy-path")
	require.Equal(t, 10*time.Second, sc.Duration.D())
	require.Positive(t, sc.Rounds)
	b := DefaultBudget(sc)
	got := roomToPlayOut(sc, b, 5*time.Second)
	assert.Equal(t, 5*time.Second+b.MaxPause+2*sc.TTL.D(), got)
	assert.Equal(t, 42*time.Second, roomToPlayOut(sc, b, 1500*time.Millisecond), "1.5 s + 20 s + 2 × 10 s, rounded up to a whole second")
	long := sc.Clone()
	long.Duration = sim.Duration(time.Hour)
	assert.Equal(t, time.Hour, roomToPlayOut(long, b, 5*time.Second), "already long enough")
	endless := sc.Clone()
	endless.Rounds = 0
	assert.Equal(t, sc.Duration.D(), roomToPlayOut(endless, b, 5*time.Second), "clients that go on to the end")
}

// A write held back on its way to the storage breaks Redlock with no
// clock misbehaving: one partition that cuts the storage off while the
// holder's write travels, healed after the lease has passed to another
// client, whose read got there first. Redlock has no token to refuse it.
func TestRedlockIsBrokenByADelayedWrite(t *testing.T) {
	r := search(t, preset(t, "redlock-happy-path"), Budget{Kinds: []sim.FaultKind{KindPartition}, MaxFaults: 1}, 1, 0)
	require.True(t, r.Found)
	require.Len(t, r.Faults, 1)
	assert.Contains(t, r.Faults[0].Partition[0], sim.StorageName, "the partition holds the storage: %v", r.Faults)
	c, sum := runOf(t, r.Scenario)
	require.False(t, sum.Safe)
	i := slices.IndexFunc(c.Writes(), func(w sim.WriteRecord) bool { return w.Stale && w.Accepted })
	require.GreaterOrEqual(t, i, 0)
	heal := r.Faults[0].At.D() + r.Faults[0].For.D()
	assert.GreaterOrEqual(t, c.Writes()[i].At, heal, "the stale write arrives once the way is open")
}

// One schedule, one run: the noun takes the count's number in English.
func TestCountSaysItsNumber(t *testing.T) {
	one := Count(NounSchedules, 1)
	assert.Equal(t, "1 schedule", i18n.Fin(i18n.English, one.Key, "n", one.Args["n"]))
	runs := Count(NounRuns, 1)
	assert.Equal(t, "1 run", i18n.Fin(i18n.English, runs.Key, "n", runs.Args["n"]))
	many := Count(NounSchedules, 3000)
	assert.Equal(t, "3 000 schedules", i18n.Fin(i18n.English, many.Key, "n", many.Args["n"]))
	assert.Equal(t, "3 000 个方案", i18n.Fin(i18n.Chinese, many.Key, "n", many.Args["n"]))
}

// A found pause tied to a step is told at the instant it struck (its
// client's grant), and said by its step.
func TestStoryOfAStepPause(t *testing.T) {
	sc := preset(t, "redis-happy-path")
	e, _, err := newEnv(sc, DefaultBudget(sc))
	require.NoError(t, err)
	s := schedule{{Kind: KindPause, Target: "client-2", When: sim.StepGranted, Round: 1, Length: 9 * time.Second}}
	r, err := e.finish(&Result{Found: true}, s, nil)
	require.NoError(t, err)
	require.False(t, r.Summary.Safe)
	c, _ := runOf(t, r.Scenario)
	i := slices.IndexFunc(c.Grants(), func(g sim.Grant) bool { return c.NodeName(g.Client) == "client-2" })
	require.GreaterOrEqual(t, i, 0)
	require.NotEmpty(t, r.Story.Lines)
	assert.Equal(t, c.Grants()[i].At, r.Story.Lines[0].At, "told when client-2 was granted")
	assert.Equal(t, "break.when.step", r.Sentence.Parts["faults"].Parts["when"].Key)
	assert.Equal(t, "granted", r.Sentence.Parts["faults"].Parts["when"].Args["step"])
}

// The DynamoDB lock's happy path is broken by pausing the holder: a waiter
// takes the item over once the version has stood a whole leaseDuration on
// its clock, and the paused holder's write lands after. The pause must
// outlast most of the 20 s lease (the holder's 2 s of work and the
// waiter's polling take the rest).
func TestDynamoDBHappyPathIsBrokenByAPausedHolder(t *testing.T) {
	sc := preset(t, "dynamodb-happy-path")
	r := search(t, sc, Budget{Kinds: []sim.FaultKind{KindPause}, MaxFaults: 1}, 1, 0)
	require.True(t, r.Found)
	require.Len(t, r.Faults, 1)
	f := r.Faults[0]
	require.Equal(t, sim.FaultPause, f.Kind())
	c, sum := runOf(t, r.Scenario)
	require.False(t, sum.Safe)
	i := slices.IndexFunc(c.Writes(), func(w sim.WriteRecord) bool { return w.Stale && w.Accepted })
	require.GreaterOrEqual(t, i, 0)
	assert.Equal(t, f.Pause, c.NodeName(c.Writes()[i].Client), "the paused client is the stale writer")
	assert.Greater(t, f.For.D(), sc.TTL.D()-2*sc.Work.D(), "the pause outlasts most of the lease")
	assert.Less(t, f.For.D(), sc.TTL.D()+5*time.Second)
}
