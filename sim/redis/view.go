package redis

import (
	"time"

	"github.com/lockscope/lockscope/sim"
)

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

// ServerView is one Redis server's keyspace.
type ServerView struct {
	Node    int // index into Snapshot.Nodes
	Role    sim.Role
	Keys    []KeyView
	Counter int64 // the fencing INCR counter
}

// View is the single-instance Redis lock: master and optional replica.
type View struct {
	Servers []ServerView
	Master  int // index into Snapshot.Nodes of the current master
}

func (redisMode) View(s *sim.Sim, snap *sim.Snapshot) {
	v := &View{Master: int(s.Lookup("redis-1"))}
	for _, id := range s.Servers() {
		if t, ok := s.Nodes[id].Proc.(*Sentinel); ok {
			snap.Nodes[id].Role = RoleSentinel
			snap.Nodes[id].Detail, snap.Nodes[id].DetailWords = t.detail(s)
			continue
		}
		srv := s.Nodes[id].Proc.(*Server)
		snap.Nodes[id].Role = srv.Role
		if srv.Role == RoleMaster && !s.Nodes[id].Crashed {
			v.Master = int(id)
		}
		v.Servers = append(v.Servers, srv.View(s, id))
	}
	for i := range s.Nodes {
		if c, ok := s.Nodes[i].Proc.(*redisClient); ok {
			snap.Nodes[i].Detail, snap.Nodes[i].DetailWords = c.detail()
			snap.Nodes[i].Holds = c.Reentered()
		}
	}
	snap.Design = v
}

// DesignName says the view is Redis's.
func (*View) DesignName() string { return redisMode{}.Name() }

// ViewOf is the snapshot's Redis's part; nil in another design's
// snapshot.
func ViewOf(s *sim.Snapshot) *View {
	v, _ := sim.DesignOf[*View](s)
	return v
}
