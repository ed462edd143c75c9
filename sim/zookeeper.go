package sim

import (
	"fmt"
	"math/bits"
	"sort"
	"strconv"
	"strings"
	"time"
	"unsafe"
)

// The ZooKeeper mode: an ensemble zk-1…zk-N running Zab (FastLeaderElection,
// discovery and synchronisation, then atomic broadcast with majority acks),
// sessions kept alive by pings and expired by the leader, and clients that
// run Curator's InterProcessMutex recipe over ZooKeeper's ClientCnxn.
//
// Figures are ZooKeeper 3.8's and Curator 5's:
//   - tickTime 2000 ms; a session timeout is clamped to [2, 20]·tickTime.
//   - The client pings when it has sent nothing for readTimeout/2 − 1 s
//     (readTimeout = 2/3 of the negotiated timeout; at most every 10 s) and
//     drops the connection when it has heard nothing for readTimeout; it
//     then waits a random 0–1 s and tries the next server, giving each
//     timeout/N to answer (ClientCnxn).
//   - Followers note each session they hear from and report the set to the
//     leader in their reply to its ping, every tickTime/2; the leader
//     touches a session to expire at the tickTime boundary after
//     last-heard + timeout (ExpiryQueue.roundToNextInterval) and then
//     commits one closeSession transaction, which deletes the session's
//     ephemeral znodes.
//   - Curator reports SUSPENDED on a disconnect, RECONNECTED when the same
//     or a new session connects, and LOST when the server says the session
//     expired or when the session timeout has passed on the wall clock
//     while SUSPENDED (ConnectionStateManager.checkSessionExpiration).
//   - A follower that has heard nothing from its leader for syncLimit ticks,
//     or a leader that has not heard from a quorum for as long, stops
//     serving, closes its client connections and starts an election
//     (syncLimit 5 and initLimit 10, as zoo_sample.cfg). FastLeaderElection
//     picks the highest zxid, then the highest server id, and decides
//     finalizeWait (200 ms) after a quorum agrees: with a crash noticed at
//     once, writes stall for about 200 ms plus a few round trips.
//   - A crash is a process crash: the kernel resets its TCP connections and
//     refuses new ones, so peers and clients notice within a round trip. A
//     silent death is a partition.
//   - A server answers a session's reads and pings only after that
//     session's earlier writes (CommitProcessor keeps each session in
//     order), so a write that cannot commit also starves the pings.
//   - The run starts with an established ensemble led by zk-1 (epoch 1).
//
// The lock is Curator's InterProcessMutex (LockInternals with the
// StandardLockInternalsDriver): a protected EPHEMERAL_SEQUENTIAL create of
// /locks/mylock/_c_<guid>-lock-<seq10>, where seq is the parent's cversion
// (so deletes advance it too); after a lost create reply the client first
// looks for its _c_<guid> node. Then getChildren sorted by sequence: the
// lowest holds; otherwise getData with a watch on the node just before, and
// on NoNode or on the watch firing, list again. A waiter whose node has
// gone (its session expired) starts over. Release is a guaranteed delete.
// With herd, every waiter lists with a watch on the lock znode instead and
// lists again at every change. The fencing token is the sequence number.
//
// respectSuspended is the application's ConnectionStateListener, as
// Curator's documentation advises: on SUSPENDED the holder stops working
// and writes nothing; on RECONNECTED within the same session its znode is
// intact ("you still hold the lock"), so it is granted again and does its
// interrupted work from the start; on LOST it gives up the round. Without
// it the holder ignores connection states and writes anyway (the issue's
// CURATOR-206 case; Curator's Tech Note 10 tells the GC-pause version).

// ZooKeeper and Curator figures, named as in their configuration or source.
const (
	// ZKTickTime is zoo.cfg's tickTime: the unit of session timeouts, of the
	// leader's session-expiry buckets and of syncLimit and initLimit.
	ZKTickTime = 2000 * time.Millisecond
	// ZKSyncLimit is zoo.cfg's syncLimit in ticks: how long a follower waits
	// to hear from its leader, and a leader from a quorum, before giving up.
	ZKSyncLimit = 5
	// ZKInitLimit is zoo.cfg's initLimit in ticks: how long a new leader and
	// its followers may take to synchronise before they elect again.
	ZKInitLimit = 10
	// ZKFinalizeWait is FastLeaderElection's finalizeWait: once a quorum
	// agrees on a vote, a server waits this long for a better one before it
	// decides. It sets the length of an election.
	ZKFinalizeWait = 200 * time.Millisecond
	// ZKMaxNotificationInterval caps FastLeaderElection's backoff between
	// two rounds of vote notifications while no quorum answers.
	ZKMaxNotificationInterval = 60 * time.Second
	// ZKLockPath is the lock znode under which every client queues.
	ZKLockPath = "/locks/mylock"
	// ZKLockName is InterProcessMutex's lock name, before the sequence.
	ZKLockName = "lock-"
	// ZKProtectedPrefix starts a znode created in Curator's protected mode:
	// _c_<guid>- lets a client find its own node after a lost create reply.
	ZKProtectedPrefix = "_c_"
)

const (
	zkMaxSendPingInterval = 10 * time.Second        // ClientCnxn.MAX_SEND_PING_INTERVAL
	zkPingSlack           = 1000 * time.Millisecond // ClientCnxn pings 1 s early
	zkReconnectJitter     = 1000 * time.Millisecond // ClientCnxn.startConnect sleeps rand(1000) ms
	zkLeaderConnectRetry  = 100 * time.Millisecond  // Learner leaderConnectDelayDuringRetryMs
	zkEps                 = time.Microsecond        // slack when a lazy timer checks its deadline
)

// Server states, as QuorumPeer.ServerState names them.
const (
	zkLooking   = "LOOKING"
	zkFollowing = "FOLLOWING"
	zkLeading   = "LEADING"
)

// Curator connection states a client shows.
const (
	ZKConnected = "CONNECTED"
	ZKSuspended = "SUSPENDED"
	ZKLost      = "LOST"
	// ZKClosed is a handle the client closed after its last round
	// (ZooKeeper.close()): it no longer reconnects.
	ZKClosed = "CLOSED"
)

// Wire operations. Between a client and its server: N is the connection
// number, Seq the request xid, Token the zxid the server has reached (the
// session id in CONNECTED). Between servers a transaction travels as Token
// zxid, Value kind, Key znode name, N session, Seq client xid, TTL session
// timeout and Names[0] the session's owner.
//
// Deadline carries a message's position on its connection (a client's
// connection to its server, a follower's to its leader). TCP delivers in
// order or breaks the connection; the simulator drops what a partition
// cuts, so a receiver that sees a gap treats the connection as reset. A
// server trusts a client message without a number (Deadline 0), so the
// conformance tests' scripted clients can speak to it.
const (
	zkOpConnect     = "CONNECT"
	zkOpConnected   = "CONNECTED"
	zkOpExpired     = "EXPIRED"
	zkOpClose       = "CLOSE" // the connection was closed or reset
	zkOpPing        = "PING"
	zkOpPong        = "PONG"
	zkOpCreate      = "CREATE"
	zkOpDelete      = "DELETE"
	zkOpChildren    = "GETCHILDREN"
	zkOpGetData     = "GETDATA"
	zkOpOK          = "OK"
	zkOpErr         = "ERR"
	zkOpWatch       = "WATCH"
	zkOpVote        = "VOTE"
	zkOpFollowInfo  = "FOLLOWERINFO"
	zkOpTrunc       = "TRUNC"
	zkOpDiff        = "DIFF"
	zkOpNewLeader   = "NEWLEADER"
	zkOpAckNewLdr   = "ACKNEWLEADER"
	zkOpUpToDate    = "UPTODATE"
	zkOpRequest     = "REQUEST"
	zkOpProposal    = "PROPOSAL"
	zkOpAck         = "ACK"
	zkOpCommit      = "COMMIT"
	zkOpRevalidate  = "REVALIDATE"
	zkOpCloseSess   = "CLOSESESSION" // a client's closeSession request (ZooKeeper.close())
	zkErrNoNode     = "NoNode"
	zkErrExpired    = "SessionExpired"
	zkEventDeleted  = "NodeDeleted"
	zkEventChildren = "NodeChildrenChanged"
)

// Transaction kinds.
const (
	zkTxnCreate       = "create"
	zkTxnDelete       = "delete"
	zkTxnCreateSess   = "createSession"
	zkTxnCloseSession = "closeSession"
	zkRevalidate      = "revalidate" // a wait, not a transaction
)

func init() { RegisterMode(zkMode{}) }

type zkMode struct{}

func (zkMode) Name() string { return "zookeeper" }

// zkTraits: an ensemble of servers, a session timeout, and the znode's
// sequence number as every grant's token.
var zkTraits = Traits{
	LeaseWord: "session", ServerWord: "servers", Token: TokenAlways,
	Fields: []string{"nodes", "herd", "respectSuspended", "fencing"},
	Refusals: map[string]error{
		"plainDel": fieldErr("plainDel", say("field.zkPlainDel"), "only for redis; a zookeeper client releases by deleting its own znode"),
		"replica":  fieldErr("replica", say("field.zkReplica"), "only for redis; a zookeeper ensemble replicates every write (set nodes)"),
		"watchdog": fieldErr("watchdog", say("field.zkWatchdog"), "only for redis and redlock; a zookeeper session is kept alive by pings"),
	},
}

func (zkMode) Traits() Traits { return zkTraits }

func (zkMode) Defaults(sc *Scenario) {
	sc.Nodes = 3
	sc.Tries = 0
}

func (zkMode) Validate(sc *Scenario) error {
	switch {
	case sc.Nodes < 1 || sc.Nodes > 7:
		return fieldErr("nodes", say("field.zkNodes", "n", strconv.Itoa(sc.Nodes)), "%d, want 1 to 7", sc.Nodes)
	}
	return nil
}

func (zkMode) Servers(sc *Scenario) []string {
	out := make([]string, sc.Nodes)
	for i := range out {
		out[i] = fmt.Sprintf("zk-%d", i+1)
	}
	return out
}

func (zkMode) CanFailover(sc *Scenario, node string) error {
	return fieldErr("", say("field.zkFailover"), "a zookeeper ensemble elects its own leader: crash the leader instead")
}

func (zkMode) Failover(s *Sim, node NodeID) { s.CrashNode(node) }

func (zkMode) NewServer(sc *Scenario, i int) Process {
	return &zkServer{sid: i + 1, n: sc.Nodes, fresh: true}
}

func (zkMode) NewClient(sc *Scenario, i int) Process {
	return &zkClient{idx: i, n: sc.Nodes}
}

// ZKSessionTimeout is the timeout a server grants for a requested one:
// clamped to [minSessionTimeout, maxSessionTimeout] = [2, 20]·tickTime.
func ZKSessionTimeout(requested time.Duration) time.Duration {
	return min(max(requested, 2*ZKTickTime), 20*ZKTickTime)
}

// ZKPingInterval is how long a connected ZooKeeper client stays silent
// before it pings, for a negotiated session timeout (ClientCnxn: ping when
// idleSend reaches readTimeout/2, less 1 s once idleSend passes 1 s, and at
// least every MAX_SEND_PING_INTERVAL).
func ZKPingInterval(timeout time.Duration) time.Duration {
	half := zkReadTimeout(timeout) / 2
	var d time.Duration
	switch {
	case half <= zkPingSlack:
		d = half
	case half-zkPingSlack > zkPingSlack:
		d = half - zkPingSlack
	default:
		d = zkPingSlack + time.Millisecond
	}
	return min(d, zkMaxSendPingInterval+time.Millisecond)
}

// zkReadTimeout is ClientCnxn's readTimeout: 2/3 of the session timeout.
func zkReadTimeout(timeout time.Duration) time.Duration { return timeout * 2 / 3 }

// zkRoundUp is ExpiryQueue.roundToNextInterval: the tick boundary after t.
func zkRoundUp(t time.Duration) time.Duration {
	return (t/ZKTickTime + 1) * ZKTickTime
}

func zkQuorum(n int) int { return n/2 + 1 }

func due(now, at time.Duration) bool { return now+zkEps >= at }

// zkSeqOf reads the sequence number a sequential znode name ends with.
func zkSeqOf(name string) int64 {
	i := strings.LastIndex(name, ZKLockName)
	if i < 0 {
		return -1
	}
	v, err := strconv.ParseInt(name[i+len(ZKLockName):], 10, 64)
	if err != nil {
		return -1
	}
	return v
}

// zkSortChildren sorts lock children by sequence, as LockInternals does.
func zkSortChildren(names []string) []string {
	out := make([]string, 0, len(names))
	for _, n := range names {
		if zkSeqOf(n) >= 0 {
			out = append(out, n)
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return zkSeqOf(out[i]) < zkSeqOf(out[j]) })
	return out
}

// zkTxn is one transaction of the replicated log.
type zkTxn struct {
	Zxid    int64
	Kind    string
	Path    string // child name under ZKLockPath
	Session int64
	Cxid    int64 // the client's xid, so the server it came through can answer
	Timeout time.Duration
	Owner   string // createSession: the client, for display
}

func (x zkTxn) msg(op string) Msg {
	m := Msg{Op: op, Token: x.Zxid, Value: x.Kind, Key: x.Path, N: x.Session, Seq: x.Cxid, TTL: x.Timeout}
	if x.Owner != "" {
		m.Names = []string{x.Owner}
	}
	return m
}

func zkTxnOf(m Msg) zkTxn {
	x := zkTxn{Zxid: m.Token, Kind: m.Value, Path: m.Key, Session: m.N, Cxid: m.Seq, Timeout: m.TTL}
	if len(m.Names) > 0 {
		x.Owner = m.Names[0]
	}
	return x
}

// zkZnode is an ephemeral sequential child of the lock znode.
type zkZnode struct {
	Name    string
	Seq     int64
	Session int64
	Czxid   int64
}

// zkSessionInfo is a session in the replicated session table.
type zkSessionInfo struct {
	ID      int64
	Timeout time.Duration
	Owner   string
}

// zkTree is a server's data: the lock znode's children and the sessions.
type zkTree struct {
	nodes    []zkZnode
	cversion int64
	pzxid    int64
	sessions []zkSessionInfo
}

func (t zkTree) clone() zkTree {
	t.nodes = append([]zkZnode(nil), t.nodes...)
	t.sessions = append([]zkSessionInfo(nil), t.sessions...)
	return t
}

func (t *zkTree) find(name string) int {
	for i, n := range t.nodes {
		if n.Name == name {
			return i
		}
	}
	return -1
}

func (t *zkTree) session(id int64) int {
	for i, s := range t.sessions {
		if s.ID == id {
			return i
		}
	}
	return -1
}

func (t *zkTree) owner(session int64) string {
	if i := t.session(session); i >= 0 {
		return t.sessions[i].Owner
	}
	return ""
}

func (t *zkTree) lowest() (zkZnode, bool) {
	if len(t.nodes) == 0 {
		return zkZnode{}, false
	}
	best := t.nodes[0]
	for _, n := range t.nodes[1:] {
		if n.Seq < best.Seq {
			best = n
		}
	}
	return best, true
}

// apply runs one committed transaction; it returns the znodes it deleted
// and whether the children of the lock znode changed.
func (t *zkTree) apply(x zkTxn) (deleted []string, changed bool) {
	switch x.Kind {
	case zkTxnCreate:
		t.nodes = append(t.nodes, zkZnode{Name: x.Path, Seq: zkSeqOf(x.Path), Session: x.Session, Czxid: x.Zxid})
		t.cversion++
		t.pzxid = x.Zxid
		return nil, true
	case zkTxnDelete:
		if i := t.find(x.Path); i >= 0 {
			t.nodes = append(t.nodes[:i], t.nodes[i+1:]...)
			t.cversion++
			t.pzxid = x.Zxid
			return []string{x.Path}, true
		}
	case zkTxnCreateSess:
		if t.session(x.Session) < 0 {
			t.sessions = append(t.sessions, zkSessionInfo{ID: x.Session, Timeout: x.Timeout, Owner: x.Owner})
		}
	case zkTxnCloseSession:
		if i := t.session(x.Session); i >= 0 {
			t.sessions = append(t.sessions[:i], t.sessions[i+1:]...)
		}
		keep := t.nodes[:0]
		for _, n := range t.nodes {
			if n.Session == x.Session {
				deleted = append(deleted, n.Name)
				t.cversion++
				t.pzxid = x.Zxid
				continue
			}
			keep = append(keep, n)
		}
		t.nodes = keep
		return deleted, len(deleted) > 0
	}
	return nil, false
}

// zkVote is a FastLeaderElection vote (or notification).
type zkVote struct {
	leader int
	zxid   int64
	round  int64
	state  string
	valid  bool
}

// better is FastLeaderElection.totalOrderPredicate: higher zxid, then
// higher server id. (Epochs are the high half of the zxid.)
func (a zkVote) better(b zkVote) bool {
	return a.zxid > b.zxid || (a.zxid == b.zxid && a.leader > b.leader)
}

// zkPeer is the leader's view of one follower (a LearnerHandler).
type zkPeer struct {
	info       bool  // sent FOLLOWERINFO to this leader
	conn       int64 // the follower's connection id
	sent, rcvd int64 // messages on the connection each way
	epoch      int64
	lastZxid   int64
	forwarding bool // synchronised: gets every proposal and commit
	ackedNL    bool // acknowledged NEWLEADER
	heard      time.Duration
}

// zkTracked is a session in the leader's SessionTracker.
type zkTracked struct {
	id       int64
	timeout  time.Duration
	expireAt time.Duration // on the leader's monotonic clock, a tick boundary
	closing  bool
}

// zkConn is a client connection a server holds.
type zkConn struct {
	client     NodeID
	cnx        int64
	session    int64
	sent, rcvd int64 // messages on the connection each way
}

// zkWatch is a one-shot watch a server holds for a connected client.
type zkWatch struct {
	client NodeID
	cnx    int64
	path   string
	child  bool // a getChildren watch on the lock znode
}

// zkWait is a client request the server answers when the leader has
// committed it (or answered a revalidation).
type zkWait struct {
	client  NodeID
	cnx     int64
	session int64
	cxid    int64
	kind    string
	timeout time.Duration
	order   int64 // arrival order, for the session's later reads
}

// zkQueued is a read or ping that waits for its session's earlier writes,
// as ZooKeeper's CommitProcessor keeps each session's requests in order.
type zkQueued struct {
	client  NodeID
	cnx     int64
	session int64
	order   int64
	m       Msg
}

// zkServer is one ZooKeeper server (QuorumPeer with its ZooKeeperServer).
type zkServer struct {
	sid, n  int
	base    NodeID // the NodeID of zk-1
	fresh   bool   // never started: join the initial ensemble led by zk-1
	state   string
	leader  int  // the sid followed or led
	serving bool // accepts client connections
	era     int64
	since   time.Duration

	// Durable: the transaction log, the epochs, and what is committed.
	acceptedEpoch int64
	currentEpoch  int64
	log           chunked[zkTxn]
	commit        int
	tree          zkTree

	// FastLeaderElection.
	round      int64
	vote       zkVote
	recv       []zkVote
	outOf      []zkVote
	finalizing bool
	finalizeAt time.Duration
	notTimeout time.Duration
	lastNotif  time.Duration

	// Leader.
	peers       []zkPeer
	decided     bool
	established bool
	counter     int64
	prep        zkTree         // every logged transaction applied: what new requests see
	acks        chunked[uint8] // per log entry from commit on: the servers that acked it
	tracker     []zkTracked
	owner       string // lowest child last reported to the checker

	// Follower.
	heard        time.Duration
	synced       bool
	touched      []int64
	lsent, lrcvd int64 // messages on the connection to the leader

	// Clients.
	conns       []zkConn
	watches     []zkWatch
	waits       []zkWait
	queued      []zkQueued
	order       int64
	nextSession int64
}

// Clone implements Process.
func (s *zkServer) Clone() Process {
	c := *s
	c.log = s.log.Clone()
	c.tree = s.tree.clone()
	c.prep = s.prep.clone()
	c.recv = append([]zkVote(nil), s.recv...)
	c.outOf = append([]zkVote(nil), s.outOf...)
	c.peers = append([]zkPeer(nil), s.peers...)
	c.acks = s.acks.Clone()
	c.tracker = append([]zkTracked(nil), s.tracker...)
	c.touched = append([]int64(nil), s.touched...)
	c.conns = append([]zkConn(nil), s.conns...)
	c.watches = append([]zkWatch(nil), s.watches...)
	c.waits = append([]zkWait(nil), s.waits...)
	c.queued = append([]zkQueued(nil), s.queued...)
	return &c
}

func (s *zkServer) node(sid int) NodeID { return s.base + NodeID(sid-1) }

func (s *zkServer) sidOf(id NodeID) int { return int(id-s.base) + 1 }

func (s *zkServer) lastLogged() int64 {
	if s.log.Len() == 0 {
		return 0
	}
	return s.log.Last().Zxid
}

func (s *zkServer) lastCommitted() int64 {
	if s.commit == 0 {
		return 0
	}
	return s.log.At(s.commit - 1).Zxid
}

func (s *zkServer) quorum() int { return zkQuorum(s.n) }

// toPeer sends on the leader's connection to follower sid.
func (s *zkServer) toPeer(ctx Ctx, sid int, m Msg) {
	p := &s.peers[sid-1]
	p.sent++
	m.Deadline = time.Duration(p.sent)
	ctx.Send(s.node(sid), m)
}

// toLeader sends on this follower's connection to its leader.
func (s *zkServer) toLeader(ctx Ctx, m Msg) {
	s.lsent++
	m.Deadline = time.Duration(s.lsent)
	ctx.Send(s.node(s.leader), m)
}

// toClient sends on client connection i.
func (s *zkServer) toClient(ctx Ctx, i int, m Msg) {
	c := &s.conns[i]
	c.sent++
	m.N = c.cnx
	m.Deadline = time.Duration(c.sent)
	ctx.Send(c.client, m)
}

// accept opens a client connection for a session and answers CONNECTED.
func (s *zkServer) accept(ctx Ctx, w zkWait) {
	s.conns = append(s.conns, zkConn{client: w.client, cnx: w.cnx, session: w.session, rcvd: 1})
	if s.state != zkLeading {
		s.noteTouch(w.session)
	}
	s.toClient(ctx, len(s.conns)-1, Msg{Op: zkOpConnected, Token: w.session, TTL: w.timeout})
}

// dropConn forgets a client's connection with its watches and queued reads.
func (s *zkServer) dropConn(client NodeID) {
	keep := s.conns[:0]
	for _, c := range s.conns {
		if c.client != client {
			keep = append(keep, c)
		}
	}
	s.conns = keep
	s.dropWatches(client)
	q := s.queued[:0]
	for _, r := range s.queued {
		if r.client != client {
			q = append(q, r)
		}
	}
	s.queued = q
}

func (s *zkServer) nextOrder() int64 {
	s.order++
	return s.order
}

// Start implements Process: the first boot joins the ensemble zk-1 leads;
// a restart looks for a leader.
func (s *zkServer) Start(ctx Ctx) {
	s.base = ctx.ID() - NodeID(s.sid-1)
	// SessionTrackerImpl.initializeNextSessionId: sid in the top byte, the
	// boot time in ms shifted up 16 bits, then a counter.
	s.nextSession = int64(s.sid)<<56 | int64(uint64(ctx.Mono()/time.Millisecond)<<24>>8)
	if !s.fresh {
		s.startElection(ctx, "restarted", say("note.zk.restarted"))
		return
	}
	s.fresh = false
	s.acceptedEpoch, s.currentEpoch, s.round = 1, 1, 1
	s.vote = zkVote{leader: 1, round: 1, valid: true}
	if s.sid == 1 {
		s.enter(ctx, zkLeading, 1)
		s.decided, s.established, s.serving = true, true, true
		for i := range s.peers {
			if i != s.sid-1 {
				s.peers[i] = zkPeer{info: true, epoch: 1, forwarding: true, ackedNL: true, heard: ctx.Mono()}
			}
		}
		s.armLeader(ctx)
		s.armExpirer(ctx)
		return
	}
	s.enter(ctx, zkFollowing, 1)
	s.synced, s.serving = true, true
	ctx.After(ZKTickTime/2, Timer{Kind: "tick", Seq: s.era})
}

// enter switches role: every timer of the previous role goes stale.
func (s *zkServer) enter(ctx Ctx, state string, leader int) {
	s.state, s.leader = state, leader
	s.era++
	s.since = ctx.Mono()
	s.serving = false
	s.finalizing = false
	s.peers, s.acks, s.tracker = nil, chunked[uint8]{}, nil
	s.decided, s.established = false, false
	s.prep = zkTree{}
	s.synced = false
	s.heard = ctx.Mono()
	if state == zkLeading {
		s.peers = make([]zkPeer, s.n)
	}
}

// Crash implements Process: the kernel resets every connection, so peers
// and clients see it closed; memory is gone, the log stays on disk.
func (s *zkServer) Crash(ctx Ctx) {
	for _, c := range s.conns {
		ctx.Send(c.client, Msg{Op: zkOpClose, N: c.cnx})
	}
	for sid := 1; sid <= s.n; sid++ {
		if sid != s.sid {
			ctx.Send(s.node(sid), Msg{Op: zkOpClose})
		}
	}
	if s.state == zkLeading {
		s.disownLock(ctx)
	}
	s.conns, s.watches, s.waits, s.touched, s.queued = nil, nil, nil, nil, nil
	s.state, s.leader, s.serving = zkLooking, 0, false
	s.peers, s.acks, s.tracker, s.recv, s.outOf = nil, chunked[uint8]{}, nil, nil, nil
	s.decided, s.established, s.finalizing, s.synced = false, false, false, false
	s.prep = zkTree{}
	s.era++
}

// Restart implements Process: the log is replayed (persist), or the server
// comes back empty and learns everything from the leader.
func (s *zkServer) Restart(ctx Ctx, persist bool) {
	if !persist {
		s.log, s.commit, s.tree = chunked[zkTxn]{}, 0, zkTree{}
		s.acceptedEpoch, s.currentEpoch = 0, 0
	}
	s.fresh = false
	s.Start(ctx)
}

// dropClients closes every client connection, as a server that stops
// serving does; the clients see a disconnect.
func (s *zkServer) dropClients(ctx Ctx) {
	for _, c := range s.conns {
		ctx.Send(c.client, Msg{Op: zkOpClose, N: c.cnx})
	}
	s.conns, s.watches, s.waits, s.touched, s.queued = nil, nil, nil, nil, nil
}

func (s *zkServer) disownLock(ctx Ctx) {
	if s.owner != "" {
		ctx.Disown(ZKLockPath, false)
		s.owner = ""
	}
}

// startElection is QuorumPeer going LOOKING: stop serving and run
// FastLeaderElection.
func (s *zkServer) startElection(ctx Ctx, why string, words Words) {
	switch s.state {
	case zkLeading:
		s.disownLock(ctx)
		for i, p := range s.peers {
			if p.info {
				ctx.Send(s.node(i+1), Msg{Op: zkOpClose})
			}
		}
	case zkFollowing:
		ctx.Send(s.node(s.leader), Msg{Op: zkOpClose})
	}
	s.dropClients(ctx)
	s.enter(ctx, zkLooking, 0)
	ctx.TraceSaid("election", zkLooking, why, words)
	s.round++
	s.vote = zkVote{leader: s.sid, zxid: s.lastLogged(), round: s.round, state: zkLooking, valid: true}
	s.recv = make([]zkVote, s.n)
	s.outOf = make([]zkVote, s.n)
	s.recv[s.sid-1] = s.vote
	s.notTimeout = ZKFinalizeWait
	s.lastNotif = ctx.Mono()
	s.broadcastVote(ctx)
	ctx.After(s.notTimeout, Timer{Kind: "fle", Seq: s.era})
	s.checkVotes(ctx)
}

func (s *zkServer) voteMsg() Msg {
	v := s.vote
	return Msg{Op: zkOpVote, N: int64(v.leader), Token: v.zxid, Seq: s.round, Value: s.state}
}

func (s *zkServer) broadcastVote(ctx Ctx) {
	for sid := 1; sid <= s.n; sid++ {
		if sid != s.sid {
			ctx.Send(s.node(sid), s.voteMsg())
		}
	}
}

// onVote is FastLeaderElection's handling of one notification.
func (s *zkServer) onVote(ctx Ctx, p int, m *Msg) {
	n := zkVote{leader: int(m.N), zxid: m.Token, round: m.Seq, state: m.Value, valid: true}
	if s.state != zkLooking {
		if n.state == zkLooking {
			ctx.Send(s.node(p), s.voteMsg()) // tell the looker who leads
		}
		return
	}
	if s.finalizing {
		s.finalizeAt = ctx.Mono() + ZKFinalizeWait // the poll waits again
	}
	s.lastNotif = ctx.Mono()
	if n.state == zkLooking {
		mine := zkVote{leader: s.sid, zxid: s.lastLogged()}
		switch {
		case n.round > s.round:
			s.round = n.round
			s.recv = make([]zkVote, s.n)
			s.vote = mine
			if n.better(mine) {
				s.vote = zkVote{leader: n.leader, zxid: n.zxid}
			}
			s.vote.round, s.vote.valid = s.round, true
			s.recv[s.sid-1] = s.vote
			s.finalizing = false
			s.broadcastVote(ctx)
		case n.round < s.round:
			ctx.Send(s.node(p), s.voteMsg())
			return
		case n.better(s.vote):
			s.vote = zkVote{leader: n.leader, zxid: n.zxid, round: s.round, valid: true}
			s.recv[s.sid-1] = s.vote
			s.finalizing = false
			s.broadcastVote(ctx)
		}
		s.recv[p-1] = n
		s.checkVotes(ctx)
		return
	}
	// The sender already follows or leads: join if a quorum says the same
	// leader and that leader says it leads (termPredicate + checkLeader).
	s.outOf[p-1] = n
	count := 0
	for _, v := range s.outOf {
		if v.valid && v.leader == n.leader {
			count++
		}
	}
	l := s.outOf[n.leader-1]
	if n.leader != s.sid && count >= s.quorum() && l.valid && l.state == zkLeading {
		s.round = n.round
		s.vote = zkVote{leader: n.leader, zxid: n.zxid, round: n.round, valid: true}
		s.decide(ctx, n.leader)
	}
}

// checkVotes starts the finalize wait when a quorum shares this vote.
func (s *zkServer) checkVotes(ctx Ctx) {
	count := 0
	for _, v := range s.recv {
		if v.valid && v.round == s.round && v.leader == s.vote.leader && v.zxid == s.vote.zxid {
			count++
		}
	}
	if count >= s.quorum() && !s.finalizing {
		s.finalizing = true
		s.finalizeAt = ctx.Mono() + ZKFinalizeWait
		ctx.After(ZKFinalizeWait, Timer{Kind: "finalize", Seq: s.era})
	}
}

func (s *zkServer) decide(ctx Ctx, leader int) {
	if leader == s.sid {
		s.becomeLeader(ctx)
	} else {
		s.becomeFollower(ctx, leader)
	}
}

func (s *zkServer) becomeLeader(ctx Ctx) {
	s.enter(ctx, zkLeading, s.sid)
	ctx.TraceSaid("election", zkLeading, fmt.Sprintf("elected, last zxid %#x", s.lastLogged()), say("note.zk.elected", "zxid", fmt.Sprintf("%#x", s.lastLogged())))
	s.prep = s.tree.clone()
	s.log.Range(s.commit, func(_ int, x zkTxn) bool {
		s.prep.apply(x)
		return true
	})
	s.acks = chunked[uint8]{}
	for range s.log.Len() {
		s.acks.Append(1 << (s.sid - 1))
	}
	s.armLeader(ctx)
	s.maybeDecideEpoch(ctx)
}

func (s *zkServer) becomeFollower(ctx Ctx, leader int) {
	s.enter(ctx, zkFollowing, leader)
	ctx.TraceSaid("election", zkFollowing, fmt.Sprintf("following zk-%d", leader), say("note.zk.following", "leader", fmt.Sprintf("zk-%d", leader)))
	s.sendFollowerInfo(ctx)
	ctx.After(ZKTickTime/2, Timer{Kind: "tick", Seq: s.era})
	ctx.After(zkLeaderConnectRetry, Timer{Kind: "finfo", Seq: s.era})
}

// sendFollowerInfo opens (or retries opening) the connection to the
// leader: always message 1, with this role's era as connection id.
func (s *zkServer) sendFollowerInfo(ctx Ctx) {
	s.lsent, s.lrcvd = 1, 0
	ctx.Send(s.node(s.leader), Msg{Op: zkOpFollowInfo, N: s.acceptedEpoch, Token: s.lastLogged(), Seq: s.era, Deadline: 1})
}

func (s *zkServer) armLeader(ctx Ctx) {
	ctx.After(ZKTickTime/2, Timer{Kind: "tick", Seq: s.era})
}

func (s *zkServer) armExpirer(ctx Ctx) {
	mono := ctx.Mono()
	ctx.After(zkRoundUp(mono)-mono, Timer{Kind: "expire", Seq: s.era})
}

// maybeDecideEpoch is Leader.getEpochToPropose: once a quorum has reported
// its accepted epoch, the new epoch is one more than the largest.
func (s *zkServer) maybeDecideEpoch(ctx Ctx) {
	if s.decided {
		return
	}
	count, epoch := 1, s.acceptedEpoch
	for _, p := range s.peers {
		if p.info {
			count++
			epoch = max(epoch, p.epoch)
		}
	}
	if count < s.quorum() {
		return
	}
	s.decided = true
	s.acceptedEpoch, s.currentEpoch, s.counter = epoch+1, epoch+1, 0
	for i, p := range s.peers {
		if p.info {
			s.syncPeer(ctx, i)
		}
	}
	s.maybeEstablish(ctx)
}

// syncPeer brings a follower's log in line with the leader's (TRUNC and
// DIFF), then sends NEWLEADER; from now on it gets every proposal.
func (s *zkServer) syncPeer(ctx Ctx, i int) {
	p := &s.peers[i]
	from := -1
	for k := s.log.Len() - 1; k >= 0; k-- {
		if s.log.At(k).Zxid == p.lastZxid {
			from = k + 1
			break
		}
	}
	if p.lastZxid == 0 {
		from = 0
	}
	if from < 0 {
		// The follower has transactions the leader never saw: truncate it
		// to the last one both logs share.
		from = 0
		var z int64
		s.log.Range(0, func(k int, x zkTxn) bool {
			if x.Zxid < p.lastZxid {
				from, z = k+1, x.Zxid
			}
			return true
		})
		s.toPeer(ctx, i+1, Msg{Op: zkOpTrunc, Token: z})
	}
	for k := from; k < s.log.Len(); k++ {
		op := zkOpDiff
		if s.established && k >= s.commit {
			op = zkOpProposal
		}
		s.toPeer(ctx, i+1, s.log.At(k).msg(op))
	}
	s.toPeer(ctx, i+1, Msg{Op: zkOpNewLeader, N: s.currentEpoch, Token: s.currentEpoch << 32})
	p.forwarding = true
}

// maybeEstablish: once a quorum has acknowledged NEWLEADER the leader
// commits its whole history and starts serving.
func (s *zkServer) maybeEstablish(ctx Ctx) {
	if s.established || !s.decided {
		return
	}
	count := 1
	for _, p := range s.peers {
		if p.ackedNL {
			count++
		}
	}
	if count < s.quorum() {
		return
	}
	s.applyUpTo(ctx, s.log.Len())
	s.established, s.serving = true, true
	mono := ctx.Mono()
	for _, si := range s.tree.sessions {
		s.tracker = append(s.tracker, zkTracked{id: si.ID, timeout: si.Timeout, expireAt: zkRoundUp(mono + si.Timeout)})
	}
	for i, p := range s.peers {
		if p.ackedNL {
			s.toPeer(ctx, i+1, Msg{Op: zkOpUpToDate, Token: s.lastCommitted()})
		}
	}
	s.updateOwner(ctx, false)
	s.armExpirer(ctx)
	ctx.TraceSaid("election", "established", fmt.Sprintf("epoch %d, serving", s.currentEpoch), say("note.zk.established", "epoch", fmt.Sprint(s.currentEpoch)))
}

// Receive implements Process.
func (s *zkServer) Receive(ctx Ctx, from NodeID, m *Msg) {
	if ctx.Sim().Nodes[from].Client {
		s.fromClient(ctx, from, m)
		return
	}
	p := s.sidOf(from)
	if p < 1 || p > s.n || p == s.sid {
		return
	}
	if m.Op == zkOpVote {
		s.onVote(ctx, p, m)
		return
	}
	switch s.state {
	case zkLeading:
		s.fromFollower(ctx, p, m)
	case zkFollowing:
		if p == s.leader {
			s.fromLeader(ctx, m)
		}
	}
}

func (s *zkServer) fromFollower(ctx Ctx, p int, m *Msg) {
	peer := &s.peers[p-1]
	switch m.Op {
	case zkOpClose:
		*peer = zkPeer{}
		return
	case zkOpFollowInfo:
		if peer.info && peer.conn == m.Seq {
			return // a retry of a connection already accepted
		}
		*peer = zkPeer{info: true, conn: m.Seq, rcvd: 1, epoch: m.N, lastZxid: m.Token, heard: ctx.Mono()}
		if s.decided {
			s.syncPeer(ctx, p-1)
		} else {
			s.maybeDecideEpoch(ctx)
		}
		return
	}
	if !peer.info {
		return
	}
	if int64(m.Deadline) != peer.rcvd+1 {
		ctx.TraceSaid("drop", m.Op, fmt.Sprintf("message lost on the connection from zk-%d: reset", p), say("note.zk.connLost", "peer", fmt.Sprintf("zk-%d", p)))
		ctx.Send(s.node(p), Msg{Op: zkOpClose})
		*peer = zkPeer{}
		return
	}
	peer.rcvd++
	peer.heard = ctx.Mono()
	switch m.Op {
	case zkOpAckNewLdr:
		if !peer.forwarding || m.N != s.currentEpoch {
			return
		}
		peer.ackedNL = true
		if s.established {
			s.toPeer(ctx, p, Msg{Op: zkOpUpToDate, Token: s.lastCommitted()})
			return
		}
		s.maybeEstablish(ctx)
	case zkOpAck:
		if !peer.forwarding {
			return
		}
		for k := s.log.Len() - 1; k >= s.commit; k-- {
			if s.log.At(k).Zxid == m.Token {
				s.acks.Set(k, s.acks.At(k)|1<<(p-1))
				break
			}
		}
		if s.established {
			s.tryCommit(ctx)
		}
	case zkOpPing:
		for _, h := range m.Names {
			if id, err := strconv.ParseInt(h, 16, 64); err == nil {
				s.touch(ctx, id)
			}
		}
	case zkOpRequest:
		if !s.established || !peer.forwarding {
			return
		}
		x, code := s.prepare(m.Value, m.Key, m.N, m.Seq, m.TTL, zkTxnOf(*m).Owner)
		if code != "" {
			s.toPeer(ctx, p, Msg{Op: zkOpErr, N: m.N, Seq: m.Seq, Value: code})
			return
		}
		s.submit(ctx, x)
	case zkOpRevalidate:
		if !s.established {
			return
		}
		ok := s.sessionLive(m.N)
		if ok {
			s.touch(ctx, m.N)
		}
		reply := Msg{Op: zkOpRevalidate, N: m.N}
		if ok {
			reply.Token = 1
		}
		s.toPeer(ctx, p, reply)
	}
}

func (s *zkServer) fromLeader(ctx Ctx, m *Msg) {
	s.heard = ctx.Mono()
	if m.Op == zkOpClose {
		s.startElection(ctx, fmt.Sprintf("connection to leader zk-%d reset", s.leader), say("note.zk.leaderReset", "leader", fmt.Sprintf("zk-%d", s.leader)))
		return
	}
	if int64(m.Deadline) != s.lrcvd+1 {
		s.startElection(ctx, fmt.Sprintf("message lost on the connection to leader zk-%d: reset", s.leader), say("note.zk.leaderLost", "leader", fmt.Sprintf("zk-%d", s.leader)))
		return
	}
	s.lrcvd++
	s.synced = true
	switch m.Op {
	case zkOpTrunc:
		keep := 0
		for keep < s.log.Len() && s.log.At(keep).Zxid <= m.Token {
			keep++
		}
		s.log.Truncate(keep)
		if s.commit > keep {
			s.commit = 0
			s.tree = zkTree{}
			for s.commit < keep {
				s.tree.apply(s.log.At(s.commit))
				s.commit++
			}
		}
	case zkOpDiff:
		if x := zkTxnOf(*m); x.Zxid > s.lastLogged() {
			s.log.Append(x)
		}
	case zkOpNewLeader:
		s.acceptedEpoch, s.currentEpoch = m.N, m.N
		s.toLeader(ctx, Msg{Op: zkOpAckNewLdr, N: m.N})
	case zkOpUpToDate:
		s.applyUpTo(ctx, s.indexAfter(m.Token))
		if !s.serving {
			s.serving = true
			ctx.TraceSaid("election", "uptodate", fmt.Sprintf("following zk-%d, serving", s.leader), say("note.zk.uptodate", "leader", fmt.Sprintf("zk-%d", s.leader)))
		}
	case zkOpProposal:
		if x := zkTxnOf(*m); x.Zxid > s.lastLogged() {
			s.log.Append(x)
		}
		s.toLeader(ctx, Msg{Op: zkOpAck, Token: m.Token})
	case zkOpCommit:
		s.applyUpTo(ctx, s.indexAfter(m.Token))
	case zkOpPing:
		names := make([]string, len(s.touched))
		for i, id := range s.touched {
			names[i] = strconv.FormatInt(id, 16)
		}
		s.touched = nil
		s.toLeader(ctx, Msg{Op: zkOpPing, Names: names})
	case zkOpErr:
		if w, ok := s.takeWait(m.N, m.Seq, ""); ok {
			s.reply(ctx, w.client, w.cnx, Msg{Op: zkOpErr, Seq: w.cxid, Value: m.Value})
			s.release(ctx, w.session)
		}
	case zkOpRevalidate:
		w, ok := s.takeWait(m.N, 0, zkRevalidate)
		if !ok {
			return
		}
		if m.Token == 1 {
			s.accept(ctx, w)
		} else {
			ctx.Send(w.client, Msg{Op: zkOpExpired, N: w.cnx})
		}
	}
}

// indexAfter is the log length that includes every transaction up to zxid.
func (s *zkServer) indexAfter(zxid int64) int {
	k := s.commit
	for k < s.log.Len() && s.log.At(k).Zxid <= zxid {
		k++
	}
	return k
}

func (s *zkServer) sessionLive(id int64) bool {
	for _, t := range s.tracker {
		if t.id == id {
			return !t.closing
		}
	}
	return false
}

// touch is SessionTracker.touchSession on the leader.
func (s *zkServer) touch(ctx Ctx, id int64) {
	for i := range s.tracker {
		t := &s.tracker[i]
		if t.id == id && !t.closing {
			t.expireAt = max(t.expireAt, zkRoundUp(ctx.Mono()+t.timeout))
		}
	}
}

// noteTouch records that a session was heard from at this server: the
// leader touches it, a follower reports it at the next ping.
func (s *zkServer) noteTouch(id int64) {
	for _, t := range s.touched {
		if t == id {
			return
		}
	}
	s.touched = append(s.touched, id)
}

// prepare is the leader's PrepRequestProcessor: it checks a request against
// every logged change and turns it into a transaction.
func (s *zkServer) prepare(kind, path string, session, cxid int64, timeout time.Duration, owner string) (zkTxn, string) {
	x := zkTxn{Kind: kind, Session: session, Cxid: cxid, Timeout: timeout, Owner: owner}
	switch kind {
	case zkTxnCreate:
		if !s.sessionLive(session) {
			return x, zkErrExpired
		}
		x.Path = path + fmt.Sprintf("%010d", s.prep.cversion)
	case zkTxnDelete:
		if !s.sessionLive(session) {
			return x, zkErrExpired
		}
		if s.prep.find(path) < 0 {
			return x, zkErrNoNode
		}
		x.Path = path
	case zkTxnCreateSess, zkTxnCloseSession:
	default:
		return x, "BadArguments"
	}
	return x, ""
}

// submit logs a transaction and proposes it to every synced follower.
func (s *zkServer) submit(ctx Ctx, x zkTxn) {
	s.counter++
	x.Zxid = s.currentEpoch<<32 | s.counter
	s.log.Append(x)
	s.acks.Append(1 << (s.sid - 1))
	s.prep.apply(x)
	for i, p := range s.peers {
		if p.forwarding {
			s.toPeer(ctx, i+1, x.msg(zkOpProposal))
		}
	}
	s.tryCommit(ctx)
}

// tryCommit commits, in order, every proposal a quorum has acknowledged.
func (s *zkServer) tryCommit(ctx Ctx) {
	for s.commit < s.log.Len() && bits.OnesCount8(s.acks.At(s.commit)) >= s.quorum() {
		z := s.log.At(s.commit).Zxid
		for i, p := range s.peers {
			if p.forwarding {
				s.toPeer(ctx, i+1, Msg{Op: zkOpCommit, Token: z})
			}
		}
		s.applyUpTo(ctx, s.commit+1)
	}
}

// applyUpTo applies committed transactions in order: watches fire, local
// clients get their answers, sessions come and go.
func (s *zkServer) applyUpTo(ctx Ctx, upto int) {
	leader := s.state == zkLeading
	for s.commit < upto && s.commit < s.log.Len() {
		x := s.log.At(s.commit)
		s.commit++
		deleted, changed := s.tree.apply(x)
		for _, name := range deleted {
			s.fire(ctx, ZKLockPath+"/"+name, false, zkEventDeleted, x.Zxid)
		}
		if changed {
			s.fire(ctx, ZKLockPath, true, zkEventChildren, x.Zxid)
		}
		switch x.Kind {
		case zkTxnCreateSess:
			if leader && s.established {
				s.tracker = append(s.tracker, zkTracked{id: x.Session, timeout: x.Timeout, expireAt: zkRoundUp(ctx.Mono() + x.Timeout)})
			}
			if w, ok := s.takeWait(x.Session, 0, zkTxnCreateSess); ok {
				s.accept(ctx, w)
			}
		case zkTxnCloseSession:
			for i := 0; i < len(s.tracker); i++ {
				if s.tracker[i].id == x.Session {
					s.tracker = append(s.tracker[:i], s.tracker[i+1:]...)
					i--
				}
			}
			s.closeSessionConns(ctx, x.Session)
		default:
			if w, ok := s.takeWait(x.Session, x.Cxid, x.Kind); ok {
				s.reply(ctx, w.client, w.cnx, Msg{Op: zkOpOK, Seq: w.cxid, Key: ZKLockPath + "/" + x.Path})
				s.release(ctx, w.session)
			}
		}
		if leader && s.established {
			s.updateOwner(ctx, x.Kind == zkTxnCloseSession)
		}
	}
}

// closeSessionConns closes the connection of a session that just ended.
func (s *zkServer) closeSessionConns(ctx Ctx, session int64) {
	var gone []NodeID
	for _, c := range s.conns {
		if c.session == session {
			ctx.Send(c.client, Msg{Op: zkOpClose, N: c.cnx})
			gone = append(gone, c.client)
		}
	}
	for _, c := range gone {
		s.dropConn(c)
	}
	waits := s.waits[:0]
	for _, w := range s.waits {
		if w.session != session {
			waits = append(waits, w)
		}
	}
	s.waits = waits
}

// updateOwner tells the checker which client the lowest child belongs to.
func (s *zkServer) updateOwner(ctx Ctx, expired bool) {
	low, ok := s.tree.lowest()
	name := ""
	if ok {
		name = low.Name
	}
	if name == s.owner {
		return
	}
	if s.owner != "" {
		ctx.Disown(ZKLockPath, expired)
	}
	s.owner = name
	if ok {
		if id := ctx.Lookup(s.tree.owner(low.Session)); id != None {
			ctx.Own(ZKLockPath, id)
		}
	}
}

// fire delivers and removes every watch on path (one-shot watches).
func (s *zkServer) fire(ctx Ctx, path string, child bool, event string, zxid int64) {
	var hit []zkWatch
	keep := s.watches[:0]
	for _, w := range s.watches {
		if w.path == path && w.child == child {
			hit = append(hit, w)
			continue
		}
		keep = append(keep, w)
	}
	s.watches = keep
	for _, w := range hit {
		if i, ok := s.conn(w.client, w.cnx); ok {
			s.toClient(ctx, i, Msg{Op: zkOpWatch, Key: path, Value: event, Token: zxid})
		}
	}
}

func (s *zkServer) dropWatches(client NodeID) {
	keep := s.watches[:0]
	for _, w := range s.watches {
		if w.client != client {
			keep = append(keep, w)
		}
	}
	s.watches = keep
}

// takeWait removes and returns the wait for (session, cxid); kind "" matches
// any request kind but createSession and revalidation.
func (s *zkServer) takeWait(session, cxid int64, kind string) (zkWait, bool) {
	for i, w := range s.waits {
		if w.session != session {
			continue
		}
		switch {
		case kind == zkTxnCreateSess || kind == zkRevalidate:
			if w.kind != kind {
				continue
			}
		case w.cxid != cxid || w.kind == zkTxnCreateSess || w.kind == zkRevalidate:
			continue
		}
		s.waits = append(s.waits[:i], s.waits[i+1:]...)
		return w, true
	}
	return zkWait{}, false
}

func (s *zkServer) conn(client NodeID, cnx int64) (int, bool) {
	for i, c := range s.conns {
		if c.client == client && c.cnx == cnx {
			return i, true
		}
	}
	return -1, false
}

// reply answers a client on its connection, with the zxid reached.
func (s *zkServer) reply(ctx Ctx, client NodeID, cnx int64, m Msg) {
	i, ok := s.conn(client, cnx)
	if !ok {
		return
	}
	m.Token = s.lastCommitted()
	s.toClient(ctx, i, m)
}

// hasWrite reports whether a session has a write not yet answered.
func (s *zkServer) hasWrite(session int64) (int64, bool) {
	first, ok := int64(0), false
	for _, w := range s.waits {
		if w.session == session && (!ok || w.order < first) {
			first, ok = w.order, true
		}
	}
	return first, ok
}

// release serves the reads and pings of a session that no earlier write
// holds back any more.
func (s *zkServer) release(ctx Ctx, session int64) {
	first, pending := s.hasWrite(session)
	var serve []zkQueued
	keep := s.queued[:0]
	for _, q := range s.queued {
		if q.session == session && (!pending || q.order < first) {
			serve = append(serve, q)
			continue
		}
		keep = append(keep, q)
	}
	s.queued = keep
	for _, q := range serve {
		s.serveRead(ctx, q.client, q.cnx, &q.m)
	}
}

func (s *zkServer) fromClient(ctx Ctx, from NodeID, m *Msg) {
	if m.Op == zkOpConnect {
		s.onConnect(ctx, from, m)
		return
	}
	i, ok := s.conn(from, m.N)
	if !ok || !s.serving {
		ctx.Send(from, Msg{Op: zkOpClose, N: m.N}) // no such connection
		return
	}
	if m.Deadline != 0 {
		// A sender that numbers its messages (every zkClient does; a
		// scripted conformance client does not) must not skip one.
		if int64(m.Deadline) != s.conns[i].rcvd+1 {
			ctx.TraceSaid("drop", m.Op, "message lost on the connection from "+ctx.Sim().Nodes[from].Name+": reset", say("note.zk.connLost", "peer", ctx.Sim().Nodes[from].Name))
			ctx.Send(from, Msg{Op: zkOpClose, N: m.N})
			s.dropConn(from)
			return
		}
		s.conns[i].rcvd++
	}
	c := s.conns[i]
	if s.state == zkLeading {
		s.touch(ctx, c.session)
	} else {
		s.noteTouch(c.session)
	}
	switch m.Op {
	case zkOpCloseSess:
		// PrepRequestProcessor turns it into a closeSession transaction
		// that deletes the session's ephemerals; once committed, the
		// connection is closed (FinalRequestProcessor: sendCloseSession).
		s.write(ctx, zkWait{client: from, cnx: c.cnx, session: c.session, cxid: m.Seq, kind: zkTxnCloseSession}, "", "")
	case zkOpCreate, zkOpDelete:
		kind := zkTxnCreate
		if m.Op == zkOpDelete {
			kind = zkTxnDelete
		}
		name := strings.TrimPrefix(m.Key, ZKLockPath+"/")
		s.write(ctx, zkWait{client: from, cnx: c.cnx, session: c.session, cxid: m.Seq, kind: kind}, name, "")
	default:
		if _, pending := s.hasWrite(c.session); pending {
			s.queued = append(s.queued, zkQueued{client: from, cnx: c.cnx, session: c.session, order: s.nextOrder(), m: *m})
			return
		}
		s.serveRead(ctx, from, c.cnx, m)
	}
}

// serveRead answers a ping or a read from this server's own data.
func (s *zkServer) serveRead(ctx Ctx, from NodeID, cnx int64, m *Msg) {
	switch m.Op {
	case zkOpPing:
		s.reply(ctx, from, cnx, Msg{Op: zkOpPong})
	case zkOpChildren:
		names := make([]string, len(s.tree.nodes))
		for k, n := range s.tree.nodes {
			names[k] = n.Name
		}
		if m.Token == 1 {
			s.watches = append(s.watches, zkWatch{client: from, cnx: cnx, path: ZKLockPath, child: true})
		}
		s.reply(ctx, from, cnx, Msg{Op: zkOpOK, Seq: m.Seq, Names: names})
	case zkOpGetData:
		name := strings.TrimPrefix(m.Key, ZKLockPath+"/")
		if s.tree.find(name) < 0 {
			s.reply(ctx, from, cnx, Msg{Op: zkOpErr, Seq: m.Seq, Value: zkErrNoNode})
			return
		}
		if m.Token == 1 {
			s.watches = append(s.watches, zkWatch{client: from, cnx: cnx, path: m.Key})
		}
		s.reply(ctx, from, cnx, Msg{Op: zkOpOK, Seq: m.Seq, Key: m.Key})
	}
}

// write runs a client's write: prepared here on the leader, forwarded to
// the leader by a follower; the answer comes when it commits.
func (s *zkServer) write(ctx Ctx, w zkWait, path, owner string) {
	w.order = s.nextOrder()
	if s.state == zkLeading {
		x, code := s.prepare(w.kind, path, w.session, w.cxid, w.timeout, owner)
		if code != "" {
			if w.kind == zkTxnCreateSess {
				return
			}
			s.reply(ctx, w.client, w.cnx, Msg{Op: zkOpErr, Seq: w.cxid, Value: code})
			return
		}
		s.waits = append(s.waits, w)
		s.submit(ctx, x)
		return
	}
	s.waits = append(s.waits, w)
	req := zkTxn{Kind: w.kind, Path: path, Session: w.session, Cxid: w.cxid, Timeout: w.timeout, Owner: owner}
	s.toLeader(ctx, req.msg(zkOpRequest))
}

// onConnect handles a ConnectRequest: N connection number, Token session
// (0 for a new one), TTL requested timeout, Seq the last zxid the client saw.
func (s *zkServer) onConnect(ctx Ctx, from NodeID, m *Msg) {
	if !s.serving || m.Seq > s.lastCommitted() {
		// Not serving, or behind what the client has seen: it must try
		// another server.
		ctx.Send(from, Msg{Op: zkOpClose, N: m.N})
		return
	}
	s.dropConn(from) // a client has one connection: an old one is dead
	timeout := ZKSessionTimeout(m.TTL)
	if m.Token == 0 {
		id := s.nextSession
		s.nextSession++
		w := zkWait{client: from, cnx: m.N, session: id, kind: zkTxnCreateSess, timeout: timeout}
		s.write(ctx, w, "", ctx.Sim().Nodes[from].Name)
		return
	}
	w := zkWait{client: from, cnx: m.N, session: m.Token, kind: zkRevalidate, timeout: timeout}
	if s.state == zkLeading {
		if !s.sessionLive(m.Token) {
			ctx.Send(from, Msg{Op: zkOpExpired, N: m.N})
			return
		}
		s.touch(ctx, m.Token)
		s.accept(ctx, w)
		return
	}
	w.order = s.nextOrder()
	s.waits = append(s.waits, w)
	s.toLeader(ctx, Msg{Op: zkOpRevalidate, N: m.Token, TTL: timeout})
}

// Fire implements Process.
func (s *zkServer) Fire(ctx Ctx, t Timer) {
	if t.Seq != s.era {
		return // set in an earlier role
	}
	mono := ctx.Mono()
	switch t.Kind {
	case "fle":
		if s.state != zkLooking {
			return
		}
		if due(mono, s.lastNotif+s.notTimeout) {
			s.broadcastVote(ctx)
			s.notTimeout = min(2*s.notTimeout, ZKMaxNotificationInterval)
			s.lastNotif = mono
		}
		ctx.After(s.lastNotif+s.notTimeout-mono, Timer{Kind: "fle", Seq: s.era})
	case "finalize":
		if s.state != zkLooking || !s.finalizing {
			return
		}
		if !due(mono, s.finalizeAt) {
			ctx.After(s.finalizeAt-mono, Timer{Kind: "finalize", Seq: s.era})
			return
		}
		s.decide(ctx, s.vote.leader)
	case "finfo":
		if s.state == zkFollowing && !s.synced {
			s.sendFollowerInfo(ctx)
			ctx.After(zkLeaderConnectRetry, Timer{Kind: "finfo", Seq: s.era})
		}
	case "tick":
		switch s.state {
		case zkLeading:
			s.leaderTick(ctx)
		case zkFollowing:
			limit := time.Duration(ZKSyncLimit) * ZKTickTime
			if !s.serving {
				limit = time.Duration(ZKInitLimit) * ZKTickTime
			}
			if mono-s.heard > limit {
				s.startElection(ctx, fmt.Sprintf("nothing from leader zk-%d for %v", s.leader, (mono-s.heard).Round(time.Millisecond)),
					say("note.zk.leaderSilent", "leader", fmt.Sprintf("zk-%d", s.leader), "for", (mono-s.heard).Round(time.Millisecond).String()))
				return
			}
			ctx.After(ZKTickTime/2, Timer{Kind: "tick", Seq: s.era})
		}
	case "expire":
		if s.state != zkLeading || !s.established {
			return
		}
		var expired []zkTracked
		for i := range s.tracker {
			if tr := &s.tracker[i]; !tr.closing && due(mono, tr.expireAt) {
				tr.closing = true
				expired = append(expired, *tr)
			}
		}
		// Submitting can commit at once (a lone server) and shrink the
		// tracker, so the expired sessions are collected first.
		for _, tr := range expired {
			ctx.TraceSaid("expire", "session", fmt.Sprintf("session %#x expired (timeout %v)", tr.id, tr.timeout),
				say("note.zk.sessionExpired", "session", fmt.Sprintf("%#x", tr.id), "timeout", tr.timeout.String()))
			x, _ := s.prepare(zkTxnCloseSession, "", tr.id, 0, 0, "")
			s.submit(ctx, x)
		}
		s.armExpirer(ctx)
	}
}

// leaderTick is the leader's loop every tickTime/2: check that a quorum is
// still synced, then ping every follower.
func (s *zkServer) leaderTick(ctx Ctx) {
	mono := ctx.Mono()
	if !s.established {
		if mono-s.since > time.Duration(ZKInitLimit)*ZKTickTime {
			s.startElection(ctx, "no quorum of followers within initLimit", say("note.zk.noQuorum"))
			return
		}
	} else {
		synced := 1
		for _, p := range s.peers {
			if p.forwarding && mono-p.heard <= time.Duration(ZKSyncLimit)*ZKTickTime {
				synced++
			}
		}
		if synced < s.quorum() {
			s.startElection(ctx, "not sufficient followers synced", say("note.zk.notSynced"))
			return
		}
	}
	for i, p := range s.peers {
		if p.forwarding {
			s.toPeer(ctx, i+1, Msg{Op: zkOpPing})
		}
	}
	ctx.After(ZKTickTime/2, Timer{Kind: "tick", Seq: s.era})
}

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
	op   string
	path string
	find bool // a protected-mode search for our own znode
}

// zkClient is an application using Curator's InterProcessMutex over a
// ZooKeeper handle, with Curator's connection states.
type zkClient struct {
	Loop
	idx    int
	n      int
	base   NodeID
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
	// sends its write.
	flagSuspended, flagLost bool

	// The lock recipe.
	step     string
	guid     string
	tried    bool // a create was sent for this guid
	ourPath  string
	ourSeq   int64
	watching string
	toDelete []string // guaranteed deletes still to do
}

// Clone implements Process.
func (c *zkClient) Clone() Process {
	cp := *c
	cp.calls = append([]zkCall(nil), c.calls...)
	cp.toDelete = append([]string(nil), c.toDelete...)
	return &cp
}

func (c *zkClient) serverNode() NodeID { return c.base + NodeID(c.server) }

// Start implements Process: open a handle and ask for the lock (acquire
// blocks until the handle is connected).
func (c *zkClient) Start(ctx Ctx) {
	c.base = ctx.Lookup("zk-1")
	c.server = c.idx % c.n
	c.connect(ctx)
	c.begin(ctx)
}

// Crash implements Process: the process is gone; its session lives on at
// the servers until it expires.
func (c *zkClient) Crash(ctx Ctx) {
	*c = zkClient{idx: c.idx, n: c.n}
}

// Restart implements Process.
func (c *zkClient) Restart(ctx Ctx, persist bool) { c.Start(ctx) }

func (c *zkClient) negotiated(ctx Ctx) time.Duration {
	if c.timeout > 0 {
		return c.timeout
	}
	return ctx.Scenario().TTL.D()
}

// connect starts a connection attempt to c.server.
func (c *zkClient) connect(ctx Ctx) {
	c.conn = zkConnConnecting
	c.cnx++
	if c.connected {
		d := time.Duration(ctx.Rand().Int64N(int64(zkReconnectJitter)))
		ctx.After(d, Timer{Kind: "dial", Seq: c.cnx})
		return
	}
	c.dial(ctx)
}

func (c *zkClient) dial(ctx Ctx) {
	c.lastRecv, c.lastSend = ctx.Mono(), ctx.Mono()
	c.sent, c.rcvd = 1, 0
	if to := c.serverNode(); ctx.Sim().Nodes[to].Crashed && !ctx.Sim().Cut(ctx.ID(), to) {
		// A crashed server process on a reachable host: its kernel refuses
		// the TCP connection, so the client learns it within a round trip.
		ctx.After(2*ctx.Scenario().Latency.D(), Timer{Kind: "refused", Seq: c.cnx})
		return
	}
	ctx.Send(c.serverNode(), Msg{Op: zkOpConnect, N: c.cnx, Token: c.session, TTL: ctx.Scenario().TTL.D(), Seq: c.lastZxid, Deadline: 1})
	c.readGen++
	ctx.After(c.negotiated(ctx)/time.Duration(c.n), Timer{Kind: "read", Seq: c.readGen})
}

func (c *zkClient) send(ctx Ctx, m Msg) {
	c.sent++
	m.N = c.cnx
	m.Deadline = time.Duration(c.sent)
	c.lastSend = ctx.Mono()
	ctx.Send(c.serverNode(), m)
}

func (c *zkClient) call(ctx Ctx, op, path string, watch, find bool) {
	c.xid++
	c.calls = append(c.calls, zkCall{xid: c.xid, op: op, path: path, find: find})
	m := Msg{Op: op, Key: path, Seq: c.xid}
	if watch {
		m.Token = 1
	}
	c.send(ctx, m)
}

// disconnect is ClientCnxn losing its connection: pending requests fail
// with ConnectionLoss, Curator goes SUSPENDED, the next server is tried.
// A closing handle does not reconnect.
func (c *zkClient) disconnect(ctx Ctx, why string, words Words) {
	if c.closing {
		c.conn, c.calls = zkConnNone, nil
		ctx.TraceSaid("disconnect", "", why, words)
		return
	}
	was := c.conn == zkConnConnected
	c.conn = zkConnNone
	c.calls = nil
	ctx.TraceSaid("disconnect", "", why, words)
	if was && c.cstate == ZKConnected {
		c.suspend(ctx)
	}
	c.server = (c.server + 1) % c.n
	c.connect(ctx)
}

func (c *zkClient) suspend(ctx Ctx) {
	c.cstate = ZKSuspended
	c.suspendedAt = ctx.Wall()
	c.suspendGen++
	ctx.AtWall(c.suspendedAt+c.negotiated(ctx), Timer{Kind: "lost", Seq: c.suspendGen})
	ctx.Trace("state", ZKSuspended, "")
	if c.State == StateHolding {
		c.flagSuspended = true
	}
}

// lose is Curator's LOST: the session is gone for sure.
func (c *zkClient) lose(ctx Ctx, why string, words Words) {
	c.cstate = ZKLost
	c.session = 0
	c.timeout = 0
	c.connected = false // the new handle connects without the random wait
	ctx.TraceSaid("state", ZKLost, why, words)
	switch c.State {
	case StateHolding:
		c.flagLost = true
		if ctx.Scenario().RespectSuspended && c.Stopped() {
			c.ourPath = ""
			c.step = ""
			c.Lost(ctx, "session LOST", say("note.zk.sessionLost"))
		} else if !ctx.Scenario().RespectSuspended {
			ctx.TraceSaid("lock", "", "LOST ignored: keeps working", say("note.zk.lostIgnored"))
		}
	case StateWaiting:
		// The ephemeral node died with the session: Curator's lock loop
		// finds it missing (NoNode) and tries again from scratch.
		c.newAttempt(ctx)
	}
}

// Receive implements Process.
func (c *zkClient) Receive(ctx Ctx, from NodeID, m *Msg) {
	if handled, written := c.StorageReply(ctx, from, m); handled {
		if written {
			c.release(ctx)
		}
		return
	}
	if from != c.serverNode() || m.N != c.cnx || c.conn == zkConnNone {
		return // an earlier connection's traffic
	}
	c.lastRecv = ctx.Mono()
	if c.closing && (m.Op == zkOpClose || m.Op == zkOpExpired) {
		c.conn, c.calls = zkConnNone, nil
		ctx.TraceSaid("state", ZKClosed, fmt.Sprintf("session %#x closed: its ephemeral znodes are gone", c.session), say("note.zk.sessionClosed", "session", fmt.Sprintf("%#x", c.session)))
		return
	}
	if m.Op != zkOpClose && m.Op != zkOpExpired {
		if int64(m.Deadline) != c.rcvd+1 {
			c.disconnect(ctx, "a message was lost: connection reset", say("note.zk.messageLost"))
			return
		}
		c.rcvd++
	}
	switch m.Op {
	case zkOpConnected:
		if c.conn != zkConnConnecting {
			return
		}
		c.onConnected(ctx, m)
		return
	case zkOpExpired:
		c.conn = zkConnNone
		c.calls = nil
		c.lose(ctx, "session expired", say("note.zk.expired"))
		c.connect(ctx)
		return
	case zkOpClose:
		c.disconnect(ctx, fmt.Sprintf("connection to %s closed", ctx.Sim().Nodes[from].Name), say("note.zk.closed", "server", ctx.Sim().Nodes[from].Name))
		return
	}
	if c.conn != zkConnConnected {
		return
	}
	c.lastZxid = max(c.lastZxid, m.Token)
	switch m.Op {
	case zkOpOK, zkOpErr:
		for i, cl := range c.calls {
			if cl.xid == m.Seq {
				c.calls = append(c.calls[:i], c.calls[i+1:]...)
				c.onReply(ctx, cl, m)
				return
			}
		}
	case zkOpWatch:
		c.onWatch(ctx, m)
	}
}

func (c *zkClient) onConnected(ctx Ctx, m *Msg) {
	same := c.session == m.Token
	c.conn = zkConnConnected
	c.connected = true
	c.session, c.timeout = m.Token, m.TTL
	c.readGen++
	ctx.After(zkReadTimeout(c.timeout), Timer{Kind: "read", Seq: c.readGen})
	ctx.After(ZKPingInterval(c.timeout), Timer{Kind: "ping", Seq: c.cnx})
	prev := c.cstate
	c.cstate = ZKConnected
	if prev == "" {
		ctx.TraceSaid("state", ZKConnected, fmt.Sprintf("session %#x, timeout %v", c.session, c.timeout), say("note.zk.connected", "session", fmt.Sprintf("%#x", c.session), "timeout", c.timeout.String()))
	} else {
		ctx.TraceSaid("state", "RECONNECTED", fmt.Sprintf("session %#x", c.session), say("note.zk.reconnected", "session", fmt.Sprintf("%#x", c.session)))
	}
	if prev == ZKSuspended && same {
		c.flagSuspended = false // the listener hears RECONNECTED
	}
	if prev == ZKSuspended && same && c.State == StateHolding && c.Stopped() {
		// Curator: after SUSPENDED, RECONNECTED means the lock is still
		// ours. The interrupted work is done again from the start.
		c.Loop.stopped = false
		c.Grant(ctx, c.Token, 0)
	}
	if c.State == StateWaiting && c.step != zkStepCreate {
		c.step = zkStepList // the lock loop wakes and lists again
	}
	c.flushDeletes(ctx)
	c.advance(ctx)
}

// begin starts a round: InterProcessMutex.acquire.
func (c *zkClient) begin(ctx Ctx) {
	if !c.Begin(ctx) {
		c.close(ctx)
		return
	}
	c.flagSuspended, c.flagLost = false, false
	c.newAttempt(ctx)
}

// newAttempt is LockInternals.attemptLock: a fresh protected create.
func (c *zkClient) newAttempt(ctx Ctx) {
	b := make([]byte, 16)
	for i := range b {
		b[i] = byte(ctx.Rand().Uint32())
	}
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	c.guid = fmt.Sprintf("%x-%x-%x-%x-%x", b[0:4], b[4:6], b[6:8], b[8:10], b[10:16])
	c.tried, c.ourPath, c.watching = false, "", ""
	c.step = zkStepCreate
	c.advance(ctx)
}

func (c *zkClient) prefix() string { return ZKProtectedPrefix + c.guid + "-" }

func (c *zkClient) busy() bool {
	for _, cl := range c.calls {
		if cl.op != zkOpDelete {
			return true
		}
	}
	return false
}

// advance sends the request of the current lock step, once connected.
func (c *zkClient) advance(ctx Ctx) {
	if c.conn != zkConnConnected || c.State != StateWaiting || c.busy() {
		return
	}
	switch c.step {
	case zkStepCreate:
		if c.tried {
			// Protected mode: an earlier create may have succeeded with
			// its reply lost; look for our node first.
			c.call(ctx, zkOpChildren, ZKLockPath, false, true)
			return
		}
		c.tried = true
		c.call(ctx, zkOpCreate, ZKLockPath+"/"+c.prefix()+ZKLockName, false, false)
	case zkStepList:
		c.call(ctx, zkOpChildren, ZKLockPath, ctx.Scenario().Herd, false)
	case zkStepWatch:
		c.call(ctx, zkOpGetData, ZKLockPath+"/"+c.watching, true, false)
	}
}

func (c *zkClient) onReply(ctx Ctx, cl zkCall, m *Msg) {
	if cl.op == zkOpDelete {
		for i, p := range c.toDelete {
			if p == cl.path {
				c.toDelete = append(c.toDelete[:i], c.toDelete[i+1:]...)
				break
			}
		}
		return
	}
	if c.State != StateWaiting {
		return
	}
	switch cl.op {
	case zkOpCreate:
		if m.Op != zkOpOK {
			ctx.TraceSaid("lock", zkOpCreate, m.Value, asIs(m.Value))
			return // the session is ending; LOST will follow
		}
		c.ourPath = strings.TrimPrefix(m.Key, ZKLockPath+"/")
		c.ourSeq = zkSeqOf(c.ourPath)
		c.step = zkStepList
	case zkOpChildren:
		if cl.find {
			for _, name := range m.Names {
				if strings.HasPrefix(name, c.prefix()) {
					c.ourPath, c.ourSeq = name, zkSeqOf(name)
					c.step = zkStepList
					c.advance(ctx)
					return
				}
			}
			c.call(ctx, zkOpCreate, ZKLockPath+"/"+c.prefix()+ZKLockName, false, false)
			return
		}
		c.onChildren(ctx, m.Names)
		return
	case zkOpGetData:
		if m.Op == zkOpOK {
			c.step = zkStepWait
			return
		}
		c.step = zkStepList // the predecessor is already gone
	}
	c.advance(ctx)
}

// onChildren is StandardLockInternalsDriver.getsTheLock.
func (c *zkClient) onChildren(ctx Ctx, names []string) {
	sorted := zkSortChildren(names)
	i := -1
	for k, n := range sorted {
		if n == c.ourPath {
			i = k
		}
	}
	switch {
	case i < 0:
		ctx.TraceSaid("lock", "", "our znode is gone (NoNode): trying again", say("note.zk.znodeGone"))
		c.newAttempt(ctx)
	case i == 0:
		c.step = ""
		c.Grant(ctx, c.ourSeq, 0)
	case ctx.Scenario().Herd:
		c.step = zkStepWait // the getChildren watch is set
	default:
		c.watching = sorted[i-1]
		c.step = zkStepWatch
		c.advance(ctx)
	}
}

func (c *zkClient) onWatch(ctx Ctx, m *Msg) {
	if c.State != StateWaiting {
		return
	}
	ctx.Notified()
	ctx.Trace("watch", m.Value, m.Key)
	if c.step == zkStepWait {
		c.step = zkStepList
		c.advance(ctx)
	}
}

func (c *zkClient) flushDeletes(ctx Ctx) {
	if c.conn != zkConnConnected {
		return
	}
outer:
	for _, p := range c.toDelete {
		for _, cl := range c.calls {
			if cl.op == zkOpDelete && cl.path == p {
				continue outer
			}
		}
		c.call(ctx, zkOpDelete, p, false, false)
	}
}

// Fire implements Process.
func (c *zkClient) Fire(ctx Ctx, t Timer) {
	switch c.Loop.Fire(ctx, t) {
	case "work":
		c.finish(ctx)
		return
	case "begin":
		c.begin(ctx)
		return
	}
	mono := ctx.Mono()
	switch t.Kind {
	case "dial":
		if t.Seq == c.cnx && c.conn == zkConnConnecting {
			c.dial(ctx)
		}
	case "refused":
		if t.Seq == c.cnx && c.conn == zkConnConnecting {
			c.disconnect(ctx, fmt.Sprintf("connection to %s refused", ctx.Sim().Nodes[c.serverNode()].Name), say("note.zk.refused", "server", ctx.Sim().Nodes[c.serverNode()].Name))
		}
	case "read":
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
			c.disconnect(ctx, fmt.Sprintf("have not heard from server in %v", idle.Round(time.Millisecond)), say("note.zk.notHeard", "idle", idle.Round(time.Millisecond).String()))
			return
		}
		ctx.After(c.lastRecv+limit-mono, Timer{Kind: "read", Seq: c.readGen})
	case "ping":
		if t.Seq != c.cnx || c.conn != zkConnConnected {
			return
		}
		iv := ZKPingInterval(c.timeout)
		if due(mono-c.lastSend, iv) {
			c.send(ctx, Msg{Op: zkOpPing})
		}
		ctx.After(c.lastSend+iv-mono, Timer{Kind: "ping", Seq: c.cnx})
	case "lost":
		if t.Seq != c.suspendGen || c.cstate != ZKSuspended {
			return
		}
		// Curator: the session timeout elapsed while SUSPENDED; it injects
		// an expiration and builds a new handle.
		c.lose(ctx, "session timeout elapsed while SUSPENDED", say("note.zk.suspendedTimeout"))
		c.conn = zkConnNone
		c.calls = nil
		c.connect(ctx)
	}
}

// finish ends the work. With respectSuspended the worker reads the flag
// its connection-state listener keeps just before it sends the write: a
// SUSPENDED connection stops it (it keeps its place and redoes the work
// on RECONNECTED), a LOST session ends it. A pause after this read still
// sends the write.
func (c *zkClient) finish(ctx Ctx) {
	if ctx.Scenario().RespectSuspended {
		switch {
		case c.flagLost:
			c.ourPath, c.step = "", ""
			c.Lost(ctx, "session LOST: it does not write", say("note.zk.lostNoWrite"))
			return
		case c.flagSuspended:
			c.Stop(ctx, "connection SUSPENDED: it does not write", say("note.zk.suspendedNoWrite"))
			return
		}
	}
	c.Write(ctx, c.Token)
}

// release ends the critical section once the storage answered the write:
// a guaranteed delete of our znode, then think.
func (c *zkClient) release(ctx Ctx) {
	c.Release(ctx)
	if c.ourPath != "" {
		c.toDelete = append(c.toDelete, ZKLockPath+"/"+c.ourPath)
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
func (c *zkClient) close(ctx Ctx) {
	if c.closing {
		return
	}
	c.closing = true
	c.cstate = ZKClosed
	if c.conn != zkConnConnected {
		c.conn, c.calls = zkConnNone, nil
		ctx.TraceSaid("state", ZKClosed, "close() while disconnected: the session is left to expire", say("note.zk.closeDisconnected"))
		return
	}
	c.xid++
	c.send(ctx, Msg{Op: zkOpCloseSess, Seq: c.xid})
	ctx.TraceSaid("state", ZKClosed, fmt.Sprintf("rounds done: close() sends closeSession for %#x", c.session), say("note.zk.close", "session", fmt.Sprintf("%#x", c.session)))
}

func (c *zkClient) detail(s *Sim, id NodeID) (string, Words) {
	n := s.Nodes[id]
	if n.Crashed {
		return "", Words{}
	}
	timeout := c.timeout
	if timeout == 0 {
		timeout = s.Scenario.TTL.D()
	}
	server := s.Nodes[c.serverNode()].Name
	switch {
	case c.cstate == ZKSuspended:
		elapsed := (n.Clock.Wall(s.now) - c.suspendedAt).Round(time.Millisecond)
		return fmt.Sprintf("SUSPENDED %v of %v, then LOST", elapsed, timeout),
			say("detail.zk.suspended", "elapsed", elapsed.String(), "timeout", timeout.String())
	case c.conn == zkConnConnected:
		heard := (n.Clock.Mono(s.now) - c.lastRecv).Round(time.Millisecond)
		read := zkReadTimeout(timeout).Round(time.Millisecond)
		return fmt.Sprintf("%s · session %#x · heard %v ago (read timeout %v)", server, c.session, heard, read),
			say("detail.zk.connected", "server", server, "session", fmt.Sprintf("%#x", c.session),
				"heard", heard.String(), "readTimeout", read.String())
	case c.conn == zkConnConnecting:
		return "connecting to " + server, say("detail.zk.connecting", "server", server)
	}
	return "", Words{}
}

func (s *zkServer) detail() (string, Words) {
	if s.state == zkLooking {
		return fmt.Sprintf("looking · round %d · zxid %#x", s.round, s.lastLogged()),
			say("detail.zk.looking", "round", strconv.FormatInt(s.round, 10), "zxid", fmt.Sprintf("%#x", s.lastLogged()))
	}
	return fmt.Sprintf("epoch %d · zxid %#x", s.currentEpoch, s.lastCommitted()),
		say("detail.zk.server", "epoch", strconv.FormatInt(s.currentEpoch, 10), "zxid", fmt.Sprintf("%#x", s.lastCommitted()))
}

// View fills the ZooKeeper picture from the established leader (or, during
// an election, the live server that has committed the most).
func (zkMode) View(s *Sim, snap *Snapshot) {
	v := &ZKView{Parent: ZKLockPath, Quorum: zkQuorum(s.Scenario.Nodes)}
	var ref, leader *zkServer
	leaderID := None
	for _, id := range s.Servers() {
		srv := s.Nodes[id].Proc.(*zkServer)
		down := s.Nodes[id].Crashed
		role := ""
		if !down {
			switch srv.state {
			case zkLeading:
				role = "leader"
			case zkFollowing:
				role = "follower"
			default:
				role = "looking"
			}
		}
		snap.Nodes[id].Role = role
		snap.Nodes[id].Detail, snap.Nodes[id].DetailWords = srv.detail()
		v.Servers = append(v.Servers, ZKServerView{Node: int(id), Role: role, Epoch: srv.currentEpoch,
			LastZxid: srv.lastLogged(), Committed: srv.lastCommitted(), Serving: srv.serving && !down})
		if down {
			continue
		}
		if srv.state == zkLeading && srv.established {
			leader, leaderID = srv, id
		}
		if ref == nil || srv.lastCommitted() > ref.lastCommitted() {
			ref = srv
		}
	}
	if leader != nil {
		ref = leader
		v.Leader = s.Nodes[leaderID].Name
		v.Epoch = leader.currentEpoch
	} else {
		v.Electing = true
	}
	if ref != nil {
		v.Zxid = ref.lastCommitted()
		nodes := append([]zkZnode(nil), ref.tree.nodes...)
		sort.SliceStable(nodes, func(i, j int) bool { return nodes[i].Seq < nodes[j].Seq })
		for i, z := range nodes {
			v.Children = append(v.Children, ZNode{Name: z.Name, Seq: z.Seq, Owner: ref.tree.owner(z.Session),
				Session: z.Session, Ephemeral: true, Holder: i == 0, Czxid: z.Czxid})
		}
		for _, si := range ref.tree.sessions {
			zs := ZSession{ID: si.ID, Owner: si.Owner, Timeout: si.Timeout}
			if leader != nil {
				mono := s.Nodes[leaderID].Clock.Mono(s.now)
				for _, t := range leader.tracker {
					if t.id == si.ID {
						zs.Left, zs.Closing = max(0, t.expireAt-mono), t.closing
					}
				}
			}
			v.Sessions = append(v.Sessions, zs)
		}
	}
	type keyed struct {
		client NodeID
		w      ZWatch
	}
	var ws []keyed
	for _, id := range s.Servers() {
		if s.Nodes[id].Crashed {
			continue
		}
		for _, w := range s.Nodes[id].Proc.(*zkServer).watches {
			ws = append(ws, keyed{w.client, ZWatch{Client: s.Nodes[w.client].Name, Path: w.path}})
		}
	}
	sort.SliceStable(ws, func(i, j int) bool {
		if ws[i].client != ws[j].client {
			return ws[i].client < ws[j].client
		}
		return ws[i].w.Path < ws[j].w.Path
	})
	for i, k := range ws {
		if i > 0 && ws[i-1].w == k.w {
			continue
		}
		v.Watches = append(v.Watches, k.w)
	}
	for i := range s.Nodes {
		if c, ok := s.Nodes[i].Proc.(*zkClient); ok {
			snap.Nodes[i].Session = c.cstate
			snap.Nodes[i].Detail, snap.Nodes[i].DetailWords = c.detail(s, NodeID(i))
		}
	}
	snap.ZK = v
}

// footprint estimates the bytes a checkpoint of the server holds of its
// own, so recordings can space checkpoints by memory.
func (s *zkServer) footprint() int {
	tree := func(t zkTree) int {
		return len(t.nodes)*int(unsafe.Sizeof(zkZnode{})) + len(t.sessions)*int(unsafe.Sizeof(zkSessionInfo{}))
	}
	return int(unsafe.Sizeof(*s)) + s.log.footprint(int(unsafe.Sizeof(zkTxn{}))) + s.acks.footprint(1) +
		tree(s.tree) + tree(s.prep) + (len(s.recv)+len(s.outOf))*int(unsafe.Sizeof(zkVote{})) +
		len(s.peers)*int(unsafe.Sizeof(zkPeer{})) + len(s.tracker)*int(unsafe.Sizeof(zkTracked{})) +
		len(s.touched)*8 + len(s.conns)*int(unsafe.Sizeof(zkConn{})) + len(s.watches)*int(unsafe.Sizeof(zkWatch{})) +
		len(s.waits)*int(unsafe.Sizeof(zkWait{})) + len(s.queued)*int(unsafe.Sizeof(zkQueued{}))
}
