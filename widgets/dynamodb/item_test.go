package dynamodb

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/lockscope/lockscope/sim"
	dynamodbsim "github.com/lockscope/lockscope/sim/dynamodb"
	"github.com/lockscope/lockscope/sim/simtest"
	"github.com/lockscope/lockscope/widgets/widgettest"
)

// The model shows the item and, for the paused-holder story at 15 s,
// client-1 holding (paused, no heartbeat since 0) and client-2 waiting on
// its own clock for the version it saw.
func TestItemModelOfThePausedHolder(t *testing.T) {
	snap := widgettest.SnapshotAt(t, "dynamodb-paused-holder", 15*time.Second)
	v := dynamodbsim.ViewOf(snap)
	require.NotNil(t, v)
	require.True(t, v.Item.Exists)
	assert.Equal(t, "client-1", v.Item.Owner)
	m := buildItemModel(v, snap.Nodes)
	var texts []string
	var bars []float32
	for _, r := range m.rows {
		texts = append(texts, r.Text)
		if r.Bar >= 0 {
			bars = append(bars, r.Bar)
		}
	}
	assert.Contains(t, texts, "key lock · ownerName client-1")
	assert.Contains(t, texts, "recordVersionNumber "+v.Item.RVN+" · leaseDuration 20 s")
	require.Len(t, bars, 1, "one waiter's bar")
	assert.InDelta(t, 0.26, bars[0], 0.05, "about 5 s of 20 s left on client-2's clock")
	found := false
	for _, s := range texts {
		if len(s) > 20 && s[:20] == "client-2 waits: saw " {
			found = true
		}
	}
	assert.True(t, found, "client-2's last-seen version: %v", texts)
}

func TestItemDrawsEachSnapshotOnce(t *testing.T) {
	widgettest.AssertDrawsEachSnapshotOnce(t, "dynamodb-paused-holder", NewItem(),
		func(r fyne.WidgetRenderer) int { return r.(*itemRenderer).refreshes })
}

func TestItemResizeLaysOutWithoutRebuilding(t *testing.T) {
	widgettest.AssertResizeLaysOutWithoutRebuilding(t, "dynamodb-paused-holder", 12*time.Second, NewItem(),
		func(r fyne.WidgetRenderer) int { return r.(*itemRenderer).builds })
}

func TestItemShownInChinese(t *testing.T) {
	widgettest.AssertShownInChinese(t, []widgettest.ChineseCase{
		{Preset: "dynamodb-paused-holder", At: 15 * time.Second, Want: []string{"中的锁条目", "client-2 等待：看到", "按它的时钟 acquireLock 将在", "已停顿：心跳线程随之停顿"}},
		{Preset: "dynamodb-happy-path", At: 29 * time.Second, Want: []string{"没有条目：锁空闲"}},
	}, func() []widgettest.Picture { return []widgettest.Picture{NewItem()} }, func(s *sim.Snapshot) []string {
		return []string{"no item: the lock is free", "its heartbeat thread renews the item"}
	})
}

func TestItemEmptyWithoutAView(t *testing.T) {
	test.NewTempApp(t)
	it := NewItem()
	w := test.NewTempWindow(t, it)
	w.Resize(fyne.NewSize(400, 300))
	it.SetSnapshot(&sim.Snapshot{Mode: "redis"})
	assert.Empty(t, widgettest.Texts(test.TempWidgetRenderer(t, it).Objects()))
}

func TestDynamoDBProtocolFollowsTheScenario(t *testing.T) {
	sc, err := simtest.Load("dynamodb-session-monitor")
	require.NoError(t, err)
	lines := dynamodbProtocol(sc)
	assert.Contains(t, lines, "heartbeat: every 5 s UpdateItem if ownerName = me and recordVersionNumber = mine, with a fresh one")
	assert.Contains(t, lines, "session monitor: 10 s without a successful heartbeat runs the callback, which stops the worker")
	assert.Contains(t, lines, "write: to a storage outside DynamoDB, no token: the version guards only the lock item")
	sc = sc.Clone()
	dynamodbsim.SafeTime.Set(sc, 0)
	dynamodbsim.CheckExpired.Set(sc, true)
	lines = dynamodbProtocol(sc)
	assert.NotContains(t, lines, "session monitor: 10 s without a successful heartbeat runs the callback, which stops the worker")
	assert.Contains(t, lines, "write: after lockItem.isExpired() is false; to a storage outside DynamoDB, no token")
}

// In a box shorter than the picture (the tab at 1024×768), the item's
// counts and age and the clients' muted lines give way first, so each
// client's state stays; nothing is drawn below the box, over the notes.
func TestItemKeepsToAShortBox(t *testing.T) {
	test.NewTempApp(t)
	size := fyne.NewSize(480, 130)
	snap := widgettest.SnapshotAt(t, "dynamodb-paused-holder", 9700*time.Millisecond)
	m := buildItemModel(dynamodbsim.ViewOf(snap), snap.Nodes)
	require.Greater(t, itemLayout(m, fyne.NewSize(size.Width, 1000), test.Theme()).height, size.Height, "the whole picture needs more than the box")
	it := NewItem()
	texts := widgettest.InShortBox(t, it, size, snap)
	assert.Equal(t, size.Height, it.DrawnHeight(size), "it fills the box it is short of")
	var waits, holds, counts bool
	for _, s := range texts {
		waits = waits || strings.HasPrefix(s, "client-2 waits: saw ")
		holds = holds || strings.HasPrefix(s, "client-1 believes it holds it")
		counts = counts || strings.Contains(s, "conditional writes applied")
	}
	assert.True(t, waits, "client-2's wait stays: %v", texts)
	assert.True(t, holds, "client-1's hold stays: %v", texts)
	assert.False(t, counts, "the item's counts give way: %v", texts)
}

// Ten clients in a short box: the holder comes first, then the waiter
// nearest to a takeover, and a line says how many clients are left out.
func TestItemNamesTheHolderOfACrowd(t *testing.T) {
	snap := widgettest.CrowdSnapshotAt(t, "dynamodb-happy-path", 10, 5*time.Second)
	texts := widgettest.InShortBox(t, NewItem(), fyne.NewSize(480, 130), snap)
	var holds bool
	for _, s := range texts {
		holds = holds || strings.HasPrefix(s, "client-3 believes it holds it")
	}
	assert.True(t, holds, "the holder is drawn: %v", texts)
	// The holder's and one waiter's lines are drawn; the view's other
	// clients are counted.
	left := len(dynamodbsim.ViewOf(snap).Clients) - 2
	assert.Contains(t, texts, fmt.Sprintf("… and %d more clients, not drawn: give the picture more room", left))
}
