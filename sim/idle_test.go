package sim

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// TestIdleTicksChangeNothing: a Tick timer whose firing FireIdle handles
// (an etcd follower's raft tick that only counts, a lessor's look that
// finds nothing to revoke) leaves the run exactly as Fire would: the same
// trace, summary, steps, random source, queue order and every member's
// state at the end, with the drift, jumps, pauses, crashes and partitions
// that move a member's ticks or make them do something. Each run goes
// once with FireIdle offered and once with every tick through Fire.
func TestIdleTicksChangeNothing(t *testing.T) {
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
		"leader paused, pre-vote": etcd(func(sc *Scenario) {
			sc.ClockDrift, sc.PreVote = 0.05, true
			sc.Faults = []Fault{{At: at(1500 * time.Millisecond), Pause: "etcd-1", For: at(6 * time.Second)}}
		}),
		"follower paused": etcd(func(sc *Scenario) {
			sc.Faults = []Fault{{At: at(1200 * time.Millisecond), Pause: "etcd-2", For: at(3 * time.Second)},
				{At: at(9 * time.Second), Pause: "etcd-3", For: at(2500 * time.Millisecond)}}
		}),
		"member lost its data, leader restarted": etcd(func(sc *Scenario) {
			sc.Nodes = 5
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
				{At: at(8 * time.Second), Partition: [][]string{{"client-3"}}, For: at(3 * time.Second)}}
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
	for name, sc := range cases {
		t.Run(name, func(t *testing.T) {
			require.NoError(t, sc.Validate())
			run := func(everyTick bool) (*Sim, string) {
				s := build(sc)
				s.fireEveryTick = everyTick
				s.EnableTrace()
				sum := s.Run()
				js, err := json.Marshal(sum)
				require.NoError(t, err)
				var trace strings.Builder
				require.NoError(t, WriteTraceJSONL(&trace, s.Trace()))
				return s, string(js) + "\n" + trace.String()
			}
			a, aOut := run(false)
			b, bOut := run(true)
			require.Equal(t, bOut, aOut, "summary and trace")
			require.Equal(t, b.Steps(), a.Steps())
			require.Equal(t, b.pcg, a.pcg, "random source")
			require.Equal(t, [2]uint64{b.seq, b.nextID}, [2]uint64{a.seq, a.nextID}, "events and timers queued")
			require.Equal(t, b.queue.lanes, a.queue.lanes, "what is left queued, in order")
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
