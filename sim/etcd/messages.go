package etcd

import "github.com/lockscope/lockscope/sim"

// Wire operations of etcd mode. Client calls and their answers carry the
// client's request id in Seq; raft messages carry the sender's term in Seq.
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
