package dynamodb

import (
	"time"

	"github.com/lockscope/lockscope/sim"
)

// ItemView is the lock item as the table holds it.
type ItemView struct {
	Exists bool
	Key    string        // the partition key
	Owner  string        // ownerName: the client that wrote it
	RVN    string        // recordVersionNumber
	Lease  time.Duration // leaseDuration as written
	Age    time.Duration // since it was last written, on the table's clock
}

// ClientView is one lock client: what it holds, or what it has seen of
// the item and when, on its own clock, it may take it over.
type ClientView struct {
	Node       int     // index into Snapshot.Nodes
	Rate       float64 // its clock's rate error (drift): +0.3 runs 30 % fast
	Waiting    bool    // inside acquireLock
	Seen       bool    // it has read someone else's item in this call
	SeenRVN    string  // the recordVersionNumber it last saw change
	SeenOwner  string
	Left       time.Duration // until that version has stayed unchanged a lease, on its clock (≤ 0: it takes over at its next read)
	GivesUp    time.Duration // until acquireLock throws, on its clock
	Believes   bool          // the application believes it holds the lock
	Held       bool          // the lock is in its held locks: the heartbeat thread renews it
	RVN        string        // the version its last write gave the item
	Since      time.Duration // since its last successful write, on its clock
	Heartbeats int
	Monitor    bool // the session monitor's thread is waiting for the danger zone
	Paused     bool // the process is paused: its worker, heartbeat thread and monitor with it
}

// View is the DynamoDB lock: the table's item and every client's view of
// it.
type View struct {
	Table   int // index into Snapshot.Nodes
	Item    ItemView
	Clients []ClientView
	Writes  int // conditional writes applied
	Refused int // conditional writes refused (ConditionalCheckFailed)
}

func (dynamodbMode) View(s *sim.Sim, snap *sim.Snapshot) {
	v := &View{Table: int(s.Lookup(TableName))}
	if v.Table >= 0 {
		t := s.Nodes[v.Table].Proc.(*Table)
		snap.Nodes[v.Table].Role = RoleTable
		v.Writes, v.Refused = t.writes, t.failed
		if t.item.exists {
			v.Item = ItemView{Exists: true, Key: LockKey, Owner: s.Nodes[t.item.owner].Name, RVN: RVNString(t.item.rvn),
				Lease: t.item.lease, Age: s.Nodes[v.Table].Clock.Wall(s.Now()) - t.item.written}
		}
	}
	for i := range s.Nodes {
		c, ok := s.Nodes[i].Proc.(*lockClient)
		if !ok {
			continue
		}
		mono := s.Nodes[i].Clock.Mono(s.Now())
		cv := ClientView{Node: i, Rate: s.Nodes[i].Clock.Rate, Waiting: c.State == sim.StateWaiting,
			Believes: c.State == sim.StateHolding && !c.Told(), Held: c.held, Heartbeats: c.heartbeats, Monitor: c.monitor, Paused: s.Nodes[i].Paused}
		if cv.Waiting && c.seen {
			cv.Seen, cv.SeenRVN, cv.SeenOwner = true, RVNString(c.seenOf.RVN), s.Nodes[c.seenOf.Owner].Name
			cv.Left = c.seenOf.Lease - (mono - c.seenAt)
		}
		if cv.Waiting {
			cv.GivesUp = c.wait - (mono - c.start)
		}
		if c.State == sim.StateHolding {
			cv.RVN, cv.Since = RVNString(c.rvn), mono-c.lastUpdate
		}
		v.Clients = append(v.Clients, cv)
	}
	snap.Design = v
}

// DesignName says the view is the DynamoDB lock's.
func (*View) DesignName() string { return dynamodbMode{}.Name() }

// ViewOf is the snapshot's DynamoDB part; nil in another design's
// snapshot.
func ViewOf(s *sim.Snapshot) *View {
	v, _ := sim.DesignOf[*View](s)
	return v
}
