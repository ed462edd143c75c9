package sim

import (
	"cmp"
	"fmt"
	"hash/fnv"
	"math"
	"math/bits"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"
	"unsafe"
)

// EtcdPrefix is the prefix concurrency.NewMutex(session, "/locks/mylock")
// locks under; each contender's key is the prefix plus its lease id in hex.
const EtcdPrefix = "/locks/mylock/"

// EtcdStorageKey is the key the fenced write puts, in a transaction guarded
// by Mutex.IsOwner(): with fencing the storage lives in etcd itself.
const EtcdStorageKey = "/storage/data"

// The etcd server's timing, at its defaults (--heartbeat-interval 100,
// --election-timeout 1000).
const (
	// EtcdHeartbeat is one raft tick: the leader heartbeats every tick.
	EtcdHeartbeat = 100 * time.Millisecond
	// EtcdElectionTimeout is how long a follower waits without hearing
	// from its leader before it campaigns (randomized up to twice that).
	EtcdElectionTimeout = time.Second
)

// EtcdMinLeaseTTL is the shortest lease the lessor grants: a shorter
// request is raised to ceil(1.5 × election timeout) seconds, 2 s by default.
var EtcdMinLeaseTTL = minLeaseTTL(EtcdElectionTimeout)

func minLeaseTTL(election time.Duration) time.Duration {
	minTTL := time.Duration(3*int64(election/EtcdHeartbeat)/2) * EtcdHeartbeat
	return time.Duration(math.Ceil(minTTL.Seconds())) * time.Second
}

const (
	electionTicks = int(EtcdElectionTimeout / EtcdHeartbeat)
	// etcdReqTimeout is ServerConfig.ReqTimeout: 5 s + 2 × election
	// timeout, after which a server gives up on a request it proposed.
	etcdReqTimeout = 5*time.Second + 2*EtcdElectionTimeout
	// lessorTick is how often the lessor's runLoop looks for expired
	// leases; expiredLeaseRetry is when it proposes a revoke again
	// (ExpiredLeasesRetryInterval, set to ReqTimeout by the server).
	lessorTick        = 500 * time.Millisecond
	expiredLeaseRetry = etcdReqTimeout
	// keepAliveTick is clientv3's sendKeepAliveLoop period (retryConnWait),
	// also its wait before re-opening a broken keepalive stream.
	keepAliveTick = 500 * time.Millisecond
	// deadlineTick is clientv3's deadlineLoop period.
	deadlineTick = time.Second
	// firstKeepAliveTimeout is the deadline of a new lease before its first
	// keepalive answer (clientv3 defaultTTL, with no DialTimeout set).
	firstKeepAliveTimeout = 5 * time.Second
	// etcdClientTimeout is the context deadline the client puts on each
	// call (etcdctl's --command-timeout default).
	etcdClientTimeout = 5 * time.Second
	// etcdBootUnixMilli seeds the members' id generators: 2026-01-01 UTC.
	etcdBootUnixMilli = 1767225600000
)

// Errors etcd answers with, as its clients print them.
const (
	errNoLeader       = "etcdserver: no leader"
	errTimeout        = "etcdserver: request timed out"
	errLeaseNotFound  = "etcdserver: requested lease not found"
	errLeaseExists    = "etcdserver: lease already exists"
	errNotPrimary     = "etcdserver: not primary"
	errLeaderChanged  = "etcdserver: leader changed"
	errSessionExpired = "mutex: session is expired"
	errDeadline       = "context deadline exceeded"
	errReset          = "connection reset"
)

// Wire operations of etcd mode. Client calls and their answers carry the
// client's request id in Seq; raft messages carry the sender's term in Seq.
const (
	etcdGrant        = "Grant"
	etcdGrantResp    = "GrantResp"
	etcdKeepAlive    = "KeepAlive"
	etcdKeepAliveOK  = "KeepAliveResp"
	etcdKeepAliveErr = "KeepAliveErr"
	etcdTxn          = "Txn"
	etcdTxnResp      = "TxnResp"
	etcdRange        = "Range"
	etcdRangeResp    = "RangeResp"
	etcdDelete       = "Delete"
	etcdDeleteResp   = "DeleteResp"
	etcdRevoke       = "Revoke"
	etcdRevokeResp   = "RevokeResp"
	etcdWatch        = "Watch"
	etcdWatchCreated = "WatchCreated"
	etcdWatchCancel  = "WatchCancel"
	etcdEventPut     = "PUT"
	etcdEventDelete  = "DELETE"
	etcdError        = "Error"
	etcdRST          = "RST" // the kernel resets the connections of a dead process

	raftApp           = "MsgApp"
	raftAppResp       = "MsgAppResp"
	raftHeartbeat     = "MsgHeartbeat"
	raftHeartbeatResp = "MsgHeartbeatResp"
	raftPreVote       = "MsgPreVote"
	raftPreVoteResp   = "MsgPreVoteResp"
	raftVote          = "MsgVote"
	raftVoteResp      = "MsgVoteResp"
	raftProp          = "MsgProp"
	raftReadIndex     = "MsgReadIndex"
	raftReadIndexResp = "MsgReadIndexResp"
	leaseRenew        = "LeaseRenew" // a follower forwards a keepalive to the leader
	leaseRenewResp    = "LeaseRenewResp"
)

// Server roles as the cluster view shows them.
const (
	roleLeader    = "leader"
	roleFollower  = "follower"
	roleCandidate = "candidate"
)

func init() { RegisterMode(etcdMode{}) }

type etcdMode struct{}

func (etcdMode) Name() string { return "etcd" }

// etcdTraits: raft members, a lease, and the key's create revision as
// every grant's token.
var etcdTraits = Traits{
	LeaseWord: "lease", ServerWord: "members", Token: TokenAlways,
	Fields: []string{"nodes", "herd", "fencing", "preVote"},
	Refusals: map[string]error{
		"plainDel": fieldErr("plainDel", say("field.etcdPlainDel"), "only for redis; an etcd mutex unlocks by deleting its own key"),
		"replica":  fieldErr("replica", say("field.etcdReplica"), "only for redis; etcd replicates every write through raft"),
		"watchdog": fieldErr("watchdog", say("field.etcdWatchdog"), "only for redis; an etcd session keeps its lease alive every TTL/3 by itself"),
	},
}

func (etcdMode) Traits() Traits { return etcdTraits }

func (etcdMode) Defaults(sc *Scenario) {
	sc.Nodes = 3
	sc.Tries = 0
	// Pre-vote on, as etcd 3.5 and later start (etcd-io/etcd
	// server/embed/config.go: NewConfig sets PreVote true; the flag
	// --pre-vote says "Enable the raft Pre-Vote algorithm to prevent
	// disruption when a node that has been partitioned away rejoins the
	// cluster"). etcd 3.4, the Debian server the conformance suite runs,
	// starts with it off: set "preVote": false for 3.4.
	sc.PreVote = true
}

func (etcdMode) Validate(sc *Scenario) error {
	switch {
	case sc.Nodes < 1 || sc.Nodes > 7:
		return fieldErr("nodes", say("field.etcdNodes", "n", strconv.Itoa(sc.Nodes)), "%d, want 1 to 7 etcd members", sc.Nodes)
	}
	return nil
}

func (etcdMode) Servers(sc *Scenario) []string {
	out := make([]string, sc.Nodes)
	for i := range out {
		out[i] = fmt.Sprintf("etcd-%d", i+1)
	}
	return out
}

func (etcdMode) CanFailover(sc *Scenario, node string) error {
	return fieldErr("", say("field.etcdFailover"), "etcd members elect a new leader by themselves: crash the leader instead")
}

func (etcdMode) Failover(s *Sim, node NodeID) {}

func (etcdMode) NewServer(sc *Scenario, i int) Process { return newEtcdServer(sc, i) }

func (etcdMode) NewClient(sc *Scenario, i int) Process { return &etcdClient{index: i} }

// leaseSeconds is the TTL a client asks for: etcd leases are whole
// seconds, so a fractional scenario TTL is rounded up.
func leaseSeconds(d time.Duration) time.Duration {
	s := int64(math.Ceil(d.Seconds()))
	return time.Duration(max(s, 1)) * time.Second
}

// EtcdAskedTTL is the lease TTL a client asks for a scenario's ttl
// (concurrency.WithTTL takes whole seconds), for the window to show.
func EtcdAskedTTL(ttl time.Duration) time.Duration { return leaseSeconds(ttl) }

// EtcdGrantedTTL is the lease TTL the lessor grants for a scenario's ttl:
// what the client asks for, raised to the lessor's minimum.
func EtcdGrantedTTL(ttl time.Duration) time.Duration { return grantedLease(leaseSeconds(ttl)) }

// grantedLease is the TTL the lessor grants for a requested one: a request
// shorter than EtcdMinLeaseTTL is raised to it.
func grantedLease(asked time.Duration) time.Duration { return max(asked, EtcdMinLeaseTTL) }

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
)

// etcdEntry is one raft log entry: a request and who waits for its result.
type etcdEntry struct {
	Term   int64
	Type   string
	Key    string
	Lease  int64
	N      int64 // grant: TTL in seconds; write: the guard revision; revoke: 1 on expiry
	Client NodeID
	Origin NodeID // the member that received the request and answers it
	Req    int64  // the origin's request id
}

// encode writes the entry for a MsgApp or MsgProp; Msg.Names carries them.
func (e etcdEntry) encode() string {
	key := e.Key
	if key == "" {
		key = "-"
	}
	// "%d %s %s %d %d %d %d %d", written without fmt: a raft group
	// encodes every entry it sends.
	var buf [96]byte
	b := strconv.AppendInt(buf[:0], e.Term, 10)
	b = append(append(append(b, ' '), e.Type...), ' ')
	b = append(append(b, key...), ' ')
	for _, v := range [...]int64{e.Lease, e.N, int64(e.Client), int64(e.Origin)} {
		b = append(strconv.AppendInt(b, v, 10), ' ')
	}
	return string(strconv.AppendInt(b, e.Req, 10))
}

func decodeEntry(s string) (etcdEntry, error) {
	// Split at single spaces, as encode writes them: strings.FieldsSeq,
	// which looks for any Unicode space, was half of a follower's cost of
	// reading an append.
	var f [8]string
	rest := s
	for i := range len(f) - 1 {
		j := strings.IndexByte(rest, ' ')
		if j <= 0 {
			return etcdEntry{}, fmt.Errorf("etcd: malformed entry %q", s)
		}
		f[i], rest = rest[:j], rest[j+1:]
	}
	if rest == "" || strings.IndexByte(rest, ' ') >= 0 {
		return etcdEntry{}, fmt.Errorf("etcd: malformed entry %q", s)
	}
	f[len(f)-1] = rest
	var n [8]int64
	for _, i := range []int{0, 3, 4, 5, 6, 7} {
		v, err := strconv.ParseInt(f[i], 10, 64)
		if err != nil {
			return etcdEntry{}, fmt.Errorf("etcd: malformed entry %q: %w", s, err)
		}
		n[i] = v
	}
	e := etcdEntry{Term: n[0], Type: f[1], Key: f[2], Lease: n[3], N: n[4], Client: NodeID(n[5]), Origin: NodeID(n[6]), Req: n[7]}
	if e.Key == "-" {
		e.Key = ""
	}
	return e, nil
}

func encodeEntries(log *chunked[etcdEntry], from int) []string {
	out := make([]string, 0, log.Len()-from)
	log.Range(from, func(_ int, e etcdEntry) bool {
		out = append(out, e.encode())
		return true
	})
	return out
}

// etcdKV is one key in the MVCC store.
type etcdKV struct {
	CreateRev int64
	ModRev    int64
	Lease     int64
	Client    NodeID // who put it, for the views and the checker
}

// etcdLease is a lease in a member's lessor. Only the primary lessor (the
// leader's) tracks expiry; on followers a lease never expires.
type etcdLease struct {
	ID      int64
	TTL     time.Duration
	Client  NodeID
	Expiry  time.Duration // on this member's monotonic clock, when primary
	RetryAt time.Duration // when the lessor may propose its revoke again
	Keys    []string      // attached keys, sorted
}

// etcdEvent is one watch event in the MVCC history.
type etcdEvent struct {
	Rev  int64
	Type string // PUT or DELETE
	Key  string
}

// etcdWatcher is a watch a client holds on one member.
type etcdWatcher struct {
	Client NodeID
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
	Client NodeID
	Seq    int64  // the client's request id
	Op     string // entry type, Range or KeepAlive
	Key    string
	Max    int64 // Range "last": the highest create revision wanted
	Last   bool  // Range with WithLastCreate + WithMaxCreateRev
	Lease  int64 // KeepAlive: the lease to renew
	// WaitLeader is a KeepAlive the member holds while it has no leader
	// (EtcdServer.waitLeader), looking again every election timeout.
	WaitLeader bool
	// Held is a write waiting in raft's Propose for a leader (Proposal is
	// the entry to propose when one is known).
	Held      bool
	Proposal  etcdEntry
	ReadIndex int64   // linearizable read: the commit index to wait for; 0 unknown
	Timeout   TimerID // the request timeout, cancelled when it is answered
}

// etcdRead is a ReadIndex request on the leader, confirmed by a quorum of
// heartbeat acknowledgements (ReadOnlySafe).
type etcdRead struct {
	Ctx   int64
	From  NodeID
	Req   int64
	Index int64
	Acks  uint8 // bit per member
}

// etcdRenewWait is a keepalive the leader holds: its lease expired and
// awaits the revoke, or the lessor is not yet primary.
type etcdRenewWait struct {
	From    NodeID
	Req     int64
	Lease   int64
	Promote bool
}

// EtcdServer is one etcd member: a raft node (pre-vote, check-quorum), an
// MVCC store with one global revision, a lessor and a watch hub.
type EtcdServer struct {
	self    NodeID
	members []NodeID // every member, self included, in order
	booted  bool

	// Raft state kept in the WAL.
	term   int64
	vote   NodeID
	log    chunked[etcdEntry] // log.At(i-1) is index i
	commit int64

	// Raft volatile state.
	role            string
	pre             bool // a pre-candidate, collecting pre-votes
	lead            NodeID
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
	history  chunked[etcdEvent]
	primary  bool
	ownedKey string // the owner key this leader reported to the checker
	replay   bool   // rebuilding from the WAL: no traces
	wipedReq int64  // the last request id before the data directory was lost

	// Serving clients.
	idPrefix  uint64
	idSuffix  uint64
	pending   map[int64]etcdPending
	watchers  []etcdWatcher
	conns     []NodeID
	renewWait []etcdRenewWait
	// kaStreams are the clients with a keepalive stream on this member;
	// they require a leader (clientv3 lease.go: WithRequireLeader), so
	// monitorLeader cancels them after noLeaderChecks checks without one.
	kaStreams      []NodeID
	ticks          int // raft ticks since boot: monitorLeader looks every electionTicks
	noLeaderChecks int
}

func newEtcdServer(sc *Scenario, i int) *EtcdServer {
	h := fnv.New64a()
	fmt.Fprintf(h, "etcd-%d/%d", i+1, sc.Seed)
	member := uint16(h.Sum64())
	s := &EtcdServer{
		vote:     None,
		lead:     None,
		term:     1,
		commit:   1,
		applied:  1,
		rev:      1,
		role:     roleFollower,
		idPrefix: uint64(member) << 48,
		idSuffix: (uint64(etcdBootUnixMilli) & (1<<40 - 1)) << 8,
	}
	s.log.Append(etcdEntry{Term: 1, Type: entNoop, Client: None, Origin: None})
	s.resetState()
	if i == 0 {
		s.role, s.primary = roleLeader, true
	}
	return s
}

func (s *EtcdServer) resetState() {
	s.kv = map[string]etcdKV{}
	s.leases = map[int64]etcdLease{}
	s.pending = map[int64]etcdPending{}
}

// Clone implements Process.
func (s *EtcdServer) Clone() Process {
	c := *s
	c.members = append([]NodeID(nil), s.members...)
	c.log = s.log.Clone()
	c.votes = append([]int8(nil), s.votes...)
	c.match = append([]int64(nil), s.match...)
	c.next = append([]int64(nil), s.next...)
	c.active = append([]bool(nil), s.active...)
	c.reads = append([]etcdRead(nil), s.reads...)
	c.pendingReads = append([]etcdRead(nil), s.pendingReads...)
	c.history = s.history.Clone()
	c.conns = append([]NodeID(nil), s.conns...)
	c.renewWait = append([]etcdRenewWait(nil), s.renewWait...)
	c.kaStreams = append([]NodeID(nil), s.kaStreams...)
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
func (s *EtcdServer) nextID() int64 {
	s.idSuffix++
	return int64((s.idPrefix | (s.idSuffix & (1<<48 - 1))) & (1<<63 - 1))
}

func (s *EtcdServer) quorum() int      { return len(s.members)/2 + 1 }
func (s *EtcdServer) lastIndex() int64 { return int64(s.log.Len()) }
func (s *EtcdServer) lastTerm() int64  { return s.termAt(s.lastIndex()) }
func (s *EtcdServer) isLeader() bool   { return s.role == roleLeader }
func (s *EtcdServer) termAt(i int64) int64 {
	if i <= 0 || i > s.lastIndex() {
		return 0
	}
	return s.log.At(int(i - 1)).Term
}

func (s *EtcdServer) memberIndex(id NodeID) int {
	for i, m := range s.members {
		if m == id {
			return i
		}
	}
	return -1
}

func (s *EtcdServer) trace(ctx Ctx, kind, op, note string, words Words) {
	if !s.replay {
		ctx.TraceSaid(kind, op, note, words)
	}
}

// Start implements Process: at boot etcd-1 leads term 1 and every member has
// applied its empty entry (revision 1, an empty keyspace).
func (s *EtcdServer) Start(ctx Ctx) {
	s.self = ctx.ID()
	if s.members == nil {
		n := ctx.Scenario().Nodes
		for i := 0; i < n; i++ {
			s.members = append(s.members, ctx.Lookup(fmt.Sprintf("etcd-%d", i+1)))
		}
	}
	if !s.booted {
		s.booted = true
		s.lead = s.members[0]
	}
	s.resetProgress(ctx)
	// Members boot at different instants: their tickers are out of phase.
	ctx.After(1+time.Duration(ctx.Rand().Int64N(int64(EtcdHeartbeat))), Timer{Kind: "tick"})
	ctx.After(1+time.Duration(ctx.Rand().Int64N(int64(lessorTick))), Timer{Kind: "lessor"})
}

func (s *EtcdServer) resetProgress(ctx Ctx) {
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
}

// Crash implements Process: the kernel resets the member's connections;
// the WAL (term, vote, log, commit) stays on disk for Restart.
func (s *EtcdServer) Crash(ctx Ctx) {
	for _, c := range s.conns {
		ctx.Send(c, Msg{Op: etcdRST})
	}
	if s.ownedKey != "" {
		ctx.Disown(EtcdPrefix, false)
		s.ownedKey = ""
	}
	s.role, s.pre, s.lead, s.primary = roleFollower, false, None, false
	s.pending = map[int64]etcdPending{}
	s.watchers, s.conns, s.renewWait, s.kaStreams = nil, nil, nil, nil
	s.reads, s.pendingReads = nil, nil
	s.ticks, s.noLeaderChecks = 0, 0
}

// Restart implements Process: the member replays its WAL into a fresh
// store (without persist the data directory is gone and it starts empty)
// and rejoins as a follower.
func (s *EtcdServer) Restart(ctx Ctx, persist bool) {
	if !persist {
		s.term, s.vote, s.log, s.commit = 0, None, chunked[etcdEntry]{}, 0
		s.wipedReq = s.nextID()
		ctx.TraceSaid("raft", "restart", "data directory lost: rejoining with an empty log", say("note.etcd.wiped"))
	}
	s.resetState()
	s.history = chunked[etcdEvent]{}
	s.applied, s.rev = 0, 1
	s.replay = true
	s.apply(ctx)
	s.replay = false
	s.Start(ctx)
}

// ---------------------------------------------------------------------------
// Raft.

// reset is raft's reset(term): a new term forgets the vote; any role
// change drops the leader, the votes and pending reads.
func (s *EtcdServer) reset(ctx Ctx, term int64) {
	if term != s.term {
		s.term, s.vote = term, None
	}
	s.lead = None
	s.electionElapsed = 0
	s.reads, s.pendingReads = nil, nil
	s.resetProgress(ctx)
}

func (s *EtcdServer) becomeFollower(ctx Ctx, term int64, lead NodeID) {
	was, prev := s.isLeader(), s.lead
	s.reset(ctx, term)
	s.role, s.pre, s.lead = roleFollower, false, lead
	if was {
		s.demote(ctx)
	}
	if lead != None && lead != prev {
		s.newLeader(ctx)
	}
}

func (s *EtcdServer) campaign(ctx Ctx, pre bool) {
	if s.isLeader() {
		s.demote(ctx)
	}
	if pre {
		s.role, s.pre, s.lead = roleCandidate, true, None
		s.votes = make([]int8, len(s.members))
		s.trace(ctx, "raft", raftPreVote, fmt.Sprintf("no leader heard for %v: pre-vote for term %d", time.Duration(s.randomized)*EtcdHeartbeat, s.term+1),
			say("note.etcd.preVote", "for", (time.Duration(s.randomized)*EtcdHeartbeat).String(), "term", strconv.FormatUint(uint64(s.term+1), 10)))
	} else {
		s.reset(ctx, s.term+1)
		s.vote = s.self
		s.role, s.pre = roleCandidate, false
		s.trace(ctx, "raft", raftVote, fmt.Sprintf("campaign for term %d", s.term), say("note.etcd.campaign", "term", fmt.Sprint(s.term)))
	}
	if s.poll(ctx, s.self, true) {
		return
	}
	op, term := raftVote, s.term
	if pre {
		op, term = raftPreVote, s.term+1
	}
	for _, m := range s.members {
		if m != s.self {
			ctx.Send(m, Msg{Op: op, Seq: term, Token: s.lastIndex(), N: s.lastTerm()})
		}
	}
}

// poll records a (pre-)vote and acts on the result; true when decided.
func (s *EtcdServer) poll(ctx Ctx, from NodeID, granted bool) bool {
	i := s.memberIndex(from)
	if i < 0 || s.votes[i] != 0 {
		return false
	}
	s.votes[i] = -1
	if granted {
		s.votes[i] = 1
	}
	yes, no := 0, 0
	for _, v := range s.votes {
		switch v {
		case 1:
			yes++
		case -1:
			no++
		}
	}
	switch {
	case yes >= s.quorum():
		if s.pre {
			s.campaign(ctx, false)
		} else {
			s.becomeLeader(ctx)
		}
		return true
	case no > len(s.members)-s.quorum():
		s.becomeFollower(ctx, s.term, None)
		return true
	}
	return false
}

func (s *EtcdServer) becomeLeader(ctx Ctx) {
	s.reset(ctx, s.term)
	s.role, s.pre, s.lead = roleLeader, false, s.self
	s.trace(ctx, "raft", "leader", fmt.Sprintf("elected leader of term %d with log up to index %d", s.term, s.lastIndex()),
		say("note.etcd.elected", "term", fmt.Sprint(s.term), "index", fmt.Sprint(s.lastIndex())))
	s.appendEntry(ctx, etcdEntry{Type: entNoop, Client: None, Origin: None})
	s.newLeader(ctx)
}

// newLeader runs when this member learns of a new leader. A keepalive it
// forwarded may have died with the old one: LeaseRenew keeps retrying
// until it reaches a leader, so it goes again. A linearizable read not yet
// confirmed fails with "leader changed" (the client retries it).
func (s *EtcdServer) newLeader(ctx Ctx) {
	for _, id := range s.pendingIDs() {
		p := s.pending[id]
		switch {
		case p.Op == etcdRange && p.ReadIndex == 0:
			s.forget(ctx, id)
			ctx.Send(p.Client, Msg{Op: etcdError, Seq: p.Seq, Value: errLeaderChanged})
		case p.WaitLeader:
			// waitLeader looks again only at its next election timeout
			// ("waitlead"), not the moment a leader appears.
		case p.Held:
			// Propose takes it as soon as node.run has a leader again.
			p.Held = false
			s.pending[id] = p
			s.propose(ctx, p.Proposal)
		case p.Op == etcdKeepAlive && s.isLeader():
			s.leaderRenew(ctx, s.self, id, p.Lease)
		case p.Op == etcdKeepAlive:
			ctx.Send(s.lead, Msg{Op: leaseRenew, Seq: id, Token: p.Lease})
		}
	}
}

// inLease is check-quorum's leader lease: a member that heard from a leader
// within the election timeout ignores (pre-)vote requests.
func (s *EtcdServer) inLease() bool {
	return s.lead != None && s.electionElapsed < electionTicks
}

func (s *EtcdServer) upToDate(index, term int64) bool {
	return term > s.lastTerm() || (term == s.lastTerm() && index >= s.lastIndex())
}

func (s *EtcdServer) tick(ctx Ctx) {
	s.electionElapsed++
	if s.isLeader() {
		if s.electionElapsed >= electionTicks {
			s.electionElapsed = 0
			act := 0
			for i, m := range s.members {
				if m == s.self || s.active[i] {
					act++
				}
				s.active[i] = false
			}
			if act < s.quorum() {
				s.trace(ctx, "raft", "leader", "check-quorum: lost contact with a majority, stepping down", say("note.etcd.stepDown"))
				s.becomeFollower(ctx, s.term, None)
			}
		}
		if s.isLeader() {
			s.bcastHeartbeat(ctx, s.lastReadCtx())
		}
	} else if s.electionElapsed >= s.randomized {
		s.electionElapsed = 0
		// Without pre-vote a member cut off from the leader campaigns for
		// real, raising its term each election timeout; when it rejoins,
		// its answer to the leader's heartbeat carries that term and the
		// leader steps down (raft.go: a message of a higher term makes a
		// member a follower of that term).
		s.campaign(ctx, ctx.Scenario().PreVote)
	}
	s.flushWatchers(ctx)
	s.ticks++
	if s.ticks%electionTicks == 0 {
		s.monitorLeader(ctx)
	}
	ctx.After(EtcdHeartbeat, Timer{Kind: "tick"})
}

// maxNoLeaderChecks is v3rpc's maxNoLeaderCnt: a member cancels the streams
// that require a leader after this many election timeouts without one.
const maxNoLeaderChecks = 3

// monitorLeader is v3rpc's (etcd-io/etcd
// server/etcdserver/api/v3rpc/interceptor.go, release-3.4 and 3.5): every
// election timeout it looks for a leader; after maxNoLeaderChecks looks in
// a row without one it cancels every stream that requires a leader with
// "no leader". Here those are the lease keepalive streams; a keepalive the
// member holds in waitLeader ends with them.
func (s *EtcdServer) monitorLeader(ctx Ctx) {
	if s.lead != None {
		s.noLeaderChecks = 0
		return
	}
	s.noLeaderChecks++
	if s.noLeaderChecks < maxNoLeaderChecks || len(s.kaStreams) == 0 {
		return
	}
	for _, c := range s.kaStreams {
		ctx.Send(c, Msg{Op: etcdKeepAliveErr, Value: errNoLeader})
		for _, id := range s.pendingIDs() {
			if p := s.pending[id]; p.Client == c && p.Op == etcdKeepAlive {
				s.forget(ctx, id)
			}
		}
	}
	s.kaStreams = s.kaStreams[:0]
}

// addKeepAliveStream notes a client's keepalive stream on this member.
func (s *EtcdServer) addKeepAliveStream(c NodeID) {
	for _, k := range s.kaStreams {
		if k == c {
			return
		}
	}
	s.kaStreams = append(s.kaStreams, c)
}

func (s *EtcdServer) lastReadCtx() int64 {
	if n := len(s.reads); n > 0 {
		return s.reads[n-1].Ctx
	}
	return 0
}

func (s *EtcdServer) bcastHeartbeat(ctx Ctx, readCtx int64) {
	for i, m := range s.members {
		if m != s.self {
			ctx.Send(m, Msg{Op: raftHeartbeat, Seq: s.term, N: min(s.match[i], s.commit), Token: readCtx})
		}
	}
}

// appendEntry is the leader's MsgProp: append, replicate, maybe commit.
func (s *EtcdServer) appendEntry(ctx Ctx, e etcdEntry) {
	e.Term = s.term
	s.log.Append(e)
	s.match[s.memberIndex(s.self)] = s.lastIndex()
	s.bcastAppend(ctx)
	s.maybeCommit(ctx)
}

// propose hands an entry to raft: the leader appends it, a follower
// forwards it to the leader it knows; false when there is none.
func (s *EtcdServer) propose(ctx Ctx, e etcdEntry) bool {
	switch {
	case s.isLeader():
		s.appendEntry(ctx, e)
	case s.lead != None && s.lead != s.self:
		ctx.Send(s.lead, Msg{Op: raftProp, Names: []string{e.encode()}})
	default:
		return false
	}
	return true
}

func (s *EtcdServer) bcastAppend(ctx Ctx) {
	for i, m := range s.members {
		if m != s.self {
			s.sendAppend(ctx, i)
		}
	}
}

func (s *EtcdServer) sendAppend(ctx Ctx, i int) {
	next := max(s.next[i], 1)
	prev := next - 1
	var ents []string
	if prev < s.lastIndex() {
		ents = encodeEntries(&s.log, int(prev))
	}
	ctx.Send(s.members[i], Msg{Op: raftApp, Seq: s.term, Token: prev, N: s.termAt(prev),
		Value: strconv.FormatInt(s.commit, 10), Names: ents})
	s.next[i] = s.lastIndex() + 1
}

// maybeCommit advances the commit index to the highest entry of this term
// a majority has appended, applies it and tells the followers at once.
func (s *EtcdServer) maybeCommit(ctx Ctx) {
	var buf [8]int64
	ms := append(buf[:0], s.match...)
	slices.SortFunc(ms, func(a, b int64) int { return cmp.Compare(b, a) })
	n := ms[s.quorum()-1]
	if n <= s.commit || s.termAt(n) != s.term {
		return
	}
	s.commit = n
	s.apply(ctx)
	s.bcastAppend(ctx)
}

// step handles a message from another member.
func (s *EtcdServer) step(ctx Ctx, from NodeID, m *Msg) {
	switch m.Op {
	case raftProp:
		for _, enc := range m.Names {
			e, err := decodeEntry(enc)
			if err != nil {
				s.trace(ctx, "raft", m.Op, err.Error(), asIs(err.Error()))
				return
			}
			s.propose(ctx, e)
		}
		return
	case raftReadIndex:
		if s.isLeader() {
			s.leaderRead(ctx, from, m.Seq)
		}
		return
	case raftReadIndexResp:
		if p, ok := s.pending[m.Seq]; ok {
			p.ReadIndex = m.Token
			s.pending[m.Seq] = p
			s.serveReads(ctx)
		}
		return
	case leaseRenew:
		s.leaderRenew(ctx, from, m.Seq, m.Token)
		return
	case leaseRenewResp:
		s.answerKeepAlive(ctx, m.Seq, m.Token, m.TTL, m.Value)
		return
	}
	term := m.Seq
	switch {
	case term > s.term:
		if (m.Op == raftVote || m.Op == raftPreVote) && s.inLease() {
			return
		}
		switch {
		case m.Op == raftPreVote:
		case m.Op == raftPreVoteResp && m.N == 1:
		case m.Op == raftApp || m.Op == raftHeartbeat:
			s.becomeFollower(ctx, term, from)
		default:
			s.becomeFollower(ctx, term, None)
		}
	case term < s.term:
		switch m.Op {
		case raftApp, raftHeartbeat:
			ctx.Send(from, Msg{Op: raftAppResp, Seq: s.term})
		case raftPreVote:
			ctx.Send(from, Msg{Op: raftPreVoteResp, Seq: s.term})
		}
		return
	}
	switch m.Op {
	case raftPreVote, raftVote:
		canVote := s.vote == from || (s.vote == None && s.lead == None) || (m.Op == raftPreVote && m.Seq > s.term)
		resp := raftVoteResp
		if m.Op == raftPreVote {
			resp = raftPreVoteResp
		}
		if canVote && s.upToDate(m.Token, m.N) {
			ctx.Send(from, Msg{Op: resp, Seq: m.Seq, N: 1})
			if m.Op == raftVote {
				s.electionElapsed = 0
				s.vote = from
			}
		} else {
			ctx.Send(from, Msg{Op: resp, Seq: s.term})
		}
	case raftPreVoteResp:
		if s.role == roleCandidate && s.pre {
			s.poll(ctx, from, m.N == 1)
		}
	case raftVoteResp:
		if s.role == roleCandidate && !s.pre {
			s.poll(ctx, from, m.N == 1)
		}
	case raftApp, raftHeartbeat:
		if s.role == roleCandidate {
			s.becomeFollower(ctx, term, from)
		}
		if s.isLeader() {
			return
		}
		s.electionElapsed = 0
		if s.lead != from {
			s.lead = from
			s.newLeader(ctx)
		}
		if m.Op == raftApp {
			s.handleAppend(ctx, from, m)
			return
		}
		if c := min(m.N, s.lastIndex()); c > s.commit {
			s.commit = c
			s.apply(ctx)
		}
		ctx.Send(from, Msg{Op: raftHeartbeatResp, Seq: s.term, Token: m.Token})
	case raftAppResp:
		if s.isLeader() {
			s.handleAppResp(ctx, from, m)
		}
	case raftHeartbeatResp:
		if !s.isLeader() {
			return
		}
		i := s.memberIndex(from)
		s.active[i] = true
		if s.match[i] < s.lastIndex() {
			s.sendAppend(ctx, i)
		}
		if m.Token > 0 {
			s.ackRead(ctx, i, m.Token)
		}
	}
}

func (s *EtcdServer) handleAppend(ctx Ctx, from NodeID, m *Msg) {
	prev := m.Token
	commit, _ := strconv.ParseInt(m.Value, 10, 64)
	if prev < s.commit {
		ctx.Send(from, Msg{Op: raftAppResp, Seq: s.term, Token: s.commit})
		return
	}
	if prev > s.lastIndex() || s.termAt(prev) != m.N {
		ctx.Send(from, Msg{Op: raftAppResp, Seq: s.term, Token: prev, N: min(prev, s.lastIndex()), Value: "reject"})
		return
	}
	for i, enc := range m.Names {
		e, err := decodeEntry(enc)
		if err != nil {
			s.trace(ctx, "raft", m.Op, err.Error(), asIs(err.Error()))
			return
		}
		idx := prev + 1 + int64(i)
		if idx <= s.lastIndex() {
			if s.termAt(idx) == e.Term {
				continue
			}
			s.log.Truncate(int(idx - 1))
		}
		s.log.Append(e)
	}
	lastNew := prev + int64(len(m.Names))
	if c := min(commit, lastNew); c > s.commit {
		s.commit = c
		s.apply(ctx)
	}
	ctx.Send(from, Msg{Op: raftAppResp, Seq: s.term, Token: lastNew})
}

func (s *EtcdServer) handleAppResp(ctx Ctx, from NodeID, m *Msg) {
	i := s.memberIndex(from)
	s.active[i] = true
	if m.Value == "reject" {
		switch {
		case m.N < s.match[i]:
			// The follower lost entries it had acknowledged: its data
			// directory is gone. Raft would panic; as after a member
			// remove and re-add, it gets the whole log again.
			s.match[i] = m.N
		case m.Token <= s.match[i]:
			return // stale
		}
		s.next[i] = max(min(m.Token, m.N+1), s.match[i]+1)
		s.sendAppend(ctx, i)
		return
	}
	if m.Token > s.match[i] {
		s.match[i] = m.Token
	}
	s.next[i] = max(s.next[i], m.Token+1)
	s.maybeCommit(ctx)
}

// ---------------------------------------------------------------------------
// Linearizable reads: ReadIndex confirmed by a quorum of heartbeats.

func (s *EtcdServer) leaderRead(ctx Ctx, from NodeID, req int64) {
	r := etcdRead{From: from, Req: req}
	if s.termAt(s.commit) != s.term {
		s.pendingReads = append(s.pendingReads, r)
		return
	}
	s.readCtx++
	r.Ctx, r.Index = s.readCtx, s.commit
	r.Acks = 1 << uint(s.memberIndex(s.self))
	s.reads = append(s.reads, r)
	if s.quorum() == 1 {
		s.releaseReads(ctx, r.Ctx)
		return
	}
	s.bcastHeartbeat(ctx, r.Ctx)
}

func (s *EtcdServer) ackRead(ctx Ctx, i int, readCtx int64) {
	for j := range s.reads {
		if s.reads[j].Ctx == readCtx {
			s.reads[j].Acks |= 1 << uint(i)
			if bits.OnesCount8(s.reads[j].Acks) >= s.quorum() {
				s.releaseReads(ctx, readCtx)
			}
			return
		}
	}
}

// releaseReads answers every read up to the confirmed context.
func (s *EtcdServer) releaseReads(ctx Ctx, upTo int64) {
	var keep []etcdRead
	for _, r := range s.reads {
		if r.Ctx > upTo {
			keep = append(keep, r)
			continue
		}
		if r.From == s.self {
			if p, ok := s.pending[r.Req]; ok {
				p.ReadIndex = r.Index
				s.pending[r.Req] = p
			}
		} else {
			ctx.Send(r.From, Msg{Op: raftReadIndexResp, Seq: r.Req, Token: r.Index})
		}
	}
	s.reads = keep
	s.serveReads(ctx)
}

// serveReads answers the reads whose read index this member has applied.
func (s *EtcdServer) serveReads(ctx Ctx) {
	for _, req := range s.pendingIDs() {
		p := s.pending[req]
		if p.Op != etcdRange || p.ReadIndex == 0 || p.ReadIndex > s.applied {
			continue
		}
		s.forget(ctx, req)
		reply := Msg{Op: etcdRangeResp, Seq: p.Seq, N: s.rev}
		if p.Last {
			if k, kv, ok := s.lastCreateUpTo(p.Max); ok {
				reply.Key, reply.Token = k, kv.CreateRev
			}
		} else if kv, ok := s.kv[p.Key]; ok {
			reply.Key, reply.Token = p.Key, kv.CreateRev
		}
		ctx.Send(p.Client, reply)
	}
}

func (s *EtcdServer) pendingIDs() []int64 {
	ids := make([]int64, 0, len(s.pending))
	for id := range s.pending {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	return ids
}

// ---------------------------------------------------------------------------
// The state machine.

func (s *EtcdServer) apply(ctx Ctx) {
	for s.applied < s.commit {
		s.applied++
		s.applyEntry(ctx, s.log.At(int(s.applied-1)))
	}
	s.serveReads(ctx)
}

func (s *EtcdServer) reply(ctx Ctx, e etcdEntry, m Msg) {
	if e.Origin != s.self {
		return
	}
	p, ok := s.pending[e.Req]
	if !ok {
		return
	}
	s.forget(ctx, e.Req)
	m.Seq = p.Seq
	ctx.Send(p.Client, m)
}

func (s *EtcdServer) applyEntry(ctx Ctx, e etcdEntry) {
	switch e.Type {
	case entNoop:
		if s.isLeader() && e.Term == s.term && !s.replay {
			s.promote(ctx)
			reads := s.pendingReads
			s.pendingReads = nil
			for _, r := range reads {
				s.leaderRead(ctx, r.From, r.Req)
			}
		}
	case entGrant:
		if _, dup := s.leases[e.Lease]; dup {
			s.reply(ctx, e, Msg{Op: etcdError, Value: errLeaseExists})
			return
		}
		ttl := grantedLease(time.Duration(e.N) * time.Second)
		l := etcdLease{ID: e.Lease, TTL: ttl, Client: e.Client}
		if s.primary {
			l.Expiry = ctx.Mono() + ttl
		}
		s.leases[e.Lease] = l
		s.reply(ctx, e, Msg{Op: etcdGrantResp, Token: e.Lease, TTL: ttl})
	case entLock:
		kv, ok := s.kv[e.Key]
		how := "get"
		if !ok {
			l, lok := s.leases[e.Lease]
			if !lok {
				s.reply(ctx, e, Msg{Op: etcdError, Value: errLeaseNotFound})
				return
			}
			s.rev++
			kv = etcdKV{CreateRev: s.rev, ModRev: s.rev, Lease: e.Lease, Client: e.Client}
			s.kv[e.Key] = kv
			l.Keys = insertSorted(l.Keys, e.Key)
			s.leases[e.Lease] = l
			s.event(ctx, etcdEventPut, e.Key)
			how = "put"
		}
		ownerKey, owner, _ := s.firstCreate()
		s.reply(ctx, e, Msg{Op: etcdTxnResp, Key: ownerKey, Value: how, Token: kv.CreateRev, N: owner.CreateRev})
		s.recordOwner(ctx, false)
	case entDelete:
		n := int64(0)
		if _, ok := s.kv[e.Key]; ok {
			s.rev++
			s.deleteKey(ctx, e.Key)
			n = 1
		}
		s.reply(ctx, e, Msg{Op: etcdDeleteResp, N: n, Token: s.rev})
		s.recordOwner(ctx, false)
	case entWrite:
		kv, ok := s.kv[e.Key]
		ok = ok && kv.CreateRev == e.N
		s.recordWrite(ctx, e, ok)
		if !ok {
			s.reply(ctx, e, Msg{Op: etcdTxnResp, Value: "write", Token: s.rev})
			return
		}
		s.rev++
		st, had := s.kv[EtcdStorageKey]
		if !had {
			st.CreateRev = s.rev
		}
		st.ModRev, st.Client = s.rev, e.Client
		s.kv[EtcdStorageKey] = st
		s.event(ctx, etcdEventPut, EtcdStorageKey)
		s.reply(ctx, e, Msg{Op: etcdTxnResp, Value: "write", N: 1, Token: s.rev})
	case entRevoke:
		l, ok := s.leases[e.Lease]
		if !ok {
			s.reply(ctx, e, Msg{Op: etcdError, Value: errLeaseNotFound})
			return
		}
		if len(l.Keys) > 0 {
			s.rev++
			for _, k := range l.Keys {
				s.deleteKey(ctx, k)
			}
		}
		delete(s.leases, e.Lease)
		why, how := "revoked by its session", "revoked"
		if e.N == 1 {
			why, how = "expired by the leader's clock", "expired"
		}
		if s.isLeader() {
			lease := fmt.Sprintf("%x", e.Lease)
			note := fmt.Sprintf("lease %x %s: no key attached", e.Lease, why)
			words := say("note.etcd."+how+"NoKey", "lease", lease)
			if len(l.Keys) > 0 {
				note = fmt.Sprintf("lease %x %s: %s deleted at revision %d", e.Lease, why, strings.Join(l.Keys, ", "), s.rev)
				words = say("note.etcd."+how+"Keys", "lease", lease, "keys", strings.Join(l.Keys, ", "), "rev", fmt.Sprint(s.rev))
			}
			s.trace(ctx, "lease", entRevoke, note, words)
		}
		var keep []etcdRenewWait
		for _, w := range s.renewWait {
			if w.Lease == e.Lease && !w.Promote {
				s.respondRenew(ctx, w.From, w.Req, w.Lease, 0, "")
				continue
			}
			keep = append(keep, w)
		}
		s.renewWait = keep
		s.reply(ctx, e, Msg{Op: etcdRevokeResp, Token: e.Lease})
		s.recordOwner(ctx, e.N == 1)
	}
}

// recordWrite tells the checker the outcome of a guarded write at the
// instant etcd applies it: with fencing the storage is etcd, so this is
// when the write takes effect, however late the client hears of it. The
// member that received the request records it, once; a member that lost
// its data and re-applies its old entries does not.
func (s *EtcdServer) recordWrite(ctx Ctx, e etcdEntry, accepted bool) {
	if e.Origin != s.self || s.replay || e.Req <= s.wipedReq || e.Client < 0 {
		return
	}
	ctx.Sim().Check.guardedWrite(ctx.Now(), ctx.ID(), e.Client, e.N, accepted)
}

func insertSorted(xs []string, x string) []string {
	i := sort.SearchStrings(xs, x)
	if i < len(xs) && xs[i] == x {
		return xs
	}
	xs = append(xs, "")
	copy(xs[i+1:], xs[i:])
	xs[i] = x
	return xs
}

// deleteKey removes a key at the current revision and detaches its lease.
func (s *EtcdServer) deleteKey(ctx Ctx, key string) {
	kv := s.kv[key]
	delete(s.kv, key)
	if l, ok := s.leases[kv.Lease]; ok {
		i := sort.SearchStrings(l.Keys, key)
		if i < len(l.Keys) && l.Keys[i] == key {
			l.Keys = append(l.Keys[:i:i], l.Keys[i+1:]...)
			s.leases[kv.Lease] = l
		}
	}
	s.event(ctx, etcdEventDelete, key)
}

// event records a change in the history and notifies the watchers.
func (s *EtcdServer) event(ctx Ctx, typ, key string) {
	ev := etcdEvent{Rev: s.rev, Type: typ, Key: key}
	s.history.Append(ev)
	for i := range s.watchers {
		if s.watchers[i].matches(key) && ev.Rev >= s.watchers[i].Start {
			s.deliver(ctx, &s.watchers[i], ev)
		}
	}
}

// deliver sends a watch event; while a partition cuts the link the event
// waits in the stream, as TCP keeps unacknowledged data, and is flushed
// when the link is back.
func (s *EtcdServer) deliver(ctx Ctx, w *etcdWatcher, ev etcdEvent) {
	if len(w.Queue) > 0 || ctx.Sim().Cut(s.self, w.Client) {
		w.Queue = append(w.Queue, ev)
		return
	}
	ctx.Send(w.Client, Msg{Op: ev.Type, Seq: w.ID, Key: ev.Key, Token: ev.Rev})
}

func (s *EtcdServer) flushWatchers(ctx Ctx) {
	for i := range s.watchers {
		w := &s.watchers[i]
		if len(w.Queue) == 0 || ctx.Sim().Cut(s.self, w.Client) {
			continue
		}
		for _, ev := range w.Queue {
			ctx.Send(w.Client, Msg{Op: ev.Type, Seq: w.ID, Key: ev.Key, Token: ev.Rev})
		}
		w.Queue = nil
	}
}

// firstCreate is Get(prefix, WithFirstCreate()): the owner of the lock.
func (s *EtcdServer) firstCreate() (string, etcdKV, bool) {
	var best string
	var bkv etcdKV
	for k, kv := range s.kv {
		if strings.HasPrefix(k, EtcdPrefix) && (best == "" || kv.CreateRev < bkv.CreateRev) {
			best, bkv = k, kv
		}
	}
	return best, bkv, best != ""
}

// lastCreateUpTo is Get(prefix, WithLastCreate(), WithMaxCreateRev(max)):
// the latest key created before the waiter's own.
func (s *EtcdServer) lastCreateUpTo(maxRev int64) (string, etcdKV, bool) {
	var best string
	var bkv etcdKV
	for k, kv := range s.kv {
		if strings.HasPrefix(k, EtcdPrefix) && kv.CreateRev <= maxRev && (best == "" || kv.CreateRev > bkv.CreateRev) {
			best, bkv = k, kv
		}
	}
	return best, bkv, best != ""
}

// recordOwner tells the checker who owns the lock as the promoted leader
// sees it: the client whose key has the lowest create revision.
func (s *EtcdServer) recordOwner(ctx Ctx, expired bool) {
	if !s.isLeader() || !s.primary || s.replay {
		return
	}
	key, kv, ok := s.firstCreate()
	if key == s.ownedKey {
		return
	}
	if s.ownedKey != "" {
		ctx.Disown(EtcdPrefix, expired)
	}
	if ok {
		ctx.Own(EtcdPrefix, kv.Client)
	}
	s.ownedKey = key
}

// ---------------------------------------------------------------------------
// The lessor.

// promote makes this member's lessor primary once it has applied its first
// entry as leader: every lease is refreshed to election timeout + TTL,
// since the new leader cannot know when the old one last renewed it.
func (s *EtcdServer) promote(ctx Ctx) {
	s.primary = true
	now := ctx.Mono()
	for _, id := range s.leaseIDs() {
		l := s.leases[id]
		l.Expiry, l.RetryAt = now+EtcdElectionTimeout+l.TTL, 0
		s.leases[id] = l
	}
	if len(s.leases) > 0 {
		s.trace(ctx, "lease", "promote", fmt.Sprintf("lessor promoted: %d lease(s) extended to %v + TTL", len(s.leases), EtcdElectionTimeout),
			say("note.etcd.promoted", "n", strconv.Itoa(len(s.leases)), "timeout", EtcdElectionTimeout.String()))
	}
	var keep []etcdRenewWait
	waits := s.renewWait
	s.renewWait = nil
	for _, w := range waits {
		if w.Promote {
			s.leaderRenew(ctx, w.From, w.Req, w.Lease)
		} else {
			keep = append(keep, w)
		}
	}
	s.renewWait = append(keep, s.renewWait...)
	s.recordOwner(ctx, false)
}

// demote ends primacy: leases stop expiring here, held renewals fail.
func (s *EtcdServer) demote(ctx Ctx) {
	s.primary = false
	waits := s.renewWait
	s.renewWait = nil
	for _, w := range waits {
		s.respondRenew(ctx, w.From, w.Req, w.Lease, 0, errNotPrimary)
	}
	if s.ownedKey != "" {
		ctx.Disown(EtcdPrefix, false)
		s.ownedKey = ""
	}
}

func (s *EtcdServer) leaseIDs() []int64 {
	ids := make([]int64, 0, len(s.leases))
	for id := range s.leases {
		ids = append(ids, id)
	}
	slices.SortFunc(ids, func(a, b int64) int {
		return cmp.Or(cmp.Compare(s.leases[a].Expiry, s.leases[b].Expiry), cmp.Compare(a, b))
	})
	return ids
}

// revokeExpired is the lessor's runLoop: the leader proposes a revoke for
// every lease past its expiry by its own clock.
func (s *EtcdServer) revokeExpired(ctx Ctx) {
	if !s.isLeader() || !s.primary {
		return
	}
	now := ctx.Mono()
	for _, id := range s.leaseIDs() {
		l := s.leases[id]
		if now < l.Expiry || now < l.RetryAt {
			continue
		}
		l.RetryAt = now + expiredLeaseRetry
		s.leases[id] = l
		s.trace(ctx, "lease", "expire", fmt.Sprintf("lease %x expired by the leader's clock: proposing its revoke", id),
			say("note.etcd.leaseExpired", "lease", fmt.Sprintf("%x", id)))
		s.appendEntry(ctx, etcdEntry{Type: entRevoke, Lease: id, N: 1, Client: l.Client, Origin: s.self})
	}
}

// leaderRenew is Lessor.Renew on the leader; from is the member that got
// the keepalive.
// forwardRenew renews a lease on this member, the leader, or asks the
// leader to ("renewals don't go through raft; forward to leader manually").
func (s *EtcdServer) forwardRenew(ctx Ctx, req, id int64) {
	if s.isLeader() {
		s.leaderRenew(ctx, s.self, req, id)
		return
	}
	ctx.Send(s.lead, Msg{Op: leaseRenew, Seq: req, Token: id})
}

func (s *EtcdServer) leaderRenew(ctx Ctx, from NodeID, req, id int64) {
	if !s.isLeader() {
		s.respondRenew(ctx, from, req, id, 0, errNotPrimary)
		return
	}
	if !s.primary {
		s.renewWait = append(s.renewWait, etcdRenewWait{From: from, Req: req, Lease: id, Promote: true})
		return
	}
	l, ok := s.leases[id]
	if !ok {
		s.respondRenew(ctx, from, req, id, 0, "")
		return
	}
	now := ctx.Mono()
	if now >= l.Expiry {
		// An expired lease is being revoked: the renewal waits for it.
		s.renewWait = append(s.renewWait, etcdRenewWait{From: from, Req: req, Lease: id})
		return
	}
	l.Expiry = now + l.TTL
	s.leases[id] = l
	s.respondRenew(ctx, from, req, id, l.TTL, "")
}

func (s *EtcdServer) respondRenew(ctx Ctx, from NodeID, req, id int64, ttl time.Duration, err string) {
	if from == s.self {
		s.answerKeepAlive(ctx, req, id, ttl, err)
		return
	}
	ctx.Send(from, Msg{Op: leaseRenewResp, Seq: req, Token: id, TTL: ttl, Value: err})
}

func (s *EtcdServer) answerKeepAlive(ctx Ctx, req, id int64, ttl time.Duration, err string) {
	p, ok := s.pending[req]
	if !ok {
		return
	}
	s.forget(ctx, req)
	if err != "" {
		ctx.Send(p.Client, Msg{Op: etcdKeepAliveErr, Token: id, Value: err})
		return
	}
	ctx.Send(p.Client, Msg{Op: etcdKeepAliveOK, Token: id, TTL: ttl})
}

// ---------------------------------------------------------------------------
// Serving clients.

// Receive implements Process.
func (s *EtcdServer) Receive(ctx Ctx, from NodeID, m *Msg) {
	if s.memberIndex(from) >= 0 {
		s.step(ctx, from, m)
		return
	}
	s.serve(ctx, from, m)
}

func (s *EtcdServer) serve(ctx Ctx, from NodeID, m *Msg) {
	if m.Op == etcdRST {
		s.dropClient(ctx, from)
		return
	}
	if i := sort.Search(len(s.conns), func(i int) bool { return s.conns[i] >= from }); i == len(s.conns) || s.conns[i] != from {
		s.conns = append(s.conns, None)
		copy(s.conns[i+1:], s.conns[i:])
		s.conns[i] = from
	}
	switch m.Op {
	case etcdGrant:
		id := s.nextID()
		s.submit(ctx, from, m.Seq, etcdEntry{Type: entGrant, Lease: id, N: int64(m.TTL / time.Second), Client: from})
	case etcdTxn:
		if m.Value == "write" {
			s.submit(ctx, from, m.Seq, etcdEntry{Type: entWrite, Key: m.Key, N: m.Token, Client: from})
		} else {
			s.submit(ctx, from, m.Seq, etcdEntry{Type: entLock, Key: m.Key, Lease: m.Token, Client: from})
		}
	case etcdDelete:
		s.submit(ctx, from, m.Seq, etcdEntry{Type: entDelete, Key: m.Key, Client: from})
	case etcdRevoke:
		s.submit(ctx, from, m.Seq, etcdEntry{Type: entRevoke, Lease: m.Token, Client: from})
	case etcdRange:
		req := s.nextID()
		s.pending[req] = etcdPending{Client: from, Seq: m.Seq, Op: etcdRange, Key: m.Key, Max: m.Token, Last: m.Value == "last",
			Timeout: ctx.After(etcdReqTimeout, Timer{Kind: "req", Seq: req})}
		if s.lead == None {
			// A linearizable read waits for its ReadIndex, sent again every
			// 500 ms, until a leader change ends it with "leader changed"
			// (newLeader) or the request times out (release-3.4
			// etcdserver/v3_server.go, requestCurrentIndex); raft drops a
			// ReadIndex while there is no leader.
			return
		}
		if s.isLeader() {
			s.leaderRead(ctx, s.self, req)
		} else {
			ctx.Send(s.lead, Msg{Op: raftReadIndex, Seq: req})
		}
	case etcdKeepAlive:
		// The lease stream requires a leader (clientv3 lease.go:
		// WithRequireLeader): newStreamInterceptor refuses to open one on a
		// member without a leader (m.N 1: the stream's first keepalive).
		// On a stream already open, LeaseRenew (etcdserver/v3_server.go)
		// waits for a leader (waitLeader: a look every election timeout)
		// within the request timeout, then forwards the renewal.
		if s.lead == None && m.N == 1 {
			ctx.Send(from, Msg{Op: etcdKeepAliveErr, Token: m.Token, Value: errNoLeader})
			return
		}
		s.addKeepAliveStream(from)
		req := s.nextID()
		s.pending[req] = etcdPending{Client: from, Seq: m.Seq, Op: etcdKeepAlive, Lease: m.Token,
			Timeout: ctx.After(etcdReqTimeout, Timer{Kind: "req", Seq: req})}
		if s.lead == None {
			p := s.pending[req]
			p.WaitLeader = true
			s.pending[req] = p
			ctx.After(EtcdElectionTimeout, Timer{Kind: "waitlead", Seq: req})
			return
		}
		s.forwardRenew(ctx, req, m.Token)
	case etcdWatch:
		w := etcdWatcher{Client: from, ID: m.Seq, Key: m.Key, Prefix: m.N == 1, Start: m.Token}
		ctx.Send(from, Msg{Op: etcdWatchCreated, Seq: m.Seq})
		// The history is in revision order: start at the watch's revision.
		first := sort.Search(s.history.Len(), func(i int) bool { return s.history.At(i).Rev >= w.Start })
		s.history.Range(first, func(_ int, ev etcdEvent) bool {
			if w.matches(ev.Key) {
				s.deliver(ctx, &w, ev)
			}
			return true
		})
		s.watchers = append(s.watchers, w)
	case etcdWatchCancel:
		s.dropWatch(from, m.Seq)
	}
}

// forget drops a request the member has answered or given up on, with
// its timeout: left queued, the timeout would fire for nothing.
func (s *EtcdServer) forget(ctx Ctx, req int64) {
	ctx.Cancel(s.pending[req].Timeout)
	delete(s.pending, req)
}

// submit registers a client request and proposes it.
// submit proposes a client's write and waits for it to apply, within the
// request timeout. On a member without a leader the write waits for one:
// raft's node.run takes no proposal while there is no leader (etcd-io/etcd
// release-3.4 raft/node.go: propc = nil), so Propose blocks until a leader
// is known or the request times out ("request timed out", which clientv3
// resends for a repeatable call such as LeaseGrant). Measured on a real 3.4
// member in TestEtcdGrantOnALeaderlessMember.
func (s *EtcdServer) submit(ctx Ctx, client NodeID, seq int64, e etcdEntry) {
	req := s.nextID()
	e.Origin, e.Req = s.self, req
	p := etcdPending{Client: client, Seq: seq, Op: e.Type,
		Timeout: ctx.After(etcdReqTimeout, Timer{Kind: "req", Seq: req})}
	if s.lead == None {
		p.Held, p.Proposal = true, e
		s.pending[req] = p
		return
	}
	s.pending[req] = p
	s.propose(ctx, e)
}

func (s *EtcdServer) dropWatch(client NodeID, id int64) {
	keep := s.watchers[:0]
	for _, w := range s.watchers {
		if w.Client != client || w.ID != id {
			keep = append(keep, w)
		}
	}
	s.watchers = keep
}

func (s *EtcdServer) dropClient(ctx Ctx, client NodeID) {
	keep := s.watchers[:0]
	for _, w := range s.watchers {
		if w.Client != client {
			keep = append(keep, w)
		}
	}
	s.watchers = keep
	for _, id := range s.pendingIDs() {
		if s.pending[id].Client == client {
			s.forget(ctx, id)
		}
	}
	for i, c := range s.conns {
		if c == client {
			s.conns = append(s.conns[:i], s.conns[i+1:]...)
			break
		}
	}
	for i, c := range s.kaStreams {
		if c == client {
			s.kaStreams = append(s.kaStreams[:i], s.kaStreams[i+1:]...)
			break
		}
	}
}

// Fire implements Process.
func (s *EtcdServer) Fire(ctx Ctx, t Timer) {
	switch t.Kind {
	case "tick":
		s.tick(ctx)
	case "lessor":
		s.revokeExpired(ctx)
		ctx.After(lessorTick, Timer{Kind: "lessor"})
	case "waitlead":
		p, ok := s.pending[t.Seq]
		if !ok || !p.WaitLeader {
			return
		}
		if s.lead == None {
			ctx.After(EtcdElectionTimeout, Timer{Kind: "waitlead", Seq: t.Seq})
			return
		}
		p.WaitLeader = false
		s.pending[t.Seq] = p
		s.forwardRenew(ctx, t.Seq, p.Lease)
	case "req":
		p, ok := s.pending[t.Seq]
		if !ok {
			return
		}
		delete(s.pending, t.Seq)
		if p.Op == etcdKeepAlive {
			why := errTimeout
			if p.WaitLeader {
				why = errNoLeader // waitLeader gave up: ErrNoLeader
			}
			ctx.Send(p.Client, Msg{Op: etcdKeepAliveErr, Value: why})
			return
		}
		ctx.Send(p.Client, Msg{Op: etcdError, Seq: p.Seq, Value: errTimeout})
	}
}

func (s *EtcdServer) detail() (string, Words) {
	d := fmt.Sprintf("term %d · index %d · commit %d · rev %d", s.term, s.lastIndex(), s.commit, s.rev)
	key := "detail.etcd.server"
	if s.pre {
		d += " · pre-vote"
		key = "detail.etcd.serverPreVote"
	}
	return d, say(key, "term", fmt.Sprint(s.term), "index", fmt.Sprint(s.lastIndex()),
		"commit", fmt.Sprint(s.commit), "rev", fmt.Sprint(s.rev))
}

// ---------------------------------------------------------------------------
// The client: a clientv3 with a concurrency.Session and Mutex.

// Client phases: which unary call is outstanding.
const (
	phIdle    = ""
	phGrant   = "grant"
	phAcquire = "acquire" // tryAcquire's Txn
	phQuery   = "query"   // waitDeletes' Get(prefix, last create, max create rev)
	phWatch   = "watch"   // waiting for a delete event
	phCheck   = "check"   // Get(myKey) after waiting
	phAbandon = "abandon" // Unlock after a failed wait
	phWork    = "work"
	phWrite   = "write" // the IsOwner-guarded Txn
	phUnlock  = "unlock"
	phClose   = "close" // Session.Close: revoke
)

// Session states as the cluster view shows them.
const (
	sessNone     = "none"
	sessGranting = "granting"
	sessAlive    = "alive"
	sessExpired  = "expired" // Session.Done() closed
)

type etcdClient struct {
	Loop
	index   int
	servers []NodeID
	ep      int // endpoint of unary calls and watches
	kaEp    int // endpoint of the keepalive stream
	seq     int64
	pendSeq int64 // the outstanding unary call; 0 for none
	phase   string
	why     string // the error that ended a wait

	req       Msg           // the outstanding call, kept for retries
	reqEnd    time.Duration // its context deadline, monotonic
	retries   int
	resending bool // waiting out the retry backoff

	sess       string
	lease      int64
	leaseTTL   time.Duration
	nextKA     time.Duration // monotonic
	deadline   time.Duration // monotonic
	kaStream   bool
	kaOpening  bool          // the stream's first keepalive is still to go (it opens the stream)
	kaPhase    time.Duration // last tick of sendKeepAliveLoop
	dlPhase    time.Duration // last tick of deadlineLoop
	kaGen      int64
	dlGen      int64
	keepalives int // answers for the current lease

	myKey string
	myRev int64

	watchID     int64
	watchKey    string
	watchPrefix bool
	watchFrom   int64
	watching    bool
	watchAcked  bool
	requery     bool
}

func (c *etcdClient) Clone() Process {
	cp := *c
	cp.servers = append([]NodeID(nil), c.servers...)
	return &cp
}

func (c *etcdClient) Start(ctx Ctx) {
	if c.servers == nil {
		for i := 0; i < ctx.Scenario().Nodes; i++ {
			c.servers = append(c.servers, ctx.Lookup(fmt.Sprintf("etcd-%d", i+1)))
		}
		c.ep = c.index % len(c.servers)
		c.kaEp = c.ep
	}
	if c.sess == "" {
		c.sess = sessNone
	}
	c.begin(ctx)
}

// Crash implements Process: the process and its sockets are gone.
func (c *etcdClient) Crash(ctx Ctx) {
	if len(c.servers) > 0 {
		ctx.Send(c.servers[c.ep], Msg{Op: etcdRST})
		if c.kaStream && c.kaEp != c.ep {
			ctx.Send(c.servers[c.kaEp], Msg{Op: etcdRST})
		}
	}
	*c = etcdClient{index: c.index, servers: c.servers, ep: c.ep, kaEp: c.ep, sess: sessNone}
}

func (c *etcdClient) Restart(ctx Ctx, persist bool) { c.Start(ctx) }

func (c *etcdClient) server() NodeID { return c.servers[c.ep] }

func (c *etcdClient) switchEndpoint() { c.ep = (c.ep + 1) % len(c.servers) }

func (c *etcdClient) call(ctx Ctx, m Msg, phase string) {
	c.req, c.phase, c.retries, c.resending = m, phase, 0, false
	c.reqEnd = ctx.Mono() + etcdClientTimeout
	c.send(ctx)
}

func (c *etcdClient) send(ctx Ctx) {
	c.seq++
	m := c.req
	m.Seq = c.seq
	c.pendSeq = c.seq
	ctx.Send(c.server(), m)
	ctx.After(max(c.reqEnd-ctx.Mono(), 0), Timer{Kind: "rpc", Seq: c.seq})
}

// busy reports whether a unary call is outstanding or about to be resent.
func (c *etcdClient) busy() bool { return c.pendSeq != 0 || c.resending }

// Retry policy of clientv3's interceptor: a repeatable call (Range,
// LeaseGrant, LeaseRevoke) failing with an Unavailable error is resent,
// after 25 ms ± 10 %, up to 100 times within its deadline; Txn and Delete
// are not, since the first attempt may have been applied (etcd-io/etcd
// client/v3 retry.go: retryLeaseClient.LeaseGrant uses
// withRetryPolicy(repeatable), isSafeRetryImmutableRPC retries
// codes.Unavailable; retry_interceptor.go; options.go:
// defaultBackoffWaitBetween 25 ms, defaultBackoffJitterFraction 0.10,
// defaultUnaryMaxRetries 100). A resent Grant whose first attempt was
// applied leaves a lease nobody keeps alive; it expires after its TTL.
const (
	retryBackoff    = 25 * time.Millisecond
	retryMaxRetries = 100
)

func (c *etcdClient) repeatable(why string) bool {
	return (c.req.Op == etcdRange || c.req.Op == etcdGrant || c.req.Op == etcdRevoke) && unavailable(why) && c.retries < retryMaxRetries
}

// unavailable reports whether an error has gRPC code Unavailable, the only
// one the interceptor retries ("requested lease not found" is NotFound).
func unavailable(why string) bool {
	switch why {
	case errNoLeader, errTimeout, errLeaderChanged, errNotPrimary, errReset:
		return true
	}
	return false
}

func (c *etcdClient) begin(ctx Ctx) {
	if !c.Begin(ctx) {
		return
	}
	c.acquire(ctx)
}

// acquire starts Mutex.Lock, with a new session if the last one is gone.
func (c *etcdClient) acquire(ctx Ctx) {
	if c.sess != sessAlive {
		c.sess = sessGranting
		c.call(ctx, Msg{Op: etcdGrant, TTL: leaseSeconds(ctx.Scenario().TTL.D())}, phGrant)
		return
	}
	c.call(ctx, Msg{Op: etcdTxn, Value: "lock", Key: c.myKey, Token: c.lease}, phAcquire)
}

// startKeepAlive is clientv3's KeepAlive: the first keepalive goes out at
// the next tick of the send loop, and the deadline is 5 s until answered.
func (c *etcdClient) startKeepAlive(ctx Ctx) {
	now := ctx.Mono()
	c.nextKA, c.deadline = now, now+firstKeepAliveTimeout
	c.dlGen++
	if !c.kaStream {
		c.kaStream, c.kaOpening = true, true
		c.kaEp = c.ep
		c.kaPhase, c.dlPhase = now, now
		c.kaGen++
		c.sendKeepAlive(ctx)
	} else {
		c.kaGen++
		c.scheduleKA(ctx, now)
	}
	c.scheduleDeadline(ctx, now)
}

func (c *etcdClient) sendKeepAlive(ctx Ctx) {
	m := Msg{Op: etcdKeepAlive, Token: c.lease}
	if c.kaOpening {
		m.N, c.kaOpening = 1, false
	}
	ctx.Send(c.servers[c.kaEp], m)
	ctx.After(keepAliveTick, Timer{Kind: "ka", Seq: c.kaGen})
}

// scheduleKA wakes the send loop at its first tick after the next
// keepalive is due (it sends when nextKeepAlive is before now).
func (c *etcdClient) scheduleKA(ctx Ctx, now time.Duration) {
	at := c.kaPhase + keepAliveTick
	if c.nextKA >= at {
		at += ((c.nextKA-at)/keepAliveTick + 1) * keepAliveTick
	}
	ctx.After(at-now, Timer{Kind: "ka", Seq: c.kaGen})
}

func (c *etcdClient) scheduleDeadline(ctx Ctx, now time.Duration) {
	at := c.dlPhase + deadlineTick
	if c.deadline >= at {
		at += ((c.deadline-at)/deadlineTick + 1) * deadlineTick
	}
	ctx.After(at-now, Timer{Kind: "deadline", Seq: c.dlGen})
}

func (c *etcdClient) kaTick(ctx Ctx) {
	now := ctx.Mono()
	c.kaPhase = now
	if c.sess != sessAlive || !c.kaStream {
		return
	}
	if c.nextKA < now {
		c.sendKeepAlive(ctx)
		return
	}
	c.scheduleKA(ctx, now)
}

func (c *etcdClient) deadlineTickFired(ctx Ctx) {
	now := ctx.Mono()
	c.dlPhase = now
	if c.sess != sessAlive {
		return
	}
	if c.deadline < now {
		c.sessionDone(ctx, "no keepalive answer within the lease TTL", say("note.etcd.noKeepAlive"))
		return
	}
	c.scheduleDeadline(ctx, now)
}

// sessionDone closes Session.Done(). A holder does not look at it while it
// works (nor did Jepsen's client): only the next Lock needs a new session.
func (c *etcdClient) sessionDone(ctx Ctx, why string, words Words) {
	c.sess = sessExpired
	c.dlGen++
	ctx.TraceSaid("session", "Done", fmt.Sprintf("lease %x: %s", c.lease, why),
		say("note.etcd.sessionDone", "lease", fmt.Sprintf("%x", c.lease)).part("why", words))
}

func (c *etcdClient) keepAliveBroken(ctx Ctx, why string) {
	if !c.kaStream {
		return
	}
	c.kaStream = false
	c.kaGen++
	ctx.TraceSaid("session", etcdKeepAlive, "keepalive stream broken: "+why+"; reopening in "+keepAliveTick.String(),
		say("note.etcd.streamBroken", "err", why, "in", keepAliveTick.String()))
	ctx.After(keepAliveTick, Timer{Kind: "kareopen", Seq: c.kaGen})
}

func (c *etcdClient) Receive(ctx Ctx, from NodeID, m *Msg) {
	if handled, written := c.StorageReply(ctx, from, m); handled {
		if written {
			c.unlock(ctx)
		}
		return
	}
	switch m.Op {
	case etcdRST:
		if c.kaStream && from == c.servers[c.kaEp] {
			c.kaEp = (c.kaEp + 1) % len(c.servers)
			c.keepAliveBroken(ctx, errReset)
		}
		if from == c.server() {
			if c.pendSeq != 0 {
				c.pendSeq = 0
				c.failed(ctx, errReset)
			} else if c.watching && !c.resending {
				c.switchEndpoint()
				c.openWatch(ctx)
			}
		}
		return
	case etcdKeepAliveOK:
		if c.sess != sessAlive || m.Token != c.lease {
			return
		}
		if m.TTL <= 0 {
			c.sessionDone(ctx, "keepalive answered TTL 0: lease not found", say("note.etcd.ttlZero"))
			return
		}
		now := ctx.Mono()
		c.keepalives++
		c.leaseTTL = m.TTL
		c.nextKA, c.deadline = now+m.TTL/3, now+m.TTL
		return
	case etcdKeepAliveErr:
		if from == c.servers[c.kaEp] {
			c.kaEp = (c.kaEp + 1) % len(c.servers)
			c.keepAliveBroken(ctx, m.Value)
		}
		return
	case etcdWatchCreated:
		if m.Seq == c.watchID {
			c.watchAcked = true
		}
		return
	case etcdEventPut, etcdEventDelete:
		c.watchEvent(ctx, m)
		return
	}
	if c.pendSeq == 0 || m.Seq != c.pendSeq {
		return // a late answer to a call already given up
	}
	c.pendSeq = 0
	if m.Op == etcdError {
		c.failed(ctx, m.Value)
		return
	}
	switch c.phase {
	case phGrant:
		c.sess, c.lease, c.leaseTTL, c.keepalives = sessAlive, m.Token, m.TTL, 0
		c.myKey = EtcdPrefix + strconv.FormatInt(m.Token, 16)
		ctx.TraceSaid("session", etcdGrant, fmt.Sprintf("lease %x granted, TTL %v", m.Token, m.TTL),
			say("note.etcd.leaseGranted", "lease", fmt.Sprintf("%x", m.Token), "ttl", m.TTL.String()))
		c.startKeepAlive(ctx)
		if c.State == StateWaiting {
			c.acquire(ctx)
		}
	case phAcquire:
		c.myRev = m.Token
		if m.N == c.myRev || m.Key == "" {
			c.acquired(ctx)
			return
		}
		ctx.TraceSaid("lock", etcdTxn, fmt.Sprintf("%s created at revision %d; owner %s has %d", c.myKey, c.myRev, m.Key, m.N),
			say("note.etcd.created", "key", c.myKey, "rev", fmt.Sprint(c.myRev), "owner", m.Key, "ownerRev", fmt.Sprint(m.N)))
		c.query(ctx)
	case phQuery:
		if c.State != StateWaiting {
			return
		}
		if m.Key == "" {
			c.cancelWatch(ctx)
			c.call(ctx, Msg{Op: etcdRange, Value: "key", Key: c.myKey}, phCheck)
			return
		}
		if ctx.Scenario().Herd {
			if !c.watching {
				c.watch(ctx, EtcdPrefix, true, m.N)
			}
			c.phase = phWatch
			if c.requery {
				c.requery = false
				c.query(ctx)
			}
			return
		}
		c.phase = phWatch
		c.watch(ctx, m.Key, false, m.N)
	case phCheck:
		if m.Token == 0 {
			ctx.TraceSaid("lock", etcdRange, errSessionExpired+": "+c.myKey+" is gone", say("note.etcd.keyGone", "err", errSessionExpired, "key", c.myKey))
			if c.sess == sessAlive {
				c.sess = sessExpired
				c.dlGen++
			}
			c.retry(ctx, errSessionExpired)
			return
		}
		c.acquired(ctx)
	case phAbandon:
		c.retry(ctx, c.why)
	case phWrite:
		// etcd recorded the write when it applied the Txn (applyEntry).
		c.WriteAnswered()
		if m.N != 1 {
			ctx.TraceSaid("write", etcdTxn, fmt.Sprintf("guarded write refused: CreateRevision(%s) != %d", c.myKey, c.myRev),
				say("note.etcd.writeRefused", "key", c.myKey, "rev", fmt.Sprint(c.myRev)))
		}
		c.unlock(ctx)
	case phUnlock:
		c.afterUnlock(ctx)
	case phClose:
		c.phase = phIdle
	}
}

// query is one pass of waitDeletes: the latest key created before mine.
func (c *etcdClient) query(ctx Ctx) {
	c.call(ctx, Msg{Op: etcdRange, Value: "last", Key: EtcdPrefix, Token: c.myRev - 1}, phQuery)
}

func (c *etcdClient) watch(ctx Ctx, key string, prefix bool, from int64) {
	c.watchKey, c.watchPrefix, c.watchFrom = key, prefix, from
	c.openWatch(ctx)
	what, words := "the delete of "+key, say("note.etcd.waitDelete", "key", key, "rev", fmt.Sprint(from))
	if prefix {
		what, words = "any change under "+key, say("note.etcd.waitChange", "key", key, "rev", fmt.Sprint(from))
	}
	ctx.TraceSaid("lock", etcdWatch, fmt.Sprintf("waiting for %s from revision %d", what, from), words)
}

func (c *etcdClient) openWatch(ctx Ctx) {
	c.watchID++
	c.watching, c.watchAcked = true, false
	n := int64(0)
	if c.watchPrefix {
		n = 1
	}
	ctx.Send(c.server(), Msg{Op: etcdWatch, Seq: c.watchID, Key: c.watchKey, N: n, Token: c.watchFrom})
	ctx.After(etcdClientTimeout, Timer{Kind: "wtimeout", Seq: c.watchID})
}

func (c *etcdClient) cancelWatch(ctx Ctx) {
	if !c.watching {
		return
	}
	c.watching = false
	ctx.Send(c.server(), Msg{Op: etcdWatchCancel, Seq: c.watchID})
}

func (c *etcdClient) watchEvent(ctx Ctx, m *Msg) {
	if !c.watching || m.Seq != c.watchID || c.State != StateWaiting {
		return
	}
	ctx.Notified()
	c.watchFrom = m.Token + 1
	if m.Op != etcdEventDelete {
		return
	}
	if ctx.Scenario().Herd {
		if c.phase == phQuery && c.busy() {
			c.requery = true
			return
		}
		c.query(ctx)
		return
	}
	c.cancelWatch(ctx)
	c.query(ctx)
}

func (c *etcdClient) acquired(ctx Ctx) {
	c.cancelWatch(ctx)
	c.phase = phWork
	ctx.TraceSaid("lock", "acquired", fmt.Sprintf("%s is the oldest key: create revision %d", c.myKey, c.myRev),
		say("note.etcd.oldest", "key", c.myKey, "rev", fmt.Sprint(c.myRev)))
	c.Grant(ctx, c.myRev, 0)
}

// failed handles an error or a timeout of the outstanding call: the
// client moves to the next endpoint and the Mutex call returns the error.
func (c *etcdClient) failed(ctx Ctx, why string) {
	ctx.TraceSaid("rpc", c.phase, why, asIs(why))
	c.switchEndpoint()
	if c.repeatable(why) {
		c.retries++
		c.resending = true
		jitter := 1 + 0.1*(2*ctx.Rand().Float64()-1)
		ctx.After(time.Duration(float64(retryBackoff)*jitter), Timer{Kind: "resend", Seq: c.seq})
		return
	}
	switch c.phase {
	case phGrant:
		c.sess = sessNone
		c.retry(ctx, why)
	case phAcquire:
		if why == errLeaseNotFound && c.sess == sessAlive {
			c.sessionDone(ctx, "the lease is gone", say("note.etcd.leaseGone"))
		}
		c.retry(ctx, why)
	case phQuery, phWatch, phCheck:
		// Lock: "release lock key if wait failed".
		c.cancelWatch(ctx)
		c.requery = false
		c.why = why
		c.call(ctx, Msg{Op: etcdDelete, Key: c.myKey}, phAbandon)
	case phAbandon:
		c.retry(ctx, c.why)
	case phWrite:
		ctx.After(RetryDelay(ctx), Timer{Kind: "rewrite"})
	case phUnlock:
		ctx.After(RetryDelay(ctx), Timer{Kind: "reunlock"})
	case phClose:
		c.phase = phIdle
	}
}

func (c *etcdClient) retry(ctx Ctx, why string) {
	c.phase = phIdle
	if c.Failed(ctx, why, asIs(why)) {
		ctx.After(RetryDelay(ctx), Timer{Kind: timerRetry})
	} else if c.State == StateDone {
		c.closeSession(ctx)
	}
}

func (c *etcdClient) Fire(ctx Ctx, t Timer) {
	switch c.Loop.Fire(ctx, t) {
	case "work":
		c.finish(ctx)
		return
	case "write":
		c.write(ctx)
		return
	case "begin":
		c.begin(ctx)
		return
	}
	switch t.Kind {
	case timerRetry:
		if c.State == StateWaiting && !c.busy() {
			c.acquire(ctx)
		}
	case "rpc":
		if c.pendSeq != 0 && t.Seq == c.pendSeq {
			c.pendSeq = 0
			c.failed(ctx, errDeadline)
		}
	case "resend":
		if !c.resending || t.Seq != c.seq {
			return
		}
		c.resending = false
		if ctx.Mono() >= c.reqEnd {
			c.failed(ctx, errDeadline)
			return
		}
		c.send(ctx)
	case "wtimeout":
		if c.watching && !c.watchAcked && t.Seq == c.watchID {
			c.switchEndpoint()
			c.openWatch(ctx)
		}
	case "ka":
		if t.Seq == c.kaGen {
			c.kaTick(ctx)
		}
	case "deadline":
		if t.Seq == c.dlGen {
			c.deadlineTickFired(ctx)
		}
	case "kareopen":
		if t.Seq == c.kaGen && !c.kaStream {
			c.kaStream, c.kaOpening = true, true
			c.kaGen++
			now := ctx.Mono()
			c.kaPhase = now
			if c.sess == sessAlive && c.nextKA < now {
				c.sendKeepAlive(ctx)
			} else if c.sess == sessAlive {
				c.scheduleKA(ctx, now)
			}
		}
	case "rewrite":
		if c.State == StateHolding && !c.busy() {
			c.write(ctx)
		}
	case "reunlock":
		if !c.busy() && c.phase == phUnlock {
			c.call(ctx, Msg{Op: etcdDelete, Key: c.myKey}, phUnlock)
		}
	}
}

// finish ends the work: the write (to the storage node, or with fencing
// the IsOwner-guarded Txn, sent when the Loop says "write"), then Unlock
// once it is answered. Nothing is checked on the client: with fencing the
// check is the Txn's comparison, made by etcd when it applies the write.
func (c *etcdClient) finish(ctx Ctx) { c.Write(ctx, c.myRev) }

// write is the fenced write: Txn(If(mutex.IsOwner()).Then(Put(storage))).
func (c *etcdClient) write(ctx Ctx) {
	c.call(ctx, Msg{Op: etcdTxn, Value: "write", Key: c.myKey, Token: c.myRev}, phWrite)
}

func (c *etcdClient) unlock(ctx Ctx) {
	c.Release(ctx)
	c.call(ctx, Msg{Op: etcdDelete, Key: c.myKey}, phUnlock)
}

func (c *etcdClient) afterUnlock(ctx Ctx) {
	c.phase = phIdle
	c.Rest(ctx)
	if c.State == StateDone {
		c.closeSession(ctx)
	}
}

// closeSession is Session.Close: stop the keepalives and revoke the lease.
func (c *etcdClient) closeSession(ctx Ctx) {
	if c.sess == sessNone || c.lease == 0 {
		return
	}
	c.sess = sessNone
	c.dlGen++
	c.call(ctx, Msg{Op: etcdRevoke, Token: c.lease}, phClose)
}

func (c *etcdClient) session() string {
	if c.sess == "" {
		return sessNone
	}
	return c.sess
}

func (c *etcdClient) detail(s *Sim) (string, Words) {
	var parts []string
	key := "detail.etcd.client"
	words := say("", "n", fmt.Sprint(c.keepalives))
	if c.lease != 0 {
		parts = append(parts, fmt.Sprintf("lease %x ttl %v", c.lease, c.leaseTTL))
		key += "Lease"
		words.Args["lease"], words.Args["ttl"] = fmt.Sprintf("%x", c.lease), c.leaseTTL.String()
	}
	parts = append(parts, fmt.Sprintf("%d keepalives", c.keepalives))
	if len(c.servers) > 0 {
		parts = append(parts, "via "+s.Nodes[c.servers[c.ep]].Name)
		key += "Via"
		words.Args["server"] = s.Nodes[c.servers[c.ep]].Name
	}
	words.Key = key
	return strings.Join(parts, " · "), words
}

// ---------------------------------------------------------------------------
// The view.

func (etcdMode) View(s *Sim, snap *Snapshot) {
	v := &EtcdView{Prefix: EtcdPrefix, Fencing: s.Scenario.Fencing}
	var view *EtcdServer
	viewID := None
	for _, id := range s.Servers() {
		srv, ok := s.Nodes[id].Proc.(*EtcdServer)
		if !ok {
			continue
		}
		nv := &snap.Nodes[id]
		nv.Role = srv.role
		nv.Detail, nv.DetailWords = srv.detail()
		v.Members = append(v.Members, EtcdMember{Node: int(id), Name: s.Nodes[id].Name, Role: srv.role,
			Term: srv.term, LastIndex: srv.lastIndex(), Commit: srv.commit, Applied: srv.applied,
			Revision: srv.rev, Primary: srv.primary})
		if s.Nodes[id].Crashed {
			continue
		}
		better := view == nil ||
			(srv.isLeader() && (!view.isLeader() || srv.term > view.term)) ||
			(!srv.isLeader() && !view.isLeader() && srv.applied > view.applied)
		if better {
			view, viewID = srv, id
		}
	}
	for i := range s.Nodes {
		c, ok := s.Nodes[i].Proc.(*etcdClient)
		if !ok {
			continue
		}
		snap.Nodes[i].Session = c.session()
		snap.Nodes[i].Detail, snap.Nodes[i].DetailWords = c.detail(s)
		if c.watching && !s.Nodes[i].Crashed {
			v.Watches = append(v.Watches, ZWatch{Client: s.Nodes[i].Name, Path: c.watchKey})
		}
	}
	if view != nil {
		if view.isLeader() {
			v.Leader = s.Nodes[viewID].Name
		}
		v.Term, v.Revision = view.term, view.rev
		now := s.Nodes[viewID].Clock.Mono(s.now)
		left := func(l etcdLease) (time.Duration, bool) {
			if !view.primary {
				return l.TTL, true
			}
			return l.Expiry - now, false
		}
		for _, id := range view.leaseIDs() {
			l := view.leases[id]
			el := EtcdLease{ID: id, Client: nodeName(s, l.Client), TTL: l.TTL}
			el.Left, el.Frozen = left(l)
			el.Expired = !el.Frozen && el.Left <= 0
			v.Leases = append(v.Leases, el)
		}
		sort.Slice(v.Leases, func(a, b int) bool { return v.Leases[a].ID < v.Leases[b].ID })
		for k, kv := range view.kv {
			if !strings.HasPrefix(k, EtcdPrefix) {
				continue
			}
			ek := EtcdKey{Key: k, Owner: nodeName(s, kv.Client), Lease: kv.Lease, CreateRev: kv.CreateRev}
			if l, ok := view.leases[kv.Lease]; ok {
				ek.LeaseLeft, _ = left(l)
			}
			v.Keys = append(v.Keys, ek)
		}
		sort.Slice(v.Keys, func(a, b int) bool { return v.Keys[a].CreateRev < v.Keys[b].CreateRev })
		if len(v.Keys) > 0 {
			v.Keys[0].Holder = true
		}
		if st, ok := view.kv[EtcdStorageKey]; ok {
			v.Storage = &EtcdStorage{Key: EtcdStorageKey, Writer: nodeName(s, st.Client),
				CreateRev: st.CreateRev, ModRev: st.ModRev}
		}
	}
	snap.Etcd = v
}

func nodeName(s *Sim, id NodeID) string {
	if id < 0 || int(id) >= len(s.Nodes) {
		return ""
	}
	return s.Nodes[id].Name
}

// footprint estimates the bytes a checkpoint of the member holds of its
// own, so recordings can space checkpoints by memory.
func (s *EtcdServer) footprint() int {
	n := int(unsafe.Sizeof(*s)) + s.log.footprint(int(unsafe.Sizeof(etcdEntry{}))) +
		s.history.footprint(int(unsafe.Sizeof(etcdEvent{}))) +
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
