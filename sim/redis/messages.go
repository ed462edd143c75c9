package redis

import (
	"time"

	"github.com/lockscope/lockscope/sim"
)

// Redis wire operations: requests and the replies a server gives. A
// request's typed form is a Command and an answer's a Reply (below); only
// this file reads or writes the envelope's fields for them. Both carry the
// client's request id in Seq.
var (
	OpSet      = sim.NewOp("SET")     // SET key value NX PX ttl (with fencing: + INCR)
	OpCAD      = sim.NewOp("CAD")     // compare-and-delete script
	OpDel      = sim.NewOp("DEL")     // bare DEL
	OpPExpire  = sim.NewOp("PEXPIRE") // compare-and-PEXPIRE script (watchdog)
	OpLock     = sim.NewOp("LOCK")    // Redisson's lock script: a hash whose hold count a re-entry increments
	OpUnlock   = sim.NewOp("UNLOCK")  // Redisson's unlock script: decrements the hold count, deletes at 0
	OpOK       = sim.NewOp("OK")
	OpNil      = sim.NewOp("nil")
	OpInt      = sim.NewOp("INT")      // integer reply in N
	OpRepl     = sim.NewOp("REPL")     // replication stream entry to a replica; its body is a *replEntry
	OpReadOnly = sim.NewOp("READONLY") // error reply of a replica to a write
	// WAIT numreplicas timeout (redis/redis src/replication.c waitCommand):
	// blocks the caller until numreplicas replicas acknowledged the
	// replication offset of its last write, or timeout passed; answered
	// with OpReplicas. Redisson pipelines it after its lock, unlock and
	// renewal scripts when a replica exists (checkLockSyncedSlaves).
	OpWait     = sim.NewOp("WAIT")
	OpReplicas = sim.NewOp("REPLICAS") // WAIT's integer reply: how many replicas acknowledged
	OpGetAck   = sim.NewOp("GETACK")   // REPLCONF GETACK *: a master blocked in WAIT asks its replica for its offset
	OpAck      = sim.NewOp("ACK")      // REPLCONF ACK offset: the replica's processed replication offset
	OpErr      = sim.NewOp("ERR")      // an error reply: WAIT to a replica ("WAIT cannot be used with replica instances")
)

// Timer kinds of the Redis server and Redisson's client.
var (
	timerExpire   = sim.NewTimerKind("expire")   // a key's deadline on the server's wall clock; Key is the key
	timerSentinel = sim.NewTimerKind("sentinel") // Sentinel's promotion order reaching the replica
	timerTimeout  = sim.NewTimerKind("timeout")  // Redisson's client: the pending request's answer is due
	timerWatchdog = sim.NewTimerKind("watchdog") // Redisson's client: time to extend the lease
	timerWait     = sim.NewTimerKind("wait")     // the server: a blocked WAIT's timeout; Seq is the WAIT's id
	timerResend   = sim.NewTimerKind("resend")   // Redisson's client: retryDelay has passed, the timed-out command goes again
	timerNoSync   = sim.NewTimerKind("nosync")   // Redisson's client: ServiceManager.execute's next attempt after NoSyncedSlavesException
	// timerReenter and timerInnerUnlock are a holder's nested section
	// (the reenter option): its second lock, then that inner unlock.
	timerReenter     = sim.NewTimerKind("reenter")
	timerInnerUnlock = sim.NewTimerKind("innerUnlock")
)

// Trace kinds of the Redis server, Sentinel and Redisson's client.
var (
	traceExpire    = sim.NewTraceKind("expire")    // a key expired on the server
	tracePromote   = sim.NewTraceKind("promote")   // the replica promoted to master
	traceSentinel  = sim.NewTraceKind("sentinel")  // Sentinel's verdict
	traceFairQueue = sim.NewTraceKind("fairQueue") // RFairLock's queue: a waiter queued or removed as stale
	traceReenter   = sim.NewTraceKind("reenter")   // a re-entry of the holder's own lock
	traceRWLock    = sim.NewTraceKind("rwlock")    // the read–write lock's hash, as a lock script left it
	traceRelease   = sim.NewTraceKind("release")   // an unlock that found the lock no longer ours
	traceResend    = sim.NewTraceKind("resend")    // a request resent after its timeout
	traceTimeout   = sim.NewTraceKind("timeout")   // a request given up
	traceWatchdog  = sim.NewTraceKind("watchdog")  // the watchdog's renewal
	traceNoSync    = sim.NewTraceKind("nosync")    // WAIT answered 0 replicas: Redisson's NoSyncedSlavesException
)

// replEntry is the body of an OpRepl: one entry of the replication stream,
// which the master ships right after applying a write (asynchronously, as
// Redis does). It is never changed once sent.
type replEntry struct {
	Key     string   // the key written; "" for the end of a full sync, which only carries Counter
	Counter int64    // the master's fencing-token counter
	State   redisKey // the key's state; zero (no value) when it was deleted or expired
	Offset  int64    // the master's replication offset after this entry (master_repl_offset), which the replica acknowledges
}

// replOf is the replication stream's entry for a key that has a value.
func replOf(key string, kv redisKey) replEntry { return replEntry{Key: key, State: kv} }

// replGone is the replication stream's entry for a key deleted or expired,
// or with key "" the end of a full sync.
func replGone(key string) replEntry { return replEntry{Key: key} }

// Command is a request to a Redis server (exported: Redlock's client and
// the conformance tests' scripted clients send them too): the command or
// script, the key, the caller's random value, the TTL in ms (PX), and
// Fenced: the SET or lock script also INCRs the fencing-token counter.
type Command struct {
	Op     sim.Op
	Key    string
	Value  string
	PX     time.Duration
	Fenced bool
}

// Msg is the command on the wire (its Seq set by the sender).
func (c Command) Msg() sim.Msg {
	return sim.Msg{Op: c.Op, Key: c.Key, Value: c.Value, TTL: c.PX, N: sim.Flag(c.Fenced)}
}

// UnlockLatch is the unlock script's latch (Redisson 4.7.0
// RedissonBaseLock.unlockInnerAsync, RedissonLock.unlockInnerAsync): the
// script first reads KEYS[3], redisson_unlock_latch:{lock}:requestId, and
// answers its value if set; otherwise it SETs it to its answer with PX
// the latch's TTL. So an unlock run again with the same request id (a
// resend, or ServiceManager.execute's retry) answers what the first run
// did instead of decrementing the hold count twice. ID "" is an unlock
// without a latch (releases up to 3.16.8's script).
type UnlockLatch struct {
	ID string
	PX time.Duration
}

// WithLatch is the unlock command m carrying latch l.
func WithLatch(m sim.Msg, l UnlockLatch) sim.Msg {
	if l.ID != "" {
		m.Body = &l
	}
	return m
}

// latchOf is an unlock command's latch (ID "" for none).
func latchOf(m *sim.Msg) UnlockLatch {
	if l, ok := m.Body.(*UnlockLatch); ok {
		return *l
	}
	return UnlockLatch{}
}

// Wait is WAIT numreplicas timeout.
type Wait struct {
	Replicas int64
	Timeout  time.Duration
}

// Msg is the WAIT on the wire (its Seq set by the sender: the same as the
// script it follows in Redisson's batch).
func (w Wait) Msg() sim.Msg { return sim.Msg{Op: OpWait, Key: LockKey, N: w.Replicas, TTL: w.Timeout} }

// waitOf reads a WAIT.
func waitOf(m *sim.Msg) Wait { return Wait{Replicas: m.N, Timeout: m.TTL} }

// replicasMsg is a blocked WAIT's answer, n replicas, to the WAIT of
// request id seq.
func replicasMsg(seq, n int64) sim.Msg { return sim.Msg{Op: OpReplicas, Seq: seq, Key: LockKey, N: n} }

// getAckMsg is REPLCONF GETACK *.
func getAckMsg() sim.Msg { return sim.Msg{Op: OpGetAck} }

// ackMsg is REPLCONF ACK offset, and ackOf reads it.
func ackMsg(offset int64) sim.Msg { return sim.Msg{Op: OpAck, N: offset} }
func ackOf(m *sim.Msg) int64      { return m.N }

// The server reads a command's parts one at a time, where it needs them
// (copying the whole Command out of each request cost 2 % of Redlock's
// grid): valueOf, pxOf, fencedOf, and its Key.

// valueOf is a command's Value: the caller's random value.
func valueOf(m *sim.Msg) string { return m.Value }

// pxOf is a command's PX.
func pxOf(m *sim.Msg) time.Duration { return m.TTL }

// fencedOf is a command's Fenced.
func fencedOf(m *sim.Msg) bool { return m.N == 1 }

// RWLock marks a command of Redisson's RReadWriteLock (rwlock.go): the
// read lock's script or the write lock's.
type RWLock struct{ Read bool }

// WithRWLock is the lock, unlock or renewal command m as the read or the
// write lock's script.
func WithRWLock(m sim.Msg, rw RWLock) sim.Msg {
	m.Body = &rw
	return m
}

// rwLockOf is a command's read–write lock marking; ok false for RLock's.
func rwLockOf(m *sim.Msg) (RWLock, bool) {
	if rw, ok := m.Body.(*RWLock); ok {
		return *rw, true
	}
	return RWLock{}, false
}

// Reply is a server's answer: OK, nil, INT or READONLY; Token the
// fencing-token counter (on the OK to a SET or lock script); Int the
// integer reply (INT: 1 done, 0 not, -1 for the unlock script's nil), or
// the hold count on the OK to a lock script.
type Reply struct {
	Op    sim.Op
	Token int64
	Int   int64
}

// msg is the reply to request m on the wire.
func (r Reply) msg(m *sim.Msg) sim.Msg {
	return sim.Msg{Op: r.Op, Seq: m.Seq, Key: m.Key, Token: r.Token, N: r.Int}
}

// ReplyOf reads a reply.
func ReplyOf(m *sim.Msg) Reply { return Reply{Op: m.Op, Token: m.Token, Int: m.N} }

// Sentinel's wire operations (redis/redis src/sentinel.c, tag 7.0.15):
// what a Sentinel sends the servers it monitors and its peers, the
// servers' answers, and the +switch-master it publishes to the clients.
var (
	OpPing         = sim.NewOp("PING")                   // Sentinel's PING to a server, every second
	OpPong         = sim.NewOp("PONG")                   // a server's answer to PING
	OpInfo         = sim.NewOp("INFO")                   // Sentinel's INFO: the role the server reports
	OpInfoReply    = sim.NewOp("INFO-REPLY")             // a server's INFO: its role; the master it replicates
	OpIsMasterDown = sim.NewOp("IS-MASTER-DOWN-BY-ADDR") // SENTINEL is-master-down-by-addr, with a vote request during a failover
	OpMasterDown   = sim.NewOp("MASTER-DOWN-REPLY")      // its reply: down or not, and the peer's vote
	OpHello        = sim.NewOp("HELLO")                  // a Sentinel's hello: the master it knows and its config epoch
	OpReplicaOf    = sim.NewOp("REPLICAOF")              // REPLICAOF host port, or REPLICAOF NO ONE (To None)
	OpSync         = sim.NewOp("PSYNC")                  // a new replica asks its master for a full sync
	OpSwitchMaster = sim.NewOp("+switch-master")         // Sentinel's event to its subscribers (the clients): the new master
)

// Sentinel's timer kind.
var timerSentinelTick = sim.NewTimerKind("sentinelTimer") // sentinelTimer, run server.hz times a second

// Sentinel's trace kinds.
var (
	traceSentinelEvent = sim.NewTraceKind("sentinelEvent") // one of sentinelEvent's +sdown, +odown, +elected-leader...
	traceDemote        = sim.NewTraceKind("demote")        // a master turned into a replica by REPLICAOF: its dataset dropped
)

// infoReply is a server's INFO as Sentinel reads it: its role, and for a
// replica the master it replicates (None if it has none yet).
type infoReply struct {
	Role   sim.Role
	Master sim.NodeID
}

func (r infoReply) msg() sim.Msg {
	return sim.Msg{Op: OpInfoReply, N: int64(r.Role), Token: int64(r.Master)}
}

func infoReplyOf(m *sim.Msg) infoReply {
	return infoReply{Role: sim.Role(m.N), Master: sim.NodeID(m.Token)}
}

// replicaOf is REPLICAOF: To the new master, None for NO ONE.
type replicaOf struct{ To sim.NodeID }

func (r replicaOf) msg() sim.Msg { return sim.Msg{Op: OpReplicaOf, Token: int64(r.To)} }

func replicaOfOf(m *sim.Msg) replicaOf { return replicaOf{To: sim.NodeID(m.Token)} }

// switchMaster is +switch-master's new master.
type switchMaster struct{ To sim.NodeID }

func (s switchMaster) msg() sim.Msg { return sim.Msg{Op: OpSwitchMaster, Token: int64(s.To)} }

func switchMasterOf(m *sim.Msg) switchMaster { return switchMaster{To: sim.NodeID(m.Token)} }

// isMasterDown is the body of SENTINEL is-master-down-by-addr: the master
// asked about, the asker's current epoch, and the asker itself when it
// asks for a vote (a failover in progress) or None for "*".
type isMasterDown struct {
	Master sim.NodeID
	Epoch  int64
	RunID  sim.NodeID
}

// masterDownReply is its answer: down (the peer holds the master SDOWN),
// and the peer's vote for the epoch (Leader None: "*").
type masterDownReply struct {
	Down        bool
	Leader      sim.NodeID
	LeaderEpoch int64
}

// hello is a Sentinel's hello message: the master it monitors and the
// config epoch of that configuration.
type hello struct {
	Master      sim.NodeID
	ConfigEpoch int64
}
