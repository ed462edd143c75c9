package widgets

import (
	"strings"

	"fyne.io/fyne/v2"

	"github.com/lockscope/lockscope/assets/i18n"
	"github.com/lockscope/lockscope/sim"
)

// crowdKind is the group a client is drawn in when the clients are a
// crowd (clusterShapeOf): one per state, in the order the groups are drawn.
type crowdKind int

const (
	crowdHolding crowdKind = iota
	crowdWaiting
	crowdTold
	crowdIdle
	crowdDone
	crowdPaused
	crowdCrashed
	crowdKinds
)

// crowdKindOf is client n's group: crashed and paused before its state.
func crowdKindOf(n sim.NodeView) crowdKind {
	switch {
	case n.Crashed:
		return crowdCrashed
	case n.Paused:
		return crowdPaused
	}
	switch n.State {
	case sim.StateHolding:
		return crowdHolding
	case sim.StateWaiting:
		return crowdWaiting
	case sim.StateTold:
		return crowdTold
	case sim.StateDone:
		return crowdDone
	}
	return crowdIdle
}

// word is the group's state in a word.
func (k crowdKind) word() string {
	return i18n.T([...]string{"cluster.crowd.holding", "cluster.crowd.waiting", "cluster.crowd.told",
		"cluster.crowd.idle", "cluster.crowd.done", "cluster.crowd.paused", "cluster.crowd.crashed"}[k])
}

// crowdMinTileW is the least width of a client's tile: narrower, the
// clients are drawn as a crowd (clusterShapeOf).
const crowdMinTileW = 64

// clusterShape is what the cluster view draws for a snapshot's nodes:
// every node its own box, or, when the clients do not fit as boxes (a
// crowd), one box per group of clients in a state and the servers.
type clusterShape struct {
	crowd bool
	// nodes are the boxes drawn: the snapshot's nodes, or the groups
	// (clients, one per crowdKind present, in that order) then the servers.
	nodes []sim.NodeView
	// lines are what each box says (nodeLines, or groupLines for a group).
	lines [][4]string
	// drawnOf is the box each of the snapshot's nodes is drawn in;
	// members the snapshot's nodes in each box.
	drawnOf []int
	members [][]int
	// kinds are the groups' kinds, in order (nil when not a crowd): the
	// links depend on them (linkKey).
	kinds []crowdKind
}

// crowded reports whether n clients do not fit as boxes in a view of
// size: their tiles (tileGrid) would be lower than nodeMinH or narrower
// than crowdMinTileW.
func crowded(n int, size fyne.Size) bool {
	if n == 0 {
		return false
	}
	w, h := clusterColumn(size)
	cols, _, bh, gap := tileGrid(n, w, h)
	cw := (w - float32(cols-1)*gap) / float32(cols)
	return bh < nodeMinH || cw < crowdMinTileW
}

// clusterShapeOf is the shape of nodes in a view of size.
func clusterShapeOf(nodes []sim.NodeView, size fyne.Size) clusterShape {
	clients := 0
	for _, n := range nodes {
		if n.Client {
			clients++
		}
	}
	s := clusterShape{drawnOf: make([]int, len(nodes))}
	if !crowded(clients, size) {
		s.nodes = nodes
		s.lines = make([][4]string, len(nodes))
		s.members = make([][]int, len(nodes))
		for i, n := range nodes {
			s.lines[i], s.drawnOf[i], s.members[i] = nodeLines(n), i, []int{i}
		}
		return s
	}
	s.crowd = true
	var groups [crowdKinds][]int
	for i, n := range nodes {
		if n.Client {
			k := crowdKindOf(n)
			groups[k] = append(groups[k], i)
		}
	}
	for k, m := range groups {
		if len(m) == 0 {
			continue
		}
		for _, i := range m {
			s.drawnOf[i] = len(s.nodes)
		}
		s.kinds = append(s.kinds, crowdKind(k))
		s.nodes = append(s.nodes, groupNode(crowdKind(k), nodes, m))
		s.lines = append(s.lines, groupLines(crowdKind(k), nodes, m))
		s.members = append(s.members, m)
	}
	for i, n := range nodes {
		if !n.Client {
			s.drawnOf[i] = len(s.nodes)
			s.nodes = append(s.nodes, n)
			s.lines = append(s.lines, nodeLines(n))
			s.members = append(s.members, []int{i})
		}
	}
	return s
}

// groupNode is the node a group's box is drawn as: a client in the
// group's state (paused, crashed), its holder's token when one holds.
func groupNode(k crowdKind, nodes []sim.NodeView, members []int) sim.NodeView {
	first := nodes[members[0]]
	n := sim.NodeView{Name: first.Name, Client: true, State: first.State,
		Paused: k == crowdPaused, Crashed: k == crowdCrashed}
	if k == crowdHolding && len(members) == 1 {
		n.Token = first.Token
	}
	return n
}

// crowdNamesMax is how many of a group's clients its box names.
const crowdNamesMax = 6

// groupLines are what a group's box says: how many clients are in the
// state, then who (the holders first of all), the first few by name.
func groupLines(k crowdKind, nodes []sim.NodeView, members []int) [4]string {
	var lines [4]string
	lines[0] = i18n.F("cluster.crowd.group", "n", len(members), "state", k.word())
	var names []string
	for _, i := range members[:min(len(members), crowdNamesMax)] {
		names = append(names, nodes[i].Name)
	}
	lines[1] = strings.Join(names, ", ")
	if len(members) > crowdNamesMax {
		lines[1] += ", …"
	}
	return lines
}

// cut reports whether the link between boxes a and b is cut: a
// partition separates their first nodes.
func (s clusterShape) cut(cuts [][]int, a, b int) bool {
	return cutBetween(cuts, s.members[a][0], s.members[b][0])
}

// CrowdGroup is a crowd's group of clients in words, for the list the
// window shows when the group's box is tapped: what the box says of it
// (Title: how many, in which state) and a line for each of its clients.
type CrowdGroup struct {
	Title   string
	Clients []CrowdClient
}

// CrowdClient is one client of a crowd's group as its own box would say
// it: its name, its state and the line under its clock (a pause's end, a
// session's state, what it waits for).
type CrowdClient struct {
	Name, State, Detail string
}

// CrowdGroupAt is the crowd's group drawn at pos (relative to the view),
// its clients in the order of the run's nodes; empty when pos is on no
// group (a server, a node's own box, nothing).
func (v *ClusterView) CrowdGroupAt(pos fyne.Position) CrowdGroup {
	if v.snap == nil {
		return CrowdGroup{}
	}
	shape := clusterShapeOf(v.snap.Nodes, v.Size())
	if !shape.crowd {
		return CrowdGroup{}
	}
	for i, b := range clusterLayout(shape.nodes, v.Size()) {
		if !b.contains(pos) || i >= len(shape.kinds) {
			continue
		}
		return crowdGroupOf(shape.kinds[i], v.snap.Nodes, shape.members[i])
	}
	return CrowdGroup{}
}

// crowdGroupOf is the group of kind k made of nodes' members in words.
func crowdGroupOf(k crowdKind, nodes []sim.NodeView, members []int) CrowdGroup {
	g := CrowdGroup{Title: groupLines(k, nodes, members)[0], Clients: make([]CrowdClient, len(members))}
	for j, m := range members {
		l := nodeLines(nodes[m])
		g.Clients[j] = CrowdClient{Name: l[0], State: l[1], Detail: l[3]}
	}
	return g
}
