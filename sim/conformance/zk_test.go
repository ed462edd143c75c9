package conformance

import (
	"errors"
	"fmt"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/go-zookeeper/zk"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/lockscope/lockscope/sim"
	"github.com/lockscope/lockscope/sim/zookeeper"
)

// zkEnsemble is one real ZooKeeper deployment and its simulated twin.
type zkEnsemble struct {
	name    string
	servers []string // real client addresses
	nodes   int      // simulated ensemble size
}

func zkEnsembles(t *testing.T) []zkEnsemble {
	t.Helper()
	tick, err := time.ParseDuration(need(t, "LOCKSCOPE_ZK_TICK"))
	require.NoError(t, err)
	require.Equal(t, zookeeper.TickTime, tick, "the real servers run with the simulator's tickTime")
	return []zkEnsemble{
		{"standalone", []string{need(t, "LOCKSCOPE_ZK")}, 1},
		{"ensemble of 3", strings.Split(need(t, "LOCKSCOPE_ZK_ENSEMBLE"), ","), 3},
	}
}

// server is the real address and the simulated name client i talks to.
func (e zkEnsemble) server(i int) (string, string) {
	return e.servers[i%len(e.servers)], fmt.Sprintf("zk-%d", i%e.nodes+1)
}

// zkClient is one real go-zookeeper session, with every watch event it
// received, in order (through the event callback, which sees them in the
// order they came off the wire).
type zkClient struct {
	conn       *zk.Conn
	negotiated time.Duration
	mu         sync.Mutex
	events     []zkSeen
}

// zkSeen is one watch event as both sides report it: its type and the
// path in the simulator's namespace.
type zkSeen struct {
	Type string
	Path string
	at   time.Time
}

func (e zkSeen) String() string { return e.Type + " " + e.Path }

// zkLog takes go-zookeeper's log lines; the negotiated session timeout is
// only printed there ("authenticated: id=…, timeout=…").
type zkLog struct {
	mu      sync.Mutex
	timeout time.Duration
}

var zkAuthenticated = regexp.MustCompile(`authenticated: id=\d+, timeout=(\d+)`)

func (l *zkLog) Printf(format string, args ...any) {
	if m := zkAuthenticated.FindStringSubmatch(fmt.Sprintf(format, args...)); m != nil {
		ms, _ := strconv.Atoi(m[1])
		l.mu.Lock()
		l.timeout = time.Duration(ms) * time.Millisecond
		l.mu.Unlock()
	}
}

func (l *zkLog) get() time.Duration {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.timeout
}

// dialZK opens a session on one server and
// waits until it has one; parent, if set, is the real znode that stands
// for the simulator's lock znode in the events recorded.
func dialZK(t *testing.T, addr string, timeout time.Duration, parent string) *zkClient {
	t.Helper()
	c := &zkClient{}
	log := &zkLog{}
	callback := zk.WithEventCallback(func(ev zk.Event) {
		if ev.Type == zk.EventSession || ev.Type == zk.EventNotWatching {
			return
		}
		path := ev.Path
		if parent != "" && strings.HasPrefix(path, parent) {
			path = zookeeper.LockPath + strings.TrimPrefix(path, parent)
		}
		c.mu.Lock()
		c.events = append(c.events, zkSeen{Type: ev.Type.String(), Path: path, at: time.Now()})
		c.mu.Unlock()
	})
	conn, _, err := zk.Connect([]string{addr}, timeout, zk.WithLogger(log), callback)
	require.NoError(t, err)
	t.Cleanup(conn.Close)
	c.conn = conn
	require.NoError(t, waitFor(20*time.Second, "zookeeper session on "+addr, func() bool {
		return conn.State() == zk.StateHasSession && log.get() > 0
	}))
	c.negotiated = log.get()
	return c
}

func (c *zkClient) seen() []zkSeen {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]zkSeen(nil), c.events...)
}

// zkStep is one request of a ZooKeeper plan.
type zkStep struct {
	at     time.Duration
	client int
	op     sim.Op // zookeeper.OpCreate, zookeeper.OpGetChildren, zookeeper.OpGetData, zookeeper.OpDelete, zookeeper.OpPing
	name   string // the child: the prefix to create, or the node to read or delete
	watch  bool
}

// realZK runs zk steps on real sessions under a fresh parent znode.
type realZK struct {
	parent  string
	clients []*zkClient
}

func newParent(t *testing.T, c *zk.Conn) string {
	t.Helper()
	parent := fmt.Sprintf("/lockscope-%d/mylock", time.Now().UnixNano())
	_, err := c.Create(parent[:strings.LastIndex(parent, "/")], nil, 0, zk.WorldACL(zk.PermAll))
	require.NoError(t, err)
	_, err = c.Create(parent, nil, 0, zk.WorldACL(zk.PermAll))
	require.NoError(t, err)
	return parent
}

// answer is the common form of a reply: "OK <name>", "OK", "OK [children
// sorted by sequence]", or the error code ("NoNode").
func (r *realZK) do(st zkStep) string {
	c := r.clients[st.client].conn
	path := r.parent + "/" + st.name
	var err error
	switch st.op {
	case zookeeper.OpCreate:
		var got string
		got, err = c.Create(path, nil, zk.FlagEphemeral|zk.FlagSequence, zk.WorldACL(zk.PermAll))
		if err == nil {
			return "OK " + baseName(got)
		}
	case zookeeper.OpGetChildren:
		var names []string
		if st.watch {
			names, _, _, err = c.ChildrenW(r.parent)
		} else {
			names, _, err = c.Children(r.parent)
		}
		if err == nil {
			return "OK " + fmt.Sprint(bySequence(names))
		}
	case zookeeper.OpGetData:
		if st.watch {
			_, _, _, err = c.GetW(path)
		} else {
			_, _, err = c.Get(path)
		}
	case zookeeper.OpDelete:
		err = c.Delete(path, -1)
	case zookeeper.OpPing:
		_, _, err = c.Exists(r.parent)
	}
	switch {
	case errors.Is(err, zk.ErrNoNode):
		return "NoNode"
	case err != nil:
		return "error " + err.Error()
	}
	return "OK"
}

// baseName is the last element of a znode path: both servers answer a
// create with the full path, under different parents.
func baseName(path string) string { return path[strings.LastIndex(path, "/")+1:] }

// bySequence sorts children by their sequence suffix, as Curator's
// LockInternals does; ZooKeeper itself lists them in no particular order.
func bySequence(names []string) []string {
	out := append([]string(nil), names...)
	sort.SliceStable(out, func(i, j int) bool { return seqOf(out[i]) < seqOf(out[j]) })
	return out
}

func seqOf(name string) int64 {
	v, _ := strconv.ParseInt(name[max(0, len(name)-10):], 10, 64)
	return v
}

// simZK is a simulated run of a plan: one scripted client per real one.
type simZK struct {
	s       *sim.Sim
	scripts []*sim.ScriptClient
	index   [][2]int // step -> client, index in its script
}

// zkScenario is a zookeeper run of nodes servers with a 1 ms network.
func zkScenario(t *testing.T, nodes int, d time.Duration) *sim.Scenario {
	t.Helper()
	sc, err := sim.Defaults("zookeeper")
	require.NoError(t, err)
	zookeeper.Nodes.Set(sc, nodes)
	sc.Latency, sc.Jitter, sc.Stagger = sim.Duration(time.Millisecond), 0, 0
	sc.Duration = sim.Duration(d)
	return sc
}

// runZKSim connects client i at time 0 (requesting timeouts[i]) to the
// simulated server e.server(i) names, then plays the steps.
func runZKSim(t *testing.T, e zkEnsemble, timeouts []time.Duration, steps []zkStep, d time.Duration) *simZK {
	t.Helper()
	r := &simZK{scripts: make([]*sim.ScriptClient, len(timeouts)), index: make([][2]int, len(steps))}
	for i, to := range timeouts {
		_, name := e.server(i)
		r.scripts[i] = sim.NewScriptClient(sim.ScriptStep{At: 0, To: name, KeepSeq: true,
			Msg: zookeeper.Connect{Conn: 1, Timeout: to}.Msg()})
	}
	for k, st := range steps {
		_, name := e.server(st.client)
		req := zookeeper.Request{Op: st.op, Conn: 1, Path: st.name, Watch: st.watch}
		switch st.op {
		case zookeeper.OpGetChildren:
			req.Path = zookeeper.LockPath
		case zookeeper.OpGetData, zookeeper.OpDelete:
			req.Path = zookeeper.LockPath + "/" + st.name
		}
		m := req.Msg()
		sc := r.scripts[st.client]
		r.index[k] = [2]int{st.client, len(sc.Steps)}
		sc.Steps = append(sc.Steps, sim.ScriptStep{At: st.at, To: name, Msg: m})
	}
	s, err := sim.NewScripted(zkScenario(t, e.nodes, d), r.scripts...)
	require.NoError(t, err)
	runSafely(t, s)
	r.s = s
	return r
}

func (r *simZK) negotiated(i int) time.Duration {
	for _, rep := range r.scripts[i].Replies {
		if rep.Msg.Op == zookeeper.OpConnected {
			return zookeeper.ConnectedOf(&rep.Msg).Timeout
		}
	}
	return 0
}

func (r *simZK) answer(steps []zkStep, k int) string {
	st := steps[k]
	rep, ok := r.scripts[r.index[k][0]].Reply(r.index[k][1])
	reply := zookeeper.ReplyOf(&rep.Msg)
	switch {
	case !ok:
		return "-"
	case reply.Op == zookeeper.OpErr:
		return string(reply.Code)
	case reply.Op != zookeeper.OpOK:
		return "? " + reply.Op.String()
	case st.op == zookeeper.OpCreate:
		return "OK " + baseName(reply.Path)
	case st.op == zookeeper.OpGetChildren:
		return "OK " + fmt.Sprint(bySequence(reply.Children.Names))
	}
	return "OK"
}

// events lists the watch events client i received, with their times.
func (r *simZK) events(i int) []zkSeen {
	var out []zkSeen
	for _, rep := range r.scripts[i].Replies {
		if rep.Msg.Op == zookeeper.OpWatch {
			ev := zookeeper.WatchEventOf(&rep.Msg)
			out = append(out, zkSeen{Type: "Event" + string(ev.Event), Path: ev.Path, at: time.Time{}.Add(rep.At)})
		}
	}
	return out
}

func names(evs []zkSeen) []string {
	out := []string{}
	for _, e := range evs {
		out = append(out, e.String())
	}
	return out
}

// TestZooKeeperLockRecipe compares what the lock recipe sees: the
// EPHEMERAL_SEQUENTIAL names and their sequence numbers, the children,
// a predecessor watch (exists/getData) firing once on delete, and the
// notification counts of predecessor watches versus the herd (every
// waiter watching the children of the lock znode).
func TestZooKeeperLockRecipe(t *testing.T) {
	ms := time.Millisecond
	node := func(i int) string { return fmt.Sprintf("_c_guid-%d-lock-%010d", i, i) }
	prefix := func(i int) string { return fmt.Sprintf("_c_guid-%d-lock-", i) }
	steps := []zkStep{
		{at: 1000 * ms, client: 0, op: zookeeper.OpCreate, name: prefix(0)},
		{at: 1100 * ms, client: 1, op: zookeeper.OpCreate, name: prefix(1)},
		{at: 1200 * ms, client: 2, op: zookeeper.OpCreate, name: prefix(2)},
		{at: 1300 * ms, client: 3, op: zookeeper.OpCreate, name: prefix(3)},
		{at: 1600 * ms, client: 0, op: zookeeper.OpGetChildren},
		// Each waiter watches its predecessor (Curator's recipe).
		{at: 1800 * ms, client: 1, op: zookeeper.OpGetData, name: node(0), watch: true},
		{at: 1850 * ms, client: 2, op: zookeeper.OpGetData, name: node(1), watch: true},
		{at: 1900 * ms, client: 3, op: zookeeper.OpGetData, name: node(2), watch: true},
		// The holder releases: one waiter hears of it.
		{at: 2000 * ms, client: 0, op: zookeeper.OpDelete, name: node(0)},
		{at: 2100 * ms, client: 0, op: zookeeper.OpGetData, name: node(0)},
		// Now every remaining client watches the children: the herd.
		{at: 2400 * ms, client: 1, op: zookeeper.OpGetChildren, watch: true},
		{at: 2450 * ms, client: 2, op: zookeeper.OpGetChildren, watch: true},
		{at: 2500 * ms, client: 3, op: zookeeper.OpGetChildren, watch: true},
		{at: 2800 * ms, client: 1, op: zookeeper.OpDelete, name: node(1)},
		// The watches were one-shot: this delete reaches client 3 only,
		// through its predecessor watch.
		{at: 3200 * ms, client: 2, op: zookeeper.OpDelete, name: node(2)},
		{at: 3300 * ms, client: 3, op: zookeeper.OpGetChildren},
		{at: 3400 * ms, client: 3, op: zookeeper.OpDelete, name: node(2)},
	}
	wantAnswers := []string{"OK " + node(0), "OK " + node(1), "OK " + node(2), "OK " + node(3),
		"OK " + fmt.Sprint([]string{node(0), node(1), node(2), node(3)}),
		"OK", "OK", "OK", "OK", "NoNode", "OK " + fmt.Sprint([]string{node(1), node(2), node(3)}),
		"OK " + fmt.Sprint([]string{node(1), node(2), node(3)}), "OK " + fmt.Sprint([]string{node(1), node(2), node(3)}),
		"OK", "OK", "OK " + fmt.Sprint([]string{node(3)}), "NoNode"}
	deleted := func(i int) string { return "EventNodeDeleted " + zookeeper.LockPath + "/" + node(i) }
	changed := "EventNodeChildrenChanged " + zookeeper.LockPath
	wantEvents := [][]string{
		{},
		{deleted(0), changed},
		{deleted(1), changed},
		{changed, deleted(2)},
	}
	timeouts := []time.Duration{10 * time.Second, 10 * time.Second, 10 * time.Second, 10 * time.Second}

	for _, e := range zkEnsembles(t) {
		t.Run(e.name, func(t *testing.T) {
			r := &realZK{}
			for i := range timeouts {
				addr, _ := e.server(i)
				r.clients = append(r.clients, nil)
				if i == 0 {
					c := dialZK(t, addr, timeouts[i], "")
					r.parent = newParent(t, c.conn)
					c.conn.Close()
				}
				r.clients[i] = dialZK(t, addr, timeouts[i], r.parent)
				// Its server may be a follower still applying the parent's
				// create: sync, so the plan starts from the same tree.
				_, err := r.clients[i].conn.Sync(r.parent)
				require.NoError(t, err)
			}
			t0 := time.Now()
			var real []string
			for _, st := range steps {
				time.Sleep(time.Until(t0.Add(st.at - steps[0].at)))
				real = append(real, r.do(st))
			}
			time.Sleep(500 * time.Millisecond) // room for an event that should not come
			simulated := runZKSim(t, e, timeouts, steps, 6*time.Second)

			for k := range steps {
				assert.Equal(t, real[k], simulated.answer(steps, k), "step %d (%s by client %d): simulator vs real", k, steps[k].op, steps[k].client)
			}
			assert.Equal(t, wantAnswers, real, "the real server's answers")
			total := 0
			for i := range timeouts {
				got := names(r.clients[i].seen())
				assert.Equal(t, wantEvents[i], got, "real watch events of client %d", i)
				assert.Equal(t, got, names(simulated.events(i)), "client %d: simulated vs real watch events", i)
				total += len(got)
			}
			// One release with predecessor watches notifies one waiter; one
			// with the herd's children watches notifies every waiter (3),
			// plus the deleted node's own watcher.
			assert.Equal(t, 6, total, "watch notifications in all")
		})
	}
}

// TestZooKeeperSessionTimeout compares the negotiated session timeout: a
// request is clamped to [2, 20] × tickTime.
func TestZooKeeperSessionTimeout(t *testing.T) {
	requests := []time.Duration{time.Second, 10 * time.Second, 60 * time.Second}
	want := []time.Duration{2 * zookeeper.TickTime, 10 * time.Second, 20 * zookeeper.TickTime}
	for _, e := range zkEnsembles(t) {
		t.Run(e.name, func(t *testing.T) {
			simulated := runZKSim(t, e, requests, nil, 2*time.Second)
			for i, req := range requests {
				addr, _ := e.server(i)
				c := dialZK(t, addr, req, "")
				c.conn.Close()
				assert.Equal(t, want[i], c.negotiated, "real: requested %v", req)
				assert.Equal(t, c.negotiated, simulated.negotiated(i), "simulator vs real: requested %v", req)
				assert.Equal(t, want[i], zookeeper.SessionTimeout(req))
			}
		})
	}
}

// TestZooKeeperSessionExpiry compares when an ephemeral znode goes after
// its client vanishes without closing its session (its connection cut, as
// when the process dies or the network fails): the leader expires the
// session at the first tick boundary after last-heard + timeout, so the
// watcher hears NodeDeleted between timeout and timeout + tickTime later
// (+ tickTime/2 through a follower).
// A session the client closes deletes its ephemerals at once, on both.
func TestZooKeeperSessionExpiry(t *testing.T) {
	ms := time.Millisecond
	requested := time.Second // clamped to 2 × tickTime = 4 s
	timeout := zookeeper.SessionTimeout(requested)
	for _, e := range zkEnsembles(t) {
		t.Run(e.name, func(t *testing.T) {
			t.Parallel()
			// The leader hears of a session served by a follower only in
			// the follower's answer to its ping, every tickTime/2.
			lo, hi := timeout, timeout+zookeeper.TickTime+300*ms
			if e.nodes > 1 {
				hi += zookeeper.TickTime / 2
			}
			// The simulator: client 0 creates its node and is last heard
			// at 1.2 s; client 1 watches the node and pings to stay alive.
			steps := []zkStep{
				{at: 500 * ms, client: 0, op: zookeeper.OpCreate, name: "victim-lock-"},
				{at: 1000 * ms, client: 1, op: zookeeper.OpGetData, name: "victim-lock-0000000000", watch: true},
				{at: 1200 * ms, client: 0, op: zookeeper.OpPing},
			}
			for at := 3 * time.Second; at < 12*time.Second; at += 2 * time.Second {
				steps = append(steps, zkStep{at: at, client: 1, op: zookeeper.OpPing})
			}
			simulated := runZKSim(t, e, []time.Duration{requested, 10 * time.Second}, steps, 12*time.Second)
			require.Equal(t, "OK victim-lock-0000000000", simulated.answer(steps, 0))
			require.Equal(t, "OK", simulated.answer(steps, 1))
			evs := simulated.events(1)
			require.Len(t, evs, 1, "the simulated watcher hears of the expiry once")
			assert.Equal(t, "EventNodeDeleted "+zookeeper.LockPath+"/victim-lock-0000000000", evs[0].String())
			simDelay := evs[0].at.Sub(time.Time{}) - 1200*ms
			assert.GreaterOrEqual(t, simDelay, lo, "simulator: deleted after the session timeout")
			assert.LessOrEqual(t, simDelay, hi, "simulator: deleted by the next tick after it")

			// The real servers: client 0 talks through a proxy that is torn
			// down right after its last request.
			addr, _ := e.server(0)
			p := newProxy(t, addr)
			owner := dialZK(t, p.addr(), requested, "")
			assert.Equal(t, timeout, owner.negotiated)
			watchAddr, _ := e.server(1)
			watcher := dialZK(t, watchAddr, 10*time.Second, "")
			parent := newParent(t, watcher.conn)
			watcher.conn.Close()
			watcher = dialZK(t, watchAddr, 10*time.Second, parent)
			r := &realZK{parent: parent, clients: []*zkClient{owner, watcher}}
			require.Equal(t, "OK victim-lock-0000000000", r.do(steps[0]))
			// The watcher's server may be a follower that has not applied the
			// create yet (ZooKeeper reads are not linearizable): sync first.
			_, err := watcher.conn.Sync(parent)
			require.NoError(t, err)
			require.Equal(t, "OK", r.do(steps[1]))
			require.Equal(t, "OK", r.do(steps[2]))
			cut := time.Now()
			p.close()
			require.NoError(t, waitFor(hi+2*time.Second, "NodeDeleted at the watcher", func() bool { return len(watcher.seen()) > 0 }))
			got := watcher.seen()
			realDelay := got[0].at.Sub(cut)
			t.Logf("%s: ephemeral deleted %v after its client was cut (simulator: %v); timeout %v, tickTime %v", e.name, realDelay.Round(ms), simDelay, timeout, zookeeper.TickTime)
			assert.Equal(t, names(evs), names(got))
			assert.GreaterOrEqual(t, realDelay, lo-100*ms, "real: deleted after the session timeout")
			assert.LessOrEqual(t, realDelay, hi, "real: deleted by the next tick after it")

			// Closing a session deletes its ephemerals at once.
			closer := dialZK(t, watchAddr, 10*time.Second, "")
			got2, err := closer.conn.Create(parent+"/closed-lock-", nil, zk.FlagEphemeral|zk.FlagSequence, zk.WorldACL(zk.PermAll))
			require.NoError(t, err)
			_, _, _, err = watcher.conn.GetW(got2)
			require.NoError(t, err)
			closed := time.Now()
			closer.conn.Close()
			require.NoError(t, waitFor(5*time.Second, "NodeDeleted after close", func() bool { return len(watcher.seen()) > 1 }))
			gone := watcher.seen()[1].at.Sub(closed)
			// The simulator: client 0 sends closeSession, as the simulated
			// lock client's close() does after its last round.
			closeSteps := []zkStep{
				{at: 500 * ms, client: 0, op: zookeeper.OpCreate, name: "closed-lock-"},
				{at: 1000 * ms, client: 1, op: zookeeper.OpGetData, name: "closed-lock-0000000000", watch: true},
				{at: 1500 * ms, client: 0, op: zookeeper.OpCloseSession},
			}
			simClosed := runZKSim(t, e, []time.Duration{10 * time.Second, 10 * time.Second}, closeSteps, 4*time.Second)
			require.Equal(t, "OK closed-lock-0000000000", simClosed.answer(closeSteps, 0))
			closedEvs := simClosed.events(1)
			require.Len(t, closedEvs, 1, "the simulated watcher hears of the close once")
			assert.Equal(t, "EventNodeDeleted "+zookeeper.LockPath+"/closed-lock-0000000000", closedEvs[0].String())
			simGone := closedEvs[0].at.Sub(time.Time{}) - 1500*ms
			t.Logf("%s: a closed session's ephemeral went %v after close (simulator: %v)", e.name, gone.Round(ms), simGone)
			assert.Less(t, gone, zookeeper.TickTime, "real: a closed session's ephemerals go at once")
			assert.Less(t, simGone, zookeeper.TickTime, "simulator: a closed session's ephemerals go at once")
		})
	}
}
