package widgets

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/lockscope/lockscope/assets/i18n"
	"github.com/lockscope/lockscope/sim"
	"github.com/lockscope/lockscope/widgets/widgettest"
)

// markBox is the rectangle a label of the picture takes: its badge, or
// its words 16 high.
func markBox(m tlMark) labelBox {
	if m.badge.Shown {
		return labelBox{m.badge.Pos.X, m.badge.Pos.Y, m.badge.Size.Width, m.badge.Size.Height}
	}
	return labelBox{m.text.Pos.X, m.text.Pos.Y, TextWidth(m.text.Text, 11, true), 16}
}

// The timeline's picture, for runs by hand and recorded and at sizes from
// cramped to roomy: the lanes one under the other between the band and
// the axis, each row inside its lane; every shape of the raster inside the
// frame and every bar inside the plot and its lane; a name per lane beside
// it; no label over another, every one inside the width, the words on
// their badges; every overlap labelled at its start.
func TestTimelinePicture(t *testing.T) {
	test.NewTempApp(t)
	runs := map[string]sim.Timeline{"by hand": gcPauseTimeline()}
	for _, p := range []string{"redis-gc-pause", "redlock-clock-jump", "etcd-lease-expiry", "zk-herd", "redis-happy-path", "redis-sentinel-paused-master"} {
		runs[p] = widgettest.RecordPreset(t, p).Timeline()
	}
	for name, tl := range runs {
		for _, size := range []fyne.Size{fyne.NewSize(1000, 300), fyne.NewSize(600, 160), fyne.NewSize(1400, 520)} {
			t.Run(fmt.Sprint(name, size), func(t *testing.T) {
				f := tlFrame{tl: tl, size: size}
				p := f.picture(size.Width, nil, nil, nil)
				assertPictureLanes(t, f, p)
				assertPictureNames(t, f, p)
				for i, m := range p.marks {
					assertPictureMark(t, f, p, m, p.marks[:i])
				}
				for _, ov := range tl.Overlaps {
					found := false
					for _, m := range p.marks {
						found = found || (m.timed && m.at == ov.From && m.badge.Shown && strings.HasPrefix(m.text.Text, i18n.T("timeline.overlap")))
					}
					assert.True(t, found, "the overlap at %v is labelled", ov.From)
				}
				for _, iv := range tl.Primaries {
					x, w := f.span(iv)
					drawn := slices.ContainsFunc(p.ops, func(o paintOp) bool {
						return !o.hatch && o.c == ColorCaution && o.x == x && o.w == w && o.y == p.top && o.h == tlPrimaryH
					})
					assert.True(t, drawn, "two primaries from %v to %v are a band along the lanes' top", iv.From, iv.To)
				}
			})
		}
	}
}

const tlEps = 0.01

// assertPictureLanes checks the lanes of p: one under the other from the
// band down, each row inside its lane, room for the axis and the legend;
// every shape inside the frame, every bar inside the plot.
func assertPictureLanes(t *testing.T, f tlFrame, p tlPicture) {
	t.Helper()
	tl, size := f.tl, f.size
	require.Len(t, p.lanes, len(tl.Clients))
	assert.GreaterOrEqual(t, p.top, float32(tlBareBand), "the lanes start below the band")
	top := p.top
	for i, g := range p.lanes {
		assert.InDelta(t, top, g.top, tlEps, "lane %d right under the one before", i)
		top = g.top + g.height
		assert.Greater(t, g.beliefY, g.top, "lane %d's belief row inside it", i)
		assert.Greater(t, g.ownedY, g.beliefY+g.beliefH, "lane %d's key row under its belief row", i)
		assert.Less(t, g.ownedY+g.ownedH, g.top+g.height, "lane %d's key row inside it", i)
	}
	assert.GreaterOrEqual(t, p.bottom, top-tlEps, "the lanes end above the bottom")
	assert.LessOrEqual(t, p.bottom+tlAxisH+tlLegendH, size.Height+tlEps, "room for the axis and the legend")

	for _, op := range p.ops {
		assert.True(t, op.w > 0 && op.h > 0, "a shape with room: %+v", op)
		assert.True(t, op.x >= -1 && op.x+op.w <= size.Width+1 && op.y >= 0 && op.y+op.h <= p.bottom+tlEps, "shape %+v inside the frame", op)
	}
	x0, x1 := f.plotSpan()
	for li := range p.lanes {
		for _, bars := range [][][]sim.Interval{tl.Holding, tl.Owned} {
			if li >= len(bars) {
				continue
			}
			for _, s := range f.pixelSpans(bars[li]) {
				assert.True(t, s[0] >= x0-tlEps && s[1] <= x1+1+tlEps, "lane %d's bar %v inside the plot %v–%v", li, s, x0, x1)
			}
		}
	}
}

// assertPictureNames checks that every lane tall enough is named in the
// gutter, level with its (belief) row, its caption under the name and
// level with the key row.
func assertPictureNames(t *testing.T, f tlFrame, p tlPicture) {
	t.Helper()
	var tall int
	for _, g := range p.lanes {
		if g.height >= 8 {
			tall++
		}
	}
	require.Len(t, p.names, tall, "a name per lane")
	for i, s := range p.names {
		g := p.lanes[i]
		assert.Equal(t, f.tl.Clients[i], s.Text)
		b := textBox(s, true)
		assert.LessOrEqual(t, b.x+b.w, float32(tlGutter), "%q in the gutter", s.Text)
		assert.True(t, b.y >= g.top-1 && b.y+s.Size <= g.top+g.height+1, "%q %v beside its lane %+v", s.Text, b, g)
		mid := g.top + g.height/2
		if g.height >= 36 {
			mid = g.beliefY + g.beliefH/2
		}
		assert.InDelta(t, mid, b.y+b.h/2, 2, "%q level with its lane's (belief) row", s.Text)
	}
	for _, s := range p.captions {
		i := slices.IndexFunc(p.lanes, func(g laneGeometry) bool { return s.Pos.Y > g.top && s.Pos.Y < g.top+g.height })
		require.GreaterOrEqual(t, i, 0, "a caption in a lane")
		g, b := p.lanes[i], textBox(s.Sized(10.5), false)
		assert.InDelta(t, g.ownedY+g.ownedH/2, b.y+b.h/2, 2, "the caption level with the key row")
		assert.GreaterOrEqual(t, b.y+1.5, textBox(p.names[i], true).y+textBox(p.names[i], true).h, "the caption under the name")
	}
}

// assertPictureMark checks a label of p: inside the width, its words on
// its badge, over none of those before it; a token on its holding bar
// after the grant's tick, "paused" on its pause.
func assertPictureMark(t *testing.T, f tlFrame, p tlPicture, m tlMark, before []tlMark) {
	t.Helper()
	tl, b := f.tl, markBox(m)
	assert.True(t, b.x >= -tlEps && b.x+b.w <= f.size.Width+tlEps, "label %q %v inside the width", m.text.Text, b)
	if m.badge.Shown {
		assert.True(t, inside(textBox(m.text.Sized(11), true), m.badge.Pos, m.badge.Size.AddWidthHeight(1, 1)), "%q on its badge", m.text.Text)
	}
	if m.timed {
		assert.True(t, m.at >= 0 && m.at <= tl.End, "%q tells of an instant of the run", m.text.Text)
	}
	if strings.HasPrefix(m.text.Text, "#") { // a token: on its client's holding bar, after the grant's tick
		gi := slices.IndexFunc(tl.Grants, func(g sim.Grant) bool { return g.At == m.at && "#"+fmt.Sprint(g.Token) == m.text.Text })
		require.GreaterOrEqual(t, gi, 0, "%q is a grant's token", m.text.Text)
		gr, g := tl.Grants[gi], p.lanes[tl.Grants[gi].Client]
		assert.Greater(t, b.x, f.xAt(gr.At)+2, "%q after the tick", m.text.Text)
		assert.InDelta(t, g.beliefY+g.beliefH/2, b.y+b.h/2, 0.5, "%q on the belief row", m.text.Text)
		assert.True(t, f.roomAfter(int(gr.Client), gr.At, b.x+b.w-f.xAt(gr.At)), "%q before the bar ends", m.text.Text)
	}
	if m.text.Text == i18n.T("timeline.paused") { // on the pause's grey, from its start
		a := f.xAt(m.at)
		assert.True(t, b.x > a && b.x < a+10, "%q at its pause's start", m.text.Text)
		assert.True(t, slices.ContainsFunc(p.lanes, func(g laneGeometry) bool { return b.y > g.beliefY-2 && b.y+b.h < g.beliefY+g.beliefH+2 }), "%q on a belief row", m.text.Text)
	}
	for _, o := range before {
		assert.True(t, labelBoxes{markBox(o)}.free(b), "label %q %v over %q %v", m.text.Text, b, o.text.Text, markBox(o))
	}
}
