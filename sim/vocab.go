package sim

import (
	"fmt"
	"math"
	"strconv"
	"sync/atomic"
)

// vocabulary holds the names of a named integer type whose values the
// core declares as constants and a design declares once, in a
// package-level var (Op with NewOp, TimerKind with NewTimerKind,
// TraceKind with NewTraceKind, Role with NewRole), as raftpb's
// MessageType is a number with a name: a value is a small integer, cheap
// to copy and compare, and keeps its name for String. One name is one
// value wherever it is declared: two designs' "OK" are the same Op, as
// they were the same string, so no two designs need to agree on numbers.
type vocabulary struct {
	kind  string   // the type's name, for a number no declaration gave
	names []string // by value; names[0] is the zero value's, ""
}

// sealed is set when the first run is built: from then on runs read the
// names, possibly on several goroutines, and a declaration is a mistake.
var sealed atomic.Bool

// seal ends the declarations; every run's build calls it.
func seal() {
	if !sealed.Load() {
		sealed.Store(true)
	}
}

// declare returns the value of name, the next one the first time the
// name is declared. Package initialisation calls it, before any run.
func (v *vocabulary) declare(name string) uint16 {
	if sealed.Load() {
		panic("sim: " + v.kind + " " + strconv.Quote(name) + " declared after a run started: declare it in a package-level var")
	}
	if i, ok := v.lookup(name); ok {
		return i
	}
	if len(v.names) > math.MaxUint16 {
		panic("sim: too many values of " + v.kind)
	}
	v.names = append(v.names, name)
	return uint16(len(v.names) - 1)
}

// lookup is the value of a declared name.
func (v *vocabulary) lookup(name string) (uint16, bool) {
	for i, n := range v.names {
		if n == name {
			return uint16(i), true
		}
	}
	return 0, false
}

// name is value i's name.
func (v *vocabulary) name(i uint16) string {
	if int(i) < len(v.names) {
		return v.names[i]
	}
	return v.kind + "(" + strconv.Itoa(int(i)) + ")"
}

// Op names the kind of a message: SET, MsgApp, a ZooKeeper create. The
// core's storage ops are constants (sim/messages.go); a design declares
// its own in one place, its messages.go, with NewOp in a package-level
// var, and compares only those. The engine never reads an Op but to
// print it in the trace and on a message in flight. The zero Op, NoOp,
// is no message ("nothing pending").
type Op uint16

var ops = vocabulary{kind: "Op", names: []string{OpRead: "READ", OpWrite: "WRITE", OpReadOK: "VALUE", OpWriteOK: "STORED"}}

// NewOp declares the op named name (its String, in the trace and on the
// wire picture); declared again, the name gives the same Op. Call it only
// to initialise a package-level var.
func NewOp(name string) Op { return Op(ops.declare(name)) }

// String is the op's name.
func (o Op) String() string { return ops.name(uint16(o)) }

// TimerKind names what a timer is for. As with Op, the core's are
// constants, a design declares its own with NewTimerKind in its
// messages.go; the engine only hands them back.
type TimerKind uint16

var timerKinds = vocabulary{kind: "TimerKind", names: []string{timerWork: "work", timerThink: "think",
	TimerRetry: "retry", timerWrite: "sendwrite", storageRT: "storage", timerScript: "script"}}

// NewTimerKind declares the timer kind named name; declared again, the
// name gives the same kind. Call it only to initialise a package-level
// var.
func NewTimerKind(name string) TimerKind { return TimerKind(timerKinds.declare(name)) }

// String is the kind's name.
func (k TimerKind) String() string { return timerKinds.name(uint16(k)) }

// Role is what a server is in its design, as the cluster view writes it
// under its name: master or replica, leader, follower, candidate,
// looking. The storage node's is the core's RoleStorage; a client has
// none, NoRole. A design declares its roles with NewRole.
type Role uint16

var roles = vocabulary{kind: "Role", names: []string{RoleStorage: StorageName}}

// NewRole declares the role named name; declared again (by another
// design), the name gives the same role. Call it only to initialise a
// package-level var.
func NewRole(name string) Role { return Role(roles.declare(name)) }

// String is the role's name (the word the window translates).
func (r Role) String() string { return roles.name(uint16(r)) }

// TraceKind is the kind of a trace event: a message sent, a fault, a
// grant, a design's protocol step (raft, election, watchdog). The core's
// are constants (sim/trace.go); a design declares its own with
// NewTraceKind in its messages.go. The trace files write its name.
type TraceKind uint16

var traceKinds = vocabulary{kind: "TraceKind", names: []string{TraceSend: "send", TraceRecv: "recv", TraceDrop: "drop",
	TraceStart: "start", TraceResume: "resume", TraceFault: "fault", TraceHeal: "heal", TraceChange: "change",
	TraceGrant: "grant", TraceUnheld: "unheld", TraceGiveUp: "giveup", TraceRead: "read", TraceWrite: "write",
	TraceScript: "script"}}

// NewTraceKind declares the trace kind named name; declared again (by
// the core or another design), the name gives the same kind. Call it only
// to initialise a package-level var.
func NewTraceKind(name string) TraceKind { return TraceKind(traceKinds.declare(name)) }

// ParseTraceKind is the kind a trace file names; false for a name no
// package declared.
func ParseTraceKind(name string) (TraceKind, bool) {
	k, ok := traceKinds.lookup(name)
	return TraceKind(k), ok
}

// String is the kind's name, as the trace files write it.
func (k TraceKind) String() string { return traceKinds.name(uint16(k)) }

// MarshalText writes the kind's name, so a trace's JSON lines read as
// they did when the kind was a string.
func (k TraceKind) MarshalText() ([]byte, error) { return []byte(k.String()), nil }

// UnmarshalText reads a kind's name back.
func (k *TraceKind) UnmarshalText(b []byte) error {
	v, ok := ParseTraceKind(string(b))
	if !ok {
		return fmt.Errorf("unknown trace kind %q", b)
	}
	*k = v
	return nil
}
