package sim

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// tickCases are etcd runs whose ticks do something now and then: every
// etcd preset and the faults that stop heartbeats, move or freeze a
// member's ticks, wipe a member or hold watch events.
func tickCases(t *testing.T) map[string]*Scenario {
	t.Helper()
	etcd := func(edit func(sc *Scenario)) *Scenario {
		sc, err := Defaults("etcd")
		require.NoError(t, err)
		sc.Duration, sc.Clients, sc.Rounds = Duration(40*time.Second), 3, 2
		edit(sc)
		return sc
	}
	at := func(d time.Duration) Duration { return Duration(d) }
	cases := map[string]*Scenario{
		"drift and clock jumps": etcd(func(sc *Scenario) {
			sc.ClockDrift, sc.Fencing = 0.2, true
			sc.Faults = []Fault{{At: at(2 * time.Second), ClockJump: "etcd-2", By: at(3 * time.Second)},
				{At: at(5 * time.Second), ClockJump: "etcd-1", By: at(-2 * time.Second)}}
		}),
		// A step forward on a member longer than its tick's time left
		// pulls the tick to the step's own instant, a tie; a shorter one
		// brings it forward, steps back delay it, and a client's step
		// forward pulls its timers to that instant.
		"monotonic steps": etcd(func(sc *Scenario) {
			sc.ClockDrift = 0.1
			sc.Faults = []Fault{{At: at(2 * time.Second), ClockJump: "etcd-2", By: at(-350 * time.Millisecond), Monotonic: true},
				{At: at(5 * time.Second), ClockJump: "etcd-1", By: at(-1500 * time.Millisecond), Monotonic: true},
				{At: at(7 * time.Second), ClockJump: "client-2", By: at(4 * time.Second), Monotonic: true},
				{At: at(9 * time.Second), ClockJump: "etcd-3", By: at(60 * time.Millisecond), Monotonic: true}}
		}),
		"leader paused, pre-vote": etcd(func(sc *Scenario) {
			sc.ClockDrift = 0.05
			setOption(sc, "preVote", true)
			sc.Faults = []Fault{{At: at(1500 * time.Millisecond), Pause: "etcd-1", For: at(6 * time.Second)}}
		}),
		"follower paused": etcd(func(sc *Scenario) {
			sc.Faults = []Fault{{At: at(1200 * time.Millisecond), Pause: "etcd-2", For: at(3 * time.Second)},
				{At: at(9 * time.Second), Pause: "etcd-3", For: at(2500 * time.Millisecond)}}
		}),
		"member lost its data, leader restarted": etcd(func(sc *Scenario) {
			setOption(sc, "nodes", 5)
			sc.Faults = []Fault{{At: at(time.Second), Crash: "etcd-2"}, {At: at(4 * time.Second), Restart: "etcd-2"},
				{At: at(6 * time.Second), Crash: "etcd-1"}, {At: at(9 * time.Second), Restart: "etcd-1", Persist: true}}
		}),
		"follower cut off, no pre-vote": etcd(func(sc *Scenario) {
			sc.ClockDrift = 0.1
			sc.Faults = []Fault{{At: at(time.Second), Partition: [][]string{{"client-3", "etcd-3"}}, For: at(8 * time.Second)},
				{At: at(12 * time.Second), Partition: [][]string{{"etcd-1"}, {"etcd-2", "etcd-3"}}, For: at(5 * time.Second)}}
		}),
		"waiter cut off from its member's watch": etcd(func(sc *Scenario) {
			sc.Faults = []Fault{{At: at(time.Second), Partition: [][]string{{"client-2"}}, For: at(4 * time.Second)},
				{At: at(8 * time.Second), Partition: [][]string{{"client-3"}}, For: at(2200 * time.Millisecond)}}
		}),
		"no majority anywhere, no pre-vote": etcd(func(sc *Scenario) {
			setOption(sc, "nodes", 5)
			sc.Faults = []Fault{{At: at(time.Second), Partition: [][]string{{"etcd-1", "etcd-2"}, {"etcd-3", "etcd-4"}, {"etcd-5"}},
				For: at(8 * time.Second)}}
		}),
		"holder paused past its lease": etcd(func(sc *Scenario) {
			sc.TTL, sc.Latency = at(5*time.Second), at(40*time.Millisecond)
			sc.Faults = []Fault{{When: StepBeforeWrite, Pause: ClientName(0), For: at(12 * time.Second)}}
		}),
	}
	files, err := filepath.Glob(filepath.Join("..", "assets", "presets", "etcd-*.lockscope.json"))
	require.NoError(t, err)
	require.NotEmpty(t, files)
	for _, f := range files {
		data, err := os.ReadFile(f)
		require.NoError(t, err)
		sc, err := ParseScenario(data)
		require.NoError(t, err)
		cases[strings.TrimSuffix(filepath.Base(f), ".lockscope.json")] = sc
	}
	return cases
}

// summaryAndTrace runs s, traced, to its end and gives its summary as JSON
// and its trace as JSON lines: what two runs that must not differ compare.
func summaryAndTrace(t *testing.T, s *Sim) string {
	t.Helper()
	s.EnableTrace()
	js, err := json.Marshal(s.Run())
	require.NoError(t, err)
	var trace strings.Builder
	require.NoError(t, WriteTraceJSONL(&trace, s.Trace()))
	return string(js) + "\n" + trace.String()
}

// TestIdleTicksChangeNothing: a Tick timer whose firing FireIdle handles
// (an etcd follower's raft tick that only counts, a lessor's look that
// finds nothing to revoke) leaves the run exactly as Fire would: the same
// trace, summary, steps, random source, queue order and every member's
// state at the end, with the drift, jumps, pauses, crashes and partitions
// that move a member's ticks or make them do something. Each run goes
// once with FireIdle offered and once with every tick through Fire.
func TestIdleTicksChangeNothing(t *testing.T) {
	for name, sc := range tickCases(t) {
		t.Run(name, func(t *testing.T) {
			require.NoError(t, sc.Validate())
			run := func(everyTick bool) (*Sim, string) {
				s := build(sc)
				s.fireEveryTick = everyTick
				return s, summaryAndTrace(t, s)
			}
			a, aOut := run(false)
			b, bOut := run(true)
			require.Equal(t, bOut, aOut, "summary and trace")
			require.Equal(t, b.Steps(), a.Steps())
			require.Equal(t, b.pcg, a.pcg, "random source")
			require.Equal(t, [2]uint64{b.seq, b.nextID}, [2]uint64{a.seq, a.nextID}, "events and timers queued")
			require.Equal(t, leftQueued(b), leftQueued(a), "what is left queued, in order")
			for i := range a.Nodes {
				require.True(t, reflect.DeepEqual(b.Nodes[i].Proc, a.Nodes[i].Proc), "%s at the end", a.Nodes[i].Name)
				require.Equal(t, b.Nodes[i].Clock, a.Nodes[i].Clock)
			}
			// The idle path was taken, and not only it.
			require.Positive(t, a.idleTicks)
			require.Zero(t, b.idleTicks)
			require.Less(t, a.idleTicks, a.Steps())
		})
	}
}

// TestLazyTicksChangeNothing: queued past their idle firings (Sim.lazy, a
// sweep's runs), the ticks leave the same trace, summary, random source
// and, once the firings skipped before the end are counted, every process
// as the run that queues each tick; a run that met a tie says so (and the
// sweep runs it again). The same runs settled as a sweep settles them give
// the same verdict at the same instant.
func TestLazyTicksChangeNothing(t *testing.T) {
	ties, runs := 0, 0
	for name, base := range tickCases(t) {
		for seed := base.Seed; seed < base.Seed+3; seed++ {
			sc := base.Clone()
			sc.Seed = seed
			runs++
			t.Run(fmt.Sprintf("%s/seed%d", name, seed), func(t *testing.T) {
				run := func(lazy bool) (*Sim, string) {
					s := build(sc)
					s.lazy = lazy
					return s, summaryAndTrace(t, s)
				}
				a, aOut := run(true)
				b, bOut := run(false)
				if a.tie {
					ties++
					return
				}
				require.Equal(t, bOut, aOut, "summary and trace")
				require.Equal(t, b.pcg, a.pcg, "random source")
				require.Less(t, a.Steps(), b.Steps(), "no tick was skipped")
				for i := range a.Nodes {
					if a.Nodes[i].lazy.p != nil {
						a.catchUp(NodeID(i), a.end+1) // the firings up to the end, as b handled them
					}
					require.True(t, reflect.DeepEqual(b.Nodes[i].Proc, a.Nodes[i].Proc), "%s at the end", a.Nodes[i].Name)
				}
				settle := func(lazy bool) (*Sim, time.Duration, string) {
					s := build(sc)
					s.lazy = lazy
					end := s.SettleVerdict()
					js, err := json.Marshal(s.Check.Summary(end))
					require.NoError(t, err)
					return s, end, string(js)
				}
				c, cEnd, cSum := settle(true)
				_, dEnd, dSum := settle(false)
				if !c.tie {
					require.Equal(t, dEnd, cEnd, "settled at")
					require.Equal(t, dSum, cSum)
				}
			})
		}
	}
	t.Logf("%d of %d runs met a tie", ties, runs)
	require.Less(t, ties*4, runs, "ties are rare")
}

// leftQueued is what each lane of a run's queue still holds, in order. The
// lanes' taken slots before their heads are left out: where a lane moves
// its slots to the front depends on the room of the pooled queue the run
// was given (lane.makeRoom), not on the run.
func leftQueued(s *Sim) [][]slot {
	var out [][]slot
	for _, l := range s.queue.lanes {
		out = append(out, l.s[l.head:])
	}
	return out
}
