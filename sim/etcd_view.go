package sim

import (
	"sort"
	"strings"
	"time"
)

// ---------------------------------------------------------------------------
// The view.

func (etcdMode) View(s *Sim, snap *Snapshot) {
	v := &EtcdView{Prefix: EtcdPrefix, Fencing: s.Scenario.Fencing}
	var view *EtcdServer
	viewID := None
	for _, id := range s.Servers() {
		srv, ok := s.Nodes[id].Proc.(*EtcdServer)
		if !ok {
			continue
		}
		nv := &snap.Nodes[id]
		nv.Role = srv.role
		nv.Detail, nv.DetailWords = srv.detail()
		v.Members = append(v.Members, EtcdMember{Node: int(id), Name: s.Nodes[id].Name, Role: srv.role,
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
		if c.watching && !s.Nodes[i].Crashed {
			v.Watches = append(v.Watches, ZWatch{Client: s.Nodes[i].Name, Path: c.watchKey})
		}
	}
	if view != nil {
		if view.isLeader() {
			v.Leader = s.Nodes[viewID].Name
		}
		v.Term, v.Revision = view.term, view.rev
		now := s.Nodes[viewID].Clock.Mono(s.now)
		left := func(l etcdLease) (time.Duration, bool) {
			if !view.primary {
				return l.TTL, true
			}
			return l.Expiry - now, false
		}
		for _, id := range view.leaseIDs() {
			l := view.leases[id]
			el := EtcdLease{ID: id, Client: nodeName(s, l.Client), TTL: l.TTL}
			el.Left, el.Frozen = left(l)
			el.Expired = !el.Frozen && el.Left <= 0
			v.Leases = append(v.Leases, el)
		}
		sort.Slice(v.Leases, func(a, b int) bool { return v.Leases[a].ID < v.Leases[b].ID })
		for k, kv := range view.kv {
			if !strings.HasPrefix(k, EtcdPrefix) {
				continue
			}
			ek := EtcdKey{Key: k, Owner: nodeName(s, kv.Client), Lease: kv.Lease, CreateRev: kv.CreateRev}
			if l, ok := view.leases[kv.Lease]; ok {
				ek.LeaseLeft, _ = left(l)
			}
			v.Keys = append(v.Keys, ek)
		}
		sort.Slice(v.Keys, func(a, b int) bool { return v.Keys[a].CreateRev < v.Keys[b].CreateRev })
		if len(v.Keys) > 0 {
			v.Keys[0].Holder = true
		}
		if st, ok := view.kv[EtcdStorageKey]; ok {
			v.Storage = &EtcdStorage{Key: EtcdStorageKey, Writer: nodeName(s, st.Client),
				CreateRev: st.CreateRev, ModRev: st.ModRev}
		}
	}
	snap.Etcd = v
}

func nodeName(s *Sim, id NodeID) string {
	if id < 0 || int(id) >= len(s.Nodes) {
		return ""
	}
	return s.Nodes[id].Name
}
