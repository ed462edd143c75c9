package zookeeper

import (
	"time"

	"github.com/lockscope/lockscope/sim"
)

// Wire operations. What each carries is its typed form below (a struct
// with named fields and its codec); only this file reads or writes the
// envelope's fields for them. Between servers a transaction (PROPOSAL,
// DIFF, a follower's REQUEST) travels as its body, a *zkTxn; a VOTE's body
// is the notification (a *zkVote), a FOLLOWERINFO's a *zkFollowerInfo, a
// follower's PING the sessions its clients touched (a *zkTouched), and the
// OK to a GETCHILDREN the children (a *Children).
//
// A message on a connection (a client's to its server, a follower's to
// its leader) carries its position on it (toPeer, toLeader, toClient).
// TCP delivers in order or breaks the connection; the simulator drops what
// a partition cuts, so a receiver that sees a gap treats the connection as
// reset. A server trusts a client message without a number (position 0),
// so the conformance tests' scripted clients can speak to it; the
// client's ops are exported for them, the servers' among themselves are
// not.
var (
	OpConnect      = sim.NewOp("CONNECT")
	OpConnected    = sim.NewOp("CONNECTED")
	OpExpired      = sim.NewOp("EXPIRED")
	OpClose        = sim.NewOp("CLOSE") // the connection was closed or reset
	OpPing         = sim.NewOp("PING")
	OpPong         = sim.NewOp("PONG")
	OpCreate       = sim.NewOp("CREATE")
	OpDelete       = sim.NewOp("DELETE")
	OpGetChildren  = sim.NewOp("GETCHILDREN")
	OpGetData      = sim.NewOp("GETDATA")
	OpOK           = sim.NewOp("OK")
	OpErr          = sim.NewOp("ERR")
	OpWatch        = sim.NewOp("WATCH")
	OpCloseSession = sim.NewOp("CLOSESESSION") // a client's closeSession request (ZooKeeper.close())
)

// The servers' ops among themselves.
var (
	zkOpVote       = sim.NewOp("VOTE")
	zkOpFollowInfo = sim.NewOp("FOLLOWERINFO")
	zkOpTrunc      = sim.NewOp("TRUNC")
	zkOpDiff       = sim.NewOp("DIFF")
	zkOpNewLeader  = sim.NewOp("NEWLEADER")
	zkOpAckNewLdr  = sim.NewOp("ACKNEWLEADER")
	zkOpUpToDate   = sim.NewOp("UPTODATE")
	zkOpRequest    = sim.NewOp("REQUEST")
	zkOpProposal   = sim.NewOp("PROPOSAL")
	zkOpAck        = sim.NewOp("ACK")
	zkOpCommit     = sim.NewOp("COMMIT")
	zkOpRevalidate = sim.NewOp("REVALIDATE")
)

// zkCode is an error code an ERR carries, as ZooKeeper's
// KeeperException.Code names it.
type zkCode string

// The error codes the servers answer with.
const (
	zkErrNoNode  zkCode = "NoNode"
	zkErrExpired zkCode = "SessionExpired"
	zkErrBadArgs zkCode = "BadArguments"
)

// zkEvent is the type of a watch event, as Watcher.Event.EventType names
// it.
type zkEvent string

// The watch events the recipe sets off.
const (
	zkEventDeleted  zkEvent = "NodeDeleted"
	zkEventChildren zkEvent = "NodeChildrenChanged"
)

// txnKind is what a transaction (or a request waiting for one) does.
type txnKind string

// Transaction kinds.
const (
	zkTxnCreate       txnKind = "create"
	zkTxnDelete       txnKind = "delete"
	zkTxnCreateSess   txnKind = "createSession"
	zkTxnCloseSession txnKind = "closeSession"
	zkRevalidate      txnKind = "revalidate" // a wait, not a transaction
)

// Timer kinds of the ZooKeeper servers and of the client (its handle and Curator).
var (
	timerReenter      = sim.NewTimerKind("reenter")     // the holder's acquire() again (the reenter option); Seq is the round
	timerInnerUnlock  = sim.NewTimerKind("innerUnlock") // the holder's inner release(); Seq is the round
	timerDial         = sim.NewTimerKind("dial")        // a reconnect dials after its random delay; Seq is the connection
	timerRefused      = sim.NewTimerKind("refused")     // a crashed server's kernel refused the connection; Seq is the connection
	timerRead         = sim.NewTimerKind("read")        // ClientCnxn's read or connect timeout; Seq is the read generation
	timerPing         = sim.NewTimerKind("ping")        // the client's next ping is due; Seq is the connection
	timerLost         = sim.NewTimerKind("lost")        // Curator: the session timeout passed since SUSPENDED, on the wall clock; Seq is the suspension
	timerElection     = sim.NewTimerKind("fle")         // fast leader election: no notification within the timeout; Seq is the era
	timerFinalize     = sim.NewTimerKind("finalize")    // fast leader election: the finalize wait after a quorum agrees; Seq is the era
	timerFollowerInfo = sim.NewTimerKind("finfo")       // a follower sends FOLLOWERINFO again; Seq is the era
	timerTick         = sim.NewTimerKind("tick")        // half a tickTime: the leader pings, a follower checks the sync limit; Seq is the era
	timerExpire       = sim.NewTimerKind("expire")      // the leader's session tracker: the next expiry interval; Seq is the era
)

// Trace kinds of the ensemble and of the ZooKeeper handle and Curator's
// recipe (besides the core's, such as sim.TraceDrop for a message lost
// on a reset connection).
var (
	traceElection   = sim.NewTraceKind("election")   // fast leader election and Zab's synchronisation
	traceExpire     = sim.NewTraceKind("expire")     // the leader expired a session
	traceDisconnect = sim.NewTraceKind("disconnect") // the client lost its connection
	traceState      = sim.NewTraceKind("state")      // the session's state as Curator sees it
	traceLock       = sim.NewTraceKind("lock")       // the recipe's steps
	traceWatch      = sim.NewTraceKind("watch")      // a watch fired
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

// followerInfoMsg is the FOLLOWERINFO carrying info, the first message on
// its connection.
func followerInfoMsg(info *zkFollowerInfo) sim.Msg {
	return sim.Msg{Op: zkOpFollowInfo, Body: info, Deadline: 1}
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
	if c := ReplyOf(m).Children; c != nil {
		return c.Names
	}
	return nil
}

// toPeer sends on the leader's connection to follower sid, numbering the
// message (Deadline carries a message's position on its connection).
func (s *zkServer) toPeer(ctx sim.Ctx, sid int, m sim.Msg) {
	p := &s.peers[sid-1]
	p.sent++
	m.Deadline = time.Duration(p.sent)
	ctx.Send(s.node(sid), m)
}

// toLeader sends on this follower's connection to its leader.
func (s *zkServer) toLeader(ctx sim.Ctx, m sim.Msg) {
	s.lsent++
	m.Deadline = time.Duration(s.lsent)
	ctx.Send(s.node(s.leader), m)
}

// toClient sends on client connection i (N carries the connection's
// number, which the client gave it when it dialled).
func (s *zkServer) toClient(ctx sim.Ctx, i int, m sim.Msg) {
	c := &s.conns[i]
	c.sent++
	m.N = c.cnx
	m.Deadline = time.Duration(c.sent)
	ctx.Send(c.client, m)
}

// onClientConn puts a client's message at position pos on its connection
// cnx.
func onClientConn(m *sim.Msg, cnx, pos int64) {
	m.N, m.Deadline = cnx, time.Duration(pos)
}

// positionOf is a message's position on its connection (0: unnumbered).
func positionOf(m *sim.Msg) int64 { return int64(m.Deadline) }

// connOf is the client connection a message belongs to: the number the
// client gave it when it dialled.
func connOf(m *sim.Msg) int64 { return m.N }

// connNotice is a CLOSE (the connection was closed or reset) or an
// EXPIRED (the session is gone) on client connection cnx; 0 between
// servers.
func connNotice(op sim.Op, cnx int64) sim.Msg { return sim.Msg{Op: op, N: cnx} }

// zxidOf is the zxid a message carries: the last one the server has
// committed on a reply or PONG, the transaction's on a WATCH, an ACK or a
// COMMIT, the last one to keep or apply on a TRUNC or UPTODATE.
func zxidOf(m *sim.Msg) int64 { return m.Token }

// zxidMsg is an ACK, COMMIT, TRUNC or UPTODATE about zxid z.
func zxidMsg(op sim.Op, z int64) sim.Msg { return sim.Msg{Op: op, Token: z} }

// Connect is a client's ConnectRequest on its new connection Conn:
// Session 0 for a new session, Timeout the one it asks for, LastZxid the
// last zxid it has seen (a server behind it refuses). Exported for the
// conformance tests' scripted clients.
type Connect struct {
	Conn     int64
	Session  int64
	Timeout  time.Duration
	LastZxid int64
}

// Msg is the request on the wire, the first on its connection.
func (c Connect) Msg() sim.Msg {
	return sim.Msg{Op: OpConnect, N: c.Conn, Token: c.Session, TTL: c.Timeout, Seq: c.LastZxid, Deadline: 1}
}

func connectOf(m *sim.Msg) Connect {
	return Connect{Conn: m.N, Session: m.Token, Timeout: m.TTL, LastZxid: m.Seq}
}

// Connected is a server's CONNECTED: the session and its negotiated
// timeout.
type Connected struct {
	Session int64
	Timeout time.Duration
}

func (c Connected) msg() sim.Msg { return sim.Msg{Op: OpConnected, Token: c.Session, TTL: c.Timeout} }

// ConnectedOf reads a CONNECTED.
func ConnectedOf(m *sim.Msg) Connected { return Connected{Session: m.Token, Timeout: m.TTL} }

// Request is a client's request on its connection Conn: CREATE (Path the
// prefix of the sequential znode), DELETE and GETDATA (Path the znode),
// GETCHILDREN (Path the lock znode), PING, CLOSESESSION. Xid numbers it
// for its answer; Watch leaves a watch (GETDATA, GETCHILDREN). Exported
// for the conformance tests' scripted clients.
type Request struct {
	Op    sim.Op
	Conn  int64
	Path  string
	Xid   int64
	Watch bool
}

// Msg is the request on the wire (unnumbered: the client numbers it as it
// sends it).
func (r Request) Msg() sim.Msg {
	return sim.Msg{Op: r.Op, N: r.Conn, Key: r.Path, Seq: r.Xid, Token: sim.Flag(r.Watch)}
}

func requestOf(m *sim.Msg) Request {
	return Request{Op: m.Op, Conn: m.N, Path: m.Key, Xid: m.Seq, Watch: m.Token == 1}
}

// Reply is a server's answer to a request: OK (Path the znode created or
// read; the children of a GETCHILDREN in its body), ERR (Code), PONG. Xid
// is the request's, Zxid the last zxid the server has committed.
type Reply struct {
	Op       sim.Op
	Xid      int64
	Path     string
	Code     zkCode
	Zxid     int64
	Children *Children // GETCHILDREN's OK only
}

func (r Reply) msg() sim.Msg {
	m := sim.Msg{Op: r.Op, Seq: r.Xid, Key: r.Path, Value: string(r.Code), Token: r.Zxid}
	if r.Children != nil {
		m.Body = r.Children
	}
	return m
}

// ReplyOf reads a reply.
func ReplyOf(m *sim.Msg) Reply {
	c, _ := m.Body.(*Children)
	return Reply{Op: m.Op, Xid: m.Seq, Path: m.Key, Code: zkCode(m.Value), Zxid: m.Token, Children: c}
}

// WatchEvent is a WATCH: the event, the znode it happened to and the
// zxid of the transaction that set it off.
type WatchEvent struct {
	Path  string
	Event zkEvent
	Zxid  int64
}

func (w WatchEvent) msg() sim.Msg {
	return sim.Msg{Op: OpWatch, Key: w.Path, Value: string(w.Event), Token: w.Zxid}
}

// WatchEventOf reads a WATCH.
func WatchEventOf(m *sim.Msg) WatchEvent {
	return WatchEvent{Path: m.Key, Event: zkEvent(m.Value), Zxid: m.Token}
}

// epochMsg is a NEWLEADER (the new epoch and the zxid it starts at) or
// an ACKNEWLEADER (the epoch acknowledged, Zxid 0).
type epochMsg struct {
	Epoch int64
	Zxid  int64
}

func (e epochMsg) msg(op sim.Op) sim.Msg { return sim.Msg{Op: op, N: e.Epoch, Token: e.Zxid} }

func epochOf(m *sim.Msg) epochMsg { return epochMsg{Epoch: m.N, Zxid: m.Token} }

// revalidation is a follower's REVALIDATE of a session a client
// reconnects with (Timeout its timeout) and the leader's answer (Live).
type revalidation struct {
	Session int64
	Timeout time.Duration
	Live    bool
}

func (r revalidation) msg() sim.Msg {
	return sim.Msg{Op: zkOpRevalidate, N: r.Session, TTL: r.Timeout, Token: sim.Flag(r.Live)}
}

func revalidationOf(m *sim.Msg) revalidation {
	return revalidation{Session: m.N, Timeout: m.TTL, Live: m.Token == 1}
}

// refusal is the leader's ERR to a follower's REQUEST: the session and
// xid of the request refused and why.
type refusal struct {
	Session int64
	Xid     int64
	Code    zkCode
}

func (r refusal) msg() sim.Msg {
	return sim.Msg{Op: OpErr, N: r.Session, Seq: r.Xid, Value: string(r.Code)}
}

func refusalOf(m *sim.Msg) refusal { return refusal{Session: m.N, Xid: m.Seq, Code: zkCode(m.Value)} }

// Background implements sim.Background: the leader's pings keep its
// followers, and the consensus on a new session changes no lock znode (the
// session's CONNECTED answer, which the client waits for, is not
// background).
func (s *zkServer) Background(m *sim.Msg) bool {
	switch m.Op {
	case OpPing, OpPong:
		return true
	case zkOpProposal, zkOpRequest:
		return zkTxnOf(m).Kind == zkTxnCreateSess
	case zkOpCommit:
		x, ok := s.txnOf(zxidOf(m))
		return ok && x.Kind == zkTxnCreateSess
	}
	return false
}

// Background implements sim.Background: a client's pings keep its session
// and change no znode.
func (c *zkClient) Background(m *sim.Msg) bool { return m.Op == OpPing }
