package etcd

import (
	"time"

	"github.com/lockscope/lockscope/sim"
)

// Wire operations of etcd mode. What each one carries is its typed form
// below (a struct with named fields and its codec); only this file reads
// or writes the envelope's fields for them. Client calls and their
// answers carry the client's request id in Seq (the client's send and the
// member's reply set it). The client's ops are exported, for the
// conformance tests' scripted clients; the members' among themselves are
// not.
var (
	OpGrant         = sim.NewOp("Grant")
	OpGrantResp     = sim.NewOp("GrantResp")
	OpKeepAlive     = sim.NewOp("KeepAlive")
	OpKeepAliveResp = sim.NewOp("KeepAliveResp")
	OpKeepAliveErr  = sim.NewOp("KeepAliveErr")
	OpTxn           = sim.NewOp("Txn")
	OpTxnResp       = sim.NewOp("TxnResp")
	OpRange         = sim.NewOp("Range")
	OpRangeResp     = sim.NewOp("RangeResp")
	OpDelete        = sim.NewOp("Delete")
	OpDeleteResp    = sim.NewOp("DeleteResp")
	OpRevoke        = sim.NewOp("Revoke")
	OpRevokeResp    = sim.NewOp("RevokeResp")
	OpWatch         = sim.NewOp("Watch")
	OpWatchCreated  = sim.NewOp("WatchCreated")
	OpWatchCancel   = sim.NewOp("WatchCancel")
	OpEventPut      = sim.NewOp("PUT")
	OpEventDelete   = sim.NewOp("DELETE")
	OpError         = sim.NewOp("Error")
	OpRST           = sim.NewOp("RST") // the kernel resets the connections of a dead process
)

// The members' ops among themselves.
var (
	raftApp           = sim.NewOp("MsgApp")
	raftAppResp       = sim.NewOp("MsgAppResp")
	raftHeartbeat     = sim.NewOp("MsgHeartbeat")
	raftHeartbeatResp = sim.NewOp("MsgHeartbeatResp")
	raftPreVote       = sim.NewOp("MsgPreVote")
	raftPreVoteResp   = sim.NewOp("MsgPreVoteResp")
	raftVote          = sim.NewOp("MsgVote")
	raftVoteResp      = sim.NewOp("MsgVoteResp")
	raftProp          = sim.NewOp("MsgProp")
	raftReadIndex     = sim.NewOp("MsgReadIndex")
	raftReadIndexResp = sim.NewOp("MsgReadIndexResp")
	leaseRenew        = sim.NewOp("LeaseRenew") // a follower forwards a keepalive to the leader
	leaseRenewResp    = sim.NewOp("LeaseRenewResp")
)

// Timer kinds of etcd's members and clientv3's client.
var (
	timerReenter         = sim.NewTimerKind("reenter")     // the holder's second Lock (the reenter option); Seq is the round
	timerInnerUnlock     = sim.NewTimerKind("innerUnlock") // the holder's inner Unlock; Seq is the round
	timerRPC             = sim.NewTimerKind("rpc")         // the pending call's context deadline (or its retry); Seq is the call
	timerKeepAlive       = sim.NewTimerKind("ka")          // clientv3's sendKeepAliveLoop: the next keepalive is due; Seq is the stream's generation
	timerLeaseDeadline   = sim.NewTimerKind("deadline")    // clientv3's deadlineLoop: has the lease's deadline passed?
	timerKeepAliveReopen = sim.NewTimerKind("kareopen")    // re-open a broken keepalive stream
	timerWatchTimeout    = sim.NewTimerKind("wtimeout")    // the watch's creation is due; Seq is the watch
	timerResend          = sim.NewTimerKind("resend")      // retry a call refused by an unavailable member; Seq is the call
	timerRewrite         = sim.NewTimerKind("rewrite")     // try the guarded write again
	timerReunlock        = sim.NewTimerKind("reunlock")    // try the unlock again
	timerTick            = sim.NewTimerKind("tick")        // a member's raft tick (a Ctx.Tick)
	timerLessor          = sim.NewTimerKind("lessor")      // the lessor's runLoop looks for expired leases (a Ctx.Tick)
	timerRequest         = sim.NewTimerKind("req")         // a member gives up on a request it proposed (ReqTimeout); Seq is the request
	timerWaitLeader      = sim.NewTimerKind("waitlead")    // a request waits for a leader; Seq is the request
)

// Trace kinds of etcd's members and clientv3 (besides the core's, such as
// sim.TraceWrite for a guarded write refused).
var (
	traceRaft    = sim.NewTraceKind("raft")    // raft: a campaign, a leader elected or stepping down, a member wiped
	traceLease   = sim.NewTraceKind("lease")   // the lessor: a lease expired, revoked, the lessor promoted
	traceSession = sim.NewTraceKind("session") // clientv3's Session: its lease granted, its keepalive broken, done
	traceLock    = sim.NewTraceKind("lock")    // clientv3's Mutex: its key created, waiting, acquired
	traceRPC     = sim.NewTraceKind("rpc")     // a call failed (its phase and error)
)

// appendEntries is the body of a MsgApp: raft's Message{Term, Index,
// LogTerm, Commit, Entries}. It is never changed once sent: its entries
// are a copy of the leader's log, which may be truncated and overwritten
// while the message is in flight.
type appendEntries struct {
	Term      int64       // the leader's term
	PrevIndex int64       // the index of the entry before Entries
	PrevTerm  int64       // that entry's term
	Commit    int64       // the leader's commit index
	Entries   []etcdEntry // the entries from PrevIndex+1 on; none for a commit's news
	one       [1]etcdEntry
}

// newAppend is the MsgApp body for the entries of log after prev (none
// when the follower has them all): one allocation when it carries one
// entry or none, as most do.
func newAppend(log *sim.Chunked[etcdEntry], term, prev, prevTerm, commit int64) *appendEntries {
	a := &appendEntries{Term: term, PrevIndex: prev, PrevTerm: prevTerm, Commit: commit}
	switch n := log.Len() - int(prev); {
	case n == 1:
		a.one[0] = log.At(int(prev))
		a.Entries = a.one[:]
	case n > 1:
		a.Entries = make([]etcdEntry, 0, n)
		log.Range(int(prev), func(_ int, e etcdEntry) bool {
			a.Entries = append(a.Entries, e)
			return true
		})
	}
	return a
}

// An etcd message is a sim.Msg whose scalar fields only this file fills
// and reads: each op below has a small struct with named fields, and a
// codec between the two (msg() writes the envelope, xxxOf reads it), so
// the rest of the design says "Lease", "Term" or "Reject" and a message
// costs no allocation (heartbeats and their answers are half of an etcd
// run's events). MsgApp and MsgProp carry their bodies in Msg.Body
// (*appendEntries, *etcdEntry); the envelope's Key is the key named, TTL a
// lease's TTL.

// TxnKind says which of clientv3's two transactions a Txn is.
type TxnKind string

// The Txns the client sends.
const (
	// TxnLock is Mutex.tryAcquire: put my key with my lease if it has no
	// create revision yet; in either branch, get the first-created key
	// under the prefix (the owner).
	TxnLock TxnKind = "lock"
	// TxnWrite is the guarded write: put the storage key if my key's
	// create revision is still mine (Mutex.IsOwner in the If).
	TxnWrite TxnKind = "write"
	// TxnPut is another design's client of etcd writing a value of its
	// own: put the key if its mod revision is still Rev (0: if it does
	// not exist), as the Kubernetes apiserver's storage does
	// (k8s.io/apiserver pkg/storage/etcd3/store.go, Create and
	// GuaranteedUpdate).
	TxnPut TxnKind = "putIfModRev"
)

// RangeKind says which of the client's two reads a Range is.
type RangeKind string

// The Ranges the client sends.
const (
	RangeKey  RangeKind = "key"  // Get(myKey): is my key still there?
	RangeLast RangeKind = "last" // waitDeletes: Get(prefix, WithLastCreate, WithMaxCreateRev(rev))
	// RangeValue is Get(key) answered with the key's value and mod
	// revision: the apiserver's read of an object.
	RangeValue RangeKind = "value"
)

// etcdErr is an error a call or a stream ends with, as clientv3 prints it.
type etcdErr string

// Txn is a Txn request (exported for the conformance tests' scripted
// clients).
type Txn struct {
	Kind  TxnKind
	Key   string // the client's key
	Lease int64  // TxnLock: the lease the key is put with
	Rev   int64  // TxnWrite: the create revision the key must still have; TxnPut: the mod revision (0: absent)
	Val   any    // TxnPut: the value put, immutable (the envelope's Body)
	// Routine: TxnPut repeats what was said before (another design's
	// renewal): its raft entry and its answer are background for the
	// window's pacing (Server.Background).
	Routine bool
}

// Msg is the request on the wire.
func (t Txn) Msg() sim.Msg {
	m := sim.Msg{Op: OpTxn, Value: string(t.Kind), Key: t.Key, Token: t.Lease, Body: t.Val, N: sim.Flag(t.Routine)}
	if t.Kind == TxnWrite || t.Kind == TxnPut {
		m.Token = t.Rev
	}
	return m
}

func txnOf(m *sim.Msg) Txn {
	t := Txn{Kind: TxnKind(m.Value), Key: m.Key, Val: m.Body, Routine: m.N == 1}
	if t.Kind == TxnWrite || t.Kind == TxnPut {
		t.Rev = m.Token
	} else {
		t.Lease = m.Token
	}
	return t
}

// TxnResp is the answer to a Txn.
type TxnResp struct {
	Kind      TxnKind
	Succeeded bool   // TxnLock: my key was put now (false: it was there); TxnWrite, TxnPut: the guard held, the value is written
	Rev       int64  // TxnLock: my key's create revision; TxnWrite, TxnPut: the store's revision after it (TxnPut refused: the key's mod revision)
	OwnerKey  string // TxnLock: the first-created key under the prefix ("" none)
	OwnerRev  int64  // TxnLock: its create revision
}

// txnPut and txnGet are a TxnLock answer's Value: which branch ran.
const (
	txnPut = "put"
	txnGet = "get"
)

func (r TxnResp) msg() sim.Msg {
	if r.Kind == TxnWrite || r.Kind == TxnPut {
		return sim.Msg{Op: OpTxnResp, Value: string(r.Kind), N: sim.Flag(r.Succeeded), Token: r.Rev}
	}
	how := txnGet
	if r.Succeeded {
		how = txnPut
	}
	return sim.Msg{Op: OpTxnResp, Key: r.OwnerKey, Value: how, Token: r.Rev, N: r.OwnerRev}
}

// TxnRespOf reads a TxnResp.
func TxnRespOf(m *sim.Msg) TxnResp {
	if k := TxnKind(m.Value); k == TxnWrite || k == TxnPut {
		return TxnResp{Kind: k, Succeeded: m.N == 1, Rev: m.Token}
	}
	return TxnResp{Kind: TxnLock, Succeeded: m.Value == txnPut, Rev: m.Token, OwnerKey: m.Key, OwnerRev: m.N}
}

// Range is a Range request.
type Range struct {
	Kind   RangeKind
	Key    string // RangeKey: the key; RangeLast: the prefix
	MaxRev int64  // RangeLast: the highest create revision considered
	// Routine: the read repeats what was said before (another design's
	// poll): its answer is background for the window's pacing.
	Routine bool
}

// Msg is the request on the wire.
func (r Range) Msg() sim.Msg {
	return sim.Msg{Op: OpRange, Value: string(r.Kind), Key: r.Key, Token: r.MaxRev, N: sim.Flag(r.Routine)}
}

func rangeOf(m *sim.Msg) Range {
	return Range{Kind: RangeKind(m.Value), Key: m.Key, MaxRev: m.Token, Routine: m.N == 1}
}

// RangeResp is the answer to a Range: the key found ("" none) with its
// create revision, and the store's revision (the header's); to a
// RangeValue also the key's mod revision and value.
type RangeResp struct {
	Key       string
	CreateRev int64
	Rev       int64
	ModRev    int64
	Val       any
}

// rangeValue is a RangeValue answer's body: the key's mod revision and
// value, boxed (only another design's client reads them).
type rangeValue struct {
	ModRev int64
	Val    any
}

func (r RangeResp) msg() sim.Msg {
	m := sim.Msg{Op: OpRangeResp, Key: r.Key, Token: r.CreateRev, N: r.Rev}
	if r.ModRev != 0 {
		m.Body = &rangeValue{ModRev: r.ModRev, Val: r.Val}
	}
	return m
}

// RangeRespOf reads a RangeResp.
func RangeRespOf(m *sim.Msg) RangeResp {
	r := RangeResp{Key: m.Key, CreateRev: m.Token, Rev: m.N}
	if v, ok := m.Body.(*rangeValue); ok {
		r.ModRev, r.Val = v.ModRev, v.Val
	}
	return r
}

// DeleteResp is the answer to a Delete: how many keys it deleted and the
// store's revision after it.
type DeleteResp struct {
	Deleted int64
	Rev     int64
}

func (r DeleteResp) msg() sim.Msg { return sim.Msg{Op: OpDeleteResp, N: r.Deleted, Token: r.Rev} }

// DeleteRespOf reads a DeleteResp.
func DeleteRespOf(m *sim.Msg) DeleteResp { return DeleteResp{Deleted: m.N, Rev: m.Token} }

// LeaseCall is a Grant (TTL: the TTL asked), a Revoke or a KeepAlive
// (Lease), and the answers to them: GrantResp, RevokeResp, KeepAliveResp
// (TTL 0: the lease is not found), KeepAliveErr (Err). First marks a keepalive
// stream's first request, which a member without a leader refuses.
type LeaseCall struct {
	Op    sim.Op
	Lease int64
	TTL   time.Duration
	First bool
	Err   etcdErr
}

// Msg is the call or answer on the wire.
func (l LeaseCall) Msg() sim.Msg {
	return sim.Msg{Op: l.Op, Token: l.Lease, TTL: l.TTL, N: sim.Flag(l.First), Value: string(l.Err)}
}

// LeaseCallOf reads a LeaseCall.
func LeaseCallOf(m *sim.Msg) LeaseCall {
	return LeaseCall{Op: m.Op, Lease: m.Token, TTL: m.TTL, First: m.N == 1, Err: etcdErr(m.Value)}
}

// failure is an Error answer to a call.
func failure(err etcdErr) sim.Msg { return sim.Msg{Op: OpError, Value: string(err)} }

// ErrorOf is the error an Error answer carries.
func ErrorOf(m *sim.Msg) etcdErr { return etcdErr(m.Value) }

// Watch opens a watch (a Watch request) on a key or, Prefix, every key
// under it, from revision Start; ID is the client's watch, which
// WatchCreated, WatchCancel and the events name.
type Watch struct {
	ID     int64
	Key    string
	Prefix bool
	Start  int64
}

// Msg is the request on the wire.
func (w Watch) Msg() sim.Msg {
	return sim.Msg{Op: OpWatch, Seq: w.ID, Key: w.Key, N: sim.Flag(w.Prefix), Token: w.Start}
}

func watchOf(m *sim.Msg) Watch {
	return Watch{ID: m.Seq, Key: m.Key, Prefix: m.N == 1, Start: m.Token}
}

// watchNote is a WatchCreated or a WatchCancel: the watch it is about.
func watchNote(op sim.Op, id int64) sim.Msg { return sim.Msg{Op: op, Seq: id} }

func watchIDOf(m *sim.Msg) int64 { return m.Seq }

// msg is the event as the watch id's stream delivers it: its op is the
// event's type (PUT, DELETE).
func (ev etcdEvent) msg(watch int64) sim.Msg {
	return sim.Msg{Op: ev.Type, Seq: watch, Key: ev.Key, Token: ev.Rev}
}

// WatchEventOf reads an event and the watch it is for.
func WatchEventOf(m *sim.Msg) (watch int64, ev etcdEvent) {
	return m.Seq, etcdEvent{Rev: m.Token, Type: m.Op, Key: m.Key}
}

// termOf is the term a message between members carries (raft's
// Message.Term): MsgApp's in its body, the others' in Seq. MsgProp and
// the ReadIndex and lease messages carry none (they are handled before
// the term is looked at).
func termOf(m *sim.Msg) int64 {
	if m.Op == raftApp {
		return m.Body.(*appendEntries).Term
	}
	return m.Seq
}

// voteReq is a MsgVote or MsgPreVote: the term campaigned for and the
// candidate's last log entry.
type voteReq struct {
	Term      int64
	LastIndex int64
	LastTerm  int64
}

func (v voteReq) msg(op sim.Op) sim.Msg {
	return sim.Msg{Op: op, Seq: v.Term, Token: v.LastIndex, N: v.LastTerm}
}

func voteReqOf(m *sim.Msg) voteReq { return voteReq{Term: m.Seq, LastIndex: m.Token, LastTerm: m.N} }

// voteResp is a MsgVoteResp or MsgPreVoteResp (and a MsgPreVoteResp
// refusing a stale term): the voter's term, or the term granted.
type voteResp struct {
	Term    int64
	Granted bool
}

func (v voteResp) msg(op sim.Op) sim.Msg { return sim.Msg{Op: op, Seq: v.Term, N: sim.Flag(v.Granted)} }

func voteRespOf(m *sim.Msg) voteResp { return voteResp{Term: m.Seq, Granted: m.N == 1} }

// heartbeat is a MsgHeartbeat (Context: the ReadIndex round it confirms,
// 0 none; Commit: the commit index the follower may apply) or a
// MsgHeartbeatResp (Context echoed).
type heartbeat struct {
	Term    int64
	Commit  int64
	Context int64
}

func (h heartbeat) msg(op sim.Op) sim.Msg {
	return sim.Msg{Op: op, Seq: h.Term, N: h.Commit, Token: h.Context}
}

func heartbeatOf(m *sim.Msg) heartbeat { return heartbeat{Term: m.Seq, Commit: m.N, Context: m.Token} }

// appendResp is a MsgAppResp (and the answer to a MsgApp or heartbeat of
// a stale term, with Index 0): raft's Message{Term, Index, Reject,
// RejectHint}. Index is the follower's last entry from the append (or its
// commit index when the append was older); a rejection's Index is the
// previous index refused and Hint the follower's last index.
type appendResp struct {
	Term   int64
	Index  int64
	Reject bool
	Hint   int64
}

// appendReject is a MsgAppResp's Value when the follower refuses the
// append.
const appendReject = "reject"

func (a appendResp) msg() sim.Msg {
	m := sim.Msg{Op: raftAppResp, Seq: a.Term, Token: a.Index, N: a.Hint}
	if a.Reject {
		m.Value = appendReject
	}
	return m
}

func appendRespOf(m *sim.Msg) appendResp {
	return appendResp{Term: m.Seq, Index: m.Token, Reject: m.Value == appendReject, Hint: m.N}
}

// readIndex is a MsgReadIndex (a follower asks the leader for the read
// index of its request Req) or a MsgReadIndexResp (Index the answer).
type readIndex struct {
	Req   int64
	Index int64
}

func (r readIndex) msg(op sim.Op) sim.Msg { return sim.Msg{Op: op, Seq: r.Req, Token: r.Index} }

func readIndexOf(m *sim.Msg) readIndex { return readIndex{Req: m.Seq, Index: m.Token} }

// renewal is a LeaseRenew a follower forwards to the leader for its
// request Req, or the leader's LeaseRenewResp: the lease, its TTL (0: not
// found) and an error ("" none).
type renewal struct {
	Req   int64
	Lease int64
	TTL   time.Duration
	Err   etcdErr
}

func (r renewal) msg(op sim.Op) sim.Msg {
	return sim.Msg{Op: op, Seq: r.Req, Token: r.Lease, TTL: r.TTL, Value: string(r.Err)}
}

func renewalOf(m *sim.Msg) renewal {
	return renewal{Req: m.Seq, Lease: m.Token, TTL: m.TTL, Err: etcdErr(m.Value)}
}

// Background implements sim.Background: raft's heartbeats and an append
// with no entries (a commit index's news) keep the cluster as it is; what
// they answer is judged with them.
func (s *Server) Background(m *sim.Msg) bool {
	switch m.Op {
	case raftHeartbeat, raftHeartbeatResp:
		return true
	case raftApp:
		for _, e := range m.Body.(*appendEntries).Entries {
			if !e.Routine {
				return false
			}
		}
		return true
	case OpTxnResp, OpRangeResp:
		return s.routine
	}
	return false
}
