package widgets

import (
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/theme"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/lockscope/lockscope/widgets/widgettest"
)

func TestTipLayerShowsAndHides(t *testing.T) {
	test.NewTempApp(t)
	layer := NewTipLayer()
	w := test.NewTempWindow(t, layer)
	w.Resize(fyne.NewSize(600, 400))
	r := test.TempWidgetRenderer(t, layer).(*tipRenderer)

	long := "Watchdog: Redisson renews the lock every lockWatchdogTimeout/3 (10 s of the default 30 s) with a compare-and-PEXPIRE back to the full TTL."
	layer.ShowNow(long, fyne.NewPos(100, 100))
	assert.Equal(t, long, layer.Tip())
	lines := widgettest.Texts(r.Objects())
	require.Greater(t, len(lines), 1, "a long tip wraps")
	for _, l := range lines {
		assert.LessOrEqual(t, TextWidth(l, 12, false), float32(tipMaxWidth))
	}
	assert.True(t, r.bg.Visible())
	assert.LessOrEqual(t, r.bg.Position().X+r.bg.Size().Width, layer.Size().Width, "the tip stays in the window")

	// A Chinese tip has few spaces: it wraps between characters.
	zh := "看门狗：Redisson 每隔 lockWatchdogTimeout/3（默认 30 秒中的 10 秒）用一次比较并 PEXPIRE 把锁续回完整的 TTL，只要持有者的进程还活着，锁就不会过期；进程一旦停止续期，锁会在完整的租期结束后自动过期，其他客户端随后可以获得它。"
	layer.ShowNow(zh, fyne.NewPos(100, 100))
	lines = widgettest.Texts(r.Objects())
	require.Greater(t, len(lines), 1, "a long Chinese tip wraps")
	for _, l := range lines {
		assert.LessOrEqual(t, TextWidth(l, 12, false), float32(tipMaxWidth))
	}

	layer.HideTip()
	assert.Empty(t, layer.Tip())
	assert.Empty(t, widgettest.Texts(r.Objects()))
	assert.False(t, r.bg.Visible())
}

func TestTipLayerTakesNoEvents(t *testing.T) {
	test.NewTempApp(t)
	layer := NewTipLayer()
	var _ fyne.Widget = layer
	_, tappable := any(layer).(fyne.Tappable)
	_, hoverable := any(layer).(desktop.Hoverable)
	assert.False(t, tappable || hoverable, "the layer must let events through to the controls beneath")

	tapped := false
	b := NewTipButton("Play", nil, func() { tapped = true }, layer, "Play or pause (space).")
	w := test.NewTempWindow(t, container.NewStack(container.NewCenter(b), layer))
	w.Resize(fyne.NewSize(300, 200))
	layer.ShowNow("a tip", fyne.NewPos(150, 100))
	test.TapCanvas(w.Canvas(), fyne.NewPos(150, 100))
	assert.True(t, tapped, "the button under a shown tip still takes the tap")
	assert.Empty(t, layer.Tip(), "tapping a control puts its tip away")
}

func TestTipControlsArmOnHover(t *testing.T) {
	test.NewTempApp(t)
	layer := NewTipLayer()
	s := NewTipSlider(0, 10, layer, "TTL")
	c := NewTipCheck("Fencing", nil, layer, "Fencing token")
	sel := NewTipSelect([]string{"a"}, nil, layer, "Presets")
	b := NewTipButton("Step", nil, nil, layer, "Step (→)")
	test.NewTempWindow(t, container.NewStack(container.NewVBox(s, c, sel, b), layer))
	for _, h := range []interface {
		desktop.Hoverable
		TipText() string
	}{s, c, sel, b} {
		h.MouseIn(&desktop.MouseEvent{})
		assert.NotNil(t, layer.timer, "%s: hovering arms the tip", h.TipText())
		h.MouseOut()
		assert.Nil(t, layer.timer, "%s: leaving disarms it", h.TipText())
	}
	s.SetTip("TTL, edited")
	assert.Equal(t, "TTL, edited", s.TipText())
}

// The tip follows Fyne's idiom: Refresh sets its lines in their width and
// takes the theme; a resize only places the box again, inside the layer.
func TestTipLayerResizeLaysOutWithoutRebuilding(t *testing.T) {
	test.NewTempApp(t)
	layer := NewTipLayer()
	w := test.NewTempWindow(t, layer)
	w.SetPadded(false)
	w.Resize(fyne.NewSize(600, 400))
	r := test.TempWidgetRenderer(t, layer).(*tipRenderer)
	layer.ShowNow("Lock TTL: the PX of SET lock <value> NX PX <ttl>, counted by the Redis server's own clock.", fyne.NewPos(590, 300))
	margin := layer.Theme().Size(theme.SizeNamePadding)
	assert.Equal(t, 600-margin, r.bg.Position().X+r.bg.Size().Width, "kept inside the layer by the theme's padding")
	widgettest.AssertResizeOnlyLaysOut(t, layer, func() int { return r.builds }, fyne.NewSize(1000, 600))
	assert.Equal(t, float32(590+14), r.bg.Position().X, "room enough: right of the mouse")
}
