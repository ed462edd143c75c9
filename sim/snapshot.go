package sim

import (
	"maps"
	"sort"
	"time"
)

// Snapshot is the state of a run at one instant, everything a widget needs
// to draw it. It shares nothing with the running simulation.
type Snapshot struct {
	Mode     string
	Name     string
	At       time.Duration
	End      time.Duration
	Nodes    []NodeView
	InFlight []MessageView
	// Cuts lists the active partitions: for each, the group number of every
	// node in Nodes order (nodes in different groups cannot talk).
	Cuts    [][]int
	Metrics Summary

	Redis   *RedisView   // mode "redis"
	Redlock *RedlockView // mode "redlock"
	ZK      *ZKView      // mode "zookeeper"
	Etcd    *EtcdView    // mode "etcd"
}

// ClientState is where a client is in its lock loop.
type ClientState string

// The client states every mode reports.
const (
	StateIdle    ClientState = "idle"
	StateWaiting ClientState = "waiting"
	StateHolding ClientState = "holding"
	StateDone    ClientState = "done"
)

// NodeView is one node as drawn in the cluster view.
type NodeView struct {
	Name    string
	Client  bool
	Role    string        // master, replica, leader, follower, candidate; empty for clients
	Wall    time.Duration // the node's wall clock reading
	Skew    time.Duration // wall clock minus true time
	Paused  bool
	Resume  time.Duration // when a pause ends
	Crashed bool
	State   ClientState // clients only
	Token   int64       // the token of the current or last grant
	Session string      // zookeeper: CONNECTED / SUSPENDED / LOST; etcd: lease state
	Detail  string      // a short mode-specific note
	// DetailWords is Detail as a translation key and its figures, so the
	// window can say it in the reader's language; Detail stays English.
	DetailWords Words
}

// Words is a sentence the simulator states as data: a key of
// assets/translations and the values of its placeholders. The simulator
// cannot use the lookup (the lookup's package embeds the presets it
// parses), so it keeps its English for traces and tests and hands the
// window this to say the same in the reader's language.
type Words struct {
	Key   string            // "" when there is nothing to say
	Args  map[string]string // figures and names, shown as they are
	Terms map[string]string // simulator vocabulary (a phase), shown as its "term.<word>"
	Parts map[string]Words  // placeholders that are sentences of their own (the reason a client gave up)
}

// say is the Words of key with args given as name, value pairs.
func say(key string, args ...string) Words {
	w := Words{Key: key, Args: make(map[string]string, len(args)/2)}
	for i := 0; i+1 < len(args); i += 2 {
		w.Args[args[i]] = args[i+1]
	}
	return w
}

// term adds a placeholder whose value is a word of the simulator's own
// vocabulary, translated as "term.<word>".
func (w Words) term(name, word string) Words {
	if w.Terms == nil {
		w.Terms = map[string]string{}
	}
	w.Terms[name] = word
	return w
}

// part adds a placeholder whose value is another sentence, said in the
// same language as the one around it.
func (w Words) part(name string, p Words) Words {
	if w.Parts == nil {
		w.Parts = map[string]Words{}
	}
	w.Parts[name] = p
	return w
}

// asIs is text the window shows as the simulator wrote it, in every
// language: an error string etcd itself returns.
func asIs(text string) Words { return say("note.asIs", "text", text) }

// clone copies the maps, so a snapshot shares nothing with the run.
func (w Words) clone() Words {
	c := Words{Key: w.Key, Args: maps.Clone(w.Args), Terms: maps.Clone(w.Terms)}
	for name, p := range w.Parts {
		c = c.part(name, p.clone())
	}
	return c
}

// MessageView is a message on the wire.
type MessageView struct {
	From, To  int // indexes into Snapshot.Nodes
	Label     string
	SentAt    time.Duration
	DeliverAt time.Duration
}

// KeyView is a lock key as one Redis server holds it.
type KeyView struct {
	Key     string
	Owner   string        // the client whose random value is stored
	Value   string        // the random value itself
	TTL     time.Duration // the PX it was last set with
	Left    time.Duration // time to expiry by the server's own clock
	Expired bool          // past its deadline, not yet removed
	Holds   int           // Redisson's hold count; 0 for a plain SET NX key
}

// RedisServerView is one Redis server's keyspace.
type RedisServerView struct {
	Node    int // index into Snapshot.Nodes
	Role    string
	Keys    []KeyView
	Counter int64 // the fencing INCR counter
}

// RedisView is the single-instance Redis lock: master and optional replica.
type RedisView struct {
	Servers []RedisServerView
	Master  int // index into Snapshot.Nodes of the current master
}

// Vote is one master's answer to a Redlock attempt.
type Vote string

// The votes a Redlock attempt can collect from one master.
const (
	VotePending     Vote = "…"
	VoteYes         Vote = "✓"
	VoteNo          Vote = "✗"
	VoteTimeout     Vote = "⏱"
	VotePartitioned Vote = "⚡"
)

// RedlockAttempt is one client's attempt across the N masters.
type RedlockAttempt struct {
	Client  string
	Number  int
	Started time.Duration // true time of the first send
	Votes   []Vote
	Elapsed time.Duration // on the client's clock; 0 while still collecting
	Drift   time.Duration
	TTL     time.Duration
	// Wait is how long a silent master holds the try (RedlockWait).
	Wait     time.Duration
	Validity time.Duration
	Done     bool
	Success  bool
	// Phase is where the client is now: acquiring, unlocking, retrying,
	// holding, extending, writing, released, lost, gave up.
	Phase string
	// Left is the validity still left on the client's own clock while it
	// holds the lock, so the widget can shrink the bar.
	Left time.Duration
	// Renewals counts watchdog extensions that reached a majority.
	Renewals int
	// Note says in words why the attempt failed or how the hold ended.
	Note string
	// NoteWords is Note as a translation key and its figures.
	NoteWords Words
}

// RedlockView is the Redlock vote tally and the masters' keys.
type RedlockView struct {
	Quorum   int
	Masters  []RedisServerView
	Attempts []RedlockAttempt // the current or last attempt of each client
	// Sequential is true when attempts ask the masters one after another
	// (the spec's pseudo-code) instead of all at once (redsync).
	Sequential bool
}

// ZNode is one child of the lock znode.
type ZNode struct {
	Name      string
	Seq       int64
	Owner     string
	Session   int64 // the owner's session id: creating server's id in the top byte (print with %#x)
	Ephemeral bool
	Holder    bool
	Czxid     int64 // zxid of the transaction that created it
}

// ZWatch is a watch from a waiting client on a znode (or the parent).
type ZWatch struct {
	Client string
	Path   string
}

// ZKView is the ZooKeeper ensemble's lock directory.
type ZKView struct {
	Parent   string
	Leader   string
	Zxid     int64 // last committed zxid: epoch in the high 32 bits (print with %#x)
	Children []ZNode
	Watches  []ZWatch
	Epoch    int64          // the established leader's epoch
	Electing bool           // no established leader: writes stall
	Quorum   int            // servers a write needs
	Servers  []ZKServerView // in zk-1…zk-N order
	Sessions []ZSession     // the replicated session table
}

// ZKServerView is one ZooKeeper server's place in the ensemble.
type ZKServerView struct {
	Node      int    // index into Snapshot.Nodes
	Role      string // leader, follower, looking; empty when down
	Epoch     int64
	LastZxid  int64 // last transaction in its log
	Committed int64 // last transaction it has applied
	Serving   bool  // accepts client connections
}

// ZSession is a session as the ensemble knows it.
type ZSession struct {
	ID      int64
	Owner   string
	Timeout time.Duration
	Left    time.Duration // until the leader expires it; 0 without a leader
	Closing bool          // expired, its closeSession not yet committed
}

// EtcdKey is one key under the lock prefix.
type EtcdKey struct {
	Key       string
	Owner     string
	Lease     int64
	CreateRev int64
	LeaseLeft time.Duration
	Holder    bool
}

// EtcdLease is a client's session lease.
type EtcdLease struct {
	ID     int64
	Client string
	TTL    time.Duration
	Left   time.Duration
	// Frozen: no promoted leader, so no clock runs the lease down; the next
	// leader restarts it at election timeout + TTL.
	Frozen bool
	// Expired: past its expiry by the leader's clock, revoke not yet applied.
	Expired bool
}

// EtcdMember is one etcd member's raft progress, for drawing replication.
type EtcdMember struct {
	Node      int // index into Snapshot.Nodes
	Name      string
	Role      string
	Term      int64
	LastIndex int64 // last entry appended to its log
	Commit    int64
	Applied   int64
	Revision  int64 // its MVCC revision after applying
	Primary   bool  // its lessor expires leases (a promoted leader)
}

// EtcdView is the etcd keyspace under the lock prefix.
type EtcdView struct {
	Prefix   string
	Leader   string
	Revision int64
	Keys     []EtcdKey
	Leases   []EtcdLease
	Watches  []ZWatch
	Term     int64        // the raft term of the member shown
	Members  []EtcdMember // every member, in order
	// Fencing: the holder writes with a Txn guarded by Mutex.IsOwner(),
	// so the data lives in etcd (Storage) and a stale write is refused.
	Fencing bool
	Storage *EtcdStorage // the guarded writes' key; nil before the first
}

// EtcdStorage is the key the IsOwner-guarded write puts, as etcd holds it.
type EtcdStorage struct {
	Key       string
	Writer    string // the client whose write etcd applied last
	CreateRev int64
	ModRev    int64 // the revision of that write
}

// Snapshot captures the run's state now.
func (s *Sim) Snapshot() *Snapshot {
	snap := &Snapshot{Mode: s.Scenario.Mode, Name: s.Scenario.Name, At: s.now, End: s.end}
	snap.Nodes = make([]NodeView, len(s.Nodes))
	for i, n := range s.Nodes {
		v := NodeView{Name: n.Name, Client: n.Client, Wall: n.Clock.Wall(s.now),
			Paused: n.Paused, Resume: n.PauseEnd, Crashed: n.Crashed}
		v.Skew = v.Wall - s.now
		if n.Client {
			v.State = StateIdle
			switch {
			case s.Check.Holding(NodeID(i)):
				v.State = StateHolding
			case s.Check.Asking(NodeID(i)):
				v.State = StateWaiting
			}
			v.Token = s.Check.Token(NodeID(i))
		}
		if n.Storage {
			v.Role = StorageName
			v.Detail, v.DetailWords = n.Proc.(*StorageServer).detail(s.Scenario.Fencing && !valueInLockService(s.Scenario))
		}
		snap.Nodes[i] = v
	}
	// In the order they were sent (the queue's layout is no order), then
	// stably by sending instant and link.
	var flying []int32
	s.queue.each(func(ix int32, e *event) {
		if e.kind == evDeliver && e.inc == s.Nodes[e.node].inc && !s.Cut(e.from, e.node) {
			flying = append(flying, ix)
		}
	})
	sortBySeq(&s.queue, flying)
	for _, ix := range flying {
		e := &s.queue.slab[ix]
		snap.InFlight = append(snap.InFlight, MessageView{From: int(e.from), To: int(e.node),
			Label: e.msg.Label(), SentAt: e.sentAt, DeliverAt: e.at})
	}
	sort.SliceStable(snap.InFlight, func(i, j int) bool {
		a, b := snap.InFlight[i], snap.InFlight[j]
		if a.SentAt != b.SentAt {
			return a.SentAt < b.SentAt
		}
		return a.From < b.From || (a.From == b.From && a.To < b.To)
	})
	for _, p := range s.parts {
		if p.start <= s.now && s.now < p.end {
			snap.Cuts = append(snap.Cuts, append([]int(nil), p.group...))
		}
	}
	snap.Metrics = s.Check.Summary(s.now)
	s.Mode.View(s, snap)
	return snap
}
