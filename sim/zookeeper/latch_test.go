package zookeeper_test

import (
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/lockscope/lockscope/sim"
	"github.com/lockscope/lockscope/sim/simtest"
	"github.com/lockscope/lockscope/sim/zookeeper"
)

// latchScenario is an election of n candidates on a 6 s session, 3 s of
// the leader's work a period.
func latchScenario(t *testing.T, n, periods int, faults ...sim.Fault) *sim.Scenario {
	t.Helper()
	sc, err := sim.Defaults("zookeeper")
	require.NoError(t, err)
	sc.Clients, sc.Rounds = n, 1
	sc.TTL, sc.Work, sc.Duration = sim.Duration(6*time.Second), sim.Duration(3*time.Second), sim.Duration(40*time.Second)
	zookeeper.Use.Set(sc, zookeeper.UseElection)
	zookeeper.LeadPeriods.Set(sc, periods)
	sc.Faults = faults
	require.NoError(t, sc.Validate())
	return sc
}

// TestLeaderLatch: Curator's LeaderLatch (LeaderLatch.java,
// apache-curator-5.9.0) as the simulation runs it, behaviour by behaviour.
func TestLeaderLatch(t *testing.T) {
	at := func(d time.Duration) sim.Duration { return sim.Duration(d) }
	tests := []struct {
		name  string
		sc    func(t *testing.T) *sim.Scenario
		check func(t *testing.T, rec *sim.Recording, sum sim.Summary, m sim.Metrics)
	}{
		{"latch- nodes, the lowest leads after a getData of its own node", func(t *testing.T) *sim.Scenario {
			return latchScenario(t, 3, 3)
		}, func(t *testing.T, rec *sim.Recording, sum sim.Summary, m sim.Metrics) {
			lead := zkTrace(rec, "client-1", "lock", "isLeader", "")
			require.Len(t, lead, 1)
			assert.Contains(t, lead[0].Note, "-"+zookeeper.LatchName+"0000000000", "a protected latch- node, sequence 0")
			assert.True(t, strings.HasPrefix(lead[0].Note, zookeeper.ProtectedPrefix), "protected mode: _c_<guid>-")
			assert.Equal(t, []string{"client-1", "client-2", "client-3"}, zkGrantClients(sum), "in the order of their nodes")
			assert.Equal(t, []int64{0, 1, 2}, []int64{sum.Grants[0].Token, sum.Grants[1].Token, sum.Grants[2].Token})
		}},
		{"a leader works period after period, resigns after leadPeriods", func(t *testing.T) *sim.Scenario {
			return latchScenario(t, 2, 3)
		}, func(t *testing.T, rec *sim.Recording, sum sim.Summary, m sim.Metrics) {
			assert.Equal(t, 6, sum.Writes, "3 periods each, one write a period")
			assert.Equal(t, 2, sum.Acquisitions, "one grant per leadership, not per period")
			assert.Equal(t, 2, sum.Releases)
			closes := zkTrace(rec, "client-1", "lock", "close", "3 periods led")
			require.Len(t, closes, 1)
			assert.InDelta(t, 9.0, closes[0].At.Seconds(), 0.1, "3 periods of 3 s")
			assert.InDelta(t, closes[0].At.Seconds(), sum.Grants[1].AtMs/1000, 0.05, "the next node's watch fires at once")
			assert.Zero(t, m.SeveralHoldersMs)
		}},
		{"leadPeriods 0: the leader leads until the end", func(t *testing.T) *sim.Scenario {
			return latchScenario(t, 2, 0)
		}, func(t *testing.T, rec *sim.Recording, sum sim.Summary, m sim.Metrics) {
			assert.Equal(t, []string{"client-1"}, zkGrantClients(sum))
			assert.Equal(t, 0, sum.Releases)
			assert.GreaterOrEqual(t, sum.Writes, 12, "a write every 3 s for 40 s")
		}},
		{"a crashed leader's session expires: the next leads, no two leaders", func(t *testing.T) *sim.Scenario {
			return latchScenario(t, 2, 0, sim.Fault{At: at(5 * time.Second), Crash: "client-1"})
		}, func(t *testing.T, rec *sim.Recording, sum sim.Summary, m sim.Metrics) {
			require.Equal(t, []string{"client-1", "client-2"}, zkGrantClients(sum))
			took := sum.Grants[1].AtMs/1000 - 5
			assert.GreaterOrEqual(t, took, 6.0, "not before the session timeout")
			assert.Less(t, took, 6.0+2*float64(zookeeper.TickTime)/float64(time.Second)+0.1, "the session tracker's buckets")
			assert.Zero(t, m.SeveralHoldersMs)
			assert.InDelta(t, took*1000, m.NoHolderMs-sum.Grants[0].AtMs, 1, "vacant from the crash to the next grant")
		}},
		{"SUSPENDED: notLeader before the session expires", func(t *testing.T) *sim.Scenario {
			sc := latchScenario(t, 2, 0, sim.Fault{At: at(4 * time.Second), Partition: [][]string{{"client-1"}}, For: at(20 * time.Second)})
			zookeeper.RespectSuspended.Set(sc, true)
			return sc
		}, func(t *testing.T, rec *sim.Recording, sum sim.Summary, m sim.Metrics) {
			told := zkTrace(rec, "client-1", "unheld", "", "notLeader (SUSPENDED)")
			require.Len(t, told, 1)
			require.Len(t, sum.Grants, 2)
			assert.Less(t, told[0].At.Seconds(), sum.Grants[1].AtMs/1000, "it stepped down before client-2 leads")
			assert.Equal(t, 0, sum.Violations)
			assert.Equal(t, 0, sum.StaleWritesAccepted)
			assert.Len(t, zkTrace(rec, "client-1", "unheld", "", "hasLeadership() is false"), 1, "its worker does not write")
		}},
		{"SUSPENDED under the session policy: it leads on, two leaders", func(t *testing.T) *sim.Scenario {
			sc := latchScenario(t, 2, 0, sim.Fault{At: at(4 * time.Second), Partition: [][]string{{"client-1"}}, For: at(20 * time.Second)})
			zookeeper.RespectSuspended.Set(sc, false)
			return sc
		}, func(t *testing.T, rec *sim.Recording, sum sim.Summary, m sim.Metrics) {
			assert.Empty(t, zkTrace(rec, "client-1", "unheld", "", "notLeader (SUSPENDED)"))
			lost := zkTrace(rec, "client-1", "unheld", "", "notLeader (LOST)")
			require.Len(t, lost, 1, "LOST is notLeader whatever the policy")
			assert.Equal(t, 1, sum.Violations)
			require.Len(t, sum.Grants, 2)
			assert.InDelta(t, lost[0].At.Seconds()-sum.Grants[1].AtMs/1000, m.SeveralHoldersMs/1000, 0.01, "two leaders from client-2's grant to LOST")
		}},
		{"RECONNECTED in the same session: getChildren, still the lowest, leads again", func(t *testing.T) *sim.Scenario {
			sc := latchScenario(t, 2, 0, sim.Fault{At: at(4 * time.Second), Partition: [][]string{{"client-1"}, {"zk-1", "zk-2", "zk-3", "client-2"}}, For: at(4500 * time.Millisecond)})
			zookeeper.RespectSuspended.Set(sc, true)
			return sc
		}, func(t *testing.T, rec *sim.Recording, sum sim.Summary, m sim.Metrics) {
			require.Len(t, zkTrace(rec, "client-1", "unheld", "", "notLeader (SUSPENDED)"), 1)
			require.NotEmpty(t, zkTrace(rec, "client-1", "state", "RECONNECTED", ""))
			lead := zkTrace(rec, "client-1", "lock", "isLeader", "")
			require.Len(t, lead, 2, "setLeadership(true) again after the re-check")
			assert.Equal(t, []string{"client-1"}, uniq(zkGrantClients(sum)), "client-2 never leads")
			assert.Equal(t, 0, sum.Violations)
		}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			rec, err := sim.Record(tc.sc(t))
			require.NoError(t, err)
			tc.check(t, rec, rec.Summary(), rec.Metrics(rec.End()))
		})
	}
}

func uniq(xs []string) []string {
	var out []string
	for _, x := range xs {
		if len(out) == 0 || out[len(out)-1] != x {
			out = append(out, x)
		}
	}
	return out
}

// TestLeaderLatchPresets: the two presets tell what their captions say.
func TestLeaderLatchPresets(t *testing.T) {
	for _, tc := range []struct {
		preset     string
		edit       func(*sim.Scenario)
		leaders    []string
		violations int
		accepted   int
	}{
		{"zk-leader-latch", nil, []string{"client-1", "client-2", "client-3"}, 0, 0},
		{"zk-leader-latch-suspended", nil, []string{"client-1", "client-2"}, 0, 0},
		{"zk-leader-latch-suspended", func(sc *sim.Scenario) { zookeeper.RespectSuspended.Set(sc, false) }, []string{"client-1", "client-2"}, 1, 1},
	} {
		t.Run(tc.preset, func(t *testing.T) {
			rec, err := sim.Record(simtest.Preset(t, tc.preset, tc.edit))
			require.NoError(t, err)
			sum := rec.Summary()
			assert.Equal(t, tc.leaders, zkGrantClients(sum))
			assert.Equal(t, tc.violations, sum.Violations)
			assert.Equal(t, tc.accepted, sum.StaleWritesAccepted)
		})
	}
}
