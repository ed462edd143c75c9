package zookeeper_test

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/lockscope/lockscope/sim"
	"github.com/lockscope/lockscope/sim/simtest"
	"github.com/lockscope/lockscope/sim/zookeeper"
)

// zkTrace lists the trace events of a node (any node when empty) of one
// kind whose op and note contain the given text.
func zkTrace(rec *sim.Recording, node, kind, op, note string) []sim.TraceEvent {
	var out []sim.TraceEvent
	for _, e := range rec.Trace() {
		if (node == "" || e.Node == node) && e.Kind.String() == kind && strings.Contains(e.Op, op) && strings.Contains(e.Note, note) {
			out = append(out, e)
		}
	}
	return out
}

func zkMs(x float64) time.Duration { return time.Duration(x * float64(time.Millisecond)) }

func zkGrantClients(sum sim.Summary) []string {
	var out []string
	for _, g := range sum.Grants {
		out = append(out, g.Client)
	}
	return out
}

func zkGrantsOf(sum sim.Summary, client string) []sim.GrantSummary {
	var out []sim.GrantSummary
	for _, g := range sum.Grants {
		if g.Client == client {
			out = append(out, g)
		}
	}
	return out
}

// TestZooKeeperPresets runs every preset, and the variants its captions
// invite, against the outcome issue 4 asks of it.
func TestZooKeeperPresets(t *testing.T) {
	tests := []struct {
		name       string
		preset     string
		edit       func(*sim.Scenario)
		violations int
		accepted   int // stale writes the storage took
		rejected   int // stale writes fencing refused
		writes     int
		notified   int // watch notifications; -1: not checked
	}{
		{"happy path", "zk-happy-path", nil, 0, 0, 0, 5, 4},
		{"herd", "zk-herd", nil, 0, 0, 0, 5, 16},
		{"gc pause", "zk-gc-pause", nil, 1, 1, 0, 2, 1},
		{"gc pause, fencing", "zk-gc-pause", func(sc *sim.Scenario) { sc.Fencing = true }, 1, 0, 1, 2, 1},
		{"gc pause, respectSuspended", "zk-gc-pause", func(sc *sim.Scenario) { zookeeper.RespectSuspended.Set(sc, true) }, 1, 0, 0, 1, 1},
		// SUSPENDED ends client-1's belief before client-2's grant (no
		// overlap); its worker reads the flag at the end of its work and
		// does not write.
		{"session expiry, respectSuspended", "zk-session-expiry", nil, 0, 0, 0, 1, 1},
		{"session expiry, respectSuspended off", "zk-session-expiry", func(sc *sim.Scenario) { zookeeper.RespectSuspended.Set(sc, false) }, 1, 1, 0, 2, 1},
		{"session expiry, respectSuspended off, fencing", "zk-session-expiry", func(sc *sim.Scenario) {
			zookeeper.RespectSuspended.Set(sc, false)
			sc.Fencing = true
		}, 1, 0, 1, 2, 1}, // client-2's read raised the storage's token before client-1's write arrived
		{"check then pause", "zk-check-then-pause", nil, 1, 1, 0, 2, 1},
		{"check then pause, fencing", "zk-check-then-pause", func(sc *sim.Scenario) { sc.Fencing = true }, 1, 0, 1, 2, 1},
		{"check then pause, mid-work instead", "zk-check-then-pause", func(sc *sim.Scenario) {
			sc.Faults[0] = sim.Fault{At: sim.Duration(2 * time.Second), Pause: "client-1", For: sc.Faults[0].For}
		}, 1, 0, 0, 1, 1}, // paused before the flag is read: SUSPENDED stops the write
		{"minority partition", "zk-minority-partition", nil, 0, 0, 0, 9, -1},
		{"leader crash", "zk-leader-crash", nil, 0, 0, 0, 3, -1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			sum, _ := simtest.Run(t, simtest.Preset(t, tt.preset, tt.edit))
			assert.Equal(t, tt.violations, sum.Violations, "violations")
			assert.Equal(t, tt.accepted, sum.StaleWritesAccepted, "stale writes accepted")
			assert.Equal(t, tt.rejected, sum.StaleWritesRejected, "stale writes rejected")
			assert.Equal(t, tt.accepted == 0, sum.Safe, "safe")
			assert.Equal(t, tt.writes, sum.Writes, "writes")
			if tt.notified >= 0 {
				assert.Equal(t, tt.notified, sum.WatchNotifications, "watch notifications")
			}
		})
	}
}

// TestZooKeeperQueueIsFIFO: grants follow the order of the requests, the
// tokens are the znodes' rising sequence numbers, and with predecessor
// watches each release wakes exactly the next waiter and nobody else.
func TestZooKeeperQueueIsFIFO(t *testing.T) {
	for _, name := range []string{"zk-happy-path", "zk-herd"} {
		t.Run(name, func(t *testing.T) {
			sc := simtest.Preset(t, name, nil)
			sum, rec := simtest.Run(t, sc)
			assert.Equal(t, sc.ClientNames(), zkGrantClients(sum))
			for i, g := range sum.Grants {
				assert.Equal(t, int64(i), g.Token, "the parent's cversion: 0, 1, 2, …")
			}
			assert.Equal(t, 5, sum.Releases)
			if zookeeper.Herd.Of(sc) {
				return
			}
			watches := zkTrace(rec, "", "watch", "NodeDeleted", "")
			releases := zkTrace(rec, "", "unheld", "", sim.WhyRelease)
			require.Len(t, watches, 4)
			for i, w := range watches {
				assert.Equal(t, sc.ClientNames()[i+1], w.Node, "release %d wakes the next in line", i+1)
				assert.Equal(t, sc.ClientNames()[i], releases[i].Node)
				assert.Less(t, w.At-releases[i].At, 50*time.Millisecond, "woken by release %d", i+1)
				if i+1 < len(releases) {
					assert.Less(t, w.At, releases[i+1].At)
				}
			}
		})
	}
}

// TestZooKeeperHerdGrowsWithTheSquare: with n waiters queued 100 ms apart,
// every create and delete wakes every waiter watching the children: (n−1)²
// notifications, against n−1 with predecessor watches.
func TestZooKeeperHerdGrowsWithTheSquare(t *testing.T) {
	for n := 2; n <= 7; n++ {
		for _, herd := range []bool{false, true} {
			t.Run(fmt.Sprintf("%d clients, herd %v", n, herd), func(t *testing.T) {
				sum, _ := simtest.Run(t, simtest.Preset(t, "zk-happy-path", func(sc *sim.Scenario) {
					sc.Clients = n
					zookeeper.Herd.Set(sc, herd)
					sc.Duration = sim.Duration(time.Duration(n+3) * time.Second)
				}))
				want := n - 1
				if herd {
					want = (n - 1) * (n - 1)
				}
				assert.Equal(t, want, sum.WatchNotifications)
				assert.Equal(t, n, sum.Acquisitions)
				assert.Zero(t, sum.Violations)
			})
		}
	}
}

// TestZooKeeperGCPauseExpiresTheSession: the leader expires the paused
// holder's session at the first tick boundary after last-heard + timeout
// and deletes its znode in one closeSession; the successor is granted
// right after, while the paused client still believes it holds the lock.
func TestZooKeeperGCPauseExpiresTheSession(t *testing.T) {
	sc := simtest.Preset(t, "zk-gc-pause", nil)
	sum, rec := simtest.Run(t, sc)
	var lastHeard time.Duration
	for _, e := range zkTrace(rec, "zk-1", "recv", "", "") {
		if e.Peer == "client-1" && e.At < sc.Faults[0].At.D() {
			lastHeard = e.At
		}
	}
	require.NotZero(t, lastHeard)
	timeout := zookeeper.SessionTimeout(sc.TTL.D())
	expired := zkTrace(rec, "zk-1", "expire", "session", "")
	require.Len(t, expired, 1)
	assert.Greater(t, expired[0].At, lastHeard+timeout)
	assert.LessOrEqual(t, expired[0].At, lastHeard+timeout+zookeeper.TickTime)
	assert.Zero(t, expired[0].At%zookeeper.TickTime, "sessions expire on tick boundaries")

	g, ok := simtest.GrantOf(sum, "client-2")
	require.True(t, ok)
	assert.Less(t, zkMs(g.AtMs)-expired[0].At, 50*time.Millisecond, "the successor is granted once closeSession commits")
	assert.Equal(t, 1, sum.ExpiredWhileHeld)
	assert.Len(t, zkTrace(rec, "client-1", "state", zookeeper.SessionLost, "session expired"), 1, "client-1 learns LOST when it reconnects")
	w := rec.Checker().Writes()
	require.Len(t, w, 2)
	assert.Equal(t, "client-2", rec.Scenario.ClientNames()[w[0].Client])
	assert.True(t, w[1].Stale)
}

// TestZooKeeperSuspendedHolderChecksBeforeWrite: cut off from the
// ensemble, the holder hears nothing for 2/3 of the timeout and goes
// SUSPENDED before the leader expires its session; its listener is told
// at once (its belief ends, before client-2's grant: no overlap) and sets
// a flag, but the worker reads it only when its work is done, just before
// the write, and then it does not write. LOST follows a timeout later.
func TestZooKeeperSuspendedHolderChecksBeforeWrite(t *testing.T) {
	sc := simtest.Preset(t, "zk-session-expiry", nil)
	sum, rec := simtest.Run(t, sc)
	suspended := zkTrace(rec, "client-1", "state", zookeeper.SessionSuspended, "")
	require.Len(t, suspended, 1)
	g, ok := simtest.GrantOf(sum, "client-2")
	require.True(t, ok)
	assert.Less(t, suspended[0].At, zkMs(g.AtMs), "SUSPENDED comes before the successor's grant")
	timeout := zookeeper.SessionTimeout(sc.TTL.D())
	cut := sc.Faults[0].At.D()
	assert.Less(t, suspended[0].At, cut+timeout*2/3, "read timeout: 2/3 of the session timeout since last heard")
	stops := zkTrace(rec, "client-1", "unheld", "", "does not write")
	require.Len(t, stops, 1)
	assert.Greater(t, stops[0].At, zkMs(g.AtMs), "the worker looks at the flag only at the end of its work")
	assert.Zero(t, sum.Violations, "told SUSPENDED, client-1 no longer believed when client-2 was granted")
	assert.Equal(t, 1, sum.Writes, "client-1 does not write")
	lost := zkTrace(rec, "client-1", "state", zookeeper.SessionLost, "")
	require.Len(t, lost, 1)
	assert.Equal(t, suspended[0].At+timeout, lost[0].At, "Curator: LOST a session timeout after SUSPENDED")
	assert.Len(t, zkGrantsOf(sum, "client-1"), 1, "LOST: client-1 gives up; no second grant")
}

// TestZooKeeperMinorityPartition: the side with a majority keeps a leader
// and keeps granting; the cut-off client gets nothing until the heal.
func TestZooKeeperMinorityPartition(t *testing.T) {
	sc := simtest.Preset(t, "zk-minority-partition", nil)
	sum, rec := simtest.Run(t, sc)
	from := sc.Faults[0].At.D()
	to := from + sc.Faults[0].For.D()
	inside := 0
	for _, g := range sum.Grants {
		at := zkMs(g.AtMs)
		if at > from && at < to {
			assert.NotEqual(t, "client-3", g.Client, "client-3 is granted nothing while cut off")
			inside++
		}
	}
	assert.GreaterOrEqual(t, inside, 4, "the majority side keeps taking the lock")
	assert.Len(t, zkGrantsOf(sum, "client-3"), 3, "after the heal client-3 does its rounds")
	looking := zkTrace(rec, "zk-3", "election", "LOOKING", "")
	require.NotEmpty(t, looking)
	limit := time.Duration(zookeeper.SyncLimit) * zookeeper.TickTime
	assert.Greater(t, looking[0].At, from+limit-zookeeper.TickTime, "zk-3 serves until syncLimit passes")
	assert.LessOrEqual(t, looking[0].At, from+limit+zookeeper.TickTime/2)
	assert.Empty(t, zkTrace(rec, "zk-1", "election", "", ""), "the leader keeps its quorum")
	end := rec.At(rec.End())
	assert.Equal(t, "zk-1", zookeeper.ViewOf(end).Leader)
	for _, sv := range zookeeper.ViewOf(end).Servers {
		assert.True(t, sv.Serving, end.Nodes[sv.Node].Name)
		assert.Equal(t, zookeeper.ViewOf(end).Zxid, sv.Committed, "%s caught up", end.Nodes[sv.Node].Name)
	}
}

// TestZooKeeperLeaderCrash: writes stall for the election (finalizeWait
// and a few round trips), zk-3 wins on the highest id among equal zxids,
// and the crashed leader comes back as a follower that catches up.
func TestZooKeeperLeaderCrash(t *testing.T) {
	sc := simtest.Preset(t, "zk-leader-crash", nil)
	sum, rec := simtest.Run(t, sc)
	crash := sc.Faults[0].At.D()
	est := zkTrace(rec, "", "election", "established", "")
	require.Len(t, est, 1)
	assert.Equal(t, "zk-3", est[0].Node)
	assert.GreaterOrEqual(t, est[0].At-crash, zookeeper.FinalizeWait)
	assert.Less(t, est[0].At-crash, 2*zookeeper.FinalizeWait)
	for _, e := range rec.Trace() {
		if e.Kind == sim.TraceRecv && (e.Op == "COMMIT" || e.Op == "PROPOSAL") {
			assert.False(t, e.At > crash && e.At < est[0].At, "nothing commits during the election: %v", e)
		}
	}
	during := rec.At(crash + zookeeper.FinalizeWait/2)
	assert.True(t, zookeeper.ViewOf(during).Electing)
	assert.Empty(t, zookeeper.ViewOf(during).Leader)
	for _, n := range during.Nodes {
		switch {
		case n.Client && len(zkTrace(rec, n.Name, "state", zookeeper.SessionClosed, "sends closeSession")) > 0 && zkTrace(rec, n.Name, "state", zookeeper.SessionClosed, "sends closeSession")[0].At < crash:
			assert.Equal(t, zookeeper.SessionClosed, n.Session, "%s closed its handle after its round", n.Name)
		case n.Client:
			assert.Equal(t, zookeeper.SessionSuspended, n.Session, n.Name)
		}
	}
	// client-2 held the lock at the crash: SUSPENDED sets its listener's
	// flag (and ends its belief), RECONNECTED (same session) clears it
	// before its work is done, so it never stopped and writes with the
	// lock still its own.
	assert.Equal(t, []string{"client-1", "client-2", "client-3"}, zkGrantClients(sum))
	reconnected := zkTrace(rec, "client-2", "state", "RECONNECTED", "")
	require.Len(t, reconnected, 1)
	assert.Empty(t, zkTrace(rec, "client-2", "unheld", "", "does not write"), "client-2's worker never stopped")
	writes := zkTrace(rec, "storage", "write", "accepted", "from client-2")
	require.Len(t, writes, 1, "the storage accepts client-2's write")
	assert.Greater(t, writes[0].At, reconnected[0].At, "the write follows RECONNECTED")
	end := rec.At(rec.End())
	assert.Equal(t, "zk-3", zookeeper.ViewOf(end).Leader)
	assert.Equal(t, int64(2), zookeeper.ViewOf(end).Epoch)
	assert.Equal(t, int64(2), zookeeper.ViewOf(end).Zxid>>32, "zxids of the new epoch")
	for _, sv := range zookeeper.ViewOf(end).Servers {
		assert.Equal(t, zookeeper.ViewOf(end).Zxid, sv.Committed, "%s caught up", end.Nodes[sv.Node].Name)
	}
	assert.Equal(t, zookeeper.RoleFollower, end.Nodes[zookeeper.ViewOf(end).Servers[0].Node].Role)
}

// TestZooKeeperView checks the picture a widget draws: the children in
// sequence order with owner and session, the watch arrows, the ensemble
// and the client sessions.
func TestZooKeeperView(t *testing.T) {
	for _, herd := range []bool{false, true} {
		t.Run(fmt.Sprintf("herd %v", herd), func(t *testing.T) {
			sc := simtest.Preset(t, "zk-happy-path", func(sc *sim.Scenario) { zookeeper.Herd.Set(sc, herd) })
			_, rec := simtest.Run(t, sc)
			snap := rec.At(450 * time.Millisecond) // four waiters queued
			v := zookeeper.ViewOf(snap)
			require.NotNil(t, v)
			assert.Equal(t, zookeeper.LockPath, v.Parent)
			assert.Equal(t, "zk-1", v.Leader)
			assert.Equal(t, int64(1), v.Epoch)
			assert.False(t, v.Electing)
			assert.Equal(t, 2, v.Quorum)
			require.Len(t, v.Children, 5)
			seen := map[int64]bool{}
			for i, c := range v.Children {
				assert.Equal(t, int64(i), c.Seq)
				assert.Equal(t, fmt.Sprintf("client-%d", i+1), c.Owner)
				assert.Equal(t, i == 0, c.Holder)
				assert.True(t, c.Ephemeral)
				assert.True(t, strings.HasPrefix(c.Name, zookeeper.ProtectedPrefix))
				assert.True(t, strings.HasSuffix(c.Name, fmt.Sprintf("-%s%010d", zookeeper.LockName, i)), c.Name)
				assert.False(t, seen[c.Session], "one session per client")
				seen[c.Session] = true
				assert.Equal(t, int64(i%3+1), c.Session>>56, "the session id starts with the sid of the server it was created on")
			}
			require.Len(t, v.Watches, 4)
			for i, w := range v.Watches {
				assert.Equal(t, fmt.Sprintf("client-%d", i+2), w.Client)
				want := zookeeper.LockPath + "/" + v.Children[i].Name
				if herd {
					want = zookeeper.LockPath
				}
				assert.Equal(t, want, w.Path)
			}
			require.Len(t, v.Servers, 3)
			assert.Equal(t, []sim.Role{zookeeper.RoleLeader, zookeeper.RoleFollower, zookeeper.RoleFollower},
				[]sim.Role{snap.Nodes[v.Servers[0].Node].Role, snap.Nodes[v.Servers[1].Node].Role, snap.Nodes[v.Servers[2].Node].Role})
			require.Len(t, v.Sessions, 5)
			for _, s := range v.Sessions {
				assert.Equal(t, 10*time.Second, s.Timeout)
				assert.Greater(t, s.Left, 8*time.Second)
				assert.LessOrEqual(t, s.Left, 10*time.Second+zookeeper.TickTime)
			}
			for _, n := range snap.Nodes {
				if n.Client {
					assert.Equal(t, zookeeper.SessionConnected, n.Session, n.Name)
					assert.Contains(t, n.Detail, "session 0x")
				}
			}
		})
	}
}

// TestZooKeeperProtectedCreate: a create whose reply is lost (the client is
// cut off just after sending it) is not repeated blindly: after the
// reconnect the client finds its _c_<guid> node and queues with it, so
// exactly one znode is ever created for it.
func TestZooKeeperProtectedCreate(t *testing.T) {
	lostReplies := 0
	for cut := 9 * time.Millisecond; cut <= 30*time.Millisecond; cut += time.Millisecond {
		sc := simtest.Preset(t, "zk-happy-path", func(sc *sim.Scenario) {
			sc.Clients, sc.Jitter = 1, 0
			sc.Duration = sim.Duration(20 * time.Second)
			sc.Faults = []sim.Fault{{At: sim.Duration(cut), Partition: [][]string{{"client-1"}}, For: sim.Duration(10 * time.Millisecond)}}
		})
		sum, rec := simtest.Run(t, sc)
		for _, e := range zkTrace(rec, "client-1", "drop", "OK", "") {
			if e.Peer == "zk-1" {
				lostReplies++
			}
		}
		creates := 0
		for _, e := range zkTrace(rec, "zk-1", "recv", "CREATE", "") {
			if e.Peer == "client-1" {
				creates++
			}
		}
		assert.LessOrEqual(t, creates, 1, "cut at %v: one create reaches the server", cut)
		require.Len(t, sum.Grants, 1, "cut at %v", cut)
		assert.Equal(t, int64(0), sum.Grants[0].Token, "cut at %v: the one znode, sequence 0", cut)
		assert.Zero(t, sum.Violations)
	}
	assert.Positive(t, lostReplies, "some cut loses the create's reply")
}

// TestZooKeeperValidate refuses the fields that mean nothing here.
func TestZooKeeperValidate(t *testing.T) {
	tests := []struct{ json, field string }{
		{`"plainDel": true`, "plainDel"},
		{`"replica": true`, "replica"},
		{`"sequential": true`, "sequential"},
		{`"watchdog": true`, "watchdog"},
		{`"nodes": 0`, "nodes"},
		{`"nodes": 8`, "nodes"},
		{`"faults": [{"at": "1s", "failover": "zk-1"}]`, "faults[0].failover"},
		{`"faults": [{"at": "1s", "crash": "zk-4"}]`, "faults[0].crash"},
	}
	for _, tt := range tests {
		t.Run(tt.field, func(t *testing.T) {
			_, err := sim.ParseScenario([]byte(`{"mode": "zookeeper", ` + tt.json + `}`))
			require.Error(t, err)
			assert.True(t, strings.HasPrefix(err.Error(), tt.field+":"), err.Error())
		})
	}
	for _, n := range []int{1, 7} {
		sc, err := sim.ParseScenario([]byte(fmt.Sprintf(`{"mode": "zookeeper", "nodes": %d}`, n)))
		require.NoError(t, err)
		assert.Equal(t, fmt.Sprintf("zk-%d", n), sc.ServerNames()[n-1])
	}
	sc, err := sim.Defaults("zookeeper")
	require.NoError(t, err)
	assert.Equal(t, 3, zookeeper.Nodes.Of(sc))
	assert.True(t, zookeeper.RespectSuspended.Of(sc))
}

// TestZooKeeperFigures pins the figures taken from ZooKeeper and Curator.
func TestZooKeeperFigures(t *testing.T) {
	tests := []struct {
		requested, negotiated, ping time.Duration
	}{
		{time.Second, 4 * time.Second, 1001 * time.Millisecond},        // readTimeout/2 = 1.33 s: once idleSend passes 1 s
		{10 * time.Second, 10 * time.Second, 2333333333},               // 6.667 s / 2 − 1 s
		{30 * time.Second, 30 * time.Second, 9 * time.Second},          // 20 s / 2 − 1 s
		{60 * time.Second, 40 * time.Second, 10001 * time.Millisecond}, // MAX_SEND_PING_INTERVAL
	}
	for _, tt := range tests {
		assert.Equal(t, tt.negotiated, zookeeper.SessionTimeout(tt.requested), "timeout for %v", tt.requested)
		assert.Equal(t, tt.ping, zookeeper.PingInterval(tt.negotiated), "ping interval for %v", tt.negotiated)
	}
	assert.Equal(t, 2*time.Second, zookeeper.TickTime)
	assert.Equal(t, 200*time.Millisecond, zookeeper.FinalizeWait)
}

// TestZooKeeperSingleServer: a lone server is its own quorum, commits at
// once and still expires sessions.
func TestZooKeeperSingleServer(t *testing.T) {
	sum, rec := simtest.Run(t, simtest.Preset(t, "zk-gc-pause", func(sc *sim.Scenario) { zookeeper.Nodes.Set(sc, 1) }))
	assert.Equal(t, []string{"client-1", "client-2"}, zkGrantClients(sum))
	assert.Len(t, zkTrace(rec, "zk-1", "expire", "session", ""), 1)
	assert.Equal(t, 1, sum.Violations)
}

// TestZooKeeperClonesAreIndependent forks runs midway into a different
// future (a server crashes in the fork only), runs source and fork in turn,
// and checks each ends exactly as a fresh run of its own story: no state is
// shared between a clone and its source.
func TestZooKeeperClonesAreIndependent(t *testing.T) {
	for _, name := range []string{"zk-gc-pause", "zk-minority-partition", "zk-leader-crash"} {
		t.Run(name, func(t *testing.T) {
			sc := simtest.Preset(t, name, nil)
			straight := func(at time.Duration, crash string) *sim.Snapshot {
				s, err := sim.New(sc)
				require.NoError(t, err)
				if crash != "" {
					s.RunUntil(at)
					s.CrashNode(s.Lookup(crash))
				}
				s.RunUntil(s.End())
				return s.Snapshot()
			}
			s, err := sim.New(sc)
			require.NoError(t, err)
			type fork struct {
				at    time.Duration
				crash string
				s     *sim.Sim
			}
			var forks []fork
			for i := 0; i < 24; i++ {
				at := time.Duration(i) * 250 * time.Millisecond
				s.RunUntil(at)
				f := fork{at: at, crash: fmt.Sprintf("zk-%d", i%3+1), s: s.Clone()}
				f.s.CrashNode(f.s.Lookup(f.crash))
				forks = append(forks, f)
			}
			// Step source and forks in lockstep, so that state they wrongly
			// shared would be overwritten by one and read by another.
			for at := forks[len(forks)-1].at; at < s.End(); at += 50 * time.Millisecond {
				s.RunUntil(at)
				for _, f := range forks {
					f.s.RunUntil(at)
				}
			}
			s.RunUntil(s.End())
			want := straight(0, "")
			assert.Equal(t, zookeeper.ViewOf(want), zookeeper.ViewOf(s.Snapshot()), "the source")
			assert.Equal(t, want.Nodes, s.Snapshot().Nodes, "the source")
			for _, f := range forks {
				f.s.RunUntil(f.s.End())
				want := straight(f.at, f.crash)
				got := f.s.Snapshot()
				assert.Equal(t, zookeeper.ViewOf(want), zookeeper.ViewOf(got), "fork at %v crashing %s", f.at, f.crash)
				assert.Equal(t, want.Nodes, got.Nodes, "fork at %v crashing %s", f.at, f.crash)
			}
		})
	}
}

// TestZooKeeperPingsWaitForWrites: a server answers a session's requests in
// order (CommitProcessor), so while a client's create cannot commit, its
// pings go unanswered and it times out after 2/3 of the session timeout,
// well before its cut-off server gives up on the leader.
func TestZooKeeperPingsWaitForWrites(t *testing.T) {
	sc := simtest.Preset(t, "zk-happy-path", func(sc *sim.Scenario) {
		sc.Clients, sc.Rounds, sc.Duration = 2, 2, sim.Duration(30*time.Second)
		// client-2 (on zk-2) asks again at about 3.1 s, cut off from the
		// leader with its server.
		sc.Faults = []sim.Fault{{At: sim.Duration(2500 * time.Millisecond), Partition: [][]string{{"zk-2", "client-2"}}, For: sim.Duration(20 * time.Second)}}
	})
	_, rec := simtest.Run(t, sc)
	var create time.Duration
	for _, e := range zkTrace(rec, "client-2", "send", "CREATE", "") {
		create = e.At
	}
	require.Greater(t, create, sc.Faults[0].At.D(), "the second create is sent while cut off")
	timedOut := zkTrace(rec, "client-2", "disconnect", "", "have not heard from server")
	require.NotEmpty(t, timedOut)
	looking := zkTrace(rec, "zk-2", "election", "LOOKING", "")
	require.NotEmpty(t, looking)
	assert.Less(t, timedOut[0].At, looking[0].At, "the client times out before its server stops serving")
	assert.Less(t, timedOut[0].At, create+zookeeper.SessionTimeout(sc.TTL.D())*2/3+time.Millisecond)
	for _, e := range zkTrace(rec, "client-2", "recv", "PONG", "") {
		assert.False(t, e.At > create && e.At < timedOut[0].At, "no pong while the create is pending: %v", e)
	}
}

// TestZooKeeperRandomFaults runs many seeds with random faults. No panic;
// with fencing the storage's accepted tokens never fall; a token names one
// znode, so one client; and once the faults are over and everything is up
// again, every server follows one leader and has committed the same zxid.
func TestZooKeeperRandomFaults(t *testing.T) {
	n := 300
	if testing.Short() {
		n = 60
	}
	for seed := 1; seed <= n; seed++ {
		sc := zkRandomScenario(uint64(seed))
		s, err := sim.New(sc)
		require.NoError(t, err, "seed %d", seed)
		sum := s.Run()
		if !simtest.VolatileMaster(sc) { // a wiped log starts the sequence again
			owner := map[int64]string{}
			for _, g := range sum.Grants {
				if c, ok := owner[g.Token]; ok {
					require.Equal(t, c, g.Client, "seed %d: token %d granted to two clients", seed, g.Token)
				}
				owner[g.Token] = g.Client
			}
		}
		var last int64
		for _, w := range s.Check.Writes() {
			if w.Accepted && sc.Fencing {
				require.GreaterOrEqual(t, w.Token, last, "seed %d", seed)
				last = w.Token
			}
		}
		snap := s.Snapshot()
		v := zookeeper.ViewOf(snap)
		require.NotEmpty(t, v.Leader, "seed %d: a leader after the faults", seed)
		for _, sv := range v.Servers {
			name := snap.Nodes[sv.Node].Name
			want := zookeeper.RoleFollower
			if name == v.Leader {
				want = zookeeper.RoleLeader
			}
			require.Equal(t, want, sv.Role, "seed %d: %s", seed, name)
			require.True(t, sv.Serving, "seed %d: %s serving", seed, name)
			require.Equal(t, v.Zxid, sv.Committed, "seed %d: %s agrees", seed, name)
		}
	}
}

// TestZooKeeperServerCrashesKeepMutualExclusion: crashing and restarting
// servers (logs kept) never lets two clients hold the lock at once when
// clients respect SUSPENDED.
func TestZooKeeperServerCrashesKeepMutualExclusion(t *testing.T) {
	for seed := 1; seed <= 100; seed++ {
		r := rand.New(rand.NewPCG(uint64(seed), 11))
		sc, err := sim.Defaults("zookeeper")
		require.NoError(t, err)
		sc.Seed = int64(seed)
		sc.Duration = sim.Duration(60 * time.Second)
		sc.Clients = 2 + r.IntN(4)
		sc.Rounds = 2
		sc.Work = sim.Duration(time.Duration(200+r.IntN(2000)) * time.Millisecond)
		zookeeper.Nodes.Set(sc, 3+2*r.IntN(2))
		for i := r.IntN(5); i >= 0; i-- {
			at := time.Duration(r.IntN(15000)) * time.Millisecond
			srv := fmt.Sprintf("zk-%d", 1+r.IntN(zookeeper.Nodes.Of(sc)))
			sc.Faults = append(sc.Faults,
				sim.Fault{At: sim.Duration(at), Crash: srv},
				sim.Fault{At: sim.Duration(at + time.Duration(100+r.IntN(5000))*time.Millisecond), Restart: srv, Persist: true})
		}
		require.NoError(t, sc.Validate())
		s, err := sim.New(sc)
		require.NoError(t, err)
		sum := s.Run()
		require.Zero(t, sum.Violations, "seed %d", seed)
		require.Equal(t, sc.Clients*sc.Rounds, sum.Releases, "seed %d: every round completes", seed)
	}
}

// zkRandomScenario draws a zookeeper run whose faults all end by 25 s,
// with every crashed node restarted, and 65 s left to settle.
func zkRandomScenario(seed uint64) *sim.Scenario {
	r := rand.New(rand.NewPCG(seed, 13))
	sc, _ := sim.Defaults("zookeeper")
	sc.Seed = int64(seed)
	sc.Duration = sim.Duration(90 * time.Second)
	sc.Clients = 1 + r.IntN(5)
	sc.Rounds = 1 + r.IntN(3)
	zookeeper.Nodes.Set(sc, 1+r.IntN(5))
	sc.TTL = sim.Duration(time.Duration(2+r.IntN(20)) * time.Second)
	sc.Work = sim.Duration(time.Duration(r.IntN(4000)) * time.Millisecond)
	sc.Latency = sim.Duration(time.Duration(1+r.IntN(15)) * time.Millisecond)
	sc.Jitter = sim.Duration(time.Duration(r.IntN(10)) * time.Millisecond)
	sc.Fencing = r.IntN(2) == 0
	zookeeper.Herd.Set(sc, r.IntN(3) == 0)
	zookeeper.RespectSuspended.Set(sc, r.IntN(3) != 0)
	sc.ClockDrift = float64(r.IntN(3)) * 0.01
	nodes := append(sc.ClientNames(), sc.ServerNames()...)
	for i := r.IntN(7); i > 0; i-- {
		at := time.Duration(r.IntN(15000)) * time.Millisecond
		f := sim.Fault{At: sim.Duration(at)}
		target := nodes[r.IntN(len(nodes))]
		switch r.IntN(5) {
		case 0:
			f.Pause, f.For = target, sim.Duration(time.Duration(1+r.IntN(8000))*time.Millisecond)
		case 1:
			f.ClockJump, f.By = target, sim.Duration(time.Duration(r.IntN(20000)-10000)*time.Millisecond+time.Millisecond)
		case 2:
			var g []string
			for _, n := range nodes {
				if r.IntN(2) == 0 {
					g = append(g, n)
				}
			}
			if len(g) == 0 {
				g = []string{target}
			}
			f.Partition, f.For = [][]string{g}, sim.Duration(time.Duration(1+r.IntN(9000))*time.Millisecond)
		default:
			f.Crash = target
			sc.Faults = append(sc.Faults, f)
			f = sim.Fault{At: sim.Duration(at + time.Duration(1+r.IntN(9000))*time.Millisecond),
				Restart: target, Persist: r.IntN(4) != 0}
		}
		sc.Faults = append(sc.Faults, f)
	}
	return sc
}

// zkSessionOwned reports whether the ensemble's session table at t holds a
// session of the client.
func zkSessionOwned(rec *sim.Recording, t time.Duration, client string) bool {
	for _, z := range zookeeper.ViewOf(rec.At(t)).Sessions {
		if z.Owner == client {
			return true
		}
	}
	return false
}

// TestZooKeeperCloseEndsTheSession: a client that has done its rounds
// closes its handle (ZooKeeper.close()); the closeSession transaction ends
// its session at once instead of a session timeout later. Cut off when it
// closes, the request never arrives, the handle does not reconnect (it is
// closing), and the session lives on until the leader expires it.
func TestZooKeeperCloseEndsTheSession(t *testing.T) {
	t.Run("connected", func(t *testing.T) {
		sc := simtest.Preset(t, "zk-happy-path", nil)
		sc.Clients = 2
		_, rec := simtest.Run(t, sc)
		closed := zkTrace(rec, "client-1", "state", zookeeper.SessionClosed, "closed")
		require.Len(t, closed, 1)
		assert.False(t, zkSessionOwned(rec, closed[0].At, "client-1"), "the session is gone from the table when the client hears of it")
		asked := zkTrace(rec, "client-1", "state", zookeeper.SessionClosed, "close() sends closeSession")
		require.Len(t, asked, 1)
		assert.True(t, zkSessionOwned(rec, asked[0].At, "client-1"))
		assert.Less(t, closed[0].At-asked[0].At, 100*time.Millisecond, "a round trip through the leader, not a session timeout")
		assert.Empty(t, zkTrace(rec, "zk-1", "expire", "session", ""), "no session expires")
		for _, n := range rec.At(rec.End()).Nodes {
			if n.Name == "client-1" {
				assert.Equal(t, zookeeper.SessionClosed, n.Session)
			}
		}
	})
	t.Run("cut off", func(t *testing.T) {
		sc := simtest.Preset(t, "zk-happy-path", nil)
		sc.Clients, sc.Duration = 1, sim.Duration(40*time.Second)
		sc.Faults = []sim.Fault{{At: sim.Duration(900 * time.Millisecond), Partition: [][]string{{"client-1"}}, For: sim.Duration(30 * time.Second)}}
		_, rec := simtest.Run(t, sc)
		asked := zkTrace(rec, "client-1", "state", zookeeper.SessionClosed, "close() sends closeSession")
		require.Len(t, asked, 1)
		expired := zkTrace(rec, "zk-1", "expire", "session", "")
		require.Len(t, expired, 1, "the leader expires the session of a client it no longer hears")
		assert.Greater(t, expired[0].At, asked[0].At+zookeeper.SessionTimeout(sc.TTL.D())-time.Second)
		assert.True(t, zkSessionOwned(rec, expired[0].At-time.Millisecond, "client-1"))
		for _, e := range zkTrace(rec, "client-1", "send", "CONNECT", "") {
			assert.Less(t, e.At, asked[0].At, "a closing handle does not reconnect, even after the heal")
		}
	})
}
