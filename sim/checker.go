package sim

import (
	"fmt"
	"math"
	"slices"
	"sort"
	"strconv"
	"time"
)

// Interval is a stretch of true time; To is the end of the run for one
// still open.
type Interval struct {
	From time.Duration `json:"from"`
	To   time.Duration `json:"to"`
}

// Grant is one moment a client came to believe it held the lock.
type Grant struct {
	At       time.Duration
	Client   NodeID
	Token    int64
	Validity time.Duration // Redlock: validity time left at the grant
	Asked    time.Duration // when that round of asking began
	// Issued is when the lock service made this grant: the latest instant,
	// between Asked and At, a server took the client as the key's owner
	// (At when none did). Grants are ordered by it, not by At: a grant
	// whose reply arrives late (its holder paused or cut off while it
	// travelled) is believed after a later grant to another client, yet it
	// is the earlier one, and the lease it names may have run out.
	Issued time.Duration
	// Shared is a read hold of a read–write lock (Ctx.GrantedShared): it
	// may overlap other shared holds, never an exclusive one.
	Shared  bool
	reached bool // a request of this holder has reached the storage
}

// WriteRecord is one write to the shared storage at the end of a critical
// section, as the storage received it.
type WriteRecord struct {
	At       time.Duration // when the storage received it
	Client   NodeID
	Token    int64
	GrantAt  time.Duration // the writer's grant the write belongs to
	Stale    bool          // another client was granted the lock after this writer's grant, before the write arrived
	Accepted bool
	Lost     bool // accepted, and its read came before another client's accepted write: that value is overwritten unseen
}

// ReadRecord is one read of the protected value at the start of a
// critical section, as the storage received it.
type ReadRecord struct {
	At       time.Duration
	Client   NodeID
	Token    int64
	Accepted bool
}

// Ownership is a stretch during which a server held key for client.
type Ownership struct {
	Server  NodeID
	Key     string
	Client  NodeID
	Span    Interval
	Open    bool
	Expired bool // ended by expiry rather than release
}

// FaultMark is an injected fault as the timeline marks it.
type FaultMark struct {
	At     time.Duration
	Kind   FaultKind
	Target string
	Note   string
	For    time.Duration // how long a pause or a partition lasts; 0 for the rest
	// Monotonic marks a clock jump that stepped the monotonic clock too.
	Monotonic bool
}

type clientRecord struct {
	asking    bool
	askedAt   time.Duration
	holding   bool
	told      bool // told by its library it may have lost the lock (Loop.Tell): not believing, still working
	heldFrom  time.Duration
	shared    bool // the current or last grant is a read hold (Grant.Shared)
	grantAt   time.Duration
	issued    time.Duration // the current or last grant's Issued
	token     int64
	waits     []Interval
	beliefs   []Interval
	sharedAt  []bool // per stretch of beliefs: a read hold
	releases  []time.Duration
	crashedAt []time.Duration
	sent      []sentWrite // writes sent, not yet received by the storage
	readAt    time.Duration
	hasRead   bool // an accepted read since the last grant
	// For the dashboard (metrics.go): failed tries, rounds given up,
	// expiries while held, renewals.
	failed, gaveUpAt, expiredAt []time.Duration
	renewals                    []renewal
}

// sentWrite is a write on its way, with the grant it belongs to.
type sentWrite struct {
	seq     int64
	grantAt time.Duration
	issued  time.Duration
	readAt  time.Duration
}

// Checker records, in true time, what clients believed, what servers held
// and every write, and derives the verdicts of DESIGN.md from them.
type Checker struct {
	Messages           int
	WatchNotifications int

	s        *Sim
	clients  []clientRecord
	grants   []Grant
	writes   []WriteRecord
	reads    []ReadRecord
	owners   []Ownership
	primes   []primarySpan
	faults   []FaultMark
	expired  []time.Duration // expiredWhileHeld instants
	maxToken int64
	seenTok  bool
}

func newChecker(s *Sim) *Checker {
	return &Checker{s: s, clients: make([]clientRecord, s.Scenario.Clients)}
}

func (c *Checker) cloneForReplay(s *Sim) *Checker {
	cp := &Checker{
		Messages: c.Messages, WatchNotifications: c.WatchNotifications,
		s: s, maxToken: c.maxToken, seenTok: c.seenTok,
		clients: make([]clientRecord, len(c.clients)),
	}
	for i, r := range c.clients {
		cp.clients[i] = clientRecord{asking: r.asking, askedAt: r.askedAt, holding: r.holding, told: r.told,
			heldFrom: r.heldFrom, shared: r.shared, grantAt: r.grantAt, issued: r.issued, token: r.token}
	}
	return cp
}

// fork is a deep copy of the checker for a forked run (Sim.fork): each
// fork's records go on from the same past without touching the others'.
func (c *Checker) fork(s *Sim) *Checker {
	cp := *c
	cp.s = s
	cp.clients = slices.Clone(c.clients)
	for i := range cp.clients {
		r := &cp.clients[i]
		r.waits, r.beliefs, r.sharedAt = slices.Clone(r.waits), slices.Clone(r.beliefs), slices.Clone(r.sharedAt)
		r.releases, r.crashedAt = slices.Clone(r.releases), slices.Clone(r.crashedAt)
		r.sent = slices.Clone(r.sent)
		r.failed, r.gaveUpAt, r.expiredAt = slices.Clone(r.failed), slices.Clone(r.gaveUpAt), slices.Clone(r.expiredAt)
		r.renewals = slices.Clone(r.renewals)
	}
	cp.grants, cp.writes, cp.reads = slices.Clone(c.grants), slices.Clone(c.writes), slices.Clone(c.reads)
	cp.owners, cp.faults, cp.expired = slices.Clone(c.owners), slices.Clone(c.faults), slices.Clone(c.expired)
	cp.primes = slices.Clone(c.primes)
	return &cp
}

func (c *Checker) client(id NodeID) *clientRecord {
	if id < 0 || int(id) >= len(c.clients) {
		return nil
	}
	return &c.clients[id]
}

func (c *Checker) waiting(now time.Duration, id NodeID) {
	r := c.client(id)
	if r == nil || r.asking || r.holding {
		return
	}
	r.asking, r.askedAt = true, now
}

func (c *Checker) stopAsking(now time.Duration, r *clientRecord) {
	if r.asking {
		r.asking = false
		if !c.s.replay {
			r.waits = append(r.waits, Interval{r.askedAt, now})
		}
	}
}

func (c *Checker) granted(now time.Duration, id NodeID, token int64, validity time.Duration, shared bool) {
	r := c.client(id)
	if r == nil {
		return
	}
	asked := now
	if r.asking {
		asked = r.askedAt
	}
	c.stopAsking(now, r)
	if r.holding {
		c.unheld(now, id)
	}
	r.holding, r.told, r.heldFrom, r.grantAt, r.token, r.shared = true, false, now, now, token, shared
	r.readAt, r.hasRead = now, false
	if !c.s.replay {
		r.issued = c.issued(id, asked, now)
		c.grants = append(c.grants, Grant{At: now, Client: id, Token: token, Validity: validity, Asked: asked, Issued: r.issued, Shared: shared})
	}
}

// GrantedShared records that this client now believes it holds a read
// hold of a read–write lock: other read holds may overlap it, an
// exclusive one may not (Checker.Overlaps).
func (c Ctx) GrantedShared(token int64, validity time.Duration) {
	c.s.Check.granted(c.s.now, c.id, token, validity, true)
	if !c.s.tracing {
		return
	}
	c.s.traceSaid(c.id, TraceGrant, "read", None, fmt.Sprintf("read hold, token %d", token), say("note.grantRead", "token", strconv.FormatInt(token, 10)))
}

// issued is when the lock service granted client id what it learns now,
// having asked since asked: the latest start of a server's ownership for
// it in that stretch (in Redlock, the master whose OK made the majority).
func (c *Checker) issued(id NodeID, asked, now time.Duration) time.Duration {
	at, found := now, false
	for i := len(c.owners) - 1; i >= 0; i-- {
		o := c.owners[i]
		if o.Span.From < asked {
			break
		}
		if o.Client == id && o.Span.From <= now && (!found || o.Span.From > at) {
			at, found = o.Span.From, true
		}
	}
	return at
}

func (c *Checker) unheld(now time.Duration, id NodeID) {
	r := c.client(id)
	if r == nil || !r.holding {
		return
	}
	r.holding = false
	if !c.s.replay {
		r.beliefs = append(r.beliefs, Interval{r.heldFrom, now})
		r.sharedAt = append(r.sharedAt, r.shared)
	}
}

// tell marks a client whose belief has just ended (unheld) because its
// library told it it may have lost the lock, while it works on in the same
// grant (Loop.Tell): its reads still count as its critical section's.
func (c *Checker) tell(id NodeID) {
	if r := c.client(id); r != nil && !r.holding {
		r.told = true
	}
}

// untell ends a told client's critical section (Loop.untold).
func (c *Checker) untell(id NodeID) {
	if r := c.client(id); r != nil {
		r.told = false
	}
}

// believeAgain makes a told client believe again from now, in the same
// grant (Loop.Resume: Curator's RECONNECTED): a new stretch of belief, no
// new grant.
func (c *Checker) believeAgain(now time.Duration, id NodeID) {
	r := c.client(id)
	if r == nil || !r.told || r.holding {
		return
	}
	r.holding, r.told, r.heldFrom = true, false, now
}

// released counts a voluntary release by a client.
func (c *Checker) released(now time.Duration, id NodeID) {
	if r := c.client(id); r != nil && !c.s.replay {
		r.releases = append(r.releases, now)
	}
}

func (c *Checker) gaveUp(now time.Duration, id NodeID) {
	if r := c.client(id); r != nil {
		if r.asking && !c.s.replay {
			r.gaveUpAt = append(r.gaveUpAt, now)
		}
		c.stopAsking(now, r)
	}
}

func (c *Checker) crashed(now time.Duration, id NodeID) {
	r := c.client(id)
	if r == nil {
		return
	}
	c.stopAsking(now, r)
	c.unheld(now, id)
	r.told = false
	if !c.s.replay {
		r.crashedAt = append(r.crashedAt, now)
	}
}

// sendingWrite notes that client id sends its write now, with the
// grant and the read it belongs to, so the storage's receipt is judged
// against that grant however late it arrives.
func (c *Checker) sendingWrite(now time.Duration, id NodeID, seq int64) {
	r := c.client(id)
	if r == nil || c.s.replay {
		return
	}
	r.sent = append(r.sent, sentWrite{seq: seq, grantAt: r.grantAt, issued: r.issued, readAt: r.readAt})
}

// traceStored notes in the trace the storage's verdict on a request; a
// run without a trace builds no sentence.
func (c *Checker) traceStored(id NodeID, req storageRequest, accepted bool, highest int64) {
	if !c.s.tracing || c.s.replay {
		return
	}
	verdict := "accepted"
	if !accepted {
		verdict = "rejected"
	}
	kind := TraceRead
	if req.Write {
		kind = TraceWrite
	}
	note := fmt.Sprintf("%s from %s", req.op().String(), c.s.Nodes[id].Name)
	words := say("note.storage."+kind.String(), "client", c.s.Nodes[id].Name)
	if req.Fenced {
		note = fmt.Sprintf("%s from %s with token %d, highest %d", req.op().String(), c.s.Nodes[id].Name, req.Token, highest)
		words = say("note.storage."+kind.String()+"Token", "client", c.s.Nodes[id].Name,
			"token", strconv.FormatInt(req.Token, 10), "highest", strconv.FormatInt(highest, 10))
	}
	c.s.traceSaid(c.s.storage, kind, verdict, id, note, words)
}

// stored records a request as the storage received and judged it.
func (c *Checker) stored(now time.Duration, id NodeID, req storageRequest, accepted bool, highest int64) {
	r := c.client(id)
	if r == nil {
		return
	}
	c.traceStored(id, req, accepted, highest)
	if c.s.replay {
		return
	}
	for i := len(c.grants) - 1; i >= 0; i-- {
		if c.grants[i].Client == id {
			c.grants[i].reached = true
			break
		}
	}
	if !req.Write {
		if accepted && (r.holding || r.told) {
			r.readAt, r.hasRead = now, true
		}
		c.reads = append(c.reads, ReadRecord{At: now, Client: id, Token: req.Token, Accepted: accepted})
		return
	}
	w := sentWrite{seq: req.Seq, grantAt: r.grantAt, issued: r.issued, readAt: r.readAt}
	for i, sw := range r.sent {
		if sw.seq == req.Seq {
			w = sw
			r.sent = append(r.sent[:i], r.sent[i+1:]...)
			break
		}
	}
	c.record(now, id, req.Token, w, accepted, true)
}

// guardedWrite records a write whose acceptance a lock server decided
// when it applied it (etcd with fencing keeps the value itself and guards
// the write with a transaction); server is where it was judged.
func (c *Checker) GuardedWrite(now time.Duration, server, id NodeID, token int64, accepted bool) {
	r := c.client(id)
	if r == nil {
		return
	}
	verdict := "accepted"
	if !accepted {
		verdict = "rejected"
	}
	c.s.traceSaid(server, TraceWrite, verdict, id, fmt.Sprintf("guarded write from %s, revision %d", c.s.Nodes[id].Name, token),
		say("note.storage.guarded", "client", c.s.Nodes[id].Name, "rev", strconv.FormatInt(token, 10)))
	if !c.s.replay {
		c.record(now, id, token, sentWrite{grantAt: r.grantAt, issued: r.issued, readAt: r.grantAt}, accepted, false)
	}
}

// record keeps a received write with its verdicts. It is stale when the
// storage receives it after another client's later grant: one the lock
// service issued after the writer's (Grant.Issued; a grant whose reply
// came late is the earlier one however late it is believed), believed by
// now, and, at the storage node, whose holder has reached the storage
// before this write did: a write that arrives in the few milliseconds
// between the next grant and the next holder's first request is ordered
// before that holder's whole critical section and harms nothing (the next
// holder reads it). A lock service that keeps the value itself (atStorage
// false) knows its grants: there, any later grant of another client makes
// the write stale. It is lost when accepted and another client's accepted
// write came between the writer's read and now.
func (c *Checker) record(now time.Duration, id NodeID, token int64, w sentWrite, accepted, atStorage bool) {
	stale := false
	// A grant issued after the writer's is believed after it too (At >=
	// Issued), so the grants to look at are the last few.
	for i := len(c.grants) - 1; i >= 0 && c.grants[i].At > w.issued; i-- {
		g := c.grants[i]
		if g.Client != id && g.Issued > w.issued && g.At <= now && (g.reached || !atStorage) {
			stale = true
			break
		}
	}
	lost := false
	if accepted {
		for i := len(c.writes) - 1; i >= 0 && c.writes[i].At > w.readAt; i-- {
			if c.writes[i].Accepted && c.writes[i].Client != id {
				lost = true
				break
			}
		}
	}
	c.writes = append(c.writes, WriteRecord{At: now, Client: id, Token: token, GrantAt: w.grantAt, Stale: stale, Accepted: accepted, Lost: lost})
}

func (c *Checker) own(now time.Duration, server NodeID, key string, client NodeID) {
	c.disown(now, server, key, false)
	if c.s.replay {
		return
	}
	c.owners = append(c.owners, Ownership{Server: server, Key: key, Client: client, Span: Interval{From: now}, Open: true})
}

func (c *Checker) disown(now time.Duration, server NodeID, key string, expired bool) {
	if c.s.replay {
		return
	}
	for i := len(c.owners) - 1; i >= 0; i-- {
		o := &c.owners[i]
		if o.Open && o.Server == server && o.Key == key {
			o.Open, o.Span.To, o.Expired = false, now, expired
			if r := c.client(o.Client); expired && r != nil && r.holding {
				c.expired = append(c.expired, now)
				r.expiredAt = append(r.expiredAt, now)
			}
			return
		}
	}
}

// Primary records that this server acts as its service's one primary
// from now (a master that takes the lock's writes) or no longer does: the
// timeline draws the stretches when more than one server does at once
// (Timeline.Primaries). A design whose servers are all equals never calls it.
func (c Ctx) Primary(acting bool) { c.s.Check.primary(c.s.now, c.id, acting) }

// primarySpan is a stretch in which a server acted as its service's
// primary (Ctx.Primary).
type primarySpan struct {
	server NodeID
	span   Interval
	open   bool
}

func (c *Checker) primary(now time.Duration, server NodeID, acting bool) {
	if c.s.replay {
		return
	}
	for i := len(c.primes) - 1; i >= 0; i-- {
		if p := &c.primes[i]; p.open && p.server == server {
			if acting {
				return
			}
			p.open, p.span.To = false, now
			return
		}
	}
	if acting {
		c.primes = append(c.primes, primarySpan{server: server, span: Interval{From: now}, open: true})
	}
}

// Primaries lists, up to t, the stretches in which two or more servers
// acted as the primary at once; a server is not acting while it is paused
// (its pause marks), nor once it crashed (the design says so).
func (c *Checker) Primaries(t time.Duration) []Interval {
	type edge struct {
		at time.Duration
		d  int
	}
	var edges []edge
	for _, p := range c.primes {
		to := p.span.To
		if p.open || to > t {
			to = t
		}
		name := c.s.Nodes[p.server].Name
		from := p.span.From
		for _, f := range c.faults { // the pauses cut the stretch
			if f.Kind != FaultPause || f.Target != name || f.At+f.For <= from || f.At >= to {
				continue
			}
			if f.At > from {
				edges = append(edges, edge{from, 1}, edge{f.At, -1})
			}
			from = max(from, f.At+f.For)
		}
		if from < to {
			edges = append(edges, edge{from, 1}, edge{to, -1})
		}
	}
	sort.Slice(edges, func(i, j int) bool {
		if edges[i].at != edges[j].at {
			return edges[i].at < edges[j].at
		}
		return edges[i].d < edges[j].d
	})
	var out []Interval
	n := 0
	var start time.Duration
	for _, e := range edges {
		n += e.d
		if n >= 2 && n-e.d < 2 {
			start = e.at
		}
		if n < 2 && n-e.d >= 2 && e.at > start {
			out = append(out, Interval{start, e.at})
		}
	}
	return out
}

// Fault marks a fault for the timeline at now: a design marks its own
// (a replica promoted).
func (c *Checker) Fault(now time.Duration, kind FaultKind, target, note string) {
	c.mark(FaultMark{At: now, Kind: kind, Target: target, Note: note})
}

// mark records a fault for the timeline.
func (c *Checker) mark(f FaultMark) {
	if c.s.replay {
		return
	}
	c.faults = append(c.faults, f)
}

// Grants lists every grant so far, in time order.
func (c *Checker) Grants() []Grant { return c.grants }

// Writes lists every write so far, in time order.
func (c *Checker) Writes() []WriteRecord { return c.writes }

// Reads lists every read the storage received so far, in time order.
func (c *Checker) Reads() []ReadRecord { return c.reads }

// Faults lists the faults injected so far, with heals.
func (c *Checker) Faults() []FaultMark { return c.faults }

// Holding reports whether client id believes it holds the lock now.
func (c *Checker) Holding(id NodeID) bool {
	r := c.client(id)
	return r != nil && r.holding
}

// Shared reports whether client id's current or last grant is a read
// hold of a read–write lock (Grant.Shared).
func (c *Checker) Shared(id NodeID) bool {
	r := c.client(id)
	return r != nil && r.shared
}

// Told reports whether client id was told by its library it may have
// lost the lock and works on without believing it holds it (Loop.Tell).
func (c *Checker) Told(id NodeID) bool {
	r := c.client(id)
	return r != nil && r.told
}

// Asking reports whether client id is waiting for the lock now.
func (c *Checker) Asking(id NodeID) bool {
	r := c.client(id)
	return r != nil && r.asking
}

// Token is the token of client id's current or last grant.
func (c *Checker) Token(id NodeID) int64 {
	if r := c.client(id); r != nil {
		return r.token
	}
	return 0
}

// clip returns the stretches of xs (and an open one from `from`) up to t.
func clip(xs []Interval, open bool, from, t time.Duration) []Interval {
	var out []Interval
	for _, iv := range xs {
		if iv.From >= t && !(iv.From == t && iv.To == t) {
			break
		}
		out = append(out, Interval{iv.From, min(iv.To, t)})
	}
	if open && from <= t {
		out = append(out, Interval{from, t})
	}
	return out
}

// Beliefs lists, per client, the stretches it believed it held the lock up
// to t.
func (c *Checker) Beliefs(t time.Duration) [][]Interval {
	out := make([][]Interval, len(c.clients))
	for i, r := range c.clients {
		out[i] = clip(r.beliefs, r.holding, r.heldFrom, t)
	}
	return out
}

// Waits lists, per client, the stretches it spent asking up to t.
func (c *Checker) Waits(t time.Duration) [][]Interval {
	out := make([][]Interval, len(c.clients))
	for i, r := range c.clients {
		out[i] = clip(r.waits, r.asking, r.askedAt, t)
	}
	return out
}

// Owned lists, per client, the stretches some server held the key for it.
func (c *Checker) Owned(t time.Duration) [][]Interval {
	out := make([][]Interval, len(c.clients))
	for _, o := range c.owners {
		if o.Client < 0 || int(o.Client) >= len(out) || o.Span.From > t {
			continue
		}
		to := o.Span.To
		if o.Open || to > t {
			to = t
		}
		out[o.Client] = append(out[o.Client], Interval{o.Span.From, to})
	}
	for i := range out {
		out[i] = union(out[i])
	}
	return out
}

// Ownerships lists every server-side ownership stretch recorded so far.
func (c *Checker) Ownerships() []Ownership { return c.owners }

func union(xs []Interval) []Interval {
	if len(xs) < 2 {
		return xs
	}
	sort.Slice(xs, func(i, j int) bool { return xs[i].From < xs[j].From })
	out := []Interval{xs[0]}
	for _, iv := range xs[1:] {
		last := &out[len(out)-1]
		if iv.From <= last.To {
			last.To = max(last.To, iv.To)
		} else {
			out = append(out, iv)
		}
	}
	return out
}

// SharedBeliefs lists, per client, the stretches of Beliefs(t) that were
// read holds of a read–write lock (Grant.Shared): the timeline draws them
// apart from exclusive holds.
func (c *Checker) SharedBeliefs(t time.Duration) [][]Interval {
	out := make([][]Interval, len(c.clients))
	for i := range c.clients {
		for _, h := range c.holds(i, t) {
			if h.shared {
				out[i] = append(out[i], h.Interval)
			}
		}
	}
	return out
}

// hold is a stretch of belief and whether it was a read hold.
type hold struct {
	Interval
	shared bool
}

// holds is client i's stretches of belief up to t, each with its kind.
func (c *Checker) holds(i int, t time.Duration) []hold {
	r := &c.clients[i]
	var out []hold
	for k, iv := range r.beliefs { // as clip does
		if iv.From >= t && !(iv.From == t && iv.To == t) {
			break
		}
		out = append(out, hold{Interval{iv.From, min(iv.To, t)}, k < len(r.sharedAt) && r.sharedAt[k]})
	}
	if r.holding && r.heldFrom <= t {
		out = append(out, hold{Interval{r.heldFrom, t}, r.shared})
	}
	return out
}

// Overlaps returns the stretches, up to t, when a client believed it held
// the lock exclusively while another client believed it held it too, in
// either kind: the rule "a writer overlaps no one". Read holds of a
// read–write lock (Grant.Shared) may overlap one another; without them
// every hold is exclusive and this is two or more holders at once.
func (c *Checker) Overlaps(t time.Duration) []Interval {
	type edge struct {
		at        time.Duration
		d, writer int
	}
	var edges []edge
	for i := range c.clients {
		for _, h := range c.holds(i, t) {
			if h.To > h.From {
				w := 1
				if h.shared {
					w = 0
				}
				edges = append(edges, edge{h.From, +1, w}, edge{h.To, -1, -w})
			}
		}
	}
	sort.Slice(edges, func(i, j int) bool {
		if edges[i].at != edges[j].at {
			return edges[i].at < edges[j].at
		}
		return edges[i].d < edges[j].d
	})
	var out []Interval
	n, writers, bad := 0, 0, false
	var start time.Duration
	for _, e := range edges {
		n += e.d
		writers += e.writer
		now := writers > 0 && n >= 2
		switch {
		case now && !bad:
			start = e.at
		case !now && bad:
			out = append(out, Interval{start, e.at})
		}
		bad = now
	}
	return out
}

// GrantSummary is a grant as `run --json` prints it.
type GrantSummary struct {
	AtMs       float64  `json:"atMs"`
	Client     string   `json:"client"`
	Token      int64    `json:"token"`
	ValidityMs *float64 `json:"validityMs,omitempty"`
	// Read marks a read hold of a read–write lock (Grant.Shared); absent
	// for an exclusive grant.
	Read bool `json:"read,omitempty"`
}

// Summary is the verdict of a run, the `run --json` object of DESIGN.md.
type Summary struct {
	Name                string         `json:"name"`
	Mode                string         `json:"mode"`
	Seed                int64          `json:"seed"`
	Acquisitions        int            `json:"acquisitions"`
	Releases            int            `json:"releases"`
	Violations          int            `json:"violations"`
	OverlapMs           float64        `json:"overlapMs"`
	Writes              int            `json:"writes"`
	StaleWritesAccepted int            `json:"staleWritesAccepted"`
	StaleWritesRejected int            `json:"staleWritesRejected"`
	LostUpdates         int            `json:"lostUpdates"`
	ExpiredWhileHeld    int            `json:"expiredWhileHeld"`
	Messages            int            `json:"messages"`
	AcquireLatencyP50Ms float64        `json:"acquireLatencyP50Ms"`
	AcquireLatencyP99Ms float64        `json:"acquireLatencyP99Ms"`
	WatchNotifications  int            `json:"watchNotifications"`
	Grants              []GrantSummary `json:"grants"`
	Safe                bool           `json:"safe"`
	// Election says the run's clients elected a leader (Elects): its
	// grants are won elections and its violations two leaders at once.
	Election bool `json:"election,omitempty"`
	// Playback is what the run takes in the window at its default speed
	// (Sim.Pace with StoryPace), for a traced run; nil otherwise.
	Playback *PlaybackSummary `json:"playback,omitempty"`
	// Metrics is the run's dashboard (Checker.Metrics), which `lockscope
	// run --json` reports; nil otherwise.
	Metrics *Metrics `json:"metrics,omitempty"`
}

// Ms converts a duration to milliseconds, as every figure shown is.
func Ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }

// Summary computes the verdicts over everything recorded up to t.
func (c *Checker) Summary(t time.Duration) Summary {
	sc := c.s.Scenario
	sum := Summary{Name: sc.Name, Mode: sc.Mode, Seed: sc.Seed, Election: Elects(sc),
		Messages: c.Messages, WatchNotifications: c.WatchNotifications, Grants: []GrantSummary{}}
	var lat []float64
	validity := c.s.Mode.Traits().Validity
	for _, g := range c.grants {
		if g.At > t {
			break
		}
		gs := GrantSummary{AtMs: Round3(Ms(g.At)), Client: c.s.Nodes[g.Client].Name, Token: g.Token, Read: g.Shared}
		if validity {
			v := Round3(Ms(g.Validity))
			gs.ValidityMs = &v
		}
		sum.Grants = append(sum.Grants, gs)
		lat = append(lat, Ms(g.At-g.Asked))
	}
	sum.Acquisitions = len(sum.Grants)
	sum.AcquireLatencyP50Ms = Round3(percentile(lat, 0.50))
	sum.AcquireLatencyP99Ms = Round3(percentile(lat, 0.99))
	for _, r := range c.clients {
		for _, at := range r.releases {
			if at <= t {
				sum.Releases++
			}
		}
	}
	ov := c.Overlaps(t)
	sum.Violations = len(ov)
	for _, iv := range ov {
		sum.OverlapMs += Ms(iv.To - iv.From)
	}
	sum.OverlapMs = Round3(sum.OverlapMs)
	for _, w := range c.writes {
		if w.At > t {
			break
		}
		sum.Writes++
		if w.Stale && w.Accepted {
			sum.StaleWritesAccepted++
		}
		if w.Stale && !w.Accepted {
			sum.StaleWritesRejected++
		}
		if w.Lost {
			sum.LostUpdates++
		}
	}
	for _, at := range c.expired {
		if at <= t {
			sum.ExpiredWhileHeld++
		}
	}
	sum.Safe = sum.StaleWritesAccepted == 0
	return sum
}

// percentile is nearest-rank on a copy of xs; 0 for no samples.
func percentile(xs []float64, p float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	s := append([]float64(nil), xs...)
	sort.Float64s(s)
	k := int(math.Ceil(p*float64(len(s)))) - 1
	return s[max(0, min(k, len(s)-1))]
}

func Round3(x float64) float64 { return math.Round(x*1000) / 1000 }
