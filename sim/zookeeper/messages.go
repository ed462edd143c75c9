package zookeeper

import "github.com/lockscope/lockscope/sim"

// Wire operations. Between a client and its server: N is the connection
// number, Seq the request xid, Token the zxid the server has reached (the
// session id in CONNECTED). Between servers a transaction (PROPOSAL, DIFF,
// a follower's REQUEST) travels as its body, a *zkTxn; a VOTE's body is
// the notification (a *zkVote), a FOLLOWERINFO's a *zkFollowerInfo, a
// follower's PING the sessions its clients touched (a *zkTouched), and the
// OK to a GETCHILDREN the children (a *Children). The few numbers the
// other messages between servers carry are in the envelope: Token the zxid
// of an ACK, COMMIT, TRUNC or UPTODATE, N the epoch of a NEWLEADER and its
// ACKNEWLEADER, N the session (TTL its timeout, Token 1 when live) of a
// REVALIDATE, N and Seq the session and xid an ERR answers.
//
// Deadline carries a message's position on its connection (a client's
// connection to its server, a follower's to its leader). TCP delivers in
// order or breaks the connection; the simulator drops what a partition
// cuts, so a receiver that sees a gap treats the connection as reset. A
// server trusts a client message without a number (Deadline 0), so the
// conformance tests' scripted clients can speak to it.
const (
	zkOpConnect    sim.Op = "CONNECT"
	zkOpConnected  sim.Op = "CONNECTED"
	zkOpExpired    sim.Op = "EXPIRED"
	zkOpClose      sim.Op = "CLOSE" // the connection was closed or reset
	zkOpPing       sim.Op = "PING"
	zkOpPong       sim.Op = "PONG"
	zkOpCreate     sim.Op = "CREATE"
	zkOpDelete     sim.Op = "DELETE"
	zkOpChildren   sim.Op = "GETCHILDREN"
	zkOpGetData    sim.Op = "GETDATA"
	zkOpOK         sim.Op = "OK"
	zkOpErr        sim.Op = "ERR"
	zkOpWatch      sim.Op = "WATCH"
	zkOpVote       sim.Op = "VOTE"
	zkOpFollowInfo sim.Op = "FOLLOWERINFO"
	zkOpTrunc      sim.Op = "TRUNC"
	zkOpDiff       sim.Op = "DIFF"
	zkOpNewLeader  sim.Op = "NEWLEADER"
	zkOpAckNewLdr  sim.Op = "ACKNEWLEADER"
	zkOpUpToDate   sim.Op = "UPTODATE"
	zkOpRequest    sim.Op = "REQUEST"
	zkOpProposal   sim.Op = "PROPOSAL"
	zkOpAck        sim.Op = "ACK"
	zkOpCommit     sim.Op = "COMMIT"
	zkOpRevalidate sim.Op = "REVALIDATE"
	zkOpCloseSess  sim.Op = "CLOSESESSION" // a client's closeSession request (ZooKeeper.close())
)

// Error codes (an ERR's Value) and watch events (a WATCH's Value), as
// ZooKeeper's KeeperException.Code and Watcher.Event.EventType name them.
const (
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

// Timer kinds of the ZooKeeper servers and of the client (its handle and Curator).
const (
	timerDial         sim.TimerKind = "dial"     // a reconnect dials after its random delay; Seq is the connection
	timerRefused      sim.TimerKind = "refused"  // a crashed server's kernel refused the connection; Seq is the connection
	timerRead         sim.TimerKind = "read"     // ClientCnxn's read or connect timeout; Seq is the read generation
	timerPing         sim.TimerKind = "ping"     // the client's next ping is due; Seq is the connection
	timerLost         sim.TimerKind = "lost"     // Curator: the session timeout passed since SUSPENDED, on the wall clock; Seq is the suspension
	timerElection     sim.TimerKind = "fle"      // fast leader election: no notification within the timeout; Seq is the era
	timerFinalize     sim.TimerKind = "finalize" // fast leader election: the finalize wait after a quorum agrees; Seq is the era
	timerFollowerInfo sim.TimerKind = "finfo"    // a follower sends FOLLOWERINFO again; Seq is the era
	timerTick         sim.TimerKind = "tick"     // half a tickTime: the leader pings, a follower checks the sync limit; Seq is the era
	timerExpire       sim.TimerKind = "expire"   // the leader's session tracker: the next expiry interval; Seq is the era
)

// Every body is a pointer to a value built for its message and never
// changed once sent: a transaction (zkTxn.msg copies it out of the log), a
// notification (voteMsg: the sender's vote, its round and state), and the
// types below.

// zkFollowerInfo is the body of a FOLLOWERINFO, a follower's first message
// to the leader it connects to: its accepted epoch and last logged zxid,
// and which connection this is (a retry of an accepted one is ignored).
type zkFollowerInfo struct {
	AcceptedEpoch int64
	LastZxid      int64
	Conn          int64 // the follower's era: one per connection to a leader
}

// zkTouched is the body of a follower's PING to its leader when its
// clients were heard from since the last one: their sessions
// (LearnerSessionTracker's touchTable), which the leader touches in its own
// tracker. A PING that touches nothing has no body.
type zkTouched struct {
	Sessions []int64
}

// Children is the body of the OK to a GETCHILDREN: the lock znode's
// children as the server's tree lists them (exported for the conformance
// tests' scripted clients).
type Children struct {
	Names []string
}

// childrenOf is the children a reply carries; none for an error.
func childrenOf(m *sim.Msg) []string {
	if c, ok := m.Body.(*Children); ok {
		return c.Names
	}
	return nil
}
