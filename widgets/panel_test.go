package widgets

import (
	"slices"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/theme"
	"github.com/stretchr/testify/assert"

	"github.com/lockscope/lockscope/assets/i18n"
	"github.com/lockscope/lockscope/widgets/widgettest"
)

// newTestPanel is a panel titled title around a body at least minH high,
// in a window of its own.
func newTestPanel(t *testing.T, title string, minH float32) (*Panel, *canvas.Rectangle, *panelRenderer) {
	t.Helper()
	body := canvas.NewRectangle(nil)
	body.SetMinSize(fyne.NewSize(100, minH))
	p := NewPanel(title, body)
	w := test.NewTempWindow(t, p)
	w.SetPadded(false)
	return p, body, test.TempWidgetRenderer(t, p).(*panelRenderer)
}

// A title too long for the panel's width is set on two lines, read whole
// (the Redlock tally's title in a 1280-point window), while the body keeps
// its minimum height; where two lines would take the body's room it is
// one line ending in "…".
func TestPanelTitleWrapsWhereTheBodyHasRoom(t *testing.T) {
	test.NewTempApp(t)
	const title = "Vote tally — each try's votes, quorum and validity; each master's key by its own clock"
	p, body, r := newTestPanel(t, title, 80)

	p.Resize(fyne.NewSize(400, 300))
	assert.NotEmpty(t, r.title[1].Text, "two lines")
	assert.Equal(t, title, r.title[0].Text+" "+r.title[1].Text, "the whole title, nothing cut")
	for _, l := range r.title {
		assert.LessOrEqual(t, l.MinSize().Width, 400-2*r.pad)
		assert.Greater(t, l.Position().Y+l.MinSize().Height-2, float32(0))
	}
	assert.GreaterOrEqual(t, body.Position().Y, r.title[1].Position().Y+r.title[1].MinSize().Height-2, "the body starts under the second line")
	assert.GreaterOrEqual(t, body.Size().Height, float32(80))

	p.Resize(fyne.NewSize(400, p.MinSize().Height))
	assert.Empty(t, r.title[1].Text, "no room for a second line")
	assert.True(t, strings.HasSuffix(r.title[0].Text, "…"), r.title[0].Text)
	assert.GreaterOrEqual(t, body.Size().Height, float32(80), "the body keeps its minimum")

	p.Resize(fyne.NewSize(2000, 300))
	assert.Equal(t, title, r.title[0].Text, "wide enough: one line")
	assert.Empty(t, r.title[1].Text)
	assert.Equal(t, float32(panelTitleH+2), body.Position().Y)
}

// A title whose key has a short form shows it, whole, where the full one
// would end in "…" (the state panels at 1024×768, in both languages); a
// full title that fits stays, and with room for two lines the full title
// wraps. The width is the one that cuts the widest of a language's titles
// and not the narrowest, whatever the fonts measure (the CJK glyphs of the
// test theme come from the machine's fonts).
func TestPanelShortTitleWhereTheFullOneWouldBeCut(t *testing.T) {
	test.NewTempApp(t)
	t.Cleanup(func() { i18n.Set(i18n.English) })
	keys := []string{"state.redis", "state.redlock", "state.zookeeper", "state.etcd"}
	shorts := 0
	for _, l := range i18n.Langs {
		i18n.Set(l)
		_, _, r0 := newTestPanel(t, keys[0], 100)
		var widths []float32
		for _, key := range keys {
			widths = append(widths, TextWidth(i18n.T(key), 12, true))
		}
		slices.Sort(widths)
		width := (widths[0]+widths[len(widths)-1])/2 + 2*r0.pad + 4
		shortsBefore := shorts
		for _, key := range keys {
			p, _, r := newTestPanel(t, key, 100)

			want, cut := i18n.T(key), TextWidth(i18n.T(key), 12, true) > width-2*r.pad-4
			if cut {
				want = i18n.T(key + ".short")
				shorts++
			}
			p.Resize(fyne.NewSize(width, p.MinSize().Height))
			assert.Equal(t, want, r.title[0].Text, "%s %s: whole", l, key)
			assert.Empty(t, r.title[1].Text)
			if cut {
				p.Resize(fyne.NewSize(width, 300))
				nospace := func(s string) string { return strings.ReplaceAll(s, " ", "") }
				assert.Equal(t, nospace(i18n.T(key)), nospace(r.title[0].Text+r.title[1].Text), "%s %s: room for the full title on two lines", l, key)
			}
		}
		assert.Greater(t, shorts, shortsBefore, "%s: the test has titles that need their short form", l)
		assert.Less(t, shorts-shortsBefore, len(keys), "%s: and one that does not", l)
	}
}

// The panel follows Fyne's idiom: Refresh takes the theme and lays out; a
// resize only lays the border, the title and the body out again. The
// body's inset is the theme's inner padding.
func TestPanelResizeLaysOutWithoutRefreshing(t *testing.T) {
	test.NewTempApp(t)
	p, body, r := newTestPanel(t, "Cluster — click a node to inject a fault at the cursor", 60)
	p.Resize(fyne.NewSize(300, 200))
	widgettest.AssertResizeOnlyLaysOut(t, p, func() int { return r.refreshes }, fyne.NewSize(700, 400))
	pad := p.Theme().Size(theme.SizeNameInnerPadding)
	assert.Equal(t, fyne.NewPos(pad, panelTitleH+2), body.Position())
	assert.Equal(t, fyne.NewSize(700-2*pad, 400-panelTitleH-2-pad), body.Size())
}
