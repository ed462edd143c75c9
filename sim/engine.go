package sim

import (
	"cmp"
	"fmt"
	"math"
	"math/bits"
	"math/rand/v2"
	"slices"
	"strconv"
	"sync"
	"time"
)

// NodeID indexes a node in a run: clients first, then servers.
type NodeID int

// None is the NodeID of no node.
const None NodeID = -1

// TimerID identifies a pending timer so it can be cancelled.
type TimerID uint64

type eventKind uint8

const (
	evDeliver eventKind = iota
	evTimer
	evTick // a timer set with Ctx.Tick: offered to the process's FireIdle first
	evExec
	evStart
	evFault
	evResume
	evHeal
	evChange
)

// event is one scheduled happening. Ctx.Send and Sim.timer write every
// field they use by name (a field added here must be set there too): a
// message leaves the timer part as its slab entry's last event left it,
// and a timer the message part, so read only the part of the event's kind.
type event struct {
	at     time.Duration
	seq    uint64
	kind   eventKind
	node   NodeID
	inc    int // the node's incarnation when scheduled
	from   NodeID
	sentAt time.Duration
	msg    Msg
	timer  Timer
	id     TimerID
	wall   bool          // a wall-clock timer: rescheduled on clock jumps
	queued bool          // waiting in a lane (Cancel's test that a TimerID's entry is live)
	local  time.Duration // its deadline on the node's wall clock; remaining exec time when suspended; a tick's period
	fault  int
}

// Clock is a node's own time: wall = Offset + (1+Rate)·t, where Offset
// collects the jumps. Monotonic time, Step + (1+Rate)·t, runs at the same
// rate and steps only with a jump that says so (Fault.Monotonic).
type Clock struct {
	Offset time.Duration
	Rate   float64
	Step   time.Duration // the monotonic clock's steps (stepMonotonic)
}

// Wall reads the node's wall clock at true time t.
func (c Clock) Wall(t time.Duration) time.Duration {
	return c.Offset + t + time.Duration(c.Rate*float64(t))
}

// Mono reads the node's monotonic clock at true time t.
func (c Clock) Mono(t time.Duration) time.Duration {
	return c.Step + t + time.Duration(c.Rate*float64(t))
}

// trueAfter is the true time at which d has passed on this clock, from now
// (rounded up, so a timer never fires before its time by this clock).
func (c Clock) trueAfter(now, d time.Duration) time.Duration {
	if c.Rate == 0 {
		return now + d
	}
	return now + time.Duration(math.Ceil(float64(d)/(1+c.Rate)))
}

// trueAtWall is the true time at which the wall clock reads w.
func (c Clock) trueAtWall(w time.Duration) time.Duration {
	return time.Duration(float64(w-c.Offset) / (1 + c.Rate))
}

// Node is a client or server of a run, with its own clock and fault state.
type Node struct {
	Name     string
	Client   bool
	Index    int // index among clients or among servers
	Clock    Clock
	Paused   bool
	PauseEnd time.Duration
	Crashed  bool
	Storage  bool // the protected resource, not one of the mode's servers
	Proc     Process
	idler    Idler     // Proc, when it is an Idler (set with setProc)
	lazier   LazyIdler // Proc, when it is a LazyIdler
	inc      int
	backlog  []event
	held     []event       // exec timers frozen while paused
	lazy     lazyTick      // a Tick timer queued past idle firings (Sim.lazy)
	pausedAt time.Duration // when its pause began
	// resume is its pause's resume event's slab entry + 1, 0 when not
	// known (no pause, or one a second fault made longer): what
	// EndPauseAsIn moves (pausechain.go).
	resume int32
}

// partition is an active or finished network cut.
type partition struct {
	start, end time.Duration
	group      []int // group number per node
}

// ReachesAll is the partition group of the storage when a partition does
// not name it: it stays reachable from every side, so a partition written
// for the lock service cuts the lock service only (files from before the
// storage existed mean what they meant).
const ReachesAll = -1

func (p partition) cuts(a, b NodeID) bool { return PartitionCuts(p.group, int(a), int(b)) }

// PartitionCuts reports whether a partition with these groups (one per
// node) separates nodes a and b.
func PartitionCuts(group []int, a, b int) bool {
	return group[a] != group[b] && group[a] != ReachesAll && group[b] != ReachesAll
}

// Sim is one run of a scenario: a pure state machine advanced by Step, with
// a virtual clock, one seeded RNG and no goroutines, so a run replays
// byte-for-byte.
type Sim struct {
	Scenario *Scenario
	Mode     Mode
	Nodes    []Node
	Check    *Checker

	now      time.Duration
	end      time.Duration
	seq      uint64
	nextID   uint64
	queue    eventQueue
	pcg      rand.PCG
	rng      *rand.Rand
	parts    []partition
	lastSend []time.Duration // per link, to keep TCP order; nil in a clone until it sends
	sendsDue []linkSend      // a clone's lastSend: only the links still ahead of now
	byName   map[string]NodeID
	storage  NodeID
	fired    []bool // per fault: a fault tied to a client's step has struck
	steps    int
	replay   bool // a clone re-running the past: no checker, no trace
	tracing  bool
	// quiet marks a sweep's run: nothing reads its trace, its notes or its
	// views, only its checker, so the sentences a person would read are
	// not built (Ctx.Quiet). They never feed back into the protocol.
	quiet bool
	// fireEveryTick sends every Tick timer through Fire, never FireIdle:
	// set by the test that checks an idle firing changes nothing else.
	fireEveryTick bool
	idleTicks     int // Tick timers FireIdle handled
	// lazy queues a LazyIdler's Tick timers past their idle firings
	// (lazy.go): a sweep's run, whose steps nobody counts. tie says the
	// run met an instant where that could change the order of events.
	lazy      bool
	lazyNodes int // nodes with a lazy tick now
	tie       bool
	events    []TraceEvent        // what EnableTrace keeps
	sink      func(*TraceEvent)   // where the trace goes; nil when not tracing
	flying    bool                // the run keeps its flights (KeepFlights, or tracing)
	flights   Chunked[sentFlight] // every message sent, when tracing (pacing.go): in chunks, never copied as it grows
	reboots   []nodeReboot        // every crash and restart, when tracing (pacing.go)
}

// New validates the scenario and prepares a run at time 0.
func New(sc *Scenario) (*Sim, error) {
	if err := sc.Validate(); err != nil {
		return nil, err
	}
	return build(sc), nil
}

// queues recycles event queues between the runs of a sweep.
var queues = sync.Pool{New: func() any { return new(eventQueue) }}

// release hands the run's queue back for reuse; the run is unusable after.
func (s *Sim) release() {
	q := s.queue
	q.reset()
	queues.Put(&q)
	s.queue = eventQueue{}
}

// build prepares a run of a scenario already validated.
func build(sc *Scenario) *Sim {
	seal() // the vocabularies are complete: runs read their names
	m, _ := LookupMode(sc.Mode)
	s := &Sim{
		queue:    *queues.Get().(*eventQueue),
		Scenario: sc,
		Mode:     m,
		end:      sc.Duration.D(),
		byName:   map[string]NodeID{},
	}
	s.pcg = *rand.NewPCG(uint64(sc.Seed), 0x9e3779b97f4a7c15)
	s.rng = rand.New(&s.pcg)
	servers := m.Servers(sc)
	s.Nodes = make([]Node, 0, sc.Clients+len(servers)+1) // and the storage
	for i := 0; i < sc.Clients; i++ {
		s.addNode(ClientName(i), true, i, m.NewClient(sc, i))
	}
	for i, name := range servers {
		s.addNode(name, false, i, m.NewServer(sc, i))
	}
	s.storage = NodeID(len(s.Nodes))
	s.addNode(StorageName, false, len(servers), newStorage())
	s.Nodes[s.storage].Storage = true
	s.fired = make([]bool, len(sc.Faults))
	n := len(s.Nodes)
	s.lastSend = make([]time.Duration, n*n)
	for i := range s.Nodes {
		if sc.ClockDrift > 0 {
			s.Nodes[i].Clock.Rate = (s.rng.Float64()*2 - 1) * sc.ClockDrift
		}
	}
	s.Check = newChecker(s)
	for i := range s.Nodes {
		at := time.Duration(0)
		if s.Nodes[i].Client {
			at = time.Duration(s.Nodes[i].Index) * sc.Stagger.D()
		}
		s.push(event{at: at, kind: evStart, node: NodeID(i)})
	}
	for i, f := range sc.Faults {
		if f.When == "" {
			s.push(event{at: f.At.D(), kind: evFault, node: None, fault: i})
		}
	}
	for i, ch := range sc.Changes {
		s.push(event{at: ch.At.D(), kind: evChange, node: None, fault: i})
	}
	return s
}

func (s *Sim) addNode(name string, client bool, idx int, p Process) {
	s.byName[name] = NodeID(len(s.Nodes))
	s.Nodes = append(s.Nodes, Node{Name: name, Client: client, Index: idx})
	s.Nodes[len(s.Nodes)-1].setProc(p)
}

// setProc makes p the node's process, with the interfaces of it that a
// Tick timer's firing asks for, looked up once rather than at each firing.
func (n *Node) setProc(p Process) {
	n.Proc = p
	n.idler, _ = p.(Idler)
	n.lazier, _ = p.(LazyIdler)
}

// Lookup finds a node by name; None if there is no such node.
func (s *Sim) Lookup(name string) NodeID {
	if id, ok := s.byName[name]; ok {
		return id
	}
	return None
}

// StorageID is the node of the protected resource.
func (s *Sim) StorageID() NodeID { return s.storage }

// reached queues the faults tied to client id's step in its round (a
// fault's "when" and "round"), each once, at this instant: they strike
// after the step's handler, before anything it queued next (the write).
func (s *Sim) reached(id NodeID, step string, round int) {
	for i, f := range s.Scenario.Faults {
		if f.When != step || s.fired[i] || f.WhenRound() != round || s.Lookup(f.Targets()[0]) != id {
			continue
		}
		s.fired[i] = true
		s.push(event{at: s.now, kind: evFault, node: None, fault: i})
	}
}

// Servers lists the mode's server node ids in order (not the storage).
func (s *Sim) Servers() []NodeID {
	var out []NodeID
	for i := range s.Nodes {
		if !s.Nodes[i].Client && !s.Nodes[i].Storage {
			out = append(out, NodeID(i))
		}
	}
	return out
}

// Now is the true (virtual) time of the run.
func (s *Sim) Now() time.Duration { return s.now }

// End is when the run stops.
func (s *Sim) End() time.Duration { return s.end }

// Steps counts the events handled so far.
func (s *Sim) Steps() int { return s.steps }

// Done reports whether no event is left before the end of the run.
func (s *Sim) Done() bool {
	at, ok := s.queue.headAt()
	return !ok || at > s.end
}

// NextAt is the time of the next event, or End when there is none.
func (s *Sim) NextAt() time.Duration {
	if s.Done() {
		return s.end
	}
	at, _ := s.queue.headAt()
	return at
}

// Ctx returns the handle through which node id acts; modes use it for
// out-of-band actions such as a failover.
func (s *Sim) Ctx(id NodeID) Ctx { return Ctx{s: s, id: id} }

func (s *Sim) push(e event) int32 {
	ix := s.queue.reserve()
	s.queue.slab[ix] = e
	s.enqueue(ix, &s.queue.slab[ix])
	return ix
}

// enqueue queues the event e written at slab entry ix (from queue.reserve;
// e is &s.queue.slab[ix], which its writer holds), stamped with its place
// in the order (a seq greater than any queued event's, so that only the
// times need comparing) and its node's incarnation, in its place in its
// lane. It is the path of every new event, the queue's insert written
// here to save a call (and the lane's, to save another): the walks run on
// local copies of the lane's slice and head, so each step compares and
// moves without reloading the lane. A slot that belongs in the first half
// of a lane with room before its head (left by the slots taken) walks
// forward from the front and moves the earlier slots one place towards
// it: a timer set a short while ahead (a raft tick, its period on) lies
// before most of the longer timers of its lane, which the walk back would
// move.
func (s *Sim) enqueue(ix int32, e *event) {
	s.seq++
	e.seq = s.seq
	if e.node >= 0 {
		e.inc = s.Nodes[e.node].inc
	}
	q := &s.queue
	e.queued = true
	x := slot{at: e.at, seq: e.seq, ix: ix}
	l := &q.lanes[laneOf[e.kind]]
	l.makeRoom()
	w, head := l.s, l.head
	if n := len(w); head > 0 && n-head > 2 && x.at < w[head+(n-head)/2].at {
		i := head
		for w[i].at <= x.at {
			w[i-1] = w[i]
			i++
		}
		w[i-1] = x
		l.head = head - 1
		return
	}
	w = append(w, x)
	l.s = w
	i := len(w) - 1
	for i > head && x.at < w[i-1].at {
		w[i] = w[i-1]
		i--
	}
	w[i] = x
}

// Step handles the next event; it returns false when the run is over.
func (s *Sim) Step() bool {
	if s.step(s.end) {
		return true
	}
	if s.now < s.end {
		s.now = s.end
	}
	return false
}

// step handles the next event at or before limit, skipping events that no
// longer matter (cancelled timers, a dead incarnation's); false if none.
func (s *Sim) step(limit time.Duration) bool {
	for {
		// The event is handled where it lies in the slab; its entry is
		// not reused before done, and a slab that grows meanwhile leaves
		// the old copy readable.
		ix, ok := s.queue.takeUpTo(limit)
		if !ok {
			return false
		}
		counted := s.handle(&s.queue.slab[ix])
		s.queue.done(ix)
		if counted {
			s.steps++
			return true
		}
	}
}

// RunUntil handles every event at or before t and leaves the clock at t.
func (s *Sim) RunUntil(t time.Duration) {
	t = min(t, s.end)
	for s.step(t) {
	}
	if t > s.now {
		s.now = t
	}
}

// Run runs to the end and returns the summary.
func (s *Sim) Run() Summary {
	for s.Step() {
	}
	return s.Check.Summary(s.end)
}

// handle processes one popped event and reports whether it counted.
func (s *Sim) handle(e *event) bool {
	var n *Node // the event's node; nil for a fault, change or heal
	if e.node >= 0 {
		n = &s.Nodes[e.node]
		if e.kind != evStart && e.kind != evResume && e.inc != n.inc {
			return false // scheduled by an earlier incarnation
		}
		if n.Crashed && e.kind != evResume {
			if e.kind == evDeliver {
				s.now = e.at
				if s.tracing {
					s.traceSaid(e.node, TraceDrop, e.msg.Op.String(), e.from, "node is down", say("note.drop.down"))
				}
				return true
			}
			return false
		}
		if s.lazyNodes > 0 && n.lazy.p != nil {
			if e.kind == evTick && &s.queue.slab[n.lazy.ix] == e {
				s.takeLazy(e.node, e)
			} else if !n.Paused && e.at-n.lazy.last >= n.lazy.step {
				s.catchUp(e.node, e.at)
			}
		}
		if n.Paused {
			switch e.kind {
			case evDeliver, evTimer, evTick, evStart:
				n.backlog = append(n.backlog, *e)
				return false
			case evExec:
				h := *e
				h.local = e.at - s.now
				n.held = append(n.held, h)
				return false
			}
		}
	}
	s.now = e.at
	switch e.kind {
	case evDeliver:
		if len(s.parts) > 0 && s.cutSince(e.from, e.node, e.sentAt) {
			if s.tracing {
				s.traceSaid(e.node, TraceDrop, e.msg.Op.String(), e.from, "partitioned", say("note.drop.partitioned"))
			}
			return true
		}
		s.traceOp(e.node, TraceRecv, e.msg.Op, e.from)
		n.Proc.Receive(s.Ctx(e.node), e.from, &e.msg)
	case evTimer, evExec:
		n.Proc.Fire(s.Ctx(e.node), e.timer)
	case evTick:
		s.tick(e)
	case evStart:
		s.trace(e.node, TraceStart, "", None, "")
		n.Proc.Start(s.Ctx(e.node))
	case evFault:
		s.fault(e.fault)
	case evResume:
		s.resume(e.node)
	case evChange:
		ch := s.Scenario.Changes[e.fault]
		s.Scenario = ch.apply(s.Scenario)
		s.trace(None, TraceChange, "", None, ch.String())
		s.Check.Fault(s.now, FaultChange, "", ch.String())
	case evHeal:
		s.traceSaid(None, TraceHeal, "", None, "partition healed", say("note.heal"))
		s.Check.Fault(s.now, FaultHeal, "", "")
	}
	if n != nil && s.lazyNodes > 0 && n.lazy.wake {
		s.replan(e.node)
	}
	return true
}

// cutSince reports whether a partition separated a and b at any moment
// between sent and now: a message in flight when a partition starts is lost.
func (s *Sim) cutSince(a, b NodeID, sent time.Duration) bool {
	for _, p := range s.parts {
		if p.start <= s.now && p.end > sent && p.cuts(a, b) {
			return true
		}
	}
	return false
}

// Cut reports whether a and b are separated by a partition now.
func (s *Sim) Cut(a, b NodeID) bool {
	for _, p := range s.parts {
		if p.start <= s.now && s.now < p.end && p.cuts(a, b) {
			return true
		}
	}
	return false
}

func (s *Sim) fault(i int) {
	f := s.Scenario.Faults[i]
	kind := f.Kind()
	switch kind {
	case FaultPause:
		id := s.Lookup(f.Pause)
		n := &s.Nodes[id]
		if n.Crashed {
			return
		}
		end := s.now + f.For.D()
		if n.Paused {
			if end > n.PauseEnd {
				n.PauseEnd, n.resume = end, 0
				s.push(event{at: end, kind: evResume, node: id})
			}
			return
		}
		if n.lazy.p != nil {
			s.pauseLazily(id)
		}
		n.Paused, n.PauseEnd = true, end
		// Freeze execution timers: work does not advance while paused.
		var frozen []int32
		s.queue.each(func(ix int32, e *event) {
			if e.kind == evExec && e.node == id {
				frozen = append(frozen, ix)
			}
		})
		sortBySeq(&s.queue, frozen)
		for _, ix := range frozen {
			e := s.queue.removeSlab(ix)
			e.local = e.at - s.now
			n.held = append(n.held, e)
		}
		n.pausedAt, n.resume = s.now, s.push(event{at: end, kind: evResume, node: id})+1
		s.trace(id, TraceFault, FaultPause.String(), None, f.For.D().String())
	case FaultClockJump:
		id := s.Lookup(f.ClockJump)
		s.Nodes[id].Clock.Offset += f.By.D()
		if f.Monotonic {
			s.stepMonotonic(id, f.By.D())
		}
		var moved []int32
		s.queue.each(func(ix int32, e *event) {
			if e.node == id && e.wall {
				moved = append(moved, ix)
			}
		})
		for _, ix := range moved {
			s.queue.retime(ix, max(s.now, s.Nodes[id].Clock.trueAtWall(s.queue.slab[ix].local)))
		}
		s.traceJump(id, f)
	case FaultPartition:
		p := partition{start: s.now, end: s.now + f.For.D(), group: make([]int, len(s.Nodes))}
		p.group[s.storage] = ReachesAll
		for gi, g := range f.Partition {
			for _, name := range g {
				p.group[s.Lookup(name)] = gi + 1
			}
		}
		s.parts = append(s.parts, p)
		s.push(event{at: p.end, kind: evHeal, node: None})
		s.trace(None, TraceFault, FaultPartition.String(), None, fmt.Sprint(f.Partition))
	case FaultCrash:
		s.CrashNode(s.Lookup(f.Crash))
	case FaultRestart:
		s.RestartNode(s.Lookup(f.Restart), f.Persist)
	case FaultFailover:
		id := s.Lookup(f.Failover)
		s.trace(id, TraceFault, FaultFailover.String(), None, "")
		s.Mode.Failover(s, id)
	}
	target := ""
	if t := f.Targets(); len(t) > 0 && kind != FaultPartition {
		target = t[0]
	}
	mark := FaultMark{At: s.now, Kind: kind, Target: target, Note: faultNote(f), Monotonic: f.Monotonic}
	if kind == FaultPause || kind == FaultPartition {
		mark.For = f.For.D()
	}
	s.Check.mark(mark)
}

// CrashNode stops a node: its volatile state and pending timers are gone.
func (s *Sim) CrashNode(id NodeID) {
	n := &s.Nodes[id]
	if n.Crashed {
		return
	}
	if n.lazy.p != nil {
		s.catchUp(id, s.now) // what the crash leaves of its counts
		s.dropLazy(id)       // its tick dies with the incarnation
	}
	n.Crashed, n.Paused, n.resume = true, false, 0
	n.backlog, n.held = nil, nil
	n.inc++
	s.recordReboot(id)
	n.Proc.Crash(s.Ctx(id))
	if n.Client {
		s.Check.crashed(s.now, id)
	}
	s.trace(id, TraceFault, FaultCrash.String(), None, "")
}

// RestartNode boots a crashed node again; persist keeps its durable state.
func (s *Sim) RestartNode(id NodeID, persist bool) {
	n := &s.Nodes[id]
	if !n.Crashed {
		return
	}
	n.Crashed = false
	n.inc++
	s.recordReboot(id)
	s.trace(id, TraceFault, FaultRestart.String(), None, "")
	n.Proc.Restart(s.Ctx(id), persist)
}

func (s *Sim) resume(id NodeID) {
	n := &s.Nodes[id]
	if !n.Paused || s.now < n.PauseEnd {
		return
	}
	n.Paused, n.resume = false, 0
	s.trace(id, TraceResume, "", None, "")
	for _, e := range n.held {
		e.at = s.now + e.local
		s.push(e)
	}
	n.held = nil
	backlog := n.backlog
	n.backlog = nil
	for _, e := range backlog {
		e.at = s.now
		s.push(e)
	}
}

// Ctx is a process's handle on the run: its clocks, the network, timers,
// randomness and the checker. It is a small value; keep none across calls.
type Ctx struct {
	s  *Sim
	id NodeID
}

// ID is this node.
func (c Ctx) ID() NodeID { return c.id }

// Name is this node's name.
func (c Ctx) Name() string { return c.s.Nodes[c.id].Name }

// Sim is the run, for modes that need to reach other nodes out of band.
func (c Ctx) Sim() *Sim { return c.s }

// Scenario is the run's scenario (read-only).
func (c Ctx) Scenario() *Scenario { return c.s.Scenario }

// Now is true time: for the checker and traces, never for protocol logic.
func (c Ctx) Now() time.Duration { return c.s.now }

// Wall reads this node's wall clock (jumps included).
func (c Ctx) Wall() time.Duration { return c.s.Nodes[c.id].Clock.Wall(c.s.now) }

// Mono reads this node's monotonic clock (drift, no jumps).
func (c Ctx) Mono() time.Duration { return c.s.Nodes[c.id].Clock.Mono(c.s.now) }

// Rand is the run's single seeded source of randomness.
func (c Ctx) Rand() *rand.Rand { return c.s.rng }

// Lookup finds a node by name.
func (c Ctx) Lookup(name string) NodeID { return c.s.Lookup(name) }

// Send puts a message on the wire: latency plus jitter, in order per link,
// lost if a partition separates the two ends before it arrives.
func (c Ctx) Send(to NodeID, m Msg) {
	s := c.s
	s.Check.Messages++
	sc := s.Scenario
	d := sc.Latency.D()
	if j := sc.Jitter.D(); j > 0 {
		d += time.Duration(s.jitter(uint64(j)))
	}
	at := s.now + d
	link := int(c.id)*len(s.Nodes) + int(to)
	if s.lastSend == nil {
		s.inflateSends()
	}
	if at < s.lastSend[link] {
		at = s.lastSend[link]
	}
	s.lastSend[link] = at
	s.traceOp(c.id, TraceSend, m.Op, to)
	ix := s.queue.reserve()
	// Field by field: a message is the commonest event, and writing the
	// whole literal cleared and copied the timer part it does not use.
	e := &s.queue.slab[ix]
	e.at, e.kind, e.node, e.from, e.sentAt = at, evDeliver, to, c.id, s.now
	e.msg = m
	e.id, e.wall, e.local, e.fault = 0, false, 0, 0
	s.recordFlight(c.id, to, at, &e.msg) // the queued copy: m's own address would put every message on the heap
	s.enqueue(ix, e)
}

// jitter is s.rng.Int64N(n) for n > 0, the same value from the same
// draws, without going through rand.Rand's Source interface: it is
// math/rand/v2's (*Rand).uint64n (Go 1.22 to 1.26) on the run's PCG, one
// draw per message. A 32-bit platform, where uint64n takes another path
// for small n, goes through Int64N.
func (s *Sim) jitter(n uint64) uint64 {
	if ^uint(0)>>32 == 0 {
		return uint64(s.rng.Int64N(int64(n)))
	}
	if n&(n-1) == 0 {
		return s.pcg.Uint64() & (n - 1)
	}
	hi, lo := bits.Mul64(s.pcg.Uint64(), n)
	if lo < n {
		thresh := -n % n
		for lo < thresh {
			hi, lo = bits.Mul64(s.pcg.Uint64(), n)
		}
	}
	return hi
}

// After wakes the process when d has passed on its monotonic clock.
func (c Ctx) After(d time.Duration, t Timer) TimerID {
	return c.s.timer(c.s.Nodes[c.id].Clock.trueAfter(c.s.now, d), evTimer, c.id, t, false, 0)
}

// Tick is After for a timer the process sets again every period d, and
// whose firing is mostly idle (a raft tick): when it comes due, the
// process's FireIdle (Idler) may handle it in Fire's place.
func (c Ctx) Tick(d time.Duration, t Timer) TimerID {
	return c.s.timer(c.s.Nodes[c.id].Clock.trueAfter(c.s.now, d), evTick, c.id, t, false, d)
}

// tick fires a Tick timer: when the process's FireIdle finds the firing
// idle, the engine sets the timer again as the Ctx.Tick that would have
// ended its Fire sets it — the same timer one period on (the period is in
// local), and, since FireIdle queues nothing, at the same slab entry with
// the same seq and timer id. Otherwise through Fire, as any timer.
func (s *Sim) tick(e *event) {
	n := &s.Nodes[e.node]
	if p := n.idler; p != nil && !s.fireEveryTick && p.FireIdle(s.Ctx(e.node), e.timer) {
		s.idleTicks++
		if lp := n.lazier; lp != nil && s.lazy && s.tickLazily(e.node, lp, &e.timer, e.local) {
			return
		}
		s.timer(n.Clock.trueAfter(s.now, e.local), evTick, e.node, e.timer, false, e.local)
		return
	}
	n.Proc.Fire(s.Ctx(e.node), e.timer)
}

// WakeTick tells the engine that this process's state changed so that a
// Tick timer's firing it said would be idle (LazyIdler.IdleAhead) may now
// act: the engine asks again once the event is handled. Only a run with
// lazy ticks listens.
func (c Ctx) WakeTick() {
	if l := &c.s.Nodes[c.id].lazy; l.p != nil {
		l.wake = true
	}
}

// AtWall wakes the process when its wall clock reads w; a clock jump moves it.
func (c Ctx) AtWall(w time.Duration, t Timer) TimerID {
	at := max(c.s.now, c.s.Nodes[c.id].Clock.trueAtWall(w))
	return c.s.timer(at, evTimer, c.id, t, true, w)
}

// Exec wakes the process after d of execution time: a pause stretches it.
func (c Ctx) Exec(d time.Duration, t Timer) TimerID {
	return c.s.timer(c.s.Nodes[c.id].Clock.trueAfter(c.s.now, d), evExec, c.id, t, false, 0)
}

// timer queues a timer event; its id names both a serial number and the
// slab entry, so Cancel finds it without a search. The event is written
// field by field where it lies, as Send writes a message: the message
// part stays as the entry's last event left it, and nothing reads a
// timer's message.
func (s *Sim) timer(at time.Duration, kind eventKind, node NodeID, t Timer, wall bool, local time.Duration) TimerID {
	ix := s.queue.reserve()
	s.nextID++
	id := TimerID(s.nextID<<32) | TimerID(ix+1)
	e := &s.queue.slab[ix]
	e.at, e.kind, e.node, e.from, e.sentAt = at, kind, node, 0, 0
	e.timer, e.id, e.wall, e.local, e.fault = t, id, wall, local, 0
	s.enqueue(ix, e)
	return id
}

// Cancel stops a pending timer; cancelling a fired timer does nothing.
func (c Ctx) Cancel(id TimerID) {
	if id == 0 {
		return
	}
	if ix := int32(id&0xffffffff) - 1; c.s.queue.live(ix) && c.s.queue.slab[ix].id == id {
		c.s.queue.removeSlab(ix)
		return
	}
	n := &c.s.Nodes[c.id]
	for i, e := range n.held {
		if e.id == id {
			n.held = append(n.held[:i], n.held[i+1:]...)
			return
		}
	}
	for i, e := range n.backlog {
		if e.id == id && (e.kind == evTimer || e.kind == evTick) {
			n.backlog = append(n.backlog[:i], n.backlog[i+1:]...)
			return
		}
	}
	// A timer queued again when a pause ended lies at another slab entry
	// than the one its id names.
	found := int32(-1)
	c.s.queue.each(func(ix int32, e *event) {
		if e.id == id {
			found = ix
		}
	})
	if found >= 0 {
		c.s.queue.removeSlab(found)
	}
}

// Quiet reports that nothing will read this run's trace, notes or views
// (a sweep's run): a mode may skip building sentences, never anything the
// protocol or the checker uses.
func (c Ctx) Quiet() bool { return c.s.quiet }

// Tracing reports that the run keeps a trace: a sentence only the trace
// shows need not be built without one.
func (c Ctx) Tracing() bool { return c.s.tracing && !c.s.replay }

// Trace notes a protocol step in the run's trace.
func (c Ctx) Trace(kind TraceKind, op, note string) { c.s.trace(c.id, kind, op, None, note) }

// TraceSaid is Trace with the note's words, so the window can say the
// note in the reader's language.
func (c Ctx) TraceSaid(kind TraceKind, op, note string, words Words) {
	c.s.traceSaid(c.id, kind, op, None, note, words)
}

// Waiting records that this client starts asking for the lock.
func (c Ctx) Waiting() { c.s.Check.waiting(c.s.now, c.id) }

// Granted records that this client now believes it holds the lock.
func (c Ctx) Granted(token int64, validity time.Duration) {
	c.s.Check.granted(c.s.now, c.id, token, validity, false)
	if !c.s.tracing {
		return
	}
	c.s.traceSaid(c.id, TraceGrant, "", None, fmt.Sprintf("token %d", token), say("note.grant", "token", strconv.FormatInt(token, 10)))
}

// WhyRelease is the Unheld reason of a voluntary release.
const WhyRelease = "release"

// Unheld records that this client no longer believes it holds the lock;
// why is the reason in English, words the same for the window.
func (c Ctx) Unheld(why string, words Words) {
	if why == WhyRelease && c.s.Check.Holding(c.id) {
		c.s.Check.released(c.s.now, c.id)
	}
	c.s.Check.unheld(c.s.now, c.id)
	c.s.traceSaid(c.id, TraceUnheld, "", None, why, words)
}

// GaveUp records that this client stopped asking without getting the
// lock; why is the reason in English, words the same for the window.
func (c Ctx) GaveUp(why string, words Words) {
	c.s.Check.gaveUp(c.s.now, c.id)
	c.s.traceSaid(c.id, TraceGiveUp, "", None, why, words)
}

// Own records that a server now considers client the owner of key.
func (c Ctx) Own(key string, client NodeID) { c.s.Check.own(c.s.now, c.id, key, client) }

// Disown records that a server no longer has an owner for key; expired says
// the lease ran out rather than being released.
func (c Ctx) Disown(key string, expired bool) {
	c.s.Check.disown(c.s.now, c.id, key, expired)
}

// Notified counts one watch notification delivered to a waiter.
func (c Ctx) Notified() { c.s.Check.WatchNotifications++ }

// Clone deep-copies the run, for checkpoints; the copy replays silently
// (no trace, no checker records).
func (s *Sim) Clone() *Sim {
	c := s.cloneWith(s.queue.clone())
	c.replay = true
	c.Check = s.Check.cloneForReplay(c)
	return c
}

// cloneWith is Clone with q, a copy of the run's queue, as the copy's, and
// the checker still the run's: Clone and fork give the copy its own.
func (s *Sim) cloneWith(q eventQueue) *Sim {
	c := *s
	c.events, c.sink, c.flights, c.reboots = nil, nil, Chunked[sentFlight]{}, nil
	c.Nodes = make([]Node, len(s.Nodes))
	for i, n := range s.Nodes {
		c.Nodes[i] = n
		c.Nodes[i].setProc(n.Proc.Clone())
		c.Nodes[i].backlog = append([]event(nil), n.backlog...)
		c.Nodes[i].held = append([]event(nil), n.held...)
		if n.lazy.p != nil {
			c.Nodes[i].lazy.p = c.Nodes[i].lazier
		}
	}
	c.queue = q
	c.rng = rand.New(&c.pcg)
	c.parts = append([]partition(nil), s.parts...)
	c.lastSend, c.sendsDue = nil, s.dueSends()
	c.fired = append([]bool(nil), s.fired...)
	return &c
}

// fork is a copy of the run that goes on as a run of its own, checker
// and all, where Clone's copy replays silently: the sweep runs a seed's
// events up to its pause once and forks them there for each length of
// the pause (package sim/sweep, Fork).
func (s *Sim) fork() *Sim {
	q := *queues.Get().(*eventQueue)
	s.queue.cloneInto(&q)
	c := s.cloneWith(q)
	c.Check = s.Check.fork(c)
	return c
}

// sortBySeq orders slab indexes by the order their events were queued.
func sortBySeq(q *eventQueue, ixs []int32) {
	slices.SortFunc(ixs, func(a, b int32) int { return cmp.Compare(q.slab[a].seq, q.slab[b].seq) })
}

// linkSend is the time the last message on a link arrives.
type linkSend struct {
	link int32
	at   time.Duration
}

// dueSends lists the links whose last message arrives after now: the only
// ones that can still hold a later send back, so a checkpoint keeps just
// those instead of every pair of nodes.
func (s *Sim) dueSends() []linkSend {
	if s.lastSend == nil {
		return s.sendsDue
	}
	var out []linkSend
	for i, at := range s.lastSend {
		if at > s.now {
			out = append(out, linkSend{int32(i), at})
		}
	}
	return out
}

// inflateSends rebuilds a clone's lastSend when it first sends.
func (s *Sim) inflateSends() {
	s.lastSend = make([]time.Duration, len(s.Nodes)*len(s.Nodes))
	for _, l := range s.sendsDue {
		s.lastSend[l.link] = l.at
	}
	s.sendsDue = nil
}
