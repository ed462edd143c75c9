package redis

import "github.com/lockscope/lockscope/sim"

// Redis wire operations: requests and the replies a server gives.
const (
	OpSet      sim.Op = "SET"     // SET key value NX PX ttl (with fencing: + INCR)
	OpCAD      sim.Op = "CAD"     // compare-and-delete script
	OpDel      sim.Op = "DEL"     // bare DEL
	OpPExpire  sim.Op = "PEXPIRE" // compare-and-PEXPIRE script (watchdog)
	OpLock     sim.Op = "LOCK"    // Redisson's lock script: a hash whose hold count a re-entry increments
	OpUnlock   sim.Op = "UNLOCK"  // Redisson's unlock script: decrements the hold count, deletes at 0
	OpOK       sim.Op = "OK"
	OpNil      sim.Op = "nil"
	OpInt      sim.Op = "INT"      // integer reply in N
	OpRepl     sim.Op = "REPL"     // replication stream entry to a replica; its body is a *replEntry
	OpReadOnly sim.Op = "READONLY" // error reply of a replica to a write
)

// Timer kinds of the Redis server and Redisson's client.
const (
	timerExpire   sim.TimerKind = "expire"   // a key's deadline on the server's wall clock; Key is the key
	timerSentinel sim.TimerKind = "sentinel" // Sentinel's promotion order reaching the replica
	timerTimeout  sim.TimerKind = "timeout"  // Redisson's client: the pending request's answer is due
	timerWatchdog sim.TimerKind = "watchdog" // Redisson's client: time to extend the lease
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
