package etcd

import "github.com/lockscope/lockscope/sim"

// Wire operations of etcd mode. Client calls and their answers carry the
// client's request id in Seq; raft messages carry the sender's term in Seq,
// but for MsgApp and MsgProp, whose bodies say it all (an *appendEntries,
// an *etcdEntry).
const (
	etcdGrant        sim.Op = "Grant"
	etcdGrantResp    sim.Op = "GrantResp"
	etcdKeepAlive    sim.Op = "KeepAlive"
	etcdKeepAliveOK  sim.Op = "KeepAliveResp"
	etcdKeepAliveErr sim.Op = "KeepAliveErr"
	etcdTxn          sim.Op = "Txn"
	etcdTxnResp      sim.Op = "TxnResp"
	etcdRange        sim.Op = "Range"
	etcdRangeResp    sim.Op = "RangeResp"
	etcdDelete       sim.Op = "Delete"
	etcdDeleteResp   sim.Op = "DeleteResp"
	etcdRevoke       sim.Op = "Revoke"
	etcdRevokeResp   sim.Op = "RevokeResp"
	etcdWatch        sim.Op = "Watch"
	etcdWatchCreated sim.Op = "WatchCreated"
	etcdWatchCancel  sim.Op = "WatchCancel"
	etcdEventPut     sim.Op = "PUT"
	etcdEventDelete  sim.Op = "DELETE"
	etcdError        sim.Op = "Error"
	etcdRST          sim.Op = "RST" // the kernel resets the connections of a dead process

	raftApp           sim.Op = "MsgApp"
	raftAppResp       sim.Op = "MsgAppResp"
	raftHeartbeat     sim.Op = "MsgHeartbeat"
	raftHeartbeatResp sim.Op = "MsgHeartbeatResp"
	raftPreVote       sim.Op = "MsgPreVote"
	raftPreVoteResp   sim.Op = "MsgPreVoteResp"
	raftVote          sim.Op = "MsgVote"
	raftVoteResp      sim.Op = "MsgVoteResp"
	raftProp          sim.Op = "MsgProp"
	raftReadIndex     sim.Op = "MsgReadIndex"
	raftReadIndexResp sim.Op = "MsgReadIndexResp"
	leaseRenew        sim.Op = "LeaseRenew" // a follower forwards a keepalive to the leader
	leaseRenewResp    sim.Op = "LeaseRenewResp"
)

// Timer kinds of etcd's members and clientv3's client.
const (
	timerRPC             sim.TimerKind = "rpc"      // the pending call's context deadline (or its retry); Seq is the call
	timerKeepAlive       sim.TimerKind = "ka"       // clientv3's sendKeepAliveLoop: the next keepalive is due; Seq is the stream's generation
	timerLeaseDeadline   sim.TimerKind = "deadline" // clientv3's deadlineLoop: has the lease's deadline passed?
	timerKeepAliveReopen sim.TimerKind = "kareopen" // re-open a broken keepalive stream
	timerWatchTimeout    sim.TimerKind = "wtimeout" // the watch's creation is due; Seq is the watch
	timerResend          sim.TimerKind = "resend"   // retry a call refused by an unavailable member; Seq is the call
	timerRewrite         sim.TimerKind = "rewrite"  // try the guarded write again
	timerReunlock        sim.TimerKind = "reunlock" // try the unlock again
	timerTick            sim.TimerKind = "tick"     // a member's raft tick (a Ctx.Tick)
	timerLessor          sim.TimerKind = "lessor"   // the lessor's runLoop looks for expired leases (a Ctx.Tick)
	timerRequest         sim.TimerKind = "req"      // a member gives up on a request it proposed (ReqTimeout); Seq is the request
	timerWaitLeader      sim.TimerKind = "waitlead" // a request waits for a leader; Seq is the request
)

// appendReject is a MsgAppResp's Value when the follower refuses the
// append: its log does not hold the entry before the new ones (Token is
// that index, N the follower's hint, its last index).
const appendReject = "reject"

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
