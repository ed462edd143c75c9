package zookeeper

import (
	"encoding/hex"
	"fmt"
	"strings"
	"time"

	"github.com/lockscope/lockscope/sim"
)

// Lock recipe steps of a waiting client.
const (
	zkStepCreate = "create"
	zkStepList   = "list"
	zkStepWatch  = "watch"
	zkStepWait   = "wait"
)

// Client connection states (ClientCnxn).
const (
	zkConnNone       = ""
	zkConnConnecting = "connecting"
	zkConnConnected  = "connected"
)

// zkCall is a request awaiting its reply.
type zkCall struct {
	xid  int64
	op   sim.Op
	path string
	find bool // a protected-mode search for our own znode
}

// zkClient is an application using Curator's InterProcessMutex over a
// ZooKeeper handle, with Curator's connection states.
type zkClient struct {
	sim.Loop
	idx    int
	n      int
	base   sim.NodeID
	server int // index of the server in use or being tried

	// The ZooKeeper handle.
	conn      string
	cnx       int64
	session   int64
	timeout   time.Duration // negotiated; 0 before the first connection
	lastZxid  int64
	lastRecv  time.Duration
	lastSend  time.Duration
	sent      int64 // messages on the connection each way
	rcvd      int64
	connected bool // this handle has connected before: reconnects wait 0–1 s
	closing   bool // close() was called: no reconnecting (ClientCnxn.closing)
	readGen   int64
	xid       int64
	calls     []zkCall

	// Curator's ConnectionStateManager.
	cstate      string
	suspendedAt time.Duration // wall clock
	suspendGen  int64
	// What the application's ConnectionStateListener tells its worker:
	// set on SUSPENDED (and LOST), cleared on RECONNECTED of the same
	// session; with respectSuspended the worker reads it just before it
	// sends its write. The listener is told at once (Loop.Tell ends the
	// holder's belief then); the worker acts at that read.
	flagSuspended, flagLost bool

	// The lock recipe.
	step     string
	create   string // the protected create's path, LockPath/_c_<guid>-lock-
	tried    bool   // a create was sent for this guid
	ourPath  string
	ourSeq   int64
	watching string
	toDelete []string // guaranteed deletes still to do
	// lockCount is InterProcessMutex's LockData.lockCount (reenter.go).
	lockCount int

	latch zkLatch // LeaderLatch's own state, in election use (latch.go)
}

// Clone implements Process.
func (c *zkClient) Clone() sim.Process {
	cp := *c
	cp.calls = append([]zkCall(nil), c.calls...)
	cp.toDelete = append([]string(nil), c.toDelete...)
	return &cp
}

func (c *zkClient) serverNode() sim.NodeID { return c.base + sim.NodeID(c.server) }

// Start implements Process: open a handle and ask for the lock (acquire
// blocks until the handle is connected).
func (c *zkClient) Start(ctx sim.Ctx) {
	c.base = ctx.Lookup("zk-1")
	c.server = c.idx % c.n
	c.connect(ctx)
	c.begin(ctx)
}

// Crash implements Process: the process is gone; its session lives on at
// the servers until it expires.
func (c *zkClient) Crash(ctx sim.Ctx) {
	*c = zkClient{idx: c.idx, n: c.n}
}

// Restart implements Process.
func (c *zkClient) Restart(ctx sim.Ctx, persist bool) { c.Start(ctx) }

func (c *zkClient) negotiated(ctx sim.Ctx) time.Duration {
	if c.timeout > 0 {
		return c.timeout
	}
	return ctx.Scenario().TTL.D()
}

// connect starts a connection attempt to c.server.
func (c *zkClient) connect(ctx sim.Ctx) {
	c.conn = zkConnConnecting
	c.cnx++
	if c.connected {
		d := time.Duration(ctx.Rand().Int64N(int64(zkReconnectJitter)))
		ctx.After(d, sim.Timer{Kind: timerDial, Seq: c.cnx})
		return
	}
	c.dial(ctx)
}

func (c *zkClient) dial(ctx sim.Ctx) {
	c.lastRecv, c.lastSend = ctx.Mono(), ctx.Mono()
	c.sent, c.rcvd = 1, 0
	if to := c.serverNode(); ctx.Sim().Nodes[to].Crashed && !ctx.Sim().Cut(ctx.ID(), to) {
		// A crashed server process on a reachable host: its kernel refuses
		// the TCP connection, so the client learns it within a round trip.
		ctx.After(2*ctx.Scenario().Latency.D(), sim.Timer{Kind: timerRefused, Seq: c.cnx})
		return
	}
	ctx.Send(c.serverNode(), Connect{Conn: c.cnx, Session: c.session, Timeout: ctx.Scenario().TTL.D(), LastZxid: c.lastZxid}.Msg())
	c.readGen++
	ctx.After(c.negotiated(ctx)/time.Duration(c.n), sim.Timer{Kind: timerRead, Seq: c.readGen})
}

func (c *zkClient) send(ctx sim.Ctx, m sim.Msg) {
	c.sent++
	onClientConn(&m, c.cnx, c.sent)
	c.lastSend = ctx.Mono()
	ctx.Send(c.serverNode(), m)
}

func (c *zkClient) call(ctx sim.Ctx, op sim.Op, path string, watch, find bool) {
	c.xid++
	c.calls = append(c.calls, zkCall{xid: c.xid, op: op, path: path, find: find})
	c.send(ctx, Request{Op: op, Path: path, Xid: c.xid, Watch: watch}.Msg())
}

// disconnect is ClientCnxn losing its connection: pending requests fail
// with ConnectionLoss, Curator goes SUSPENDED, the next server is tried.
// A closing handle does not reconnect.
func (c *zkClient) disconnect(ctx sim.Ctx, why string, words sim.Words) {
	if c.closing {
		c.conn, c.calls = zkConnNone, nil
		ctx.TraceSaid(traceDisconnect, "", why, words)
		return
	}
	was := c.conn == zkConnConnected
	c.conn = zkConnNone
	c.calls = nil
	ctx.TraceSaid(traceDisconnect, "", why, words)
	if was && c.cstate == SessionConnected {
		c.suspend(ctx)
	}
	c.server = (c.server + 1) % c.n
	c.connect(ctx)
}

// suspend is Curator's SUSPENDED. ClientCnxn queues a Disconnected event
// when its connection is lost (apache/zookeeper, zookeeper-server/src/main/
// java/org/apache/zookeeper/ClientCnxn.java, SendThread.run's cleanup);
// CuratorFrameworkImpl.validateConnection turns it into SUSPENDED and the
// ConnectionStateManager hands it to the listeners on its own thread, at
// once (apache/curator, curator-framework/src/main/java/org/apache/
// curator/framework/imps/CuratorFrameworkImpl.java, state/
// ConnectionStateManager.java). With respectSuspended the application has
// a listener: the holder is told now and stops believing (Loop.Tell); its
// worker reads the listener's flag only before its write (finish).
// Without one (InterProcessMutex and LockInternals register none),
// nothing tells it.
func (c *zkClient) suspend(ctx sim.Ctx) {
	c.cstate = SessionSuspended
	c.suspendedAt = ctx.Wall()
	c.suspendGen++
	ctx.AtWall(c.suspendedAt+c.negotiated(ctx), sim.Timer{Kind: timerLost, Seq: c.suspendGen})
	ctx.Trace(traceState, SessionSuspended, "")
	if c.State == sim.StateHolding {
		c.flagSuspended = true
		switch {
		case RespectSuspended.Of(ctx.Scenario()) && Electing(ctx.Scenario()):
			c.latchNotLeader(ctx, SessionSuspended) // LeaderLatch's own listener (latch.go)
		case RespectSuspended.Of(ctx.Scenario()):
			var told sim.Words
			if ctx.Tracing() {
				told = sim.Say("note.zk.toldSuspended")
			}
			c.Tell(ctx, "told SUSPENDED: it can no longer be sure it holds the lock", told)
		}
	}
}

// lose is Curator's LOST: the session is gone for sure. With
// respectSuspended the listener hears it at once: a holder not told yet
// (LOST straight after an Expired event) stops believing now, and a
// stopped one gives up its place; the worker that is still working reads
// the flag before its write.
func (c *zkClient) lose(ctx sim.Ctx, why string, words sim.Words) {
	c.cstate = SessionLost
	c.session = 0
	c.timeout = 0
	c.connected = false // the new handle connects without the random wait
	ctx.TraceSaid(traceState, SessionLost, why, words)
	switch c.State {
	case sim.StateHolding:
		c.flagLost = true
		switch {
		case Electing(ctx.Scenario()) && !c.Stopped():
			c.latchNotLeader(ctx, SessionLost) // LeaderLatch: LOST is notLeader, whatever the policy (latch.go)
		case !RespectSuspended.Of(ctx.Scenario()):
			ctx.TraceSaid(traceLock, "", "LOST ignored: keeps working", sim.Say("note.zk.lostIgnored"))
		case c.Stopped():
			c.ourPath = ""
			c.step = ""
			c.Lost(ctx, "session LOST", sim.Say("note.zk.sessionLost"))
		default:
			c.Tell(ctx, "told LOST: it no longer holds the lock", sim.Say("note.zk.toldLost"))
		}
	case sim.StateWaiting:
		// The ephemeral node died with the session: Curator's lock loop
		// finds it missing (NoNode) and tries again from scratch.
		c.newAttempt(ctx)
	}
}

// Receive implements Process.
func (c *zkClient) Receive(ctx sim.Ctx, from sim.NodeID, m *sim.Msg) {
	if handled, written := c.StorageReply(ctx, from, m); handled {
		if written {
			c.release(ctx)
		}
		return
	}
	if from != c.serverNode() || connOf(m) != c.cnx || c.conn == zkConnNone {
		return // an earlier connection's traffic
	}
	c.lastRecv = ctx.Mono()
	if c.closing && (m.Op == OpClose || m.Op == OpExpired) {
		c.conn, c.calls = zkConnNone, nil
		if ctx.Tracing() {
			ctx.TraceSaid(traceState, SessionClosed, fmt.Sprintf("session %#x closed: its ephemeral znodes are gone", c.session), sim.Say("note.zk.sessionClosed", "session", fmt.Sprintf("%#x", c.session)))
		}
		return
	}
	if m.Op != OpClose && m.Op != OpExpired {
		if positionOf(m) != c.rcvd+1 {
			c.disconnect(ctx, "a message was lost: connection reset", sim.Say("note.zk.messageLost"))
			return
		}
		c.rcvd++
	}
	switch m.Op {
	case OpPong: // the session's renewal, answered (the dashboard's renewal rate)
		ctx.Renewed(true)
	case OpConnected:
		if c.conn != zkConnConnecting {
			return
		}
		c.onConnected(ctx, m)
		return
	case OpExpired:
		c.conn = zkConnNone
		c.calls = nil
		c.lose(ctx, "session expired", sim.Say("note.zk.expired"))
		c.connect(ctx)
		return
	case OpClose:
		c.disconnect(ctx, fmt.Sprintf("connection to %s closed", ctx.Sim().Nodes[from].Name), sim.Say("note.zk.closed", "server", ctx.Sim().Nodes[from].Name))
		return
	}
	if c.conn != zkConnConnected {
		return
	}
	c.lastZxid = max(c.lastZxid, zxidOf(m))
	switch m.Op {
	case OpOK, OpErr:
		xid := ReplyOf(m).Xid
		for i, cl := range c.calls {
			if cl.xid == xid {
				c.calls = append(c.calls[:i], c.calls[i+1:]...)
				c.onReply(ctx, cl, m)
				return
			}
		}
	case OpWatch:
		c.onWatch(ctx, m)
	}
}

func (c *zkClient) onConnected(ctx sim.Ctx, m *sim.Msg) {
	cd := ConnectedOf(m)
	same := c.session == cd.Session
	c.conn = zkConnConnected
	c.connected = true
	c.session, c.timeout = cd.Session, cd.Timeout
	c.readGen++
	ctx.After(zkReadTimeout(c.timeout), sim.Timer{Kind: timerRead, Seq: c.readGen})
	ctx.After(PingInterval(c.timeout), sim.Timer{Kind: timerPing, Seq: c.cnx})
	prev := c.cstate
	c.cstate = SessionConnected
	switch {
	case !ctx.Tracing():
	case prev == "":
		ctx.TraceSaid(traceState, SessionConnected, fmt.Sprintf("session %#x, timeout %v", c.session, c.timeout), sim.Say("note.zk.connected", "session", fmt.Sprintf("%#x", c.session), "timeout", c.timeout.String()))
	default:
		ctx.TraceSaid(traceState, "RECONNECTED", fmt.Sprintf("session %#x", c.session), sim.Say("note.zk.reconnected", "session", fmt.Sprintf("%#x", c.session)))
	}
	if prev == SessionSuspended && same {
		c.flagSuspended = false // the listener hears RECONNECTED
	}
	if prev == SessionSuspended && same && c.State == sim.StateHolding && (c.Stopped() || c.Told()) {
		// Curator: after SUSPENDED, RECONNECTED means the lock is still
		// ours. A holder told SUSPENDED believes again; one whose worker
		// stopped does the interrupted work again from the start.
		// LeaderLatch checks its leadership again first (latch.go).
		switch {
		case c.latchReconnected(ctx):
		case ctx.Tracing():
			ctx.TraceSaid(traceLock, "", "RECONNECTED in the same session: the lock is still its own", sim.Say("note.zk.stillOurs"))
			fallthrough
		default:
			c.Resume(ctx, c.Token, 0)
		}
	}
	if c.State == sim.StateWaiting && c.step != zkStepCreate {
		c.step = zkStepList // the lock loop wakes and lists again
	}
	c.flushDeletes(ctx)
	c.advance(ctx)
}

// begin starts a round: InterProcessMutex.acquire.
func (c *zkClient) begin(ctx sim.Ctx) {
	if !c.Begin(ctx) {
		c.close(ctx)
		return
	}
	c.flagSuspended, c.flagLost = false, false
	c.newAttempt(ctx)
}

// newAttempt is LockInternals.attemptLock: a fresh protected create.
func (c *zkClient) newAttempt(ctx sim.Ctx) {
	b := make([]byte, 16)
	for i := range b {
		b[i] = byte(ctx.Rand().Uint32())
	}
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	c.create = LockPath + "/" + ProtectedPrefix + formatUUID(b) + "-" + c.lockName(ctx.Scenario())
	c.tried, c.ourPath, c.watching = false, "", ""
	c.step = zkStepCreate
	c.advance(ctx)
}

// formatUUID writes 16 bytes as a UUID's text (java.util.UUID.toString:
// lower-case hex, groups of 8, 4, 4, 4 and 12 digits).
func formatUUID(b []byte) string {
	out := make([]byte, 0, 36)
	start := 0
	for _, end := range [...]int{4, 6, 8, 10, 16} {
		if start > 0 {
			out = append(out, '-')
		}
		out = hex.AppendEncode(out, b[start:end])
		start = end
	}
	return string(out)
}

// prefix is the protected name's start, _c_<guid>- (a part of the create's
// path, so it is not built again at each look).
func (c *zkClient) prefix() string {
	const protected = len(ProtectedPrefix) + 36 + 1 // _c_, a UUID's 36 characters, "-"
	return c.create[len(LockPath)+1 : len(LockPath)+1+protected]
}

func (c *zkClient) busy() bool {
	for _, cl := range c.calls {
		if cl.op != OpDelete {
			return true
		}
	}
	return false
}

// advance sends the request of the current lock step, once connected.
func (c *zkClient) advance(ctx sim.Ctx) {
	if c.conn != zkConnConnected || c.State != sim.StateWaiting || c.busy() {
		return
	}
	switch c.step {
	case zkStepCreate:
		if c.tried {
			// Protected mode: an earlier create may have succeeded with
			// its reply lost; look for our node first.
			c.call(ctx, OpGetChildren, LockPath, false, true)
			return
		}
		c.tried = true
		c.call(ctx, OpCreate, c.create, false, false)
	case zkStepList:
		c.call(ctx, OpGetChildren, LockPath, Herd.Of(ctx.Scenario()), false)
	case zkStepWatch:
		c.call(ctx, OpGetData, LockPath+"/"+c.watching, true, false)
	}
}

func (c *zkClient) onReply(ctx sim.Ctx, cl zkCall, m *sim.Msg) {
	if cl.op == OpDelete {
		for i, p := range c.toDelete {
			if p == cl.path {
				c.toDelete = append(c.toDelete[:i], c.toDelete[i+1:]...)
				break
			}
		}
		return
	}
	if c.State != sim.StateWaiting && !c.latchRechecking(ctx) {
		return
	}
	switch cl.op {
	case OpCreate:
		if m.Op != OpOK {
			if ctx.Tracing() {
				code := string(ReplyOf(m).Code)
				ctx.TraceSaid(traceLock, OpCreate.String(), code, sim.AsIs(code))
			}
			return // the session is ending; LOST will follow
		}
		c.ourPath = strings.TrimPrefix(ReplyOf(m).Path, LockPath+"/")
		c.ourSeq = zkSeqOf(c.ourPath)
		c.step = zkStepList
	case OpGetChildren:
		if cl.find {
			for _, name := range childrenOf(m) {
				if strings.HasPrefix(name, c.prefix()) {
					c.ourPath, c.ourSeq = name, zkSeqOf(name)
					c.step = zkStepList
					c.advance(ctx)
					return
				}
			}
			c.call(ctx, OpCreate, c.create, false, false)
			return
		}
		c.onChildren(ctx, childrenOf(m))
		return
	case OpGetData:
		if c.latchOwnReply(ctx, cl, m) {
			return
		}
		if m.Op == OpOK {
			c.step = zkStepWait
			return
		}
		c.step = zkStepList // the predecessor is already gone
	}
	c.advance(ctx)
}

// onChildren is StandardLockInternalsDriver.getsTheLock.
func (c *zkClient) onChildren(ctx sim.Ctx, names []string) {
	sorted := zkSortChildren(names)
	i := -1
	for k, n := range sorted {
		if n == c.ourPath {
			i = k
		}
	}
	switch {
	case i < 0:
		if ctx.Tracing() {
			ctx.TraceSaid(traceLock, "", "our znode is gone (NoNode): trying again", sim.Say("note.zk.znodeGone"))
		}
		c.newAttempt(ctx)
	case i == 0 && Electing(ctx.Scenario()):
		c.latchLowest(ctx) // LeaderLatch: is the lowest node still this session's? (latch.go)
	case c.reader(ctx.Scenario()):
		c.readerGetsTheLock(ctx, sorted, i) // the read lock's own rule (rwlock.go)
	case i == 0:
		c.step = ""
		c.Grant(ctx, c.ourSeq, 0)
		c.armReentry(ctx)
	default:
		c.waitFor(ctx, sorted[i-1])
	}
}

// waitFor waits for node to go: a data watch on it, or with herd the
// getChildren watch already set.
func (c *zkClient) waitFor(ctx sim.Ctx, node string) {
	if Herd.Of(ctx.Scenario()) {
		c.step = zkStepWait // the getChildren watch is set
		return
	}
	c.watching = node
	c.step = zkStepWatch
	c.advance(ctx)
}

func (c *zkClient) onWatch(ctx sim.Ctx, m *sim.Msg) {
	if c.State != sim.StateWaiting {
		return
	}
	ctx.Notified()
	ev := WatchEventOf(m)
	ctx.Trace(traceWatch, string(ev.Event), ev.Path)
	if c.step == zkStepWait {
		c.step = zkStepList
		c.advance(ctx)
	}
}

func (c *zkClient) flushDeletes(ctx sim.Ctx) {
	if c.conn != zkConnConnected {
		return
	}
outer:
	for _, p := range c.toDelete {
		for _, cl := range c.calls {
			if cl.op == OpDelete && cl.path == p {
				continue outer
			}
		}
		c.call(ctx, OpDelete, p, false, false)
	}
}

// Fire implements Process.
func (c *zkClient) Fire(ctx sim.Ctx, t sim.Timer) {
	switch c.Loop.Fire(ctx, t) {
	case sim.LoopWorkDone:
		c.finish(ctx)
		return
	case sim.LoopBegin:
		c.begin(ctx)
		return
	}
	if c.fireReentry(ctx, t) {
		return
	}
	mono := ctx.Mono()
	switch t.Kind {
	case timerDial:
		if t.Seq == c.cnx && c.conn == zkConnConnecting {
			c.dial(ctx)
		}
	case timerRefused:
		if t.Seq == c.cnx && c.conn == zkConnConnecting {
			c.disconnect(ctx, fmt.Sprintf("connection to %s refused", ctx.Sim().Nodes[c.serverNode()].Name), sim.Say("note.zk.refused", "server", ctx.Sim().Nodes[c.serverNode()].Name))
		}
	case timerRead:
		if t.Seq != c.readGen {
			return
		}
		var limit time.Duration
		switch c.conn {
		case zkConnConnected:
			limit = zkReadTimeout(c.timeout)
		case zkConnConnecting:
			limit = c.negotiated(ctx) / time.Duration(c.n)
		default:
			return
		}
		if idle := mono - c.lastRecv; due(idle, limit) {
			if c.conn == zkConnConnected {
				ctx.Renewed(false) // the pings went unanswered
			}
			c.disconnect(ctx, fmt.Sprintf("have not heard from server in %v", idle.Round(time.Millisecond)), sim.Say("note.zk.notHeard", "idle", idle.Round(time.Millisecond).String()))
			return
		}
		ctx.After(c.lastRecv+limit-mono, sim.Timer{Kind: timerRead, Seq: c.readGen})
	case timerPing:
		if t.Seq != c.cnx || c.conn != zkConnConnected {
			return
		}
		iv := PingInterval(c.timeout)
		if due(mono-c.lastSend, iv) {
			c.send(ctx, Request{Op: OpPing}.Msg())
		}
		ctx.After(c.lastSend+iv-mono, sim.Timer{Kind: timerPing, Seq: c.cnx})
	case timerLost:
		if t.Seq != c.suspendGen || c.cstate != SessionSuspended {
			return
		}
		// Curator: the session timeout elapsed while SUSPENDED; it injects
		// an expiration and builds a new handle.
		c.lose(ctx, "session timeout elapsed while SUSPENDED", sim.Say("note.zk.suspendedTimeout"))
		c.conn = zkConnNone
		c.calls = nil
		c.connect(ctx)
	}
}

// finish ends the work. With respectSuspended the worker reads the flag
// its connection-state listener keeps just before it sends the write: a
// SUSPENDED connection stops it (it keeps its place and redoes the work
// on RECONNECTED), a LOST session ends it. The holder stopped believing
// when the listener was told (suspend, lose); this read is where its
// write path stops. A pause after this read still sends the write.
func (c *zkClient) finish(ctx sim.Ctx) {
	if c.latchFinish(ctx) {
		return // the leader's worker (latch.go)
	}
	if RespectSuspended.Of(ctx.Scenario()) {
		switch {
		case c.flagLost:
			c.ourPath, c.step = "", ""
			c.Lost(ctx, "session LOST: it does not write", sim.Say("note.zk.lostNoWrite"))
			return
		case c.flagSuspended:
			c.Stop(ctx, "connection SUSPENDED: it does not write", sim.Say("note.zk.suspendedNoWrite"))
			return
		}
	}
	c.Write(ctx, c.Token)
}

// release ends the critical section once the storage answered the write:
// a guaranteed delete of our znode, then think.
func (c *zkClient) release(ctx sim.Ctx) {
	if c.latchNextPeriod(ctx) {
		return // the leader works on (latch.go)
	}
	c.Release(ctx)
	c.lockCount = 0
	if c.ourPath != "" {
		c.toDelete = append(c.toDelete, LockPath+"/"+c.ourPath)
		c.flushDeletes(ctx)
	}
	c.ourPath, c.step = "", ""
	c.Rest(ctx)
	if c.Finished() {
		c.close(ctx)
	}
}

// close is the application closing its client after the last round
// (CuratorFramework.close(), ZooKeeper.close()). ClientCnxn.close (apache/
// zookeeper, zookeeper-server/src/main/java/org/apache/zookeeper/
// ClientCnxn.java) queues a closeSession request behind the guaranteed
// delete and marks the handle closing; SendThread then never reconnects
// ("don't re-establish connection if we are closing"). The leader's
// closeSession transaction deletes the session's ephemerals at once
// (PrepRequestProcessor), not at the session's expiry. A handle that is
// not connected sends nothing: its session expires on the servers.
func (c *zkClient) close(ctx sim.Ctx) {
	if c.closing {
		return
	}
	c.closing = true
	c.cstate = SessionClosed
	if c.conn != zkConnConnected {
		c.conn, c.calls = zkConnNone, nil
		ctx.TraceSaid(traceState, SessionClosed, "close() while disconnected: the session is left to expire", sim.Say("note.zk.closeDisconnected"))
		return
	}
	c.xid++
	c.send(ctx, Request{Op: OpCloseSession, Xid: c.xid}.Msg())
	if !ctx.Tracing() {
		return
	}
	ctx.TraceSaid(traceState, SessionClosed, fmt.Sprintf("rounds done: close() sends closeSession for %#x", c.session), sim.Say("note.zk.close", "session", fmt.Sprintf("%#x", c.session)))
}

func (c *zkClient) detail(s *sim.Sim, id sim.NodeID) (string, sim.Words) {
	n := s.Nodes[id]
	if n.Crashed {
		return "", sim.Words{}
	}
	timeout := c.timeout
	if timeout == 0 {
		timeout = s.Scenario.TTL.D()
	}
	server := s.Nodes[c.serverNode()].Name
	switch {
	case c.cstate == SessionSuspended:
		elapsed := (n.Clock.Wall(s.Now()) - c.suspendedAt).Round(time.Millisecond)
		return fmt.Sprintf("SUSPENDED %v of %v, then LOST", elapsed, timeout),
			sim.Say("detail.zk.suspended", "elapsed", elapsed.String(), "timeout", timeout.String())
	case c.conn == zkConnConnected:
		heard := (n.Clock.Mono(s.Now()) - c.lastRecv).Round(time.Millisecond)
		read := zkReadTimeout(timeout).Round(time.Millisecond)
		return fmt.Sprintf("%s · session %#x · heard %v ago (read timeout %v)", server, c.session, heard, read),
			sim.Say("detail.zk.connected", "server", server, "session", fmt.Sprintf("%#x", c.session),
				"heard", heard.String(), "readTimeout", read.String())
	case c.conn == zkConnConnecting:
		return "connecting to " + server, sim.Say("detail.zk.connecting", "server", server)
	}
	return "", sim.Words{}
}
