package widgets

import (
	"fmt"
	"slices"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/lockscope/lockscope/sim"
)

// crowdSnapshot is n clients (client-1 holding, client-2 paused,
// client-3 crashed, every other one waiting, the last ones done) and five
// servers, client-4's request half-way to the first server.
func crowdSnapshot(n int) *sim.Snapshot {
	s := &sim.Snapshot{Mode: "etcd", At: 30 * time.Second, End: 2 * time.Minute}
	for i := range n {
		c := sim.NodeView{Name: fmt.Sprintf("client-%d", i+1), Client: true, State: sim.StateWaiting}
		switch {
		case i == 0:
			c.State, c.Token = sim.StateHolding, 7
		case i == 1:
			c.Paused = true
		case i == 2:
			c.Crashed = true
		case i >= n-2:
			c.State = sim.StateDone
		}
		s.Nodes = append(s.Nodes, c)
	}
	for i := range 5 {
		s.Nodes = append(s.Nodes, sim.NodeView{Name: fmt.Sprintf("etcd-%d", i+1)})
	}
	s.InFlight = []sim.MessageView{{From: 3, To: n, SentAt: 29 * time.Second, DeliverAt: 31 * time.Second}}
	return s
}

func TestClusterShapeCrowdsOnlyWhatDoesNotFit(t *testing.T) {
	for _, tc := range []struct {
		clients int
		size    fyne.Size
		crowd   bool
	}{
		{3, fyne.NewSize(1024, 200), false},
		{5, fyne.NewSize(700, 150), false},
		{12, fyne.NewSize(900, 360), false},
		{40, fyne.NewSize(900, 360), false}, // three columns of tiles 78 wide
		{60, fyne.NewSize(900, 360), true},
		{200, fyne.NewSize(1000, 150), true},
		{200, fyne.NewSize(2400, 1000), false}, // four columns of tiles on a large screen
		{200, fyne.NewSize(1400, 500), true},
	} {
		s := crowdSnapshot(tc.clients)
		shape := clusterShapeOf(s.Nodes, tc.size)
		assert.Equal(t, tc.crowd, shape.crowd, "%d clients in %v", tc.clients, tc.size)
		if !tc.crowd {
			assert.Equal(t, s.Nodes, shape.nodes)
		}
	}
}

func TestClusterShapeGroupsAClientPerState(t *testing.T) {
	s := crowdSnapshot(200)
	shape := clusterShapeOf(s.Nodes, fyne.NewSize(1000, 150))
	require.True(t, shape.crowd)
	assert.Equal(t, []crowdKind{crowdHolding, crowdWaiting, crowdDone, crowdPaused, crowdCrashed}, shape.kinds)
	require.Len(t, shape.nodes, 5+5)
	want := [][2]string{
		{"1 holding", "client-1"},
		{"195 waiting", "client-4, client-5, client-6, client-7, client-8, client-9, …"},
		{"2 done", "client-199, client-200"},
		{"1 paused", "client-2"},
		{"1 crashed", "client-3"},
	}
	for i, w := range want {
		assert.Equal(t, w, [2]string{shape.lines[i][0], shape.lines[i][1]}, "group %d", i)
	}
	assert.Equal(t, int64(7), int64(shape.nodes[0].Token), "the lone holder's token")
	assert.True(t, shape.nodes[3].Paused)
	assert.True(t, shape.nodes[4].Crashed)
	assert.Equal(t, "etcd-1", shape.nodes[5].Name)
	// Each client is drawn in its group's box, each server in its own.
	assert.Equal(t, 1, shape.drawnOf[3])
	assert.Equal(t, 0, shape.drawnOf[0])
	assert.Equal(t, 5, shape.drawnOf[200])
	n := 0
	for _, m := range shape.members[:5] {
		n += len(m)
	}
	assert.Equal(t, 200, n, "every client is in one group")
}

func TestClusterCrowdTapOffersTheGroupsClients(t *testing.T) {
	test.NewTempApp(t)
	v := NewClusterView()
	w := test.NewTempWindow(t, v)
	w.Resize(fyne.NewSize(900, 200))
	snap := crowdSnapshot(200)
	v.SetSnapshot(snap)
	var got string
	v.OnTapNode = func(node string, _ fyne.Position) { got = node }

	shape := clusterShapeOf(snap.Nodes, v.Size())
	require.True(t, shape.crowd)
	boxes := clusterLayout(shape.nodes, v.Size())
	test.TapAt(v, boxes[0].center())
	assert.Equal(t, "client-1", got, "the holding group offers its holder")
	test.TapAt(v, boxes[1].center())
	assert.Equal(t, "client-4", got, "a group offers its first client")
	assert.Len(t, v.GroupAt(boxes[1].center()), 195)
	test.TapAt(v, boxes[5].center())
	assert.Equal(t, "etcd-1", got)
	assert.Equal(t, []string{"etcd-1"}, v.GroupAt(boxes[5].center()))
}

func TestClusterCrowdDrawsAFewBoxesAndLinks(t *testing.T) {
	test.NewTempApp(t)
	v := NewClusterView()
	w := test.NewTempWindow(t, v)
	w.Resize(fyne.NewSize(900, 200))
	snap := crowdSnapshot(200)
	r, _ := showSnapshot(t, v, snap)
	assert.Equal(t, 10, len(r.nodes.Used()), "five groups and five servers")
	assert.Less(t, len(r.links.Used()), 60, "each group linked to each server, not each client")
	assert.Equal(t, 1, len(r.msgs.Used()), "the request drawn from its group's box")
	relinks := r.relinks
	snap2 := crowdSnapshot(200)
	snap2.At += time.Millisecond
	v.SetSnapshot(snap2)
	assert.Equal(t, relinks, r.relinks, "the same groups keep their links")
}

// TestClusterCrowdGroupListsItsClients: with OnTapGroup set, a tap on a
// group of many clients hands the group, every client with its own state
// and detail as its box would say them; a group of one, and a server,
// still go to OnTapNode.
func TestClusterCrowdGroupListsItsClients(t *testing.T) {
	test.NewTempApp(t)
	v := NewClusterView()
	w := test.NewTempWindow(t, v)
	w.Resize(fyne.NewSize(900, 200))
	snap := crowdSnapshot(200)
	v.SetSnapshot(snap)
	var node string
	var group CrowdGroup
	v.OnTapNode = func(n string, _ fyne.Position) { node = n }
	v.OnTapGroup = func(g CrowdGroup, _ fyne.Position) { group = g }
	boxes := clusterLayout(clusterShapeOf(snap.Nodes, v.Size()).nodes, v.Size())

	test.TapAt(v, boxes[1].center())
	assert.Empty(t, node, "a group of many is a list, not its first client's menu")
	require.Len(t, group.Clients, 195)
	assert.Equal(t, groupLines(crowdWaiting, snap.Nodes, clusterShapeOf(snap.Nodes, v.Size()).members[1])[0], group.Title)
	for _, c := range group.Clients {
		i := slices.IndexFunc(snap.Nodes, func(n sim.NodeView) bool { return n.Name == c.Name })
		require.GreaterOrEqual(t, i, 0, c.Name)
		want := nodeLines(snap.Nodes[i])
		assert.Equal(t, CrowdClient{Name: want[0], State: want[1], Detail: want[3]}, c)
	}
	assert.Equal(t, "client-4", group.Clients[0].Name, "in the run's order")

	group = CrowdGroup{}
	test.TapAt(v, boxes[0].center())
	assert.Equal(t, "client-1", node, "a group of one is its client")
	assert.Empty(t, group.Clients)
	test.TapAt(v, boxes[5].center())
	assert.Equal(t, "etcd-1", node)
	assert.Empty(t, v.CrowdGroupAt(boxes[5].center()).Clients, "a server is no group")
}
