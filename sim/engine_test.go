package sim_test

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/lockscope/lockscope/sim"
	"github.com/lockscope/lockscope/sim/redis"
	"github.com/lockscope/lockscope/sim/simtest"
)

func traceBytes(t *testing.T, sc *sim.Scenario) []byte {
	t.Helper()
	rec, err := sim.Record(sc)
	require.NoError(t, err)
	var buf bytes.Buffer
	require.NoError(t, sim.WriteTraceJSONL(&buf, rec.Trace()))
	return buf.Bytes()
}

func TestRunsAreDeterministic(t *testing.T) {
	for _, name := range simtest.PresetNames() {
		t.Run(name, func(t *testing.T) {
			sc := simtest.Preset(t, name, nil)
			a, b := traceBytes(t, sc), traceBytes(t, sc.Clone())
			require.NotEmpty(t, a)
			assert.Equal(t, a, b, "same scenario and seed must give byte-identical traces")
		})
	}
	sc := simtest.Preset(t, "redis-happy-path", nil)
	other := sc.Clone()
	other.Seed = 99
	assert.NotEqual(t, traceBytes(t, sc), traceBytes(t, other), "jitter and retry delays come from the seed")
}

// TestSeekMatchesStraightRun checks that rebuilding an instant from a
// checkpoint equals running straight to it, for every preset.
func TestSeekMatchesStraightRun(t *testing.T) {
	for _, name := range simtest.PresetNames() {
		t.Run(name, func(t *testing.T) {
			sc := simtest.Preset(t, name, nil)
			rec, err := sim.Record(sc)
			require.NoError(t, err)
			times := []time.Duration{0, rec.End() / 7, rec.End() / 3, rec.End() / 2, rec.End()}
			ev := rec.EventTimes()
			for i := 0; i < len(ev); i += max(1, len(ev)/5) {
				times = append(times, ev[i])
			}
			for _, at := range times {
				straight, err := sim.New(sc)
				require.NoError(t, err)
				straight.RunUntil(at)
				assert.Equal(t, straight.Snapshot(), rec.At(at), "at %v", at)
			}
			// Seeking backwards and forwards again changes nothing.
			mid := rec.At(rec.End() / 2)
			_ = rec.At(0)
			assert.Equal(t, mid, rec.At(rec.End()/2))
		})
	}
}

func TestLongRunSeeksFromCheckpoints(t *testing.T) {
	sc := simtest.Preset(t, "redis-happy-path", func(sc *sim.Scenario) {
		sc.Duration, sc.Clients, sc.Rounds = sim.Duration(2*time.Minute), 20, 0
	})
	rec, err := sim.Record(sc)
	require.NoError(t, err)
	require.Greater(t, len(rec.EventTimes()), 10000)
	for _, at := range []time.Duration{37 * time.Second, 91*time.Second + 3*time.Millisecond, rec.End()} {
		straight, err := sim.New(sc)
		require.NoError(t, err)
		straight.RunUntil(at)
		assert.Equal(t, straight.Snapshot(), rec.At(at))
	}
}

func TestPausedClientWorkIsStretched(t *testing.T) {
	sc := simtest.Preset(t, "redis-gc-pause", nil)
	sum, rec := simtest.Run(t, sc)
	require.NotEmpty(t, sum.Grants)
	tl := rec.Timeline()
	c1 := tl.Holding[0]
	require.Len(t, c1, 1)
	// 5 s of work plus the 15 s pause, plus the write's round trip to the
	// storage: the client releases once its write is answered.
	held := c1[0].To - c1[0].From
	assert.GreaterOrEqual(t, held, 20*time.Second+2*sc.Latency.D())
	assert.LessOrEqual(t, held, 20*time.Second+2*(sc.Latency.D()+sc.Jitter.D()))
}

func TestPartitionDropsMessagesInFlight(t *testing.T) {
	sc := simtest.Preset(t, "redis-happy-path", func(sc *sim.Scenario) {
		sc.Clients, sc.Rounds, sc.Jitter = 1, 1, 0
		sc.Latency = sim.Duration(10 * time.Millisecond)
		redis.Client.Set(sc, redis.ClientRedisson316) // a release that resends its lock script
		// The SET leaves at 0 and would arrive at 10 ms: cut at 5 ms.
		sc.Faults = []sim.Fault{{At: sim.Duration(5 * time.Millisecond), Partition: [][]string{{"client-1"}}, For: sim.Duration(20 * time.Millisecond)}}
	})
	sum, rec := simtest.Run(t, sc)
	dropped := 0
	for _, e := range rec.Trace() {
		if e.Kind == sim.TraceDrop {
			dropped++
		}
	}
	assert.Equal(t, 1, dropped)
	require.Len(t, sum.Grants, 1)
	// The client resends the lock script retryInterval after its 3 s
	// request timeout (Redisson 3.16.8's RedisExecutor), then one round trip.
	at := time.Duration(sum.Grants[0].AtMs * float64(time.Millisecond))
	assert.InDelta(t, float64(redis.RequestTimeout+redis.RetryInterval+20*time.Millisecond), float64(at), float64(time.Millisecond))
}

func TestClockDriftGivesEachNodeARate(t *testing.T) {
	sc := simtest.Preset(t, "redis-happy-path", func(sc *sim.Scenario) { sc.ClockDrift = 0.05 })
	s, err := sim.New(sc)
	require.NoError(t, err)
	s.RunUntil(10 * time.Second)
	snap := s.Snapshot()
	seen := map[time.Duration]bool{}
	for _, n := range snap.Nodes {
		assert.LessOrEqual(t, n.Skew.Abs(), 500*time.Millisecond+time.Millisecond, n.Name)
		seen[n.Skew] = true
	}
	assert.Greater(t, len(seen), 1, "nodes drift apart")
}

// TestRandomFaultsKeepInvariants runs many seeds with random fault
// schedules: no panic, one owner per key per server, and with fencing (and
// no failover or volatile restart) the storage only ever sees rising tokens.
func TestRandomFaultsKeepInvariants(t *testing.T) {
	n := 1000
	if testing.Short() {
		n = 200
	}
	for seed := 1; seed <= n; seed++ {
		sc := randomScenario(uint64(seed))
		s, err := sim.New(sc)
		require.NoError(t, err, "seed %d", seed)
		s.Run()
		own := map[string][]sim.Interval{}
		for _, o := range s.Check.Ownerships() {
			k := fmt.Sprint(o.Server, o.Key)
			for _, iv := range own[k] {
				require.False(t, o.Span.From < iv.To && iv.From < o.Span.To || o.Open && iv.To > o.Span.From,
					"seed %d: %s has two owners", seed, k)
			}
			span := o.Span
			if o.Open {
				span.To = s.End()
			}
			own[k] = append(own[k], span)
		}
		if sc.Fencing && !simtest.VolatileMaster(sc) {
			var last int64
			for _, w := range s.Check.Writes() {
				if w.Accepted {
					require.GreaterOrEqual(t, w.Token, last, "seed %d: storage saw a token go backwards", seed)
					last = w.Token
				}
			}
		}
	}
}

func randomScenario(seed uint64) *sim.Scenario {
	r := rand.New(rand.NewPCG(seed, 7))
	sc, _ := sim.Defaults("redis")
	sc.Seed = int64(seed)
	sc.Duration = sim.Duration(20 * time.Second)
	sc.Clients = 1 + r.IntN(4)
	sc.Rounds = r.IntN(3)
	sc.TTL = sim.Duration(time.Duration(500+r.IntN(5000)) * time.Millisecond)
	sc.Work = sim.Duration(time.Duration(r.IntN(3000)) * time.Millisecond)
	sc.Latency = sim.Duration(time.Duration(r.IntN(20)) * time.Millisecond)
	sc.Jitter = sim.Duration(time.Duration(r.IntN(10)) * time.Millisecond)
	redis.Watchdog.Set(sc, r.IntN(2) == 0)
	sc.Fencing = r.IntN(2) == 0
	redis.Replica.Set(sc, r.IntN(2) == 0)
	redis.PlainDel.Set(sc, r.IntN(4) == 0)
	sc.ClockDrift = float64(r.IntN(3)) * 0.01
	nodes := append(sc.ClientNames(), sc.ServerNames()...)
	for i := r.IntN(6); i > 0; i-- {
		f := sim.Fault{At: sim.Duration(time.Duration(r.IntN(15000)) * time.Millisecond)}
		target := nodes[r.IntN(len(nodes))]
		switch r.IntN(6) {
		case 0:
			f.Pause, f.For = target, sim.Duration(time.Duration(1+r.IntN(8000))*time.Millisecond)
		case 1:
			f.ClockJump, f.By = target, sim.Duration(time.Duration(r.IntN(8000)-2000+1)*time.Millisecond)
		case 2:
			f.Partition, f.For = [][]string{{target}}, sim.Duration(time.Duration(1+r.IntN(5000))*time.Millisecond)
		case 3:
			f.Crash = target
		case 4:
			f.Restart, f.Persist = target, r.IntN(2) == 0
		case 5:
			if !redis.Replica.Of(sc) {
				continue
			}
			f.Failover = "redis-1"
		}
		sc.Faults = append(sc.Faults, f)
	}
	return sc
}
