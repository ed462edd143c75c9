package etcd

import (
	"hash/fnv"
	"strconv"
	"strings"
	"time"
	"unsafe"

	"github.com/lockscope/lockscope/sim"
)

// ---------------------------------------------------------------------------
// The raft log and the key-value state it drives.

// Entry types in the raft log.
const (
	entNoop   = "noop"   // a new leader's empty entry; applying it promotes the lessor
	entGrant  = "grant"  // LeaseGrant
	entLock   = "lock"   // the tryAcquire Txn
	entDelete = "delete" // DeleteRange of one key (Unlock)
	entWrite  = "write"  // the IsOwner-guarded write Txn
	entRevoke = "revoke" // LeaseRevoke (N == 1: by the lessor, on expiry)
	entPut    = "put"    // a Txn putting a value if the key's mod revision is N (0: the key does not exist): PutIfModRev
)

// etcdEntry is one raft log entry: a request and who waits for its result.
type etcdEntry struct {
	Term   int64
	Type   string
	Key    string
	Lease  int64
	N      int64 // grant: TTL in seconds; write: the guard revision; revoke: 1 on expiry; put: the mod revision compared
	Client sim.NodeID
	Origin sim.NodeID // the member that received the request and answers it
	Req    int64      // the origin's request id

	// Val is a put's value, immutable. Routine is a request that repeats
	// what was said before (Txn.Routine): background for the window's
	// pacing.
	Val     any
	Routine bool
}

// etcdKV is one key in the MVCC store.
type etcdKV struct {
	CreateRev int64
	ModRev    int64
	Lease     int64
	Client    sim.NodeID // who put it, for the views and the checker
	Val       any        // the value a PutIfModRev put (immutable); nil for the lock's keys
}

// etcdLease is a lease in a member's lessor. Only the primary lessor (the
// leader's) tracks expiry; on followers a lease never expires.
type etcdLease struct {
	ID      int64
	TTL     time.Duration
	Client  sim.NodeID
	Expiry  time.Duration // on this member's monotonic clock, when primary
	RetryAt time.Duration // when the lessor may propose its revoke again
	Keys    []string      // attached keys, sorted
}

// etcdEvent is one watch event in the MVCC history.
type etcdEvent struct {
	Rev  int64
	Type sim.Op // PUT or DELETE
	Key  string
}

// etcdWatcher is a watch a client holds on one member.
type etcdWatcher struct {
	Client sim.NodeID
	ID     int64
	Key    string
	Prefix bool
	Start  int64
	Queue  []etcdEvent // events held while the link is cut: TCP resends them
}

func (w etcdWatcher) matches(key string) bool {
	if w.Prefix {
		return strings.HasPrefix(key, w.Key)
	}
	return key == w.Key
}

// etcdPending is a client request a member waits to answer.
type etcdPending struct {
	Client sim.NodeID
	Seq    int64  // the client's request id
	Op     sim.Op // Range or KeepAlive; none for a write proposed to raft
	Key    string
	Max    int64 // Range "last": the highest create revision wanted
	Last   bool  // Range with WithLastCreate + WithMaxCreateRev
	Lease  int64 // KeepAlive: the lease to renew
	// WaitLeader is a KeepAlive the member holds while it has no leader
	// (Server.waitLeader), looking again every election timeout.
	WaitLeader bool
	// Held is a write waiting in raft's Propose for a leader (Proposal is
	// the entry to propose when one is known).
	Held      bool
	Proposal  etcdEntry
	ReadIndex int64       // linearizable read: the commit index to wait for; 0 unknown
	Timeout   sim.TimerID // the request timeout, cancelled when it is answered

	// Value is a Range of one key answered with its value and mod
	// revision (RangeValue); Routine one that repeats what was said
	// before (Range.Routine).
	Value, Routine bool
}

// etcdRead is a ReadIndex request on the leader, confirmed by a quorum of
// heartbeat acknowledgements (ReadOnlySafe).
type etcdRead struct {
	Ctx   int64
	From  sim.NodeID
	Req   int64
	Index int64
	Acks  uint8 // bit per member
}

// etcdRenewWait is a keepalive the leader holds: its lease expired and
// awaits the revoke, or the lessor is not yet primary.
type etcdRenewWait struct {
	From    sim.NodeID
	Req     int64
	Lease   int64
	Promote bool
}

// Server is one etcd member: a raft node (pre-vote, check-quorum), an
// MVCC store with one global revision, a lessor and a watch hub.
type Server struct {
	self    sim.NodeID
	members []sim.NodeID // every member, self included, in order
	booted  bool

	// Raft state kept in the WAL.
	term   int64
	vote   sim.NodeID
	log    sim.Chunked[etcdEntry] // log.At(i-1) is index i
	commit int64

	// Raft volatile state.
	role            sim.Role
	pre             bool // a pre-candidate, collecting pre-votes
	lead            sim.NodeID
	electionElapsed int
	randomized      int
	votes           []int8 // per member: 1 granted, -1 rejected
	match, next     []int64
	active          []bool
	reads           []etcdRead
	readCtx         int64
	pendingReads    []etcdRead // ReadIndex before the first commit of the term

	// The state machine.
	applied  int64
	rev      int64
	kv       map[string]etcdKV
	leases   map[int64]etcdLease
	leaseDue time.Duration // no lease's revoke is due before this (putLease, revokeDue)
	history  sim.Chunked[etcdEvent]
	primary  bool
	ownedKey string // the owner key this leader reported to the checker (RWMutex: the holders' keys, rwlock.go)
	replay   bool   // rebuilding from the WAL: no traces
	wipedReq int64  // the last request id before the data directory was lost

	// Serving clients.
	idPrefix  uint64
	idSuffix  uint64
	pending   map[int64]etcdPending
	watchers  []etcdWatcher
	conns     []sim.NodeID
	renewWait []etcdRenewWait
	// kaStreams are the clients with a keepalive stream on this member;
	// they require a leader (clientv3 lease.go: WithRequireLeader), so
	// monitorLeader cancels them after noLeaderChecks checks without one.
	kaStreams      []sim.NodeID
	ticks          int // raft ticks since boot: monitorLeader looks every electionTicks
	noLeaderChecks int
	routine        bool // the answer being sent is to a routine request (Background)
}

func newEtcdServer(sc *sim.Scenario, i int) *Server {
	h := fnv.New64a()
	h.Write([]byte(memberName(i) + "/" + strconv.FormatInt(sc.Seed, 10))) // fmt's "etcd-%d/%d"
	member := uint16(h.Sum64())
	s := &Server{
		vote:     sim.None,
		lead:     sim.None,
		term:     1,
		commit:   1,
		applied:  1,
		rev:      1,
		role:     RoleFollower,
		idPrefix: uint64(member) << 48,
		idSuffix: (uint64(etcdBootUnixMilli) & (1<<40 - 1)) << 8,
	}
	s.log.Append(etcdEntry{Term: 1, Type: entNoop, Client: sim.None, Origin: sim.None})
	s.resetState()
	if i == 0 {
		s.role, s.primary = RoleLeader, true
	}
	return s
}

func (s *Server) resetState() {
	s.kv = map[string]etcdKV{}
	s.leases, s.leaseDue = map[int64]etcdLease{}, 0
	s.pending = map[int64]etcdPending{}
}

// Clone implements Process.
func (s *Server) Clone() sim.Process {
	c := *s
	c.members = append([]sim.NodeID(nil), s.members...)
	c.log = s.log.Clone()
	c.votes = append([]int8(nil), s.votes...)
	c.match = append([]int64(nil), s.match...)
	c.next = append([]int64(nil), s.next...)
	c.active = append([]bool(nil), s.active...)
	c.reads = append([]etcdRead(nil), s.reads...)
	c.pendingReads = append([]etcdRead(nil), s.pendingReads...)
	c.history = s.history.Clone()
	c.conns = append([]sim.NodeID(nil), s.conns...)
	c.renewWait = append([]etcdRenewWait(nil), s.renewWait...)
	c.kaStreams = append([]sim.NodeID(nil), s.kaStreams...)
	c.kv = make(map[string]etcdKV, len(s.kv))
	for k, v := range s.kv {
		c.kv[k] = v
	}
	c.leases = make(map[int64]etcdLease, len(s.leases))
	for k, l := range s.leases {
		l.Keys = append([]string(nil), l.Keys...)
		c.leases[k] = l
	}
	c.pending = make(map[int64]etcdPending, len(s.pending))
	for k, p := range s.pending {
		c.pending[k] = p
	}
	c.watchers = make([]etcdWatcher, len(s.watchers))
	for i, w := range s.watchers {
		w.Queue = append([]etcdEvent(nil), w.Queue...)
		c.watchers[i] = w
	}
	return &c
}

// nextID is the member's idutil.Generator: 16 bits of member id, 40 bits
// of boot time in ms and a counter; lease ids and request ids come from it.
func (s *Server) nextID() int64 {
	s.idSuffix++
	return int64((s.idPrefix | (s.idSuffix & (1<<48 - 1))) & (1<<63 - 1))
}

func (s *Server) quorum() int      { return len(s.members)/2 + 1 }
func (s *Server) lastIndex() int64 { return int64(s.log.Len()) }
func (s *Server) lastTerm() int64  { return s.termAt(s.lastIndex()) }
func (s *Server) isLeader() bool   { return s.role == RoleLeader }
func (s *Server) termAt(i int64) int64 {
	if i <= 0 || i > s.lastIndex() {
		return 0
	}
	return s.log.At(int(i - 1)).Term
}

func (s *Server) memberIndex(id sim.NodeID) int {
	for i, m := range s.members {
		if m == id {
			return i
		}
	}
	return -1
}

func (s *Server) trace(ctx sim.Ctx, kind sim.TraceKind, op, note string, words sim.Words) {
	if !s.replay {
		ctx.TraceSaid(kind, op, note, words)
	}
}

// Start implements Process: at boot etcd-1 leads term 1 and every member has
// applied its empty entry (revision 1, an empty keyspace).
func (s *Server) Start(ctx sim.Ctx) {
	s.self = ctx.ID()
	if s.members == nil {
		n := Nodes.Of(ctx.Scenario())
		s.members = make([]sim.NodeID, n)
		for i := range n {
			s.members[i] = ctx.Lookup(memberName(i))
		}
	}
	if !s.booted {
		s.booted = true
		s.lead = s.members[0]
	}
	s.resetProgress(ctx)
	// Members boot at different instants: their tickers are out of phase.
	ctx.After(1+time.Duration(ctx.Rand().Int64N(int64(Heartbeat))), sim.Timer{Kind: timerTick})
	ctx.After(1+time.Duration(ctx.Rand().Int64N(int64(lessorTick))), sim.Timer{Kind: timerLessor})
}

func (s *Server) resetProgress(ctx sim.Ctx) {
	n := len(s.members)
	s.votes = make([]int8, n)
	s.match = make([]int64, n)
	s.next = make([]int64, n)
	s.active = make([]bool, n)
	for i := range s.next {
		s.next[i] = s.lastIndex() + 1
	}
	if me := s.memberIndex(s.self); me >= 0 {
		s.match[me] = s.lastIndex()
	}
	s.randomized = electionTicks + ctx.Rand().IntN(electionTicks)
	ctx.WakeTick() // a new role, leader or timeout: the next ticks may act
}

// Crash implements Process: the kernel resets the member's connections;
// the WAL (term, vote, log, commit) stays on disk for Restart.
func (s *Server) Crash(ctx sim.Ctx) {
	for _, c := range s.conns {
		ctx.Send(c, sim.Msg{Op: OpRST})
	}
	s.disownAll(ctx)
	s.role, s.pre, s.lead, s.primary = RoleFollower, false, sim.None, false
	s.pending = map[int64]etcdPending{}
	s.watchers, s.conns, s.renewWait, s.kaStreams = nil, nil, nil, nil
	s.reads, s.pendingReads = nil, nil
	s.ticks, s.noLeaderChecks = 0, 0
}

// Restart implements Process: the member replays its WAL into a fresh
// store (without persist the data directory is gone and it starts empty)
// and rejoins as a follower.
func (s *Server) Restart(ctx sim.Ctx, persist bool) {
	if !persist {
		s.term, s.vote, s.log, s.commit = 0, sim.None, sim.Chunked[etcdEntry]{}, 0
		s.wipedReq = s.nextID()
		ctx.TraceSaid(traceRaft, "restart", "data directory lost: rejoining with an empty log", sim.Say("note.etcd.wiped"))
	}
	s.resetState()
	s.history = sim.Chunked[etcdEvent]{}
	s.applied, s.rev = 0, 1
	s.replay = true
	s.apply(ctx)
	s.replay = false
	s.Start(ctx)
}

// Footprint estimates the bytes a checkpoint of the member holds of its
// own, so recordings can space checkpoints by memory.
func (s *Server) Footprint() int {
	n := int(unsafe.Sizeof(*s)) + s.log.Footprint(int(unsafe.Sizeof(etcdEntry{}))) +
		s.history.Footprint(int(unsafe.Sizeof(etcdEvent{}))) +
		len(s.kv)*96 + len(s.pending)*96 + len(s.members)*32 +
		(len(s.reads)+len(s.pendingReads))*int(unsafe.Sizeof(etcdRead{})) + len(s.conns)*8 +
		len(s.renewWait)*int(unsafe.Sizeof(etcdRenewWait{}))
	for _, l := range s.leases {
		n += 96 + len(l.Keys)*16
	}
	for _, w := range s.watchers {
		n += int(unsafe.Sizeof(w)) + len(w.Queue)*int(unsafe.Sizeof(etcdEvent{}))
	}
	return n
}
