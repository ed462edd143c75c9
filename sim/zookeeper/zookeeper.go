package zookeeper

import (
	"cmp"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/lockscope/lockscope/sim"
)

// The ZooKeeper mode: an ensemble zk-1…zk-N running Zab (FastLeaderElection,
// discovery and synchronisation, then atomic broadcast with majority acks),
// sessions kept alive by pings and expired by the leader, and clients that
// run Curator's InterProcessMutex recipe over ZooKeeper's ClientCnxn.
//
// Figures are ZooKeeper 3.8's and Curator 5's:
//   - tickTime 2000 ms; a session timeout is clamped to [2, 20]·tickTime.
//   - The client pings when it has sent nothing for readTimeout/2 − 1 s
//     (readTimeout = 2/3 of the negotiated timeout; at most every 10 s) and
//     drops the connection when it has heard nothing for readTimeout; it
//     then waits a random 0–1 s and tries the next server, giving each
//     timeout/N to answer (ClientCnxn).
//   - Followers note each session they hear from and report the set to the
//     leader in their reply to its ping, every tickTime/2; the leader
//     touches a session to expire at the tickTime boundary after
//     last-heard + timeout (ExpiryQueue.roundToNextInterval) and then
//     commits one closeSession transaction, which deletes the session's
//     ephemeral znodes.
//   - Curator reports SUSPENDED on a disconnect, RECONNECTED when the same
//     or a new session connects, and LOST when the server says the session
//     expired or when the session timeout has passed on the wall clock
//     while SUSPENDED (ConnectionStateManager.checkSessionExpiration).
//   - A follower that has heard nothing from its leader for syncLimit ticks,
//     or a leader that has not heard from a quorum for as long, stops
//     serving, closes its client connections and starts an election
//     (syncLimit 5 and initLimit 10, as zoo_sample.cfg). FastLeaderElection
//     picks the highest zxid, then the highest server id, and decides
//     finalizeWait (200 ms) after a quorum agrees: with a crash noticed at
//     once, writes stall for about 200 ms plus a few round trips.
//   - A crash is a process crash: the kernel resets its TCP connections and
//     refuses new ones, so peers and clients notice within a round trip. A
//     silent death is a partition.
//   - A server answers a session's reads and pings only after that
//     session's earlier writes (CommitProcessor keeps each session in
//     order), so a write that cannot commit also starves the pings.
//   - The run starts with an established ensemble led by zk-1 (epoch 1).
//
// The lock is Curator's InterProcessMutex (LockInternals with the
// StandardLockInternalsDriver): a protected EPHEMERAL_SEQUENTIAL create of
// /locks/mylock/_c_<guid>-lock-<seq10>, where seq is the parent's cversion
// (so deletes advance it too); after a lost create reply the client first
// looks for its _c_<guid> node. Then getChildren sorted by sequence: the
// lowest holds; otherwise getData with a watch on the node just before, and
// on NoNode or on the watch firing, list again. A waiter whose node has
// gone (its session expired) starts over. Release is a guaranteed delete.
// With herd, every waiter lists with a watch on the lock znode instead and
// lists again at every change. The fencing token is the sequence number.
//
// respectSuspended is the application's ConnectionStateListener, as
// Curator's documentation advises: on SUSPENDED the holder stops working
// and writes nothing; on RECONNECTED within the same session its znode is
// intact ("you still hold the lock"), so it is granted again and does its
// interrupted work from the start; on LOST it gives up the round. Without
// it the holder ignores connection states and writes anyway (the issue's
// CURATOR-206 case; Curator's Tech Note 10 tells the GC-pause version).

// ZooKeeper and Curator figures, named as in their configuration or source.
const (
	// TickTime is zoo.cfg's tickTime: the unit of session timeouts, of the
	// leader's session-expiry buckets and of syncLimit and initLimit.
	TickTime = 2000 * time.Millisecond
	// SyncLimit is zoo.cfg's syncLimit in ticks: how long a follower waits
	// to hear from its leader, and a leader from a quorum, before giving up.
	SyncLimit = 5
	// InitLimit is zoo.cfg's initLimit in ticks: how long a new leader and
	// its followers may take to synchronise before they elect again.
	InitLimit = 10
	// FinalizeWait is FastLeaderElection's finalizeWait: once a quorum
	// agrees on a vote, a server waits this long for a better one before it
	// decides. It sets the length of an election.
	FinalizeWait = 200 * time.Millisecond
	// MaxNotificationInterval caps FastLeaderElection's backoff between
	// two rounds of vote notifications while no quorum answers.
	MaxNotificationInterval = 60 * time.Second
	// LockPath is the lock znode under which every client queues.
	LockPath = "/locks/mylock"
	// LockName is InterProcessMutex's lock name, before the sequence.
	LockName = "lock-"
	// ProtectedPrefix starts a znode created in Curator's protected mode:
	// _c_<guid>- lets a client find its own node after a lost create reply.
	ProtectedPrefix = "_c_"
)

const (
	zkMaxSendPingInterval = 10 * time.Second        // ClientCnxn.MAX_SEND_PING_INTERVAL
	zkPingSlack           = 1000 * time.Millisecond // ClientCnxn pings 1 s early
	zkReconnectJitter     = 1000 * time.Millisecond // ClientCnxn.startConnect sleeps rand(1000) ms
	zkLeaderConnectRetry  = 100 * time.Millisecond  // Learner leaderConnectDelayDuringRetryMs
	zkEps                 = time.Microsecond        // slack when a lazy timer checks its deadline
)

// Server states, as QuorumPeer.ServerState names them.
const (
	zkLooking   = "LOOKING"
	zkFollowing = "FOLLOWING"
	zkLeading   = "LEADING"
)

// Curator connection states a client shows (its NodeView.Session).
const (
	SessionConnected = "CONNECTED"
	SessionSuspended = "SUSPENDED"
	SessionLost      = "LOST"
	// SessionClosed is a handle the client closed after its last round
	// (ZooKeeper.close()): it no longer reconnects.
	SessionClosed = "CLOSED"
)

// Mode is the design's simulator side, a value: the list of designs
// (package designs) installs it with sim.AddMode at start.
var Mode sim.Mode = zkMode{}

type zkMode struct{}

func (zkMode) Name() string { return "zookeeper" }

// zkTraits: an ensemble of servers, a session timeout, and the znode's
// sequence number as every grant's token.
var zkTraits = sim.Traits{
	Place:     3,
	LeaseWord: "session", ServerWord: "servers", Token: sim.TokenAlways,
	Options:   options,
	Fields:    []string{"fencing"},
	Elects:    Electing, // Curator's LeaderLatch
	LeadsOnce: sim.LeadPeriodsOnce(LeadPeriods),
	Refusals: map[string]error{
		"plainDel": sim.FieldErr("plainDel", sim.Say("field.zkPlainDel"), "only for redis; a zookeeper client releases by deleting its own znode"),
		"replica":  sim.FieldErr("replica", sim.Say("field.zkReplica"), "only for redis; a zookeeper ensemble replicates every write (set nodes)"),
		"watchdog": sim.FieldErr("watchdog", sim.Say("field.zkWatchdog"), "only for redis and redlock; a zookeeper session is kept alive by pings"),
	},
}

func (zkMode) Traits() sim.Traits { return zkTraits }

func (zkMode) Defaults(sc *sim.Scenario) { sc.Tries = 0 }

// Validate checks that reenter's inner section ends before the work
// does and that readers go with the lock recipe; its options are checked by their declarations (the size of the
// ensemble).
func (zkMode) Validate(sc *sim.Scenario) error {
	if err := checkNested(sc); err != nil {
		return err
	}
	return checkReadersUse(sc)
}

func (zkMode) Servers(sc *sim.Scenario) []string {
	out := make([]string, Nodes.Of(sc))
	for i := range out {
		out[i] = "zk-" + strconv.Itoa(i+1)
	}
	return out
}

func (zkMode) CanFailover(sc *sim.Scenario, node string) error {
	return sim.FieldErr("", sim.Say("field.zkFailover"), "a zookeeper ensemble elects its own leader: crash the leader instead")
}

func (zkMode) Failover(s *sim.Sim, node sim.NodeID) { s.CrashNode(node) }

func (zkMode) NewServer(sc *sim.Scenario, i int) sim.Process {
	return &zkServer{sid: i + 1, n: Nodes.Of(sc), fresh: true}
}

func (zkMode) NewClient(sc *sim.Scenario, i int) sim.Process {
	return &zkClient{idx: i, n: Nodes.Of(sc)}
}

// SessionTimeout is the timeout a server grants for a requested one:
// clamped to [minSessionTimeout, maxSessionTimeout] = [2, 20]·tickTime.
func SessionTimeout(requested time.Duration) time.Duration {
	return min(max(requested, 2*TickTime), 20*TickTime)
}

// PingInterval is how long a connected ZooKeeper client stays silent
// before it pings, for a negotiated session timeout (ClientCnxn: ping when
// idleSend reaches readTimeout/2, less 1 s once idleSend passes 1 s, and at
// least every MAX_SEND_PING_INTERVAL).
func PingInterval(timeout time.Duration) time.Duration {
	half := zkReadTimeout(timeout) / 2
	var d time.Duration
	switch {
	case half <= zkPingSlack:
		d = half
	case half-zkPingSlack > zkPingSlack:
		d = half - zkPingSlack
	default:
		d = zkPingSlack + time.Millisecond
	}
	return min(d, zkMaxSendPingInterval+time.Millisecond)
}

// zkReadTimeout is ClientCnxn's readTimeout: 2/3 of the session timeout.
func zkReadTimeout(timeout time.Duration) time.Duration { return timeout * 2 / 3 }

// zkRoundUp is ExpiryQueue.roundToNextInterval: the tick boundary after t.
func zkRoundUp(t time.Duration) time.Duration {
	return (t/TickTime + 1) * TickTime
}

func zkQuorum(n int) int { return n/2 + 1 }

func due(now, at time.Duration) bool { return now+zkEps >= at }

// zkSeqDigits is how many digits ZooKeeper gives a sequential znode's
// number (PrepRequestProcessor: String.format("%010d", parentCVersion)).
const zkSeqDigits = 10

// zkSeqOf reads the sequence number a sequential znode name ends with.
// A name ending with one of the recipes' names (seqNames) and ten
// digits, as every znode the servers create does, is read directly; any
// other name as strconv reads what follows the last of them.
func zkSeqOf(name string) int64 {
	if tail := len(name) - zkSeqDigits; endsWithSeqName(name[:max(tail, 0)]) {
		var v int64
		for i := tail; i < len(name); i++ {
			d := name[i] - '0'
			if d > 9 {
				return zkSeqParsed(name)
			}
			v = v*10 + int64(d)
		}
		return v
	}
	return zkSeqParsed(name)
}

// seqNames are the names the recipes put before a node's sequence:
// InterProcessMutex's, LeaderLatch's (latch.go) and the read–write
// lock's two (rwlock.go), which the children sort across.
var seqNames = [...]string{LockName, LatchName, ReadName, WriteName}

// endsWithSeqName reports whether s ends with one of seqNames.
func endsWithSeqName(s string) bool {
	for _, n := range seqNames {
		if strings.HasSuffix(s, n) {
			return true
		}
	}
	return false
}

func zkSeqParsed(name string) int64 {
	i, n := -1, 0
	for _, s := range seqNames {
		if j := strings.LastIndex(name, s); j > i {
			i, n = j, len(s)
		}
	}
	if i < 0 {
		return -1
	}
	v, err := strconv.ParseInt(name[i+n:], 10, 64)
	if err != nil {
		return -1
	}
	return v
}

// zkSeqName is a sequential znode's name: prefix and its number in
// zkSeqDigits digits, as fmt's %010d writes it.
func zkSeqName(prefix string, seq int64) string {
	if seq < 0 {
		return prefix + fmt.Sprintf("%010d", seq)
	}
	b := make([]byte, 0, len(prefix)+zkSeqDigits+9)
	b = append(b, prefix...)
	digits := strconv.AppendInt(nil, seq, 10)
	for range zkSeqDigits - len(digits) {
		b = append(b, '0')
	}
	return string(append(b, digits...))
}

// zkSortChildren sorts lock children by sequence, as LockInternals does;
// a name without a sequence number is left out.
func zkSortChildren(names []string) []string {
	type child struct {
		name string
		seq  int64
	}
	children := make([]child, 0, len(names))
	for _, n := range names {
		if seq := zkSeqOf(n); seq >= 0 {
			children = append(children, child{n, seq})
		}
	}
	slices.SortStableFunc(children, func(a, b child) int { return cmp.Compare(a.seq, b.seq) })
	out := make([]string, len(children))
	for i, c := range children {
		out[i] = c.name
	}
	return out
}
