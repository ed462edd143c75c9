package zookeeper

import (
	"time"
	"unsafe"

	"github.com/lockscope/lockscope/sim"
)

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
	client     sim.NodeID
	cnx        int64
	session    int64
	sent, rcvd int64 // messages on the connection each way
}

// zkWatch is a one-shot watch a server holds for a connected client.
type zkWatch struct {
	client sim.NodeID
	cnx    int64
	path   string
	child  bool // a getChildren watch on the lock znode
}

// zkWait is a client request the server answers when the leader has
// committed it (or answered a revalidation).
type zkWait struct {
	client  sim.NodeID
	cnx     int64
	session int64
	cxid    int64
	kind    txnKind
	timeout time.Duration
	order   int64 // arrival order, for the session's later reads
}

// zkQueued is a read or ping that waits for its session's earlier writes,
// as ZooKeeper's CommitProcessor keeps each session's requests in order.
type zkQueued struct {
	client  sim.NodeID
	cnx     int64
	session int64
	order   int64
	m       sim.Msg
}

// zkServer is one ZooKeeper server (QuorumPeer with its ZooKeeperServer).
type zkServer struct {
	sid, n  int
	base    sim.NodeID // the NodeID of zk-1
	fresh   bool       // never started: join the initial ensemble led by zk-1
	state   string
	leader  int  // the sid followed or led
	serving bool // accepts client connections
	era     int64
	since   time.Duration

	// Durable: the transaction log, the epochs, and what is committed.
	acceptedEpoch int64
	currentEpoch  int64
	log           sim.Chunked[zkTxn]
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
	prep        zkTree             // every logged transaction applied: what new requests see
	acks        sim.Chunked[uint8] // per log entry from commit on: the servers that acked it
	tracker     []zkTracked
	owner       string // lowest child last reported to the checker (the read–write lock: the holders, rwlock.go)

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
func (s *zkServer) Clone() sim.Process {
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

func (s *zkServer) node(sid int) sim.NodeID { return s.base + sim.NodeID(sid-1) }

func (s *zkServer) sidOf(id sim.NodeID) int { return int(id-s.base) + 1 }

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

// accept opens a client connection for a session and answers CONNECTED.
func (s *zkServer) accept(ctx sim.Ctx, w zkWait) {
	s.conns = append(s.conns, zkConn{client: w.client, cnx: w.cnx, session: w.session, rcvd: 1})
	if s.state != zkLeading {
		s.noteTouch(w.session)
	}
	s.toClient(ctx, len(s.conns)-1, Connected{Session: w.session, Timeout: w.timeout}.msg())
}

// dropConn forgets a client's connection with its watches and queued reads.
func (s *zkServer) dropConn(client sim.NodeID) {
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
func (s *zkServer) Start(ctx sim.Ctx) {
	s.base = ctx.ID() - sim.NodeID(s.sid-1)
	// SessionTrackerImpl.initializeNextSessionId: sid in the top byte, the
	// boot time in ms shifted up 16 bits, then a counter.
	s.nextSession = int64(s.sid)<<56 | int64(uint64(ctx.Mono()/time.Millisecond)<<24>>8)
	if !s.fresh {
		s.startElection(ctx, "restarted", sim.Say("note.zk.restarted"))
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
	ctx.After(TickTime/2, sim.Timer{Kind: timerTick, Seq: s.era})
}

// enter switches role: every timer of the previous role goes stale.
func (s *zkServer) enter(ctx sim.Ctx, state string, leader int) {
	s.state, s.leader = state, leader
	s.era++
	s.since = ctx.Mono()
	s.serving = false
	s.finalizing = false
	s.peers, s.acks, s.tracker = nil, sim.Chunked[uint8]{}, nil
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
func (s *zkServer) Crash(ctx sim.Ctx) {
	for _, c := range s.conns {
		ctx.Send(c.client, connNotice(OpClose, c.cnx))
	}
	for sid := 1; sid <= s.n; sid++ {
		if sid != s.sid {
			ctx.Send(s.node(sid), connNotice(OpClose, 0))
		}
	}
	if s.state == zkLeading {
		s.disownLock(ctx)
	}
	s.conns, s.watches, s.waits, s.touched, s.queued = nil, nil, nil, nil, nil
	s.state, s.leader, s.serving = zkLooking, 0, false
	s.peers, s.acks, s.tracker, s.recv, s.outOf = nil, sim.Chunked[uint8]{}, nil, nil, nil
	s.decided, s.established, s.finalizing, s.synced = false, false, false, false
	s.prep = zkTree{}
	s.era++
}

// Restart implements Process: the log is replayed (persist), or the server
// comes back empty and learns everything from the leader.
func (s *zkServer) Restart(ctx sim.Ctx, persist bool) {
	if !persist {
		s.log, s.commit, s.tree = sim.Chunked[zkTxn]{}, 0, zkTree{}
		s.acceptedEpoch, s.currentEpoch = 0, 0
	}
	s.fresh = false
	s.Start(ctx)
}

// dropClients closes every client connection, as a server that stops
// serving does; the clients see a disconnect.
func (s *zkServer) dropClients(ctx sim.Ctx) {
	for _, c := range s.conns {
		ctx.Send(c.client, connNotice(OpClose, c.cnx))
	}
	s.conns, s.watches, s.waits, s.touched, s.queued = nil, nil, nil, nil, nil
}

func (s *zkServer) disownLock(ctx sim.Ctx) {
	switch {
	case s.owner == "":
	case Readers.IsOn(ctx.Scenario()):
		s.updateHolders(ctx, false, nil) // none holds here any more
	default:
		ctx.Disown(LockPath, false)
		s.owner = ""
	}
}

// Footprint estimates the bytes a checkpoint of the server holds of its
// own, so recordings can space checkpoints by memory.
func (s *zkServer) Footprint() int {
	tree := func(t zkTree) int {
		return len(t.nodes)*int(unsafe.Sizeof(zkZnode{})) + len(t.sessions)*int(unsafe.Sizeof(zkSessionInfo{}))
	}
	return int(unsafe.Sizeof(*s)) + s.log.Footprint(int(unsafe.Sizeof(zkTxn{}))) + s.acks.Footprint(1) +
		tree(s.tree) + tree(s.prep) + (len(s.recv)+len(s.outOf))*int(unsafe.Sizeof(zkVote{})) +
		len(s.peers)*int(unsafe.Sizeof(zkPeer{})) + len(s.tracker)*int(unsafe.Sizeof(zkTracked{})) +
		len(s.touched)*8 + len(s.conns)*int(unsafe.Sizeof(zkConn{})) + len(s.watches)*int(unsafe.Sizeof(zkWatch{})) +
		len(s.waits)*int(unsafe.Sizeof(zkWait{})) + len(s.queued)*int(unsafe.Sizeof(zkQueued{}))
}
