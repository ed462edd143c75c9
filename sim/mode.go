package sim

import (
	"fmt"
	"sort"
	"strings"
)

// Mode is one lock design. It names its servers and builds the processes of
// a scenario; the engine runs them without knowing the protocol.
type Mode interface {
	// Name is the scenario's "mode" value.
	Name() string
	// Defaults overrides the shared defaults with the mode's own.
	Defaults(sc *Scenario)
	// Validate checks the values of the fields the design reads (a range
	// of nodes); the error names the field. The fields it does not read
	// are refused from its Traits, in one place (refuseUnread).
	Validate(sc *Scenario) error
	// Servers lists the server node names in order.
	Servers(sc *Scenario) []string
	// NewServer builds server i (0-based) of the scenario.
	NewServer(sc *Scenario, i int) Process
	// NewClient builds client i (0-based) of the scenario.
	NewClient(sc *Scenario, i int) Process
	// CanFailover says whether a failover fault may name this node.
	CanFailover(sc *Scenario, node string) error
	// Failover performs a failover fault on the named node.
	Failover(s *Sim, node NodeID)
	// View fills the mode's part of a snapshot (snap.Design, the nodes'
	// details).
	View(s *Sim, snap *Snapshot)
	// Traits describes the design to the rest of the program, which asks
	// it instead of comparing its name.
	Traits() Traits
}

// Traits is what a design tells the window, the command line and the
// fault search about itself, so that none of them names a design.
type Traits struct {
	// Place is where the design comes in the window's tabs, the preset
	// list and every listing of designs (ModeNames): lower first, each
	// design its own. A mode without one (a test's) runs when named but is
	// not listed.
	Place int
	// LeaseWord is what the design calls the scenario's ttl: "ttl" (a
	// key's TTL), "session" (a session timeout) or "lease" (a lease TTL).
	// The window's words for it are keyed by it.
	LeaseWord string
	// ServerWord is what it calls its servers: "servers", "masters" or
	// "members".
	ServerWord string
	// Token is the fencing token its grants carry.
	Token FencingToken
	// Validity says its grants carry the validity the client worked out
	// (the summary reports it with each grant).
	Validity bool
	// ClientQuorum says the client itself counts a majority of
	// independent servers: no server alone knows who holds the lock.
	ClientQuorum bool
	// FencedValueInService says that with fencing on the protected value
	// lives in the lock service itself: the holder writes it in a
	// transaction the service applies only while the lock is still the
	// holder's (etcd's Txn comparing the lock key's create revision,
	// Mutex.IsOwner()), so the check is made where the write lands and
	// the storage node is not used. Without fencing the value is in the
	// storage node, as for every design.
	FencedValueInService bool
	// Options are the settings the design declares for itself, in the
	// order the scenario file writes them (sim.NewBool, NewInt, NewFloat,
	// NewDuration, in the design's own folder): its scenarios' values of
	// them, the file's members, changes, sweeps and the window's controls
	// derive from them. A scenario that sets another design's option is
	// refused (Option.Elsewhere).
	Options []*Option
	// Fields are the fields every scenario has that only some designs
	// read (designFields: fencing) that this one reads. Any other of
	// those fields a scenario sets is refused.
	Fields []string
	// Elects, when set, says a scenario's clients are candidates in a
	// leader election rather than clients taking a lock in turn (the
	// Kubernetes Lease always; ZooKeeper's and etcd's "use": "election"):
	// the window and the summary then speak of leaders (Elects).
	Elects func(sc *Scenario) bool
	// LeadsOnce, when set, makes an election's leaders of sc lead once
	// and step down, for a sweep's "one round each" (sweep.Base), where
	// sc has them lead until they fail (client-go's default, leadPeriods
	// 0): otherwise the first leader leads to the end of every run, the
	// others never have their turn and no run settles before its end. It
	// returns the periods of work a leader leads, 0 where sc's clients
	// take a lock (the function LeadsOnce).
	LeadsOnce func(sc *Scenario) (periods int)
	// Refusals are the design's own words for refusing a field or another
	// design's option it does not read, by key; one it has no words for is
	// refused in the field's or the option's own, and one with neither is
	// a mistake RegisterMode reports.
	Refusals map[string]error
}

// FencingToken is the kind of token a design's grants carry.
type FencingToken int

const (
	// NoToken: the lock values are not ordered, so a storage has nothing
	// to fence with.
	NoToken FencingToken = iota
	// TokenWhenFencing: the client takes an ordered token only when
	// fencing is on (a counter it increments).
	TokenWhenFencing
	// TokenAlways: every grant has an ordered token (a sequence number, a
	// revision), fencing or not.
	TokenAlways
)

// Reads says whether the design reads one of the fields only some designs
// read, or declares an option of that key.
func (t Traits) Reads(field string) bool {
	if contains(t.Fields, field) {
		return true
	}
	for _, o := range t.Options {
		if o.Key == field {
			return true
		}
	}
	return false
}

// HasTokens says whether grants carry a token worth showing, with fencing
// on or off.
func (t Traits) HasTokens(fencing bool) bool {
	return t.Token == TokenAlways || (t.Token == TokenWhenFencing && fencing)
}

// LeadsOnce makes sc's leaders lead once (Traits.LeadsOnce) and returns
// the periods they lead; 0, and sc unchanged, where its clients take a
// lock.
func LeadsOnce(sc *Scenario) (periods int) {
	t := TraitsOf(sc.Mode)
	if t.LeadsOnce == nil || t.Elects == nil || !t.Elects(sc) {
		return 0
	}
	return t.LeadsOnce(sc)
}

// LeadPeriodsOnce is a Traits.LeadsOnce for a design whose leaders lead
// the periods o counts, 0 for until they fail: one period where it is 0.
func LeadPeriodsOnce(o IntOption) func(sc *Scenario) int {
	return func(sc *Scenario) int {
		if o.Of(sc) == 0 {
			o.Set(sc, 1)
		}
		return o.Of(sc)
	}
}

// Elects reports whether sc's clients elect a leader (Traits.Elects).
func Elects(sc *Scenario) bool {
	t := TraitsOf(sc.Mode)
	return t.Elects != nil && t.Elects(sc)
}

// TraitsOf is the traits of a registered mode; the zero Traits for a name
// no mode has.
func TraitsOf(mode string) Traits {
	if m, ok := modes[mode]; ok {
		return m.Traits()
	}
	return Traits{}
}

var modes = map[string]Mode{}

// AddMode makes a design's simulator side available to scenarios. The list
// of designs (package designs) calls it for each of its entries at start,
// before any scenario is read; no design adds itself. It refuses a mode
// without a name, a name or a place taken, and a design whose options cannot
// be bound or that would refuse a field or option without words for it.
func AddMode(m Mode) error {
	if m == nil || m.Name() == "" {
		return fmt.Errorf("sim: a mode without a name")
	}
	if _, dup := modes[m.Name()]; dup {
		return fmt.Errorf("sim: mode registered twice: %s", m.Name())
	}
	if place := m.Traits().Place; place != 0 {
		for _, o := range modes {
			if o.Traits().Place == place {
				return fmt.Errorf("sim: modes %s and %s both take place %d", o.Name(), m.Name(), place)
			}
		}
	}
	set, fresh, err := bindOptions(m)
	if err == nil {
		err = checkRefusals(m, set, fresh)
	}
	if err != nil {
		return fmt.Errorf("sim: %w", err)
	}
	registerOptions(set, fresh)
	modes[m.Name()] = m
	return nil
}

// RegisterMode is AddMode for a mode that cannot fail (a test's): it panics
// with AddMode's error.
func RegisterMode(m Mode) {
	if err := AddMode(m); err != nil {
		panic(err.Error())
	}
}

// ModeNames lists the registered designs in the order of their places
// (Traits.Place): the order of the window's tabs and of every listing.
func ModeNames() []string {
	out := make([]string, 0, len(modes))
	for n, m := range modes {
		if m.Traits().Place > 0 {
			out = append(out, n)
		}
	}
	sort.Slice(out, func(i, j int) bool { return modes[out[i]].Traits().Place < modes[out[j]].Traits().Place })
	return out
}

// LookupMode finds a registered mode by name.
func LookupMode(name string) (Mode, error) {
	m, ok := modes[name]
	if !ok {
		return nil, fmt.Errorf("unknown mode %q (one of %s)", name, strings.Join(ModeNames(), ", "))
	}
	return m, nil
}

func contains(xs []string, x string) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}

// Process is a client or server: a state machine the engine drives. It owns
// no goroutine and reads no clock but the one its Ctx gives it.
type Process interface {
	// Start is called when the node boots: at its start time, and again
	// after a restart.
	Start(ctx Ctx)
	// Receive handles one message delivered to the node. m is the message
	// where it lies in the event queue (a message is the commonest event,
	// and copying its 112 bytes into every call was a tenth of a Redlock
	// sweep): read it during the call, never change or keep it.
	Receive(ctx Ctx, from NodeID, m *Msg)
	// Fire handles a timer the process set.
	Fire(ctx Ctx, t Timer)
	// Crash drops volatile state (sessions, pending requests, in-memory
	// keys); durable state is kept until Restart decides.
	Crash(ctx Ctx)
	// Restart boots a crashed node again; persist says whether durable
	// state (AOF with fsync always, a ZooKeeper/etcd log) survived.
	Restart(ctx Ctx, persist bool)
	// Clone deep-copies the process for checkpoints.
	Clone() Process
}

// Background is a process some of whose messages change nothing a client
// believes or a server stores about the lock: a session's pings, raft's
// heartbeats, an append with nothing in it, consensus on a transaction no
// lock reads. Playback draws them crossing without slowing for them
// (pacing.go); the answer to one, sent the instant it arrives, is judged
// with it. A process without the method has no such messages.
type Background interface {
	// Background says whether m, which the process is sending now, is
	// one of them.
	Background(m *Msg) bool
}

// Sized is a process whose state grows with the run (a replicated log, a
// key's history): it says how many bytes a checkpoint of it holds of its
// own, so that a recording spaces its checkpoints within its memory budget
// and refuses up front a run that cannot fit.
type Sized interface {
	Footprint() int
}

// Idler is a process whose Tick timers mostly fire for nothing (a raft
// follower's tick counts towards an election timeout that a heartbeat keeps
// putting off): the engine lets it say so instead of calling Fire, and sets
// the timer again itself, which costs a tenth of a Fire that sets it.
type Idler interface {
	// FireIdle is offered a Tick timer t when it comes due, in Fire's place.
	// When Fire would change only the process's own fields, send nothing,
	// draw nothing, set nothing but t again after the same period, and end
	// by setting it (with Ctx.Tick), FireIdle makes those changes and
	// reports true; the engine then sets t again as that Tick would have.
	// Otherwise it changes nothing and reports false, and Fire runs.
	FireIdle(ctx Ctx, t Timer) bool
}
