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
	// Design is the design's own part, in its own type (the mode's View
	// fills it); the design's widget asserts the type it draws, so a new
	// design adds no field here.
	Design DesignView
}

// DesignView is a design's own part of a snapshot: its keys and servers,
// its tally of votes, its znode tree or its keyspace.
type DesignView interface {
	// DesignName is the mode whose View made it.
	DesignName() string
}

// DesignOf is the snapshot's design view if it is a V: how a design's
// widget (or test) takes its own part, and nothing when the snapshot is
// nil or another design's.
func DesignOf[V DesignView](s *Snapshot) (V, bool) {
	var none V
	if s == nil || s.Design == nil {
		return none, false
	}
	v, ok := s.Design.(V)
	return v, ok
}

// ClientState is where a client is in its lock loop.
type ClientState string

// The client states every mode reports.
const (
	StateIdle    ClientState = "idle"
	StateWaiting ClientState = "waiting"
	StateHolding ClientState = "holding"
	StateDone    ClientState = "done"
	// StateTold is a holder its library told it may have lost the lock
	// (Curator's SUSPENDED or LOST, etcd's Session.Done()): it no longer
	// believes it holds the lock, and works on to its next check.
	StateTold ClientState = "told"
)

// The core's roles; a design declares its own with NewRole.
const (
	NoRole      Role = iota // a client's
	RoleStorage             // the storage node's, named StorageName
)

// NodeView is one node as drawn in the cluster view.
type NodeView struct {
	Name    string
	Client  bool
	Role    Role          // master, replica, leader, follower, candidate; NoRole for clients
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
	// Holds is a holder's hold count as its library counts re-entries
	// (2 inside a nested section of its own lock, 1 outside it); 0 where
	// the library keeps no count or the client holds nothing.
	Holds int
	// HoldWords is what the holder's library makes of its re-entry, said
	// after its state on the state panel (a hold count, or a lock its
	// inner unlock released); empty for nothing to say.
	HoldWords Words
	// Shared says the holder's current or last grant is a read hold of a
	// read–write lock (Grant.Shared): its box says it holds the read lock.
	Shared bool
	// Candidate says the client runs for leader (Elects): its box says it
	// leads, or waits to, rather than holding the lock.
	Candidate bool
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
func (w Words) Term(name, word string) Words {
	if w.Terms == nil {
		w.Terms = map[string]string{}
	}
	w.Terms[name] = word
	return w
}

// part adds a placeholder whose value is another sentence, said in the
// same language as the one around it.
func (w Words) Part(name string, p Words) Words {
	if w.Parts == nil {
		w.Parts = map[string]Words{}
	}
	w.Parts[name] = p
	return w
}

// asIs is text the window shows as the simulator wrote it, in every
// language: an error string etcd itself returns.
func AsIs(text string) Words { return say("note.asIs", "text", text) }

// clone copies the maps, so a snapshot shares nothing with the run.
func (w Words) Clone() Words {
	c := Words{Key: w.Key, Args: maps.Clone(w.Args), Terms: maps.Clone(w.Terms)}
	for name, p := range w.Parts {
		c = c.Part(name, p.Clone())
	}
	return c
}

// Watch is a waiting client's watch on what it waits behind: the znode
// before its own (or the parent, herd-style) in ZooKeeper, the key of the
// previous revision in etcd.
type Watch struct {
	Client string
	Path   string
}

// MessageView is a message on the wire.
type MessageView struct {
	From, To  int // indexes into Snapshot.Nodes
	Op        Op
	SentAt    time.Duration
	DeliverAt time.Duration
}

// Label is the short text drawn on the message: its op's name.
func (m MessageView) Label() string { return m.Op.String() }

// Snapshot captures the run's state now.
func (s *Sim) Snapshot() *Snapshot {
	snap := &Snapshot{Mode: s.Scenario.Mode, Name: s.Scenario.Name, At: s.now, End: s.end}
	snap.Nodes = make([]NodeView, len(s.Nodes))
	elects := Elects(s.Scenario)
	for i, n := range s.Nodes {
		v := NodeView{Name: n.Name, Client: n.Client, Wall: n.Clock.Wall(s.now),
			Paused: n.Paused, Resume: n.PauseEnd, Crashed: n.Crashed}
		v.Skew = v.Wall - s.now
		if n.Client {
			v.State = StateIdle
			switch {
			case s.Check.Holding(NodeID(i)):
				v.State = StateHolding
			case s.Check.Told(NodeID(i)):
				v.State = StateTold
			case s.Check.Asking(NodeID(i)):
				v.State = StateWaiting
			}
			v.Token = s.Check.Token(NodeID(i))
			v.Shared = s.Check.Shared(NodeID(i))
			v.Candidate = elects
		}
		if n.Storage {
			v.Role = RoleStorage
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
			Op: e.msg.Op, SentAt: e.sentAt, DeliverAt: e.at})
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
