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
)

// Timer kinds of the Redis server and Redisson's client.
var (
	timerExpire   = sim.NewTimerKind("expire")   // a key's deadline on the server's wall clock; Key is the key
	timerSentinel = sim.NewTimerKind("sentinel") // Sentinel's promotion order reaching the replica
	timerTimeout  = sim.NewTimerKind("timeout")  // Redisson's client: the pending request's answer is due
	timerWatchdog = sim.NewTimerKind("watchdog") // Redisson's client: time to extend the lease
	// timerReenter and timerInnerUnlock are a holder's nested section
	// (the reenter option): its second lock, then that inner unlock.
	timerReenter     = sim.NewTimerKind("reenter")
	timerInnerUnlock = sim.NewTimerKind("innerUnlock")
)

// Trace kinds of the Redis server, Sentinel and Redisson's client.
var (
	traceExpire   = sim.NewTraceKind("expire")   // a key expired on the server
	tracePromote  = sim.NewTraceKind("promote")  // the replica promoted to master
	traceSentinel = sim.NewTraceKind("sentinel") // Sentinel's verdict
	traceReenter  = sim.NewTraceKind("reenter")  // a re-entry of the holder's own lock
	traceRelease  = sim.NewTraceKind("release")  // an unlock that found the lock no longer ours
	traceResend   = sim.NewTraceKind("resend")   // a request resent after its timeout
	traceTimeout  = sim.NewTraceKind("timeout")  // a request given up
	traceWatchdog = sim.NewTraceKind("watchdog") // the watchdog's renewal
)

// replEntry is the body of an OpRepl: one entry of the replication stream,
// which the master ships right after applying a write (asynchronously, as
// Redis does). It is never changed once sent.
type replEntry struct {
	Key     string   // the key written; "" for the end of a full sync, which only carries Counter
	Counter int64    // the master's fencing-token counter
	State   redisKey // the key's state; zero (no value) when it was deleted or expired
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

// The server reads a command's parts one at a time, where it needs them
// (copying the whole Command out of each request cost 2 % of Redlock's
// grid): valueOf, pxOf, fencedOf, and its Key.

// valueOf is a command's Value: the caller's random value.
func valueOf(m *sim.Msg) string { return m.Value }

// pxOf is a command's PX.
func pxOf(m *sim.Msg) time.Duration { return m.TTL }

// fencedOf is a command's Fenced.
func fencedOf(m *sim.Msg) bool { return m.N == 1 }

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
