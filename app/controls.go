package app

import (
	"fmt"
	"math"
	"strconv"
	"time"

	"github.com/lockscope/lockscope/sim"
)

// SliderSpec is one scenario parameter a slider edits: how to read it from
// a scenario, how to write it back, its range and how to show its value.
// Tabs list the keys of the sliders that apply to their mode.
type SliderSpec struct {
	Key   string
	Label string
	Tip   string
	Min   float64
	Max   float64
	Step  float64
	// Value reads the parameter; ok is false when the scenario has nothing
	// for the slider to edit (the slider is then disabled).
	Value func(sc *sim.Scenario) (v float64, ok bool)
	// Apply writes the parameter into a copy of the scenario.
	Apply func(sc *sim.Scenario, v float64)
	// Format shows a value beside the slider.
	Format func(v float64) string
}

// ToggleSpec is one on/off scenario parameter.
type ToggleSpec struct {
	Key   string
	Label string
	Tip   string
	Value func(sc *sim.Scenario) bool
	Apply func(sc *sim.Scenario, on bool)
	// Disabled says why the toggle cannot be used with the scenario ("" when
	// it can); the window then shows it greyed, with the reason as its tip.
	// Nil for a toggle that always applies.
	Disabled func(sc *sim.Scenario) string
}

// DisabledWhy is the reason the toggle is off limits for sc, "" for none.
func (t ToggleSpec) DisabledWhy(sc *sim.Scenario) string {
	if t.Disabled == nil || sc == nil {
		return ""
	}
	return t.Disabled(sc)
}

func seconds(d sim.Duration) float64 { return d.D().Seconds() }

func fromSeconds(v float64) sim.Duration {
	return sim.Duration(time.Duration(math.Round(v*1000)) * time.Millisecond)
}

// fmtSeconds shows a slider's seconds with no more digits than its step.
func fmtSeconds(v float64) string { return strconv.FormatFloat(v, 'f', -1, 64) + " s" }

// pauseLength is the length of the first pause fault, if any.
func pauseLength(sc *sim.Scenario) (time.Duration, bool) {
	for _, f := range sc.Faults {
		if f.Kind() == "pause" {
			return f.For.D(), true
		}
	}
	return 0, false
}

// Sliders is every slider a tab can show, by key.
var Sliders = map[string]SliderSpec{
	"ttl": {
		Key: "ttl", Label: "TTL", Min: 0.5, Max: 60, Step: 0.5,
		Tip: "Lock TTL: the PX of SET lock <value> NX PX <ttl>, counted by the Redis server's own clock. " +
			"Redisson's default lease (lockWatchdogTimeout) is 30 s.",
		Value:  func(sc *sim.Scenario) (float64, bool) { return seconds(sc.TTL), true },
		Apply:  func(sc *sim.Scenario, v float64) { sc.TTL = fromSeconds(v) },
		Format: fmtSeconds,
	},
	"work": {
		Key: "work", Label: "Work", Min: 0, Max: 90, Step: 0.5,
		Tip: "How long a client stays in its critical section before it writes to the shared storage. " +
			"It is execution time: a pause inside it lengthens it.",
		Value:  func(sc *sim.Scenario) (float64, bool) { return seconds(sc.Work), true },
		Apply:  func(sc *sim.Scenario, v float64) { sc.Work = fromSeconds(v) },
		Format: fmtSeconds,
	},
	"pause": {
		Key: "pause", Label: "Pause", Min: 0.5, Max: 60, Step: 0.5,
		Tip: "Length of the scenario's pause faults (a stop-the-world GC pause or SIGSTOP). " +
			"It edits the pauses the scenario has and adds none: when it has none the slider is off — " +
			"click a node in the cluster to add a pause at the cursor.",
		Value: func(sc *sim.Scenario) (float64, bool) {
			d, ok := pauseLength(sc)
			return d.Seconds(), ok
		},
		Apply: func(sc *sim.Scenario, v float64) {
			for i := range sc.Faults {
				if sc.Faults[i].Kind() == "pause" {
					sc.Faults[i].For = fromSeconds(v)
				}
			}
		},
		Format: fmtSeconds,
	},
	"latency": {
		Key: "latency", Label: "Latency", Min: 0, Max: 200, Step: 1,
		Tip: "One-way network latency of every message, plus the scenario's jitter. " +
			"A Redis request with no reply in 3 s (Redisson's default timeout) fails.",
		Value: func(sc *sim.Scenario) (float64, bool) { return sim.Ms(sc.Latency.D()), true },
		Apply: func(sc *sim.Scenario, v float64) {
			sc.Latency = sim.Duration(time.Duration(v * float64(time.Millisecond)))
		},
		Format: func(v float64) string { return fmt.Sprintf("%.0f ms", v) },
	},
	"redlockTTL": {
		Key: "redlockTTL", Label: "TTL", Min: 0.5, Max: 60, Step: 0.5,
		Tip: "The PX of SET lock <value> NX PX <ttl> on every master, counted by each master's own clock. " +
			"It also sets how long a try waits for the votes (ttl × 0.05) and the drift kept back (ttl × driftFactor + 2 ms). " +
			"redsync's default expiry is 8 s.",
		Value:  func(sc *sim.Scenario) (float64, bool) { return seconds(sc.TTL), true },
		Apply:  func(sc *sim.Scenario, v float64) { sc.TTL = fromSeconds(v) },
		Format: fmtSeconds,
	},
	"redlockLatency": {
		Key: "redlockLatency", Label: "Latency", Min: 0, Max: 1000, Step: 1,
		Tip: "One-way network latency of every message, plus the scenario's jitter. A try waits at most ttl × 0.05 " +
			"(redsync's timeoutFactor: 500 ms for a 10 s ttl) for the masters' answers, and the time the votes took " +
			"comes off the validity: past that timeout every master times out and no try succeeds.",
		Value:  func(sc *sim.Scenario) (float64, bool) { return sim.Ms(sc.Latency.D()), true },
		Apply:  func(sc *sim.Scenario, v float64) { sc.Latency = fromMs(v) },
		Format: redlockMs,
	},
	"redlockNodes": {
		Key: "redlockNodes", Label: "Masters", Min: 1, Max: sim.RedlockMaxNodes, Step: 1,
		Tip: "Independent Redis masters redis-1 … redis-N (A, B, C … in Kleppmann's article), with no replication " +
			"between them. A try needs N/2+1 yes votes, so 5 masters (the spec's example) survive 2 down; " +
			"an even N adds no tolerance.",
		Value:  func(sc *sim.Scenario) (float64, bool) { return float64(sc.Nodes), true },
		Apply:  func(sc *sim.Scenario, v float64) { sc.Nodes = int(math.Round(v)) },
		Format: func(v float64) string { return fmt.Sprintf("%.0f", v) },
	},
	"redlockDriftFactor": {
		Key: "redlockDriftFactor", Label: "Drift factor", Min: 0, Max: 0.1, Step: 0.001,
		Tip: "driftFactor: the validity keeps back ttl × driftFactor + 2 ms for clocks that run at different rates. " +
			"redsync's and the spec's default is 0.01, 102 ms of a 10 s ttl. It only covers drift that small: " +
			"a clock jump or a faster drift on a master is not covered.",
		Value:  func(sc *sim.Scenario) (float64, bool) { return sc.DriftFactor, true },
		Apply:  func(sc *sim.Scenario, v float64) { sc.DriftFactor = math.Round(v*1000) / 1000 },
		Format: func(v float64) string { return strconv.FormatFloat(math.Round(v*1000)/1000, 'f', -1, 64) },
	},
	"redlockClockDrift": {
		Key: "redlockClockDrift", Label: "Clock drift", Min: 0, Max: 0.1, Step: 0.001,
		Tip: "Every node's clock runs fast or slow by its own rate, drawn at random within ±clockDrift " +
			"(quartz drifts by tens of parts per million). Keys expire by each master's clock and the validity runs " +
			"on the client's: past the driftFactor, a master can drop a key its holder still trusts. " +
			"Click a master for a clock jump.",
		Value:  func(sc *sim.Scenario) (float64, bool) { return sc.ClockDrift, true },
		Apply:  func(sc *sim.Scenario, v float64) { sc.ClockDrift = math.Round(v*1000) / 1000 },
		Format: clockDriftFormat,
	},
	"clients": {
		Key: "clients", Label: "Clients", Min: 1, Max: 12, Step: 1,
		Tip:   "Clients contending for the lock: client-1 … client-N, each starting `stagger` after the previous one.",
		Value: func(sc *sim.Scenario) (float64, bool) { return float64(sc.Clients), true },
		Apply: func(sc *sim.Scenario, v float64) { sc.Clients = int(math.Round(v)) },
		Format: func(v float64) string {
			return fmt.Sprintf("%.0f", v)
		},
	},
	"zkSession": {
		Key: "zkSession", Label: "Session", Min: 1, Max: 60, Step: 0.5,
		Tip: "The session timeout the client asks for (Curator's default is 60 s). The server clamps it to " +
			"[2, 20] × tickTime = [4 s, 40 s] with tickTime 2000 ms, so Curator's 60 s becomes 40 s (shown as 60→40 s). " +
			"The client pings once it has sent nothing for a third of it less 1 s (2.333 s of 10 s) and is " +
			"SUSPENDED after two thirds without an answer (6.667 s of 10 s); " +
			"the leader expires a session it has not heard from for the whole timeout (at the next 2 s tick) " +
			"and deletes its ephemeral znodes.",
		Value:  func(sc *sim.Scenario) (float64, bool) { return seconds(sc.TTL), true },
		Apply:  func(sc *sim.Scenario, v float64) { sc.TTL = fromSeconds(v) },
		Format: zkSessionFormat,
	},
	"zkNodes": {
		Key: "zkNodes", Label: "Servers", Min: 1, Max: 7, Step: 1,
		Tip: "ZooKeeper servers zk-1 … zk-N in one ensemble; client-i connects to zk-((i−1) mod N)+1. " +
			"A create or delete commits once a majority (N/2+1) has logged it, so 3 servers survive one failure " +
			"and 5 survive two; an even count adds none. A server cut off from a majority stops serving its clients.",
		Value:  func(sc *sim.Scenario) (float64, bool) { return float64(sc.Nodes), true },
		Apply:  func(sc *sim.Scenario, v float64) { sc.Nodes = int(math.Round(v)) },
		Format: func(v float64) string { return fmt.Sprintf("%.0f", v) },
	},
	"zkLatency": {
		Key: "zkLatency", Label: "Latency", Min: 0, Max: 200, Step: 1,
		Tip: "One-way network latency of every message, plus the scenario's jitter. A create or delete travels " +
			"client → its server → leader, then PROPOSAL, ACKs from a majority and COMMIT before the reply: " +
			"several crossings, where a read or a ping costs one round trip.",
		Value: func(sc *sim.Scenario) (float64, bool) { return sim.Ms(sc.Latency.D()), true },
		Apply: func(sc *sim.Scenario, v float64) {
			sc.Latency = sim.Duration(time.Duration(v * float64(time.Millisecond)))
		},
		Format: func(v float64) string { return fmt.Sprintf("%.0f ms", v) },
	},
	"etcdLease": {
		Key: "etcdLease", Label: "Lease TTL", Min: 1, Max: 60, Step: 1,
		Tip: "The session's lease TTL, concurrency.WithTTL (whole seconds; NewSession's default is 60 s). " +
			"etcd raises a shorter TTL to its minimum, ceil(1.5 × election timeout) = 2 s at the default 1 s election timeout. " +
			"The session sends a keepalive every TTL/3; the leader revokes the lease, and deletes the lock key, " +
			"a TTL after the last keepalive it received.",
		Value:  func(sc *sim.Scenario) (float64, bool) { return seconds(sc.TTL), true },
		Apply:  func(sc *sim.Scenario, v float64) { sc.TTL = fromSeconds(v) },
		Format: etcdLeaseFormat,
	},
	"etcdNodes": {
		Key: "etcdNodes", Label: "Members", Min: 1, Max: 7, Step: 1,
		Tip: "etcd members etcd-1 … etcd-N in one raft group: a write commits once a majority (N/2+1) has appended it, " +
			"so 3 members survive one failure and 5 survive two; an even count adds none. " +
			"The leader heartbeats every 100 ms; a follower that hears nothing for the 1 s election timeout campaigns.",
		Value:  func(sc *sim.Scenario) (float64, bool) { return float64(sc.Nodes), true },
		Apply:  func(sc *sim.Scenario, v float64) { sc.Nodes = int(math.Round(v)) },
		Format: func(v float64) string { return fmt.Sprintf("%.0f", v) },
	},
	"etcdLatency": {
		Key: "etcdLatency", Label: "Latency", Min: 0, Max: 200, Step: 1,
		Tip: "One-way network latency of every message, plus the scenario's jitter: client calls, keepalives, watch events " +
			"and raft's appends all cross it. A call with no answer in 5 s (etcdctl's --command-timeout) fails " +
			"and is retried on the next endpoint.",
		Value: func(sc *sim.Scenario) (float64, bool) { return sim.Ms(sc.Latency.D()), true },
		Apply: func(sc *sim.Scenario, v float64) {
			sc.Latency = sim.Duration(time.Duration(v * float64(time.Millisecond)))
		},
		Format: func(v float64) string { return fmt.Sprintf("%.0f ms", v) },
	},
}

// Toggles is every toggle a tab can show, by key.
var Toggles = map[string]ToggleSpec{
	"watchdog": {
		Key: "watchdog", Label: "Watchdog",
		Tip: "Redisson's lock watchdog: while the holder runs it renews the key every TTL/3 " +
			"(10 s of the default 30 s lockWatchdogTimeout) with a compare-and-PEXPIRE back to the full TTL, " +
			"and stops when a renewal returns 0. A paused holder's watchdog is paused too.",
		Value: func(sc *sim.Scenario) bool { return sc.Watchdog },
		Apply: func(sc *sim.Scenario, on bool) { sc.Watchdog = on },
	},
	"fencing": {
		Key: "fencing", Label: "Fencing",
		Tip: "Fencing token: every grant also INCRs a counter on the master and the client writes with it; " +
			"the storage refuses a write whose token is lower than the highest it has seen.",
		Value: func(sc *sim.Scenario) bool { return sc.Fencing },
		Apply: func(sc *sim.Scenario, on bool) { sc.Fencing = on },
	},
	"redlockWatchdog": {
		Key: "redlockWatchdog", Label: "Watchdog",
		Tip: "While it holds the lock the client extends it every ttl/3, Redisson's watchdog period: PEXPIRE lock <ttl> on all masters if the value " +
			"is still its own (redsync's Mutex.Extend). The extension counts only on a majority and with a positive " +
			"validity measured over the extension itself; otherwise the holder stops believing. A paused holder extends nothing.",
		Value: func(sc *sim.Scenario) bool { return sc.Watchdog },
		Apply: func(sc *sim.Scenario, on bool) { sc.Watchdog = on },
	},
	"redlockFencing": {
		Key: "redlockFencing", Label: "Fencing",
		Tip:   "A fencing token the storage checks: Redlock has none to give.",
		Value: func(sc *sim.Scenario) bool { return sc.Fencing },
		Apply: func(sc *sim.Scenario, on bool) { sc.Fencing = on },
		Disabled: func(sc *sim.Scenario) string {
			return refusal(sc, func(c *sim.Scenario) { c.Fencing = true })
		},
	},
	"redlockSequential": {
		Key: "redlockSequential", Label: "Sequential",
		Tip: "Ask the masters one after another, each with the ttl × 0.05 timeout, as step 2 of the Redlock spec " +
			"describes. Off: all at once under one timeout, as go-redsync does; then the votes take one round trip " +
			"instead of N, and less comes off the validity.",
		Value: func(sc *sim.Scenario) bool { return sc.Sequential },
		Apply: func(sc *sim.Scenario, on bool) { sc.Sequential = on },
	},
	"replica": {
		Key: "replica", Label: "Replica",
		Tip: "redis-2 replicates redis-1 asynchronously: each write is shipped after it is applied. " +
			"A failover fault (click redis-1) promotes the replica; writes not yet shipped are lost.",
		Value: func(sc *sim.Scenario) bool { return sc.Replica },
		Apply: func(sc *sim.Scenario, on bool) { sc.Replica = on },
	},
	"zkHerd": {
		Key: "zkHerd", Label: "Herd",
		Tip: "The naive recipe: every waiter lists /locks/mylock with a watch on its children and lists again at " +
			"every change, so each create and each delete wakes every waiter — notifications grow with the square " +
			"of the queue (16 against 4 for five clients in zk-herd). Off: Curator's InterProcessMutex, a watch " +
			"on the znode just before one's own, so a release wakes exactly one waiter.",
		Value: func(sc *sim.Scenario) bool { return sc.Herd },
		Apply: func(sc *sim.Scenario, on bool) { sc.Herd = on },
	},
	"zkRespectSuspended": {
		Key: "zkRespectSuspended", Label: "Stop on SUSPENDED",
		Tip: "respectSuspended: the application's ConnectionStateListener, as Curator's documentation advises. " +
			"When the connection goes SUSPENDED the holder stops its work and writes nothing; RECONNECTED in the same " +
			"session means it still holds the lock; LOST means it gave it up. Off (most InterProcessMutex code): " +
			"the holder keeps working after its session expired and writes over the next holder (CURATOR-206).",
		Value: func(sc *sim.Scenario) bool { return sc.RespectSuspended },
		Apply: func(sc *sim.Scenario, on bool) { sc.RespectSuspended = on },
	},
	"zkFencing": {
		Key: "zkFencing", Label: "Fencing",
		Tip: "The fencing token is the holder's znode sequence number (the 10 digits after lock-), which only grows; " +
			"the storage refuses a write whose token is lower than the highest it has seen. " +
			"ZooKeeper needs no extra counter: the sequence comes with the znode.",
		Value: func(sc *sim.Scenario) bool { return sc.Fencing },
		Apply: func(sc *sim.Scenario, on bool) { sc.Fencing = on },
	},
	"etcdHerd": {
		Key: "etcdHerd", Label: "Herd",
		Tip: "Every waiter watches the whole prefix /locks/mylock/ and re-reads it on every change, instead of " +
			"watching only the key created just before its own (concurrency.Mutex's waitDeletes): " +
			"each unlock then wakes every waiter. The metrics count the watch notifications.",
		Value: func(sc *sim.Scenario) bool { return sc.Herd },
		Apply: func(sc *sim.Scenario, on bool) { sc.Herd = on },
	},
	"etcdFencing": {
		Key: "etcdFencing", Label: "Fencing",
		Tip: "The data lives in etcd and the holder writes it with Txn(If(mutex.IsOwner()).Then(Put(...))): " +
			"the put applies only while CreateRevision(myKey) == myRev. The fencing token is that create revision; " +
			"a holder whose lease expired finds its key gone (revision 0) and its write refused.",
		Value: func(sc *sim.Scenario) bool { return sc.Fencing },
		Apply: func(sc *sim.Scenario, on bool) { sc.Fencing = on },
	},
}
