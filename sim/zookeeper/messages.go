package zookeeper

import "github.com/lockscope/lockscope/sim"

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
