package etcd_test

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/lockscope/lockscope/sim"
	"github.com/lockscope/lockscope/sim/etcd"
	"github.com/lockscope/lockscope/sim/simtest"
)

// etcdRun runs a scenario to its end with the trace on.
func etcdRun(t *testing.T, sc *sim.Scenario) (*sim.Sim, sim.Summary) {
	t.Helper()
	s, err := sim.New(sc)
	require.NoError(t, err)
	s.EnableTrace()
	return s, s.Run()
}

func etcdPreset(t *testing.T, name string) *sim.Scenario {
	t.Helper()
	sc, err := simtest.Load(name)
	require.NoError(t, err)
	return sc
}

// grantOf is the first grant of a client; ok false if it never got one.
func etcdGrantOf(sum sim.Summary, client string) (sim.GrantSummary, bool) {
	for _, g := range sum.Grants {
		if g.Client == client {
			return g, true
		}
	}
	return sim.GrantSummary{}, false
}

// traceAt is the time of the first trace event matching all the given
// fields (empty ones match anything) and containing note; -1 if none.
func etcdTraceAt(s *sim.Sim, node, kind, op, note string) time.Duration {
	for _, e := range s.Trace() {
		if (node == "" || e.Node == node) && (kind == "" || e.Kind.String() == kind) && (op == "" || e.Op == op) && strings.Contains(e.Note, note) {
			return e.At
		}
	}
	return -1
}

func etcdMs(x float64) time.Duration { return time.Duration(x * float64(time.Millisecond)) }

func TestEtcdPresets(t *testing.T) {
	tests := []struct {
		preset string
		check  func(t *testing.T, s *sim.Sim, sum sim.Summary)
	}{
		{"etcd-happy-path", func(t *testing.T, s *sim.Sim, sum sim.Summary) {
			assert.Equal(t, 4, sum.Acquisitions)
			assert.Equal(t, 0, sum.Violations)
			assert.True(t, sum.Safe)
			require.Len(t, sum.Grants, 4)
			// Grants follow the create revisions: the keys were put in
			// client order, at revisions 2, 3, 4, 5.
			for i, g := range sum.Grants {
				assert.Equal(t, sim.ClientName(i), g.Client)
				assert.Equal(t, int64(i+2), g.Token)
			}
			assert.Equal(t, 3, sum.WatchNotifications, "one delete event per hand-over")
		}},
		{"etcd-lease-expiry", func(t *testing.T, s *sim.Sim, sum sim.Summary) {
			assert.Equal(t, 1, sum.Violations)
			assert.Equal(t, 1, sum.ExpiredWhileHeld)
			assert.Equal(t, 1, sum.StaleWritesAccepted)
			assert.False(t, sum.Safe)
			g1, ok1 := etcdGrantOf(sum, "client-1")
			g2, ok2 := etcdGrantOf(sum, "client-2")
			require.True(t, ok1 && ok2)
			// The successor is granted once the 2 s lease ran out, while
			// client-1 is still paused (0.5 s to 3.5 s).
			assert.Greater(t, etcdMs(g2.AtMs), etcdMs(g1.AtMs)+2*time.Second)
			assert.Less(t, etcdMs(g2.AtMs), 3500*time.Millisecond)
			assert.Greater(t, etcdTraceAt(s, "etcd-1", "lease", "revoke", "expired by the leader's clock"), time.Duration(0))
			w := s.Check.Writes()
			require.Len(t, w, 2)
			assert.Equal(t, s.Lookup("client-1"), w[1].Client, "client-1 writes last")
			assert.True(t, w[1].Stale && w[1].Accepted)
			assert.Greater(t, etcdTraceAt(s, "client-1", "session", "Done", "TTL 0"), 3500*time.Millisecond)
		}},
		{"etcd-fenced-txn", func(t *testing.T, s *sim.Sim, sum sim.Summary) {
			assert.Equal(t, 1, sum.Violations, "the beliefs still overlap")
			assert.Equal(t, 0, sum.StaleWritesAccepted)
			assert.Equal(t, 1, sum.StaleWritesRejected)
			assert.True(t, sum.Safe)
			w := s.Check.Writes()
			require.Len(t, w, 2)
			assert.Equal(t, s.Lookup("client-2"), w[0].Client)
			assert.True(t, w[0].Accepted)
			assert.Equal(t, int64(2), w[1].Token, "client-1's guard is its create revision")
			assert.False(t, w[1].Accepted)
		}},
		{"etcd-minority-partition", func(t *testing.T, s *sim.Sim, sum sim.Summary) {
			assert.Equal(t, 0, sum.Violations)
			assert.True(t, sum.Safe)
			g2, ok := etcdGrantOf(sum, "client-2")
			require.True(t, ok)
			assert.Less(t, etcdMs(g2.AtMs), 9*time.Second, "the majority side keeps going")
			g3, ok := etcdGrantOf(sum, "client-3")
			require.True(t, ok)
			assert.Greater(t, etcdMs(g3.AtMs), 9*time.Second, "the cut-off side waits for the heal")
			assert.Equal(t, time.Duration(-1), etcdTraceAt(s, "etcd-3", "raft", "leader", ""), "pre-vote keeps etcd-3 from taking over")
			assert.Greater(t, etcdTraceAt(s, "etcd-3", "raft", "MsgPreVote", ""), time.Second)
			expired := etcdTraceAt(s, "client-3", "lock", "", "mutex: session is expired")
			assert.Greater(t, expired, 9*time.Second)
			assert.Less(t, expired, etcdMs(g3.AtMs))
		}},
		{"etcd-leader-crash", func(t *testing.T, s *sim.Sim, sum sim.Summary) {
			assert.Equal(t, 0, sum.Violations)
			assert.Equal(t, 4, sum.Acquisitions)
			elected := etcdTraceAt(s, "", "raft", "leader", "term 2")
			require.Greater(t, elected, 2500*time.Millisecond)
			assert.Less(t, elected, 2500*time.Millisecond+2*etcd.ElectionTimeout+100*time.Millisecond)
			for _, g := range sum.Grants {
				at := etcdMs(g.AtMs)
				assert.False(t, at > 2500*time.Millisecond && at < elected, "%s granted during the election", g.Client)
			}
			last := sum.Grants[len(sum.Grants)-1]
			assert.Greater(t, etcdMs(last.AtMs), elected, "the queue continues under the new leader")
			for i, g := range sum.Grants {
				assert.Equal(t, int64(i+2), g.Token)
			}
		}},
	}
	for _, tt := range tests {
		t.Run(tt.preset, func(t *testing.T) {
			sc := etcdPreset(t, tt.preset)
			require.GreaterOrEqual(t, len(sc.Captions), 3)
			require.LessOrEqual(t, len(sc.Captions), 6)
			for _, c := range sc.Captions {
				assert.NotEmpty(t, c.Text)
				assert.NotEmpty(t, c.Zh)
			}
			s, sum := etcdRun(t, sc)
			tt.check(t, s, sum)
		})
	}
}

// TestEtcdLeaderCrashStallsWrites checks that nothing commits between the
// crash and the election: every live member's revision stays put.
func TestEtcdLeaderCrashStallsWrites(t *testing.T) {
	sc := etcdPreset(t, "etcd-leader-crash")
	s, _ := etcdRun(t, sc)
	elected := etcdTraceAt(s, "", "raft", "leader", "term 2")
	rec, err := sim.Record(sc)
	require.NoError(t, err)
	revAt := func(at time.Duration) (max int64) {
		for _, m := range etcd.ViewOf(rec.At(at)).Members {
			if m.Name != "etcd-1" && m.Revision > max {
				max = m.Revision
			}
		}
		return max
	}
	before := revAt(2500 * time.Millisecond)
	assert.Equal(t, before, revAt(elected-time.Millisecond), "no write commits without a leader")
	assert.Greater(t, revAt(sc.Duration.D()), before, "writes continue after the election")
	after := etcd.ViewOf(rec.At(elected + 20*time.Millisecond))
	assert.NotEqual(t, "etcd-1", after.Leader)
	assert.NotEmpty(t, after.Leader)
	assert.Equal(t, int64(2), after.Term)
}

// TestEtcdPromoteExtendsLeases: the new leader refreshes every lease to
// election timeout + TTL, so the outage costs no lease. Clients whose
// keepalives were held through the election renew at once (TTL left);
// client-4, paused, keeps the extension.
func TestEtcdPromoteExtendsLeases(t *testing.T) {
	sc := etcdPreset(t, "etcd-leader-crash")
	sc.Faults = append(sc.Faults, sim.Fault{At: sim.Duration(2 * time.Second), Pause: "client-4", For: sim.Duration(4 * time.Second)})
	s, _ := etcdRun(t, sc)
	promoted := etcdTraceAt(s, "", "lease", "promote", "")
	require.Greater(t, promoted, time.Duration(0))
	rec, err := sim.Record(sc)
	require.NoError(t, err)
	v := etcd.ViewOf(rec.At(promoted))
	require.Len(t, v.Leases, 3)
	for _, l := range v.Leases {
		assert.False(t, l.Frozen)
		if l.Client == "client-4" {
			assert.Equal(t, sc.TTL.D()+etcd.ElectionTimeout, l.Left, "lease %x", l.ID)
		} else {
			assert.Equal(t, sc.TTL.D(), l.Left, "lease %x", l.ID)
		}
	}
	// During the election no lessor is primary: leases are frozen.
	mid := etcd.ViewOf(rec.At(3 * time.Second))
	assert.Empty(t, mid.Leader)
	for _, l := range mid.Leases {
		assert.True(t, l.Frozen)
	}
}

func TestEtcdMinLeaseTTL(t *testing.T) {
	tests := []struct {
		ttl, want time.Duration
	}{
		{1 * time.Second, 2 * time.Second}, // raised to ceil(1.5 × 1 s)
		{1500 * time.Millisecond, 2 * time.Second},
		{2 * time.Second, 2 * time.Second},
		{2500 * time.Millisecond, 3 * time.Second}, // leases are whole seconds
		{7 * time.Second, 7 * time.Second},
	}
	assert.Equal(t, 2*time.Second, etcd.MinLeaseTTL)
	for _, tt := range tests {
		t.Run(tt.ttl.String(), func(t *testing.T) {
			sc := etcdPreset(t, "etcd-happy-path")
			sc.Clients, sc.Work, sc.TTL = 1, sim.Duration(5*time.Second), sim.Duration(tt.ttl)
			s, err := sim.New(sc)
			require.NoError(t, err)
			s.RunUntil(time.Second)
			v := etcd.ViewOf(s.Snapshot())
			require.Len(t, v.Leases, 1)
			assert.Equal(t, tt.want, v.Leases[0].TTL)
			assert.Contains(t, s.Snapshot().Nodes[0].Detail, "ttl "+tt.want.String())
		})
	}
}

// TestEtcdKeepAliveCadence: clientv3 sends the next keepalive on the first
// tick of its 500 ms loop after TTL/3 has passed since the last answer.
func TestEtcdKeepAliveCadence(t *testing.T) {
	for _, ttl := range []time.Duration{2 * time.Second, 3 * time.Second, 6 * time.Second, 10 * time.Second} {
		t.Run(ttl.String(), func(t *testing.T) {
			sc := etcdPreset(t, "etcd-happy-path")
			sc.Clients, sc.TTL, sc.Work = 1, sim.Duration(ttl), sim.Duration(30*time.Second)
			sc.Duration = sim.Duration(25 * time.Second)
			s, _ := etcdRun(t, sc)
			var sends []time.Duration
			for _, e := range s.Trace() {
				if e.Node == "client-1" && e.Kind == sim.TraceSend && e.Op == "KeepAlive" {
					sends = append(sends, e.At)
				}
			}
			require.Greater(t, len(sends), 3)
			for i := 1; i < len(sends); i++ {
				gap := sends[i] - sends[i-1]
				assert.GreaterOrEqual(t, gap, ttl/3, "keepalive %d", i)
				assert.LessOrEqual(t, gap, ttl/3+500*time.Millisecond+10*time.Millisecond, "keepalive %d", i)
				assert.Zero(t, gap%(500*time.Millisecond), "on the 500 ms send loop")
			}
			// The lease never comes near expiry by the leader's clock.
			for at := 2 * time.Second; at < 24*time.Second; at += 700 * time.Millisecond {
				s2, err := sim.New(sc)
				require.NoError(t, err)
				s2.RunUntil(at)
				v := etcd.ViewOf(s2.Snapshot())
				require.Len(t, v.Leases, 1)
				assert.Greater(t, v.Leases[0].Left, ttl-ttl/3-600*time.Millisecond, "at %v", at)
			}
		})
	}
}

func TestEtcdValidate(t *testing.T) {
	tests := []struct {
		field, json string
	}{
		{"plainDel", `"plainDel": true`},
		{"replica", `"replica": true`},
		{"sequential", `"sequential": true`},
		{"watchdog", `"watchdog": true`},
		{"nodes", `"nodes": 0`},
		{"nodes", `"nodes": 8`},
		{"faults[0].failover", `"faults": [{"at": "1s", "failover": "etcd-1"}]`},
	}
	for _, tt := range tests {
		t.Run(tt.json, func(t *testing.T) {
			_, err := sim.ParseScenario([]byte(`{"mode": "etcd", ` + tt.json + `}`))
			require.Error(t, err)
			assert.True(t, strings.HasPrefix(err.Error(), tt.field+":"), err.Error())
		})
	}
	for _, n := range []int{1, 3, 7} {
		sc, err := sim.ParseScenario([]byte(fmt.Sprintf(`{"mode": "etcd", "nodes": %d, "herd": true, "fencing": true}`, n)))
		require.NoError(t, err)
		assert.Equal(t, n, len(sc.ServerNames()))
		assert.Equal(t, fmt.Sprintf("etcd-%d", n), sc.ServerNames()[n-1])
	}
	sc, err := sim.Defaults("etcd")
	require.NoError(t, err)
	assert.Equal(t, 3, etcd.Nodes.Of(sc))
}

// TestEtcdHerd: with herd every waiter watches the whole prefix, so every
// put and delete under it reaches every waiter.
func TestEtcdHerd(t *testing.T) {
	counts := map[bool]int{}
	for _, herd := range []bool{false, true} {
		sc := etcdPreset(t, "etcd-happy-path")
		sc.Clients = 6
		etcd.Herd.Set(sc, herd)
		_, sum := etcdRun(t, sc)
		assert.Equal(t, 6, sum.Acquisitions)
		assert.Equal(t, 0, sum.Violations)
		for i, g := range sum.Grants {
			assert.Equal(t, int64(i+2), g.Token, "herd %v", herd)
		}
		counts[herd] = sum.WatchNotifications
		if herd {
			rec, err := sim.Record(sc)
			require.NoError(t, err)
			v := etcd.ViewOf(rec.At(time.Second))
			require.NotEmpty(t, v.Watches)
			for _, w := range v.Watches {
				assert.Equal(t, etcd.Prefix, w.Path)
			}
		}
	}
	assert.Equal(t, 5, counts[false], "one delete per hand-over")
	assert.Greater(t, counts[true], 3*counts[false])
}

// TestEtcdView checks the keyspace picture while three clients queue.
func TestEtcdView(t *testing.T) {
	sc := etcdPreset(t, "etcd-happy-path")
	s, err := sim.New(sc)
	require.NoError(t, err)
	s.RunUntil(500 * time.Millisecond)
	snap := s.Snapshot()
	v := etcd.ViewOf(snap)
	require.NotNil(t, v)
	assert.Equal(t, etcd.Prefix, v.Prefix)
	assert.Equal(t, "etcd-1", v.Leader)
	assert.Equal(t, int64(5), v.Revision)
	require.Len(t, v.Keys, 4)
	require.Len(t, v.Leases, 4)
	leases := map[int64]etcd.Lease{}
	for _, l := range v.Leases {
		leases[l.ID] = l
		assert.Equal(t, 10*time.Second, l.TTL)
		assert.True(t, l.Left > 0 && l.Left <= l.TTL)
	}
	for i, k := range v.Keys {
		assert.Equal(t, sim.ClientName(i), k.Owner)
		assert.Equal(t, int64(i+2), k.CreateRev)
		assert.Equal(t, fmt.Sprintf("%s%x", etcd.Prefix, k.Lease), k.Key)
		assert.Equal(t, i == 0, k.Holder)
		assert.Equal(t, leases[k.Lease].Left, k.LeaseLeft)
		assert.Equal(t, k.Owner, leases[k.Lease].Client)
	}
	require.Len(t, v.Watches, 3)
	for i, w := range v.Watches {
		assert.Equal(t, sim.ClientName(i+1), w.Client)
		assert.Equal(t, v.Keys[i].Key, w.Path, "each waiter watches the key just before its own")
	}
	require.Len(t, v.Members, 3)
	for i, m := range v.Members {
		assert.Equal(t, fmt.Sprintf("etcd-%d", i+1), m.Name)
		assert.Equal(t, int64(5), m.Revision)
		assert.Equal(t, i == 0, m.Primary)
		n := snap.Nodes[m.Node]
		assert.Equal(t, m.Role, n.Role)
		assert.Contains(t, n.Detail, "rev 5")
	}
	assert.Equal(t, etcd.RoleLeader, snap.Nodes[v.Members[0].Node].Role)
	assert.Equal(t, etcd.RoleFollower, snap.Nodes[v.Members[1].Node].Role)
	for i := 0; i < 4; i++ {
		n := snap.Nodes[i]
		assert.Equal(t, "alive", n.Session)
		assert.Contains(t, n.Detail, "keepalives")
	}
	assert.Equal(t, sim.StateHolding, snap.Nodes[0].State)
	assert.Equal(t, sim.StateWaiting, snap.Nodes[3].State)
}

// TestEtcdRevisions: one revision per committed write; lease grants,
// keepalives and a revoke with no key attached do not bump it.
func TestEtcdRevisions(t *testing.T) {
	sc := etcdPreset(t, "etcd-happy-path")
	s, sum := etcdRun(t, sc)
	require.Equal(t, 4, sum.Acquisitions)
	v := etcd.ViewOf(s.Snapshot())
	assert.Equal(t, int64(1+4+4), v.Revision, "initial revision 1, four puts, four deletes")
	assert.Empty(t, v.Keys)
	assert.Empty(t, v.Leases, "every session closed by revoking its lease")

	sc.Fencing = true
	s, _ = etcdRun(t, sc)
	assert.Equal(t, int64(1+4+4+4), etcd.ViewOf(s.Snapshot()).Revision, "each guarded write is one more revision")
}

// TestEtcdCrashedHolderBlocksUntilLeaseExpires: the lease is the only thing
// that frees the lock of a crashed holder.
func TestEtcdCrashedHolderBlocksUntilLeaseExpires(t *testing.T) {
	sc := etcdPreset(t, "etcd-happy-path")
	sc.Clients, sc.TTL, sc.Work = 2, sim.Duration(5*time.Second), sim.Duration(3*time.Second)
	sc.Faults = []sim.Fault{{At: sim.Duration(time.Second), Crash: "client-1"}}
	s, sum := etcdRun(t, sc)
	assert.Equal(t, 0, sum.Violations)
	g2, ok := etcdGrantOf(sum, "client-2")
	require.True(t, ok)
	// Last keepalive answer before 1 s, plus the 5 s TTL, plus up to one
	// 500 ms lessor pass.
	assert.Greater(t, etcdMs(g2.AtMs), 5*time.Second)
	assert.Less(t, etcdMs(g2.AtMs), time.Second+5*time.Second+600*time.Millisecond)
	assert.Greater(t, etcdTraceAt(s, "", "lease", "revoke", "expired by the leader's clock"), time.Duration(0))
}

func TestEtcdSingleMember(t *testing.T) {
	sc := etcdPreset(t, "etcd-happy-path")
	etcd.Nodes.Set(sc, 1)
	s, sum := etcdRun(t, sc)
	assert.Equal(t, 4, sum.Acquisitions)
	assert.Equal(t, 0, sum.Violations)
	assert.Equal(t, "etcd-1", etcd.ViewOf(s.Snapshot()).Leader)
}

// TestEtcdRestartedMemberCatchesUp: a member that lost its data rejoins
// empty and the leader replicates the whole log to it again.
func TestEtcdRestartedMemberCatchesUp(t *testing.T) {
	sc := etcdPreset(t, "etcd-happy-path")
	sc.Faults = []sim.Fault{
		{At: sim.Duration(500 * time.Millisecond), Crash: "etcd-2"},
		{At: sim.Duration(2 * time.Second), Restart: "etcd-2"},
	}
	_, sum := etcdRun(t, sc)
	assert.Equal(t, 4, sum.Acquisitions)
	assert.Equal(t, 0, sum.Violations)
	s, err := sim.New(sc)
	require.NoError(t, err)
	s.RunUntil(10 * time.Second)
	v := etcd.ViewOf(s.Snapshot())
	require.Len(t, v.Members, 3)
	assert.Equal(t, v.Members[0].Commit, v.Members[1].Commit)
	assert.Equal(t, v.Members[0].Revision, v.Members[1].Revision)
	assert.Equal(t, "etcd-1", v.Leader)
}

// TestEtcdDeterministic: same scenario, same seed, same trace.
func TestEtcdDeterministic(t *testing.T) {
	for _, name := range simtest.PresetsFor("etcd") {
		t.Run(name, func(t *testing.T) {
			a, sa := etcdRun(t, etcdPreset(t, name))
			b, sb := etcdRun(t, etcdPreset(t, name))
			assert.Equal(t, sa, sb)
			assert.Equal(t, a.Trace(), b.Trace())
		})
	}
}

// TestEtcdSeekMatchesFreshRun: a snapshot rebuilt from a checkpoint clone
// equals the one of a run played straight to that instant, in any seek
// order, so Clone shares nothing with the original.
func TestEtcdSeekMatchesFreshRun(t *testing.T) {
	for _, name := range simtest.PresetsFor("etcd") {
		t.Run(name, func(t *testing.T) {
			sc := etcdPreset(t, name)
			rec, err := sim.Record(sc)
			require.NoError(t, err)
			end := rec.End()
			times := []time.Duration{end * 7 / 8, end / 8, end / 2, 2500 * time.Millisecond, end / 2, end * 7 / 8}
			for _, at := range times {
				got := rec.At(at)
				s, err := sim.New(sc)
				require.NoError(t, err)
				s.RunUntil(at)
				want := s.Snapshot()
				assert.Equal(t, etcd.ViewOf(want), etcd.ViewOf(got), "at %v", at)
				assert.Equal(t, want.Nodes, got.Nodes, "at %v", at)
				assert.Equal(t, want.InFlight, got.InFlight, "at %v", at)
			}
		})
	}
}

func TestEtcdLeaseIDs(t *testing.T) {
	sc := etcdPreset(t, "etcd-happy-path")
	s, err := sim.New(sc)
	require.NoError(t, err)
	s.RunUntil(time.Second)
	v := etcd.ViewOf(s.Snapshot())
	seen := map[int64]bool{}
	for _, l := range v.Leases {
		assert.False(t, seen[l.ID])
		seen[l.ID] = true
		assert.Positive(t, l.ID)
		// idutil.Generator: 16 bits of member id, 40 bits of the boot time
		// in ms, 8 bits of counter (still below 256 here).
		assert.Equal(t, uint64(1767225600000)&(1<<40-1), (uint64(l.ID)>>8)&(1<<40-1), "boot-time bits of %x", l.ID)
		assert.Equal(t, fmt.Sprintf("%s%x", etcd.Prefix, l.ID), etcdKeyOf(v, l.ID))
	}
}

func etcdKeyOf(v *etcd.View, lease int64) string {
	for _, k := range v.Keys {
		if k.Lease == lease {
			return k.Key
		}
	}
	return ""
}

// etcdRandomScenario mixes pauses, partitions, crashes and restarts of
// clients and members, clock jumps and drift.
func etcdRandomScenario(seed uint64) *sim.Scenario {
	r := rand.New(rand.NewPCG(seed, 11))
	sc, _ := sim.Defaults("etcd")
	sc.Seed = int64(seed)
	sc.Duration = sim.Duration(30 * time.Second)
	sc.Clients = 1 + r.IntN(5)
	etcd.Nodes.Set(sc, 1+r.IntN(5))
	sc.Rounds = r.IntN(4)
	sc.TTL = sim.Duration(time.Duration(1+r.IntN(6)) * time.Second)
	sc.Work = sim.Duration(time.Duration(r.IntN(3000)) * time.Millisecond)
	sc.Think = sim.Duration(time.Duration(r.IntN(1000)) * time.Millisecond)
	sc.Latency = sim.Duration(time.Duration(1+r.IntN(20)) * time.Millisecond)
	sc.Jitter = sim.Duration(time.Duration(r.IntN(10)) * time.Millisecond)
	sc.Fencing = r.IntN(2) == 0
	etcd.Herd.Set(sc, r.IntN(3) == 0)
	sc.ClockDrift = float64(r.IntN(3)) * 0.01
	nodes := append(sc.ClientNames(), sc.ServerNames()...)
	pick := func() string { return nodes[r.IntN(len(nodes))] }
	for i := r.IntN(6); i > 0; i-- {
		at := sim.Duration(time.Duration(r.IntN(20000)) * time.Millisecond)
		f := sim.Fault{At: at}
		switch r.IntN(5) {
		case 0:
			f.Pause, f.For = pick(), sim.Duration(time.Duration(100+r.IntN(6000))*time.Millisecond)
		case 1:
			f.Partition = [][]string{{pick()}, {pick()}}
			if f.Partition[0][0] == f.Partition[1][0] {
				f.Partition = f.Partition[:1]
			}
			f.For = sim.Duration(time.Duration(100+r.IntN(8000)) * time.Millisecond)
		case 2:
			n := pick()
			f.Crash = n
			// A wiped data directory is another cluster: the invariants
			// below hold only while the members keep their WAL.
			sc.Faults = append(sc.Faults, sim.Fault{At: at + sim.Duration(time.Duration(r.IntN(5000))*time.Millisecond), Restart: n, Persist: true})
		case 3:
			f.ClockJump, f.By = pick(), sim.Duration(time.Duration(r.IntN(20000)-10000)*time.Millisecond+time.Millisecond)
		case 4:
			f.Pause, f.For = pick(), sim.Duration(time.Duration(100+r.IntN(3000))*time.Millisecond)
		}
		sc.Faults = append(sc.Faults, f)
	}
	return sc
}

// TestEtcdRandomFaultsKeepInvariants checks what etcd promises whatever
// the faults: the guarded storage never takes a lower create revision
// after a higher one. Without pauses, linearizable
// reads make each grant's key the oldest one left, so grants go in create
// revision order (a pause lets a client act on an answer that has gone
// stale, as it would with the real client). And when a quorum stays up
// (one member crash at most, of three or more) and the lease outlasts an
// election plus a keepalive gap (TTL ≥ 5 s), crashes and clock faults never
// put two clients in the critical section: a lost leader costs no lease.
func TestEtcdRandomFaultsKeepInvariants(t *testing.T) {
	n := 300
	if testing.Short() {
		n = 60
	}
	checked := map[string]int{}
	for seed := 1; seed <= n; seed++ {
		sc := etcdRandomScenario(uint64(seed))
		require.NoError(t, sc.Validate(), "seed %d", seed)
		s, err := sim.New(sc)
		require.NoError(t, err, "seed %d", seed)
		sum := s.Run()
		paused, cut, memberCrashes := false, false, 0
		for _, f := range sc.Faults {
			paused = paused || f.Pause != ""
			cut = cut || f.Partition != nil
			if strings.HasPrefix(f.Crash, "etcd-") {
				memberCrashes++
			}
		}
		if sc.Fencing {
			var last int64
			for _, w := range s.Check.Writes() {
				if w.Accepted {
					require.GreaterOrEqual(t, w.Token, last, "seed %d: the guard let an older holder write", seed)
					last = w.Token
				}
			}
			if !paused {
				require.Zero(t, sum.StaleWritesAccepted, "seed %d: a guarded write was stale", seed)
			}
			checked["fenced"]++
		}
		if !paused {
			var last int64
			for _, g := range sum.Grants {
				require.Greater(t, g.Token, last, "seed %d: grant of %s went back in create revision", seed, g.Client)
				last = g.Token
			}
			checked["ordered"]++
		}
		if !paused && !cut && sc.TTL.D() >= 5*time.Second && (memberCrashes == 0 || memberCrashes == 1 && etcd.Nodes.Of(sc) >= 3) {
			require.Zero(t, sum.Violations, "seed %d: two holders with only crashes and clock faults", seed)
			checked["exclusive"]++
		}
		for _, m := range etcd.ViewOf(s.Snapshot()).Members {
			require.LessOrEqual(t, m.Applied, m.Commit, "seed %d", seed)
		}
	}
	for _, k := range []string{"fenced", "ordered", "exclusive"} {
		assert.Greater(t, checked[k], n/20, "too few scenarios exercise %q", k)
	}
}

// TestEtcdPreVoteKeepsAHealedMemberFromDeposingTheLeader: etcd-3 is cut
// off for 10 s. Without pre-vote (etcd 3.4) it campaigns for real and
// raises its term at each election timeout; when it rejoins, its answer to
// the leader's heartbeat carries that term and the leader steps down, so
// the cluster elects again in a higher term. With pre-vote (3.5 and later)
// its pre-votes change no term, and the leader stays.
func TestEtcdPreVoteKeepsAHealedMemberFromDeposingTheLeader(t *testing.T) {
	for _, preVote := range []bool{false, true} {
		t.Run(map[bool]string{false: "off (3.4)", true: "on (3.5+)"}[preVote], func(t *testing.T) {
			sc, err := sim.Defaults("etcd")
			require.NoError(t, err)
			etcd.PreVote.Set(sc, preVote)
			sc.Clients, sc.Duration = 1, sim.Duration(20*time.Second)
			sc.Faults = []sim.Fault{{At: sim.Duration(3 * time.Second), Partition: [][]string{{"etcd-3"}}, For: sim.Duration(10 * time.Second)}}
			require.NoError(t, sc.Validate())
			s, err := sim.New(sc)
			require.NoError(t, err)
			s.RunUntil(3 * time.Second)
			before := etcd.ViewOf(s.Snapshot())
			s.RunUntil(13 * time.Second)
			cut := etcd.ViewOf(s.Snapshot()).Members[2].Term
			s.RunUntil(20 * time.Second)
			after := etcd.ViewOf(s.Snapshot())
			if !preVote {
				assert.Greater(t, cut, before.Term+3, "the cut-off member raised its term by campaigning")
				assert.GreaterOrEqual(t, after.Term, cut, "the leader stepped down to the healed member's term")
			} else {
				assert.Equal(t, before.Term, cut, "pre-votes change no term")
				assert.Equal(t, before.Term, after.Term, "the leader stays")
				assert.Equal(t, before.Leader, after.Leader)
			}
		})
	}
}

// TestEtcdLeaseGrantOnALeaderlessMember: etcd-3 and client-3 are cut off
// at 1 s and etcd-3 gives up on its leader at 2.58 s (pre-vote). client-3
// restarts at 2.6 s and asks etcd-3 for a lease.
//   - held: etcd-3 does not refuse the Grant but holds it in Propose until
//     it hears a leader again after the heal at 2.62 s, as a real 3.4
//     member does (TestEtcdGrantOnALeaderlessMember in the conformance
//     suite); client-3's try does not fail.
//   - resent: etcd-3 crashes at 2.98 s with the Grant held; the reset is
//     Unavailable and clientv3 resends the Grant (a repeatable call)
//     25 ms ± 10 % later, to its next endpoint, reachable after the heal at
//     3 s, within the same Lock call.
func TestEtcdLeaseGrantOnALeaderlessMember(t *testing.T) {
	restart := 2600 * time.Millisecond
	for _, tc := range []struct {
		name  string
		heal  time.Duration
		crash time.Duration // etcd-3; 0 for none
	}{
		{"held", 2620 * time.Millisecond, 0},
		{"resent", 3 * time.Second, 2980 * time.Millisecond},
	} {
		t.Run(tc.name, func(t *testing.T) {
			sc, err := sim.Defaults("etcd")
			require.NoError(t, err)
			sc.Clients, sc.Duration, sc.Rounds = 3, sim.Duration(10*time.Second), 1
			sc.Faults = []sim.Fault{
				{At: sim.Duration(time.Second), Partition: [][]string{{"etcd-3", "client-3"}}, For: sim.Duration(tc.heal - time.Second)},
				{At: sim.Duration(restart - 10*time.Millisecond), Crash: "client-3"},
				{At: sim.Duration(restart), Restart: "client-3"},
			}
			if tc.crash > 0 {
				sc.Faults = append(sc.Faults, sim.Fault{At: sim.Duration(tc.crash), Crash: "etcd-3"})
			}
			require.NoError(t, sc.Validate())
			s, _ := etcdRun(t, sc)
			var grants []sim.TraceEvent
			var granted time.Duration = -1
			for _, e := range s.Trace() {
				if e.Node != "client-3" || e.At < restart {
					continue
				}
				if e.Kind == sim.TraceSend && e.Op == "Grant" {
					grants = append(grants, e)
				}
				if e.Kind.String() == "session" && e.Op == "Grant" && granted < 0 {
					granted = e.At
				}
				assert.NotEqual(t, sim.TraceUnheld, e.Kind, "the Lock call does not fail: %v", e)
			}
			require.Greater(t, granted, tc.heal, "granted after the heal")
			if tc.crash == 0 {
				require.Len(t, grants, 1, "one Grant, held, never refused")
				assert.Equal(t, "etcd-3", grants[0].Peer)
				assert.Equal(t, -time.Duration(1), etcdTraceAt(s, "client-3", "rpc", "", ""), "no error reaches the client")
				assert.Less(t, granted-tc.heal, 200*time.Millisecond, "as soon as etcd-3 hears a leader")
				return
			}
			reset := etcdTraceAt(s, "client-3", "rpc", "", "reset")
			require.Greater(t, reset, tc.crash, "the crash resets the held Grant")
			require.Len(t, grants, 2, "sent, then resent")
			assert.Equal(t, "etcd-1", grants[1].Peer, "to the next endpoint")
			assert.GreaterOrEqual(t, grants[1].At-reset, 22500*time.Microsecond, "after the backoff, 25 ms − 10 %")
			assert.LessOrEqual(t, grants[1].At-reset, 27500*time.Microsecond, "after the backoff, 25 ms + 10 %")
			assert.Less(t, granted, 3100*time.Millisecond)
		})
	}
}

// TestEtcdKeepAliveWaitsForALeader: etcd-3 and client-3 are cut off
// together while client-3 holds a 5 s lease. On the open stream etcd-3
// holds client-3's keepalive (LeaseRenew's waitLeader) instead of refusing
// it at once, until monitorLeader cancels the stream after three election
// timeouts without a leader (v3rpc's looks fall on etcd-3's own 1 s grid).
func TestEtcdKeepAliveWaitsForALeader(t *testing.T) {
	sc, err := sim.Defaults("etcd")
	require.NoError(t, err)
	sc.Clients, sc.Duration, sc.Rounds = 3, sim.Duration(12*time.Second), 1
	sc.TTL, sc.Work = sim.Duration(5*time.Second), sim.Duration(10*time.Second)
	sc.Faults = []sim.Fault{{At: sim.Duration(time.Second), Partition: [][]string{{"etcd-3", "client-3"}}, For: sim.Duration(10 * time.Second)}}
	require.NoError(t, sc.Validate())
	s, _ := etcdRun(t, sc)
	lost := etcdTraceAt(s, "etcd-3", "raft", "", "pre-vote")
	require.Greater(t, lost, time.Second, "etcd-3 loses its leader")
	var sent, broken []sim.TraceEvent
	for _, e := range s.Trace() {
		if e.Node != "client-3" || e.At < lost {
			continue
		}
		if e.Kind == sim.TraceSend && e.Op == "KeepAlive" {
			sent = append(sent, e)
		}
		if e.Kind.String() == "session" && e.Op == "KeepAlive" && strings.Contains(e.Note, "stream broken") {
			broken = append(broken, e)
		}
	}
	require.NotEmpty(t, sent)
	require.NotEmpty(t, broken, "the stream ends at last")
	assert.Contains(t, broken[0].Note, "no leader")
	assert.Greater(t, broken[0].At-sent[0].At, 500*time.Millisecond, "the keepalive waited for a leader, not refused at once")
	assert.Less(t, broken[0].At-lost, 4*etcd.ElectionTimeout, "monitorLeader cancels the stream after three looks without a leader")
}

// TestEtcdHeldKeepAliveGoesOnceALeaderIsBack: etcd-3 and client-3 are cut
// off from 1 s to 3.5 s, shorter than monitorLeader's three looks. The
// keepalives etcd-3 holds while it has no leader go to the leader at their
// own next look (a whole number of election timeouts after they came), not
// at the moment the leader is back; the one it had forwarded before it
// lost its leader goes again then (LeaseRenew retries until it reaches a
// leader). client-3's stream and session live on.
func TestEtcdHeldKeepAliveGoesOnceALeaderIsBack(t *testing.T) {
	sc, err := sim.Defaults("etcd")
	require.NoError(t, err)
	sc.Clients, sc.Duration, sc.Rounds = 3, sim.Duration(8*time.Second), 1
	sc.TTL, sc.Work = sim.Duration(5*time.Second), sim.Duration(6*time.Second)
	heal := 3500 * time.Millisecond
	sc.Faults = []sim.Fault{{At: sim.Duration(time.Second), Partition: [][]string{{"etcd-3", "client-3"}}, For: sim.Duration(heal - time.Second)}}
	require.NoError(t, sc.Validate())
	s, _ := etcdRun(t, sc)
	lost := etcdTraceAt(s, "etcd-3", "raft", "", "pre-vote")
	require.Greater(t, lost, time.Second)
	var held, renews []time.Duration
	for _, e := range s.Trace() {
		if e.Node == "etcd-3" && e.Kind == sim.TraceRecv && e.Op == "KeepAlive" && e.At > lost && e.At < heal {
			held = append(held, e.At)
		}
		if e.Node == "etcd-3" && e.Kind == sim.TraceSend && e.Op == "LeaseRenew" && e.At > heal && e.At < 5*time.Second {
			renews = append(renews, e.At)
		}
	}
	require.NotEmpty(t, held, "keepalives reach etcd-3 while it has no leader")
	require.Len(t, renews, len(held)+1, "each held keepalive goes once, and the one lost with the cut again")
	for _, h := range held {
		found := false
		for _, r := range renews {
			if r > h && (r-h)%etcd.ElectionTimeout == 0 {
				found = true
			}
		}
		assert.True(t, found, "the keepalive held since %v goes at one of its looks, %v", h, renews)
	}
	assert.Equal(t, -time.Duration(1), etcdTraceAt(s, "client-3", "session", "", "stream broken"), "the stream lives on")
	assert.Equal(t, -time.Duration(1), etcdTraceAt(s, "client-3", "session", "Done", ""), "so does the session")
}

// TestEtcdRangeOnALeaderlessMemberWaits: a Range sent to etcd-3 while it is
// cut off and has no leader is not refused at once: the member waits for
// its ReadIndex until it hears a leader again after the heal, then ends the
// read with "leader changed", which clientv3 resends (Unavailable).
func TestEtcdRangeOnALeaderlessMemberWaits(t *testing.T) {
	sc, err := sim.Defaults("etcd")
	require.NoError(t, err)
	sc.Clients, sc.Duration = 1, sim.Duration(6*time.Second)
	heal := 3500 * time.Millisecond
	sc.Faults = []sim.Fault{{At: sim.Duration(500 * time.Millisecond), Partition: [][]string{{"etcd-3", "client-1"}}, For: sim.Duration(heal - 500*time.Millisecond)}}
	script := sim.NewScriptClient(sim.ScriptStep{At: 2600 * time.Millisecond, To: "etcd-3",
		Msg: etcd.Range{Kind: etcd.RangeKey, Key: etcd.Prefix}.Msg()})
	s, err := sim.NewScripted(sc, script)
	require.NoError(t, err)
	s.EnableTrace()
	s.Run()
	lost := etcdTraceAt(s, "etcd-3", "raft", "", "pre-vote")
	require.Greater(t, lost, time.Duration(0))
	require.Less(t, lost, 2600*time.Millisecond, "etcd-3 has no leader when the Range comes")
	r, ok := script.Reply(0)
	require.True(t, ok, "the Range is answered")
	assert.Equal(t, etcd.OpError, r.Msg.Op)
	assert.Contains(t, string(etcd.ErrorOf(&r.Msg)), "leader changed")
	assert.Greater(t, r.At, heal, "held until etcd-3 hears a leader again")
}
