package etcd

import (
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/lockscope/lockscope/sim"
)

// Key is one key under the lock prefix.
type Key struct {
	Key       string
	Owner     string
	Lease     int64
	CreateRev int64
	LeaseLeft time.Duration
	Holder    bool
	// Read is an RWMutex read key (ReadPrefix): it holds with the other
	// read keys created before the first write key (rwlock.go).
	Read bool
}

// Lease is a client's session lease.
type Lease struct {
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

// Member is one etcd member's raft progress, for drawing replication.
type Member struct {
	Node      int // index into Snapshot.Nodes
	Name      string
	Role      sim.Role
	Term      int64
	LastIndex int64 // last entry appended to its log
	Commit    int64
	Applied   int64
	Revision  int64 // its MVCC revision after applying
	Primary   bool  // its lessor expires leases (a promoted leader)
}

// View is the etcd keyspace under the lock prefix.
type View struct {
	Prefix   string
	Leader   string
	Revision int64
	Keys     []Key
	Leases   []Lease
	Watches  []sim.Watch
	Term     int64    // the raft term of the member shown
	Members  []Member // every member, in order
	// Fencing: the holder writes with a Txn guarded by Mutex.IsOwner(),
	// so the data lives in etcd (Storage) and a stale write is refused.
	Fencing bool
	Storage *Storage // the guarded writes' key; nil before the first
}

// Storage is the key the IsOwner-guarded write puts, as etcd holds it.
type Storage struct {
	Key       string
	Writer    string // the client whose write etcd applied last
	CreateRev int64
	ModRev    int64 // the revision of that write
}

// ---------------------------------------------------------------------------
// The view.

func (etcdMode) View(s *sim.Sim, snap *sim.Snapshot) {
	v := &View{Prefix: Prefix, Fencing: s.Scenario.Fencing}
	var view *Server
	viewID := sim.None
	for _, id := range s.Servers() {
		srv, ok := s.Nodes[id].Proc.(*Server)
		if !ok {
			continue
		}
		nv := &snap.Nodes[id]
		nv.Role = srv.role
		nv.Detail, nv.DetailWords = srv.detail()
		v.Members = append(v.Members, Member{Node: int(id), Name: s.Nodes[id].Name, Role: srv.role,
			Term: srv.term, LastIndex: srv.lastIndex(), Commit: srv.commit, Applied: srv.applied,
			Revision: srv.rev, Primary: srv.primary})
		if s.Nodes[id].Crashed {
			continue
		}
		better := view == nil ||
			(srv.isLeader() && (!view.isLeader() || srv.term > view.term)) ||
			(!srv.isLeader() && !view.isLeader() && srv.applied > view.applied)
		if better {
			view, viewID = srv, id
		}
	}
	for i := range s.Nodes {
		c, ok := s.Nodes[i].Proc.(*etcdClient)
		if !ok {
			continue
		}
		snap.Nodes[i].Session = c.session()
		snap.Nodes[i].Detail, snap.Nodes[i].DetailWords = c.detail(s)
		snap.Nodes[i].HoldWords = c.holdWords()
		if c.watching && !s.Nodes[i].Crashed {
			v.Watches = append(v.Watches, sim.Watch{Client: s.Nodes[i].Name, Path: c.watchKey})
		}
	}
	if view != nil {
		if view.isLeader() {
			v.Leader = s.Nodes[viewID].Name
		}
		v.Term, v.Revision = view.term, view.rev
		now := s.Nodes[viewID].Clock.Mono(s.Now())
		left := func(l etcdLease) (time.Duration, bool) {
			if !view.primary {
				return l.TTL, true
			}
			return l.Expiry - now, false
		}
		for _, id := range view.leaseIDs() {
			l := view.leases[id]
			el := Lease{ID: id, Client: nodeName(s, l.Client), TTL: l.TTL}
			el.Left, el.Frozen = left(l)
			el.Expired = !el.Frozen && el.Left <= 0
			v.Leases = append(v.Leases, el)
		}
		sort.Slice(v.Leases, func(a, b int) bool { return v.Leases[a].ID < v.Leases[b].ID })
		for k, kv := range view.kv {
			if !strings.HasPrefix(k, Prefix) {
				continue
			}
			ek := Key{Key: k, Owner: nodeName(s, kv.Client), Lease: kv.Lease, CreateRev: kv.CreateRev,
				Read: strings.HasPrefix(k, ReadPrefix)}
			if l, ok := view.leases[kv.Lease]; ok {
				ek.LeaseLeft, _ = left(l)
			}
			v.Keys = append(v.Keys, ek)
		}
		sort.Slice(v.Keys, func(a, b int) bool { return v.Keys[a].CreateRev < v.Keys[b].CreateRev })
		switch {
		case Readers.IsOn(s.Scenario):
			holders := view.holderKeys()
			for i := range v.Keys {
				v.Keys[i].Holder = slices.Contains(holders, v.Keys[i].Key)
			}
		case len(v.Keys) > 0:
			v.Keys[0].Holder = true
		}
		if st, ok := view.kv[StorageKey]; ok {
			v.Storage = &Storage{Key: StorageKey, Writer: nodeName(s, st.Client),
				CreateRev: st.CreateRev, ModRev: st.ModRev}
		}
	}
	snap.Design = v
}

// DesignName says the view is etcd's.
func (*View) DesignName() string { return etcdMode{}.Name() }

// ViewOf is the snapshot's etcd's part; nil in another design's
// snapshot.
func ViewOf(s *sim.Snapshot) *View {
	v, _ := sim.DesignOf[*View](s)
	return v
}

func nodeName(s *sim.Sim, id sim.NodeID) string {
	if id < 0 || int(id) >= len(s.Nodes) {
		return ""
	}
	return s.Nodes[id].Name
}
