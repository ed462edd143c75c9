package kubernetes

import (
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/lockscope/lockscope/sim"
	kubernetessim "github.com/lockscope/lockscope/sim/kubernetes"
	"github.com/lockscope/lockscope/sim/simtest"
	"github.com/lockscope/lockscope/widgets"
	"github.com/lockscope/lockscope/widgets/widgettest"
)

func texts(rows []widgets.ToneLine) []string {
	var out []string
	for _, r := range rows {
		out = append(out, r.Text)
	}
	return out
}

// The model of the paused-leader story at 15 s: the Lease is client-1's
// (leaseTransitions 0), client-1 leads but is paused, and client-2 counts
// client-1's record out on its own clock, its bar about a third full.
func TestLeaseModelOfThePausedLeader(t *testing.T) {
	snap := widgettest.SnapshotAt(t, "k8s-paused-leader", 15*time.Second)
	v := kubernetessim.ViewOf(snap)
	require.NotNil(t, v)
	require.True(t, v.Lease.Exists)
	assert.Equal(t, "client-1", v.Lease.Holder)
	m := buildLeaseModel(v, snap.Nodes)
	obj := texts(m.object)
	assert.Contains(t, obj, "holderIdentity client-1")
	assert.Contains(t, obj, "leaseDurationSeconds 15")
	assert.Contains(t, obj, "leaseTransitions 0")
	cand := texts(m.candidates)
	assert.Contains(t, cand, "paused: its renewals are paused with it")
	var bars []float32
	for _, r := range m.candidates {
		if r.Bar >= 0 {
			bars = append(bars, r.Bar)
		}
	}
	require.Len(t, bars, 1, "client-2's bar")
	assert.InDelta(t, 5.7/15, bars[0], 0.05, "about 5.7 s of 15 s left on client-2's clock")
	found := false
	for _, s := range cand {
		found = found || strings.HasPrefix(s, "client-1's record expires for it in ")
	}
	assert.True(t, found, "%v", cand)
	assert.Contains(t, cand, "client-2 waits (its clock, rate +0 %)")

	// After the takeover the Lease is client-2's, leaseTransitions 1.
	v = kubernetessim.ViewOf(widgettest.SnapshotAt(t, "k8s-paused-leader", 25*time.Second))
	require.NotNil(t, v)
	assert.Equal(t, "client-2", v.Lease.Holder)
	assert.Equal(t, 1, v.Lease.Transitions)
	assert.Positive(t, v.Lease.ResourceVersion)
}

func TestLeaseDrawsEachSnapshotOnce(t *testing.T) {
	widgettest.AssertDrawsEachSnapshotOnce(t, "k8s-paused-leader", NewLease(),
		func(r fyne.WidgetRenderer) int { return r.(*leaseRenderer).refreshes })
}

func TestLeaseResizeLaysOutWithoutRebuilding(t *testing.T) {
	widgettest.AssertResizeLaysOutWithoutRebuilding(t, "k8s-paused-leader", 12*time.Second, NewLease(),
		func(r fyne.WidgetRenderer) int { return r.(*leaseRenderer).builds })
}

func TestLeaseShownInChinese(t *testing.T) {
	widgettest.AssertShownInChinese(t, []widgettest.ChineseCase{
		{Preset: "k8s-paused-leader", At: 15 * time.Second, Want: []string{"已停顿：它的续约也随之停顿", "client-2 等待（它的时钟，速率 +0 %）", "按它的时钟 client-1 的记录"}},
		{Preset: "k8s-cut-off", At: 17 * time.Second, Want: []string{"client-1 不再担任 leader：工作线程做完这一轮"}},
	}, func() []widgettest.Picture { return []widgettest.Picture{NewLease()} }, func(s *sim.Snapshot) []string {
		return []string{"paused: its renewals are paused with it", "stopped leading"}
	})
}

func TestLeaseEmptyWithoutAView(t *testing.T) {
	test.NewTempApp(t)
	l := NewLease()
	w := test.NewTempWindow(t, l)
	w.Resize(fyne.NewSize(400, 300))
	l.SetSnapshot(&sim.Snapshot{Mode: "redis"})
	assert.Empty(t, widgettest.Texts(test.TempWidgetRenderer(t, l).Objects()))
}

func TestKubernetesProtocolFollowsTheScenario(t *testing.T) {
	sc, err := simtest.Load("k8s-paused-leader")
	require.NoError(t, err)
	lines := kubernetesProtocol(sc)
	assert.Contains(t, lines, "take over only once the record has stood unchanged 15 s on the candidate's own clock: PUT with leaseTransitions + 1")
	assert.Contains(t, lines, "lead: renew every 2 s with a PUT of the resourceVersion last read; no renewal within 10 s on its clock: stop leading")
	assert.Contains(t, lines, "write: the leader's periodic work to the storage, no token")
	sc = sc.Clone()
	sc.Fencing = true
	kubernetessim.ReleaseOnCancel.Set(sc, true)
	lines = kubernetesProtocol(sc)
	assert.Contains(t, lines, "write: the leader's periodic work to the storage, with leaseTransitions as its token")
	assert.Contains(t, lines, "release: on cancel, PUT holderIdentity \"\" and leaseDurationSeconds 1")
}

// The picture says how tall it draws, so the notes under it start there:
// in a wide panel (candidates beside the card) and a narrow one (under it).
func TestLeaseDrawnHeight(t *testing.T) {
	for _, c := range []struct {
		preset string
		at     time.Duration
		width  float32
	}{{"k8s-paused-leader", 15 * time.Second, 680}, {"k8s-release-on-cancel", 5 * time.Second, 680}} {
		widgettest.AssertDrawnHeight(t, c.preset, c.at, NewLease(), c.width)
	}
	// Narrow, the card stands over the candidates and its rows give way in
	// a short box, so a box half as high holds the picture whole.
	l := NewLease()
	texts := widgettest.InShortBox(t, l, fyne.NewSize(330, 400), widgettest.SnapshotAt(t, "k8s-paused-leader", 15*time.Second))
	require.Contains(t, texts, "renewTime 4.078 s", "a tall box shows the whole card")
	tall := l.DrawnHeight(fyne.NewSize(330, 400))
	require.Less(t, tall, float32(400))
	assert.LessOrEqual(t, l.DrawnHeight(fyne.NewSize(330, tall/2)), tall/2)
}

// In a theme whose text is twice the size, every length of the picture
// is twice what it is in the default theme.
func TestLeaseGrowsWithTheText(t *testing.T) {
	snap := widgettest.SnapshotAt(t, "k8s-paused-leader", 15*time.Second)
	size := fyne.NewSize(1400, 900)
	draw := func(th fyne.Theme) (leaseGeometry, fyne.Size) {
		a := test.NewTempApp(t)
		if th != nil {
			a.Settings().SetTheme(th)
		}
		l := NewLease()
		w := test.NewTempWindow(t, l)
		w.Resize(size)
		l.Resize(size)
		l.SetSnapshot(snap)
		r := test.TempWidgetRenderer(t, l).(*leaseRenderer)
		return leaseLayout(r.model, size, l.Theme()), r.MinSize()
	}
	g, _ := draw(nil)
	lg, least := draw(widgettest.LargeText())
	assert.Equal(t, 2*g.k, lg.k)
	assert.Equal(t, 2*g.cardSize.Height, lg.cardSize.Height)
	assert.Equal(t, fyne.NewSize(2*leaseMinW, 2*leaseMinH), least)
}

// In a box shorter than the picture, the lines that would end below it
// are left out, the holder's first: nothing is drawn over the notes.
func TestLeaseKeepsToAShortBox(t *testing.T) {
	texts := widgettest.InShortBox(t, NewLease(), fyne.NewSize(480, 110), widgettest.SnapshotAt(t, "k8s-paused-leader", 32*time.Second))
	assert.Contains(t, texts, "holderIdentity client-2")
}

// Ten candidates in a short box: those who lead come first, so both
// leaders of the paused-leader story are drawn, and a line says how many
// candidates are left out.
func TestLeaseNamesTheLeadersOfACrowd(t *testing.T) {
	texts := widgettest.InShortBox(t, NewLease(), fyne.NewSize(480, 130), widgettest.CrowdSnapshotAt(t, "k8s-paused-leader", 10, 25*time.Second))
	assert.Contains(t, texts, "client-1 leads (its clock, rate +0 %)")
	assert.Contains(t, texts, "client-8 leads (its clock, rate +0 %)")
	more := false
	for _, s := range texts {
		more = more || strings.HasPrefix(s, "… and 8 more candidates") // of ten: the two leaders are drawn
	}
	assert.True(t, more, "the candidates left out are counted: %v", texts)
}

// A candidate outside its LeaderElector's Run says which of three it is:
// not started yet, restarting between two rounds, or exited for good.
func TestLeaseTellsAnIdleCandidateApart(t *testing.T) {
	restarting := func(t *testing.T) *sim.Snapshot {
		sc, err := simtest.Load("k8s-release-on-cancel")
		require.NoError(t, err)
		sc.Rounds, sc.Think = 2, sim.Duration(3*time.Second)
		rec, err := sim.Record(sc)
		require.NoError(t, err)
		t.Cleanup(func() { rec.Close() })
		return rec.At(5 * time.Second)
	}
	cases := []struct {
		name string
		snap func(t *testing.T) *sim.Snapshot
		want string
	}{
		{"before its start", func(t *testing.T) *sim.Snapshot { return widgettest.SnapshotAt(t, "k8s-paused-leader", 0) },
			"client-2: not started yet"},
		{"its one round over", func(t *testing.T) *sim.Snapshot {
			return widgettest.SnapshotAt(t, "k8s-release-on-cancel", 5*time.Second)
		}, "client-1: exited, not restarted (its rounds are over)"},
		{"between two rounds", restarting, "client-1: exited, restarting"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			snap := c.snap(t)
			assert.Contains(t, texts(buildLeaseModel(kubernetessim.ViewOf(snap), snap.Nodes).candidates), c.want)
		})
	}
}

// In a box too narrow for the candidates beside the card and too short
// for both (the dashboard open at 1024 points), the card's later rows give
// way to the candidates, and in a box shorter still the whole card does:
// each candidate's view on its own clock is drawn, the leaders' lines
// naming the holder.
func TestLeaseCardGivesWayToTheCandidates(t *testing.T) {
	for _, c := range []struct {
		height      float32
		shown, gone []string
	}{
		{150, []string{"holderIdentity client-2", "client-1 leads", "client-2 leads"}, []string{"renewTime"}},
		{90, []string{"client-1 leads", "client-2 leads"}, []string{"Lease kube-system/lockscope"}},
	} {
		texts := widgettest.InShortBox(t, NewLease(), fyne.NewSize(330, c.height), widgettest.SnapshotAt(t, "k8s-paused-leader", 29800*time.Millisecond))
		joined := strings.Join(texts, "\n")
		for _, want := range c.shown {
			assert.Contains(t, joined, want, "%v points high", c.height)
		}
		for _, gone := range c.gone {
			assert.NotContains(t, joined, gone, "%v points high: given way", c.height)
		}
	}
}
