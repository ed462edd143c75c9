package app

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/lockscope/lockscope/assets"
	"github.com/lockscope/lockscope/sim"
)

func labels(cs []FaultChoice) []string {
	var out []string
	for _, c := range cs {
		out = append(out, c.Label)
	}
	return out
}

func TestFaultChoices(t *testing.T) {
	withReplica, err := Preset("redis-failover")
	require.NoError(t, err)
	single, err := Preset("redis-happy-path")
	require.NoError(t, err)
	snap := func(sc *sim.Scenario) *sim.Snapshot {
		rec, err := sim.Record(sc)
		require.NoError(t, err)
		return rec.At(0)
	}

	for _, tc := range []struct {
		name  string
		sc    *sim.Scenario
		node  string
		pause time.Duration
		want  []string
	}{
		{"client", single, "client-1", 0, []string{"Pause for 15.000 s (GC / SIGSTOP)", "Crash",
			"Cut off from every other node for 12.000 s", "Clock jumps forward 10.000 s", "Clock jumps back 10.000 s", "Clock jumps forward 10.000 s, its monotonic clock too"}},
		{"pause length from the scenario", single, "client-2", 5 * time.Second, []string{"Pause for 5.000 s (GC / SIGSTOP)", "Crash",
			"Cut off from every other node for 12.000 s", "Clock jumps forward 10.000 s", "Clock jumps back 10.000 s", "Clock jumps forward 10.000 s, its monotonic clock too"}},
		{"master without replica", single, "redis-1", 0, []string{"Pause for 15.000 s (GC / SIGSTOP)", "Crash",
			"Cut off from every other node for 12.000 s", "Clock jumps forward 10.000 s", "Clock jumps back 10.000 s", "Clock jumps forward 10.000 s, its monotonic clock too"}},
		{"master with replica", withReplica, "redis-1", 0, []string{"Pause for 15.000 s (GC / SIGSTOP)", "Crash",
			"Fail over to the replica", "Cut off from every other node for 12.000 s", "Clock jumps forward 10.000 s", "Clock jumps back 10.000 s", "Clock jumps forward 10.000 s, its monotonic clock too"}},
		{"replica", withReplica, "redis-2", 0, []string{"Pause for 15.000 s (GC / SIGSTOP)", "Crash",
			"Cut off from every other node for 12.000 s", "Clock jumps forward 10.000 s", "Clock jumps back 10.000 s", "Clock jumps forward 10.000 s, its monotonic clock too"}},
		{"unknown node", single, "redis-9", 0, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.want, labels(FaultChoices(tc.sc, snap(tc.sc), tc.node, tc.pause)))
		})
	}

	s := snap(single)
	s.Nodes[0].Crashed = true
	for i := range s.Nodes {
		if s.Nodes[i].Name == "redis-1" {
			s.Nodes[i].Crashed = true
		}
	}
	assert.Equal(t, []string{"Restart"}, labels(FaultChoices(single, s, "client-1", 0)))
	server := FaultChoices(single, s, "redis-1", 0)
	require.Len(t, server, 2)
	assert.True(t, server[0].Fault.Persist, "a server can come back with its AOF")
	assert.False(t, server[1].Fault.Persist)
}

func TestEveryFaultChoiceValidates(t *testing.T) {
	for _, name := range assets.PresetsFor("redis") {
		sc, err := Preset(name)
		require.NoError(t, err)
		rec, err := sim.Record(sc)
		require.NoError(t, err)
		snap := rec.At(rec.End() / 2)
		for _, n := range snap.Nodes {
			for _, ch := range FaultChoices(sc, snap, n.Name, 0) {
				c := sc.Clone()
				f := ch.Fault
				f.At = sim.Duration(rec.End() / 2)
				c.Faults = append(c.Faults, f)
				assert.NoError(t, c.Validate(), "%s: %s on %s", name, ch.Label, n.Name)
			}
		}
	}
}

// TestPartitionChoiceCutsTheHolderOff: the node menu's partition isolates a
// Redis holder; its lease runs out and another client gets the lock.
func TestPartitionChoiceCutsTheHolderOff(t *testing.T) {
	sc, err := Preset("redis-happy-path")
	require.NoError(t, err)
	rec, err := sim.Record(sc)
	require.NoError(t, err)
	at := 500 * time.Millisecond
	var cut *FaultChoice
	for _, ch := range FaultChoices(sc, rec.At(at), "client-1", 0) {
		if ch.Fault.Kind() == sim.FaultPartition {
			cut = &ch
		}
	}
	require.NotNil(t, cut)
	c := sc.Clone()
	f := cut.Fault
	f.At = sim.Duration(at)
	c.Faults = append(c.Faults, f)
	c.Work = sim.Duration(15 * time.Second)
	forked, err := sim.Record(c)
	require.NoError(t, err)
	assert.GreaterOrEqual(t, forked.Summary().Violations, 1, "client-1 keeps working while cut off; its key expires")
}
